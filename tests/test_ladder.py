"""``meloch ladder``: the seat-swapped schedule, the statistics, the command, and the bench search figure."""

from __future__ import annotations

import json
from pathlib import Path

import msgspec
import pytest
from typer.testing import CliRunner

from meloch.agents.ismcts import LEVELS
from meloch.cli.main import app
from meloch.engine import outcome, state_hash
from meloch.sim.ladder import LadderGame, pair_result, ratings, replay_game, run_ladder, schedule, wilson


def test_schedule_swaps_seats_on_the_same_deals() -> None:
    specs = schedule(["a", "b", "c"], seeds=2)
    assert len(specs) == 3 * 2 * 8
    ab = [s for s in specs if set(s.agents) == {"a", "b"}]
    firsts = sorted((s.seed, s.map_side, s.track_side) for s in ab if s.agents[0] == "a")
    seconds = sorted((s.seed, s.map_side, s.track_side) for s in ab if s.agents[0] == "b")
    assert firsts == seconds and len(set(firsts)) == 8


def test_schedule_keeps_one_role_of_the_later_agent() -> None:
    """--role: the pair's later agent in that role only, on the same deals as the seat-swapped run."""
    full = schedule(["a", "b", "c"], seeds=2)
    for role, seat in (("scythe", 0), ("expeditions", 1)):
        kept = schedule(["a", "b", "c"], seeds=2, role=role)
        assert len(kept) == len(full) // 2
        assert all(s.agents[seat] == max(s.agents) for s in kept)  # the later of a, b, c: the larger name
        assert kept == [s for s in full if s.agents[seat] == max(s.agents)]
    with pytest.raises(ValueError, match="unknown role 'gnome'; choose one of scythe, expeditions"):
        schedule(["a", "b"], seeds=1, role="gnome")


def test_wilson_interval() -> None:
    i = wilson(190, 200)
    assert i.rate == 0.95 and 0.90 < i.low < 0.95 < i.high < 0.98
    assert wilson(0, 10).low == 0.0 and wilson(10, 10).high == 1.0
    assert wilson(0, 0).games == 0


def _game(agents: tuple[str, str], winner: int) -> LadderGame:
    return LadderGame(agents, "jungle", "A", 1, winner, 10, 2, ((), ()))


def test_against_gives_the_other_agents_seat_and_skips_mirrors() -> None:
    from meloch.sim.ladder import against

    games = [_game(("x", "m"), 0), _game(("m", "y"), 1), _game(("m", "m"), 0), _game(("x", "y"), 0)]
    assert [(g.agents, seat) for g, seat in against(games, "m")] == [(("x", "m"), 0), (("m", "y"), 1)]


def test_pair_results_per_role_and_ratings() -> None:
    games = [_game(("x", "y"), 0)] * 6 + [_game(("y", "x"), 1)] * 3 + [_game(("y", "x"), 0)] * 3
    p = pair_result(games, "x", "y")
    assert p.overall.games == 12 and p.overall.rate == pytest.approx(0.75)
    assert p.by_role["scythe"].rate == 1.0 and p.by_role["expeditions"].rate == 0.5
    r = ratings(["y", "x"], games)
    assert r["y"] == 0 and r["x"] > 100
    draws = [_game(("x", "y"), -1)] * 4
    assert pair_result(draws, "x", "y").overall.rate == 0.5


def test_run_ladder_plays_every_game_and_times_moves() -> None:
    seen: list[LadderGame] = []
    r = run_ladder(["random", "aggressive"], seeds=1, turn_limit=6, on_game=seen.append)
    assert len(r.games) == len(seen) == 8
    assert {g.agents for g in r.games} == {("random", "aggressive"), ("aggressive", "random")}
    assert all(t.moves > 0 for t in r.times)
    with pytest.raises(ValueError, match="unknown agent"):
        run_ladder(["random", "nobody"], seeds=1)
    with pytest.raises(ValueError, match="two different"):
        run_ladder(["random", "random"], seeds=1)


def test_a_ladder_game_s_actions_rebuild_every_position() -> None:
    """Each game keeps its actions, so its positions come back from the deal by the engine alone
    (data for a learnt judge); a line from an older file, without them, still reads and says why it
    cannot be replayed."""
    r = run_ladder(["random", "aggressive"], seeds=1)
    for g in r.games:
        states = replay_game(g)
        assert len(g.actions) == g.decisions == len(states) - 1
        o = outcome(states[-1])
        assert o is not None and (-1 if o.winner is None else o.winner) == g.winner
    again = replay_game(msgspec.json.decode(msgspec.json.encode(r.games[0]), type=LadderGame))
    assert state_hash(again[-1]) == state_hash(replay_game(r.games[0])[-1])
    old = b'{"agents":["a","b"],"map_side":"jungle","track_side":"A","seed":1,"winner":0,"decisions":3,' \
          b'"turns":1,"move_seconds":[[],[]]}'
    with pytest.raises(ValueError, match="no actions recorded"):
        replay_game(msgspec.json.decode(old, type=LadderGame))


