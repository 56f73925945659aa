"""Free actions: what a seat may do at any pause of its own turn, outside combat.

Both roles may discard combat cards for their upper-right benefit "during your turn (except
during combat)" (rulebook, Combat Cards). Roles and abilities add their own (Leverage, Voyager,
Odin's Wrath, ...) through ``FREE_OPTIONS[role]`` and ``FREE_RESOLVE[verb]``. A free action never
consumes the decision it interrupts: that frame goes back on the stack under the action's effects.
The ``turn_end`` frame closes every turn, so free actions stay available after the last action.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from meloch.engine import effects, flow
from meloch.engine import frames as K
from meloch.engine.actions import Action
from meloch.engine.cards import combat_token, combat_type
from meloch.engine.model import Frame, State
from meloch.engine.tx import Tx

FreeOptions = Callable[[State, int], list[Action]]
FreeResolve = Callable[[Tx, int, Action], None]
FREE_OPTIONS: Final[dict[str, list[FreeOptions]]] = {"scythe": [], "expeditions": []}
"""Per role: functions listing that role's extra free actions for a seat."""
FREE_RESOLVE: Final[dict[str, FreeResolve]] = {}
"""Free-action verb -> resolver (the interrupted decision is already back on the stack)."""


def free_actions(state: State, seat: int) -> list[Action]:
    if state.active != seat or state.combat is not None:
        return []
    p = state.seats[seat]
    who = flow.tag(state, seat)
    out = [flow.ACTION(who, "discard-combat", (combat_token(c),)) for c in sorted(set(p.combat_cards))]
    for fn in FREE_OPTIONS[flow.role(state, seat)]:
        out += fn(state, seat)
    return out


def discard_combat(tx: Tx, seat: int, cid: int) -> None:
    effects.take_combat_card(tx, seat, cid)
    t = combat_type(cid)
    tx.log("discard", f"{flow.tag(tx.s, seat)} discards {t.name} for its benefit.", seat=seat)
    effects.queue(tx, seat, t.discard, t.name)


def do_free_action(tx: Tx, f: Frame, a: Action) -> bool:
    """Carry out a free action taken at decision ``f`` (which stays pending); False if ``a`` is
    not a free action."""
    if a.verb == "discard-combat":
        tx.push(f)
        discard_combat(tx, f.seat, int(a.args[0][1:]))
        return True
    fn = FREE_RESOLVE.get(a.verb)
    if fn is None:
        return False
    tx.push(f)
    fn(tx, f.seat, a)
    return True


def _end_options(state: State, f: Frame) -> list[Action]:
    free = free_actions(state, f.seat)
    return [*free, flow.act(state, f.seat, "end")] if free else []


@flow.handler(K.TURN_END, "End your turn (or first use a free action: discard combat cards, abilities).",
              _end_options)
def _end(tx: Tx, f: Frame, a: Action | None) -> None:
    assert a is not None
    do_free_action(tx, f, a)
