"""Content data: counts, constraints, loader errors and ``meloch content check``."""

from __future__ import annotations

import shutil
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from meloch.cli.main import app
from meloch.content import ContentError, load, load_dir, vocab
from meloch.content.loader import DATA_DIR
from meloch.content.schema import Content, Effect

# ---------------------------------------------------------------- the real content


@pytest.fixture(scope="module")
def content() -> Content:
    return load()


def test_load_is_cached(content: Content) -> None:
    assert load() is content


def test_combat_deck(content: Content) -> None:
    assert len(content.combat_cards) == 8
    assert sum(t.count for t in content.combat_cards) == 60
    table = {t.id: (t.value, t.count) for t in content.combat_cards}
    assert table == {
        "munitions_bounty": (0, 3),
        "element_of_surprise": (1, 6),
        "swarm_tactics": (2, 9),
        "ambush": (3, 12),
        "survey_the_battlefield": (4, 12),
        "planned_retreat": (5, 9),
        "last_ditch_effort": (6, 6),
        "no_guts_no_glory": (7, 3),
    }
    by_id = {t.id: t for t in content.combat_cards}
    assert by_id["element_of_surprise"].discard == (Effect(op="refresh"),)
    assert by_id["swarm_tactics"].discard == (Effect(op="worker", arg="any"),)


def test_tokens_and_supply(content: Content) -> None:
    corr = Counter[tuple[str, int]]()
    for tok in content.corruption:
        corr[(tok.colour, tok.value)] += tok.count
    assert corr == {("guile", 2): 4, ("guile", 3): 4, ("power", 2): 2, ("power", 3): 2}
    assert len(content.map_tokens) == 9
    assert any(e.op == "combat_cards" for t in content.map_tokens for e in t.bonus)
    assert sum(d * n for d, n in content.supply.coins) == 10 + 12 + 15 + 20 + 20
    assert content.supply.resources_per_kind == 5
    assert content.supply.expeditions_workers_per_colour == 3


def test_cards_counts(content: Content) -> None:
    kinds = Counter(c.kind for c in content.cards.values())
    assert kinds["item"] == kinds["meteorite"] == kinds["quest"] == 10
    assert content.cards["nikte"].kind == "character"
    assert content.cards["nohoch"].kind == "companion"
    quests = [c for c in content.cards.values() if c.kind == "quest"]
    per_loc = Counter(loc for q in quests for loc in q.solve_locations)
    assert per_loc == dict.fromkeys((str(i) for i in range(1, 11)), 2)
    deck = [c for c in content.cards.values() if c.kind in ("item", "meteorite", "quest")]
    assert set(Counter(c.worker for c in deck).values()) == {6}
    assert all(1 <= c.core_value <= 3 for c in deck)
    assert len(content.meloch_cards) == 10
    assert len(content.encounters) == 6
    assert all(len(e.options) == 3 for e in content.encounters)
    assert any(g.op in ("opp_power", "opp_guile") for e in content.encounters for o in e.options
               for g in o.gain)


def test_factory_cards(content: Content) -> None:
    f = {c.id: c for c in content.factory_cards}
    assert f["19"].cost == (Effect(op="coins", n=2),)
    assert f["19"].gain == (Effect(op="custom", arg="factory19_encounter"),)
    assert f["20"].gain[0].op == "one_of"
    assert f["20"].gain[0].one_of == ((Effect(op="upgrade"),), (Effect(op="combat_cards", n=2),))
    assert f["21"].cost == (Effect(op="map_token"), Effect(op="worker"))
    assert [alt[0].op for alt in f["21"].gain[0].one_of] == ["deploy", "build", "enlist"]


def test_factions_mats_mechs(content: Content) -> None:
    assert set(content.factions) == {
        "nordic", "rusviet", "crimea", "saxony", "polania", "albion", "togawa", "vesna", "fenris",
        "constantinople",
    }
    con = content.factions["constantinople"]
    assert con.ability == "leverage"
    assert [m.ability for m in con.mechs] == ["riverwalk", "warp", "veer", "speed"]
    assert set(con.riverwalk) == {"farm", "forest"}
    assert [m.ability for m in content.factions["vesna"].mechs] == [
        "riverwalk", "vesna_tokens", "vesna_tokens", "speed"]
    assert len(content.mats) == 8
    adv = content.mats["adventurous"]
    assert [(s.top, s.bottom) for s in adv.sections] == [
        ("produce", "upgrade"), ("move", "deploy"), ("trade", "build"), ("bolster", "enlist")]
    for mat in content.mats.values():
        assert sum(s.bottom_cost - s.bottom_cost_min for s in mat.sections) == 6
    assert content.mechs["tatanka"].cap == 5
    assert content.mechs["marsh_strider"].move_max == 4
    assert set(content.mechs) >= {"voyager", "highlander", "scarecrow", "mole"}


