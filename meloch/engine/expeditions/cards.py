"""Expeditions card ops: gaining cards (drawn, from a lake), Sweep, Refresh, Play, Upgrade/Meld
(tucking), Solve, Boast, Rescue, discard and trash; Nikte (Refresh other workers or Solve).

Each op either changes the state at once or pushes one decision frame; a frame's options list is
the only authority on what may be chosen.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

import msgspec

from meloch.content.schema import Effect
from meloch.engine import effects, flow, track
from meloch.engine import frames as K
from meloch.engine.actions import Action
from meloch.engine.cards import card, combat_name, combat_token, draw_discovery
from meloch.engine.contract import BoastSkipped, Drawn, Generic
from meloch.engine.expeditions.turn import ep, refresh
from meloch.engine.frames import FrameKind
from meloch.engine.game_content import active
from meloch.engine.model import Frame, State
from meloch.engine.text import a_or_an
from meloch.engine.tx import Tx


def cap(state: State, seat: int) -> int:
    """Solve / Upgrade / Meld limit per game (4; Tatanka 5: ``mechs.yaml`` ``cap``)."""
    return active().mechs[ep(state, seat).mech].cap


_cap = cap


# ---------------------------------------------------------------- gaining cards


GainHook = Callable[[Tx, int, str], None]
GAIN_HOOKS: Final[list[GainHook]] = []
"""Called after a card is gained (Highlander offers to move it to the hand)."""
HOLD_HIDDEN: Final[list[Callable[[State, int], bool]]] = []
"""Does the seat choose hand or active row for a gained card (Highlander)? Then a card drawn from a
deck waits in the hand, unseen by the opponent, until the choice places it."""


def gain_card(tx: Tx, seat: int, cid: str, how: str, hidden: bool = False) -> None:
    """A gained card goes to the right end of the active row, without benefit or worker
    (ref §2.4); Highlander may then move it to the hand (``GAIN_HOOKS``). ``hidden``: the card
    comes from a deck; a seat that will choose hand or row (``HOLD_HIDDEN``) keeps it in the hand
    meanwhile (face up, like the whole hand)."""
    p = tx.ex(seat)
    who = flow.tag(tx.s, seat)
    if hidden and any(holds(tx.s, seat) for holds in HOLD_HIDDEN):
        p.hand = (*p.hand, cid)
        # the hand is face up ("cards you control are always face up"): a public event
        tx.log("gain", f"{who} gains {card(cid).name} ({how}) into the hand until placed.", seat=seat,
               data=Drawn(deck="discovery", count=1, cards=(cid,)))
    else:
        p.active = (*p.active, (cid, ""))
        tx.log("gain", f"{who} gains {card(cid).name} ({how}).", seat=seat,
               data=Generic(values={"card": cid, "how": how}))
    for hook in GAIN_HOOKS:
        hook(tx, seat, cid)


@effects.op("discovery", "expeditions")
def _discovery(tx: Tx, seat: int, e: Effect) -> None:
    for _ in range(e.n):
        c = draw_discovery(tx)
        if c:
            gain_card(tx, seat, c, "drawn", hidden=True)


@effects.op("take_card", "expeditions")
def _take_card(tx: Tx, seat: int, e: Effect) -> None:
    tx.push(Frame(kind=K.E_TAKE, seat=seat))


@flow.handler(K.E_TAKE, "Gain a face-up card from a lake.",
              lambda s, f: [flow.act(s, f.seat, "take", lake, c) for lake, c in s.lakes if c])
def _take(tx: Tx, f: Frame, a: Action | None) -> None:
    assert a is not None
    lake, cid = a.args
    gain_card(tx, f.seat, cid, f"from {lake}")
    refill(tx, lake)


def refill(tx: Tx, lake: str) -> None:
    new = draw_discovery(tx) or ""
    tx.s.lakes = tuple((lk, new if lk == lake else c) for lk, c in tx.s.lakes)
    if new:
        tx.log("reveal", f"{card(new).name} is dealt face up on {lake}.")


@effects.op("sweep")
def _sweep(tx: Tx, seat: int, e: Effect) -> None:
    if tx.s.setup.variant != "scythe_vs_scythe":
        tx.push(Frame(kind=K.SWEEP, seat=seat))


@flow.handler(K.SWEEP, "Sweep: choose face-up cards to replace, one at a time, then finish.",
              lambda s, f: [flow.act(s, f.seat, "sweep", lake) for lake, c in s.lakes if c and lake not in f.items]
              + [flow.act(s, f.seat, "sweep", "done")])
def _sweep_choice(tx: Tx, f: Frame, a: Action | None) -> None:
    assert a is not None
    lake = a.args[0]
    if lake == "done":
        return
    old = dict(tx.s.lakes)[lake]
    tx.s.discovery_discard = (*tx.s.discovery_discard, old)
    tx.log("sweep", f"{flow.tag(tx.s, f.seat)} sweeps {card(old).name} from {lake}.", seat=f.seat)
    refill(tx, lake)
    tx.push(Frame(kind=K.SWEEP, seat=f.seat, items=(*f.items, lake)))


@effects.op("refresh", "expeditions")
def _refresh(tx: Tx, seat: int, e: Effect) -> None:
    refresh(tx, seat)


@effects.op("play", "expeditions")
def _play(tx: Tx, seat: int, e: Effect) -> None:
    if ep(tx.s, seat).hand:
        tx.push(Frame(kind=K.E_PLAY, seat=seat))


# ---------------------------------------------------------------- cards you control


def controlled_cards(state: State, seat: int, kind: str) -> list[str]:
    p = ep(state, seat)
    return sorted({c for c in (*p.hand, *(c for c, _ in p.active)) if card(c).kind == kind})


_controlled_cards = controlled_cards


def remove_card(tx: Tx, seat: int, cid: str) -> None:
    """Take a card out of hand or the active row; a worker on it returns to the mat."""
    p = tx.ex(seat)
    if cid in p.hand:
        hand = list(p.hand)
        hand.remove(cid)
        p.hand = tuple(hand)
        return
    for i, (c, w) in enumerate(p.active):
        if c == cid:
            p.active = p.active[:i] + p.active[i + 1:]
            if w:
                p.workers = (*p.workers, w)
            return


_remove_card = remove_card


# ---------------------------------------------------------------- Upgrade, Meld, Solve, Boast


def _tuck_op(kind: str, field: str, verb: str) -> None:
    @effects.op(verb, "expeditions")
    def fn(tx: Tx, seat: int, e: Effect) -> None:
        p = ep(tx.s, seat)
        if len(getattr(p, field)) < cap(tx.s, seat):
            tx.push(Frame(kind=FrameKind(f"e_{verb}"), seat=seat))

    def options(state: State, f: Frame) -> list[Action]:
        return [flow.act(state, f.seat, verb, c) for c in controlled_cards(state, f.seat, kind)]

    @flow.handler(FrameKind(f"e_{verb}"), f"{verb.capitalize()}: choose {a_or_an(kind)} you control to tuck.", options)
    def resolve(tx: Tx, f: Frame, a: Action | None) -> None:
        assert a is not None
        cid = a.args[0]
        remove_card(tx, f.seat, cid)
        p = tx.ex(f.seat)
        setattr(p, field, (*getattr(p, field), cid))
        tx.log(verb, f"{flow.tag(tx.s, f.seat)} {verb}s {card(cid).name}.", seat=f.seat)
        if verb == "meld":
            bonus = [b for m in p.melded for b in card(m).meld]
            effects.queue(tx, f.seat, bonus, "meld bonuses")


_tuck_op("item", "upgraded", "upgrade")
_tuck_op("meteorite", "melded", "meld")


@effects.op("solve", "expeditions")
def _solve(tx: Tx, seat: int, e: Effect) -> None:
    if len(ep(tx.s, seat).solved) < cap(tx.s, seat):
        tx.push(Frame(kind=K.E_SOLVE, seat=seat, tag=e.arg))


def solvable(state: State, seat: int) -> list[str]:
    p = ep(state, seat)
    return [c for c in controlled_cards(state, seat, "quest")
            if p.loc in card(c).solve_locations and effects.can_pay(_quest_worker_back(state, seat, c), seat,
                                                                     card(c).solve_cost)]


def _quest_worker_back(state: State, seat: int, cid: str) -> State:
    """``state`` with the worker on quest ``cid`` (if any) back on the mat: it returns before the
    cost's worker is chosen (``_solve_choice``), so it may pay a worker cost."""
    p = ep(state, seat)
    w = next((w for c, w in p.active if c == cid and w), "")
    if not w:
        return state
    seats = list(state.seats)
    seats[seat] = msgspec.structs.replace(p, workers=(*p.workers, w))
    return msgspec.structs.replace(state, seats=(seats[0], seats[1]))