def test_ladder_command_prints_and_writes(tmp_path: Path) -> None:
    out = tmp_path / "ladder.json"
    res = CliRunner().invoke(app, ["ladder", "--agents", "random,aggressive", "--games", "8", "--turn-limit", "6",
                                   "--out", str(out)])
    assert res.exit_code == 0, res.output
    assert "A as Scythe" in res.output and "p95 ms" in res.output
    data = json.loads(out.read_text())
    assert len(data["games"]) == 8 and set(data["ratings"]) == {"random", "aggressive"}
    bad = CliRunner().invoke(app, ["ladder", "--agents", "random,nobody", "--games", "8", "--out", str(out)])
    assert bad.exit_code == 2 and "unknown agent" in bad.output
    # a stopped run: its games file alone gives the same figures
    partial = tmp_path / "ladder.games.jsonl"
    assert len(partial.read_text().splitlines()) == 8
    again = CliRunner().invoke(app, ["ladder", "--from", str(partial)])
    assert again.exit_code == 0 and "8 games" in again.output
    assert "A as Scythe" in again.output and "n=8" in again.output
    # --agents orders the figures read --from a file; an agent the file lacks is named
    ordered = CliRunner().invoke(app, ["ladder", "--from", str(partial), "--agents", "aggressive"])
    assert ordered.exit_code == 0 and ordered.output.index("│ aggressive") < ordered.output.index("│ random")
    lacking = CliRunner().invoke(app, ["ladder", "--from", str(partial), "--agents", "heuristic"])
    assert lacking.exit_code == 2 and "no games of heuristic" in lacking.output and "random" in lacking.output
    # two long specs sharing their first characters are printed whole (folded), never cut to one prefix
    specs = {"random": "search:s8t6r1w3/s16t8r1w3b3", "aggressive": "search:s8t6r1w3n2h0b1/s16t8r1w3h0b3"}
    games = [msgspec.structs.replace(g, agents=(specs[g.agents[0]], specs[g.agents[1]]))
             for g in (msgspec.json.decode(line, type=LadderGame) for line in partial.read_bytes().splitlines())]
    long = tmp_path / "long.games.jsonl"
    long.write_bytes(b"".join(msgspec.json.encode(g) + b"\n" for g in games))
    shown = CliRunner().invoke(app, ["ladder", "--from", str(long), "--agents", specs["aggressive"]])
    assert shown.exit_code == 0 and "…" not in shown.output
    first_row = shown.output.split("┡")[1].split("└")[0]
    joined = "".join(line.split("│")[1].strip() for line in first_row.splitlines()[1:] if line.count("│") > 2)
    assert joined == specs["aggressive"]
    partial.write_text("")
    empty = CliRunner().invoke(app, ["ladder", "--from", str(partial)])
    assert empty.exit_code == 2 and "no ladder games" in empty.output


def test_ladder_plays_one_role_as_the_full_run_did(tmp_path: Path) -> None:
    """--role expeditions plays the full run's games with the later agent as Expeditions, the same
    games move for move, and leaves the other role empty; a wrong role is refused by name."""
    args = ["ladder", "--agents", "random,aggressive", "--games", "8", "--turn-limit", "6"]
    assert CliRunner().invoke(app, [*args, "--out", str(tmp_path / "full.json")]).exit_code == 0
    res = CliRunner().invoke(app, [*args, "--role", "Expeditions", "--out", str(tmp_path / "e.json")])
    assert res.exit_code == 0, res.output
    assert "4 games, 4 per pairing, the later agent as expeditions" in res.output
    full, half = (json.loads((tmp_path / f).read_text()) for f in ("full.json", "e.json"))
    untimed = [[{k: v for k, v in g.items() if k != "move_seconds"} for g in x["games"]] for x in (full, half)]
    assert untimed[1] == [g for g in untimed[0] if g["agents"] == ["random", "aggressive"]] and len(untimed[1]) == 4
    pair = half["pairs"][0]  # the first agent's figures: random, as Scythe only
    assert pair["by_role"]["scythe"]["games"] == 4 and pair["by_role"]["expeditions"]["games"] == 0
    bad = CliRunner().invoke(app, [*args, "--role", "gnome", "--out", str(tmp_path / "x.json")])
    assert bad.exit_code == 2 and "Unknown role 'gnome'" in bad.output and "scythe, expeditions" in bad.output


