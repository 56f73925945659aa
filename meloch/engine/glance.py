"""``glance(state, seat)``: the parts of ``view(state, seat)`` that a numeric observation reads, built
cheaply for the research API (``meloch.rl``), which encodes one every decision.

Why not ``view``: the typed ``View`` builds every name, prompt, log text and pile a person reads
(about 20 us a call); an observation needs counts and ids. A ``Glance`` holds the same facts the
``View`` gives that seat, by the same rules, minus texts: the combat part is ``view``'s own
``_combat``; a seat part (``ScytheGlance`` / ``ExpGlance``) holds the fields of the seat's
``ScytheView`` / ``ExpView`` that an observation reads, read from the state's seat as ``view``'s
``_scythe`` / ``_exp`` read them (a count where the view gives a count; the combat-card ids for the
seat itself only, as the view). ``tests/rl`` checks ``glance(s, seat)`` against the one the view
implies (``meloch.rl.observe.from_view``) at every step of random games, and that ``determinize``
leaves it unchanged.

A part equal to the one at the previous call (the same object, or an equal value: an ``apply``
copies a seat it touches, often without changing it) is returned as the same object as then (one
remembered entry per part, seat and content), so a caller may cache what it derives from a part
by identity; that is what makes the observation cheap. Nothing of the remembered parts is hidden
from the seat they were built for.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any, Protocol

import msgspec

from meloch.engine import contract as c
from meloch.engine import track
from meloch.engine.game_content import bound
from meloch.engine.model import ExpSeat, Frame, ScytheSeat, Setup, State
from meloch.engine.tx import is_scythe
from meloch.engine.view import _combat

if TYPE_CHECKING:
    from meloch.engine._glancec import Glancer

try:  # (the C glance: built by every install with a C compiler; without one, glance_py alone)
    import meloch.engine._glancec as _glancec
except ImportError:
    _glancec = None  # type: ignore[assignment]


class ScytheGlance(msgspec.Struct, frozen=True):
    """The observation's part of a ``ScytheView`` (same field names and meanings)."""

    power: int
    popularity: int
    coins: int
    combat_cards: int
    combat_wins: int
    section: int
    stars_unplaced: int
    encounters: int
    map_tokens: int
    workers_on_mat: int
    character: str
    mechs: tuple[str, ...]
    workers: tuple[str, ...]
    structures: tuple[tuple[str, str], ...]
    resources: tuple[tuple[str, str, int], ...]
    combat_card_ids: tuple[int, ...] | None
    """The seat's own combat-card ids; None in the other seat's glance."""


class ExpGlance(msgspec.Struct, frozen=True):
    """The observation's part of an ``ExpView`` (same field names and meanings, counts where noted)."""

    power: int
    guile: int
    coins: int
    combat_cards: int
    combat_wins: int
    map_tokens: int
    """``len(ExpView.map_tokens)``."""
    workers: int
    """``len(ExpView.workers)``."""
    hand: int
    hero_trashed: bool
    corruption: int
    """The sum of the corruption tokens' values (``ExpView.corruption``)."""
    loc: str
    token: str
    hand_cards: tuple[str, ...]
    active: tuple[str, ...]
    """The active row's card ids (``ExpView.active``'s first items)."""
    solved: tuple[str, ...]
    upgraded: tuple[str, ...]
    melded: tuple[str, ...]
    combat_card_ids: tuple[int, ...] | None


SeatGlance = ScytheGlance | ExpGlance


def _seat(p: ScytheSeat | ExpSeat, mine: bool) -> SeatGlance:
    """A seat's glance, read as ``view._scythe`` / ``view._exp`` read it (content bound by the caller)."""
    own = p.combat_cards if mine else None
    if is_scythe(p):
        return ScytheGlance(p.power, p.popularity, p.coins, len(p.combat_cards), p.combat_wins, p.section,
                            p.stars_unplaced, p.encounters, len(p.map_tokens), p.workers_on_mat, p.character,
                            p.mechs, p.workers, p.structures, p.resources, own)
    return ExpGlance(p.power, p.guile, p.coins, len(p.combat_cards), p.combat_wins, len(p.map_tokens),
                     len(p.workers), len(p.hand), p.hero_trashed,
                     sum([track.token(t)[1] for t in p.corruption]) if p.corruption else 0, p.loc, p.token,
                     p.hand, tuple([card for card, _ in p.active]) if p.active else (), p.solved, p.upgraded,
                     p.melded, own)


class Glance(msgspec.Struct, frozen=True):
    """What ``seat`` sees, as ids and counts (field names as in ``View`` where the meaning is the same).
    Fields may be given by position (``glance`` does: it is built every decision), in this order."""

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
    seats: tuple[SeatGlance, SeatGlance]
    combat: c.CombatView | None
    known: int
    """How many facts this seat learned (``len(View.known_facts)``)."""


_PARTS = ("stars", "map_tokens", "lakes", "corruption", "seat0", "seat1")
_MEMO: dict[tuple[int, str], list[Any]] = {}
"""(seat, content name) -> [state part, what was built from it] for each of ``_PARTS`` in order (flat):
bounded by the seats x contents in use. Names come from the content: never reused across contents."""
_UNSET = object()


