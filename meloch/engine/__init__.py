"""The rules engine: pure, deterministic, no I/O. Its whole public protocol is re-exported here."""

from meloch.engine import (  # noqa: F401  (registers the rule modules' handlers)
    combat,
    expeditions,
    meloch_cards,
    scythe,
    track,
)
from meloch.engine.actions import Action, IllegalAction, parse
from meloch.engine.api import (
    Decision,
    Outcome,
    apply,
    decision,
    from_json,
    legal_actions,
    outcome,
    replay,
    state_hash,
    to_json,
)
from meloch.engine.model import Event, SeatSetup, Setup, State
from meloch.engine.setup import SetupError, new_game
from meloch.engine.view import events_for, view

__all__ = [
    "Action", "Decision", "Event", "IllegalAction", "Outcome", "SeatSetup", "Setup", "SetupError", "State",
    "apply", "decision", "events_for", "from_json", "legal_actions", "new_game", "outcome", "parse", "replay",
    "state_hash", "to_json", "view",
]
