"""State invariants: component conservation, limits and ranges.

``check(state)`` returns a list of human-readable violations (empty when the state is sound). It is
used by the scenario patcher (a patched position must be a reachable-looking position) and by the
conformance fuzzer at every step, so it is written to be cheap: plain loops over tuples.

What is checked:

- combat cards: the 60 instances are each in exactly one place: the deck, the discard pile, the trash, a
  seat's hand, the combat in progress (tucked cards once revealed, Ambush extras, Element of
  Surprise draws) or a pending "keep one of two" choice;
- discovery cards: the 30 deck cards (items, meteorites, quests; plus base Expeditions' with
  ``Setup.base_discoveries``) are each in exactly one place;
  each Expeditions seat holds its own character and companion exactly once;
- map tokens: the 9 instances are each in exactly one place (board, set-aside supply, a seat, the
  trash of paid and trashed tokens); corruption tokens: the 12 instances likewise (stacks, seats,
  the trash) whenever an Expeditions seat plays (no corruption is used otherwise);
- Expeditions workers: at most 3 per colour across the seats, at most 1 hero worker per seat;
- Scythe: 8 workers (board + mat), 6 stars (track + unplaced + discarded), at most 4 mechs and
  structures; coins, power, popularity and guile within their ranges;
- the Triumph Track: one star per category except combat categories for a ``dominate`` faction,
  a seat never has more stars than it owns; the Meloch, encounter and Factory piles hold distinct
  known cards.
"""

from __future__ import annotations

from collections import Counter
from functools import cache

from meloch.content import get
from meloch.content.schema import Content
from meloch.engine.cards import combat_types, discovery_deck_ids
from meloch.engine.game_content import active, using
from meloch.engine.model import ExpSeat, ScytheSeat, State
from meloch.engine.track import token_list

N_COMBAT = 60
_ALL_COMBAT = frozenset(range(N_COMBAT))
POWER_CAP = {"scythe": 16, "expeditions": 10}


@cache
def _static(cid: str) -> tuple[frozenset[str], frozenset[str], frozenset[str], frozenset[str], frozenset[str], int]:
    """Component ids of content set ``cid`` (computed once per set)."""
    c = get(cid)
    with using(c):
        return _static_of(c)


Ids = frozenset[str]


def _static_of(c: Content) -> tuple[Ids, Ids, Ids, Ids, Ids, int]:
    return (
        frozenset(discovery_deck_ids()),  # the Duel's deck; ``check`` widens it for Setup.base_discoveries
        frozenset(t.id for t in c.map_tokens),
        frozenset(m.id for m in c.meloch_cards),
        frozenset(e.id for e in c.encounters),
        frozenset(f.id for f in c.factory_cards),
        len(token_list()),
    )


def _pool_ids(s: State) -> tuple[frozenset[str], frozenset[str]]:
    """(encounter ids, Factory card ids) this game uses: the Duel's, plus base Scythe's when the
    setup mixes them in (rulebook Setup 7-8)."""
    return _pools(s.setup.content, s.setup.base_encounters, s.setup.base_factory_cards)


@cache
def _pools(cid: str, base_encounters: bool, base_factory: bool) -> tuple[frozenset[str], frozenset[str]]:
    c = get(cid)
    return (frozenset(e.id for e in c.encounters if e.set == "duel" or base_encounters),
            frozenset(f.id for f in c.factory_cards if f.set == "duel" or base_factory))


@cache
def _all_cards(cid: str) -> frozenset[str]:
    return frozenset(get(cid).cards)


def _is_combat_token(x: str) -> bool:
    return len(x) > 1 and x[0] == "c" and x[1:].isdigit()


def combat_card_places(state: State) -> list[int]:
    """Every combat card instance where it is now (a card in two places appears twice)."""
    s = state
    out = [*s.combat_deck, *s.combat_discard, *s.combat_trash]
    for p in s.seats:
        out.extend(p.combat_cards)
    c = s.combat
    if c is not None:
        if c.revealed:
            out.extend(c.cards[0])
            out.extend(c.cards[1])
        out.extend(c.extra[0])
        out.extend(c.extra[1])
        out.extend(c.drawn[0])
        out.extend(c.drawn[1])
    for f in s.frames:
        if f.kind == "keep1":
            out.extend(int(x[1:]) for x in f.items if _is_combat_token(x))
    return out


