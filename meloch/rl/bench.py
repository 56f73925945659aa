"""``meloch bench --rl``: PettingZoo environment steps per second next to raw engine steps per second.

Both play the same games: the raw loop (``legal_actions`` + a uniform random choice + ``apply``,
game seed and choice RNG seeded alike) records its actions, and the environment loop replays them:
per decision ``env.last()`` (the deciding agent's observation vector and action mask, as an agent
reads them), a mask check of the chosen index, ``env.step(index)``. The indices are encoded
outside the timed part (that is the agent's choice, as the raw loop's choice is one list index).
Timed in CPU time (``time.process_time``) on one core, games interleaved so load changes hit both.
Overhead = 1 - env steps/s / raw steps/s, pooled over the games and as the median per game.
A third loop adds only ``view(state, seat)`` to the raw loop: the floor of a view-based observation.
"""

from __future__ import annotations

import random
import statistics
import time
from dataclasses import dataclass

from meloch.engine import Action, Setup, apply, decision, legal_actions, new_game, outcome, view
from meloch.rl import actions as A
from meloch.rl import native
from meloch.rl.pz import env

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
    per_game: tuple[float, ...] = ()
    """The overhead of each game (same game both ways)."""
    encoder: str = ""
    """Which path encoded the observations and masks (``meloch.rl.native.path()``)."""

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

    @property
    def overhead_median(self) -> float:
        return statistics.median(self.per_game) if self.per_game else self.overhead


def _raw(seed: int, with_view: bool = False, record: list[Action] | None = None) -> int:
    """One random game on the engine alone: ``legal_actions`` + a uniform choice + ``apply``."""
    rng = random.Random(seed)
    s, n = new_game(Setup(), seed), 0
    while outcome(s) is None:
        legal = legal_actions(s)
        if with_view:
            d = decision(s)
            view(s, d.seat if d is not None else None)
        a = legal[rng.randrange(len(legal))]
        if record is not None:
            record.append(a)
        s = apply(s, a)
        n += 1
    return n


def _env(seed: int, indices: list[int]) -> int:
    """The same game through the environment: each step reads ``last()`` (the deciding agent's
    observation vector and mask, as an agent would) and sends the raw loop's choice as an index."""
    e = env()
    e.reset(seed=seed)
    n = 0
    for _agent in e.agent_iter():
        obs, _, term, trunc, _ = e.last()
        if term or trunc:
            e.step(None)
            continue
        i = indices[n]
        if not obs["action_mask"][i]:
            raise AssertionError(f"step {n}: the raw game's action {i} is not in the mask")
        e.step(i)
        n += 1
    return n


def _recorded(seed: int) -> list[Action]:
    out: list[Action] = []
    _raw(seed, record=out)
    return out


def run(games: int = 5, seed: int = 1) -> RlBench:
    """Play ``games`` games each way, interleaved (raw, env, raw + view...) so load changes hit all."""
    _env(seed, [A.encode(a) for a in _recorded(seed)])  # warm the caches (action space, content)
    raw_steps = env_steps = view_steps = 0
    raw_t = env_t = view_t = 0.0
    per_game = []
    for g in range(games):
        t0 = time.process_time()
        n_raw = _raw(seed + g)
        raw_steps += n_raw
        t1 = time.process_time()
        indices = [A.encode(a) for a in _recorded(seed + g)]  # (untimed: the agent's choice)
        t15 = time.process_time()
        n_env = _env(seed + g, indices)
        env_steps += n_env
        t2 = time.process_time()
        per_game.append(1.0 - (n_env / max(t2 - t15, 1e-9)) / (n_raw / max(t1 - t0, 1e-9)))
        view_steps += _raw(seed + g, with_view=True)
        t3 = time.process_time()
        raw_t += t1 - t0
        env_t += t2 - t15
        view_t += t3 - t2
    return RlBench(games, raw_steps, max(raw_t, 1e-9), env_steps, max(env_t, 1e-9), view_steps, max(view_t, 1e-9),
                   tuple(per_game), native.path())
