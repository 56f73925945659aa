"""Expeditions ops that reach beyond the mech's hand: an adjacent location's benefit, activating
a face-up card next to the mech, peeking at a deck, drawing 2 and keeping 1.
"""

from __future__ import annotations

from typing import Final

from meloch.content.schema import Effect
from meloch.engine import effects, flow
from meloch.engine import frames as K
from meloch.engine.actions import Action
from meloch.engine.board import board
from meloch.engine.cards import card, combat_name, combat_token, draw_discovery
from meloch.engine.contract import Drawn, Known
from meloch.engine.expeditions import items as exp_items
from meloch.engine.expeditions.cards import gain_card
from meloch.engine.expeditions.turn import ep, gather_benefits
from meloch.engine.model import Frame, State
from meloch.engine.tx import Tx

# ---------------------------------------------------------------- adjacent location, adjacent card


@effects.op("adjacent", "expeditions")
def _adjacent(tx: Tx, seat: int, e: Effect) -> None:
    tx.push(Frame(kind=K.E_ADJACENT, seat=seat))


def _adjacent_options(state: State, f: Frame) -> list[Action]:
    p = ep(state, f.seat)
    b = board(state.setup.map_side)
    out = []
    for n in sorted(b.mech_steps(p.loc), key=lambda x: int(x) if x.isdigit() else 99):
        for i, e in enumerate(gather_benefits(state, n)):
            if e.op != "adjacent":
                out.append(flow.act(state, f.seat, "adjacent", n, str(i + 1)))
    return out


@flow.handler(K.E_ADJACENT, "Gain one benefit of an adjacent location.", _adjacent_options)
def _adjacent_choice(tx: Tx, f: Frame, a: Action | None) -> None:
    assert a is not None
    e = gather_benefits(tx.s, a.args[0])[int(a.args[1]) - 1]
    tx.log("gather", f"{flow.tag(tx.s, f.seat)} gains {effects.describe(e)} from {a.args[0]}.", seat=f.seat)
    effects.execute(tx, f.seat, e)


REACHING_OPS: Final = frozenset({"adjacent", "activate_adjacent", "gather_here"})
"""Benefits that reach beyond the location; ``gather_here`` leaves them out, so a card cannot
trigger itself again through the board (gather here -> activate the adjacent card -> gather here)."""


def here_benefits(state: State, seat: int) -> tuple[Effect, ...]:
    return tuple(x for x in gather_benefits(state, ep(state, seat).loc) if x.op not in REACHING_OPS)


@effects.op("gather_here", "expeditions")
def _gather_here(tx: Tx, seat: int, e: Effect) -> None:
    """Gain the benefits of the mech's location, as a Gather would (exposed benefits included), but
    as a card ability, not the Gather action: no Gather hooks (Mole) or per-Gather items, and none
    of the benefits that reach beyond the location (``REACHING_OPS``)."""
    p = ep(tx.s, seat)
    fx = here_benefits(tx.s, seat)
    if not fx:
        tx.log("gather", f"{flow.tag(tx.s, seat)}'s location {p.loc} has no benefit to gather.", seat=seat)
        return
    tx.log("gather", f"{flow.tag(tx.s, seat)} gains the benefits of {p.loc}: "
           f"{', '.join(effects.describe(x) for x in fx)}.", seat=seat)
    effects.queue(tx, seat, fx, f"benefits of {p.loc}")


effects.CAN_GAIN[("expeditions", "gather_here")] = lambda s, seat, e: bool(here_benefits(s, seat))


@effects.op("activate_adjacent", "expeditions")
def _activate_adjacent(tx: Tx, seat: int, e: Effect) -> None:
    tx.push(Frame(kind=K.E_ACTIVATE, seat=seat))


def _activate_options(state: State, f: Frame) -> list[Action]:
    p = ep(state, f.seat)
    b = board(state.setup.map_side)
    return [flow.act(state, f.seat, "activate", lake) for lake, c in state.lakes
            if c and b.is_territory(p.loc) and lake in b.all_adjacent[p.loc] and (card(c).ability or card(c).ongoing)]


@flow.handler(K.E_ACTIVATE, "Activate the ability of a face-up card next to your location.", _activate_options)
def _activate(tx: Tx, f: Frame, a: Action | None) -> None:
    assert a is not None
    c = card(dict(tx.s.lakes)[a.args[0]])
    tx.log("activate", f"{flow.tag(tx.s, f.seat)} activates {c.name} on {a.args[0]}.", seat=f.seat)
    if c.ongoing:
        tx.set_flag(exp_items.FLAG + c.ongoing)
    effects.queue(tx, f.seat, c.ability, c.name)


