"""Issue 5 (interaction): coverage of the scenario files in tests/scenarios/interaction/ (run by
tests/test_scenarios.py), and the commit-then-reveal guarantee checked as a property."""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest

from meloch.engine import apply, legal_actions, view_json
from meloch.scenario.model import Scenario
from meloch.scenario.runner import build_position

INTERACTION = sorted((Path(__file__).parent / "scenarios" / "interaction").glob("*.yaml"))


def test_enough_interaction_scenarios() -> None:
    assert len(INTERACTION) >= 50
    names = {p.stem for p in INTERACTION}
    for card in ("munitions_bounty", "element_of_surprise", "swarm_tactics", "ambush", "survey",
                 "planned_retreat", "last_ditch", "no_guts"):
        assert f"card_{card}_attacker" in names and f"card_{card}_defender" in names
    assert sum(n.startswith("meloch_card_") for n in names) == 10


def _combat_start(scards: list[int], ecards: list[int]) -> object:
    sc = msgspec.convert({
        "name": "x", "source": "x",
        "setup": {"seats": [{"role": "scythe", "faction": "crimea", "mat": "adventurous"}, {"role": "expeditions"}],
                  "seed": 11},
        "position": {"patch": {"seats.0.character": "7", "seats.0.power": 7, "seats.0.combat_cards": scards,
                               "seats.0.mechs": ["7"], "seats.0.mech_slots": [0],
                               "seats.1.loc": "7", "seats.1.power": 5, "seats.1.combat_cards": ecards,
                               "seats.0.section": 0, "turn_of": 0}},
        "steps": []}, Scenario)
    s = build_position(sc)
    for a in ("S section 2", "S top move", "S move done", "S fight yes"):
        s = apply(s, a)
    return s


@pytest.mark.parametrize("defender_probe", [0, 1])
def test_attacker_commitment_does_not_reach_defender(defender_probe: int) -> None:
    """Whatever the attacker dials and tucks (same number of cards), the defender's view, legal
    actions and event texts are identical until the reveal."""
    base = _combat_start([30, 9, 57], [18])
    seen = []
    for dial, tucks in ((0, ["c30"]), (7, ["c57"]), (3, ["c9"])):
        s = base
        s = apply(s, f"S dial {dial}")
        for t in tucks:
            s = apply(s, f"S tuck {t}")
        s = apply(s, "S tuck done")
        assert s.frames[-1].kind == "c_dial" and s.frames[-1].seat == 1
        v = view_json(s, 1)
        v.pop("step")
        if defender_probe:
            s = apply(s, "E dial 2")
            v = {"view": view_json(s, 1)["combat"], "events": view_json(s, 1)["events"][:1]}
        seen.append((v, [str(a) for a in legal_actions(s)]))
    assert seen[0] == seen[1] == seen[2]
    assert "dial_0" not in seen[0][0].get("combat", seen[0][0].get("view", {}))
