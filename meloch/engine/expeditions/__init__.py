"""The Expeditions player's rules, one module per rule area; importing the package registers them.

- ``turn``: the turn (action token, Move, Play, Gather, Refresh);
- ``workers``: gaining a worker, paying a worker cost, paying a held map token;
- ``cards``: gaining cards, Sweep, Refresh, Play, Upgrade/Meld/Solve/Boast, Rescue, discard,
  trash, Nikte;
- ``corruption``: map tokens from the supply, corruption, Vanquish, Nohoch;
- ``draw``: an adjacent location's benefit, activate an adjacent card, peek, draw 2 keep 1;
- ``direction``: the direction rule (``south_power``, ``north_guile``);
- ``mechs``: the mech abilities; ``items``: item ongoing abilities.

Nothing is re-exported: import a name from the module that defines it.
"""

from __future__ import annotations

from meloch.engine.expeditions import (  # noqa: F401  (the modules register their ops, frames and hooks)
    cards,
    corruption,
    direction,
    draw,
    items,
    mechs,
    turn,
    workers,
)
