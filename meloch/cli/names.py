"""Readable names of what a view shows (cards, effects, mat sections), from the view and the content
data. A location's name is the engine's (``meloch.engine.location_name``); option labels are never
made here either: they come from the engine's described options (``meloch.engine.options``)."""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from meloch.content import load
from meloch.content.schema import CombatCardType, MapSide
from meloch.guide import effects_text

SEAT_STYLES = ("bold red", "bold blue")
"""Style of seat 0's and seat 1's pieces and tags."""

# ---------------------------------------------------------------- small helpers


def seat_tag(view: dict[str, Any], seat: int) -> str:
    return str(view["tags"][seat])


@cache
def map_of(side: str) -> MapSide:
    return load().maps[side]


def card_name(cid: str) -> str:
    """A discovery card's name and kind: ``Stone Blade (item i01)``."""
    c = load().cards.get(cid)
    return f"{c.name} ({c.kind} {cid})" if c is not None else cid


@cache
def _combat_names() -> tuple[str, ...]:
    out: list[str] = []
    for t in load().combat_cards:
        out.extend([f"{t.name} ({t.value})"] * t.count)
    return tuple(out)


def combat_card_name(token: str, view: dict[str, Any] | None = None) -> str:
    """``c12`` -> ``Ambush (3) #12`` (looked up in the viewer's hand first, then the content)."""
    if not re.fullmatch(r"c\d+", token):
        return card_name(token)
    cid = int(token[1:])
    if view is not None and view.get("seat") is not None:
        me = view["seats"][view["seat"]]
        for i, name in zip(me.get("combat_card_ids", []), me.get("hand_combat", []), strict=False):
            if i == cid:
                return str(name)
    names = _combat_names()
    return f"{names[cid]} #{cid}" if 0 <= cid < len(names) else token


@cache
def _combat_types() -> tuple[CombatCardType, ...]:
    return tuple(t for t in load().combat_cards for _ in range(t.count))


def combat_card_text(cid: int) -> str:
    """What combat card ``cid`` does: ``in combat: ...; discard on your turn: coins +2``."""
    types = _combat_types()
    if not 0 <= cid < len(types):
        return ""
    t = types[cid]
    return f"in combat: {t.combat_text.rstrip('.')}; discard on your turn: {effects_text(t.discard)}"


def section_text(view: dict[str, Any], seat: int, sec: str) -> str:
    p = view["seats"][seat]
    if sec == "factory":
        fc = p.get("factory_card") or "?"
        return f"the Factory card ({fc})"
    mat = load().mats.get(p.get("mat", ""))
    if mat is None or not sec.isdigit() or not 1 <= int(sec) <= len(mat.sections):
        return f"section {sec}"
    s = mat.sections[int(sec) - 1]
    return f"section {sec} ({s.top.capitalize()} / {s.bottom.capitalize()})"


__all__ = ["SEAT_STYLES", "card_name", "combat_card_name", "combat_card_text", "effects_text", "map_of",
           "seat_tag", "section_text"]
