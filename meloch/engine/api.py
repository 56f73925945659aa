"""The engine's public protocol: new_game, decision, legal_actions, apply, view, outcome, and
serialisation. Nothing else in the engine is meant for the shells."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any, Final

import msgspec

from meloch.engine import flow
from meloch.engine.actions import Action, IllegalAction, parse
from meloch.engine.contract import Decision, Outcome
from meloch.engine.game_content import active, bind, bound, content_of, unbind
from meloch.engine.model import Frame, State
from meloch.engine.setup import new_game
from meloch.engine.tx import Tx, settle

CHOICE_LABEL: Final[list[Callable[[State, Frame, Action], str]]] = []
"""How a choice that recorded no event of its own is logged: the described option's label, so the log
reads "E: Choose option 2: solve." and never repeats bare notation. Filled by ``describe`` (which
imports this module, so it cannot be imported here)."""


@bound
def decision(state: State) -> Decision | None:
    """Who must choose now, and what; None when the game is over."""
    if state.winner >= 0 or not state.frames:
        return None
    f = state.frames[-1]
    return Decision(f.seat, f.kind, flow.HANDLERS[f.kind].prompt(state, f), len(legal_actions(state)) == 1)


def legal_actions(state: State) -> list[Action]:
    """The only authority on what may be done now (the deciding seat's options)."""
    cached = flow.cached_options(state)
    if cached is not None:
        return list(cached)
    token = bind(state)  # ``bound``, inline: a search asks about every new state
    try:
        return _options(state)
    finally:
        unbind(token)


def _options(state: State) -> list[Action]:
    """The options of ``state`` (content already bound), remembered for the next ask."""
    cached = flow.cached_options(state)
    if cached is not None:
        return list(cached)
    if state.winner >= 0 or not state.frames:
        return []
    f = state.frames[-1]
    opts = flow.HANDLERS[f.kind].options
    out = opts(state, f) if opts is not None else []
    flow.remember_options(state, out)
    return out


def apply(state: State, action: Action | str) -> State:
    """The state after ``action``; ``state`` itself is never changed."""
    token = bind(state)  # ``bound``, inline: this runs at every step
    try:
        return _apply(state, action)
    finally:
        unbind(token)


def _apply(state: State, action: Action | str) -> State:
    if isinstance(action, str):
        action = parse(action)
    if state.winner >= 0:
        raise IllegalAction("game_over", f"The game is over ({state.reason}); no action is allowed.")
    legal = _options(state)  # the content is already bound
    for a in legal:  # an agent returns one of the options themselves: identity before equality
        if a is action:
            break
    else:
        if action not in legal:
            raise _refusal(state, action, legal)
    tx = Tx(state, active())
    f = tx.pop()
    tx.s.step += 1
    flow.HANDLERS[f.kind].resolve(tx, f, action)
    if not tx.events:
        # Every transition records at least one event; a secret choice's stays private.
        secret = flow.HANDLERS[f.kind].secret
        label = CHOICE_LABEL[0](state, f, action) if CHOICE_LABEL else str(action)
        tx.log("choice", f"{action.who}: {label.rstrip('.')}.", seat=f.seat,
               private_to=f.seat if secret else -1, public=f"{action.who} made a secret choice." if secret else "")
    flow.run(tx)
    settle(tx)
    tx.s.events = tuple(tx.events)
    return tx.s


def _refusal(state: State, action: Action, legal: list[Action]) -> IllegalAction:
    f = state.frames[-1]
    want = flow.tag(state, f.seat)
    if action.who != want:
        return IllegalAction("not_your_turn", f"It is {want}'s decision now, not {action.who}'s.")
    prompt = flow.HANDLERS[f.kind].prompt(state, f)
    verbs = sorted({a.verb for a in legal})
    if action.verb not in verbs:
        return IllegalAction(
            "wrong_decision",
            f"'{action.verb}' does not answer the current decision ({prompt}). Allowed: {', '.join(verbs)}.",
        )
    same = [str(a) for a in legal if a.verb == action.verb]
    shown = "; ".join(same[:12]) + (f"; ... ({len(same)} in all)" if len(same) > 12 else "")
    return IllegalAction("illegal_choice", f"'{action}' is not allowed now ({prompt}). Allowed: {shown}.")


def outcome(state: State) -> Outcome | None:
    if state.winner < 0:
        return None
    return Outcome(state.winner if state.winner in (0, 1) else None, state.reason)


_ENC: Final = msgspec.json.Encoder()
_DEC: Final = msgspec.json.Decoder(State)


def to_json(state: State) -> bytes:
    return _ENC.encode(state)


def from_json(data: bytes | str) -> State:
    return _DEC.decode(data)


def state_hash(state: State) -> str:
    """A stable digest of the whole state (same in any process)."""
    return hashlib.sha256(_ENC.encode(state)).hexdigest()[:16]


def replay(setup: Any, seed: int, actions: list[str]) -> State:
    s = new_game(setup, seed)
    for a in actions:
        s = apply(s, a)
    return s


def start_transition(state: State) -> Tx:
    """Begin a copy-on-write transition on ``state`` (what a state copy costs; for the benchmark)."""
    return Tx(state, content_of(state))
