"""Expeditions mech abilities, one registry keyed by the ability name (``mechs.yaml`` ``ability``).

Numbers live in content: Tatanka's cap of 5 is ``cap`` and Marsh Strider's range 1-4 is
``move_max`` (read by ``exp_cards.cap`` and ``expeditions.move_range``). The abilities that need
code hook in here:

- free actions on your own turn (``expeditions.FREE_OPTIONS`` / ``FREE_RESOLVE``): Voyager,
  Odin's Wrath, Scarecrow;
- ``exp_cards.GAIN_HOOKS``: Highlander;
- ``exp_corruption.VANQUISH_DISCOUNTS``: Lumberjack;
- ``expeditions.GATHER_HOOKS``: Mole.

Scarecrow and Mole pay with a held map token of the player's choice (``exp_workers.pay_map_token``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from meloch.content.schema import Effect
from meloch.engine import effects, flow, track
from meloch.engine import frames as K
from meloch.engine.actions import Action
from meloch.engine.board import board
from meloch.engine.cards import card
from meloch.engine.expeditions import cards as exp_cards
from meloch.engine.expeditions import corruption as exp_corruption
from meloch.engine.expeditions import turn as expeditions
from meloch.engine.expeditions import workers as exp_workers
from meloch.engine.expeditions.turn import ep
from meloch.engine.frames import FrameKind
from meloch.engine.game_content import active
from meloch.engine.model import Frame, State
from meloch.engine.text import a_or_an
from meloch.engine.tx import Tx


def ability(state: State, seat: int) -> str:
    return active().mechs[ep(state, seat).mech].ability


def _own_turn(state: State, seat: int, name: str) -> bool:
    """Seat's mech has ``name``, it is the seat's turn and the once-per-turn use is unspent."""
    return state.active == seat and ability(state, seat) == name and name not in state.turn_flags


# ---------------------------------------------------------------- Voyager


def tuck_possible(state: State, seat: int, op: str) -> bool:
    """Would Upgrade / Meld / Boast do something now (a card to tuck under the cap; a met,
    open category)?"""
    if op == "boast":
        return track.can_boast(state, seat)
    p = ep(state, seat)
    kind, done = ("item", p.upgraded) if op == "upgrade" else ("meteorite", p.melded)
    if len(done) >= active().mechs[p.mech].cap:
        return False
    # Plain loops: Voyager asks this before every decision of its turn.
    for c in p.hand:
        if card(c).kind == kind:
            return True
    for c, _ in p.active:  # noqa: SIM110 (a generator costs more, compiled)
        if card(c).kind == kind:
            return True
    return False


def _voyager_options(state: State, seat: int) -> list[Action]:
    """"Once per turn, you may trash 1 corruption to Upgrade, Meld, or Boast. You can use this
    ability anywhere" (rulebook, Appendix). Offered only when the benefit would do something."""
    if not _own_turn(state, seat, "voyager") or not ep(state, seat).corruption:
        return []
    return [flow.act(state, seat, "voyager", x) for x in ("upgrade", "meld", "boast")
            if tuck_possible(state, seat, x)]


def _voyager(tx: Tx, seat: int, a: Action) -> None:
    tx.set_flag("voyager")
    tx.push(Frame(kind=K.E_VOYAGER, seat=seat, tag=a.args[0]))


def token_name(t: int) -> str:
    colour, value = track.token(t)
    return f"{colour}-{value}"


def _voyager_token_options(state: State, f: Frame) -> list[Action]:
    names = sorted({token_name(t) for t in ep(state, f.seat).corruption})
    return [flow.act(state, f.seat, "trash-corruption", n) for n in names]


@flow.handler(K.E_VOYAGER, lambda s, f: f"Voyager: choose the corruption token to trash (then {f.tag}).",
              _voyager_token_options)
def _voyager_token(tx: Tx, f: Frame, a: Action | None) -> None:
    assert a is not None
    p = tx.ex(f.seat)
    t = next(t for t in p.corruption if token_name(t) == a.args[0])
    cor = list(p.corruption)
    cor.remove(t)
    p.corruption = tuple(cor)
    tx.s.corruption_trash = (*tx.s.corruption_trash, t)
    tx.log("voyager", f"{flow.tag(tx.s, f.seat)} trashes {a_or_an(a.args[0])} corruption token (Voyager) to {f.tag}.",
           seat=f.seat)
    effects.execute(tx, f.seat, Effect(op=f.tag))


# ---------------------------------------------------------------- Odin's Wrath


def _odin_options(state: State, seat: int) -> list[Action]:
    """"Trash a map token from the supply to gain 1 power, 1 guile or $1" (ref §2.8): the supply is
    the set-aside tokens (AMB-16 (a)); once per turn (our reading)."""
    if not _own_turn(state, seat, "odins_wrath") or not state.map_token_supply:
        return []
    return [flow.act(state, seat, "odins-wrath", x) for x in ("power", "guile", "coins")]


def _odin(tx: Tx, seat: int, a: Action) -> None:
    tx.set_flag("odins_wrath")
    tx.s.map_token_trash = (*tx.s.map_token_trash, tx.s.map_token_supply[-1])
    tx.s.map_token_supply = tx.s.map_token_supply[:-1]
    tx.log("odins_wrath", f"{flow.tag(tx.s, seat)} trashes a face-down map token from the supply (Odin's Wrath).",
           seat=seat)
    effects.add_stat(tx, seat, a.args[0], 1, "Odin's Wrath")


# ---------------------------------------------------------------- Scarecrow


