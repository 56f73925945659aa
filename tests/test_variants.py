"""Random self-play of each variant: standard, Scythe vs Scythe, Expeditions vs Expeditions and the
experience-disparity variant (issue 5, "Done when"). The default run plays a few games per
variant; the full 200 games each are marked slow (run with -m slow)."""

from __future__ import annotations

import random

import pytest

from meloch.engine import SeatSetup, Setup, apply, legal_actions, new_game, outcome, view, view_json

VARIANTS = {
    "standard": Setup(),
    "scythe_vs_scythe": Setup(variant="scythe_vs_scythe", map_side="desert",
                              seats=(SeatSetup(role="scythe", faction="saxony", mat="militant"),
                                     SeatSetup(role="scythe", faction="constantinople", mat="adventurous"))),
    "expeditions_vs_expeditions": Setup(variant="expeditions_vs_expeditions", track_side="B",
                                        seats=(SeatSetup(role="expeditions"),
                                               SeatSetup(role="expeditions", mech="tatanka"))),
    "disparity": Setup(track_side="B", seats=(SeatSetup(role="scythe", faction="fenris", mat="industrial"),
                                              SeatSetup(role="expeditions", stars_to_win=2))),
}


def _play(setup: Setup, seed: int) -> tuple[int, int]:
    """One random game to the end; (winner or -1, combats started)."""
    rng = random.Random(seed)
    s = new_game(setup, seed)
    combats = 0
    while outcome(s) is None:
        acts = legal_actions(s)
        assert acts, "a decision without legal actions"
        before = s.combat
        s = apply(s, acts[rng.randrange(len(acts))])
        if s.combat is not None and before is None:
            combats += 1
            c = s.combat
            # commit-then-reveal: the other seat's view never shows an unrevealed dial
            assert f"dial_{c.attacker}" not in view_json(s, c.defender)["combat"] or c.revealed
    o = outcome(s)
    assert o is not None
    if o.winner is not None:
        need = setup.seats[o.winner].stars_to_win
        assert view(s, None).stars[o.winner] >= need
    return (o.winner if o.winner is not None else -1), combats


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_variant_selfplay_quick(name: str) -> None:
    for seed in range(4):
        _play(VARIANTS[name], seed)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_variant_selfplay_200(name: str) -> None:
    combats = 0
    for seed in range(200):
        combats += _play(VARIANTS[name], 1000 + seed)[1]
    assert combats > 0
