"""``meloch automa-table`` (issue 12): the cells, the deals, resuming, the targets and the command."""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest
from typer.testing import CliRunner

from meloch.cli.main import app
from meloch.content import load as load_content
from meloch.content.schema import AutomaLevelSide
from meloch.sim.automa_table import (
    Cell,
    TableGame,
    carry_over,
    cell_rules,
    deal,
    fingerprint,
    level_rules,
    load,
    parse_cells,
    restamp,
    run,
    side_targets,
    table,
)
from meloch.sim.automa_table import rate as rate_of


def game(side: str, level: int, k: int, score: float, *, threat: bool = False, agent: str = "heuristic",
         rules: str = "") -> TableGame:
    seed, m, t = deal(k)
    rules = rules or cell_rules(Cell(agent, side, level, threat))
    return TableGame(agent, side, level, threat, k, seed, m, t, score, "stars", 20, 0.1, rules)


def test_cells_and_deals() -> None:
    cells = parse_cells("heuristic", "1,3+threat", ["explorer"])
    assert cells == [Cell("heuristic", "explorer", 1, False), Cell("heuristic", "explorer", 3, True)]
    assert cells[1].automa == "automa:3+threat" and cells[1].label == "L3 + Threat"
    for bad in ("0", "6", "3+fast", "x"):
        with pytest.raises(ValueError):
            parse_cells("heuristic", bad)
    with pytest.raises(ValueError):
        parse_cells("heuristic", "1", ["nobody"])
    # every four games cover both map sides and both track sides
    assert {deal(k)[1:] for k in range(4)} == {(m, t) for m in ("jungle", "desert") for t in ("A", "B")}
    assert [deal(k, 7)[0] for k in range(3)] == [7, 8, 9]


def test_targets_pass_and_fail() -> None:
    def cells(rates: dict[tuple[int, bool], float], n: int = 300) -> dict[tuple[int, bool], object]:
        return {key: rate_of([game("scythian", key[0], k, float(k < round(r * n)), threat=key[1]) for k in range(n)])
                for key, r in rates.items()}

    good = cells({(1, False): 0.9, (2, False): 0.8, (3, False): 0.7, (4, False): 0.6, (5, False): 0.4,
                  (3, True): 0.6})
    got = {t.text: t.ok for t in side_targets("heuristic", "scythian", good)}  # type: ignore[arg-type]
    assert all(got.values()) and len(got) == 5
    bad = cells({(1, False): 0.78, (2, False): 0.8, (3, False): 0.72, (4, False): 0.6, (5, False): 0.4,
                 (3, True): 0.7}, n=100)
    got = {t.text: t.ok for t in side_targets("heuristic", "scythian", bad)}  # type: ignore[arg-type]
    assert not any(got.values()), got
    ism = {t.text: t.ok for t in side_targets("ismcts:medium", "explorer",
                                              cells({(5, False): 0.5}, n=20))}  # type: ignore[arg-type]
    assert ism == {"L5 won <= 50% by ismcts:medium": True, ">= 300 games per cell": False}


def test_table_ignores_games_of_other_rules() -> None:
    t = table([game("explorer", 1, 0, 1.0), game("explorer", 1, 1, 0.0), game("explorer", 1, 2, 1.0, rules="old")])
    (r,) = t.rates.values()
    assert (r.games, r.rate, t.ignored) == (2, 0.5, 1)
    assert r.low < 0.5 < r.high


def test_rules_picks_a_whole_rules_or_only_its_shared_part() -> None:
    """``--rules BASE`` counts every cell played with the shared rules ``BASE`` (each cell's games carry
    ``BASE.LEVEL``); a whole ``BASE.LEVEL`` only that level's."""
    games = [game("explorer", 1, 0, 1.0, rules="old.l1"), game("explorer", 2, 0, 0.0, rules="old.l2"),
             game("explorer", 1, 1, 1.0, rules="new.l1"), game("explorer", 1, 2, 1.0, rules="older.l1")]
    t = table(games, "old")
    assert (sorted(c.level for c in t.rates), t.ignored) == ([1, 2], 2)
    t = table(games, "old.l2")
    assert ([c.level for c in t.rates], t.ignored) == ([2], 3)
    assert not table(games, "ol").rates


