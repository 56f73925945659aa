"""``tools/oracle_ladder.py`` (issue 11 diagnostic): each mode's samples hold what its docstring says,
and the ladder plays and records its games under the mode's name."""

from __future__ import annotations

import importlib
import random
from collections import Counter
from pathlib import Path
from typing import Any

import msgspec
import pytest

import meloch.sim.ladder as ladder
from meloch.engine import State, apply
from meloch.scenario.model import Scenario
from meloch.scenario.runner import build_position

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def tool(monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.syspath_prepend(str(ROOT / "tools"))
    return importlib.import_module("oracle_ladder")


def _attacker_committed() -> State:
    """Crimea (power 7) attacks the Expeditions mech (power 5): dial 3 set and no card tucked, the
    defender to dial."""
    sc = msgspec.convert({
        "name": "x", "source": "x",
        "setup": {"seats": [{"role": "scythe", "faction": "crimea", "mat": "adventurous"}, {"role": "expeditions"}],
                  "seed": 11},
        "position": {"patch": {"seats.0.character": "7", "seats.0.power": 7, "seats.0.combat_cards": [30, 9],
                               "seats.0.mechs": ["7"], "seats.0.mech_slots": [0],
                               "seats.1.loc": "7", "seats.1.power": 5, "seats.1.combat_cards": [18],
                               "seats.0.section": 0, "turn_of": 0}},
        "steps": []}, Scenario)
    s = build_position(sc)
    for a in ("S section 2", "S top move", "S move done", "S fight yes", "S dial 3", "S tuck done"):
        s = apply(s, a)
    assert s.combat is not None and s.frames[-1].kind == "c_dial" and s.frames[-1].seat == 1
    return s


def test_clairvoyant_is_the_true_state_and_present_redraws_only_the_future(tool: Any) -> None:
    s = _attacker_committed()
    assert tool.Clairvoyant(s, 1).sample(random.Random(1)) is s
    p = tool.Present(s, 1).sample(random.Random(1))
    assert p.seats == s.seats and p.combat == s.combat  # the opponent's hand and its dial 3, as they are
    for deck in ("combat_deck", "discovery_deck", "encounter_deck", "meloch_deck"):
        assert Counter(getattr(p, deck)) == Counter(getattr(s, deck))
    assert p.combat_deck != s.combat_deck and p.rng != s.rng


def test_dial_model_sets_the_opponents_hidden_dial_by_the_rule(tool: Any) -> None:
    s = _attacker_committed()
    dials = {tool.DialModel(s, 1).sample(random.Random(k)).combat.dial[0] for k in range(20)}
    assert dials == {6}  # one more than the defender's 5, within the attacker's 7
    assert len({tool.Sampler(s, 1).sample(random.Random(k)).combat.dial[0] for k in range(20)}) > 1  # uniform
    assert {tool.TrueDial(s, 1).sample(random.Random(k)).combat.dial[0] for k in range(20)} == {3}
    assert [tool.ruled_dial(5, 7), tool.ruled_dial(7, 5), tool.ruled_dial(7, 2), tool.ruled_dial(0, 3)] == [6, 5, 0, 1]


def test_the_ladder_records_the_mode_in_the_candidates_name(tool: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ladder, "make_agent", tool.maker())
    res = ladder.run_ladder(["heuristic", "present:search:s1t2"], 1, first_seed=3, turn_limit=12)
    assert len(res.games) == 8
    assert Counter(g.agents for g in res.games) == {("heuristic", "present:search:s1t2"): 4,
                                                    ("present:search:s1t2", "heuristic"): 4}
    assert all(len(g.move_seconds[g.agents.index("present:search:s1t2")]) > 0 for g in res.games)
