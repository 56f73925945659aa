"""``tools/balance_union.py`` and ``balance_screen.py``: a lever played on a slice of the grid, projected
onto the grid, and the grid's slice read on its own."""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

import msgspec
import pytest

from meloch.sim.simulate import Grid, simulate

ROOT = Path(__file__).resolve().parent.parent


def _tool(monkeypatch: pytest.MonkeyPatch, name: str) -> Any:
    """The tool as a module (its own imports expect ``tools/`` on the path, as when run as a script)."""
    monkeypatch.syspath_prepend(str(ROOT / "tools"))
    return importlib.import_module(name)


@pytest.fixture
def union(monkeypatch: pytest.MonkeyPatch) -> Any:
    return _tool(monkeypatch, "balance_union")


def _game(map_side: str, seed: int, winner: str) -> dict[str, Any]:
    return {"variant": "standard", "agent0": "a", "agent1": "a", "map_side": map_side, "track_side": "A",
            "faction": "saxony", "mat": "industrial", "mech": "voyager", "seed": seed, "winner_role": winner}


def test_union_over_replaces_the_same_deals_and_adds_the_rest(union: Any, tmp_path: Path) -> None:
    """``--over``: the lever's game on a deal of the grid replaces the grid's (``meloch.sim.report.pooled``);
    one on a deal the grid lacks (another faction) is added and counted as such."""
    grid = Grid(agents0=("aggressive",), agents1=("aggressive",), factions=("crimea", "saxony"), games=1)
    base, lever = tmp_path / "base", tmp_path / "lever"
    simulate(grid, base, workers=1)
    simulate(msgspec.structs.replace(grid, factions=("crimea", "nordic")), lever, workers=1)
    df, replaced, added = union._games([str(base)], [str(lever)])
    assert (len(df), replaced, added) == (3, 1, 1)
    assert sorted(df["faction"]) == ["crimea", "nordic", "saxony"]
    df, replaced, added = union._games([str(base)], [])
    assert (len(df), replaced, added) == (2, 0, 0)


@pytest.fixture
def screen(monkeypatch: pytest.MonkeyPatch) -> Any:
    return _tool(monkeypatch, "balance_screen")


def test_screen_filters_keep_a_slice_of_a_grid(screen: Any) -> None:
    rows = [_game("desert", 1, "scythe"), _game("jungle", 2, "scythe"), _game("desert", 3, "expeditions")]
    rows[2]["faction"] = "albion"
    assert [r["seed"] for r in screen.keep(rows, ["map_side=desert"])] == [1, 3]
    assert [r["seed"] for r in screen.keep(rows, ["map_side=desert", "faction=albion,crimea"])] == [3]
    assert screen.keep(rows, []) == rows


def test_screen_filter_on_an_unknown_axis_says_which(screen: Any) -> None:
    with pytest.raises(SystemExit, match="unknown axis 'side'"):
        screen.keep([_game("desert", 1, "scythe")], ["side=A"])


