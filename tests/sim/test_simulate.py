"""``meloch simulate``: seeds, identical rows for any number of workers, resume, replay by id, Ray."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgspec
import numpy as np
import pyarrow as pa
import pytest
from typer.testing import CliRunner

from meloch.agents import agent_settings, make_agent
from meloch.cli.main import app
from meloch.sim.simulate import (
    Grid,
    SimError,
    auto_batch,
    configs,
    find_row,
    game_seed,
    parse_axis,
    parse_only,
    read_manifest,
    read_results,
    replay_row,
    simulate,
)

# Two agents per seat, two mechs: 8 configurations; the aggressive agent keeps games short.
GRID = Grid(agents0=("aggressive", "random"), agents1=("aggressive",), mechs=("voyager", "mole"),
            tracks=("A", "B"), games=2, root=7)
TIMING = ["cpu_s"]


def _rows(out: Path) -> pa.Table:
    return read_results(out).drop_columns(TIMING)


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The grid played in this process (one worker): what every other way of playing it must give."""
    out = tmp_path_factory.mktemp("ref")
    res = simulate(GRID, out, workers=1)
    assert res.games == res.total == 16 and not res.interrupted
    return out


def test_seeds_are_spawned_from_the_root() -> None:
    children = np.random.SeedSequence(7).spawn(3)
    grand = children[2].spawn(5)[4]
    w = grand.generate_state(2, np.uint32)
    assert game_seed(7, 2, 4) == ((int(w[0]) << 32) | int(w[1])) & ((1 << 63) - 1)
    assert len({game_seed(7, c, r) for c in range(20) for r in range(20)}) == 400
    assert game_seed(8, 0, 0) != game_seed(7, 0, 0)


def test_one_and_two_workers_give_identical_rows(reference: Path, tmp_path: Path) -> None:
    res = simulate(GRID, tmp_path, workers=2, batch=3)
    assert res.games == 16
    two = _rows(tmp_path)
    assert two.equals(_rows(reference))
    assert sorted(two.column("game_id").to_pylist()) == list(range(16))
    assert len(set(two.column("seed").to_pylist())) == 16


def test_resume_after_interruption(reference: Path, tmp_path: Path) -> None:
    first = simulate(GRID, tmp_path, workers=1, batch=1, stop_after=5, flush_every=2)
    assert first.interrupted and first.games == 5
    assert read_results(tmp_path).num_rows == 5
    second = simulate(GRID, tmp_path, workers=2, batch=2)
    assert second.skipped == 5 and second.games == 11 and not second.interrupted
    assert _rows(tmp_path).equals(_rows(reference))
    again = simulate(GRID, tmp_path, workers=1)
    assert again.games == 0 and again.skipped == 16


def test_a_slice_plays_the_whole_grids_games_of_its_configurations(reference: Path, tmp_path: Path) -> None:
    """``Grid.only``: the track-B slice plays the whole grid's track-B games (ids, seeds, results)."""
    sliced = Grid(**{**msgspec.structs.asdict(GRID), "only": parse_only(["track_side=B", " mech = mole,voyager "])})
    res = simulate(sliced, tmp_path, workers=2, batch=2)
    assert res.games == res.total == 8 and not res.interrupted
    ref = _rows(reference).to_pylist()
    got = sorted(_rows(tmp_path).to_pylist(), key=lambda r: r["game_id"])
    assert got == sorted((r for r in ref if r["track_side"] == "B"), key=lambda r: r["game_id"])
    assert {r["game_id"] for r in got} != set(range(8))  # the whole grid's ids, not renumbered
    assert json.loads((tmp_path / "manifest.json").read_text())["games"] == 8
    again = simulate(read_manifest(tmp_path), tmp_path, workers=1)
    assert again.games == 0 and again.skipped == 8
    with pytest.raises(SimError, match="FIELD=VALUE"):
        parse_only(["track=B"])
    with pytest.raises(SimError, match="matches none"):
        simulate(Grid(**{**msgspec.structs.asdict(GRID), "only": ("faction=albion",)}), tmp_path / "none")


def test_finished_games_are_written_as_they_come_when_a_flush_is_due(reference: Path, tmp_path: Path) -> None:
    """``flush_s``: a part is written once that long has passed, not only every ``flush_every`` games, so a
    run killed outright (a lost machine, no interrupt) keeps what it finished."""
    res = simulate(GRID, tmp_path, workers=1, batch=2, flush_s=0.0)
    assert res.games == 16
    assert len(list(tmp_path.glob("part-*.parquet"))) == 8  # one a batch: each was due at once
    assert _rows(tmp_path).equals(_rows(reference))
    held = tmp_path / "held"
    simulate(GRID, held, workers=1, batch=2)  # the defaults: one part at the end of a 16-game run
    assert len(list(held.glob("part-*.parquet"))) == 1


