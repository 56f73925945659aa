"""Seeded random games over a spread of setups, for fuzzing, golden games, perft and benchmarks.

Everything here uses only the engine's public protocol; the game's own randomness stays in the
state and the players' choices come from a separate ``random.Random(seed)``.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Iterator
from typing import Any

import msgspec

from meloch.engine import Action, SeatSetup, Setup, State, apply, legal_actions, new_game, to_json
from meloch.engine.model import Variant

_SCYTHE = (
    ("constantinople", "adventurous"), ("crimea", "industrial"), ("saxony", "militant"),
    ("rusviet", "patriotic"), ("nordic", "engineering"), ("polania", "innovative"),
    ("albion", "mechanical"), ("togawa", "agricultural"), ("vesna", "militant"), ("fenris", "industrial"),
)
_MECHS = ("voyager", "tatanka", "marsh_strider", "odins_wrath", "lumberjack", "highlander", "scarecrow", "mole")


def varied_setup(i: int) -> Setup:
    """The ``i``-th setup of a fixed rotation: both map and track sides, every faction, mat and
    mech, every 7th and 11th setup a variant (Scythe vs Scythe, Expeditions vs Expeditions), every
    5th with the base Scythe Factory and encounter cards and base Expeditions discovery cards mixed
    in, every 13th with the
    experience-disparity variant (one seat needs 3 or 2 stars)."""
    map_side = ("jungle", "desert")[i % 2]
    track_side = ("A", "B")[(i // 2) % 2]
    fac, mat = _SCYTHE[i % len(_SCYTHE)]
    fac2, mat2 = _SCYTHE[(i + 3) % len(_SCYTHE)]
    mech = _MECHS[i % len(_MECHS)]
    mech2 = _MECHS[(i + 5) % len(_MECHS)]
    s1 = SeatSetup(role="scythe", faction=fac, mat=mat, stars_to_win=(2, 3)[(i // 13) % 2] if i % 26 == 12 else 4)
    e1 = SeatSetup(role="expeditions", mech=mech, stars_to_win=(3, 2)[(i // 13) % 2] if i % 26 == 25 else 4)
    mix = i % 5 == 4
    variant: Variant
    if i % 7 == 6:
        variant, seats = "scythe_vs_scythe", (s1, SeatSetup(role="scythe", faction=fac2, mat=mat2))
    elif i % 11 == 10:
        variant, seats = "expeditions_vs_expeditions", (e1, SeatSetup(role="expeditions", mech=mech2))
    else:
        variant, seats = "standard", (s1, e1)
    return Setup(map_side=map_side, track_side=track_side, variant=variant, seats=seats,
                 base_factory_cards=mix, base_encounters=mix, base_discoveries=mix)


def random_game(setup: Setup, seed: int, max_steps: int = 100_000) -> Iterator[tuple[State, Action | None]]:
    """Yield (state, action chosen there) along a uniformly random game; the last yield is the
    final state with ``None``. Choices come from ``random.Random(seed)``, never the game's RNG."""
    rng = random.Random(seed)
    s = new_game(setup, seed)
    for _ in range(max_steps):
        acts = legal_actions(s)
        if not acts:
            break
        a = acts[rng.randrange(len(acts))]
        yield s, a
        s = apply(s, a)
    yield s, None


def play(setup: Setup, seed: int) -> tuple[State, list[str]]:
    """A whole random game: the final state and the action list in notation."""
    actions: list[str] = []
    final = None
    for s, a in random_game(setup, seed):
        final = s
        if a is not None:
            actions.append(str(a))
    assert final is not None
    return final, actions


def _prune(x: Any) -> Any:
    if isinstance(x, dict):
        out = {k: _prune(v) for k, v in x.items() if k != "events"}
        return {k: v for k, v in out.items() if v not in (None, 0, "", False, [], {}) or k == "winner"}
    if isinstance(x, list):
        return [_prune(v) for v in x]
    return x


def fingerprint(state: State) -> str:
    """A digest of the state's rules content for golden games: like ``state_hash`` but without the
    event texts and with empty/zero fields left out, so adding a state field with an empty default
    or rewording a log line does not invalidate stored games, while any change of a value does."""
    data = _prune(msgspec.json.decode(to_json(state)))
    return hashlib.sha256(json.dumps(data, sort_keys=True, separators=(",", ":")).encode()).hexdigest()[:16]