def test_a_cell_reads_only_its_own_level() -> None:
    """Retuning one level (or one side of it) leaves the other cells' games counted; the cell's own
    changes its rules."""
    automa = load_content().automa
    assert automa is not None
    l4 = automa.levels[3]
    harder = msgspec.structs.replace(l4, sides={**l4.sides, "expeditions": AutomaLevelSide(power=9)})
    changed = msgspec.structs.replace(automa, levels=[*automa.levels[:3], harder, automa.levels[4]])
    for cell in parse_cells("heuristic", "1,2,3,4,5,3+threat"):
        moved = level_rules(changed, cell) != level_rules(automa, cell)
        assert moved == (cell.level == 4 and cell.side == "explorer"), cell
    assert level_rules(automa, Cell("heuristic", "explorer", 1, False)) != level_rules(
        automa, Cell("heuristic", "explorer", 2, False))


def test_restamp_moves_only_games_of_the_current_tree(tmp_path: Path) -> None:
    out = tmp_path / "t.jsonl"
    old = [game("explorer", 1, k, 1.0, rules=fingerprint()) for k in range(3)] + [
        game("explorer", 1, 3, 0.0, rules="elsewhere")]
    out.write_bytes(b"".join(msgspec.json.encode(g) + b"\n" for g in old))
    assert table(load(out)).ignored == 4  # the old format is not counted as it stands
    assert restamp(out) == 3 and restamp(out) == 0
    got = load(out)
    assert [g.rules for g in got] == [cell_rules(Cell("heuristic", "explorer", 1, False))] * 3 + ["elsewhere"]
    t = table(got)
    (r,) = t.rates.values()
    assert (r.games, r.rate, t.ignored) == (3, 1.0, 1)


def test_run_resumes_and_interleaves(tmp_path: Path) -> None:
    out = tmp_path / "t.jsonl"
    cells = parse_cells("random", "1,3")  # level 5's head start could win within 4 turns
    played, stopped = run(cells, 1, out, turn_limit=4)
    assert (played, stopped) == (4, False)
    first = load(out)
    assert [(g.side, g.level, g.k) for g in first] == [("scythian", 1, 0), ("scythian", 3, 0),
                                                        ("explorer", 1, 0), ("explorer", 3, 0)]
    assert all(g.score == 0.5 and g.reason == "turn limit" for g in first)  # no winner in 4 turns
    played, _ = run(cells, 2, out, turn_limit=4)  # only game 1 of every cell is missing
    assert played == 4 and [g.k for g in load(out)] == [0] * 4 + [1] * 4
    assert run(cells, 2, out, turn_limit=4) == (0, False)
    # the same deal plays the same game
    again = run(cells[:1], 1, tmp_path / "u.jsonl", turn_limit=4)
    assert again == (1, False) and load(tmp_path / "u.jsonl")[0].turns == first[0].turns
    # a second process takes the later game numbers; together they hold what one run would
    later = tmp_path / "later.jsonl"
    assert run(cells[:1], 3, later, turn_limit=4, start=2) == (1, False)
    assert [g.k for g in load(later)] == [2]
    assert run(cells[:1], 3, tmp_path / "u.jsonl", turn_limit=4) == (2, False)
    assert [(g.k, g.turns) for g in load(tmp_path / "u.jsonl") if g.k == 2] == [(2, load(later)[0].turns)]


def test_command_plays_and_shows(tmp_path: Path) -> None:
    out = tmp_path / "t.jsonl"
    r = CliRunner().invoke(app, ["automa-table", "--agent", "random", "--cells", "2", "--sides", "explorer",
                                 "--games", "1", "--turn-limit", "4", "--out", str(out)])
    assert r.exit_code == 0, r.output
    assert "explorer" in r.output and "L2" in r.output and ">= 300 games per cell" in r.output
    r = CliRunner().invoke(app, ["automa-table", "--show", "--out", str(out)])
    assert r.exit_code == 0 and "50.0%" in r.output
    r = CliRunner().invoke(app, ["automa-table", "--cells", "9", "--out", str(out)])
    assert r.exit_code == 2 and "bad cell" in r.output


