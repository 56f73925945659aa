"""Meloch cards: drawn when the opponent places a star, placed upright or rotated over half of the
last one; the benefits facing a seat are offered to it (reference.md §1.9, AMB-44)."""

from __future__ import annotations

from typing import Final

import msgspec

from meloch.content.schema import Effect, MelochCard
from meloch.engine import effects, flow
from meloch.engine import frames as K
from meloch.engine.actions import Action
from meloch.engine.contract import MelochCardEvent
from meloch.engine.game_content import index
from meloch.engine.model import Frame, State
from meloch.engine.tx import Tx


def meloch_card(cid: str) -> MelochCard:
    return index().meloch_cards[cid]


def visible_meloch(state: State, seat: int) -> list[Effect]:
    """Benefits facing ``seat`` on all visible Meloch halves.

    Model (reference.md §1.9, AMB-44): the row grows to the right and each new card covers the
    right half of the previous one, so every card but the newest shows its left half. A rotated
    card swaps its halves and which seat each benefit faces. Seat 0 sits at the Scythe edge (the
    star-badge edge); a benefit for a track the seat's role lacks is read as its parallel track
    (popularity <-> guile), as the rulebook does for "decrease each token on tracks" in the variants;
    in the standard duel too, a reading recorded in docs/rules-notes.md ("Rules review", item 8)."""
    out: list[Effect] = []
    row = state.meloch_row
    for i, (cid, rotated) in enumerate(row):
        card = meloch_card(cid)
        halves = [card.right, card.left] if rotated else [card.left, card.right]
        shown = halves if i == len(row) - 1 else halves[:1]
        for h in shown:
            toward_me = (seat == 0) != rotated
            out.extend(_for_role(state, seat, e) for e in (h.toward_scythe if toward_me else h.toward_expeditions))
    return out


_PARALLEL: Final = {"scythe": {"guile": "popularity"}, "expeditions": {"popularity": "guile"}}


def _for_role(state: State, seat: int, e: Effect) -> Effect:
    new = _PARALLEL[state.setup.seats[seat].role].get(e.op)
    return Effect(op=new, n=e.n, arg=e.arg) if new else e


@flow.handler(K.MELOCH_DRAW, "draw a Meloch card")
def _meloch_draw(tx: Tx, f: Frame, a: Action | None) -> None:
    """Draw the top Meloch card (it is placed face up at once, so the draw is public), then
    choose its orientation knowing the card."""
    s = tx.s
    if not s.meloch_deck:
        return
    cid = s.meloch_deck[-1]
    s.meloch_deck = s.meloch_deck[:-1]
    tx.log("meloch", f"{flow.tag(s, f.seat)} draws Meloch card {meloch_card(cid).name}.", seat=f.seat,
           data=MelochCardEvent(card=cid, rotated=False, placed=False))
    tx.push(Frame(kind=K.MELOCH_ORIENT, seat=f.seat, tag=cid))


def _return_drawn_meloch(tx: Tx) -> None:
    """A Meloch card drawn but not yet placed when the game ends goes back on its deck."""
    drawn = tuple(f.tag for f in tx.s.frames if f.kind == K.MELOCH_ORIENT)
    if drawn:
        tx.s.meloch_deck = (*tx.s.meloch_deck, *reversed(drawn))


flow.GAME_END.append(_return_drawn_meloch)


def _orient_options(state: State, f: Frame) -> list[Action]:
    return [flow.act(state, f.seat, "meloch", "upright"), flow.act(state, f.seat, "meloch", "rotated")]


def facing_after(state: State, seat: int, cid: str, rotated: bool) -> list[Effect]:
    """The benefits that would face ``seat`` once ``cid`` is placed so."""
    return visible_meloch(msgspec.structs.replace(state, meloch_row=(*state.meloch_row, (cid, rotated))), seat)


def _orient_prompt(state: State, f: Frame) -> str:
    def gains(rotated: bool) -> str:
        return ", ".join(effects.describe(e) for e in facing_after(state, f.seat, f.tag, rotated)) or "nothing"

    return (f"Your opponent placed a star: place Meloch card {meloch_card(f.tag).name} over half of the "
            f"last one. Upright, the visible benefits facing you are: {gains(False)}; rotated: {gains(True)}.")


@flow.handler(K.MELOCH_ORIENT, _orient_prompt, _orient_options)
def _meloch_orient(tx: Tx, f: Frame, a: Action | None) -> None:
    assert a is not None
    s = tx.s
    cid = f.tag
    rotated = a.args[0] == "rotated"
    s.meloch_row = (*s.meloch_row, (cid, rotated))
    tx.log("meloch", f"{flow.tag(s, f.seat)} places Meloch card {meloch_card(cid).name} "
           f"{'rotated' if rotated else 'upright'}.", seat=f.seat,
           data=MelochCardEvent(card=cid, rotated=rotated, placed=True))
    gains = visible_meloch(s, f.seat)
    if gains:
        tx.push(Frame(kind=K.MELOCH_GAIN, seat=f.seat, effects=tuple(gains)))


def _gain_options(state: State, f: Frame) -> list[Action]:
    opts = [flow.act(state, f.seat, "take", "all"), flow.act(state, f.seat, "take", "none")]
    if len(f.effects) > 1:
        opts += [flow.act(state, f.seat, "take", "first"), flow.act(state, f.seat, "take", "skip-first")]
    return opts


def _gain_prompt(state: State, f: Frame) -> str:
    return ("Meloch benefits facing you: " + ", ".join(effects.describe(e) for e in f.effects)
            + ". Take all, none, or decide on the first one and then on the rest.")


@flow.handler(K.MELOCH_GAIN, _gain_prompt, _gain_options)
def _meloch_gain(tx: Tx, f: Frame, a: Action | None) -> None:
    assert a is not None
    choice = a.args[0]
    rest = f.effects[1:]
    if choice in ("first", "skip-first") and rest:
        tx.push(Frame(kind=K.MELOCH_GAIN, seat=f.seat, effects=rest))
    if choice == "all":
        effects.queue(tx, f.seat, f.effects, "Meloch card")
    elif choice == "first":
        effects.queue(tx, f.seat, f.effects[:1], "Meloch card")
    else:
        tx.log("meloch", f"{flow.tag(tx.s, f.seat)} declines a Meloch benefit.", seat=f.seat)