# ---------------------------------------------------------------- peek, draw 2 keep 1


@effects.op("peek2")
def _peek2(tx: Tx, seat: int, e: Effect) -> None:
    tx.push(Frame(kind=K.PEEK, seat=seat))


def _peek_options(state: State, f: Frame) -> list[Action]:
    """The combat or the discovery deck; Scythe vs Scythe has no discovery deck, and in
    Expeditions vs Expeditions "Peek at the top 2 cards of any deck: This refers to the discovery
    deck" (rulebook, Variants)."""
    decks = ["combat"]
    if state.setup.variant != "scythe_vs_scythe":
        decks.append("discovery")
    if state.setup.variant == "expeditions_vs_expeditions":
        decks = ["discovery"]
    return [flow.act(state, f.seat, "peek", d) for d in decks]


@flow.handler(K.PEEK, "Peek at the top 2 cards of one deck (only you see them).", _peek_options)
def _peek(tx: Tx, f: Frame, a: Action | None) -> None:
    assert a is not None
    s = tx.s
    if a.args[0] == "combat":
        ids = [f"c{c}" for c in reversed(s.combat_deck[-2:])]
        top = [combat_name(c) for c in reversed(s.combat_deck[-2:])]
    else:
        ids = list(reversed(s.discovery_deck[-2:]))
        top = [card(c).name for c in reversed(s.discovery_deck[-2:])]
    text = f"top of the {a.args[0]} deck: {', '.join(top) or 'empty'}"
    s.known = (*s.known, Known(seat=f.seat, kind="peek", deck=a.args[0], cards=tuple(ids)))
    tx.log("peek", f"{flow.tag(s, f.seat)} peeks at the {text}.", seat=f.seat, private_to=f.seat,
           public=f"{flow.tag(s, f.seat)} peeks at the top 2 cards of the {a.args[0]} deck.",
           data=Drawn(deck=a.args[0], count=len(ids), cards=tuple(ids)),
           public_data=Drawn(deck=a.args[0], count=len(ids)))


@effects.op("draw2keep1")
def _draw2(tx: Tx, seat: int, e: Effect) -> None:
    tx.push(Frame(kind=K.DRAW2, seat=seat))


@flow.handler(K.DRAW2, "Draw 2 cards in any combination of the combat and discovery decks.",
              lambda s, f: [flow.act(s, f.seat, "draw2", x) for x in ("combat-combat", "combat-discovery",
                                                                       "discovery-discovery")])
def _draw2_choice(tx: Tx, f: Frame, a: Action | None) -> None:
    assert a is not None
    s = tx.s
    drawn: list[str] = []
    for kind in a.args[0].split("-"):
        if kind == "combat":
            if not s.combat_deck and s.combat_discard:
                s.combat_deck = tx.shuffled(s.combat_discard)
                s.combat_discard = ()
            if s.combat_deck:
                drawn.append(combat_token(s.combat_deck[-1]))
                s.combat_deck = s.combat_deck[:-1]
        else:
            c = draw_discovery(tx)
            if c:
                drawn.append(c)
    if drawn:
        tx.push(Frame(kind=K.KEEP1, seat=f.seat, items=tuple(drawn)))


@flow.handler(K.KEEP1, "Keep one of the two drawn cards; the other is discarded.",
              lambda s, f: [flow.act(s, f.seat, "keep", x) for x in f.items])
def _keep(tx: Tx, f: Frame, a: Action | None) -> None:
    assert a is not None
    s = tx.s
    for x in f.items:
        is_combat = x.startswith("c") and x[1:].isdigit()
        if x == a.args[0]:
            if is_combat:
                p = tx.seat(f.seat)
                p.combat_cards = (*p.combat_cards, int(x[1:]))
            else:
                gain_card(tx, f.seat, x, "kept", hidden=True)
        elif is_combat:
            s.combat_discard = (*s.combat_discard, int(x[1:]))
        else:
            s.discovery_discard = (*s.discovery_discard, x)
    tx.log("draw", f"{flow.tag(s, f.seat)} keeps one of two drawn cards.", seat=f.seat)
