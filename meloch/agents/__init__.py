"""Players that choose an action from a view and the legal actions, and their one registry."""

from meloch.agents import _native  # noqa: F401  (first: it picks the build of the search code)
from meloch.agents.aggressive import AggressiveAgent
from meloch.agents.base import Agent, RandomAgent, Sampler, SearchAgent, choose_for, wants_sampler
from meloch.agents.heuristic import HeuristicAgent
from meloch.agents.ismcts import ISMCTSAgent
from meloch.agents.registry import (
    AGENTS,
    AUTOMA_NAMES,
    EngineSeat,
    agent_names,
    agent_seed,
    agent_settings,
    automa_option,
    make_agent,
    with_engine_seats,
)

__all__ = ["AGENTS", "AUTOMA_NAMES", "Agent", "AggressiveAgent", "EngineSeat", "HeuristicAgent", "ISMCTSAgent",
           "RandomAgent", "Sampler", "SearchAgent", "agent_names", "agent_seed", "agent_settings",
           "automa_option", "choose_for", "make_agent", "wants_sampler", "with_engine_seats"]
