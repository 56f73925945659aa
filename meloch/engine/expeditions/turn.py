"""The Expeditions player's turn: the action token, Move, Play, Gather and the Refresh turn.

The benefits themselves (Gather icons, card abilities) are effect ops in the other modules of this
package (``__init__.py`` lists them).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from meloch.content.schema import Effect
from meloch.engine import combat, effects, flow, free, hooks, variants
from meloch.engine import frames as K
from meloch.engine.actions import Action
from meloch.engine.board import board
from meloch.engine.cards import card
from meloch.engine.contract import MapTokenGained, Moved
from meloch.engine.expeditions import items as exp_items
from meloch.engine.frames import FrameKind
from meloch.engine.free import do_free_action, free_actions
from meloch.engine.game_content import active, index
from meloch.engine.model import ExpSeat, Frame, State
from meloch.engine.text import a_or_an
from meloch.engine.tx import Tx, is_exp, is_scythe

ACTIONS: Final = ("move", "play", "gather")


def ep(state: State, seat: int) -> ExpSeat:
    p = state.seats[seat]
    assert is_exp(p)
    return p


def start_turn(tx: Tx, seat: int) -> None:
    tx.push(Frame(kind=K.E_TOKEN, seat=seat))


flow.START_TURN["expeditions"] = start_turn


# ---------------------------------------------------------------- free actions


FREE_OPTIONS: Final = free.FREE_OPTIONS["expeditions"]
"""Extra free actions of the Expeditions role (mech abilities, ``exp_mechs``)."""
FREE_RESOLVE: Final = free.FREE_RESOLVE


# ---------------------------------------------------------------- the action token


def _token_options(state: State, f: Frame) -> list[Action]:
    p = ep(state, f.seat)
    if p.token == "refresh":
        opts = ["all"]
    elif p.token == "all":
        opts = list(ACTIONS)
    else:
        opts = [x for x in ACTIONS if x != p.token] + ["refresh"]
    return [flow.act(state, f.seat, "token", o) for o in opts] + free_actions(state, f.seat)


def _token_prompt(state: State, f: Frame) -> str:
    return ("Shift your action token: cover Move, Play or Gather to take the other two, "
            "take a Refresh turn, or (after a Refresh) take all three.")


@flow.handler(K.E_TOKEN, _token_prompt, _token_options)
def _token(tx: Tx, f: Frame, a: Action | None) -> None:
    assert a is not None
    if do_free_action(tx, f, a):
        return
    p = tx.ex(f.seat)
    p.token = a.args[0]
    who = flow.tag(tx.s, f.seat)
    if p.token == "refresh":
        tx.set_flag("refresh_turn")
        refresh(tx, f.seat)
        tx.log("token", f"{who} takes a Refresh turn.", seat=f.seat)
        tx.push(Frame(kind=K.TURN_END, seat=f.seat))
        return
    todo = ACTIONS if p.token == "all" else tuple(x for x in ACTIONS if x != p.token)
    if p.token == "all":
        tx.log("token", f"{who} moves the action token off Refresh: takes Move, Play and Gather.", seat=f.seat)
    else:
        tx.log("token", f"{who} covers {p.token.capitalize()}: takes {' and '.join(x.capitalize() for x in todo)}.",
               seat=f.seat)
    tx.push_in_order(Frame(kind=K.E_ACTIONS, seat=f.seat, items=todo),
                     Frame(kind=K.TURN_END, seat=f.seat))


def refresh(tx: Tx, seat: int, keep: str = "") -> None:
    """Active cards back to hand and their workers back to the mat (``keep``: a card that keeps
    its worker and stays, for Nikte)."""
    p = tx.ex(seat)
    back = [c for c, _ in p.active if c != keep]
    workers = [w for c, w in p.active if w and c != keep]
    p.hand = (*p.hand, *back)
    p.workers = (*p.workers, *workers)
    p.active = tuple((c, w) for c, w in p.active if c == keep)
    tx.log("refresh", f"{flow.tag(tx.s, seat)} refreshes: {len(back)} card(s) to hand, "
           f"{len(workers)} worker(s) to the mat.", seat=seat)


def possible(state: State, seat: int, action: str) -> bool:
    p = ep(state, seat)
    if action == "move":
        return bool(_reach(state, seat, first=True))
    if action == "play":
        return bool(p.hand)
    return bool(gather_benefits(state, p.loc))


def _actions_options(state: State, f: Frame) -> list[Action]:
    acts = [flow.act(state, f.seat, "do", x) for x in f.items if possible(state, f.seat, x)]
    free = free_actions(state, f.seat)
    if acts:
        return acts + free
    return [*free, flow.act(state, f.seat, "do", "nothing")] if free else []


@flow.handler(K.E_ACTIONS, lambda s, f: f"Take your exposed actions ({', '.join(f.items)}) in any order.",
              _actions_options)
def _actions(tx: Tx, f: Frame, a: Action | None) -> None:
    assert a is not None
    if do_free_action(tx, f, a):
        return
    x = a.args[0]
    who = flow.tag(tx.s, f.seat)
    if x == "nothing":
        tx.log("action", f"{who} can take none of the remaining exposed actions.", seat=f.seat)
        return
    tx.log("action", f"{who} takes {x.capitalize()}.", seat=f.seat)
    rest = tuple(i for i in f.items if i != x)
    if rest:
        tx.push(Frame(kind=K.E_ACTIONS, seat=f.seat, items=rest))
    tx.push(Frame(kind=FrameKind(f"e_{x}"), seat=f.seat))


# ---------------------------------------------------------------- Move


def move_range(state: State, seat: int) -> tuple[int, int]:
    """(min, max) locations per Move: the mech's own range (mechs.yaml; Marsh Strider 1-4), +1 per
    active ``move_plus1`` item."""
    m = active().mechs[ep(state, seat).mech]
    return m.move_min, m.move_max + exp_items.count(state, seat, "move_plus1")


def mech_destinations(state: State, seat: int) -> list[str]:
    return sorted(_reach(state, seat), key=lambda x: int(x) if x.isdigit() else 99)


def _reach(state: State, seat: int, first: bool = False) -> list[str]:
    """The mech's destinations, unsorted; with ``first``, at most the first one found (``possible``
    only asks whether there is one, before every Expeditions action choice)."""
    p = ep(state, seat)
    lo, hi = move_range(state, seat)
    b = board(state.setup.map_side)
    o = state.seats[1 - seat]
    other_mech = o.loc if is_exp(o) else ""
    # The mech must stop on a map token, on a Scythe character or mech (in Expeditions vs
    # Expeditions it "may move through but not end on" another mech, ref §2.5: ``may_share_mech``),
    # and where a hook says so (Fenris influence).
    tokens = {lc for lc, _ in state.map_tokens}
    enemy = {o.character, *o.mechs} if is_scythe(o) else set()
    stop_hooks = hooks.MECH_STOPS
    seen = {p.loc}
    frontier = {p.loc}
    reach: dict[str, int] = {}
    for d in range(1, hi + 1):
        nxt: set[str] = set()
        for loc in frontier:
            for n in b.mech_steps(loc) | variants.open_homes_from(state, loc):
                if n in seen:
                    continue
                seen.add(n)
                reach[n] = d
                if first and d >= lo and (n != other_mech or variants.may_share_mech(state, seat, n)):
                    return [n]
                if not (n in tokens or n in enemy or any(stops(state, seat, n) for stops in stop_hooks)):
                    nxt.add(n)
        frontier = nxt
    return [loc for loc, d in reach.items()
            if d >= lo and (loc != other_mech or variants.may_share_mech(state, seat, loc))]


def _move_prompt(state: State, f: Frame) -> str:
    lo, hi = move_range(state, f.seat)
    return (f"Move your mech {lo}-{hi} locations (across rivers, never through tunnels or onto lakes; "
            "it must stop on a map token and on a location with a Scythe character or mech).")


@flow.handler(K.E_MOVE, _move_prompt,
              lambda s, f: [flow.act(s, f.seat, "move", d) for d in mech_destinations(s, f.seat)])
def _move(tx: Tx, f: Frame, a: Action | None) -> None:
    assert a is not None
    s = tx.s
    p = tx.ex(f.seat)
    frm, p.loc = p.loc, a.args[0]
    tx.log("move", f"{flow.tag(s, f.seat)} moves the mech from {frm} to {p.loc}.", seat=f.seat,
           data=Moved(unit="mech", frm=frm, to=p.loc))
    combat.note_no_combat(tx, f.seat, "mech", p.loc)
    for enters in hooks.UNIT_ENTERS:  # a Togawa trap there springs
        enters(tx, f.seat, p.loc)
    tok = next((t for lc, t in s.map_tokens if lc == p.loc), None)
    if tok is not None:
        s.map_tokens = tuple((lc, t) for lc, t in s.map_tokens if lc != p.loc)
        gain_map_token(tx, f.seat, tok)


def gain_map_token(tx: Tx, seat: int, tok: str) -> None:
    """Gain a map token: first its secret bonus (the mech already counts as on that location)."""
    p = tx.ex(seat)
    p.map_tokens = (*p.map_tokens, tok)
    mt = index().map_tokens[tok]
    desc = ", ".join(effects.describe(e) for e in mt.bonus)
    tx.log("map_token", f"{flow.tag(tx.s, seat)} gains map token {tok}: {desc}.", seat=seat,
           data=MapTokenGained(loc=p.loc, token=tok))
    effects.queue(tx, seat, mt.bonus, f"map token {tok}")


# ---------------------------------------------------------------- Play


@flow.handler(K.E_PLAY, "Play a card from your hand to your active row.",
              lambda s, f: [flow.act(s, f.seat, "play", c) for c in sorted(set(ep(s, f.seat).hand))])
def _play(tx: Tx, f: Frame, a: Action | None) -> None:
    assert a is not None
    cid = a.args[0]
    p = tx.ex(f.seat)
    hand = list(p.hand)
    hand.remove(cid)
    p.hand = tuple(hand)
    p.active = (*p.active, (cid, ""))
    c = card(cid)
    tx.log("play", f"{flow.tag(tx.s, f.seat)} plays {c.name}.", seat=f.seat)
    effects.add_stat(tx, f.seat, c.core, c.core_value, f"core value of {c.name}")
    tx.push(Frame(kind=K.E_PLAY_WORKER, seat=f.seat, tag=cid))


def worker_fits(colour: str, card_colour: str) -> bool:
    return colour == "hero" or colour == card_colour


def _worker_options(state: State, f: Frame) -> list[Action]:
    p = ep(state, f.seat)
    c = card(f.tag)
    fits = sorted({w for w in p.workers if worker_fits(w, c.worker)})
    return [flow.act(state, f.seat, "worker", w) for w in fits] + [flow.act(state, f.seat, "worker", "none")]


@flow.handler(K.E_PLAY_WORKER, lambda s, f: f"Place {a_or_an(card(f.tag).worker)} worker on {card(f.tag).name} "
              "to activate it (the hero worker is every colour), or not.", _worker_options)
def _play_worker(tx: Tx, f: Frame, a: Action | None) -> None:
    assert a is not None
    w = a.args[0]
    if w == "none":
        tx.log("play", f"{flow.tag(tx.s, f.seat)} places no worker on {card(f.tag).name}.", seat=f.seat)
        return
    p = tx.ex(f.seat)
    workers = list(p.workers)
    workers.remove(w)
    p.workers = tuple(workers)
    p.active = tuple((c, w if c == f.tag and not cw else cw) for c, cw in p.active)
    c = card(f.tag)
    what = f": {c.ability_text}" if c.ability_text.strip() else " (it has no ability)."
    tx.log("play", f"{flow.tag(tx.s, f.seat)} places {a_or_an(w)} worker on {c.name}{what}", seat=f.seat)
    effects.queue(tx, f.seat, c.ability, c.name)


# ---------------------------------------------------------------- Gather


def gather_benefits(state: State, loc: str) -> tuple[Effect, ...]:
    b = board(state.setup.map_side)
    if not b.is_territory(loc):
        return ()
    lo = b.loc[loc]
    return lo.gather + (lo.revealed if loc in state.revealed else ())


GatherHook = Callable[[Tx, int], None]
GATHER_HOOKS: Final[list[GatherHook]] = []
variants.GATHER_BENEFITS.append(gather_benefits)
"""Called at every Gather action before its benefits resolve (mech abilities such as Mole push a
decision here, which then comes after the exposed benefits)."""


@flow.handler(K.E_GATHER, "Gather")
def _gather(tx: Tx, f: Frame, a: Action | None) -> None:
    p = ep(tx.s, f.seat)
    fx = gather_benefits(tx.s, p.loc)
    tx.log("gather", f"{flow.tag(tx.s, f.seat)} gathers on {p.loc}: "
           f"{', '.join(effects.describe(e) for e in fx)}.", seat=f.seat)
    for hook in GATHER_HOOKS:
        hook(tx, f.seat)
    effects.queue(tx, f.seat, fx, f"Gather on {p.loc}")
    coins = exp_items.count(tx.s, f.seat, "gather_coin")
    if coins:
        effects.add_stat(tx, f.seat, "coins", coins, "ongoing item: $1 per Gather")
