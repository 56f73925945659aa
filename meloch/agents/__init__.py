"""Players that choose an action from a view and the legal actions, and their one registry."""

from meloch.agents.aggressive import AggressiveAgent
from meloch.agents.base import Agent, RandomAgent
from meloch.agents.registry import (
    AGENTS,
    AUTOMA_NAMES,
    EngineSeat,
    agent_names,
    agent_seed,
    automa_option,
    make_agent,
    with_engine_seats,
)

__all__ = ["AGENTS", "AUTOMA_NAMES", "Agent", "AggressiveAgent", "EngineSeat", "RandomAgent", "agent_names",
           "agent_seed", "automa_option", "make_agent", "with_engine_seats"]
