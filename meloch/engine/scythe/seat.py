"""The Scythe seat: its components, its player mat and the sections its action token may take.

The Scythe rules are split by rule area (``meloch/engine/scythe/__init__.py`` lists them); this
module holds what they all share.
"""

from __future__ import annotations

from typing import Final

from meloch.content.schema import Effect, FactoryCard, PlayerMat
from meloch.engine.game_content import active, index
from meloch.engine.model import ExpSeat, ScytheSeat, State
from meloch.engine.scythe import abilities
from meloch.engine.tx import Tx, is_exp, is_scythe

RESOURCES: Final = ("food", "oil", "metal", "wood")
BOTTOM_RESOURCE: Final = {"upgrade": "oil", "deploy": "metal", "build": "wood", "enlist": "food"}
PRODUCE_OUTPUT: Final = {"mountain": "metal", "farm": "food", "tundra": "oil", "forest": "wood", "village": "worker"}
TOP_BOXES: Final = (
    "move_units", "move_coins", "bolster_power", "bolster_cards", "trade_popularity", "produce_territories")
RECRUIT_ONGOING: Final[dict[str, Effect]] = {
    "upgrade": Effect(op="power", n=1), "deploy": Effect(op="coins", n=1),
    "build": Effect(op="popularity", n=1), "enlist": Effect(op="combat_cards", n=1),
}
"""Ongoing recruit bonus per bottom action (reference.md §3.3, INFERRED)."""
ENLIST_BONUS: Final[dict[str, Effect]] = {
    "power": Effect(op="power", n=2), "coins": Effect(op="coins", n=2),
    "popularity": Effect(op="popularity", n=2), "cards": Effect(op="combat_cards", n=2),
}


def sp(state: State, seat: int) -> ScytheSeat:
    p = state.seats[seat]
    assert is_scythe(p)
    return p


def mat(p: ScytheSeat) -> PlayerMat:
    return active().mats[p.mat]


def ability_of(p: ScytheSeat) -> str:
    return abilities.faction_ability(p)


def mech_abilities(p: ScytheSeat) -> set[str]:
    return abilities.mech_abilities(p)



def _loc_key(lid: str) -> tuple[int, str]:
    return (int(lid), "") if lid.isdigit() else (99, lid)


def exp_opponent(state: State, seat: int) -> ExpSeat | None:
    o = state.seats[1 - seat]
    return o if is_exp(o) else None


# ---------------------------------------------------------------- the game's card pools


def factory_card_by_id(cid: str) -> FactoryCard:
    return index().factory_cards[cid]


# ---------------------------------------------------------------- sections of the action token


def _card_sections(p: ScytheSeat) -> list[int]:
    out = [4] if p.factory_card and p.section != 4 else []
    return out + [5 + k for k, c in enumerate(p.tech_cards) if c not in p.tech_used and p.section != 5 + k]


def section_token(sec: int, p: ScytheSeat) -> str:
    if sec == 4:
        return "factory"
    if sec >= 5:
        return f"tech-{p.tech_cards[sec - 5]}"
    return str(sec + 1)


def parse_section(tok: str, p: ScytheSeat) -> int:
    if tok == "factory":
        return 4
    if tok.startswith("tech-"):
        return 5 + p.tech_cards.index(tok[5:])
    return int(tok) - 1


def section_card(p: ScytheSeat, sec: int) -> str:
    """The Factory card id of a card section (4: the kept card, 5..: Vesna's), else ""."""
    if sec == 4:
        return p.factory_card
    return p.tech_cards[sec - 5] if sec >= 5 else ""


def set_section(tx: Tx, seat: int, tok: str) -> ScytheSeat:
    p = tx.sc(seat)
    p.section = parse_section(tok, p)
    if p.section >= 5:
        p.tech_used = (*p.tech_used, p.tech_cards[p.section - 5])
    return p



def section_name(p: ScytheSeat, sec: int) -> str:
    if sec >= 4:
        return f"the Factory card {section_card(p, sec)}"
    s = mat(p).sections[sec]
    return f"section {sec + 1} ({s.top}/{s.bottom})"