def test_ladder_resumes_a_stopped_run(tmp_path: Path) -> None:
    """--resume keeps the games already in OUT.games.jsonl and plays only the rest, with the same
    figures as an uninterrupted run."""
    args = ["ladder", "--agents", "random,aggressive", "--games", "16", "--turn-limit", "6"]
    whole = tmp_path / "whole.json"
    assert CliRunner().invoke(app, [*args, "--out", str(whole)]).exit_code == 0
    out = tmp_path / "part.json"
    partial = tmp_path / "part.games.jsonl"
    lines = (tmp_path / "whole.games.jsonl").read_text().splitlines()
    partial.write_text("\n".join(lines[:5]) + "\n")  # a run stopped after 5 games
    res = CliRunner().invoke(app, [*args, "--out", str(out), "--resume"])
    assert res.exit_code == 0, res.output
    assert "Resuming: 5 games" in res.output
    assert len(partial.read_text().splitlines()) == 16
    a, b = json.loads(whole.read_text()), json.loads(out.read_text())
    untimed = [[{k: v for k, v in g.items() if k != "move_seconds"} for g in x["games"]] for x in (a, b)]
    assert untimed[0] == untimed[1] and a["pairs"] == b["pairs"]


def test_ladder_will_not_resume_games_an_agent_played_by_other_settings(tmp_path: Path) -> None:
    """A level name keeps its name when its settings change (search:hard did, stops 53-56): each game
    records its agents' settings, and --resume refuses a file whose games were played by others."""
    from meloch.agents import agent_settings, make_agent

    def settings(name: str) -> str:
        return agent_settings(make_agent(name, 0))

    args = ["ladder", "--agents", "random,aggressive", "--games", "8", "--turn-limit", "4"]
    out = tmp_path / "run.json"
    assert CliRunner().invoke(app, [*args, "--out", str(out)]).exit_code == 0
    partial = tmp_path / "run.games.jsonl"
    games = [msgspec.json.decode(line, type=LadderGame) for line in partial.read_text().splitlines()]
    assert all(g.settings == tuple(settings(n) for n in g.agents) for g in games)
    assert settings("search:hard") == settings("search:s8t6r1w3n2h0b1/s16t8r1w3h0b3")
    assert settings("search:hard") != settings("search:s8t6r1w3n2h0b3/s16t8r1w3h0b3")
    assert settings("automa:3") != settings("automa:4")

    def write(changed: list[LadderGame]) -> None:
        partial.write_bytes(b"".join(msgspec.json.encode(g) + b"\n" for g in changed))

    old = msgspec.structs.replace(games[0], settings=(games[0].settings[0], "0123456789ab"))
    write([old, *games[1:4]])
    refused = CliRunner().invoke(app, [*args, "--out", str(out), "--resume"])
    assert refused.exit_code == 2 and "now plays by other settings" in refused.output
    assert len(partial.read_text().splitlines()) == 4  # the stored games are left as they were
    # files written before the settings were recorded resume as before
    write([msgspec.structs.replace(g, settings=("", "")) for g in games[:4]])
    res = CliRunner().invoke(app, [*args, "--out", str(out), "--resume"])
    assert res.exit_code == 0 and len(partial.read_text().splitlines()) == 8


def test_bench_search_figure() -> None:
    from meloch.sim import bench_search

    r = bench_search.run(positions=2, level="easy")
    assert r.positions == 2 and r.iterations == 2 * LEVELS["easy"].iterations and r.per_second > 0


def test_selfplay_and_play_accept_the_agent_names() -> None:
    from meloch.cli.play import opponents
    from meloch.engine import Setup
    from meloch.sim.selfplay import run_selfplay

    s = run_selfplay(Setup(turn_limit=4), [1], agents=("heuristic", "ismcts:easy"))
    assert not s.errors and s.records[0].agents == ("heuristic", "ismcts:easy")
    assert {"heuristic", "ismcts:easy", "ismcts:medium", "ismcts:hard"} <= set(opponents())
    bad = CliRunner().invoke(app, ["selfplay", "--games", "1", "--agents", "nobody"])
    assert bad.exit_code == 2 and "unknown agent" in bad.output
