"""The observation of one seat: a flat ``float32`` vector built from that seat's typed ``View``.

Only ``view(state, seat)`` is read, so the vector holds nothing the seat cannot see (the test checks
that re-sampling the hidden parts with ``determinize`` leaves it unchanged). The layout is fixed by
the content (``layout()`` gives each block's name, offset and size; ``docs/rl.md`` lists them):

- ``decision``: one-hot decision kind (the last slot: a kind not in ``DECISION_KINDS``), whether this
  seat decides, whether a combat is open;
- ``global``: turn and step (scaled), active seat is me, stars (me, opponent), home turns,
  stalemate open, map-token supply and trash, deck counts;
- ``track``: per Triumph Track column, my star and the opponent's star;
- ``meloch``: per Meloch card, placed upright / placed rotated;
- ``board``: per location: face-down map token, revealed, lake card, corruption (count, guile
  sum, power sum);
- ``units_me`` / ``units_opp``: per location, my (the opponent's) character, mechs, workers,
  structures and resources there;
- ``me`` / ``opp``: role, counters (power, coins, popularity or guile, combat-card count, combat
  wins, section, stars unplaced, encounters, map tokens, workers on mat, hand size, hero trashed),
  action token one-hot, discovery cards by pile (hand, active, solved, upgraded, melded; public
  in the rules);
- ``private``: my own combat cards by type, my known facts count;
- ``combat``: attacker/defender is me, revealed, tucked counts, my dial, the totals once revealed.

Counts are divided by fixed scales so values stay near 0..1; nothing is clipped.
"""

from __future__ import annotations

import struct
import typing
from collections.abc import Callable
from functools import cache
from typing import Any

import numpy as np

from meloch.content import load
from meloch.engine import ExpGlance, ExpView, Glance, ScytheGlance, ScytheView, SeatGlance, State, View, glance
from meloch.rl import native
from meloch.rl.actions import combat_type_ids, location_ids

DECISION_KINDS: tuple[str, ...] = (
    "c_ambush", "c_dial", "c_resolve", "c_reveal", "c_star", "c_surprise", "c_tuck", "c_veer", "draw2",
    "e_actions", "e_activate", "e_adjacent", "e_boast", "e_discard", "e_gather", "e_highlander",
    "e_map_token_at", "e_meld", "e_mole", "e_move", "e_pay_map_token", "e_pay_worker", "e_play",
    "e_play_worker", "e_rescue", "e_solve", "e_take", "e_token", "e_trash", "e_upgrade", "e_vanquish",
    "e_voyager", "e_worker_colour", "fx", "keep1", "meloch_draw", "meloch_gain", "meloch_orient", "one_of",
    "pay_combat", "peek", "s_after_move", "s_artillery", "s_bottom", "s_build", "s_carry", "s_deploy",
    "s_encounter", "s_encounter_check", "s_enlist", "s_factory", "s_factory_check", "s_factory_move", "s_fight",
    "s_fight_check", "s_move", "s_pay", "s_place_resource", "s_place_worker", "s_produce", "s_rearm",
    "s_refresh", "s_return_worker", "s_section", "s_token", "s_top", "s_trade", "s_upgrade", "s_vesna",
    "s_via", "sweep", "turn_end",
)
"""Decision kinds with their own slot (the engine's frame kinds; the fuzz test checks it is complete)."""

TOKENS = ("move", "play", "gather", "refresh", "all")
SEAT_FEATURES = 16
BOARD_FEATURES = 6
UNIT_FEATURES = 5


@cache
def _content_ids() -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...], int]:
    c = load()
    locs = location_ids()
    columns = max(len(t.categories) for t in c.tracks.values())
    return locs, tuple(c.cards), tuple(t.id for t in c.combat_cards), columns


