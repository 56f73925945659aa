"""The agent interface and the random agent."""

from __future__ import annotations

import random
from typing import Any, Protocol

from meloch.engine import Action, View


class Agent(Protocol):
    name: str
    uses_view: bool
    """False for agents that never look at the view: the runner then skips building it (speed)."""

    def choose(self, view: View | None, legal: list[Action]) -> Any:
        """An action from ``legal`` (a human agent may also return a runner ``Control``); ``view`` is
        None when ``uses_view`` is False."""
        ...


class RandomAgent:
    """Uniform over the legal actions, with its own seeded RNG (never the game's)."""

    name = "random"
    uses_view = False

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: View | None, legal: list[Action]) -> Action:
        return legal[self.rng.randrange(len(legal))]
