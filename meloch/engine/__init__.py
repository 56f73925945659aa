"""The rules engine: pure, deterministic, no I/O. Its whole public protocol is re-exported here."""

from meloch.engine import (  # noqa: F401  (_native first: it picks the build; the rest register handlers)
    _native,
    automa,
    combat,
    expeditions,
    meloch_cards,
    scythe,
    track,
)
from meloch.engine.actions import Action, IllegalAction, parse
from meloch.engine.api import (
    apply,
    decision,
    from_json,
    legal_actions,
    outcome,
    replay,
    start_transition,
    state_hash,
    to_json,
)
from meloch.engine.contract import (
    Decision,
    Event,
    ExpView,
    Known,
    Option,
    Outcome,
    Ref,
    ScytheView,
    SeenEvent,
    Standing,
    View,
    event_schema,
    view_schema,
)
from meloch.engine.describe import FREE_VERBS, location_name, options
from meloch.engine.determinize import determinize
from meloch.engine.game_content import content_of, using
from meloch.engine.glance import (
    ExpGlance,
    Glance,
    ScytheGlance,
    SeatGlance,
    glance,
    glance_is_native,
    use_native_glance,
)
from meloch.engine.model import SEAT_TAGS, TAG_SEAT, VARIANT_ROLES, AutomaSetup, SeatSetup, Setup, State, Variant
from meloch.engine.setup import SetupError, new_game
from meloch.engine.standing import meloch_facing, standing
from meloch.engine.track import goals, metrics
from meloch.engine.undo import undo_point, undo_refusal
from meloch.engine.view import event_texts, events_for, last_events, view, view_json

__all__ = [
    "Action",
    "AutomaSetup",
    "Decision",
    "Event",
    "ExpGlance",
    "ExpView",
    "Glance",
    "IllegalAction",
    "Known",
    "Outcome",
    "ScytheGlance",
    "ScytheView",
    "SeatGlance",
    "SeatSetup",
    "SeenEvent",
    "Setup",
    "SetupError",
    "Standing",
    "State",
    "View",
    "apply",
    "decision",
    "determinize",
    "event_texts",
    "events_for",
    "from_json",
    "glance",
    "glance_is_native",
    "legal_actions",
    "new_game",
    "outcome",
    "parse",
    "replay",
    "state_hash",
    "to_json",
    "view",
    "view_json",
]
__all__ += [  # the shells' protocol: described options, undo, the variant table
    "FREE_VERBS",
    "SEAT_TAGS",
    "TAG_SEAT",
    "VARIANT_ROLES",
    "Option",
    "Ref",
    "Variant",
    "event_schema",
    "goals",
    "location_name",
    "meloch_facing",
    "metrics",
    "options",
    "standing",
    "start_transition",
    "undo_point",
    "undo_refusal",
    "use_native_glance",
    "view_schema",
]
__all__ += [  # a game's content bound once around many protocol calls on it (the runner, a search)
    "content_of",
    "using",
]
__all__ += ["last_events"]  # typed events of the last transition (the simulation's figures)