@cache
def layout() -> tuple[tuple[str, int, int], ...]:
    """(block name, offset, size) of every block of the vector, in order."""
    locs, cards, combat, columns = _content_ids()
    sizes = [
        ("decision", len(DECISION_KINDS) + 1 + 2),
        ("global", 16),
        ("track", 2 * columns),
        ("meloch", 2 * len(load().meloch_cards)),
        ("board", len(locs) * BOARD_FEATURES),
        ("units_me", len(locs) * UNIT_FEATURES),
        ("units_opp", len(locs) * UNIT_FEATURES),
        ("me", SEAT_FEATURES + len(TOKENS) + 5 * len(cards)),
        ("opp", SEAT_FEATURES + len(TOKENS) + 5 * len(cards)),
        ("private", len(combat) + 1),
        ("combat", 8),
    ]
    if 4 * sizes[0][1] != _GLOBAL_AT:
        raise AssertionError("the global block must follow the decision block")
    out, off = [], 0
    for name, n in sizes:
        out.append((name, off, n))
        off += n
    return tuple(out)


def size() -> int:
    _, off, n = layout()[-1]
    return off + n


@cache
def _card_ix() -> dict[str, int]:
    return {c: i for i, c in enumerate(_content_ids()[1])}


@cache
def _loc_ix() -> dict[str, int]:
    return {loc: i * BOARD_FEATURES for i, loc in enumerate(_content_ids()[0])}


@cache
def _unit_ix() -> dict[str, int]:
    return {loc: i * UNIT_FEATURES for i, loc in enumerate(_content_ids()[0])}


@cache
def _meloch_ix() -> dict[str, int]:
    return {m.id: i for i, m in enumerate(load().meloch_cards)}


@cache
def _combat_slot() -> tuple[int, ...]:
    """Combat-card instance id -> index of its type in the ``private`` block."""
    _, _, combat, _ = _content_ids()
    return tuple(combat.index(t) for t in combat_type_ids())


@cache
def _sizes() -> dict[str, int]:
    return {name: n for name, _, n in layout()}


_GLOBAL = struct.Struct("16f")
_GLOBAL_AT = 4 * (len(DECISION_KINDS) + 3)
"""Byte offset of the ``global`` block (right after ``decision``; ``layout()`` checks it)."""


def _track(track: tuple[tuple[int, ...], ...], me: int) -> np.ndarray:
    out = np.zeros(_sizes()["track"], dtype=np.float32)
    for col, seats in enumerate(track):
        for seat in seats:
            out[2 * col + (0 if seat == me else 1)] = 1
    return out


def _meloch(row: tuple[tuple[str, bool], ...]) -> np.ndarray:
    out = np.zeros(_sizes()["meloch"], dtype=np.float32)
    ix = _meloch_ix()
    for card, rotated in row:
        if card in ix:
            out[2 * ix[card] + int(rotated)] = 1
    return out


def _tail(sv: SeatGlance) -> bytes:
    """A seat block after its counters, as float32 bytes: the action token one-hot, then the
    discovery cards by pile (hand, active, solved, upgraded, melded); all zero for Scythe."""
    _, cards, _, _ = _content_ids()
    out = [0.0] * (_sizes()["me"] - SEAT_FEATURES)
    if isinstance(sv, ExpGlance):
        card_ix = _card_ix()
        if sv.token in TOKENS:
            out[TOKENS.index(sv.token)] = 1.0
        for p, pile in enumerate((sv.hand_cards, sv.active, sv.solved, sv.upgraded, sv.melded)):
            for c in pile:
                if c in card_ix:
                    out[len(TOKENS) + p * len(cards) + card_ix[c]] = 1.0
    return struct.pack(f"{len(out)}f", *out)


def _seat_block(sv: SeatGlance) -> np.ndarray:
    """A ``me`` / ``opp`` block: the counters, the action token one-hot, the discovery piles."""
    return np.frombuffer(_counters(sv) + _tail(sv), dtype=np.float32)


