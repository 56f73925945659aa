"""``glance(state, seat)``: the parts of ``view(state, seat)`` that a numeric observation reads, built
cheaply for the research API (``meloch.rl``), which encodes one every decision.

Why not ``view``: the typed ``View`` builds every name, prompt, log text and pile a person reads
(about 20 us a call); an observation needs counts and ids. A ``Glance`` holds the same facts the
``View`` gives that seat, by the same rules (the seat parts are ``view``'s own ``_scythe``/``_exp``/
``_combat``), minus texts; ``tests/rl`` checks ``glance(s, seat)`` against the one the view implies
at every step of random games, and that ``determinize`` leaves it unchanged.

A part equal to the one at the previous call (the same object, or an equal value: an ``apply``
copies a seat it touches, often without changing it) is returned as the same object as then (one
remembered entry per part, seat and content), so a caller may cache what it derives from a part
by identity; that is what makes the observation cheap. Nothing of the remembered parts is hidden
from the seat they were built for.
"""

from __future__ import annotations

from typing import Any

import msgspec

from meloch.engine import contract as c
from meloch.engine import track
from meloch.engine.game_content import bound
from meloch.engine.model import State
from meloch.engine.view import _combat, _seat


class Glance(msgspec.Struct, frozen=True, kw_only=True):
    """What ``seat`` sees, as ids and counts (field names as in ``View`` where the meaning is the same)."""

    seat: int
    decider: int
    """The deciding seat; -1 when the game is over."""
    kind: str
    """The decision's kind (the engine's frame kind), "" when the game is over."""
    turn: int
    step: int
    active: int
    turn_limit: int
    stars: tuple[int, int]
    home_turns: tuple[int, int]
    stalemate_open: bool
    map_token_supply: int
    map_token_trash: int
    decks: tuple[int, int, int, int, int]
    """Discovery, combat, encounter, Factory and Meloch deck sizes (``View.decks``)."""
    combat_discard: int
    """Size of the combat discard pile."""
    track: tuple[tuple[int, ...], ...]
    meloch_row: tuple[tuple[str, bool], ...]
    map_tokens: tuple[str, ...]
    """Locations with a face-down map token."""
    revealed: tuple[str, ...]
    lakes: tuple[str, ...]
    """Locations with a lake card (``View.lakes``' keys)."""
    corruption: tuple[tuple[str, tuple[tuple[str, int], ...]], ...]
    seats: tuple[c.SeatView, c.SeatView]
    combat: c.CombatView | None
    known: int
    """How many facts this seat learned (``len(View.known_facts)``)."""


_LAST: dict[tuple[str, int, str], tuple[Any, Any]] = {}
"""(part, seat, content name) -> (the state's part, what was built from it): one entry each, so
bounded by the parts x seats x contents in use."""


@bound
def _built(state: State, part: str, seat: int) -> Any:
    """Build one part (with the state's content bound: names and token values come from it)."""
    s = state
    if part == "seat0" or part == "seat1":
        i = int(part[-1])
        return s.seats[i], _seat(s.seats[i], seat == i)
    if part == "stars":
        return s.track, (track.stars_of(s, 0), track.stars_of(s, 1))
    if part == "map_tokens":
        return s.map_tokens, tuple(loc for loc, _ in s.map_tokens)
    if part == "lakes":
        return s.lakes, tuple(dict(s.lakes))
    if part == "corruption":
        return s.corruption, tuple({loc: tuple(track.token(t) for t in st) for loc, st in s.corruption}.items())
    if part == "combat":
        return s.combat, _combat(s, seat)
    raise KeyError(part)


def _part(state: State, part: str, seat: int, src: Any) -> Any:
    """The remembered part when the state's part is the same object or an equal value (an ``apply``
    copies a seat it touched, often without changing it); else a new one."""
    key = (part, seat, state.setup.content)  # names come from the content: never reuse across contents
    hit = _LAST.get(key)
    if hit is not None and (hit[0] is src or (type(hit[0]) is type(src) and hit[0] == src)):
        if hit[0] is not src:
            _LAST[key] = (src, hit[1])
        return hit[1]
    hit = _LAST[key] = _built(state, part, seat)
    return hit[1]


def glance(state: State, seat: int) -> Glance:
    """The observation-relevant part of ``view(state, seat)`` for a seat (not a spectator)."""
    if seat not in (0, 1):
        raise ValueError(f"glance is a seat's: seat must be 0 or 1, not {seat!r}")
    s = state
    top = s.frames[-1] if s.frames and s.winner < 0 else None
    return Glance(
        seat=seat, decider=top.seat if top is not None else -1, kind=top.kind if top is not None else "",
        turn=s.turn, step=s.step, active=s.active, turn_limit=s.setup.turn_limit,
        stars=_part(s, "stars", 0, s.track), home_turns=s.home_turns, stalemate_open=s.stalemate_open,
        map_token_supply=len(s.map_token_supply), map_token_trash=len(s.map_token_trash),
        decks=(len(s.discovery_deck), len(s.combat_deck), len(s.encounter_deck), len(s.factory_cards),
               len(s.meloch_deck)),
        combat_discard=len(s.combat_discard), track=s.track, meloch_row=s.meloch_row,
        map_tokens=_part(s, "map_tokens", 0, s.map_tokens), revealed=s.revealed,
        lakes=_part(s, "lakes", 0, s.lakes), corruption=_part(s, "corruption", 0, s.corruption),
        seats=(_part(s, "seat0", seat, s.seats[0]), _part(s, "seat1", seat, s.seats[1])),
        combat=None if s.combat is None else _built(s, "combat", seat)[1],  # totals read more than s.combat
        known=0 if not s.known else sum(1 for k in s.known if k.seat == seat),
    )
