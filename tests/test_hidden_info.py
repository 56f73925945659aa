"""Hidden information: views, legal actions and events reveal nothing a determinization changes.

For (state, seat) pairs from random games over varied setups: ``determinize(state, seat, rng)``
re-samples everything hidden from ``seat``; the view, the legal actions (when ``seat`` decides) and
``events_for(state.events, seat)`` must be byte-identical (``json.dumps(sort_keys=True)``) between the
original and the re-sampled state; the events include their typed data, so a private event's data
(a card drawn, a peek) must not reach another seat. Each view and event list is also scanned for
identifiers of the other seat's private components (its combat cards by name and id). An
Expeditions hand is face up: it is in every view and a determinization keeps it.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import msgspec
import pytest

from meloch.engine import (
    Known,
    Setup,
    State,
    apply,
    decision,
    events_for,
    legal_actions,
    new_game,
    state_hash,
    view_json,
)
from meloch.engine.cards import combat_name
from meloch.engine.determinize import determinize
from meloch.engine.model import ExpSeat
from meloch.scenario.games import random_game, varied_setup
from meloch.scenario.invariants import check

SAMPLE_EVERY = 4


def _dump(x: Any) -> str:
    return json.dumps(msgspec.to_builtins(x), sort_keys=True)


def secrets_of(state: State, seat: int) -> list[str]:
    """Text fragments that only ``seat`` may see: its combat cards (name and instance id; in typed
    event data a combat card is ``"id": n``)."""
    p = state.seats[seat]
    return [combat_name(c) for c in p.combat_cards]


def _leaks(dumped: str, secrets: list[str]) -> list[str]:
    found = []
    for sec in secrets:
        if sec.startswith('"'):
            if sec in dumped:
                found.append(sec)
        elif re.search(re.escape(sec) + r"(?!\d)", dumped):
            found.append(sec)
    return found


def check_pair(state: State, seat: int, rng: random.Random) -> State:
    d = determinize(state, seat, rng)
    where = f"step {state.step} (seed {state.seed}), seat {seat}"
    bad = check(d)
    assert not bad, f"{where}: the determinization breaks invariants: {bad}"
    v1, v2 = view_json(state, seat), view_json(d, seat)
    if _dump(v1) != _dump(v2):
        keys = [k for k in v1 if _dump(v1[k]) != _dump(v2.get(k))]
        raise AssertionError(f"{where}: views differ in {keys}")
    dec = decision(state)
    if dec is not None and dec.seat == seat:
        l1 = _dump([str(a) for a in legal_actions(state)])
        l2 = _dump([str(a) for a in legal_actions(d)])
        assert l1 == l2, f"{where}: legal actions differ ({dec.kind})"
    assert _dump(events_for(state.events, seat)) == _dump(events_for(d.events, seat)), f"{where}: events differ"
    public_part = {k: v for k, v in v1.items() if k not in ("known", "known_facts")}  # its own peeks may name them
    leaks = _leaks(_dump(public_part), secrets_of(state, 1 - seat))
    assert not leaks, f"{where}: the view shows the other seat's private {leaks}"
    opp = state.seats[1 - seat]
    if isinstance(opp, ExpSeat):  # face up: shown and never re-sampled
        assert v1["seats"][1 - seat]["hand_cards"] == list(opp.hand), f"{where}: the Expeditions hand is not shown"
        assert d.seats[1 - seat].hand == opp.hand, f"{where}: the Expeditions hand was re-sampled"
    for e in events_for(state.events, seat):  # typed data of another seat's private events: public side only
        if e.private:
            assert not _leaks(_dump(e), secrets_of(state, 1 - seat)), f"{where}: event data leaks {e}"
            if e.data is not None and hasattr(e.data, "cards"):
                assert not e.data.cards, f"{where}: a private draw names its cards to seat {seat}: {e}"
    return d


def test_hidden_information(request: pytest.FixtureRequest) -> None:
    want = int(request.config.getoption("--hidden-pairs"))
    rng = random.Random(7)
    pairs = changed = 0
    g = 0
    while pairs < want:
        for s, _a in random_game(varied_setup(g), 50_000 + g):
            if s.step % SAMPLE_EVERY:
                continue
            for seat in (0, 1):
                d = check_pair(s, seat, rng)
                pairs += 1
                changed += state_hash(d) != state_hash(s)
                if pairs % 50 == 0:  # a determinization is a playable state
                    acts = legal_actions(d)
                    if acts:
                        bad = check(apply(d, rng.choice(acts)))
                        assert not bad, f"game {g} step {s.step}: playing on a determinization: {bad}"
            spectator = _dump(view_json(s, None)) + _dump(events_for(s.events, None))
            for seat in (0, 1):
                assert not _leaks(spectator, secrets_of(s, seat)), f"game {g} step {s.step}: spectator sees seat {seat}"
        g += 1
    assert pairs >= want
    assert changed > 0.9 * pairs, f"only {changed} of {pairs} determinizations changed anything"


def test_determinize_keeps_what_the_seat_knows() -> None:
    s = new_game(Setup(), 3)
    top2 = s.combat_deck[-2:]
    s = msgspec.structs.replace(s, known=(Known(seat=1, kind="peek", deck="combat",
                                                 cards=tuple(f"c{c}" for c in reversed(top2))),))
    rng = random.Random(1)
    for _ in range(20):
        d = determinize(s, 1, rng)
        assert d.combat_deck[-2:] == top2
        assert d.seats[1] == s.seats[1]
        assert d.combat_discard == s.combat_discard and d.lakes == s.lakes
        assert sorted(d.combat_deck + d.seats[0].combat_cards) == sorted(s.combat_deck + s.seats[0].combat_cards)
    # the Scythe seat does not know the peek: its determinizations move those cards
    moved = {determinize(s, 0, rng).combat_deck[-2:] for _ in range(20)}
    assert len(moved) > 1


def test_determinize_resamples_the_opponents_hand_and_tokens() -> None:
    s = new_game(Setup(), 5)
    rng = random.Random(2)
    hands = {determinize(s, 1, rng).seats[0].combat_cards for _ in range(30)}
    tokens = {determinize(s, 0, rng).map_tokens for _ in range(30)}
    assert len(hands) > 1 and len(tokens) > 1
    d = determinize(s, 0, rng)
    assert d.seats[0] == s.seats[0]
    assert d.rng != s.rng
    assert s == new_game(Setup(), 5)  # the input is not changed


@pytest.mark.parametrize("automa_seat", [0, 1])
def test_hidden_information_in_automa_games(automa_seat: int) -> None:
    """Solo games: the human's views, actions and events do not depend on the Automa's deck order or
    its combat cards (``determinize`` re-samples both), and the Automa's cards never leak."""
    from meloch.engine import AutomaSetup

    rng = random.Random(11)
    pairs = reordered = 0
    human = 1 - automa_seat
    for g in range(3):
        setup = msgspec.structs.replace(varied_setup(0), automa=AutomaSetup(seat=automa_seat, level=1 + 2 * g,
                                                                            threat=g == 1))
        for s, _a in random_game(setup, 60_000 + g):
            if s.step % SAMPLE_EVERY:
                continue
            d = check_pair(s, human, rng)
            pairs += 1
            assert s.automa is not None and d.automa is not None
            assert sorted(d.automa.action_deck) == sorted(s.automa.action_deck)
            assert sorted(d.automa.support_deck) == sorted(s.automa.support_deck)
            assert d.automa.action_discard == s.automa.action_discard
            reordered += (d.automa.action_deck != s.automa.action_deck
                          or d.automa.support_deck != s.automa.support_deck)
    assert pairs > 30
    assert reordered > 0.5 * pairs, f"only {reordered} of {pairs} determinizations re-ordered the Automa's decks"
