"""The agent interface and the random agent."""

from __future__ import annotations

import random
from typing import Protocol

from meloch.engine import Action, View


class Agent(Protocol):
    name: str

    def choose(self, view: View, legal: list[Action]) -> Action: ...


class RandomAgent:
    """Uniform over the legal actions, with its own seeded RNG (never the game's)."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: View, legal: list[Action]) -> Action:
        return legal[self.rng.randrange(len(legal))]
