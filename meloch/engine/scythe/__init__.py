"""The Scythe player's rules, one module per rule area; importing the package registers them.

- ``turn``: the turn (action token, Leverage, Refresh);
- ``seat``: what the modules share (seat access, mat, Factory and encounter pools);
- ``pay``: resources, payments and placing gains; ``top`` / ``bottom``: the mat's actions;
- ``move``: movement, carrying; after a Move: combat, encounter, Factory;
- ``abilities``: every faction and mech ability, in one table keyed by ability name.

Nothing is re-exported: import a name from the module that defines it.
"""

from __future__ import annotations

from meloch.engine.scythe import (  # noqa: F401  (the modules register their ops, frames and hooks)
    abilities,
    bottom,
    move,
    pay,
    seat,
    top,
    turn,
)
