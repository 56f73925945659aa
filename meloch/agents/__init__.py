"""Players that choose an action from a view and the legal actions."""

from meloch.agents.base import Agent, RandomAgent

__all__ = ["Agent", "RandomAgent"]