@flow.handler(K.E_SOLVE, "Solve: choose a quest for this location and pay its cost.",
              lambda s, f: [flow.act(s, f.seat, "solve", c) for c in solvable(s, f.seat)])
def _solve_choice(tx: Tx, f: Frame, a: Action | None) -> None:
    assert a is not None
    c = card(a.args[0])
    remove_card(tx, f.seat, c.id)
    p = tx.ex(f.seat)
    p.solved = (*p.solved, c.id)
    tx.log("solve", f"{flow.tag(tx.s, f.seat)} solves {c.name}.", seat=f.seat)
    effects.queue(tx, f.seat, c.solve_gain, f"quest {c.name}")
    # paid after the gain is queued, so that a choice inside the payment (which worker) comes first
    effects.pay(tx, f.seat, c.solve_cost, f"solving {c.name}")
    if f.tag == "nikte":
        for q in p.solved:
            effects.add_stat(tx, f.seat, card(q).core, card(q).core_value, "Nikte: solved quests")


@effects.op("boast", "expeditions")
def _boast(tx: Tx, seat: int, e: Effect) -> None:
    if not track.can_boast(tx.s, seat):  # said, so a Boast benefit never vanishes without a line
        tx.log("boast", f"{flow.tag(tx.s, seat)} cannot boast: no open Triumph category's requirement is met.",
               seat=seat, data=BoastSkipped())
        return
    tx.push(Frame(kind=K.E_BOAST, seat=seat))