def _board_public(g: Glance) -> np.ndarray:
    """The ``board`` block: map tokens, revealed benefits, lakes and corruption by location."""
    ix = _loc_ix()
    out = [0.0] * _sizes()["board"]
    for loc in g.map_tokens:
        if loc in ix:
            out[ix[loc]] += 1
    for loc in g.revealed:
        if loc in ix:
            out[ix[loc] + 1] += 1
    for loc in g.lakes:
        if loc in ix:
            out[ix[loc] + 2] += 1
    for loc, stack in g.corruption:
        if loc in ix:
            out[ix[loc] + 3] += len(stack) / 4
            out[ix[loc] + 4] += sum(val for col, val in stack if col == "guile") / 10
            out[ix[loc] + 5] += sum(val for col, val in stack if col == "power") / 10
    return np.asarray(out, dtype=np.float32)


def _board_units(sv: SeatGlance) -> np.ndarray:
    """A ``units_me`` / ``units_opp`` block: one seat's units by location."""
    ix = _unit_ix()
    out = [0.0] * _sizes()["units_me"]
    if isinstance(sv, ScytheGlance):
        if sv.character in ix:
            out[ix[sv.character]] += 1
        for loc in sv.mechs:
            if loc in ix:
                out[ix[loc] + 1] += 0.25
        for loc in sv.workers:
            if loc in ix:
                out[ix[loc] + 2] += 0.25
        for _, loc in sv.structures:
            if loc in ix:
                out[ix[loc] + 3] += 1
        for loc, _, cnt in sv.resources:
            if loc in ix:
                out[ix[loc] + 4] += cnt / 8
    elif sv.loc in ix:
        out[ix[sv.loc]] += 1
    return np.frombuffer(struct.pack(f"{len(out)}f", *out), dtype=np.float32)


def _private(own: tuple[int, ...] | None, known: int) -> np.ndarray:
    out = np.zeros(_sizes()["private"], dtype=np.float32)
    slot = _combat_slot()
    for cid in own or ():
        out[slot[cid]] += 0.25
    out[-1] = known / 4
    return out


def _combat(g: Glance) -> np.ndarray:
    out = np.zeros(_sizes()["combat"], dtype=np.float32)
    c = g.combat
    if c is not None:
        me, opp = g.seat, 1 - g.seat
        dial = c.dial_0 if me == 0 else c.dial_1
        vals = [float(c.attacker == me), float(c.defender == me), float(c.revealed), c.tucked[me] / 3,
                c.tucked[opp] / 3, (dial or 0) / 7]
        if c.totals is not None:
            vals += [c.totals[me] / 20, c.totals[opp] / 20]
        out[:len(vals)] = vals
    return out


_KIND_IX = {k: i for i, k in enumerate(DECISION_KINDS)}


def _decision(g: Glance) -> np.ndarray:
    me, nk = g.seat, len(DECISION_KINDS)
    out = np.zeros(nk + 3, dtype=np.float32)
    if g.decider >= 0:
        out[_KIND_IX.get(g.kind, nk) if g.decider == me else nk] = 1
        out[nk + 1] = g.decider == me
    out[nk + 2] = g.combat is not None
    return out


def _global(g: Glance) -> bytes:
    """The ``global`` block as float32 bytes (struct rounds to float32 as numpy does)."""
    me, opp = g.seat, 1 - g.seat
    d = g.decks
    return _GLOBAL.pack(g.turn / max(g.turn_limit, 1), g.step / 1000, g.active == me, g.stars[me] / 4,
                        g.stars[opp] / 4, g.home_turns[me] / 10, g.home_turns[opp] / 10, g.stalemate_open,
                        g.map_token_supply / 9, g.map_token_trash / 9, d[0] / 40, d[1] / 60, d[2] / 12, d[3] / 21,
                        d[4] / 10, g.combat_discard / 60)


_COUNTERS = struct.Struct(f"{SEAT_FEATURES}f")


