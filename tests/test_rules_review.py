"""The rules review (issue 9): base Expeditions discovery cards on a small test content set, the
provenance labels, and the failure messages of the new scenario keys. The departures themselves are
pinned by ``tests/scenarios/rules_review/*.yaml``."""

from __future__ import annotations

import random
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest
import yaml

from meloch.content import get, load, register
from meloch.content.loader import DATA_DIR, ContentError, load_dir
from meloch.engine import Setup, apply, legal_actions, new_game, replay, state_hash
from meloch.engine.cards import draw_discovery
from meloch.engine.game_content import using
from meloch.engine.model import SeatSetup
from meloch.engine.tx import Tx
from meloch.scenario import ScenarioError, run
from meloch.scenario.invariants import check
from meloch.scenario.model import Scenario

# ---------------------------------------------------------------- base Expeditions discovery cards


def _quest(cid: str, locs: list[str]) -> dict[str, Any]:
    return {"id": cid, "name": f"Base quest {cid}", "kind": "quest", "set": "expeditions", "core": "power",
            "core_value": 1, "worker": "red", "ability": ["coins 1"], "ability_text": "Gain $1.",
            "solve_locations": locs, "solve_cost": ["power 1"], "solve_gain": ["coins 2"],
            "provenance": "standin", "note": "test"}


def _item(cid: str) -> dict[str, Any]:
    return {"id": cid, "name": f"Base item {cid}", "kind": "item", "set": "expeditions", "core": "guile",
            "core_value": 1, "worker": "blue", "ability": ["guile 1"], "ability_text": "Gain 1 guile.",
            "upgrade_coins": 2, "provenance": "standin", "note": "test"}


def _write(path: Path, data: Any) -> None:
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")


BASE_ID = "test-base-discoveries"


