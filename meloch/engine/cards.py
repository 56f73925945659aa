"""Card instances: the 60 combat cards by instance id, discovery cards by content id."""

from __future__ import annotations

from typing import Final

from meloch.content.schema import CombatCardType, DiscoveryCard, EncounterCard, FactoryCard
from meloch.engine.game_content import active, index
from meloch.engine.model import Setup
from meloch.engine.tx import Tx


def combat_types() -> tuple[CombatCardType, ...]:
    """Type of each combat card instance, indexed by instance id (0..59)."""
    return index().combat_types


def combat_type(cid: int) -> CombatCardType:
    return index().combat_types[cid]


def combat_name(cid: int) -> str:
    t = index().combat_types[cid]
    return f"{t.name} ({t.value}) #{cid}"


def combat_token(cid: int) -> str:
    """Notation token of a combat card instance."""
    return f"c{cid}"


def parse_combat_token(tok: str) -> int:
    return int(tok[1:])


def card(cid: str) -> DiscoveryCard:
    return active().cards[cid]


def discovery_deck_ids(base: bool = False) -> tuple[str, ...]:
    """Every discovery card of the deck (items, meteorites, quests), in content order; with ``base``
    (``Setup.base_discoveries``), base Expeditions' cards too (rulebook Setup 9)."""
    ix = index()
    return ix.discovery_deck_with_base if base else ix.discovery_deck


BOARD_LOCATIONS: Final = frozenset(str(i) for i in range(1, 11))


def off_board_quest(cid: str) -> bool:
    """A base Expeditions quest naming a location 11-20, which the Duel board lacks: "whenever a quest
    for locations 11-20 is drawn, discard it and redraw" (rulebook Setup 9)."""
    c = active().cards[cid]
    return c.kind == "quest" and any(loc not in BOARD_LOCATIONS for loc in c.solve_locations)


def factory_pool(setup: Setup) -> tuple[FactoryCard, ...]:
    """The Factory cards this game shuffles (rulebook Setup 7): the Duel's 19-21, plus base
    Scythe's when ``setup.base_factory_cards`` ("You may include Factory cards from Scythe")."""
    return tuple(fc for fc in active().factory_cards if fc.set == "duel" or setup.base_factory_cards)


def encounter_pool(setup: Setup) -> tuple[EncounterCard, ...]:
    """The encounter cards this game shuffles (rulebook Setup 8): the Duel's 6, plus base
    Scythe's when ``setup.base_encounters`` ("You may include encounter cards from Scythe")."""
    return tuple(e for e in active().encounters if e.set == "duel" or setup.base_encounters)


def draw_discovery(tx: Tx) -> str | None:
    """The top card of the discovery deck (the sweep pile is shuffled in when the deck is empty).
    With base Expeditions cards mixed in, a quest for locations 11-20 is set aside face up and another
    card drawn (rulebook Setup 9); it leaves the game (``discovery_trash``) so that a reshuffle cannot
    bring it back."""
    s = tx.s
    while True:
        if not s.discovery_deck and s.discovery_discard:
            s.discovery_deck = tx.shuffled(s.discovery_discard)
            s.discovery_discard = ()
            tx.log("shuffle", "The sweep pile is shuffled into a new discovery deck.")
        if not s.discovery_deck:
            return None
        c = s.discovery_deck[-1]
        s.discovery_deck = s.discovery_deck[:-1]
        if not (s.setup.base_discoveries and off_board_quest(c)):
            return c
        s.discovery_trash = (*s.discovery_trash, c)
        tx.log("discard", f"{card(c).name} is a quest for locations 11-20, which this board lacks: it is "
               "discarded and another card is drawn.")