def _counters(sv: SeatGlance) -> bytes:
    """The first ``SEAT_FEATURES`` floats of a seat block as float32 bytes: role, power, coins,
    popularity or guile, combat cards, combat wins, then by role (Scythe: section, stars unplaced,
    encounters, map tokens, workers on the mat, 0, 0, mechs, structures; Expeditions: 0, 0, 0, map
    tokens, workers, hand, hero trashed, corruption, solved)."""
    if isinstance(sv, ScytheGlance):
        return _COUNTERS.pack(1, 0, sv.power / 16, sv.coins / 20, sv.popularity / 18, sv.combat_cards / 10,
                              sv.combat_wins / 6, sv.section / 5, sv.stars_unplaced / 6, sv.encounters / 3,
                              sv.map_tokens / 9, sv.workers_on_mat / 8, 0, 0, len(sv.mechs) / 4,
                              len(sv.structures) / 4)
    return _COUNTERS.pack(0, 1, sv.power / 16, sv.coins / 20, sv.guile / 16, sv.combat_cards / 10,
                          sv.combat_wins / 6, 0, 0, 0, sv.map_tokens / 9, sv.workers / 8, sv.hand / 8,
                          sv.hero_trashed, sv.corruption / 20, len(sv.solved) / 5)


_F1 = struct.Struct("f")
_ONE = _F1.pack(1.0)
_EMPTY: dict[type, Any] = {
    ScytheGlance: ScytheGlance(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, "", (), (), (), (), None),
    ExpGlance: ExpGlance(0, 0, 0, 0, 0, 0, 0, 0, False, 0, "", "", (), (), (), (), (), None),
}
"""A seat glance of each type with no units and empty piles: what a fresh side was written from."""


def _column(buf: bytearray, at: int, old: dict[int, float], new: dict[int, float]) -> None:
    """Rewrite one feature column of a units block: ``old`` / ``new`` map float offsets (from
    ``at``) to values; offsets only in ``old`` become 0, the rest get their new value."""
    for o in old:
        if o not in new:
            _F1.pack_into(buf, at + 4 * o, 0.0)
    for o, v in new.items():
        if old.get(o) != v:
            _F1.pack_into(buf, at + 4 * o, v)


def _spread(locs: tuple[str, ...], ix: dict[str, int], col: int, w: float) -> dict[int, float]:
    """Float offset (location's base + ``col``) -> ``w`` per unit there, summed in order as
    ``_board_units`` sums them (the same float64 values)."""
    out: dict[int, float] = {}
    for loc in locs:
        if loc in ix:
            o = ix[loc] + col
            out[o] = out.get(o, 0.0) + w
    return out


def _resources(res: tuple[tuple[str, str, int], ...], ix: dict[str, int]) -> dict[int, float]:
    """``_spread`` of the resources column: ``count / 8`` per (location, resource, count)."""
    out: dict[int, float] = {}
    for loc, _, cnt in res:
        if loc in ix:
            o = ix[loc] + 4
            out[o] = out.get(o, 0.0) + cnt / 8
    return out


def _move(buf: bytearray, at: int, ix: dict[str, int], old: str, new: str) -> None:
    """Move a lone unit's 1 (a character's column) from location ``old`` to ``new``."""
    if old in ix:
        _F1.pack_into(buf, at + 4 * ix[old], 0.0)
    if new in ix:
        _F1.pack_into(buf, at + 4 * ix[new], 1.0)


def _pile(buf: bytearray, base: int, cards: tuple[str, ...], card_ix: dict[str, int]) -> None:
    """Rewrite one discovery pile's one-hot part of a seat block (``_tail``'s layout)."""
    buf[base:base + 4 * len(card_ix)] = bytes(4 * len(card_ix))
    for c in cards:
        if c in card_ix:
            o = base + 4 * card_ix[c]
            buf[o:o + 4] = _ONE


