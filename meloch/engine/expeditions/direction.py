"""The direction rule of the Expeditions cards: "compare your mech's location to the Scythe
character's location" (rulebook, Expeditions Special Notes), used by ``custom south_power`` and
``custom north_guile``.
"""

from __future__ import annotations

from meloch.content.schema import Effect
from meloch.engine import effects, flow
from meloch.engine.board import board
from meloch.engine.expeditions.turn import ep
from meloch.engine.model import State
from meloch.engine.tx import Tx, is_scythe


def opponent_locations(state: State, seat: int) -> list[str]:
    """Where each opponent is for the direction rule: the Scythe character ("compare your mech's
    location to the Scythe character's location", rulebook, Expeditions Special Notes), or an
    opposing Expeditions mech."""
    o = state.seats[1 - seat]
    return [o.character] if is_scythe(o) else [o.loc]


def every_opponent(state: State, seat: int, direction: str) -> bool:
    """Is every opponent north/south of the mech? "A location is south/north if any part of it is
    lower/higher than your location. North is up from your perspective." (AMB-38 (a))"""
    b = board(state.setup.map_side)
    mine = ep(state, seat).loc
    test = b.is_north if direction == "north" else b.is_south
    return all(loc and test(loc, mine) for loc in opponent_locations(state, seat))


def _direction(direction: str, stat: str, n: int) -> effects.OpFn:
    def fn(tx: Tx, seat: int, e: Effect) -> None:
        if every_opponent(tx.s, seat, direction):
            effects.add_stat(tx, seat, stat, n, f"every opponent is {direction} of you")
        else:
            tx.log("effect", f"{flow.tag(tx.s, seat)}: not every opponent is {direction} of the mech; "
                   "no gain.", seat=seat)
    return fn


effects.CUSTOM.update(south_power=_direction("south", "power", 2), north_guile=_direction("north", "guile", 2))
