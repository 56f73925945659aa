"""The engine benchmark behind ``meloch bench``: one core, random games, per-operation timings.

Figures:

- complete random games per second and atomic steps (decisions) per second, with the legal-action
  generation, the random choice and ``apply`` of every step included;
- mean decisions per game;
- p50/p95 per operation on mid-game states: ``legal_actions``, ``apply`` (of a random legal action;
  it includes the state copy), ``Tx(state, content)`` (the engine's copy-on-write start, i.e. what a
  copy costs; holding a state needs no copy at all because states are values), ``to_json``,
  ``from_json`` and their round trip.

- for search: ``legal_actions`` uncached (the first ask about a state: what a search pays at every
  node it reaches), ``determinize`` (one per search iteration) and ``view``.

Targets (DESIGN.md, the engine issue): >= 50 games/s, >= 25,000 steps/s, copy <= 20 us. For search
(issue 11): >= 200 games/s, >= 90,000 steps/s, ``apply`` p50 <= 15 us, ``determinize`` p50 <= 25 us,
uncached ``legal_actions`` p50 <= 8 us.
"""

from __future__ import annotations

import copy
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from meloch.agents import RandomAgent
from meloch.engine import (
    Action,
    Setup,
    State,
    apply,
    determinize,
    from_json,
    legal_actions,
    new_game,
    start_transition,
    to_json,
    view,
)
from meloch.sim.runner import Hooks, play_game

TARGET_GAMES_PER_S = 50.0
TARGET_STEPS_PER_S = 25_000.0
TARGET_COPY_US = 20.0
SEARCH_GAMES_PER_S = 200.0
SEARCH_STEPS_PER_S = 90_000.0
OP_TARGETS_US: dict[str, float] = {
    "apply (random legal action)": 15.0, "determinize": 25.0, "legal_actions (uncached)": 8.0}
"""p50 targets per operation for search (issue 11)."""


@dataclass
class OpTiming:
    name: str
    p50_us: float
    p95_us: float
    note: str = ""


@dataclass
class BenchResult:
    games: int
    seconds: float
    steps: int
    games_per_s: float
    steps_per_s: float
    decisions_per_game: float
    ops: list[OpTiming] = field(default_factory=list)

    def op(self, name: str) -> OpTiming:
        return next(o for o in self.ops if o.name == name)


class _Keep(Hooks):
    """Keeps every ``every``-th state of a game (the mid-game sample)."""

    def __init__(self, keep: list[State], every: int) -> None:
        self.keep, self.every, self.n = keep, every, 0

    def on_step(self, before: State, action: Action, after: State) -> None:
        if self.n % self.every == 0:
            self.keep.append(before)
        self.n += 1


def _play(setup: Setup, seed: int, keep: list[State] | None, every: int) -> int:
    """One random game on the runner (one agent seeded with ``seed`` chooses for both seats, as the
    scenario games do); its number of steps."""
    agent = RandomAgent(seed)
    rec = play_game(setup, seed, (agent, agent), _Keep(keep, every) if keep is not None else None)
    return rec.decisions


def _percentiles(xs: list[float]) -> tuple[float, float]:
    xs = sorted(xs)
    return statistics.median(xs), xs[min(len(xs) - 1, int(0.95 * len(xs)))]


def _time_op(name: str, fn: Callable[[State], object], states: list[State], repeat: int, note: str = "") -> OpTiming:
    per: list[float] = []
    clock = time.process_time_ns  # CPU time: the machine may be shared
    for s in states:
        t0 = clock()
        for _ in range(repeat):
            fn(s)
        per.append((clock() - t0) / repeat / 1000.0)
    p50, p95 = _percentiles(per)
    return OpTiming(name, p50, p95, note)


def _time_uncached(name: str, fn: Callable[[State], object], states: list[State], repeat: int,
                   note: str = "") -> OpTiming:
    """Like ``_time_op``, on fresh copies of each state made outside the clock: a copy carries none
    of the per-state caches (``legal_actions`` remembers its answer in the state object)."""
    per: list[float] = []
    clock = time.process_time_ns  # CPU time: the machine may be shared
    for s in states:
        copies = [copy.copy(s) for _ in range(repeat)]
        t0 = clock()
        for c in copies:
            fn(c)
        per.append((clock() - t0) / repeat / 1000.0)
    p50, p95 = _percentiles(per)
    return OpTiming(name, p50, p95, note)


def run(games: int = 200, seconds: float = 0.0, seed: int = 1, setup: Setup | None = None,
        sample_states: int = 1000) -> BenchResult:
    """Play ``games`` random games (or as many as fit in ``seconds`` when > 0), then time the
    single operations on ``sample_states`` mid-game states."""
    setup = setup or Setup()
    new_game(setup, 0)  # warm the content and board caches
    steps = 0
    played = 0
    t0 = time.process_time()  # CPU time: other processes on a shared machine do not count
    while True:
        steps += _play(setup, seed + played, None, 1)
        played += 1
        elapsed = time.process_time() - t0
        if (seconds > 0 and elapsed >= seconds) or (seconds <= 0 and played >= games):
            break
    # mid-game states from separate games (not timed)
    pool: list[State] = []
    g = 0
    while len(pool) < sample_states * 3 and g < 200:
        _play(setup, 10_000 + seed + g, pool, 7)
        g += 1
    rng = random.Random(seed)
    states = rng.sample(pool, min(sample_states, len(pool)))
    choice = {id(s): rng.choice(legal_actions(s)) for s in states}
    blobs = {id(s): to_json(s) for s in states}
    drng = random.Random(seed)
    ops = [
        _time_uncached("legal_actions (uncached)", legal_actions, states, 5,
                       "the first ask about a state (what a search pays per new node)"),
        _time_op("legal_actions (cached)", legal_actions, states, 5, "asking again about the same state"),
        _time_op("determinize", lambda s: determinize(s, 0, drng), states, 5,
                 "the Scythe seat's information set; one per search iteration"),
        _time_op("view", lambda s: view(s, 0), states, 5),
        _time_op("apply (random legal action)", lambda s: apply(s, choice[id(s)]), states, 5,
                 "includes the copy-on-write of what it changes"),
        _time_op("copy: Tx(state, content)", start_transition, states, 50,
                 "holding a state needs no copy (value semantics): 0"),
        _time_op("to_json", to_json, states, 10),
        _time_op("from_json", lambda s: from_json(blobs[id(s)]), states, 10),
        _time_op("JSON round trip", lambda s: from_json(to_json(s)), states, 10),
    ]
    return BenchResult(
        games=played, seconds=elapsed, steps=steps, games_per_s=played / elapsed, steps_per_s=steps / elapsed,
        decisions_per_game=steps / played, ops=ops,
    )
