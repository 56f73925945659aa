"""The engine protocol: notation, JSON, value semantics, refusals, setup validation."""

from __future__ import annotations

import random

import pytest

from meloch.engine import (
    IllegalAction,
    SeatSetup,
    Setup,
    SetupError,
    apply,
    decision,
    from_json,
    legal_actions,
    new_game,
    outcome,
    parse,
    state_hash,
    to_json,
    view_json,
)
from meloch.engine.model import State


def random_states(seed: int, n: int, setup: Setup | None = None) -> list[State]:
    """Up to n consecutive states of one seeded random game."""
    s = new_game(setup, seed)
    rng = random.Random(seed)
    out = [s]
    while outcome(s) is None and len(out) < n:
        s = apply(s, rng.choice(legal_actions(s)))
        out.append(s)
    return out


def test_new_game_waits_for_expeditions_first_turn() -> None:
    s = new_game(Setup(), 1)
    d = decision(s)
    assert d is not None and d.seat == 1 and d.kind == "e_token"
    assert [str(a) for a in legal_actions(s)] == ["E token all"]


@pytest.mark.parametrize("seed", range(6))
def test_notation_round_trips_for_every_legal_action(seed: int) -> None:
    setup = Setup(map_side="desert" if seed % 2 else "jungle", track_side="B" if seed % 3 else "A")
    for s in random_states(seed, 400, setup):
        for a in legal_actions(s):
            assert parse(str(a)) == a
            assert str(parse(str(a))) == str(a)


def test_json_round_trip_mid_resolution() -> None:
    """A state with pending frames (mid-resolution) survives to_json/from_json and plays on alike."""
    found = 0
    for seed in range(20):
        for s in random_states(seed, 300):
            if len(s.frames) >= 3:
                t = from_json(to_json(s))
                assert state_hash(t) == state_hash(s)
                assert legal_actions(t) == legal_actions(s)
                a = legal_actions(s)[0]
                assert state_hash(apply(t, a)) == state_hash(apply(s, a))
                found += 1
    assert found > 50


def test_apply_never_changes_the_callers_state() -> None:
    for s in random_states(3, 300):
        before = state_hash(s)
        for a in legal_actions(s)[:5]:
            apply(s, a)
        assert state_hash(s) == before


def test_refusal_codes() -> None:
    s = new_game(Setup(), 2)
    with pytest.raises(IllegalAction) as e:
        apply(s, "S section 1")
    assert e.value.code == "not_your_turn"
    with pytest.raises(IllegalAction) as e:
        apply(s, "E move 3")
    assert e.value.code == "wrong_decision" and "token" in e.value.message
    with pytest.raises(IllegalAction) as e:
        apply(s, "E token gather")
    assert e.value.code == "illegal_choice" and "E token all" in e.value.message
    with pytest.raises(IllegalAction) as e:
        apply(s, "hello")
    assert e.value.code == "bad_notation"
    with pytest.raises(IllegalAction) as e:
        parse("X token all")
    assert e.value.code == "bad_notation"


def test_refusal_to_wrong_seat_reveals_no_options() -> None:
    """During the opponent's secret choices a refusal must not list the opponent's options."""
    s = new_game(Setup(), 2)
    with pytest.raises(IllegalAction) as e:
        apply(s, "S section 1")
    assert "token" not in e.value.message


def test_game_over_refuses_everything() -> None:
    s = new_game(Setup(turn_limit=2), 5)
    rng = random.Random(5)
    while outcome(s) is None:
        s = apply(s, rng.choice(legal_actions(s)))
    o = outcome(s)
    assert o is not None and o.winner is None and o.reason == "turn limit"
    assert legal_actions(s) == [] and decision(s) is None
    with pytest.raises(IllegalAction) as e:
        apply(s, "E token all")
    assert e.value.code == "game_over"


@pytest.mark.parametrize(
    ("setup", "words"),
    [
        (Setup(map_side="moon"), "unknown map side"),
        (Setup(track_side="C"), "unknown track side"),
        (Setup(seats=(SeatSetup(role="scythe", faction="atlantis"), SeatSetup(role="expeditions"))), "faction"),
        (Setup(seats=(SeatSetup(role="scythe", mat="lazy"), SeatSetup(role="expeditions"))), "player mat"),
        (Setup(seats=(SeatSetup(role="scythe"), SeatSetup(role="expeditions", mech="zeppelin"))), "mech"),
        (Setup(seats=(SeatSetup(role="scythe"), SeatSetup(role="scythe"))), "variant standard"),
        (Setup(seats=(SeatSetup(role="scythe", stars_to_win=1), SeatSetup(role="expeditions"))), "stars_to_win"),
        (Setup(seats=(SeatSetup(role="scythe", stars_to_win=3), SeatSetup(role="expeditions", stars_to_win=2))),
         "less experienced"),
    ],
)
def test_setup_errors_are_clear(setup: Setup, words: str) -> None:
    with pytest.raises(SetupError, match=words):
        new_game(setup, 1)


def test_views_hide_the_seed_and_rng() -> None:
    s = random_states(4, 50)[-1]
    for seat in (0, 1, None):
        text = str(view_json(s, seat))
        assert str(s.rng) not in text
        assert "rng" not in view_json(s, seat) and "seed" not in view_json(s, seat)
