"""Expeditions corruption: gaining map tokens and corruption tokens, Vanquish (corruption, or the
opposing units here, starting combat), and Nohoch's two options.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from meloch.content.schema import Effect
from meloch.engine import combat, effects, flow, track, variants
from meloch.engine import frames as K
from meloch.engine.actions import Action
from meloch.engine.board import board
from meloch.engine.contract import CorruptionChanged
from meloch.engine.expeditions import items as exp_items
from meloch.engine.expeditions.turn import ep, gain_map_token
from meloch.engine.model import Frame, State
from meloch.engine.text import a_or_an
from meloch.engine.tx import Tx, is_scythe


@effects.op("map_token", "expeditions")
def _map_token(tx: Tx, seat: int, e: Effect) -> None:
    t = effects.draw_map_token(tx)
    if t is not None:
        gain_map_token(tx, seat, t)


def map_token_targets(state: State, seat: int, arg: str) -> list[str]:
    """Locations whose face-down map token ``map_token_at`` may take: next to the mech (``adjacent``,
    the default: the steps a Move could take) or anywhere on the board (``any``)."""
    p = ep(state, seat)
    near = board(state.setup.map_side).mech_steps(p.loc) if arg != "any" else None
    locs = {lc for lc, _ in state.map_tokens if near is None or lc in near}
    return sorted(locs, key=lambda x: int(x) if x.isdigit() else 99)


@effects.op("map_token_at", "expeditions")
def _map_token_at(tx: Tx, seat: int, e: Effect) -> None:
    """The map token *of a location* (rulebook: map tokens are gained "by moving onto them or through
    card abilities"), as opposed to ``map_token`` from the supply. The mech does not move."""
    if not map_token_targets(tx.s, seat, e.arg):
        tx.log("map_token", f"{flow.tag(tx.s, seat)} has no map token within reach.", seat=seat)
        return
    tx.push(Frame(kind=K.E_MAP_TOKEN_AT, seat=seat, tag=e.arg))


@flow.handler(K.E_MAP_TOKEN_AT, "Gain the map token of a location (the mech stays where it is).",
              lambda s, f: [flow.act(s, f.seat, "map-token-at", lc) for lc in map_token_targets(s, f.seat, f.tag)])
def _map_token_at_choice(tx: Tx, f: Frame, a: Action | None) -> None:
    assert a is not None
    s = tx.s
    loc = a.args[0]
    tok = next(t for lc, t in s.map_tokens if lc == loc)
    s.map_tokens = tuple((lc, t) for lc, t in s.map_tokens if lc != loc)
    tx.log("map_token", f"{flow.tag(s, f.seat)} takes the map token of location {loc}.", seat=f.seat)
    gain_map_token(tx, f.seat, tok)


effects.CAN_GAIN[("expeditions", "map_token_at")] = lambda s, seat, e: bool(map_token_targets(s, seat, e.arg))


# ---------------------------------------------------------------- corruption tokens


def stack_at(state: State, loc: str) -> tuple[int, ...]:
    return next((st for lc, st in state.corruption if lc == loc), ())


def take_corruption(tx: Tx, seat: int, loc: str, why: str) -> None:
    s = tx.s
    st = stack_at(s, loc)
    tok = st[-1]
    rest = st[:-1]
    s.corruption = tuple((lc, rest if lc == loc else x) for lc, x in s.corruption if lc != loc or rest)
    p = tx.ex(seat)
    p.corruption = (*p.corruption, tok)
    colour, value = track.token(tok)
    tx.log("corruption", f"{flow.tag(s, seat)} gains {a_or_an(colour)} {value} corruption token ({why}).", seat=seat,
           data=CorruptionChanged(loc=loc, colour=colour, value=value, action="taken"))
    if not rest:
        s.revealed = (*s.revealed, loc)
        lo = board(s.setup.map_side).loc[loc]
        tx.log("reveal", f"Location {loc} is cleared: {', '.join(effects.describe(x) for x in lo.revealed)} "
               "is exposed.", seat=seat)


@effects.op("corruption", "expeditions")
def _corruption(tx: Tx, seat: int, e: Effect) -> None:
    loc = ep(tx.s, seat).loc
    if stack_at(tx.s, loc):
        take_corruption(tx, seat, loc, "gained")


# ---------------------------------------------------------------- Vanquish


def attack_targets(state: State, seat: int) -> bool:
    """Opposing combat units on the mech's location (Vanquish may attack them)."""
    p = ep(state, seat)
    o = state.seats[1 - seat]
    b = board(state.setup.map_side)
    if not (b.is_territory(p.loc) or state.stalemate_open):
        return False
    if is_scythe(o):
        return p.loc == o.character or p.loc in o.mechs
    return p.loc == o.loc


VanquishDiscount = Callable[[State, int, Frame, str], int]
VANQUISH_DISCOUNTS: Final[list[VanquishDiscount]] = []
"""Mech discounts on a Vanquish token: (state, seat, the e_vanquish frame, token colour) -> amount
(Lumberjack). ``Frame.items`` lists the colours already paid in this Vanquish."""


def vanquish_cost(state: State, seat: int, f: Frame) -> tuple[str, int]:
    """Colour and price of the top corruption token here for this step of the Vanquish: its value,
    less 1 for the first token of a Vanquish per active ``vanquish_discount`` item, less the
    mech's discounts (never below 0)."""
    p = ep(state, seat)
    colour, value = track.token(stack_at(state, p.loc)[-1])
    d = exp_items.count(state, seat, "vanquish_discount") if f.count == 0 else 0
    d += sum(fn(state, seat, f, colour) for fn in VANQUISH_DISCOUNTS)
    return colour, max(0, value - d)


def _vanquish_options(state: State, f: Frame) -> list[Action]:
    p = ep(state, f.seat)
    if variants.must_attack(state, f.seat) and attack_targets(state, f.seat):
        return [flow.act(state, f.seat, "vanquish", "attack")]  # E vs E: sharing means combat
    out = []
    if stack_at(state, p.loc):
        colour, value = vanquish_cost(state, f.seat, f)
        if int(getattr(p, colour)) >= value:
            out.append(flow.act(state, f.seat, "vanquish", "corruption"))
    if f.count == 0 and attack_targets(state, f.seat):
        out.append(flow.act(state, f.seat, "vanquish", "attack"))
    if out:
        out.append(flow.act(state, f.seat, "vanquish", "stop"))
    return out


def _vanquish_prompt(state: State, f: Frame) -> str:
    p = ep(state, f.seat)
    parts = []
    if stack_at(state, p.loc):
        colour, value = vanquish_cost(state, f.seat, f)
        parts.append(f"pay {value} {colour} to gain the top corruption token (you have {getattr(p, colour)})")
    if f.count == 0 and attack_targets(state, f.seat):
        parts.append("attack the Scythe units here (combat)")
    return "Vanquish: " + (" or ".join(parts) or "nothing to vanquish") + ("; or stop." if parts else ".")


@effects.op("vanquish", "expeditions")
def _vanquish(tx: Tx, seat: int, e: Effect) -> None:
    tx.push(Frame(kind=K.E_VANQUISH, seat=seat, tag=e.arg))


@flow.handler(K.E_VANQUISH, _vanquish_prompt, _vanquish_options)
def _vanquish_choice(tx: Tx, f: Frame, a: Action | None) -> None:
    assert a is not None
    x = a.args[0]
    p = ep(tx.s, f.seat)
    if x == "stop":
        return
    if x == "attack":
        combat.start(tx, f.seat, p.loc)
        return
    colour, value = vanquish_cost(tx.s, f.seat, f)
    effects.add_stat(tx, f.seat, colour, -value, "Vanquish")
    take_corruption(tx, f.seat, p.loc, "Vanquish")
    if f.tag == "nohoch" and p.loc in tx.s.revealed and not stack_at(tx.s, p.loc):
        lo = board(tx.s.setup.map_side).loc[p.loc]
        tx.push(Frame(kind=K.ONE_OF, seat=f.seat, effects=(Effect(op="one_of", one_of=(lo.revealed, ())),)))
        return
    tx.push(Frame(kind=K.E_VANQUISH, seat=f.seat, count=f.count + 1, tag=f.tag, items=(*f.items, colour)))


# ---------------------------------------------------------------- Nohoch


def _nohoch(tx: Tx, seat: int, e: Effect) -> None:
    """Nohoch (rulebook, Appendix): "Pay $1 to gain your location's top corruption OR Vanquish."""
    tx.push(Frame(kind=K.ONE_OF, seat=seat, effects=(Effect(op="one_of", one_of=(
        (Effect(op="custom", arg="nohoch_corruption"),), (Effect(op="vanquish", arg="nohoch"),))),)))


def _nohoch_corruption(tx: Tx, seat: int, e: Effect) -> None:
    p = ep(tx.s, seat)
    if p.coins >= 1 and stack_at(tx.s, p.loc):
        effects.add_stat(tx, seat, "coins", -1, "Nohoch")
        take_corruption(tx, seat, p.loc, "Nohoch")


effects.CUSTOM.update(nohoch=_nohoch, nohoch_corruption=_nohoch_corruption)
effects.CAN_GAIN[(None, "custom:nohoch_corruption")] = (
    lambda s, seat, e: ep(s, seat).coins >= 1 and bool(stack_at(s, ep(s, seat).loc)))