def test_a_grid_with_a_searching_agent_plays_small_tasks() -> None:
    """A medium game costs about 19 CPU-s: 64 a task were 20 minutes an interrupt threw away."""
    cheap = Grid(agents0=("heuristic",), agents1=("heuristic",))
    assert auto_batch(cheap, 2560, 2) == 64 and auto_batch(cheap, 100, 2) == 6 and auto_batch(cheap, 3, 2) == 1
    for agents in (("search:medium",), ("ismcts:easy",)):
        assert auto_batch(Grid(agents0=("heuristic",), agents1=agents), 2560, 2) == 2
        assert auto_batch(Grid(agents0=agents, agents1=("random",)), 2560, 2) == 2


def test_interrupting_the_process_pool_keeps_finished_games(tmp_path: Path) -> None:
    res = simulate(GRID, tmp_path, workers=2, batch=1, stop_after=3)
    assert res.interrupted and res.games >= 3
    assert read_results(tmp_path).num_rows == res.games


def test_a_directory_of_another_grid_is_refused(reference: Path) -> None:
    with pytest.raises(SimError, match="another run"):
        simulate(Grid(games=1), reference, workers=1)


def test_a_run_whose_agent_now_plays_by_other_settings_is_not_resumed(tmp_path: Path) -> None:
    """The manifest records what each agent name played by (``agent_settings``): a level name given new
    settings (``search:medium``, stop 60) must not add games of the new settings to a run of the old;
    a manifest written before the record resumes as before."""
    first = simulate(GRID, tmp_path, workers=1, batch=1, stop_after=2, flush_every=1)
    assert first.interrupted
    manifest = tmp_path / "manifest.json"
    d = json.loads(manifest.read_text())
    assert d["settings"] == {name: agent_settings(make_agent(name, 0)) for name in ("aggressive", "random")}
    d["settings"]["random"] = "000000000000"
    manifest.write_text(json.dumps(d))
    with pytest.raises(SimError, match=r"random now plays by other settings .* another directory"):
        simulate(GRID, tmp_path, workers=1)
    assert read_results(tmp_path).num_rows == 2  # nothing added, nothing lost
    del d["settings"]
    manifest.write_text(json.dumps(d))
    assert simulate(GRID, tmp_path, workers=1).games == 14


def test_replay_by_id(reference: Path) -> None:
    row = find_row(reference, 11)
    ok, msg = replay_row(row)
    assert ok, msg
    assert "game 11" in msg and "matches" in msg
    ok, msg = replay_row(row | {"winner": 1 - row["winner"]})
    assert not ok and "DIFFERS" in msg
    with pytest.raises(SimError, match="no game 99"):
        find_row(reference, 99)


def test_rows_hold_the_per_seat_figures(reference: Path) -> None:
    rows: list[dict[str, Any]] = read_results(reference).to_pylist()
    assert {r["track_side"] for r in rows} == {"A", "B"}
    for r in rows:
        assert r["s0_role"] == "scythe" and r["s1_role"] == "expeditions"
        assert r["first_seat"] == 1  # "The Expeditions player takes the first turn"
        for seat in (0, 1):
            p = f"s{seat}_"
            assert len(r[p + "claim_columns"]) == len(r[p + "claim_turns"]) == r[p + "stars"]
            assert all(1 <= t <= r["turns"] for t in r[p + "claim_turns"])
            assert r[p + "claim_turns"] == sorted(r[p + "claim_turns"])
            # a seat draws a Meloch card for each of the other seat's stars 1-3
            assert r[p + "meloch_drawn"] == len(r[p + "meloch_cards"]) == min(r[f"s{1 - seat}_stars"], 3)
            assert r[p + "power"] is not None and r[p + "coins"] is not None
        assert r["s0_popularity"] is not None and r["s0_guile"] is None
        assert r["s1_guile"] is not None and r["s1_popularity"] is None
        assert r["s0_combats"] == r["s1_combats"] == r["s0_combat_wins"] + r["s1_combat_wins"]
        if r["winner"] >= 0:
            assert r[f"s{r['winner']}_stars"] == 4 and r["winner_role"] == r[f"s{r['winner']}_role"]


def test_axes_and_grid() -> None:
    assert parse_axis("tracks", "all") == ("A", "B")
    with pytest.raises(SimError, match="unknown 'atlantis'"):
        parse_axis("maps", "jungle,atlantis")
    # axes a variant does not use collapse: Scythe vs Scythe has no mech
    cfgs, refused = configs(Grid(variants=("scythe_vs_scythe",), mechs=("voyager", "mole")))
    assert len(cfgs) == 1 and not refused and cfgs[0].mech == ""


