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
  sum, power sum), then for me and for the opponent: character, mechs, workers, structures,
  resources there;
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
from collections.abc import Callable
from functools import cache
from typing import Any

import numpy as np

from meloch.content import load
from meloch.engine import ExpView, Glance, ScytheView, State, View, glance
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
BOARD_FEATURES = 6 + 2 * 5


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
        ("me", SEAT_FEATURES + len(TOKENS) + 5 * len(cards)),
        ("opp", SEAT_FEATURES + len(TOKENS) + 5 * len(cards)),
        ("private", len(combat) + 1),
        ("combat", 8),
    ]
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


def _head(out: np.ndarray, g: Glance) -> None:
    """Write the ``decision`` and ``global`` blocks (they change every step) into ``out``."""
    me, opp = g.seat, 1 - g.seat
    nk = len(DECISION_KINDS)
    out[:nk + 3] = 0
    if g.decider >= 0:
        out[_KIND_IX.get(g.kind, nk) if g.decider == me else nk] = 1
        out[nk + 1] = g.decider == me
    out[nk + 2] = g.combat is not None
    d = g.decks
    # struct packs the 16 floats into the array's buffer in one call (float32 rounding as numpy's)
    _GLOBAL.pack_into(out.data, 4 * (nk + 3), g.turn / max(g.turn_limit, 1), g.step / 1000, g.active == me,
                      g.stars[me] / 4, g.stars[opp] / 4, g.home_turns[me] / 10, g.home_turns[opp] / 10,
                      g.stalemate_open, g.map_token_supply / 9, g.map_token_trash / 9, d[0] / 40, d[1] / 60,
                      d[2] / 12, d[3] / 21, d[4] / 10, g.combat_discard / 60)


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


def _seat_block(sv: ScytheView | ExpView) -> np.ndarray:
    _, cards, _, _ = _content_ids()
    card_ix = _card_ix()
    out = np.zeros(_sizes()["me"], dtype=np.float32)
    if isinstance(sv, ScytheView):
        vals = [1, 0, sv.power / 16, sv.coins / 20, sv.popularity / 18, sv.combat_cards / 10, sv.combat_wins / 6,
                sv.section / 5, sv.stars_unplaced / 6, sv.encounters / 3, sv.map_tokens / 9, sv.workers_on_mat / 8,
                0, 0, len(sv.mechs) / 4, len(sv.structures) / 4]
        token = ""
    else:
        vals = [0, 1, sv.power / 16, sv.coins / 20, sv.guile / 16, sv.combat_cards / 10, sv.combat_wins / 6,
                0, 0, 0, len(sv.map_tokens) / 9, len(sv.workers) / 8, sv.hand / 8, float(sv.hero_trashed),
                sum(v for _, v in sv.corruption) / 20, len(sv.solved) / 5]
        token = sv.token
    out[:SEAT_FEATURES] = vals
    if token in TOKENS:
        out[SEAT_FEATURES + TOKENS.index(token)] = 1
    if isinstance(sv, ExpView):
        base = SEAT_FEATURES + len(TOKENS)
        piles = (sv.hand_cards, tuple(c for c, _ in sv.active), sv.solved, sv.upgraded, sv.melded)
        for p, pile in enumerate(piles):
            for c in pile:
                if c in card_ix:
                    out[base + p * len(cards) + card_ix[c]] = 1
    return out


def _board_public(g: Glance) -> np.ndarray:
    """The ``board`` block's map tokens, revealed benefits, lakes and corruption."""
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