class _Side:
    """One seat's part of a vector maintained in a ``_Memo``'s buffer: its ``units_*`` block and
    its ``me`` / ``opp`` block, and the seat glance they were last written from. ``update``
    rewrites what changed, field by field: each units field owns one column of the units block
    (character, mechs, workers, structures, resources), each Expeditions pile its own part of the
    tail, so a change costs a few writes (no rebuild, no hashing)."""

    __slots__ = ("block", "card_ix", "ix", "sv", "units")

    def __init__(self, units: int, block: int) -> None:
        self.units, self.block = units, block
        """Byte offsets of this seat's units block and seat block in the buffer."""
        self.sv: Any = None
        self.ix, self.card_ix = _unit_ix(), _card_ix()

    def update(self, sv: SeatGlance, buf: bytearray) -> None:
        """Bring the side from ``self.sv`` to ``sv`` (``_board_units`` and ``_seat_block`` are the
        reference: ``tests/rl`` compares with them at every step)."""
        old = self.sv
        if type(old) is not type(sv):  # (the first call, or the seat's role changed: a new game)
            n = 4 * UNIT_FEATURES * len(self.ix)
            buf[self.units:self.units + n] = bytes(n)
            end = self.block + 4 * _sizes()["me"]
            buf[self.block:end] = bytes(end - self.block)
            old = _EMPTY[type(sv)]
        ix, at = self.ix, self.units
        if isinstance(sv, ScytheGlance):
            _COUNTERS.pack_into(buf, self.block, 1, 0, sv.power / 16, sv.coins / 20, sv.popularity / 18,
                                sv.combat_cards / 10, sv.combat_wins / 6, sv.section / 5, sv.stars_unplaced / 6,
                                sv.encounters / 3, sv.map_tokens / 9, sv.workers_on_mat / 8, 0, 0,
                                len(sv.mechs) / 4, len(sv.structures) / 4)
            if sv.resources is not old.resources and sv.resources != old.resources:
                _column(buf, at, _resources(old.resources, ix), _resources(sv.resources, ix))
            if sv.character != old.character:
                _move(buf, at, ix, old.character, sv.character)
            if sv.workers is not old.workers and sv.workers != old.workers:
                _column(buf, at, _spread(old.workers, ix, 2, 0.25), _spread(sv.workers, ix, 2, 0.25))
            if sv.mechs is not old.mechs and sv.mechs != old.mechs:
                _column(buf, at, _spread(old.mechs, ix, 1, 0.25), _spread(sv.mechs, ix, 1, 0.25))
            if sv.structures is not old.structures and sv.structures != old.structures:
                _column(buf, at, _spread(tuple(loc for _, loc in old.structures), ix, 3, 1),
                        _spread(tuple(loc for _, loc in sv.structures), ix, 3, 1))
        else:
            block = self.block
            _COUNTERS.pack_into(buf, block, 0, 1, sv.power / 16, sv.coins / 20, sv.guile / 16,
                                sv.combat_cards / 10, sv.combat_wins / 6, 0, 0, 0, sv.map_tokens / 9,
                                sv.workers / 8, sv.hand / 8, sv.hero_trashed, sv.corruption / 20,
                                len(sv.solved) / 5)
            if sv.loc != old.loc:
                _move(buf, at, ix, old.loc, sv.loc)
            tail = block + 4 * SEAT_FEATURES
            if sv.token != old.token:
                if old.token in TOKENS:
                    _F1.pack_into(buf, tail + 4 * TOKENS.index(old.token), 0.0)
                if sv.token in TOKENS:
                    _F1.pack_into(buf, tail + 4 * TOKENS.index(sv.token), 1.0)
            card_ix = self.card_ix
            n = 4 * len(card_ix)
            tail += 4 * len(TOKENS)
            if sv.hand_cards is not old.hand_cards and sv.hand_cards != old.hand_cards:
                _pile(buf, tail, sv.hand_cards, card_ix)
            if sv.active is not old.active and sv.active != old.active:
                _pile(buf, tail + n, sv.active, card_ix)
            if sv.solved is not old.solved and sv.solved != old.solved:
                _pile(buf, tail + 2 * n, sv.solved, card_ix)
            if sv.upgraded is not old.upgraded and sv.upgraded != old.upgraded:
                _pile(buf, tail + 3 * n, sv.upgraded, card_ix)
            if sv.melded is not old.melded and sv.melded != old.melded:
                _pile(buf, tail + 4 * n, sv.melded, card_ix)
        self.sv = sv


