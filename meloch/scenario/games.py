"""Seeded random games over a spread of setups, for fuzzing, golden games, perft and benchmarks.

Everything here uses only the engine's public protocol; the game's own randomness stays in the
state and the players' choices come from a separate ``random.Random(seed)``.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from typing import Any

import msgspec

from meloch.agents import RandomAgent
from meloch.engine import Action, SeatSetup, Setup, State, Variant, to_json
from meloch.sim.runner import GameRecord, Hooks, play_game

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


class _Collect(Hooks):
    def __init__(self) -> None:
        self.steps: list[tuple[State, Action | None]] = []

    def on_step(self, before: State, action: Action, after: State) -> None:
        self.steps.append((before, action))

    def on_end(self, state: State, record: GameRecord) -> None:
        self.steps.append((state, None))


def random_game(setup: Setup, seed: int, max_steps: int = 100_000) -> Iterator[tuple[State, Action | None]]:
    """Yield (state, action chosen there) along a uniformly random game; the last yield is the
    final state with ``None``. The game is played on the one runner by one random agent seeded with
    ``seed`` for both seats (so the stored golden games keep their choices), never the game's RNG."""
    agent = RandomAgent(seed)
    hooks = _Collect()
    play_game(setup, seed, (agent, agent), hooks, max_decisions=max_steps)
    yield from hooks.steps


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