def test_the_automa_and_ismcts_n_are_agent_names(tmp_path: Path) -> None:
    """Issue 12: simulate accepts ``automa:N[+threat]`` on either seat (the engine's Automa plays it:
    the stored setup carries the option, so the game replays by id) and the registry's other names
    (``ismcts:N``); setups the rules refuse are reported, not played."""
    assert parse_axis("agents1", "automa:2,automa:5+threat,ismcts:3") == ("automa:2", "automa:5+threat", "ismcts:3")
    for bad in ("automa:9", "automa:2+menace", "bogus"):
        with pytest.raises(SimError, match="automa:N, automa:N\\+threat, ismcts:N"):
            parse_axis("agents0", bad)
    grid = Grid(variants=("standard", "scythe_vs_scythe"), agents0=("automa:1", "random"),
                agents1=("automa:2+threat", "aggressive"), games=1, root=3)
    cfgs, refused = configs(grid)
    reasons = sorted({why for _, why in refused})
    assert reasons == ["only one seat can be the Automa", "the solo Automa plays the standard duel only"]
    assert {(c.variant, c.agent0, c.agent1) for c in cfgs} == {
        ("standard", "automa:1", "aggressive"), ("standard", "random", "automa:2+threat"),
        ("standard", "random", "aggressive"), ("scythe_vs_scythe", "random", "aggressive")}
    simulate(grid, tmp_path, workers=1)
    rows = {(r["agent0"], r["agent1"]): r for r in read_results(tmp_path).to_pylist() if r["variant"] == "standard"}
    solo = rows[("random", "automa:2+threat")]
    assert json.loads(solo["setup"])["automa"] == {"seat": 1, "level": 2, "threat": True}
    assert json.loads(rows[("automa:1", "aggressive")]["setup"])["automa"]["seat"] == 0
    assert json.loads(rows[("random", "aggressive")]["setup"])["automa"] is None
    ok, msg = replay_row(solo)
    assert ok, msg


def test_cli_run_replay_and_errors(tmp_path: Path) -> None:
    runner = CliRunner()
    out = tmp_path / "res"
    r = runner.invoke(app, ["simulate", "run", str(out), "--agents0", "aggressive", "--agents1", "aggressive",
                            "--variants", "standard,scythe_vs_scythe", "-n", "2", "-w", "1", "--no-progress",
                            "--batch", "2"])
    assert r.exit_code == 0, r.output
    assert "4 games played" in r.output
    assert json.loads((out / "manifest.json").read_text())["games"] == 4
    r = runner.invoke(app, ["simulate", "replay", str(out), "--game", "3"])
    assert r.exit_code == 0 and "matches the stored row" in r.output
    r = runner.invoke(app, ["simulate", "resume", str(out), "-w", "1", "--no-progress", "--batch", "1"])
    assert r.exit_code == 0 and "0 games played (4 already" in r.output
    r = runner.invoke(app, ["simulate", "run", str(tmp_path / "y"), "--agents0", "aggressive", "--batch", "-1"])
    assert r.exit_code == 2 and "--batch" in r.output and "Traceback" not in r.output
    r = runner.invoke(app, ["simulate", "run", str(tmp_path / "x"), "--factions", "atlantis", "--no-progress"])
    assert r.exit_code == 2 and "unknown 'atlantis'" in r.output and "Traceback" not in r.output
    r = runner.invoke(app, ["simulate", "run", str(tmp_path / "z"), "--only", "colour=red", "--no-progress"])
    assert r.exit_code == 2 and "FIELD=VALUE" in r.output and "Traceback" not in r.output
    r = runner.invoke(app, ["simulate", "replay", str(tmp_path / "nothing"), "--game", "0"])
    assert r.exit_code == 2 and "not a results directory" in r.output


def test_ray_backend_on_a_local_ray(reference: Path, tmp_path: Path) -> None:
    pytest.importorskip("ray")
    res = simulate(GRID, tmp_path, workers=2, backend="ray", batch=4)
    assert res.games == 16
    assert _rows(tmp_path).equals(_rows(reference))