@cache
def _offsets() -> dict[str, int]:
    """Block name -> byte offset in the vector."""
    return {name: 4 * off for name, off, _ in layout()}


class _Memo:
    """One seat's vector, kept up to date block by block in a float32 buffer, and what each block
    was last written from. ``encode`` writes the blocks whose inputs changed and hands out a copy."""

    __slots__ = ("arr", "buf", "combat", "corruption", "dec", "dkey", "known", "lakes", "map_tokens", "me",
                 "meloch", "opp", "own", "revealed", "track")

    def __init__(self) -> None:
        off = _offsets()
        self.buf = bytearray(4 * size())
        self.arr = np.frombuffer(self.buf, _F32)
        """The buffer as the vector (a view: written through ``buf``, copied out by ``encode``)."""
        self.dec: dict[tuple[str, int, bool], bytes] = {}
        """(kind, deciding seat, a combat is open) -> the ``decision`` block."""
        self.dkey: Any = _UNSET
        self.track: Any = _UNSET
        self.meloch: Any = _UNSET
        self.map_tokens: Any = _UNSET
        self.revealed: Any = _UNSET
        self.lakes: Any = _UNSET
        self.corruption: Any = _UNSET
        self.me, self.opp = _Side(off["units_me"], off["me"]), _Side(off["units_opp"], off["opp"])
        self.own: Any = _UNSET
        self.known: Any = _UNSET
        self.combat: Any = _UNSET


_UNSET = object()
_F32 = np.dtype(np.float32)
_MEMO: list[_Memo | None] = [None, None]
"""By seat: the buffer of its previous vector and what each block came from. ``glance`` hands back
unchanged parts as the same objects, so most checks are identity checks; a changed object is
compared by value (an equal value encodes the same), so the result never depends on which calls
came before. A memo only ever holds what one seat's glances gave (it is indexed by ``g.seat``)."""


def _write(buf: bytearray, block: str, arr: np.ndarray) -> None:
    """Write ``arr`` (a block built from nothing) at ``block``'s place in ``buf`` (rare blocks)."""
    at = _offsets()[block]
    b = arr.tobytes()
    buf[at:at + len(b)] = b


def encode_py(g: Glance) -> np.ndarray:
    """``encode`` in Python: the fallback when the C extension is not built, and the path the
    tests compare it with. Only the blocks whose inputs changed since the previous call for that
    seat are written again into that seat's buffer; the result is a copy of the buffer."""
    me = g.seat
    m = _MEMO[me]
    if m is None:
        m = _MEMO[me] = _Memo()
    buf = m.buf
    combat = g.combat
    x: Any = (g.kind, g.decider, combat is not None)
    if x != m.dkey:
        dec = m.dec.get(x)
        if dec is None:
            dec = m.dec[x] = _decision(g).tobytes()
        m.dkey = x
        buf[:len(dec)] = dec
    opp, d = 1 - me, g.decks
    _GLOBAL.pack_into(buf, _GLOBAL_AT, g.turn / max(g.turn_limit, 1), g.step / 1000, g.active == me,
                      g.stars[me] / 4, g.stars[opp] / 4, g.home_turns[me] / 10, g.home_turns[opp] / 10,
                      g.stalemate_open, g.map_token_supply / 9, g.map_token_trash / 9, d[0] / 40, d[1] / 60,
                      d[2] / 12, d[3] / 21, d[4] / 10, g.combat_discard / 60)  # (``_global``, inlined)
    x = g.track
    if x is not m.track and x != m.track:
        m.track = x
        _write(buf, "track", _track(x, me))
    x = g.meloch_row
    if x is not m.meloch and x != m.meloch:
        m.meloch = x
        _write(buf, "meloch", _meloch(x))
    if (g.map_tokens is not m.map_tokens or g.revealed is not m.revealed or g.lakes is not m.lakes
            or g.corruption is not m.corruption):
        if (g.map_tokens, g.revealed, g.lakes, g.corruption) != (m.map_tokens, m.revealed, m.lakes, m.corruption):
            _write(buf, "board", _board_public(g))
        m.map_tokens, m.revealed, m.lakes, m.corruption = g.map_tokens, g.revealed, g.lakes, g.corruption
    seats = g.seats
    x = seats[me]
    if x is not m.me.sv:
        m.me.update(x, buf)
        if x.combat_card_ids != m.own:
            m.own = x.combat_card_ids
            m.known = g.known
            _write(buf, "private", _private(m.own, m.known))
    x = seats[opp]
    if x is not m.opp.sv:
        m.opp.update(x, buf)
    if g.known != m.known:
        m.known = g.known
        _write(buf, "private", _private(m.own, m.known))
    if combat is not m.combat and combat != m.combat:
        m.combat = combat
        _write(buf, "combat", _combat(g))
    return m.arr.copy()


