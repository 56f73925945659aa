"""Players that choose an action from a view and the legal actions, and their one registry."""

from meloch.agents.aggressive import AggressiveAgent
from meloch.agents.base import Agent, RandomAgent, Sampler, SearchAgent, wants_sampler
from meloch.agents.heuristic import HeuristicAgent
from meloch.agents.ismcts import ISMCTSAgent
from meloch.agents.registry import AGENTS, agent_names, agent_seed, make_agent

__all__ = ["AGENTS", "Agent", "AggressiveAgent", "HeuristicAgent", "ISMCTSAgent", "RandomAgent", "Sampler",
           "SearchAgent", "agent_names", "agent_seed", "make_agent", "wants_sampler"]