def discovery_card_places(state: State) -> list[str]:
    s = state
    out = [*s.discovery_deck, *s.discovery_discard, *s.discovery_trash]
    out.extend(c for _, c in s.lakes if c)
    for p in s.seats:
        if isinstance(p, ExpSeat):
            out.extend(p.hand)
            out.extend(c for c, _ in p.active)
            out.extend(p.solved)
            out.extend(p.upgraded)
            out.extend(p.melded)
    for f in s.frames:
        if f.kind == "keep1":
            out.extend(x for x in f.items if not _is_combat_token(x))
    return out


def _dupes(items: list[str] | list[int]) -> list[str]:
    return sorted(str(k) for k, n in Counter(items).items() if n > 1)


def check(state: State) -> list[str]:
    """Violations of the component and range invariants (empty list: all good), checked against the
    game's own content set."""
    with using(get(state.setup.content)):
        return _check(state)


def _check(state: State) -> list[str]:
    s = state
    deck_ids, token_ids, meloch_ids, _, _, n_corruption = _static(s.setup.content)
    if s.setup.base_discoveries:
        deck_ids = frozenset(discovery_deck_ids(True))
    encounter_ids, factory_ids = _pool_ids(s)
    drawn_meloch = [f.tag for f in s.frames if f.kind == "meloch_orient"]
    errs: list[str] = []
    # combat cards
    cc = combat_card_places(s)
    if len(cc) != N_COMBAT or set(cc) != _ALL_COMBAT:
        missing = sorted(set(range(N_COMBAT)) - set(cc))
        errs.append(f"combat cards: {len(cc)} placed (want {N_COMBAT}); duplicated {_dupes(cc)}, "
                    f"missing {missing}")
    if s.combat is not None and not s.combat.revealed:
        for i in (0, 1):
            if not set(s.combat.cards[i]) <= set(s.seats[i].combat_cards):
                errs.append(f"combat: seat {i} tucked cards it does not hold")
    # discovery cards
    dc = discovery_card_places(s)
    deck_part = [x for x in dc if x in deck_ids]
    if len(deck_part) != len(deck_ids) or len(set(deck_part)) != len(deck_ids):
        errs.append(f"discovery cards: {len(deck_part)} placed (want {len(deck_ids)}); duplicated "
                    f"{_dupes(deck_part)}, missing {sorted(deck_ids - set(deck_part))}")
    unknown = sorted({x for x in dc if x not in deck_ids} - _all_cards(s.setup.content))
    if unknown:
        errs.append(f"discovery cards: unknown ids {unknown}")
    # map tokens
    mt = [t for _, t in s.map_tokens] + list(s.map_token_supply) + list(s.map_token_trash)
    for p in s.seats:
        mt.extend(p.map_tokens)
    if len(mt) != len(token_ids) or set(mt) != token_ids:
        errs.append(f"map tokens: {len(mt)} placed (want {len(token_ids)}); duplicated {_dupes(mt)}, "
                    f"unknown {sorted(set(mt) - token_ids)}, missing {sorted(token_ids - set(mt))}")
    if len({loc for loc, _ in s.map_tokens}) != len(s.map_tokens):
        errs.append("map tokens: two tokens on one location")
    # corruption
    cor = [t for _, st in s.corruption for t in st] + list(s.corruption_trash)
    for p in s.seats:
        if isinstance(p, ExpSeat):
            cor.extend(p.corruption)
    want = n_corruption if any(isinstance(p, ExpSeat) for p in s.seats) else 0
    if len(cor) != want or sorted(cor) != list(range(want)):
        errs.append(f"corruption tokens: {len(cor)} placed (want {want}); duplicated {_dupes(cor)}, "
                    f"out of range or missing")
    if any(not st for _, st in s.corruption):
        errs.append("corruption: an empty stack is kept on the board")
    # piles
    for name, pile, known in (
        ("meloch cards", [*s.meloch_deck, *(c for c, _ in s.meloch_row), *drawn_meloch], meloch_ids),
        ("encounter cards", [*s.encounter_deck, *s.encounter_used], encounter_ids),
        ("factory cards", [*s.factory_cards, *(p.factory_card for p in s.seats
                                               if isinstance(p, ScytheSeat) and p.factory_card),
                           *(c for p in s.seats if isinstance(p, ScytheSeat) for c in getattr(p, "tech_cards", ()))],
         factory_ids),
    ):
        if len(set(pile)) != len(pile) or not known.issuperset(pile):
            errs.append(f"{name}: duplicated {_dupes(pile)}, unknown {sorted(set(pile) - known)}")
    n_meloch = len(s.meloch_deck) + len(s.meloch_row) + len(drawn_meloch)
    if n_meloch != len(meloch_ids):
        errs.append(f"meloch cards: {n_meloch} (want {len(meloch_ids)})")
    if len(s.encounter_deck) + len(s.encounter_used) != len(encounter_ids):
        errs.append(f"encounter cards: {len(s.encounter_deck) + len(s.encounter_used)} (want {len(encounter_ids)})")
    # seats
    per_colour: dict[str, int] = {}
    stars = [0, 0]
    for col in s.track:
        for who in col:
            stars[who] += 1
    for i, p in enumerate(s.seats):
        role = "scythe" if isinstance(p, ScytheSeat) else "expeditions"
        if p.coins < 0 or p.power < 0:
            errs.append(f"seat {i}: negative coins ({p.coins}) or power ({p.power})")
        if p.power > POWER_CAP[role]:
            errs.append(f"seat {i}: power {p.power} above the cap {POWER_CAP[role]}")
        if isinstance(p, ScytheSeat):
            if not 0 <= p.popularity <= 18:
                errs.append(f"seat {i}: popularity {p.popularity} outside 0..18")
            if len(p.workers) + p.workers_on_mat != 8 or p.workers_on_mat < 0:
                errs.append(f"seat {i}: {len(p.workers)} workers on the board + {p.workers_on_mat} on the mat != 8")
            if stars[i] + p.stars_unplaced + p.stars_discarded != 6 or p.stars_unplaced < 0 or p.stars_discarded < 0:
                errs.append(f"seat {i}: stars {stars[i]} placed + {p.stars_unplaced} unplaced + "
                            f"{p.stars_discarded} discarded != 6")
            if len(p.mechs) > 4 or len(p.mechs) != len(p.mech_slots) or len(set(p.mech_slots)) != len(p.mech_slots):
                errs.append(f"seat {i}: mechs {p.mechs} / slots {p.mech_slots} inconsistent")
            if len(p.structures) > 4 or any(n <= 0 for _, _, n in p.resources):
                errs.append(f"seat {i}: structures or resources out of range")
        else:
            if not 0 <= p.guile <= 10:
                errs.append(f"seat {i}: guile {p.guile} outside 0..10")
            ws = [*p.workers, *(w for _, w in p.active if w)]
            if ws.count("hero") > 1:
                errs.append(f"seat {i}: {ws.count('hero')} hero workers")
            for w in ws:
                per_colour[w] = per_colour.get(w, 0) + 1
            if stars[i] > 4:
                errs.append(f"seat {i}: {stars[i]} stars on the track (owns 4)")
            own = [x for x in (*p.hand, *(c for c, _ in p.active)) if x not in deck_ids]
            if len(own) != 2 or {p.character, p.companion} != set(own):
                errs.append(f"seat {i}: character/companion cards {own} (want {p.character}, {p.companion})")
    limit = active().supply.expeditions_workers_per_colour
    over = {k: n for k, n in per_colour.items() if n > limit and k != "hero"}
    if over:
        errs.append(f"expeditions workers above {limit} per colour: {over}")
    # track
    if s.track:
        cats = active().tracks[s.setup.track_side].categories
        for i, col in enumerate(s.track):
            if len(col) > 1 and not cats[i].combat:
                errs.append(f"track column {i + 1}: {len(col)} stars on a non-combat category")
    if s.winner in (0, 1) and stars[s.winner] < s.setup.seats[s.winner].stars_to_win and s.reason.endswith("stars"):
        errs.append(f"winner seat {s.winner} has only {stars[s.winner]} stars")
    return errs


def combat_type_name(cid: int) -> str:
    return combat_types()[cid].id
