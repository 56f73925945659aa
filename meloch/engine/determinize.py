"""Determinization: a full state consistent with what one seat knows, hidden parts re-sampled.

``determinize(state, seat, rng)`` is what a search agent (ISMCTS) samples from: the result has the
same ``view(·, seat)``, the same legal actions when ``seat`` decides and the same events as seen by
``seat``, but everything hidden from ``seat`` is drawn again with the caller's ``random.Random``
(never the game's RNG, which is itself replaced, since the RNG is hidden too):

- deck orders: combat, discovery, encounter and Meloch decks, the set-aside map tokens;
- the face-down Factory cards (any of the cards not seen, including the one returned to the box);
- the opponent's combat cards: exchanged with unseen cards of the combat deck, so each pile keeps
  its size (an Expeditions discovery hand is face up and kept);
- face-down map tokens on the board, and Scythe seats' gained map tokens (no one sees their ids),
  permuted among all unseen map tokens;
- during a combat before the reveal: the opponent's Power Dial (within its power and 7) and which
  of its cards it tucked (the number of tucked cards is public);
- the opponent's pending "keep one of two" cards, its private knowledge and private event texts.

Kept: the seat's own hand, combat cards and pending choices, every public pile (discards, lakes,
active rows, corruption, the Meloch row, used encounters), component counts, and what the seat
learned (``state.known``): cards it peeked at stay where they are, and after taking a Factory card
the seat knows the other one. A Scythe seat deciding which Factory card to keep sees them, so they
stay too.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TypeVar

import msgspec

from meloch.engine import frames as K
from meloch.engine.cards import factory_pool
from meloch.engine.game_content import bound
from meloch.engine.model import AutomaState, Seat, State
from meloch.engine.tx import is_scythe

T = TypeVar("T")

def _is_combat_token(x: str) -> bool:
    return len(x) > 1 and x[0] == "c" and x[1:].isdigit()


def _pinned(state: State, seat: int) -> tuple[set[int], set[str], bool]:
    """(combat ids, discovery ids, factory cards known) that ``seat`` has learned from peeks and
    Factory draws; those cards are never moved."""
    combat: set[int] = set()
    discovery: set[str] = set()
    factory = False
    for k in state.known:
        if k.seat != seat:
            continue
        if k.kind == "factory":
            factory = True
        elif k.deck == "combat":
            combat.update(int(c[1:]) for c in k.cards)
        else:
            discovery.update(k.cards)
    return combat, discovery, factory


def _fill(slots: Sequence[T], pinned: set[T], pool: list[T]) -> tuple[T, ...]:
    """``slots`` with every unpinned entry replaced, in order, by the next item of ``pool``."""
    if not pinned or pinned.isdisjoint(slots):  # the usual case: every slot is re-drawn
        k = len(slots)
        got = tuple(pool[:k])
        del pool[:k]
        return got
    out = list(slots)
    k = 0
    for i, x in enumerate(out):
        if x not in pinned:
            out[i] = pool[k]
            k += 1
    del pool[:k]
    return tuple(out)


def _shuffled(rng: random.Random, items: Sequence[T]) -> list[T]:
    """``items`` in a uniformly random order drawn by ``rng`` alone. Sorted first, so that two states
    the seat cannot tell apart give the same sample for the same ``rng`` (what makes a search agent's
    choice depend only on what its seat sees); then sorted by one random key each: ``random.shuffle``
    draws in Python one bounded integer per item (about 1 us each), the keys are drawn in C (a tie,
    with 53-bit keys, keeps the earlier item first)."""
    base: list[T] = sorted(items)  # type: ignore[type-var]
    if len(base) < 2:
        return base
    rand = rng.random
    keys = [rand() for _ in base]
    return [base[i] for i in sorted(range(len(base)), key=keys.__getitem__)]


@bound
def determinize(state: State, seat: int, rng: random.Random) -> State:
    """A copy of ``state`` with everything hidden from ``seat`` re-sampled with ``rng``."""
    s = state
    opp = 1 - seat
    pin_combat, pin_disc, factory_known = _pinned(s, seat)
    seats: list[Seat] = [s.seats[0], s.seats[1]]
    o = s.seats[opp]
    frames = list(s.frames)
    combat = s.combat

    # ---- combat cards: deck + the opponent's hand + its pending keep-1 draws
    keep_idx = [i for i, f in enumerate(frames) if f.kind == K.KEEP1 and f.seat == opp]
    keep_combat = [int(x[1:]) for i in keep_idx for x in frames[i].items if _is_combat_token(x)]
    opp_hand = list(o.combat_cards)
    tucked_n = len(combat.cards[opp]) if combat is not None and not combat.revealed else 0
    pool = [*s.combat_deck, *opp_hand, *keep_combat]
    if pin_combat:
        pool = [c for c in pool if c not in pin_combat]
    pool = _shuffled(rng, pool)
    new_opp_hand = _fill(opp_hand, pin_combat, pool)
    new_keep = _fill(keep_combat, pin_combat, pool)
    combat_deck = _fill(s.combat_deck, pin_combat, pool)

    # ---- discovery cards: deck + the opponent's keep-1 draws. An Expeditions hand is face up
    # ("cards you control are always face up"), so it is never re-sampled.
    keep_disc = [x for i in keep_idx for x in frames[i].items if not _is_combat_token(x)]
    fixed_disc = set(pin_disc)
    dpool = _shuffled(rng, [x for x in (*s.discovery_deck, *keep_disc) if x not in fixed_disc] if fixed_disc
                      else [*s.discovery_deck, *keep_disc])
    new_keep_disc = _fill(keep_disc, fixed_disc, dpool)
    discovery_deck = _fill(s.discovery_deck, fixed_disc, dpool)

    # ---- the opponent's seat and its pending keep-1 frames
    seats[opp] = msgspec.structs.replace(o, combat_cards=new_opp_hand)
    ci, di = iter(new_keep), iter(new_keep_disc)
    for i in keep_idx:
        items = tuple(f"c{next(ci)}" if _is_combat_token(x) else next(di) for x in frames[i].items)
        frames[i] = msgspec.structs.replace(frames[i], items=items)

    # ---- combat: the opponent's unrevealed dial and tucked cards
    if combat is not None and not combat.revealed and combat.dial[opp] >= 0:
        dial = rng.randint(0, min(7, seats[opp].power))
        new_dial = (dial, combat.dial[1]) if opp == 0 else (combat.dial[0], dial)
        hand = list(seats[opp].combat_cards)
        tucked = tuple(rng.sample(hand, tucked_n)) if tucked_n <= len(hand) else combat.cards[opp]
        cards = (tucked, combat.cards[1]) if opp == 0 else (combat.cards[0], tucked)
        combat = msgspec.structs.replace(combat, dial=new_dial, cards=cards)

    # ---- the opponent's armed (face-down) traps: their kinds are permuted among themselves
    op = seats[opp]
    traps: tuple[tuple[str, str, bool], ...] = getattr(op, "traps", ())
    if is_scythe(op) and sum(1 for t in traps if t[2]) > 1:
        kinds = _shuffled(rng, [k for _, k, armed in traps if armed])
        seats[opp] = msgspec.structs.replace(
            op, traps=tuple((loc, kinds.pop() if armed else k, armed) for loc, k, armed in traps))

    # ---- map tokens: face down on the board, set aside, and held by Scythe seats
    held = [(i, p) for i, p in enumerate(seats) if is_scythe(p) and p.map_tokens]
    tpool = _shuffled(rng, [*(t for _, t in s.map_tokens), *s.map_token_supply,
                            *(t for _, p in held for t in p.map_tokens)])
    map_tokens = tuple((loc, tpool.pop()) for loc, _ in s.map_tokens)
    map_token_supply = tuple(tpool.pop() for _ in s.map_token_supply)
    for i, p in held:
        seats[i] = msgspec.structs.replace(p, map_tokens=tuple(tpool.pop() for _ in p.map_tokens))

    # ---- Factory cards (face down; the unchosen one went back to the box)
    factory_cards = s.factory_cards
    deciding_factory = bool(frames) and frames[-1].kind == K.S_FACTORY and frames[-1].seat == seat
    if s.factory_cards and not factory_known and not deciding_factory:
        taken = {p.factory_card for p in seats if is_scythe(p)}
        taken |= {c for p in seats if is_scythe(p) for c in getattr(p, "tech_cards", ())}
        unseen = [f.id for f in factory_pool(s.setup) if f.id not in taken]
        factory_cards = tuple(rng.sample(unseen, len(s.factory_cards)))

    # ---- what only the opponent knows or read
    known = tuple(k for k in s.known if k.seat != opp)
    events = tuple(msgspec.structs.replace(e, text=e.public_text, data=e.public_data)
                   if e.private_to >= 0 and e.private_to != seat else e for e in s.events)

    return msgspec.structs.replace(
        s,
        rng=rng.getrandbits(64),
        seats=(seats[0], seats[1]),
        frames=tuple(frames) if keep_idx else s.frames,
        combat=combat,
        combat_deck=combat_deck,
        discovery_deck=discovery_deck,
        encounter_deck=tuple(_shuffled(rng, s.encounter_deck)),
        meloch_deck=tuple(_shuffled(rng, s.meloch_deck)),
        factory_cards=factory_cards,
        map_tokens=map_tokens,
        map_token_supply=map_token_supply,
        known=known,
        events=events,
        automa=_automa(s.automa, rng),
    )


def _automa(a: AutomaState | None, rng: random.Random) -> AutomaState | None:
    """The Automa's deck orders are hidden from everyone (its discards and current card are not)."""
    if a is None:
        return None
    return msgspec.structs.replace(a, action_deck=tuple(_shuffled(rng, a.action_deck)),
                                   support_deck=tuple(_shuffled(rng, a.support_deck)))