@pytest.mark.parametrize("side", ["jungle", "desert"])
def test_map_constraints(content: Content, side: str) -> None:
    m = content.maps[side]
    locs = {loc.id: loc for loc in m.locations}
    numbered = [loc for loc in m.locations if loc.kind == "location"]
    assert sorted(int(loc.id) for loc in numbered) == list(range(1, 11))
    assert {"lake-w", "lake-e", "home-s", "home-e"} <= set(locs)
    assert m.home_scythe == "home-s" and m.home_expeditions == "home-e"
    assert locs["home-s"].y > 7 and locs["home-e"].y < 1
    assert sum(loc.factory for loc in numbered) == 1
    assert 2 <= sum(loc.tunnel for loc in numbered) <= 3
    assert sum(loc.map_token for loc in numbered) == 6
    assert sum(loc.corruption for loc in numbered) == 6
    terrains = Counter(loc.terrain for loc in numbered if not loc.factory)
    assert min(terrains.values()) >= 2
    nbrs: dict[str, set[str]] = {i: set() for i in locs}
    land: dict[str, set[str]] = {i: set() for i in locs}
    for e in m.edges:
        nbrs[e.a].add(e.b)
        nbrs[e.b].add(e.a)
        if not e.river:
            land[e.a].add(e.b)
            land[e.b].add(e.a)
    assert len(land["home-s"]) == 2
    assert 2 <= len(nbrs["home-e"]) <= 3
    for lake in ("lake-w", "lake-e"):
        assert len(nbrs[lake]) >= 3
    revealed = Counter(e.op for loc in numbered for e in loc.revealed)
    assert revealed["boast"] == 2 and revealed["upgrade"] >= 1 and revealed["meld"] >= 1
    for loc in numbered:
        assert 1 <= len(loc.gather) <= 3
        assert loc.corruption == any(e.op == "vanquish" for e in loc.gather)
    assert any(e.op == "boast" for loc in numbered for e in loc.gather)


def test_desert_rivers(content: Content) -> None:
    rivers = {frozenset((e.a, e.b)) for e in content.maps["desert"].edges if e.river}
    assert rivers == {frozenset(("9", "6")), frozenset(("3", "1"))}


def test_jungle_cut_off_area(content: Content) -> None:
    m = content.maps["jungle"]
    land: dict[str, set[str]] = {loc.id: set() for loc in m.locations}
    for e in m.edges:
        if not e.river and "lake" not in e.a + e.b:
            land[e.a].add(e.b)
            land[e.b].add(e.a)
    reached, todo = {"home-s"}, ["home-s"]
    while todo:
        for nb in land[todo.pop()] - reached:
            reached.add(nb)
            todo.append(nb)
    cut_off = {loc.id for loc in m.locations if loc.kind == "location"} - reached
    assert 2 <= len(cut_off) <= 3
    terrains = {loc.terrain for loc in m.locations if loc.id in cut_off}
    assert terrains & {"farm", "forest"}


@pytest.mark.parametrize("side", ["A", "B"])
def test_tracks(content: Content, side: str) -> None:
    cats = sorted(content.tracks[side].categories, key=lambda c: c.column)
    assert [c.column for c in cats] == list(range(1, 9))
    assert cats[4].scythe.n == 12 and cats[4].expeditions.n == 9
    assert cats[6].combat
    assert cats[7].combat == (side == "B")
    for c in cats:
        assert c.scythe.metric in vocab.METRICS and c.expeditions.metric in vocab.METRICS


def _effects(obj: Any) -> Iterator[Effect]:
    if isinstance(obj, Effect):
        yield obj
        for alt in obj.one_of:
            for e in alt:
                yield from _effects(e)
    elif isinstance(obj, tuple | list):
        for x in obj:
            yield from _effects(x)
    elif isinstance(obj, dict):
        for x in obj.values():
            yield from _effects(x)
    elif hasattr(obj, "__struct_fields__"):
        for f in obj.__struct_fields__:
            yield from _effects(getattr(obj, f))


def test_every_effect_op_known(content: Content) -> None:
    ops = {e.op for e in _effects(content)}
    assert ops <= vocab.EFFECT_OPS
    assert {"peek2", "opp_decrease", "one_of", "custom"} <= ops


def test_every_entry_has_provenance_note(content: Content) -> None:
    def entries() -> Iterator[Any]:
        for m in content.maps.values():
            yield m
            yield from m.locations
            yield from m.edges
        for t in content.tracks.values():
            yield t
            yield from t.categories
        yield from content.combat_cards
        yield from content.corruption
        yield from content.map_tokens
        yield content.supply
        yield from content.meloch_cards
        yield from content.factions.values()
        yield from content.mats.values()
        yield from content.encounters
        yield from content.factory_cards
        yield from content.mechs.values()
        yield from content.cards.values()

    for e in entries():
        assert e.note, e


# ---------------------------------------------------------------- broken copies


