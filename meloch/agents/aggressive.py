"""The aggressive agent: a random agent that always seeks combat."""

from __future__ import annotations

import random
from typing import Any

from meloch.engine import Action


class AggressiveAgent:
    """Random, except that it always fights, attacks, and dials as high as it can."""

    name = "aggressive"
    uses_view = False

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: Any, legal: list[Action]) -> Action:
        for want in (("fight", "yes"), ("vanquish", "attack")):
            for a in legal:
                if (a.verb, a.args[:1]) == (want[0], (want[1],)):
                    return a
        dials = [a for a in legal if a.verb == "dial"]
        if dials:
            return max(dials, key=lambda a: int(a.args[0]))
        return legal[self.rng.randrange(len(legal))]