def _combat_type() -> type:
    """The type of a glance's combat part, read from the public ``Glance``'s field (the engine's
    protocol does not export it by name, and a shell imports only ``meloch.engine``)."""
    hint = typing.get_type_hints(Glance)["combat"]
    found: type = next(t for t in typing.get_args(hint) if t is not type(None))
    return found


def _native_encoder(mod: Any) -> Any:
    """The C encoder (``meloch.rl._obsc.Encoder``) for this layout: the content's tables and the
    blocks' float offsets (it keeps one float32 vector per seat and copies it out)."""
    _, _, combat, columns = _content_ids()
    return mod.Encoder(
        glance=glance, glance_type=Glance,
        scythe_type=ScytheGlance, exp_type=ExpGlance, combat_type=_combat_type(), kinds=dict(_KIND_IX),
        board_ix=dict(_loc_ix()), unit_ix=dict(_unit_ix()), card_ix=dict(_card_ix()), meloch_ix=dict(_meloch_ix()),
        tokens=TOKENS,
        combat_slot=_combat_slot(), offsets=(*(off for _, off, _ in layout()), size()), track_cols=columns,
        n_meloch=len(_meloch_ix()), n_private=len(combat) + 1)


_encode: Any = encode_py
"""The encoder in use: ``encode_py`` or the C encoder's ``encode`` (``native.use`` switches)."""
NATIVE = False
"""Whether the C encoder runs (``meloch.rl.native.path()`` says it for people)."""


def _use(on: bool) -> None:
    """Switch to the C encoder (``on``; the extension must be built) or to ``encode_py``."""
    global _encode, observe_state, NATIVE
    mods = native.modules() if on else None
    enc = None
    if mods is not None:
        try:
            enc = _native_encoder(mods[0])
        except (TypeError, ValueError, AttributeError) as e:
            native.broken(e)
    if enc is None:
        _encode, observe_state = encode_py, observe_state_py
    else:
        _encode, observe_state = enc.encode, enc.observe
    NATIVE = enc is not None


def encode(g: Glance) -> np.ndarray:
    """The observation vector of ``g.seat`` (always a new, writable array; equal to
    ``encode_full(g)``), by the C encoder when it is built, else by ``encode_py``."""
    return _encode(g)  # type: ignore[no-any-return]


def encode_full(g: Glance) -> np.ndarray:
    """The observation vector of ``g.seat`` built from nothing (no memo): the reference that
    ``encode`` must equal (``tests/rl`` checks it at every step)."""
    me, opp = g.seat, 1 - g.seat
    sm, so = g.seats[me], g.seats[opp]
    return np.concatenate([
        _decision(g), np.frombuffer(_global(g), dtype=np.float32), _track(g.track, me), _meloch(g.meloch_row),
        _board_public(g), _board_units(sm), _board_units(so), _seat_block(sm), _seat_block(so),
        _private(sm.combat_card_ids, g.known), _combat(g),
    ])


