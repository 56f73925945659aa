"""The one table of agent names, and the one rule for seeding agents from a game seed."""

from __future__ import annotations

from collections.abc import Callable

from meloch.agents.aggressive import AggressiveAgent
from meloch.agents.base import Agent, RandomAgent

AGENTS: dict[str, Callable[[int], Agent]] = {"random": RandomAgent, "aggressive": AggressiveAgent}
"""Agent name -> factory taking a seed."""


def agent_names() -> list[str]:
    return sorted(AGENTS)


def make_agent(name: str, seed: int) -> Agent:
    """A new agent ``name`` with its own RNG seeded by ``seed``; ``ValueError`` for an unknown name."""
    factory = AGENTS.get(name)
    if factory is None:
        raise ValueError(f"unknown agent {name!r}; choose one of {', '.join(agent_names())}")
    return factory(seed)


def agent_seed(game_seed: int, seat: int) -> int:
    """The seed of ``seat``'s agent in game ``game_seed``: distinct across seats and games, and
    independent of the game's own RNG (which is seeded from ``game_seed`` through a hash)."""
    return 2 * game_seed + 1 + seat
