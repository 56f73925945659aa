"""The Tournament of Meloch: an 8-entrant bracket finishes and every game replays from its record."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from meloch.sim.tournament import Entrant, MatchRecord, default_entrants, replay_record, run_tournament


def test_entrant_parse() -> None:
    want = Entrant("scythe", ("crimea", "patriotic"), "aggressive")
    assert Entrant.parse("scythe:crimea:patriotic:aggressive") == want
    assert Entrant.parse("e:tatanka") == Entrant("expeditions", ("tatanka", "nikte", "nohoch"), "random")
    with pytest.raises(ValueError):
        Entrant.parse("x:y")


def test_eight_entrants_finish_and_replay() -> None:
    t = run_tournament(default_entrants(8, ("random", "aggressive")), seed=3)
    assert [len(r) for r in t.rounds] == [4, 2, 1]
    first = t.records[:4]
    assert all(r.game.setup.variant == "standard" for r in first)  # round 1: Scythe vs Expeditions
    assert len(t.records) == 7
    for rec in t.records:
        ok, msg = replay_record(MatchRecord.from_dict(json.loads(json.dumps(rec.to_dict()))))
        assert ok, msg
    assert t.champion in t.entrants


def test_cli_run_and_replay(tmp_path: Path) -> None:
    from meloch.cli.main import app

    out = tmp_path / "t.json"
    r = CliRunner().invoke(app, ["tournament", "run", "-n", "4", "--seed", "2", "--out", str(out)])
    assert r.exit_code == 0, r.output
    assert "Champion:" in r.output and "Round 1:" in r.output
    r = CliRunner().invoke(app, ["tournament", "replay", str(out), "--game", "2"])
    assert r.exit_code == 0, r.output
    assert "matches" in r.output