def _seat_of_view(sv: ScytheView | ExpView) -> SeatGlance:
    if isinstance(sv, ScytheView):
        return ScytheGlance(
            power=sv.power, popularity=sv.popularity, coins=sv.coins, combat_cards=sv.combat_cards,
            combat_wins=sv.combat_wins, section=sv.section, stars_unplaced=sv.stars_unplaced,
            encounters=sv.encounters, map_tokens=sv.map_tokens, workers_on_mat=sv.workers_on_mat,
            character=sv.character, mechs=sv.mechs, workers=sv.workers, structures=sv.structures,
            resources=sv.resources, combat_card_ids=sv.combat_card_ids)
    return ExpGlance(
        power=sv.power, guile=sv.guile, coins=sv.coins, combat_cards=sv.combat_cards, combat_wins=sv.combat_wins,
        map_tokens=len(sv.map_tokens), workers=len(sv.workers), hand=sv.hand, hero_trashed=sv.hero_trashed,
        corruption=sum(v for _, v in sv.corruption), loc=sv.loc, token=sv.token, hand_cards=sv.hand_cards,
        active=tuple(c for c, _ in sv.active), solved=sv.solved, upgraded=sv.upgraded, melded=sv.melded,
        combat_card_ids=sv.combat_card_ids)


def from_view(v: View) -> Glance:
    """The ``Glance`` that ``v`` implies (the test compares it with the engine's ``glance``)."""
    if v.seat is None:
        raise ValueError("an observation is a seat's: pass view(state, seat), not the spectator view")
    d = v.decision
    k = v.decks
    return Glance(
        seat=v.seat, decider=d.seat if d is not None else -1, kind=d.kind if d is not None else "",
        turn=v.turn, step=v.step, active=v.active, turn_limit=v.setup.turn_limit, stars=v.stars,
        home_turns=v.home_turns, stalemate_open=v.stalemate_open, map_token_supply=v.map_token_supply,
        map_token_trash=v.map_token_trash, decks=(k.discovery, k.combat, k.encounter, k.factory, k.meloch),
        combat_discard=len(v.combat_discard), track=v.track, meloch_row=v.meloch_row, map_tokens=v.map_tokens,
        revealed=v.revealed, lakes=tuple(v.lakes), corruption=tuple(v.corruption.items()),
        seats=(_seat_of_view(v.seats[0]), _seat_of_view(v.seats[1])),
        combat=v.combat, known=len(v.known_facts),
    )


def observe(v: View) -> np.ndarray:
    """The observation vector of ``v.seat`` from its typed view (a seat's, never a spectator's)."""
    return encode(from_view(v))


def observe_state_py(state: State, seat: int) -> np.ndarray:
    """``observe_state`` on the Python path."""
    return encode_py(glance(state, seat))


observe_state: Callable[[State, int], np.ndarray] = observe_state_py
"""The observation vector of ``seat`` from the engine's ``glance`` (same floats as
``observe(view(state, seat))``, several times cheaper; what the environments use): the C encoder's
``observe`` (the engine's ``glance`` called from C, then the same encoding, without a Python frame
between them) or ``observe_state_py``. Either way the state is read only by ``glance``."""


def view_text(v: View) -> str:
    """The view as text for an agent or a log: the decision, the last events, then the view's JSON."""
    import msgspec

    lines = []
    if v.decision is not None:
        lines.append(f"decision: {v.tags[v.decision.seat]} {v.decision.kind}: {v.decision.prompt}")
    lines += [f"event: {e}" for e in v.events]
    lines.append(msgspec.json.encode(v).decode())
    return "\n".join(lines)


_use(native.load() is not None)
