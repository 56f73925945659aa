"""The variants' own rules and the side-B stalemate rule, called from the movement and combat code
through small hooks (so no rule module tests ``variant == ...`` on its own).

- Scythe vs Scythe (rulebook, Variants): a combat unit entering enemy combat units ends its move and
  combat follows (no choice); entering a territory with only enemy workers sends them to their home
  base, the mover losing 1 popularity (if able) per worker (none with Polania's Camaraderie), and ends
  the move.
- Expeditions vs Expeditions: a mech may end its move on the other mech's location only when it
  initiates combat that turn by Vanquish; there the Vanquish must attack.
- Stalemate (rulebook, End of Game edge case): when both players are one star from winning, only
  combat categories are open, and a player has kept all its combat units on its home base for 2 of
  its own turns, home bases become locations for the rest of the game (AMB-28 (a), AMB-30 (a)).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from meloch.content.schema import Effect
from meloch.engine import effects, flow, track
from meloch.engine import frames as K
from meloch.engine.board import board
from meloch.engine.model import ScytheSeat, State
from meloch.engine.tx import Tx, is_exp, is_scythe

WORKER_LOSS_WAIVER: Final[list[Callable[[ScytheSeat], str]]] = []
"""The name of an ability that spares the mover the popularity loss (Camaraderie), or ""."""
GATHER_BENEFITS: Final[list[Callable[[State, str], Sequence[Effect]]]] = []
"""What a Gather on ``loc`` would give (filled by the Expeditions turn): (state, loc) -> effects."""


def forced_combat(state: State) -> bool:
    """Scythe vs Scythe: sharing a territory with enemy combat units always means combat."""
    return state.setup.variant == "scythe_vs_scythe"


# ---------------------------------------------------------------- Scythe vs Scythe


def on_enter(tx: Tx, seat: int, combat_unit: bool, loc: str) -> None:
    """A Scythe unit of ``seat`` has just entered ``loc`` (called by the Scythe move code).

    Scythe vs Scythe: a combat unit entering a territory with only opposing workers sends those
    workers home; the mover loses 1 popularity per worker (if able)."""
    s = tx.s
    if s.setup.variant != "scythe_vs_scythe" or not combat_unit:
        return
    o = s.seats[1 - seat]
    if not is_scythe(o) or loc == o.character or loc in o.mechs:
        return
    n = sum(1 for w in o.workers if w == loc)
    if not n:
        return
    op = tx.sc(1 - seat)
    op.workers = tuple(op.home if w == loc else w for w in op.workers)
    tx.log("retreat", f"{flow.tag(s, 1 - seat)}'s {n} worker(s) on {loc} retreat to their home base.",
           seat=1 - seat)
    lose_popularity_for_workers(tx, seat, n)


def lose_popularity_for_workers(tx: Tx, seat: int, n: int) -> None:
    """A Scythe seat that forced ``n`` opposing workers to retreat loses 1 popularity (if able) per
    worker, by moving in (rulebook, Variants) or by winning a combat as the attacker ("As in normal
    Scythe", Scythe reference sheet, Combat: "loses 1 popularity per retreated worker if attacker");
    none with Polania's Camaraderie (ref §3.10). Only Scythe vs Scythe puts opposing workers there
    ("You cannot force Expeditions workers to retreat", rulebook, Faction-Specific Notes)."""
    mover = tx.s.seats[seat]
    if not n or not is_scythe(mover):
        return
    waiver = next((name for fn in WORKER_LOSS_WAIVER if (name := fn(mover))), "")
    if waiver:
        tx.log("ability", f"{waiver}: {flow.tag(tx.s, seat)} loses no popularity for the displaced workers.",
               seat=seat)
        return
    effects.add_stat(tx, seat, "popularity", -n, "displaced workers")


# ---------------------------------------------------------------- Expeditions vs Expeditions


def gather_vanquish_ahead(state: State, seat: int, loc: str) -> bool:
    """Will ``seat`` still Gather this turn, with a Vanquish among ``loc``'s benefits?"""
    if not any(e.op == "vanquish" for fn in GATHER_BENEFITS for e in fn(state, loc)):
        return False
    return any(f.kind == K.E_ACTIONS and f.seat == seat and "gather" in f.items for f in state.frames)


def may_share_mech(state: State, seat: int, loc: str) -> bool:
    """Expeditions vs Expeditions: may the mech of ``seat`` end its move on the other mech's
    location ``loc``? Only to initiate combat by Vanquish this turn (rulebook, Variants)."""
    if state.setup.variant != "expeditions_vs_expeditions":
        return False
    b = board(state.setup.map_side)
    if not (b.is_territory(loc) or state.stalemate_open):
        return False
    return gather_vanquish_ahead(state, seat, loc)


def must_attack(state: State, seat: int) -> bool:
    """Expeditions vs Expeditions: a mech sharing the other mech's location must Vanquish it."""
    if state.setup.variant != "expeditions_vs_expeditions":
        return False
    p, o = state.seats[seat], state.seats[1 - seat]
    return is_exp(p) and is_exp(o) and p.loc == o.loc


# ---------------------------------------------------------------- stalemate (side B edge case)


def open_homes_from(state: State, loc: str, combat_unit: bool = True) -> set[str]:
    """Home bases a combat unit may step into from ``loc`` once the stalemate rule has opened
    them ("treating home bases as locations"); empty otherwise."""
    if not state.stalemate_open or not combat_unit:
        return set()
    b = board(state.setup.map_side)
    return {n for n in b.land[loc] if b.loc[n].kind == "home"}


def all_home(state: State, seat: int) -> bool:
    """Are all of ``seat``'s combat units on its home base?"""
    p = state.seats[seat]
    if is_exp(p):
        return p.loc == p.home
    return p.character == p.home and all(m == p.home for m in p.mechs)


def stalemate_condition(state: State) -> bool:
    """Both players one star from winning ("both players have 3 stars") and every open category a
    combat category ("only combat stars remain", AMB-30 (a))."""
    cats = track.side(state).categories
    if any(not c.combat and not state.track[i] for i, c in enumerate(cats)):
        return False
    return all(track.stars_of(state, i) == state.setup.seats[i].stars_to_win - 1 for i in (0, 1))


def _end_turn(tx: Tx, seat: int) -> None:
    s = tx.s
    if s.stalemate_open or s.winner >= 0:
        return
    ht = list(s.home_turns)
    ht[seat] = ht[seat] + 1 if all_home(s, seat) else 0
    s.home_turns = (ht[0], ht[1])
    if max(ht) >= 2 and stalemate_condition(s):
        s.stalemate_open = True
        staller = 0 if ht[0] >= 2 else 1
        tx.log("stalemate", f"Stalemate: {flow.tag(s, staller)} has kept its combat units on its home base for "
               "2 turns while only combat stars remain; home bases may now be attacked as locations.")


flow.END_TURN.append(_end_turn)