def test_a_corrupt_games_file_is_a_clear_error(tmp_path: Path) -> None:
    out = tmp_path / "t.jsonl"
    out.write_bytes(msgspec.json.encode(game("explorer", 1, 0, 1.0)) + b"\n{not json\n")
    with pytest.raises(ValueError, match=r"t.jsonl:2 is not a table game"):
        load(out)
    res = CliRunner().invoke(app, ["automa-table", "--show", "--out", str(out)])
    assert res.exit_code == 2 and "t.jsonl:2 is not a table game" in res.output and "Traceback" not in res.output


def test_an_archive_is_read_for_show_and_never_written(tmp_path: Path) -> None:
    """``docs/automa/history.jsonl.gz``: a gzip archive of finished tables is read like a games file,
    ``--show`` prints it, and playing, restamping or carrying over into it is a clear error that
    leaves it as it was (appending to a gzip file would corrupt it)."""
    import gzip
    games = [game("explorer", 1, k, float(k % 2)) for k in range(4)]
    archive = tmp_path / "history.jsonl.gz"
    archive.write_bytes(gzip.compress(b"".join(msgspec.json.encode(g) + b"\n" for g in games)))
    before = archive.read_bytes()
    assert load(archive) == games
    r = CliRunner().invoke(app, ["automa-table", "--show", "--out", str(archive)])
    assert r.exit_code == 0 and "50.0%" in r.output, r.output
    for extra in ([], ["--show", "--restamp"], ["--show", "--carry-over", "old000000000"]):
        r = CliRunner().invoke(app, ["automa-table", "--agent", "random", "--cells", "1", "--sides", "explorer",
                                     "--games", "1", "--out", str(archive), *extra])
        assert r.exit_code == 2 and "read-only" in r.output and "Traceback" not in r.output, r.output
    with pytest.raises(ValueError, match="read-only"):
        run(parse_cells("random", "1", ["explorer"]), 1, archive)
    assert archive.read_bytes() == before
    (tmp_path / "bad.jsonl.gz").write_bytes(b"not gzip")
    with pytest.raises(ValueError, match="not a gzip archive"):
        load(tmp_path / "bad.jsonl.gz")


def _write(out: Path, games: list[TableGame]) -> None:
    out.write_bytes(b"".join(msgspec.json.encode(g) + b"\n" for g in games))


def test_carry_over_moves_games_only_when_a_replayed_sample_ends_as_recorded(tmp_path: Path) -> None:
    """An engine change that keeps the rules: the games of the old shared rules are re-played in
    part and moved to the current rules only if every re-played game ends exactly as recorded."""
    out = tmp_path / "t.jsonl"
    run(parse_cells("random", "1", ["explorer"]), 3, out)  # three real games with the current rules
    played = load(out)
    assert len({g.turns for g in played}) > 1 or len({g.reason for g in played}) > 1 or played[0].turns > 4
    level = played[0].rules.partition(".")[2]
    old = [msgspec.structs.replace(g, rules=f"old000000000.{level}") for g in played]
    other = msgspec.structs.replace(old[0], rules=f"other0000000.{level}")
    # one recorded result the current engine does not reproduce: nothing moves, the file is unchanged
    bad = [*old[:2], msgspec.structs.replace(old[2], turns=old[2].turns + 1), other]
    _write(out, bad)
    c = carry_over(out, "old000000000", per_cell=3)
    assert (c.replayed, c.moved, len(c.differed)) == (3, 0, 1) and "game 2" in c.differed[0]
    assert load(out) == bad
    r = CliRunner().invoke(app, ["automa-table", "--show", "--carry-over", "old000000000", "--verify", "3",
                                 "--out", str(out)])
    assert r.exit_code == 1 and "Not carried over" in r.output and "game 2" in r.output
    # all re-played games end as recorded: every game of the old rules moves, the others stay
    _write(out, [*old, other])
    c = carry_over(out, "old000000000", per_cell=2)
    assert (c.replayed, c.moved, c.differed) == (2, 3, ())
    got = load(out)
    assert [g.rules for g in got] == [g.rules for g in played] + [other.rules]
    assert carry_over(out, "old000000000").moved == 0  # (nothing left of the old rules)
    (rates,) = table(got).rates.values()
    assert rates.games == 3
