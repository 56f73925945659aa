"""The one table of agent names, and the one rule for seeding agents from a game seed."""

from __future__ import annotations

from collections.abc import Callable

from meloch.agents.aggressive import AggressiveAgent
from meloch.agents.base import Agent, RandomAgent
from meloch.agents.heuristic import HeuristicAgent
from meloch.agents.ismcts import LEVELS, ISMCTSAgent, Params

AGENTS: dict[str, Callable[[int], Agent]] = {"random": RandomAgent, "aggressive": AggressiveAgent,
                                             "heuristic": HeuristicAgent}
"""Agent name -> factory taking a seed."""

for _level in LEVELS:
    AGENTS[f"ismcts:{_level}"] = lambda seed, _l=_level: ISMCTSAgent(seed, _l)  # type: ignore[misc]


def _ismcts_by_iterations(name: str) -> Callable[[int], Agent] | None:
    """``ismcts:N`` (N iterations per decision, the medium level's other settings): the levels in
    between."""
    head, _, tail = name.partition(":")
    if head != "ismcts" or not tail.isdigit() or not 1 <= int(tail) <= 1_000_000:
        return None
    base = LEVELS["medium"]
    params = Params(iterations=int(tail), c=base.c, bias=base.bias, playout=base.playout, max_depth=base.max_depth)
    return lambda seed: ISMCTSAgent(seed, tail, params)


def agent_names() -> list[str]:
    return sorted(AGENTS)


def make_agent(name: str, seed: int) -> Agent:
    """A new agent ``name`` with its own RNG seeded by ``seed``; ``ValueError`` for an unknown name."""
    factory = AGENTS.get(name) or _ismcts_by_iterations(name)
    if factory is None:
        raise ValueError(f"unknown agent {name!r}; choose one of {', '.join(agent_names())} (or ismcts:N, "
                         "N iterations per decision)")
    return factory(seed)


def agent_seed(game_seed: int, seat: int) -> int:
    """The seed of ``seat``'s agent in game ``game_seed``: distinct across seats and games, and
    independent of the game's own RNG (which is seeded from ``game_seed`` through a hash)."""
    return 2 * game_seed + 1 + seat