@pytest.fixture(scope="module")
def base_cards(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A content set (id ``BASE_ID``): the package content plus 4 base cards: x01 (quest 4/15: off the
    Duel board), x02 (quest 2/5), x03 (quest 11/20) and x04 (item)."""
    data = tmp_path_factory.mktemp("base") / "data"
    shutil.copytree(DATA_DIR, data)
    _write(data / "cards_expeditions.yaml", [_quest("x01", ["4", "15"]), _quest("x02", ["2", "5"]),
                                             _quest("x03", ["11", "20"]), _item("x04")])
    register(BASE_ID, load_dir(data))
    yield BASE_ID


def test_base_discovery_file_ships_empty() -> None:
    assert [c for c in load().cards.values() if c.set == "expeditions"] == []
    assert len(new_game(Setup(base_discoveries=True), 1).discovery_deck) == 28


def test_base_cards_join_the_deck_only_with_the_option(base_cards: str) -> None:
    with_base = new_game(Setup(content=base_cards, base_discoveries=True), 4)
    assert {"x02", "x04"} <= set(with_base.discovery_deck) | {c for _, c in with_base.lakes}
    without = new_game(Setup(content=base_cards), 4)
    assert not {"x01", "x02", "x03", "x04"} & (set(without.discovery_deck) | {c for _, c in without.lakes})
    assert check(with_base) == [] and check(without) == []


def test_off_board_quest_is_discarded_and_redrawn(base_cards: str) -> None:
    s = new_game(Setup(content=base_cards, base_discoveries=True), 2)
    rest = [c for c in s.discovery_deck if c not in ("x01", "x02", "x03")]
    # drawn first: x03 (11/20), then x01 (4/15), then x02 (2/5, on the Duel board)
    s = msgspec.structs.replace(s, discovery_deck=(*rest, "x02", "x01", "x03"),
                                discovery_trash=tuple(c for c in s.discovery_trash if c not in ("x01", "x03")))
    with using(get(base_cards)) as content:
        tx = Tx(s, content)
        assert draw_discovery(tx) == "x02"
    assert tx.s.discovery_trash[-2:] == ("x03", "x01")
    assert sum("quest for locations 11-20" in e.text for e in tx.events) == 2


def test_setup_deal_redraws_off_board_quests(base_cards: str) -> None:
    """Over many seeds some lake deal meets a base quest for 11-20: it never reaches a lake."""
    dealt_over = 0
    for seed in range(60):
        s = new_game(Setup(content=base_cards, base_discoveries=True), seed)
        assert not {"x01", "x03"} & {c for _, c in s.lakes}
        dealt_over += bool({"x01", "x03"} & set(s.discovery_trash))
        assert check(s) == []
    assert dealt_over > 0


def test_random_games_with_base_cards(base_cards: str) -> None:
    """Fuzzing with the mix-in: invariants at every step, replay gives the same state."""
    for g in range(6):
        setup = Setup(content=base_cards, base_discoveries=True, turn_limit=60, map_side=("jungle", "desert")[g % 2],
                      variant="expeditions_vs_expeditions" if g % 3 == 2 else "standard",
                      seats=(SeatSetup(role="expeditions"), SeatSetup(role="expeditions", mech="tatanka"))
                      if g % 3 == 2 else (SeatSetup(role="scythe"), SeatSetup(role="expeditions")))
        rng = random.Random(g)
        s = new_game(setup, 900 + g)
        acts: list[str] = []
        while s.winner < 0:
            options = legal_actions(s)
            assert options, f"game {g}: no legal action"
            a = options[rng.randrange(len(options))]
            s = apply(s, a)
            acts.append(str(a))
            assert len(acts) < 5000, f"game {g}: no end in sight"
            if s.step % 7 == 0:
                assert check(s) == [], f"game {g} step {s.step}: {check(s)}"
            for _, cid in s.lakes:
                assert cid not in ("x01", "x03")
        assert state_hash(replay(setup, 900 + g, acts)) == state_hash(s)


def test_loader_checks_base_discovery_cards(tmp_path: Path) -> None:
    data = tmp_path / "data"
    shutil.copytree(DATA_DIR, data)
    _write(data / "cards_expeditions.yaml", [_quest("x01", ["4", "21"])])
    with pytest.raises(ContentError, match=r"'21' is not a location 1\.\.20"):
        load_dir(data)
    _write(data / "cards_expeditions.yaml", [{**_quest("x01", ["4", "15"]), "set": "duel"}])
    with pytest.raises(ContentError, match="set: expeditions"):
        load_dir(data)
    _write(data / "cards_expeditions.yaml", [_quest("q01", ["4", "15"])])
    with pytest.raises(ContentError, match="duplicate id"):
        load_dir(data)
    cards = yaml.safe_load((data / "cards.yaml").read_text(encoding="utf-8"))
    q = next(c for c in cards if c["id"] == "q01")
    q["solve_locations"] = ["1", "15"]
    _write(data / "cards.yaml", cards)
    _write(data / "cards_expeditions.yaml", [])
    with pytest.raises(ContentError, match=r"'15' is not a location 1\.\.10"):
        load_dir(data)


def test_map_token_at_arg_is_checked(tmp_path: Path) -> None:
    data = tmp_path / "data"
    shutil.copytree(DATA_DIR, data)
    cards = yaml.safe_load((data / "cards.yaml").read_text(encoding="utf-8"))
    next(c for c in cards if c["id"] == "i09")["ability"] = ["map_token_at far"]
    _write(data / "cards.yaml", cards)
    with pytest.raises(ContentError, match="map_token_at takes adjacent or any"):
        load_dir(data)


# ---------------------------------------------------------------- labels (item 8)


def test_combat_columns_are_marked_inferred() -> None:
    for side in load().tracks.values():
        for cat in side.categories:
            if cat.combat:
                assert cat.provenance == "reference" and cat.note.startswith("INFERRED"), (side.id, cat.column)


# ---------------------------------------------------------------- the new scenario keys' messages


def _scenario(**kw: Any) -> Scenario:
    return msgspec.convert({"name": "t", "source": "test", **kw}, Scenario)


def test_runs_and_seeds_name_where_a_step_fails() -> None:
    sc = _scenario(seeds=[1, 2], runs=[{"name": "a", "steps": [{"action": "E token all"}]},
                                       {"steps": [{"action": "E token all", "expect": {"seats.1.token": "move"}}]}])
    r = run(sc, "x.yaml")
    assert not r.ok
    text = r.report()
    assert 'x.yaml: run 1, seed 1: step 0 (E token all): expect seats.1.token: want "move", got "all"' in text
    assert "run 1, seed 2: step 0" in text and "run 0" not in text


def test_seed_range() -> None:
    sc = _scenario(seeds={"first": 3, "count": 4}, steps=[{"action": "E token all"}])
    assert sc.seed_list() == [3, 4, 5, 6]
    assert len(run(sc).steps) == 4


def test_setup_error_messages() -> None:
    two = ({"role": "scythe", "stars_to_win": 3}, {"role": "expeditions", "stars_to_win": 3})
    assert run(_scenario(setup={"seats": two}, setup_error="only the less experienced")).ok
    wrong = run(_scenario(setup={"seats": two}, setup_error="unknown faction"))
    assert "setup_error: want a message containing 'unknown faction', got" in wrong.report()
    started = run(_scenario(setup_error="anything"))
    assert "setup_error: want the setup refused ('anything'), but the game started" in started.report()
    with pytest.raises(ScenarioError, match="has no position, steps or runs"):
        run(_scenario(setup_error="x", steps=[{"action": "E token all"}]))
    with pytest.raises(ScenarioError, match="needs steps, runs or setup_error"):
        run(_scenario())


def test_event_order_since_and_lack_messages() -> None:
    steps = [{"action": "E token all"}, {"action": "E do move"},
             {"note": "c", "events_since": 0, "events_in_order": ["takes Move", "moves the action token"]},
             {"note": "d", "events_lack": ["token"], "events_since": 0}]
    text = run(_scenario(steps=steps), "x.yaml").report()
    assert "step 2 (c): events_in_order: no event contains 'moves the action token' after 'takes Move'" in text
    assert "step 3 (d): events_lack: 'token' occurs in" in text
    with pytest.raises(ScenarioError, match=r"steps\[0\].events_since: 1 is not the index of this step"):
        run(_scenario(steps=[{"note": "x", "events_since": 1}]))


def test_expect_not_in_metric_and_lacks_verb_messages() -> None:
    steps = [{"expect_not": {"active": 1}, "expect_in": {"turn": [5, 6]},
              "metric": [{"seat": 0, "name": "controlled", "value": []}, {"seat": 0, "name": "fame", "value": 1}],
              "legal": {"lacks_verb": ["token", "S token"]}}]
    text = run(_scenario(steps=steps), "x.yaml").report()
    assert "expect_not active: should not be 1" in text
    assert "expect_in turn: want one of [5, 6], got " in text
    assert "metric(seat 0).controlled: want [], got [" in text
    assert "metric(seat 0).fame: unknown metric; use one of" in text
    assert "legal: no action with verb 'token' should be legal, got ['E token" in text
    assert "verb 'S token'" not in text  # no S action is legal at the start


def test_view_paths_reach_number_keys_and_the_root() -> None:
    s = new_game(Setup(), 1)
    loc = next(lc for lc, _ in s.corruption if lc.isdigit())
    ok = run(_scenario(steps=[{"view": [{"seat": 0, "path": f'corruption."{loc}".len', "value": 2},
                                        {"seat": 0, "path": "", "contains": ["corruption", "seats"]}]}],
                       setup={"seed": 1}))
    assert ok.ok, ok.report()
    bad = run(_scenario(steps=[{"view": {"seat": 0, "path": "corruption.10", "value": 2}}], setup={"seed": 1}))
    assert "corruption has no field 10" in bad.report()