@bound
def _built(state: State, part: str, seat: int) -> Any:
    """Build one part (with the state's content bound: names and token values come from it)."""
    s = state
    if part == "seat0" or part == "seat1":
        i = int(part[-1])
        return _seat(s.seats[i], seat == i)
    if part == "stars":
        return track.stars_of(s, 0), track.stars_of(s, 1)
    if part == "map_tokens":
        return tuple(loc for loc, _ in s.map_tokens)
    if part == "lakes":
        return tuple(dict(s.lakes))
    if part == "corruption":
        return tuple({loc: tuple(track.token(t) for t in st) for loc, st in s.corruption}.items())
    if part == "combat":
        return _combat(s, seat)
    raise KeyError(part)


def _refresh(memo: list[Any], i: int, state: State, seat: int, src: Any) -> Any:
    """Part ``i`` when ``src`` is not the remembered state part: the remembered result if it builds
    an equal result (an ``apply`` copies a seat it touched, often without changing it, or changes
    only what the glance does not read), else the new one. (A seat is rebuilt without first
    comparing it with the remembered one: most copied seats did change, and a seat part costs
    about what comparing two seats costs.)"""
    new: Any
    if i >= 4 and (is_scythe(src) or not src.corruption):
        new = _seat(src, seat == i - 4)  # (reads no content: no need to bind it)
    else:
        old = memo[2 * i]
        if type(old) is type(src) and old == src:
            memo[2 * i] = src
            return memo[2 * i + 1]
        new = _built(state, _PARTS[i], seat)
    if new != memo[2 * i + 1]:  # (an unread field changed: the part stays the same object)
        memo[2 * i + 1] = new
    memo[2 * i] = src
    return memo[2 * i + 1]


def _new_memo(seat: int, content: str) -> list[Any]:
    """The remembered parts of (``seat``, ``content``), new and stored in ``_MEMO`` (both paths use it)."""
    m = _MEMO[(seat, content)] = [_UNSET, None] * len(_PARTS)
    return m


def _combat_part(state: State, seat: int) -> c.CombatView:
    """The glance's combat part (``view``'s own: its totals read more than the state's combat)."""
    part: c.CombatView = _built(state, "combat", seat)
    return part


def glance_py(state: State, seat: int) -> Glance:
    """``glance`` in Python: the reference the C path is tested against, and the fallback."""
    if seat not in (0, 1):
        raise ValueError(f"glance is a seat's: seat must be 0 or 1, not {seat!r}")
    s = state
    m = _MEMO.get((seat, s.setup.content))
    if m is None:
        m = _new_memo(seat, s.setup.content)
    top = s.frames[-1] if s.frames and s.winner < 0 else None
    seats = s.seats
    x: Any = s.track
    stars = m[1] if x is m[0] else _refresh(m, 0, s, seat, x)
    x = s.map_tokens
    map_tokens = m[3] if x is m[2] else _refresh(m, 1, s, seat, x)
    x = s.lakes
    lakes = m[5] if x is m[4] else _refresh(m, 2, s, seat, x)
    x = s.corruption
    corruption = m[7] if x is m[6] else _refresh(m, 3, s, seat, x)
    x = seats[0]
    seat0 = m[9] if x is m[8] else _refresh(m, 4, s, seat, x)
    x = seats[1]
    seat1 = m[11] if x is m[10] else _refresh(m, 5, s, seat, x)
    # (by position, in field order: keyword matching of 25 fields costs more than the rest of the call)
    return Glance(
        seat, top.seat if top is not None else -1, top.kind if top is not None else "", s.turn, s.step, s.active,
        s.setup.turn_limit, stars, s.home_turns, s.stalemate_open, len(s.map_token_supply), len(s.map_token_trash),
        (len(s.discovery_deck), len(s.combat_deck), len(s.encounter_deck), len(s.factory_cards), len(s.meloch_deck)),
        len(s.combat_discard), s.track, s.meloch_row, map_tokens, s.revealed, lakes, corruption, (seat0, seat1),
        None if s.combat is None else _combat_part(s, seat),  # totals read more than s.combat
        0 if not s.known else sum(1 for k in s.known if k.seat == seat),
    )


def _glancer() -> Glancer | None:
    """The C ``glance`` (``meloch.engine._glancec``), or None when it is not built."""
    if _glancec is None:
        return None
    return _glancec.Glancer(
        state_type=State, setup_type=Setup, frame_type=Frame, known_type=c.Known, scythe_seat=ScytheSeat,
        exp_seat=ExpSeat, glance_type=Glance, scythe_glance=ScytheGlance, exp_glance=ExpGlance, memo=_MEMO,
        new_memo=_new_memo, refresh=_refresh, combat=_combat_part, fallback=glance_py)


class GlanceFunction(Protocol):
    def __call__(self, state: State, seat: int) -> Glance: ...


_NATIVE = _glancer()

glance: GlanceFunction = _NATIVE if _NATIVE is not None else glance_py
"""The observation-relevant part of ``view(state, seat)`` for a seat (not a spectator). The C
implementation (``_glancec.c``: the same parts and remembered objects; about 2-3 us less per
environment step, ``docs/rl.md``) when it is built, else ``glance_py``; ``use_native_glance``
switches (``MELOCH_RL_PURE=1``, the research API's Python path, starts with it off)."""


def use_native_glance(on: bool) -> bool:
    """Run ``glance`` in C (``on``, when built) or in Python; whether C now runs. The tests run both."""
    if _NATIVE is None:
        return False
    _NATIVE.native = 1 if on else 0
    return on


def glance_is_native() -> bool:
    """Whether ``glance`` runs in C."""
    return _NATIVE is not None and bool(_NATIVE.native)


use_native_glance(os.environ.get("MELOCH_RL_PURE", "") in ("", "0"))  # (the research API's Python-path switch)
