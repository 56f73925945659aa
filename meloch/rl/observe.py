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

from functools import cache

import numpy as np

from meloch.content import load
from meloch.engine import ExpView, ScytheView, View
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
        ("board", len(locs) * (6 + 2 * 5)),
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
def _offsets() -> dict[str, int]:
    return {name: off for name, off, _ in layout()}


class _Writer:
    """Writes into a Python list (item assignment on a list is several times cheaper than on a
    numpy array); ``observe`` converts once at the end."""

    def __init__(self) -> None:
        self.v: list[float] = [0.0] * size()
        self.off = _offsets()

    def put(self, block: str, i: int, x: float) -> None:
        self.v[self.off[block] + i] = x


@cache
def _card_ix() -> dict[str, int]:
    return {c: i for i, c in enumerate(_content_ids()[1])}


def _seat_block(w: _Writer, block: str, sv: ScytheView | ExpView) -> None:
    _, cards, _, _ = _content_ids()
    card_ix = _card_ix()
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
    off = w.off[block]
    w.v[off:off + SEAT_FEATURES] = vals
    if token in TOKENS:
        w.put(block, SEAT_FEATURES + TOKENS.index(token), 1)
    if isinstance(sv, ExpView):
        base = SEAT_FEATURES + len(TOKENS)
        piles = (sv.hand_cards, tuple(c for c, _ in sv.active), sv.solved, sv.upgraded, sv.melded)
        for p, pile in enumerate(piles):
            for c in pile:
                if c in card_ix:
                    w.put(block, base + p * len(cards) + card_ix[c], 1)


def _board(w: _Writer, v: View, me: int) -> None:
    locs, _, _, _ = _content_ids()
    n = 6 + 2 * 5
    ix = {loc: i * n for i, loc in enumerate(locs)}

    def add(loc: str, j: int, x: float) -> None:
        if loc in ix:
            w.v[w.off["board"] + ix[loc] + j] += x

    for loc in v.map_tokens:
        add(loc, 0, 1)
    for loc in v.revealed:
        add(loc, 1, 1)
    for loc in v.lakes:
        add(loc, 2, 1)
    for loc, stack in v.corruption.items():
        add(loc, 3, len(stack) / 4)
        add(loc, 4, sum(val for col, val in stack if col == "guile") / 10)
        add(loc, 5, sum(val for col, val in stack if col == "power") / 10)
    for k, seat in enumerate((me, 1 - me)):
        sv = v.seats[seat]
        b = 6 + 5 * k
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


def observe(v: View) -> np.ndarray:
    """The observation vector of ``v.seat`` (a seat's view, never a spectator's)."""
    if v.seat is None:
        raise ValueError("an observation is a seat's: pass view(state, seat), not the spectator view")
    me, opp = v.seat, 1 - v.seat
    w = _Writer()
    d = v.decision
    if d is not None:
        kind = d.kind if d.seat == me else ""
        w.put("decision", DECISION_KINDS.index(kind) if kind in DECISION_KINDS else len(DECISION_KINDS), 1)
        w.put("decision", len(DECISION_KINDS) + 1, float(d.seat == me))
    w.put("decision", len(DECISION_KINDS) + 2, float(v.combat is not None))
    limit = max(v.setup.turn_limit, 1)
    glob = [v.turn / limit, v.step / 1000, float(v.active == me), v.stars[me] / 4, v.stars[opp] / 4,
            v.home_turns[me] / 10, v.home_turns[opp] / 10, float(v.stalemate_open), v.map_token_supply / 9,
            v.map_token_trash / 9, v.decks.discovery / 40, v.decks.combat / 60, v.decks.encounter / 12,
            v.decks.factory / 21, v.decks.meloch / 10, len(v.combat_discard) / 60]
    for i, x in enumerate(glob):
        w.put("global", i, x)
    for col, seats in enumerate(v.track):
        for seat in seats:
            w.put("track", 2 * col + (0 if seat == me else 1), 1)
    meloch_ix = {m.id: i for i, m in enumerate(load().meloch_cards)}
    for card, rotated in v.meloch_row:
        if card in meloch_ix:
            w.put("meloch", 2 * meloch_ix[card] + int(rotated), 1)
    _board(w, v, me)
    _seat_block(w, "me", v.seats[me])
    _seat_block(w, "opp", v.seats[opp])
    _, _, combat, _ = _content_ids()
    types = combat_type_ids()
    own = v.seats[me].combat_card_ids or ()
    for cid in own:
        w.v[w.off["private"] + combat.index(types[cid])] += 0.25
    w.put("private", len(combat), len(v.known_facts) / 4)
    c = v.combat
    if c is not None:
        dial = c.dial_0 if me == 0 else c.dial_1
        vals = [float(c.attacker == me), float(c.defender == me), float(c.revealed), c.tucked[me] / 3,
                c.tucked[opp] / 3, (dial or 0) / 7]
        if c.totals is not None:
            vals += [c.totals[me] / 20, c.totals[opp] / 20]
        for i, x in enumerate(vals):
            w.put("combat", i, x)
    return np.asarray(w.v, dtype=np.float32)


def view_text(v: View) -> str:
    """The view as text for an agent or a log: the decision, the last events, then the view's JSON."""
    import msgspec

    lines = []
    if v.decision is not None:
        lines.append(f"decision: {v.tags[v.decision.seat]} {v.decision.kind}: {v.decision.prompt}")
    lines += [f"event: {e}" for e in v.events]
    lines.append(msgspec.json.encode(v).decode())
    return "\n".join(lines)