def test_last_events_are_the_seats_view_of_the_transition() -> None:
    """``last_events`` (what the simulation reads) is ``events_for`` on the last transition's events."""
    from meloch.agents import make_agent
    from meloch.engine import Setup, apply, events_for, last_events, legal_actions, new_game

    state = new_game(Setup(), 3)
    agent = make_agent("random", 3)
    seen_private = False
    for _ in range(300):
        legal = legal_actions(state)
        if not legal:
            break
        state = apply(state, agent.choose(None, legal))
        for seat in (None, 0, 1):
            assert last_events(state, seat) == events_for(state.events, seat)
        seen_private |= any(e.private for e in last_events(state, None))
    assert seen_private  # some transition had a private side a spectator sees only in public form


def _children_cpu_s(pid: int) -> float:
    """CPU seconds used so far by the live child processes of ``pid`` (Linux ``/proc``): how far a run's
    workers have got, whatever else the machine is doing."""
    import os

    ticks = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[1]) == pid:
            ticks += int(fields[11]) + int(fields[12])
    return ticks / os.sysconf("SC_CLK_TCK")


def test_sigterm_stops_a_run_like_ctrl_c_and_it_resumes(tmp_path: Path) -> None:
    """``kill`` (SIGTERM, what a scheduler sends) keeps every finished game and prints the resume command;
    a run started in the background has SIGINT ignored, so this is how such a run is stopped."""
    import os
    import signal
    import subprocess
    import sys
    import time

    out = tmp_path / "res"
    cmd = [sys.executable, "-c", "from meloch.cli.main import app; app(prog_name='meloch')", "simulate", "run",
           str(out), "--agents0", "heuristic", "--agents1", "heuristic", "--tracks", "A,B", "-n", "40",
           "--turn-limit", "6", "-w", "2", "--batch", "1", "--no-progress"]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while not (out / "manifest.json").exists() and time.monotonic() < deadline:
        time.sleep(0.1)
    deadline = time.monotonic() + 120
    while _children_cpu_s(proc.pid) < 2.5 and time.monotonic() < deadline:  # some games finish, on a busy
        time.sleep(0.05)  # machine too (a 2 s sleep there ended the run before its first game: ~9.5 CPU-s in all)
    proc.send_signal(signal.SIGTERM)
    stdout, stderr = proc.communicate(timeout=120)
    assert proc.returncode == 130, stdout + stderr
    assert "Traceback" not in stderr and "Interrupted:" in stdout, stdout + stderr
    saved = read_results(out).num_rows
    assert 0 < saved < 80 and f"Interrupted: {saved} of 80 games saved" in stdout
    assert os.path.isdir(out)
    r = CliRunner().invoke(app, ["simulate", "resume", str(out), "-w", "2", "--no-progress", "--batch", "4"])
    assert r.exit_code == 0 and f"{80 - saved} games played ({saved} already" in r.output


def test_an_interrupt_while_a_run_starts_says_what_was_saved(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A SIGTERM between the manifest and the first game (seconds on a loaded machine) used to end the run
    without a word; it now says what is saved and how to resume, with the interrupt's exit code."""
    import meloch.sim.simulate as sim

    def interrupted(*_: object) -> int:
        raise KeyboardInterrupt

    monkeypatch.setattr(sim, "auto_batch", interrupted)
    out = tmp_path / "res"
    r = CliRunner().invoke(app, ["simulate", "run", str(out), "--agents0", "random", "--agents1", "random",
                                 "-n", "2", "-w", "1", "--no-progress"])
    assert r.exit_code == 130 and "Traceback" not in r.output, r.output
    assert f"Interrupted while starting: 0 games saved in {out}; `meloch simulate resume {out}` continues." \
        in r.output.replace("\n", "")
    assert (out / "manifest.json").is_file()


def test_an_interrupt_keeps_the_games_of_the_batches_in_play() -> None:
    """Ctrl-C (or SIGTERM) lands while the pool waits: the batches in play finish anyway, so their games
    are handed on (then the interrupt goes on) instead of being thrown away after the wait."""
    from meloch.sim.simulate import _processes, tasks

    todo = list(tasks(GRID, configs(GRID)[0]))
    batches = [todo[i:i + 2] for i in range(0, len(todo), 2)]
    run = _processes(batches, 2, None)
    got = list(next(run))
    try:
        after: list[dict[str, Any]] = list(run.throw(KeyboardInterrupt))
    except KeyboardInterrupt:  # (not left to propagate: pytest would take it for a Ctrl-C of its own)
        pytest.fail("the interrupt threw away the games of the batches in play")
    with pytest.raises(KeyboardInterrupt):
        while True:
            after.extend(next(run))
    assert len(got) == 2 and len(after) >= 2  # at least the other worker's batch, finished
    assert len(got) + len(after) < len(todo)  # the batches not begun were cancelled
    ids = [r["game_id"] for r in got + after]
    assert len(set(ids)) == len(ids)
