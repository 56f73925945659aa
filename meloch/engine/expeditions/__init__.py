"""The Expeditions player's effect ops, registered by importing this module. The ops live in one
module per rule area:

- ``exp_workers``: gaining a worker, paying a worker cost, paying a held map token;
- ``exp_cards``: gaining cards, Sweep, Refresh, Play, Upgrade/Meld/Solve/Boast, Rescue, discard,
  trash, Nikte;
- ``exp_corruption``: map tokens from the supply, corruption, Vanquish, Nohoch;
- ``exp_draw``: an adjacent location's benefit, activate an adjacent card, peek, draw 2 keep 1;
- ``exp_direction``: the direction rule (``south_power``, ``north_guile``);
- ``exp_mechs``: the mech abilities; ``exp_items``: item ongoing abilities.

The names other modules used from here stay importable from here.
"""

from __future__ import annotations

from meloch.engine import (  # the modules register their ops, frames and mech abilities on import
    exp_cards,
    exp_corruption,
    exp_direction,
    exp_draw,
    exp_mechs,
    exp_workers,
)
from meloch.engine.exp_cards import (
    GAIN_HOOKS,
    controlled_cards,
    draw_discovery,
    gain_card,
    refill,
    remove_card,
    solvable,
)
from meloch.engine.exp_corruption import (
    VANQUISH_DISCOUNTS,
    attack_targets,
    stack_at,
    take_corruption,
    vanquish_cost,
)
from meloch.engine.exp_direction import every_opponent, opponent_locations
from meloch.engine.exp_draw import _activate_options
from meloch.engine.exp_workers import COLOURS, pay_map_token, supply_workers, trash_workers

__all__ = [
    "COLOURS", "GAIN_HOOKS", "VANQUISH_DISCOUNTS", "_activate_options", "attack_targets", "controlled_cards",
    "draw_discovery", "every_opponent", "exp_cards", "exp_corruption", "exp_direction", "exp_draw",
    "exp_mechs", "exp_workers", "gain_card", "opponent_locations", "pay_map_token", "refill", "remove_card", "solvable",
    "stack_at", "supply_workers", "take_corruption", "trash_workers", "vanquish_cost",
]
