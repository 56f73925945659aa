"""Card instances: the 60 combat cards by instance id, discovery cards by content id."""

from __future__ import annotations

from functools import cache

from meloch.content import load
from meloch.content.schema import CombatCardType, DiscoveryCard


@cache
def combat_types() -> tuple[CombatCardType, ...]:
    """Type of each combat card instance, indexed by instance id (0..59)."""
    out: list[CombatCardType] = []
    for t in load().combat_cards:
        out.extend([t] * t.count)
    return tuple(out)


def combat_type(cid: int) -> CombatCardType:
    return combat_types()[cid]


def combat_name(cid: int) -> str:
    t = combat_types()[cid]
    return f"{t.name} ({t.value}) #{cid}"


def combat_token(cid: int) -> str:
    """Notation token of a combat card instance."""
    return f"c{cid}"


def parse_combat_token(tok: str) -> int:
    return int(tok[1:])


def card(cid: str) -> DiscoveryCard:
    return load().cards[cid]


@cache
def discovery_deck_ids(base: bool = False) -> tuple[str, ...]:
    """Every discovery card of the deck (items, meteorites, quests), in content order; with ``base``
    (``Setup.base_discoveries``), base Expeditions' cards too (rulebook Setup 9)."""
    return tuple(c.id for c in load().cards.values()
                 if c.kind in ("item", "meteorite", "quest") and (c.set == "duel" or base))


BOARD_LOCATIONS = frozenset(str(i) for i in range(1, 11))


def off_board_quest(cid: str) -> bool:
    """A base Expeditions quest naming a location 11-20, which the Duel board lacks: "whenever a quest
    for locations 11-20 is drawn, discard it and redraw" (rulebook Setup 9)."""
    c = load().cards[cid]
    return c.kind == "quest" and any(loc not in BOARD_LOCATIONS for loc in c.solve_locations)
