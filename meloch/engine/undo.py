"""Undo as an engine question: may a seat take back the step from ``before`` to ``after``?

A seat may take back its own actions up to the last point where hidden information was revealed
to it, a random draw happened, or the opponent acted. Each step back is asked separately, so
repeated undos stop at the first such point. The answer reads state the shells must not read (the
RNG, deck sizes, private events), which is why it lives here; the terminal and the server both ask.
"""

from __future__ import annotations

from meloch.engine.api import decision
from meloch.engine.model import State


def _deck_sizes(s: State) -> tuple[int, ...]:
    return (len(s.discovery_deck), len(s.discovery_discard), len(s.combat_deck), len(s.combat_discard),
            len(s.encounter_deck), len(s.factory_cards), len(s.meloch_deck), len(s.map_token_supply))


def undo_refusal(before: State, after: State, seat: int) -> str | None:
    """Why ``seat`` may not take back the step from ``before`` to ``after`` (None: it may).

    Refused when the step was not ``seat``'s own choice within its own part of the turn (the
    opponent acted or the decision passed to it), used the RNG, drew or revealed a card or token,
    or showed anyone something secret (a private event or a new private fact).
    """
    d0, d1 = decision(before), decision(after)
    if d0 is None or d0.seat != seat:
        return "the last action was your opponent's, not yours."
    if d1 is None or d1.seat != seat or before.turn != after.turn:
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


def undo_point(before: State, after: State, seat: int) -> bool:
    """True when the step from ``before`` to ``after`` is a point ``seat`` cannot undo past."""
    return undo_refusal(before, after, seat) is not None