def test_combats_tally_matches_the_games_own_figures(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """``tools/balance_combats.py`` replays stored games: its combats, the Scythe seat's wins and the
    combat stars it counts are the simulator's own per-seat figures for the same games."""
    combats = _tool(monkeypatch, "balance_combats")
    from meloch.sim.simulate import read_results

    grid = Grid(agents0=("heuristic",), agents1=("heuristic",), factions=("saxony",), tracks=("B",), games=2)
    simulate(grid, tmp_path / "g", workers=1)
    rows = read_results(tmp_path / "g").to_pylist()
    fought = won = defended = 0
    for row in rows:
        tally = combats.replay(row)
        defended += sum(v for k, v in tally.items() if k[0] == "combat" and k[2] != k[3])
        scythe = 0 if row["s0_role"] == "scythe" else 1
        n = sum(v for k, v in tally.items() if k[0] == "combat")
        assert n == row[f"s{scythe}_combats"]
        scythe_won = sum(v for k, v in tally.items() if k[0] == "combat" and k[3] == "scythe")
        assert scythe_won == row[f"s{scythe}_combat_wins"]
        for seat in (0, 1):
            stars = list(row[f"s{seat}_claim_categories"]).count("Win a combat")
            assert tally[("star", row[f"s{seat}_role"])] == stars
        fought += n
        won += tally[("star", "scythe")] + tally[("star", "expeditions")]
    assert fought > 0 and won > 0 and defended > 0, "the games must fight, place combat stars and see a defender win"


def test_replay_sample_spreads_over_the_mechs_and_repeats(monkeypatch: pytest.MonkeyPatch) -> None:
    """A grid's rows run through the 8 mechs fastest: a stride of 16 would replay one mech's games, the
    seeded sample draws about one row in ``every`` from all of them, the same rows each time."""
    tools = _tool(monkeypatch, "replay_sample")
    rows = [{"game_id": i, "mech": f"m{i % 8}"} for i in range(640)]
    picked = tools.sample(rows, 16)
    assert len(picked) == 40 and picked == tools.sample(rows, 16)
    assert len({r["mech"] for r in rows[::16]}) == 1
    assert len({r["mech"] for r in picked}) == 8
    assert tools.sample(rows, 1) == rows


def test_cells_additive_fit_recovers_faction_and_mat_effects(monkeypatch: pytest.MonkeyPatch) -> None:
    """``balance_cells.additive``: cells whose rates are additive in the logit come back as those rates
    (large samples, so no noise), and a cell's own deviation is not kept: the fit reads main effects."""
    import math
    cells_tool = _tool(monkeypatch, "balance_cells")
    faction = {"albion": -0.6, "nordic": 0.0, "saxony": 0.7}
    mat = {"agricultural": 0.5, "industrial": 0.0, "militant": -0.3}
    n = 200_000
    truth = {(f, m): 1 / (1 + math.exp(-(0.1 + fe + me))) for f, fe in faction.items() for m, me in mat.items()}
    cells = {key: [True] * round(n * p) + [False] * (n - round(n * p)) for key, p in truth.items()}
    fit = cells_tool.additive(cells)
    assert max(abs(fit[key] - p) for key, p in truth.items()) < 1e-4
    odd = dict(cells)
    odd[("saxony", "agricultural")] = [True] * n  # one cell far off its main effects
    refit = cells_tool.additive(odd)
    assert refit[("saxony", "agricultural")] < 0.95
    assert refit[("albion", "militant")] < truth[("albion", "militant")] + 0.05


def test_ladder_paired_pairs_games_by_deal_and_the_candidates_seat(monkeypatch: pytest.MonkeyPatch,
                                                                   tmp_path: Path) -> None:
    from meloch.sim.ladder import LadderGame
    tool = _tool(monkeypatch, "ladder_paired")

    def game(cand: str, cand_seat: int, seed: int, won: bool) -> LadderGame:
        agents = (cand, "search:medium") if cand_seat == 0 else ("search:medium", cand)
        return LadderGame(agents=agents, map_side="desert", track_side="A", seed=seed,
                          winner=cand_seat if won else 1 - cand_seat, decisions=1, turns=1, move_seconds=((), ()))

    base = [game("x", 0, 1, True), game("x", 1, 1, False), game("x", 0, 2, False), game("x", 1, 2, False)]
    cand = [game("y", 1, 2, True), game("y", 0, 2, False), game("y", 1, 1, False), game("y", 0, 1, True),
            game("y", 0, 3, True)]  # a deal the base did not play: left out
    for name, games in (("base", base), ("cand", cand)):
        (tmp_path / name).write_bytes(b"".join(msgspec.json.encode(g) + b"\n" for g in games))
    b, c = tool.scores(str(tmp_path / "base"), "search:medium"), tool.scores(str(tmp_path / "cand"), "search:medium")
    assert b[(1, "desert", "A", 0)] == 1.0 and c[(2, "desert", "A", 1)] == 1.0
    n, base_score, cand_score, diff, _, same = tool.paired(b, c)
    assert (n, base_score, cand_score, same) == (4, 0.25, 0.5, 3)
    assert diff == pytest.approx(0.25)
    with pytest.raises(ValueError, match="same --seed"):
        tool.paired(b, {})


def test_ladder_paired_by_agent_names_pairs_runs_whose_opponents_differ(monkeypatch: pytest.MonkeyPatch,
                                                                          tmp_path: Path) -> None:
    """``--agents BASE,CAND``: the games pair by each file's named agent and its seat, whatever the
    opponent is called; a name a file lacks is an error that names it."""
    from meloch.sim.ladder import LadderGame
    tool = _tool(monkeypatch, "ladder_paired")

    def game(me: str, opp: str, my_seat: int, seed: int, won: bool) -> LadderGame:
        agents = (me, opp) if my_seat == 0 else (opp, me)
        return LadderGame(agents=agents, map_side="jungle", track_side="B", seed=seed,
                          winner=my_seat if won else 1 - my_seat, decisions=1, turns=1, move_seconds=((), ()))

    base = [game("hard", "search:medium", 0, 1, True), game("hard", "search:medium", 1, 1, False),
            game("hard", "search:medium", 0, 2, False)]
    cand = [game("hard2", "medium2", 0, 1, True), game("hard2", "medium2", 1, 1, True),
            game("hard2", "medium2", 0, 2, True)]
    for name, games in (("base", base), ("cand", cand)):
        (tmp_path / name).write_bytes(b"".join(msgspec.json.encode(g) + b"\n" for g in games))
    b, c = tool.scores_of(str(tmp_path / "base"), "hard"), tool.scores_of(str(tmp_path / "cand"), "hard2")
    assert b == {(1, "jungle", "B", 0): 1.0, (1, "jungle", "B", 1): 0.0, (2, "jungle", "B", 0): 0.0}
    n, base_score, cand_score, diff, _, same = tool.paired(b, c)
    assert (n, base_score, cand_score, same) == (3, pytest.approx(1 / 3), 1.0, 1) and diff == pytest.approx(2 / 3)
    with pytest.raises(ValueError, match="no game of 'medium2'"):
        tool.scores_of(str(tmp_path / "base"), "medium2")


def test_ladder_roles_pools_each_roles_setting_across_runs(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    from meloch.sim.ladder import LadderGame
    tool = _tool(monkeypatch, "ladder_roles")

    def game(cand: str, cand_seat: int, won: bool) -> LadderGame:
        agents = (cand, "search:medium") if cand_seat == 0 else ("search:medium", cand)
        return LadderGame(agents=agents, map_side="desert", track_side="A", seed=1,
                          winner=cand_seat if won else 1 - cand_seat, decisions=1, turns=1, move_seconds=((), ()))

    # run 1: a split spec; run 2: a level name that stood for "s2n2/s4" when it was played
    one = [game("search:s2n2/s4", 0, True), game("search:s2n2/s4", 1, False)]
    two = [game("search:hard", 0, False), game("search:hard", 1, True), game("search:hard", 1, True),
           game("heuristic", 0, True), game("random", 1, True)]
    two.append(LadderGame(agents=("heuristic", "random"), map_side="desert", track_side="A", seed=1, winner=0,
                          decisions=1, turns=1, move_seconds=((), ())))  # the opponent absent: left out
    for name, games in (("one", one), ("two", two)):
        (tmp_path / name).write_bytes(b"".join(msgspec.json.encode(g) + b"\n" for g in games))
    paths = [str(tmp_path / "one"), str(tmp_path / "two")]
    table = tool.pooled(paths, {"search:hard": "search:s2n2/s4"}, "search:medium")
    assert table == {("Scythe", "search:s2n2"): (1.0, 2), ("Expeditions", "search:s4"): (2.0, 3),
                     ("Scythe", "heuristic"): (1.0, 1), ("Expeditions", "random"): (1.0, 1)}
    # without the alias the level's games stand apart under its name
    assert tool.pooled(paths, {}, "search:medium")[("Expeditions", "search:hard")] == (2.0, 2)
    tool.main([*paths, "search:hard=search:s2n2/s4", "--opponent", "search:medium"])
    assert "as Expeditions search:s4" in capsys.readouterr().out


def test_ladder_combats_finds_every_combat_and_scores_the_tuck_models(monkeypatch: pytest.MonkeyPatch,
                                                                        tmp_path: Path,
                                                                        capsys: pytest.CaptureFixture[str]) -> None:
    from meloch.sim.ladder import GameSpec, play, replay_game
    tool = _tool(monkeypatch, "ladder_combats")
    # the models on one combat: the attacker (seat 0) dials 3 and holds a 4, the defender dials 4 and holds a 2
    f = tool.Fight(attacker=0, dials=(3, 4), tucked=(None, 2), best=(4, 2), winner=1)
    assert [tool.predicted(f, m, 0) for m in tool.MODELS] == [1, 0, 1, 0]  # b0 4>3; b1 7>=6; b2 3<6; b3 as b1
    assert tool.predicted(f, "b3", 1) == 1  # searched by the defender: the attacker tucks none
    games, found = [], 0
    for seed in range(1, 12):
        g = play(GameSpec(agents=("heuristic", "heuristic:t1"), map_side="jungle", track_side="A", seed=seed))
        fights = list(tool.fights(g))
        end = replay_game(g)[-1]
        # each combat has one winner, who counts one more combat won
        assert len(fights) == sum(p.combat_wins for p in end.seats)
        # the attacker dials first (the engine's order): the seat of each combat's first dial
        firsts = [a for i, a in enumerate(g.actions) if " dial " in a
                  and (i == 0 or g.actions[i - 1].split()[1] not in ("dial", "tuck"))]
        assert [x.attacker for x in fights] == ["SE".index(a[0]) for a in firsts]
        games.append(g)
        found += len(fights)
        if found >= 3:
            break
    assert found >= 3
    path = tmp_path / "run.games.jsonl"
    path.write_bytes(b"".join(msgspec.json.encode(g) + b"\n" for g in games))
    counts = tool.table(games, "heuristic:t1")
    assert sum(c["combats"] for c in counts.values()) == found
    assert tool.main([str(path), "--agent", "heuristic:t1"]) == 0
    assert "combats by its role" in capsys.readouterr().out
    # wrong input: a clear message and exit 2, never a traceback
    assert tool.main([str(tmp_path / "missing.jsonl")]) == 2
    assert "cannot read the ladder files" in capsys.readouterr().err
    assert tool.main([str(path), "--agent", "nobody"]) == 2
    assert "no game of nobody" in capsys.readouterr().err
    assert tool.main(["--help"]) == 2 and "tuck" in capsys.readouterr().out
    assert tool.main([str(path), "--agent"]) == 2 and "tuck" in capsys.readouterr().out  # --agent with no name


def test_compress_reads_a_narrower_field_as_a_slope_below_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """``tools/balance_compress.py``: games drawn with ``logit p = 0.3 + 0.5 s`` fit ``b`` near 0.5
    (half the baseline's spread kept), and the recentring shift brings the fitted cells' mean rate
    to the asked one."""
    import numpy as np

    compress = _tool(monkeypatch, "balance_compress")
    rng = np.random.default_rng(1)
    s = rng.normal(0, 1, 40_000)
    y = (rng.random(s.size) < 1 / (1 + np.exp(-(0.3 + 0.5 * s)))).astype(float)
    a, b = compress._fit_ab(s, y)
    assert abs(a - 0.3) < 0.05 and abs(b - 0.5) < 0.05
    fit = {("f", "m1"): 0.7, ("f", "m2"): 0.5}
    cells = {("f", "m1"): [True] * 10, ("f", "m2"): [False] * 30}
    shift = compress._recentre(fit, cells, 0.4)
    mean = sum(len(cells[k]) / (1 + np.exp(-(np.log(q / (1 - q)) + shift))) for k, q in fit.items()) / 40
    assert abs(mean - 0.4) < 1e-6 and shift < 0
    assert compress._outside(fit) == [("f", "m1", pytest.approx(70.0))]


def test_compress_main_reads_strengths_from_other_games(monkeypatch: pytest.MonkeyPatch,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    """``balance_compress.main`` on synthetic deals: a lever identical to its baseline changes ``b`` by
    exactly 0, and one drawn at half the field's spread reads as compressing, with the cells'
    strengths taken from a third, independent set of games."""
    import re

    import numpy as np

    compress = _tool(monkeypatch, "balance_compress")
    strength = {"f1": -0.8, "f2": 0.0, "f3": 0.9}
    rng = np.random.default_rng(2)

    def draw(spread: float, root: int) -> dict[tuple[Any, ...], bool]:
        return {("desert", "A", f, m, "voyager", root * 10_000 + i):
                bool(rng.random() < 1 / (1 + np.exp(-spread * s))) for f, s in strength.items()
                for m in ("m1", "m2") for i in range(400)}

    runs = {"base": draw(1.0, 0), "strength": draw(1.0, 1)}
    runs["lever"] = {d: bool(rng.random() < 1 / (1 + np.exp(-0.5 * strength[d[2]]))) for d in runs["base"]}
    monkeypatch.setattr(compress, "by_deal", lambda dirs, columns, value: runs[dirs])
    compress.main("base", "base", "strength")
    out = capsys.readouterr().out
    assert "cell strengths from 2400 other games (strength)" in out
    assert "lever - base +0.00 [+0.00, +0.00]" in out
    compress.main("base", "lever", "strength")
    line = next(t for t in capsys.readouterr().out.splitlines() if t.startswith("spread kept"))
    interval = re.search(r"lever - base [-+]\d\.\d+ \[([-+]\d\.\d+), ([-+]\d\.\d+)\]", line)
    assert interval and float(interval.group(2)) < 0, line


def test_balance_paired_shift_reads_the_paired_difference_and_the_flips(monkeypatch: pytest.MonkeyPatch) -> None:
    tool = _tool(monkeypatch, "balance_paired")
    keys = [("desert", "A", "saxony", "patriotic", "mole", s) for s in range(4)]
    base = dict(zip(keys, [True, True, False, False], strict=True))
    lever = dict(zip(keys, [True, False, False, True], strict=True))
    line = tool.shift("all", base, lever, keys)
    assert line.startswith("all: n=4 base 50.0% lever 50.0% diff +0.0 points")
    assert line.endswith("(flips: 1 lose->win, 1 win->lose, 2 same)")
    assert tool.shift("one", base, lever, keys[:1]) is None
