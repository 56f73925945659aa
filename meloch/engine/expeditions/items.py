"""Item ongoing abilities of the Expeditions player (``vocab.ONGOING`` keys).

An item's ongoing ability is active while the item sits on the active row with a worker on it, for
the rest of the game once the item is upgraded (reference.md §2.4-2.5: "only its ongoing ability
remains"), and until the end of the turn when the item's ability was activated by another card
(``activate_adjacent``: "ongoing effects so activated last until end of turn", ref §2.4).

The rules ask ``count(state, seat, key)``; each key's meaning is applied where its rule lives:

- ``move_plus1``: ``expeditions.mech_destinations`` (maximum range + 1);
- ``vanquish_discount``: ``exp_corruption.vanquish_cost`` (first token of each Vanquish costs 1 less);
- ``gather_coin``: ``expeditions._gather`` ($1 with every Gather action);
- ``combat_plus1`` and ``retreat_card``: ``combat_bonus`` / ``after_loss`` below, registered in
  ``combat.TOTAL_BONUS`` / ``combat.AFTER_LOSS``.
"""

from __future__ import annotations

from typing import Final

from meloch.engine import combat, effects
from meloch.engine.cards import card
from meloch.engine.model import State
from meloch.engine.tx import Tx, is_exp

FLAG: Final = "ongoing:"
"""Turn-flag prefix of an ongoing ability activated for this turn only."""


def sources(state: State, seat: int) -> list[str]:
    """Ongoing keys active for ``seat``, one entry per active source (so they stack)."""
    p = state.seats[seat]
    if not is_exp(p):
        return []
    out = [card(c).ongoing for c, w in p.active if w and card(c).ongoing]
    out += [card(c).ongoing for c in p.upgraded if card(c).ongoing]
    if state.active == seat:
        out += [f[len(FLAG):] for f in state.turn_flags if f.startswith(FLAG)]
    return out


def count(state: State, seat: int, key: str) -> int:
    return sources(state, seat).count(key)


def combat_bonus(state: State, seat: int) -> int:
    """``combat_plus1``: +1 to the combat total per active source."""
    return count(state, seat, "combat_plus1")


def after_loss(tx: Tx, seat: int) -> None:
    """``retreat_card``: "when you lose a combat, draw 1 more combat card" per active source."""
    n = count(tx.s, seat, "retreat_card")
    if n:
        effects.draw_combat(tx, seat, n, "ongoing item: lost a combat")


combat.TOTAL_BONUS.append(combat_bonus)
combat.AFTER_LOSS.append(after_loss)