def _boast_options(state: State, f: Frame) -> list[Action]:
    return [flow.act(state, f.seat, "boast", str(i + 1)) for i in track.boastable(state, f.seat)]


@flow.handler(K.E_BOAST, "Boast: place a star on a Triumph category whose requirement you meet.",
              _boast_options)
def _boast_choice(tx: Tx, f: Frame, a: Action | None) -> None:
    assert a is not None
    track.place_star(tx, f.seat, int(a.args[0]) - 1, "Boast")


# ---------------------------------------------------------------- Rescue, discard, trash


@effects.op("rescue", "expeditions")
def _rescue(tx: Tx, seat: int, e: Effect) -> None:
    if ep(tx.s, seat).active:
        tx.push(Frame(kind=K.E_RESCUE, seat=seat))


@flow.handler(K.E_RESCUE, "Rescue: return a card from your active row to your hand.",
              lambda s, f: [flow.act(s, f.seat, "rescue", c) for c in sorted({c for c, _ in ep(s, f.seat).active})])
def _rescue_choice(tx: Tx, f: Frame, a: Action | None) -> None:
    assert a is not None
    remove_card(tx, f.seat, a.args[0])
    p = tx.ex(f.seat)
    p.hand = (*p.hand, a.args[0])
    tx.log("rescue", f"{flow.tag(tx.s, f.seat)} rescues {card(a.args[0]).name}.", seat=f.seat)


