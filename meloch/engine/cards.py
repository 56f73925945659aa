"""Card instances: the 60 combat cards by instance id, discovery cards by content id."""

from __future__ import annotations

from meloch.content.schema import CombatCardType, DiscoveryCard, EncounterCard, FactoryCard
from meloch.engine.game_content import active, index
from meloch.engine.model import Setup


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


def discovery_deck_ids() -> tuple[str, ...]:
    """Every discovery card of the deck (items, meteorites, quests), in content order."""
    return index().discovery_deck


def factory_pool(setup: Setup) -> tuple[FactoryCard, ...]:
    """The Factory cards this game shuffles (rulebook Setup 7): the Duel's 19-21, plus base
    Scythe's when ``setup.base_factory_cards`` ("You may include Factory cards from Scythe")."""
    return tuple(fc for fc in active().factory_cards if fc.set == "duel" or setup.base_factory_cards)


def encounter_pool(setup: Setup) -> tuple[EncounterCard, ...]:
    """The encounter cards this game shuffles (rulebook Setup 8): the Duel's 6, plus base
    Scythe's when ``setup.base_encounters`` ("You may include encounter cards from Scythe")."""
    return tuple(e for e in active().encounters if e.set == "duel" or setup.base_encounters)
