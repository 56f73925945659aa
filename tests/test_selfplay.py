"""``meloch selfplay`` and the reusable ``play_random_game``."""

from __future__ import annotations

from typer.testing import CliRunner

from meloch.cli.main import app
from meloch.engine import Setup, outcome, replay, state_hash
from meloch.sim.selfplay import make_setup, play_random_game, run_selfplay


def test_selfplay_command_prints_the_summary() -> None:
    r = CliRunner().invoke(app, ["selfplay", "--games", "5", "--seed", "1"])
    assert r.exit_code == 0, r.output
    for text in ("wins S", "wins E", "turn-limit games", "mean turns", "mean decisions", "errors"):
        assert text in r.output


def test_selfplay_options() -> None:
    r = CliRunner().invoke(app, ["selfplay", "--games", "2", "--seed", "10", "--turn-limit", "20", "--map",
                                 "desert", "--track", "B", "--variant", "expeditions_vs_expeditions"])
    assert r.exit_code == 0, r.output
    assert "wins E1" in r.output
    r = CliRunner().invoke(app, ["selfplay", "--games", "1", "--variant", "chess"])
    assert r.exit_code == 2 and "unknown variant" in r.output


def test_play_random_game_is_deterministic_and_replays() -> None:
    setup = Setup(turn_limit=40)
    a = play_random_game(setup, 7)
    b = play_random_game(setup, 7)
    assert a == b
    assert a.decisions == len(a.actions) > 0
    s = replay(a.setup, a.seed, list(a.actions))
    assert state_hash(s) == a.final_hash
    assert outcome(s) == a.outcome
    assert s.turn == a.turns


def test_run_selfplay_counts() -> None:
    summary = run_selfplay(make_setup(turn_limit=30), range(3))
    assert summary.games == 3 and not summary.errors
    assert sum(summary.wins_by_tag().values()) == 3
    assert summary.mean_turns() > 0
