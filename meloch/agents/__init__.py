"""Players that choose an action from a view and the legal actions, and their one registry."""

from meloch.agents.aggressive import AggressiveAgent
from meloch.agents.base import Agent, RandomAgent
from meloch.agents.registry import AGENTS, agent_names, agent_seed, make_agent

__all__ = ["AGENTS", "Agent", "AggressiveAgent", "RandomAgent", "agent_names", "agent_seed", "make_agent"]