@pytest.fixture
def data_copy(tmp_path: Path) -> Path:
    dst = tmp_path / "data"
    shutil.copytree(DATA_DIR, dst)
    return dst


def _edit(path: Path, change: Callable[[Any], None]) -> None:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")


def _entry(items: list[dict[str, Any]], key: str) -> dict[str, Any]:
    return next(i for i in items if i.get("id") == key)


def test_copy_loads(data_copy: Path) -> None:
    assert load_dir(data_copy) == load()


def test_unknown_key(data_copy: Path) -> None:
    _edit(data_copy / "combat_cards.yaml", lambda d: _entry(d, "ambush").update(colour="red"))
    with pytest.raises(ContentError) as exc:
        load_dir(data_copy)
    err = exc.value
    assert (err.file, err.entry, err.field) == ("combat_cards.yaml", "ambush", "colour")
    assert "unknown" in err.message


def test_wrong_type(data_copy: Path) -> None:
    _edit(data_copy / "combat_cards.yaml", lambda d: _entry(d, "ambush").update(count="12"))
    with pytest.raises(ContentError) as exc:
        load_dir(data_copy)
    err = exc.value
    assert (err.file, err.entry, err.field) == ("combat_cards.yaml", "ambush", "count")
    assert str(err) == "combat_cards.yaml: entry 'ambush': field 'count': expected int, got str"


def test_nested_wrong_type_names_location(data_copy: Path) -> None:
    def change(d: Any) -> None:
        _entry(d["locations"], "5")["gather"][0] = {"op": "coins", "n": "two"}

    _edit(data_copy / "maps" / "jungle.yaml", change)
    with pytest.raises(ContentError) as exc:
        load_dir(data_copy)
    err = exc.value
    assert (err.file, err.entry, err.field) == ("maps/jungle.yaml", "jungle/5", "gather[0].n")


def test_unknown_effect_op(data_copy: Path) -> None:
    _edit(data_copy / "map_tokens.yaml", lambda d: _entry(d, "mt4").update(bonus=["teleport 2"]))
    with pytest.raises(ContentError) as exc:
        load_dir(data_copy)
    err = exc.value
    assert (err.file, err.entry, err.field) == ("map_tokens.yaml", "mt4", "bonus[0].op")


def test_bad_edge_reference(data_copy: Path) -> None:
    _edit(data_copy / "maps" / "desert.yaml", lambda d: d["edges"].append(
        {"a": "4", "b": "11", "provenance": "standin", "note": "bad"}))
    with pytest.raises(ContentError) as exc:
        load_dir(data_copy)
    err = exc.value
    assert (err.file, err.entry, err.field) == ("maps/desert.yaml", "desert/edge 4-11", "b")


def test_wrong_combat_total(data_copy: Path) -> None:
    _edit(data_copy / "combat_cards.yaml", lambda d: _entry(d, "ambush").update(count=11))
    with pytest.raises(ContentError) as exc:
        load_dir(data_copy)
    err = exc.value
    assert err.file == "combat_cards.yaml"
    assert err.entry and err.field == "count"
    assert "59" in err.message


def test_unknown_metric(data_copy: Path) -> None:
    def change(d: Any) -> None:
        _entry(d, "A")["categories"][0]["scythe"]["metric"] = "glory"

    _edit(data_copy / "tracks.yaml", change)
    with pytest.raises(ContentError) as exc:
        load_dir(data_copy)
    assert (exc.value.file, exc.value.entry, exc.value.field) == (
        "tracks.yaml", "A/column 1", "scythe.metric")


def test_missing_file(data_copy: Path) -> None:
    (data_copy / "mechs.yaml").unlink()
    with pytest.raises(ContentError) as exc:
        load_dir(data_copy)
    assert exc.value.file == "mechs.yaml"
    assert "not found" in exc.value.message


def test_scythe_home_land_neighbours(data_copy: Path) -> None:
    _edit(data_copy / "maps" / "jungle.yaml", lambda d: d["edges"].append(
        {"a": "home-s", "b": "4", "provenance": "standin", "note": "x"}))
    with pytest.raises(ContentError) as exc:
        load_dir(data_copy)
    assert (exc.value.entry, exc.value.field) == ("jungle/home-s", "edges")


# ---------------------------------------------------------------- CLI


def test_cli_content_check_ok() -> None:
    result = CliRunner().invoke(app, ["content", "check"])
    assert result.exit_code == 0, result.output
    assert "content OK" in result.output
    assert "standin" in result.output and "combat card types" in result.output


def test_cli_content_check_broken(data_copy: Path) -> None:
    _edit(data_copy / "combat_cards.yaml", lambda d: _entry(d, "ambush").update(count="12"))
    result = CliRunner().invoke(app, ["content", "check", "--dir", str(data_copy)])
    assert result.exit_code == 1
    assert "combat_cards.yaml" in result.output
    assert "ambush" in result.output and "count" in result.output
    assert "Traceback" not in result.output
    assert "content OK" not in result.output