def _board_units(sv: ScytheView | ExpView, k: int) -> np.ndarray:
    """The ``board`` block's units of one seat: ``k`` = 0 for me, 1 for the opponent."""
    ix = _loc_ix()
    out = np.zeros(_sizes()["board"], dtype=np.float32)
    b = 6 + 5 * k

    def add(loc: str, j: int, x: float) -> None:
        if loc in ix:
            out[ix[loc] + j] += x

    if isinstance(sv, ScytheView):
        add(sv.character, b, 1)
        for m in sv.mechs:
            add(m, b + 1, 0.25)
        for loc in sv.workers:
            add(loc, b + 2, 0.25)
        for _, loc in sv.structures:
            add(loc, b + 3, 1)
        for loc, _, cnt in sv.resources:
            add(loc, b + 4, cnt / 8)
    else:
        add(sv.loc, b, 1)
    return out


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
_UNSET = object()
_LAST: dict[tuple[str, int], tuple[Any, np.ndarray]] = {}
"""(part, seat) -> (its input, its floats): one remembered encoding per part and seat."""
_PREV: dict[int, tuple[tuple[Any, ...], np.ndarray]] = {}
"""seat -> (the inputs of its previous vector, that vector): the blocks whose inputs are unchanged
are kept. ``glance`` hands back unchanged parts as the same objects, so most checks are identity
checks; a changed object is compared by value (an equal value encodes the same)."""


def _changed(a: Any, b: Any) -> bool:
    return a is not b and bool(a != b)


def _part(name: str, me: int, src: Any, build: Callable[[], np.ndarray]) -> np.ndarray:
    hit = _LAST.get((name, me))
    if hit is not None and not _changed(hit[0], src):
        return hit[1]
    out = build()
    _LAST[(name, me)] = (src, out)
    return out


@cache
def _slices() -> dict[str, slice]:
    return {name: slice(off, off + n) for name, off, n in layout()}


def encode(g: Glance) -> np.ndarray:
    """The observation vector of ``g.seat`` (always a new array). Only the blocks whose inputs
    changed since the previous call for that seat are encoded again."""
    me, opp = g.seat, 1 - g.seat
    sm, so = g.seats[me], g.seats[opp]
    public = (g.map_tokens, g.revealed, g.lakes, g.corruption)
    keys = (g.track, g.meloch_row, public, sm, so, sm.combat_card_ids, g.known, g.combat)
    prev = _PREV.get(me)
    if prev is None:
        old: tuple[Any, ...] = (_UNSET,) * len(keys)
        out = np.zeros(size(), dtype=np.float32)
    else:
        old, out = prev
    sl = _slices()
    _head(out, g)
    if keys[0] is not old[0] and keys[0] != old[0]:
        out[sl["track"]] = _track(g.track, me)
    if keys[1] is not old[1] and keys[1] != old[1]:
        out[sl["meloch"]] = _meloch(g.meloch_row)
    me_changed = sm is not old[3] and sm != old[3]
    opp_changed = so is not old[4] and so != old[4]
    if me_changed or opp_changed or _changed(public, old[2]):
        out[sl["board"]] = (_part("public", me, public, lambda: _board_public(g))
                            + _part("units_me", me, sm, lambda: _board_units(sm, 0))
                            + _part("units_opp", me, so, lambda: _board_units(so, 1)))
    if me_changed:
        out[sl["me"]] = _seat_block(sm)
    if opp_changed:
        out[sl["opp"]] = _seat_block(so)
    if _changed(keys[5], old[5]) or keys[6] != old[6]:
        out[sl["private"]] = _private(sm.combat_card_ids, g.known)
    if keys[7] is not old[7]:
        out[sl["combat"]] = _combat(g)
    _PREV[me] = (keys, out)
    return out.copy()


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
        revealed=v.revealed, lakes=tuple(v.lakes), corruption=tuple(v.corruption.items()), seats=v.seats,
        combat=v.combat, known=len(v.known_facts),
    )


def observe(v: View) -> np.ndarray:
    """The observation vector of ``v.seat`` from its typed view (a seat's, never a spectator's)."""
    return encode(from_view(v))


def observe_state(state: State, seat: int) -> np.ndarray:
    """The observation vector of ``seat`` from the engine's ``glance`` (same floats as
    ``observe(view(state, seat))``, several times cheaper; what the environments use)."""
    return encode(glance(state, seat))


def view_text(v: View) -> str:
    """The view as text for an agent or a log: the decision, the last events, then the view's JSON."""
    import msgspec

    lines = []
    if v.decision is not None:
        lines.append(f"decision: {v.tags[v.decision.seat]} {v.decision.kind}: {v.decision.prompt}")
    lines += [f"event: {e}" for e in v.events]
    lines.append(msgspec.json.encode(v).decode())
    return "\n".join(lines)
