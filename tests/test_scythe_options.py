"""Base Scythe mix-ins (rulebook Setup 7-8), Speed stops on the way, faction tokens as data, and the
split of the Scythe modules (issue 3, second round)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest
import yaml

from meloch.content import load, loader
from meloch.content.loader import DATA_DIR, ContentError, load_dir
from meloch.content.schema import Content
from meloch.engine import SeatSetup, Setup, new_game
from meloch.engine.model import ScytheSeat, State
from meloch.engine.scythe.abilities import token_options, unplaced_influence
from meloch.engine.scythe.move import speed_stops, start_encounter
from meloch.engine.tx import Tx


def _scythe(state: State) -> ScytheSeat:
    p = state.seats[0]
    assert isinstance(p, ScytheSeat)
    return p


# ---------------------------------------------------------------- base Factory cards (Setup 7)


def test_base_factory_cards_are_data_with_provenance() -> None:
    base = [fc for fc in load().factory_cards if fc.set == "scythe"]
    assert sorted(int(fc.id) for fc in base) == list(range(1, 19))
    assert all(fc.provenance == "reference" and "INFERRED" in fc.note for fc in base)
    duel = {fc.id for fc in load().factory_cards if fc.set == "duel"}
    assert duel == {"19", "20", "21"}


def test_default_game_uses_only_the_duel_factory_cards() -> None:
    for seed in range(30):
        assert set(new_game(Setup(), seed).factory_cards) <= {"19", "20", "21"}


def test_base_factory_cards_join_the_shuffle() -> None:
    seen: set[str] = set()
    for seed in range(30):
        s = new_game(Setup(base_factory_cards=True), seed)
        assert len(s.factory_cards) == 2
        seen |= set(s.factory_cards)
    assert seen - {"19", "20", "21"}, "no base Factory card was ever dealt"


def test_vesna_takes_three_of_the_rest_with_base_cards() -> None:
    setup = Setup(base_factory_cards=True, seats=(SeatSetup(role="scythe", faction="vesna"),
                                                  SeatSetup(role="expeditions")))
    s = new_game(setup, 4)
    while s.active != 0:  # the Expeditions player starts: play its first turn at random
        from meloch.engine import apply, legal_actions

        s = apply(s, legal_actions(s)[0])
    p = _scythe(s)
    assert len(p.tech_cards) == 3 and not set(p.tech_cards) & set(s.factory_cards)


# ---------------------------------------------------------------- base encounters (Setup 8)


def test_base_encounter_file_ships_empty() -> None:
    assert [e for e in load().encounters if e.set == "scythe"] == []
    assert len(new_game(Setup(base_encounters=True), 1).encounter_deck) == 6


def _copy(tmp_path: Path) -> Path:
    dst = tmp_path / "data"
    shutil.copytree(DATA_DIR, dst)
    return dst


def _write(path: Path, data: Any) -> None:
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")


def _enc(cid: str, sensible: bool) -> dict[str, Any]:
    return {"id": cid, "name": f"Base {cid}", "set": "scythe", "duel_sensible": sensible,
            "options": [{"text": "a", "gain": ["power 1"]}, {"text": "b", "gain": ["coins 1"]},
                        {"text": "c", "gain": ["popularity 1"]}],
            "provenance": "standin", "note": "test"}


@pytest.fixture
def with_base_encounters(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Content]:
    data = _copy(tmp_path)
    _write(data / "encounters_scythe.yaml", [_enc("s01", False), _enc("s02", True)])
    content = load_dir(data)
    monkeypatch.setattr(loader, "_load_cached", lambda: content)
    yield content


def test_non_sensible_encounter_is_discarded_and_redrawn(with_base_encounters: Content) -> None:
    s = new_game(Setup(base_encounters=True), 2)
    assert len(s.encounter_deck) == 8
    assert len(new_game(Setup(), 2).encounter_deck) == 6
    rest = [c for c in s.encounter_deck if c not in ("s01", "s02")]
    s = msgspec.structs.replace(s, encounter_deck=(*rest, "s02", "s01"))  # s01 on top, then s02
    tx = Tx(s, load())
    start_encounter(tx, 0)
    assert tx.s.encounter_used == ("s01", "s02")
    top = tx.s.frames[-1]
    assert (top.kind, top.tag) == ("s_encounter", "s02")
    assert any("makes no sense in the Duel" in e.text for e in tx.events)


def test_loader_checks_the_base_sets(tmp_path: Path) -> None:
    data = _copy(tmp_path)
    _write(data / "encounters_scythe.yaml", [{**_enc("s01", True), "set": "duel"}])
    with pytest.raises(ContentError) as exc:
        load_dir(data)
    assert (exc.value.file, exc.value.entry, exc.value.field) == ("encounters_scythe.yaml", "s01", "set")

    _write(data / "encounters_scythe.yaml", [_enc("enc1", True)])
    with pytest.raises(ContentError, match="duplicate id"):
        load_dir(data)

    _write(data / "encounters_scythe.yaml", [_enc("s01", False)])
    with pytest.raises(ContentError, match="at least one base encounter"):
        load_dir(data)

    _write(data / "encounters_scythe.yaml", [])
    fc = yaml.safe_load((data / "factory_cards_scythe.yaml").read_text(encoding="utf-8"))
    fc[0]["id"] = "19"
    _write(data / "factory_cards_scythe.yaml", fc)
    with pytest.raises(ContentError, match="duplicate id"):
        load_dir(data)

    (data / "factory_cards_scythe.yaml").unlink()
    (data / "encounters_scythe.yaml").unlink()
    assert len(load_dir(data).factory_cards) == 3  # the mix-in files are optional


# ---------------------------------------------------------------- faction tokens as data


def test_faction_tokens_come_from_content() -> None:
    f = load().factions
    assert (f["albion"].tokens, f["togawa"].tokens, f["fenris"].tokens) == (4, 4, 4)
    assert [t.id for t in f["togawa"].traps] == ["popularity", "power", "coins", "cards"]
    assert all(f[x].tokens == 0 for x in f if x not in ("albion", "togawa", "fenris"))


def test_token_counts_follow_the_data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data = _copy(tmp_path)
    factions = yaml.safe_load((data / "factions.yaml").read_text(encoding="utf-8"))
    for entry in factions:
        if entry["id"] in ("albion", "fenris"):
            entry["tokens"] = 2
    _write(data / "factions.yaml", factions)
    content = load_dir(data)
    monkeypatch.setattr(loader, "_load_cached", lambda: content)
    setup = Setup(seats=(SeatSetup(role="scythe", faction="albion"), SeatSetup(role="expeditions")))
    s = new_game(setup, 1)
    p = msgspec.structs.replace(_scythe(s), character="5", flags=("1", "2"))
    s = msgspec.structs.replace(s, seats=(p, s.seats[1]), turn_flags=("char_moved",))
    assert token_options(s, 0) == []  # both flags placed
    s = msgspec.structs.replace(s, seats=(msgspec.structs.replace(p, flags=("1",)), s.seats[1]))
    assert [str(a) for a in token_options(s, 0)] == ["S token flag", "S token no"]
    fenris = msgspec.structs.replace(p, faction="fenris", influence=("3",))
    assert unplaced_influence(fenris) == 1


def test_loader_checks_faction_tokens(tmp_path: Path) -> None:
    data = _copy(tmp_path)
    factions = yaml.safe_load((data / "factions.yaml").read_text(encoding="utf-8"))
    next(e for e in factions if e["id"] == "togawa")["tokens"] = 3
    _write(data / "factions.yaml", factions)
    with pytest.raises(ContentError, match="one token per trap"):
        load_dir(data)
    next(e for e in factions if e["id"] == "togawa")["tokens"] = 4
    next(e for e in factions if e["id"] == "nordic")["tokens"] = 2
    _write(data / "factions.yaml", factions)
    with pytest.raises(ContentError) as exc:
        load_dir(data)
    assert (exc.value.entry, exc.value.field) == ("nordic", "tokens")


# ---------------------------------------------------------------- Speed: stops on the way


def _speed_state(mechs: tuple[str, ...], slots: tuple[int, ...] = (3,)) -> State:
    s = new_game(Setup(), 3)
    p = msgspec.structs.replace(_scythe(s), mechs=mechs, mech_slots=slots)
    e = msgspec.structs.replace(s.seats[1], loc="8")
    return msgspec.structs.replace(s, seats=(p, e), map_tokens=())


def test_speed_stops_on_the_way() -> None:
    s = _speed_state(("1",))
    assert speed_stops(s, 0, "mech", "1", "4", 1, False) == ["2", "3"]
    assert speed_stops(s, 0, "char", "1", "4", 1, False) == []  # mechs only
    no_speed = _speed_state(("1",), slots=(1,))  # Warp, not Speed
    assert speed_stops(no_speed, 0, "mech", "1", "4", 1, False) == []


def test_speed_stop_never_on_the_expeditions_mech() -> None:
    s = _speed_state(("4",))
    assert "8" not in speed_stops(s, 0, "mech", "4", "7", 1, False)  # 8 holds the Expeditions mech


def test_factory_move_with_speed_may_stop_once_on_a_three_step_path() -> None:
    s = _speed_state(("1",))
    stops = speed_stops(s, 0, "mech", "1", "7", 3, True)
    assert "4" in stops and "2" in stops
