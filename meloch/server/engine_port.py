"""Every call the server makes into the engine and the agents, in one place.

The engine's outward contract is changing (typed ``View``, described options, typed events, an
engine-side ``undo_point``, an agent registry); keeping the server's use of it here means the
switch touches this module only. Everything else in ``meloch.server`` handles ``State`` values as
opaque objects and JSON-ready builtins returned from here.
"""

from __future__ import annotations

import hashlib
import random
from functools import cache
from typing import Any

import msgspec

from meloch.agents.base import RandomAgent
from meloch.content.loader import DATA_DIR
from meloch.engine import (
    Event,
    IllegalAction,
    Setup,
    SetupError,
    State,
    apply,
    decision,
    events_for,
    from_json,
    legal_actions,
    new_game,
    outcome,
    parse,
    state_hash,
    to_json,
    view,
)

__all__ = [
    "AGENTS", "IllegalAction", "Refusal", "SetupError", "State", "agent_move", "content_version", "deciding_seat",
    "decode_setup", "encode_setup", "game_over", "initial_state", "move", "outcome_of", "prompt_for",
    "seat_count", "seat_events", "seat_options", "seat_tag", "seat_view", "snapshot_decode", "snapshot_encode",
    "state_digest", "undo_event", "undo_refusal", "warm_up",
]

AGENTS = ("random",)
"""Agent names a seat may be given (the agents issue will bring a registry; today only the random one)."""


class Refusal(Exception):
    """An action the engine (or the undo rule) refused: ``code`` for programs, ``message`` for people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"[{code}] {message}")
        self.code = code
        self.message = message


@cache
def content_version() -> str:
    """A digest of the content files: a stored game replays only under the content it was played with."""
    h = hashlib.sha256()
    for path in sorted(DATA_DIR.rglob("*.yaml")):
        h.update(str(path.relative_to(DATA_DIR)).encode())
        h.update(b"\0")
        h.update(path.read_bytes())
    return h.hexdigest()[:16]


def warm_up() -> None:
    """Load the content and start one game, so the first request does not pay for it."""
    content_version()
    new_game(Setup(), 0)


def decode_setup(data: Any) -> Setup:
    """A ``Setup`` from JSON builtins; raises ``Refusal('bad_setup', ...)`` with msgspec's reason."""
    try:
        return msgspec.convert(data if data is not None else {}, Setup)
    except msgspec.ValidationError as err:
        raise Refusal("bad_setup", f"bad setup: {err}") from None


def encode_setup(setup: Setup) -> dict[str, Any]:
    out: dict[str, Any] = msgspec.to_builtins(setup)
    return out


def initial_state(setup: Setup, seed: int) -> State:
    try:
        return new_game(setup, seed)
    except SetupError as err:
        raise Refusal("bad_setup", str(err)) from None


def seat_count(setup: Setup) -> int:
    return len(setup.seats)


def deciding_seat(state: State) -> int | None:
    d = decision(state)
    return None if d is None else d.seat


def game_over(state: State) -> bool:
    return decision(state) is None


def outcome_of(state: State) -> dict[str, Any] | None:
    o = outcome(state)
    return None if o is None else {"winner": o.winner, "reason": o.reason}


def seat_tag(state: State, seat: int) -> str:
    return str(seat_view(state, None)["tags"][seat])


def move(state: State, seat: int, text: str) -> tuple[State, str]:
    """Apply ``text`` for ``seat``: the new state and the action's canonical text.

    A seat may only act for itself: an action naming the other seat is refused as not its turn,
    before the engine sees it, so a client cannot move for its opponent.
    """
    try:
        action = parse(text)
    except IllegalAction as err:
        raise Refusal(err.code, err.message) from None
    d = decision(state)
    if d is None:
        raise Refusal("game_over", "The game is over; no action is allowed.")
    if d.seat != seat:
        raise Refusal("not_your_turn", f"It is {seat_tag(state, d.seat)}'s decision now, not yours.")
    if action.seat != seat:
        raise Refusal("not_your_seat", f"You play {seat_tag(state, seat)}; '{action.who}' is not your seat.")
    try:
        return apply(state, action), str(action)
    except IllegalAction as err:
        raise Refusal(err.code, err.message) from None


def seat_view(state: State, seat: int | None) -> dict[str, Any]:
    """The engine's view for ``seat`` (None: spectator) as JSON builtins (dict today, Struct later)."""
    out: dict[str, Any] = msgspec.to_builtins(view(state, seat))
    return out


def seat_events(events: tuple[Event, ...], seat: int | None) -> list[str]:
    return events_for(events, seat)


def prompt_for(state: State, seat: int | None) -> dict[str, Any] | None:
    """The current decision as ``seat`` may see it (the view's own, so a prompt never leaks)."""
    d = seat_view(state, seat)["decision"]
    return None if d is None else dict(d)


def seat_options(state: State, seat: int | None) -> list[str]:
    """The deciding seat's legal actions in notation; empty for every other seat and spectators."""
    d = decision(state)
    if d is None or seat is None or d.seat != seat:
        return []
    return [str(a) for a in legal_actions(state)]


def undo_event(state: State, seat: int, text: str) -> tuple[Event, ...]:
    """The event an accepted undo records (the undone action was the seat's own and public)."""
    return (Event(kind="undo", text=f"{seat_tag(state, seat)} took back '{text}'.", seat=seat),)


def _deck_sizes(s: State) -> tuple[int, ...]:
    return (len(s.discovery_deck), len(s.discovery_discard), len(s.combat_deck), len(s.combat_discard),
            len(s.encounter_deck), len(s.factory_cards), len(s.meloch_deck), len(s.map_token_supply))


def undo_refusal(before: State, after: State, text: str, seat: int) -> str | None:
    """Why the action ``text`` (``before`` -> ``after``) may not be undone by ``seat``; None if it may.

    The policy of ``meloch.cli.play.undo_refusal`` (to be replaced by the engine's undo points):
    only your own action, within your own part of the turn, with no random draw, no card drawn or
    revealed, no map token or combat revealed and nothing secret learnt.
    """
    action = parse(text)
    d0, d1 = decision(before), decision(after)
    if action.seat != seat:
        return "the last action was your opponent's, not yours."
    if d0 is None or d1 is None or d0.seat != seat or d1.seat != seat or before.turn != after.turn:
        return "it ended your part of the turn."
    if before.rng != after.rng:
        return "it used a random draw or shuffle."
    if _deck_sizes(before) != _deck_sizes(after):
        return "it drew or revealed cards."
    if before.map_tokens != after.map_tokens:
        return "it revealed a map token."
    if (before.combat is not None and before.combat.revealed) != (after.combat is not None and after.combat.revealed):
        return "it revealed the combat."
    if before.known != after.known or any(e.private_to >= 0 for e in after.events):
        return "it made a secret choice or showed hidden information (undo never goes back past one)."
    return None


def agent_move(state: State, seat: int, agent: str, seed: int) -> str:
    """The move agent ``agent`` makes for ``seat`` (seeded, so a retried computation agrees)."""
    if agent not in AGENTS:
        raise Refusal("bad_agent", f"unknown agent {agent!r}: use one of {', '.join(AGENTS)}")
    legal = legal_actions(state)
    bot = RandomAgent(random.Random(seed).getrandbits(63))
    return str(bot.choose(view(state, seat), legal))


def state_digest(state: State) -> str:
    return state_hash(state)


def snapshot_encode(state: State) -> bytes:
    return to_json(state)


def snapshot_decode(data: bytes) -> State:
    return from_json(data)