STARTING_KINDS: Final = ("character", "companion")
"""Starting cards, not discovery cards: never trashed or discarded ("If an ability says to discard
a card, it only applies to discovery cards", rulebook, Expeditions Special Notes)."""


def _discardable(state: State, seat: int) -> list[str]:
    return sorted({c for c in ep(state, seat).hand if card(c).kind not in STARTING_KINDS})


@effects.op("discard", "expeditions")
def _discard(tx: Tx, seat: int, e: Effect) -> None:
    if _discardable(tx.s, seat):
        tx.push(Frame(kind=K.E_DISCARD, seat=seat))


@flow.handler(K.E_DISCARD, "Discard: move a discovery card from hand to your active row without activating it.",
              lambda s, f: [flow.act(s, f.seat, "discard", c) for c in _discardable(s, f.seat)])
def _discard_choice(tx: Tx, f: Frame, a: Action | None) -> None:
    assert a is not None
    remove_card(tx, f.seat, a.args[0])
    p = tx.ex(f.seat)
    p.active = (*p.active, (a.args[0], ""))
    tx.log("discard", f"{flow.tag(tx.s, f.seat)} discards {card(a.args[0]).name} to the active row.", seat=f.seat)


@effects.op("trash", "expeditions")
def _trash(tx: Tx, seat: int, e: Effect) -> None:
    tx.push(Frame(kind=K.E_TRASH, seat=seat))


def _trash_options(state: State, f: Frame) -> list[Action]:
    p = ep(state, f.seat)
    ids = sorted({c for c in (*p.hand, *(c for c, _ in p.active)) if card(c).kind not in STARTING_KINDS})
    return ([flow.act(state, f.seat, "trash", c) for c in ids]
            + [flow.act(state, f.seat, "trash", combat_token(c)) for c in sorted(set(p.combat_cards))])


@flow.handler(K.E_TRASH, "Trash a discovery card or a combat card.", _trash_options)
def _trash_choice(tx: Tx, f: Frame, a: Action | None) -> None:
    assert a is not None
    x = a.args[0]
    if x.startswith("c") and x[1:].isdigit():
        effects.take_combat_card(tx, f.seat, int(x[1:]), to_discard=False)
        tx.s.combat_trash = (*tx.s.combat_trash, int(x[1:]))  # out of the game (ref §2.4)
        tx.log("trash", f"{flow.tag(tx.s, f.seat)} trashes a combat card ({combat_name(int(x[1:]))}).", seat=f.seat)
    else:
        remove_card(tx, f.seat, x)
        tx.s.discovery_trash = (*tx.s.discovery_trash, x)  # out of the game (ref §2.4)
        tx.log("trash", f"{flow.tag(tx.s, f.seat)} trashes {card(x).name}.", seat=f.seat)


# ---------------------------------------------------------------- Nikte


def _nikte(tx: Tx, seat: int, e: Effect) -> None:
    """Nikte (rulebook, Appendix): "Refresh all other workers ... OR Solve"."""
    tx.push(Frame(kind=K.ONE_OF, seat=seat, effects=(Effect(op="one_of", one_of=(
        (Effect(op="custom", arg="nikte_refresh"),), (Effect(op="solve", arg="nikte"),))),)))


def _nikte_refresh(tx: Tx, seat: int, e: Effect) -> None:
    """Workers on other active cards return to the mat; the one on Nikte stays."""
    p = tx.ex(seat)
    keep = p.character
    back = [w for c, w in p.active if w and c != keep]
    p.active = tuple((c, w if c == keep else "") for c, w in p.active)
    p.workers = (*p.workers, *back)
    tx.log("refresh", f"{flow.tag(tx.s, seat)} refreshes {len(back)} worker(s) (Nikte).", seat=seat)


effects.CUSTOM.update(nikte=_nikte, nikte_refresh=_nikte_refresh)
