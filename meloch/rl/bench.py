"""``meloch bench --rl``: PettingZoo environment steps per second next to raw engine steps per second.

Both play the same random games (uniform over the legal actions, same seeds) on one core and are
timed in CPU time (``time.process_time``), so other processes on the machine matter less. The raw
loop is ``legal_actions`` + a choice + ``apply``; the environment loop is ``env.last()`` (the
observation vector and the action mask) + a masked choice + ``env.step``. Overhead = 1 - env/raw.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

import numpy as np

from meloch.engine import Setup, apply, legal_actions, new_game, outcome

TARGET_OVERHEAD = 0.30


@dataclass
class RlBench:
    games: int
    raw_steps: int
    raw_seconds: float
    env_steps: int
    env_seconds: float

    @property
    def raw_per_s(self) -> float:
        return self.raw_steps / self.raw_seconds

    @property
    def env_per_s(self) -> float:
        return self.env_steps / self.env_seconds

    @property
    def overhead(self) -> float:
        return 1.0 - self.env_per_s / self.raw_per_s


def _raw(seed: int) -> int:
    rng = random.Random(seed)
    s, n = new_game(Setup(), seed), 0
    while outcome(s) is None:
        legal = legal_actions(s)
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
    raw_steps = env_steps = 0
    raw_t = env_t = 0.0
    for g in range(games):
        t0 = time.process_time()
        raw_steps += _raw(seed + g)
        t1 = time.process_time()
        env_steps += _env(seed + g)
        t2 = time.process_time()
        raw_t += t1 - t0
        env_t += t2 - t1
    return RlBench(games, raw_steps, max(raw_t, 1e-9), env_steps, max(env_t, 1e-9))
