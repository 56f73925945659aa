"""Hooks between the two roles' rules, filled by the role packages at import.

A rule of one role that reacts to the other role's units is registered here by the reacting role, so
neither role package imports the other and no shared module imports a role package
(docs/architecture.md, "Layout").
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from meloch.engine.model import State
from meloch.engine.tx import Tx

MECH_STOPS: Final[list[Callable[[State, int, str], bool]]] = []
"""Does something of the opponent end ``seat``'s Expeditions mech move on ``loc``? (Fenris
influence): (state, seat, loc) -> bool."""
UNIT_ENTERS: Final[list[Callable[[Tx, int, str], None]]] = []
"""``seat``'s unit ended its movement on ``loc`` (a Togawa trap there springs): (tx, seat, loc)."""
SCYTHE_MEANS: Final[list[Callable[[State, int], tuple[int, tuple[str, ...]]]]] = []
"""A Scythe seat's ``Standing.build_spots`` and ``Standing.produces`` (by Build's rule and the
terrains' output, which the Scythe package owns): (state, seat) -> (spots, kinds)."""
