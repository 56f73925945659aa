"""The search figure of ``meloch bench``: ISMCTS iterations per CPU second at the medium settings.

Searches from mid-game decisions (with more than one option) of random games, on one core, and
divides the iterations run by the CPU time (``time.process_time``) they took. Target (the agents
issue): >= 2,000 iterations/s.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from meloch.agents import RandomAgent, Sampler
from meloch.agents.ismcts import LEVELS, Search
from meloch.engine import Action, Setup, State, legal_actions
from meloch.sim.runner import Hooks, play_game

TARGET_ITERATIONS_PER_S = 2_000.0


@dataclass
class SearchBench:
    positions: int
    iterations: int
    seconds: float

    @property
    def per_second(self) -> float:
        return self.iterations / self.seconds if self.seconds else 0.0


class _Sample(Hooks):
    def __init__(self, keep: list[State], every: int) -> None:
        self.keep, self.every, self.n = keep, every, 0

    def on_step(self, before: State, action: Action, after: State) -> None:
        self.n += 1
        if self.n % self.every == 0 and len(legal_actions(before)) > 1:
            self.keep.append(before)


def run(positions: int = 20, seed: int = 1, level: str = "medium") -> SearchBench:
    """Search ``positions`` mid-game decisions with the ``level`` settings."""
    pool: list[State] = []
    g = 0
    while len(pool) < positions * 3 and g < 50:
        play_game(Setup(), seed + g, (RandomAgent(seed + g), RandomAgent(seed + g + 1)), _Sample(pool, 11))
        g += 1
    rng = random.Random(seed)
    states = rng.sample(pool, min(positions, len(pool)))
    iterations, seconds = 0, 0.0
    for i, s in enumerate(states):
        legal = legal_actions(s)
        search = Search(legal[0].seat, Sampler(s, legal[0].seat), LEVELS[level], random.Random(seed + i))
        t = time.process_time()
        search.run()
        seconds += time.process_time() - t
        iterations += search.iterations
    return SearchBench(len(states), iterations, seconds)
