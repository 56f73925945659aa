"""Helpers for the Expeditions rules tests: build a position, play actions, drain choices."""

from __future__ import annotations

from typing import Any

import msgspec

from meloch.engine import Action, SeatSetup, Setup, State, apply, decision, legal_actions, new_game
from meloch.engine.model import ExpSeat, ScytheSeat
from meloch.scenario.invariants import check
from meloch.scenario.patch import fresh_turn


def position(
    mech: str = "voyager",
    seed: int = 0,
    *,
    map_side: str = "jungle",
    hand: tuple[str, ...] = (),
    active: tuple[tuple[str, str], ...] = (),
    exp: dict[str, Any] | None = None,
    scythe: dict[str, Any] | None = None,
    state: dict[str, Any] | None = None,
    token: str = "refresh",
    turn: bool = True,
) -> State:
    """A jungle duel where E (seat 1) is about to shift its action token from ``token`` (default:
    after a Refresh turn, so "E token all").

    ``hand``/``active`` are E's cards (taken out of the deck, lakes or discard, so every card stays
    in one place; a lake that loses its card gets a deck card). No map tokens are on the board
    (they are all in the supply) unless ``state`` says otherwise."""
    setup = Setup(map_side=map_side, seats=(SeatSetup(role="scythe"), SeatSetup(role="expeditions", mech=mech)))
    s = new_game(setup, seed)
    p = s.seats[1]
    assert isinstance(p, ExpSeat)
    tucked = {c for k in ("upgraded", "melded", "solved") for c in (exp or {}).get(k, ())}
    wanted = set(hand) | {c for c, _ in active} | tucked
    own = {p.character, p.companion}
    deck = [c for c in s.discovery_deck if c not in wanted]
    lakes = []
    for lake, c in s.lakes:
        if c in wanted:
            c = deck.pop()
        lakes.append((lake, c))
    discard = tuple(c for c in s.discovery_discard if c not in wanted)
    if not hand and not active:
        hand = tuple(own)
    else:
        hand = tuple(hand) + tuple(c for c in own if c not in wanted)
    fields: dict[str, Any] = {"hand": hand, "active": active, "token": token}
    fields.update(exp or {})
    np = msgspec.structs.replace(p, **fields)
    sp = s.seats[0]
    assert isinstance(sp, ScytheSeat)
    nsp = msgspec.structs.replace(sp, **(scythe or {}))
    # combat cards and corruption tokens given to a seat leave the deck / the board
    held = set(np.combat_cards) | set(nsp.combat_cards)
    cdeck = tuple(c for c in s.combat_deck if c not in held)
    cdeck += tuple(c for c in (*sp.combat_cards, *p.combat_cards) if c not in held)
    cor = set(np.corruption)
    stacks = tuple((loc, tuple(t for t in st if t not in cor)) for loc, st in s.corruption)
    base: dict[str, Any] = {
        "seats": (nsp, np), "discovery_deck": tuple(deck), "lakes": tuple(lakes), "discovery_discard": discard,
        "map_tokens": (), "map_token_supply": tuple(t for _, t in s.map_tokens) + s.map_token_supply,
        "combat_deck": cdeck, "corruption": tuple((loc, st) for loc, st in stacks if st),
    }
    base.update(state or {})
    if "map_token_supply" not in (state or {}):
        taken = set(np.map_tokens) | {t for _, t in base["map_tokens"]}
        base["map_token_supply"] = tuple(t for t in base["map_token_supply"] if t not in taken)
    s = msgspec.structs.replace(s, **base)
    if turn:
        s = fresh_turn(s, 1)
    errs = check(s)
    assert not errs, errs
    return s


def play(s: State, *actions: str) -> State:
    for a in actions:
        s = apply(s, a)
        errs = check(s)
        assert not errs, (a, errs)
    return s


def legal(s: State) -> list[str]:
    return [str(a) for a in legal_actions(s)]


def first(s: State, verb: str) -> str:
    """The first legal action with ``verb``."""
    acts = [a for a in legal_actions(s) if a.verb == verb]
    assert acts, f"no {verb!r} action among {legal(s)}"
    return str(acts[0])


def drain(s: State, stop: tuple[str, ...] = ("e_actions", "turn_end", "e_token")) -> State:
    """Take the first legal action until the decision is one of ``stop`` (or another seat's)."""
    for _ in range(50):
        d = decision(s)
        if d is None or d.kind in stop or d.seat != 1:
            return s
        acts: list[Action] = legal_actions(s)
        s = play(s, str(acts[0]))
    raise AssertionError("drain did not stop")


def ex(s: State) -> ExpSeat:
    p = s.seats[1]
    assert isinstance(p, ExpSeat)
    return p


def sc(s: State) -> ScytheSeat:
    p = s.seats[0]
    assert isinstance(p, ScytheSeat)
    return p
