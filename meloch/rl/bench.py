"""``meloch bench --rl``: PettingZoo environment steps per second next to raw engine steps per second.

Both play the same random games (uniform over the legal actions, same seeds) on one core and are
timed in CPU time (``time.process_time``), so other processes on the machine matter less. The raw
loop is ``legal_actions`` + a choice + ``apply``; the environment loop is ``env.last()`` (the
observation vector and the action mask) + a masked choice + ``env.step``. Overhead = 1 - env/raw.
A third loop adds only ``view(state, seat)`` to the raw loop: the floor of a view-based observation.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

import numpy as np

from meloch.engine import Setup, apply, decision, legal_actions, new_game, outcome, view

TARGET_OVERHEAD = 0.30


@dataclass
class RlBench:
    games: int
    raw_steps: int
    raw_seconds: float
    env_steps: int
    env_seconds: float
    view_steps: int = 0
    view_seconds: float = 1e-9
    """The raw loop plus ``view(state, deciding seat)`` each step: the floor of any observation
    built from the typed view."""

    @property
    def raw_per_s(self) -> float:
        return self.raw_steps / self.raw_seconds

    @property
    def env_per_s(self) -> float:
        return self.env_steps / self.env_seconds

    @property
    def view_per_s(self) -> float:
        return self.view_steps / self.view_seconds

    @property
    def overhead(self) -> float:
        return 1.0 - self.env_per_s / self.raw_per_s


def _raw(seed: int, with_view: bool = False) -> int:
    rng = random.Random(seed)
    s, n = new_game(Setup(), seed), 0
    while outcome(s) is None:
        legal = legal_actions(s)
        if with_view:
            d = decision(s)
            view(s, d.seat if d is not None else None)
        s = apply(s, legal[rng.randrange(len(legal))])
        n += 1
    return n


def _env(seed: int) -> int:
    from meloch.rl.pz import env

    e = env()
    e.reset(seed=seed)
    rng = random.Random(seed)
    n = 0
    for _agent in e.agent_iter():
        obs, _, term, trunc, _ = e.last()
        if term or trunc:
            e.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        e.step(int(legal[rng.randrange(len(legal))]))
        n += 1
    return n


def run(games: int = 5, seed: int = 1) -> RlBench:
    """Play ``games`` games each way, interleaved (raw, env, raw, env...) so load changes hit both."""
    new_game(Setup(), 0)
    raw_steps = env_steps = view_steps = 0
    raw_t = env_t = view_t = 0.0
    for g in range(games):
        t0 = time.process_time()
        raw_steps += _raw(seed + g)
        t1 = time.process_time()
        env_steps += _env(seed + g)
        t2 = time.process_time()
        view_steps += _raw(seed + g, with_view=True)
        t3 = time.process_time()
        raw_t += t1 - t0
        env_t += t2 - t1
        view_t += t3 - t2
    return RlBench(games, raw_steps, max(raw_t, 1e-9), env_steps, max(env_t, 1e-9), view_steps, max(view_t, 1e-9))
