"""Decision perft: recompute the stored counts of legal action sequences (to depth 3).

A difference means the legal-action generator changed. If the change is intended, regenerate with
``python -m meloch.scenario.perft --write`` and note the rule change in ``docs/rules-notes.md``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from meloch.scenario.perft import perft, position_state

DATA = Path(__file__).parent / "perft" / "positions.json"
POSITIONS: list[dict[str, Any]] = json.loads(DATA.read_text(encoding="utf-8"))


def test_enough_positions() -> None:
    assert len(POSITIONS) >= 20
    kinds = {p["id"].split("-")[0] for p in POSITIONS}
    assert {"setup", "mid", "combat"} <= kinds


@pytest.mark.parametrize("pos", POSITIONS, ids=[p["id"] for p in POSITIONS])
def test_perft(pos: dict[str, Any]) -> None:
    got = perft(position_state(pos), pos["depth"])
    assert got == pos["counts"], (
        f"perft {pos['id']}: counts {got} != stored {pos['counts']}; if the rules change is intended, run "
        "`python -m meloch.scenario.perft --write` and add a note to docs/rules-notes.md")
