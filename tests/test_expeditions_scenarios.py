"""Coverage of the Expeditions rules scenarios in ``tests/scenarios/expeditions/`` (run by
``tests/test_scenarios.py``; format: docs/scenarios.md)."""

from __future__ import annotations

from pathlib import Path

SCENARIOS = sorted((Path(__file__).parent / "scenarios" / "expeditions").glob("*.yaml"))


def test_there_are_at_least_50() -> None:
    assert len(SCENARIOS) >= 50