def _scarecrow_options(state: State, seat: int) -> list[Action]:
    """"Trash a map token during a Refresh turn to take 1 extra Move, Play or Gather after
    refreshing" (ref §2.8): once, after the refresh, with a held map token."""
    if not _own_turn(state, seat, "scarecrow") or "refresh_turn" not in state.turn_flags:
        return []
    if not ep(state, seat).map_tokens:
        return []
    return [flow.act(state, seat, "scarecrow", x) for x in expeditions.ACTIONS
            if expeditions.possible(state, seat, x)]


def _scarecrow(tx: Tx, seat: int, a: Action) -> None:
    tx.set_flag("scarecrow")
    tx.log("scarecrow", f"{flow.tag(tx.s, seat)} uses Scarecrow: a map token for an extra {a.args[0]}.",
           seat=seat)
    tx.push(Frame(kind=FrameKind(f"e_{a.args[0]}"), seat=seat))
    exp_workers.pay_map_token(tx, seat, "Scarecrow")  # chosen first, then the extra action


# ---------------------------------------------------------------- Highlander


def _highlander_gain(tx: Tx, seat: int, cid: str) -> None:
    """"Gained cards may go directly to hand" (ref §2.8)."""
    if ability(tx.s, seat) == "highlander":
        tx.push(Frame(kind=K.E_HIGHLANDER, seat=seat, tag=cid))


@flow.handler(K.E_HIGHLANDER, lambda s, f: f"Highlander: put the gained {card(f.tag).name} in your hand, "
              "or leave it on your active row?",
              lambda s, f: [flow.act(s, f.seat, "gained-to", x) for x in ("hand", "row")])
def _highlander(tx: Tx, f: Frame, a: Action | None) -> None:
    assert a is not None
    p = tx.ex(f.seat)
    if f.tag in p.hand:  # drawn from a deck: held in the hand (face up) until placed (exp_cards.HOLD_HIDDEN)
        if a.args[0] == "row":
            hand = list(p.hand)
            hand.remove(f.tag)
            p.hand = tuple(hand)
            p.active = (*p.active, (f.tag, ""))
            tx.log("highlander", f"{flow.tag(tx.s, f.seat)} puts {card(f.tag).name} on the active row (Highlander).",
                   seat=f.seat)
        return
    if a.args[0] == "row":
        return
    for i, (c, w) in enumerate(p.active):
        if c == f.tag and not w:
            p.active = p.active[:i] + p.active[i + 1:]
            p.hand = (*p.hand, c)
            tx.log("highlander", f"{flow.tag(tx.s, f.seat)} puts {card(c).name} in hand (Highlander).",
                   seat=f.seat)
            return


# ---------------------------------------------------------------- Lumberjack


def _lumberjack(state: State, seat: int, f: Frame, colour: str) -> int:
    """"When vanquishing, the first corruption of each colour costs 1 less" (ref §2.8), per
    Vanquish."""
    return 1 if ability(state, seat) == "lumberjack" and colour not in f.items else 0


# ---------------------------------------------------------------- Mole


def _mole_hook(tx: Tx, seat: int) -> None:
    if ability(tx.s, seat) == "mole":
        tx.push(Frame(kind=K.E_MOLE, seat=seat))


def _mole_options(state: State, f: Frame) -> list[Action]:
    """"Trash a map token to Gather a benefit covered by corruption" (ref §2.8): after the Gather
    action's exposed benefits, the benefit under the mech's location's corruption stack."""
    p = ep(state, f.seat)
    if not p.map_tokens or not exp_corruption.stack_at(state, p.loc):
        return []
    return [flow.act(state, f.seat, "mole", x) for x in ("gather", "no")]


def _mole_prompt(state: State, f: Frame) -> str:
    lo = board(state.setup.map_side).loc[ep(state, f.seat).loc]
    return (f"Mole: trash a map token to also gather {', '.join(effects.describe(e) for e in lo.revealed)} "
            "(covered by corruption here)?")


@flow.handler(K.E_MOLE, _mole_prompt, _mole_options)
def _mole(tx: Tx, f: Frame, a: Action | None) -> None:
    assert a is not None
    if a.args[0] == "no":
        return
    loc = ep(tx.s, f.seat).loc
    lo = board(tx.s.setup.map_side).loc[loc]
    tx.log("mole", f"{flow.tag(tx.s, f.seat)} uses Mole: a map token to gather the covered benefit.",
           seat=f.seat)
    effects.queue(tx, f.seat, lo.revealed, "Mole")
    exp_workers.pay_map_token(tx, f.seat, "Mole")  # chosen first, then the covered benefit


# ---------------------------------------------------------------- registration

_FREE_BY_ABILITY: Final[dict[str, Callable[[State, int], list[Action]]]] = {
    "voyager": _voyager_options, "odins_wrath": _odin_options, "scarecrow": _scarecrow_options}


def _mech_free_options(state: State, seat: int) -> list[Action]:
    """The free actions of the seat's mech ability, if it has any: one registry entry, so every
    decision of the Expeditions turn looks the ability up once, not once per such ability."""
    fn = _FREE_BY_ABILITY.get(ability(state, seat))
    return fn(state, seat) if fn is not None else []


expeditions.FREE_OPTIONS.append(_mech_free_options)
expeditions.FREE_RESOLVE.update({"voyager": _voyager, "odins-wrath": _odin, "scarecrow": _scarecrow})
exp_cards.GAIN_HOOKS.append(_highlander_gain)
exp_cards.HOLD_HIDDEN.append(lambda s, seat: ability(s, seat) == "highlander")
exp_corruption.VANQUISH_DISCOUNTS.append(_lumberjack)
expeditions.GATHER_HOOKS.append(_mole_hook)
