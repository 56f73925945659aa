"""Hints: a strong agent's best options for the deciding seat, each with a one-line reason.

The terminal's ``hint`` (and any client) asks ``hint(sampler, legal, seed, agent)``. The default is
``search:hard``, the strongest agent there is (docs/agents.md, "Search levels"); an ``ismcts:LEVEL``
agent ranks by its share of root visits instead (the tree the issue first named, weaker today). A
flat search compares options by their mean ``advantage`` over shared samples, so its hint says how
far each option falls behind the best in score units (a star is 10): a number a player can weigh,
where a share of visits would say nothing. Everything comes from the seat's ``Sampler``: a hint
knows nothing the seat does not.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from meloch.agents.base import Sampler
from meloch.agents.evaluate import WEIGHTS
from meloch.agents.flat import FlatAgent
from meloch.agents.heuristic import reason
from meloch.agents.ismcts import hint as ismcts_hint
from meloch.agents.registry import make_agent
from meloch.engine import Action

DEFAULT_HINT_AGENT = "search:hard"
"""The agent behind ``hint`` unless one is named: the strongest (``search:hard``)."""

STAR = WEIGHTS["star"]
"""Score units of one star: how a hint's ``behind`` reads ("a star is 10")."""


@dataclass(frozen=True)
class Hint:
    action: str
    reason: str
    """What the evaluation gains most from the option followed by the greedy rest of the turn."""
    behind: float | None = None
    """A search agent's: score units the option's mean falls short of the best option's (0 for the
    best; a star is ``STAR``)."""
    share: float | None = None
    """An ISMCTS agent's: the option's share of the root visits."""


def hint(sampler: Sampler, legal: list[Action], seed: int = 0, agent: str = DEFAULT_HINT_AGENT,
         top: int = 3) -> list[Hint]:
    """``agent``'s ``top`` options for the deciding seat, best first (``ValueError`` for an agent that
    neither searches flat nor by ISMCTS)."""
    if not legal:
        return []
    if len(legal) == 1:
        return [Hint(str(legal[0]), "the only option", behind=0.0)]
    head, _, level = agent.partition(":")
    if head == "ismcts":
        return [Hint(h.action, h.reason, share=h.share) for h in ismcts_hint(sampler, legal, seed, level, top)]
    searcher = make_agent(agent, seed)
    if not isinstance(searcher, FlatAgent):
        raise ValueError(f"hints come from a search agent (search:... or ismcts:...), not {agent!r}")
    seat = legal[0].seat
    with sampler.bound():
        sample = sampler.sample(random.Random(seed))
        role = sample.setup.seats[seat].role
        values = searcher.values(legal, sampler, searcher.settings(role))
        ranked = sorted(values, key=lambda i: (-values[i], str(legal[i])))[:top]
        best = values[ranked[0]]
        out = [Hint(str(legal[i]), reason(sample, legal[i]), behind=best - values[i]) for i in ranked]
    return out


def reason_for(sampler: Sampler, action: Action, seed: int = 0) -> str:
    """The one-line reason for ``action`` (any agent's pick): what the evaluation gains most from it
    followed by the greedy rest of the seat's turn, on one sample of the seat's information."""
    with sampler.bound():
        return reason(sampler.sample(random.Random(seed)), action)
