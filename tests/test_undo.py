"""Undo as an engine question (``undo_refusal`` / ``undo_point``): each condition that stops an undo."""

from __future__ import annotations

from collections.abc import Iterator

from meloch.engine import Setup, apply, decision, legal_actions, new_game, undo_point, undo_refusal
from meloch.engine.model import State
from meloch.scenario.games import random_game, varied_setup

REASONS = {
    "opponent": "the last action was your opponent's, not yours.",
    "handover": "it ended your part of the turn.",
    "rng": "it used a random draw or shuffle.",
    "decks": "it drew or revealed cards.",
    "secret": "it made a secret choice or showed hidden information (undo never goes back past one).",
}


def _game_steps(g: int) -> list[tuple[State, State]]:
    out: list[tuple[State, State]] = []
    prev: State | None = None
    for s, _a in random_game(varied_setup(g), 400 + g):
        if prev is not None:
            out.append((prev, s))
        prev = s
    return out


STEPS = [step for g in range(6) for step in _game_steps(g)]
SEEN = ("allowed", "handover", "rng", "secret")
"""The conditions the sample must meet at least once."""


def _sizes(s: State) -> tuple[int, ...]:
    return (len(s.discovery_deck), len(s.discovery_discard), len(s.combat_deck), len(s.combat_discard),
            len(s.encounter_deck), len(s.factory_cards), len(s.meloch_deck), len(s.map_token_supply))


def test_an_own_step_without_secrets_or_chance_can_be_undone() -> None:
    s0 = new_game(Setup(), 3)
    s1 = apply(s0, legal_actions(s0)[0])  # E token all: no draw, E still decides
    assert undo_refusal(s0, s1, 1) is None and not undo_point(s0, s1, 1)


def _until_each_condition_is_seen(found: dict[str, int], most: int = 40) -> Iterator[tuple[State, State]]:
    """STEPS, then further random games until every condition has been met (a refusal for a
    random draw is rare, and which games meet it moves with the content)."""
    yield from STEPS
    for g in range(6, most):
        if all(found.get(k) for k in SEEN):
            return
        yield from _game_steps(g)


def test_each_condition_is_seen_and_holds() -> None:
    found: dict[str, int] = {}
    for b, after in _until_each_condition_is_seen(found):
        d0 = decision(b)
        assert d0 is not None
        mover = d0.seat
        # the other seat can never take back this step
        assert undo_refusal(b, after, 1 - mover) == REASONS["opponent"]
        r = undo_refusal(b, after, mover)
        assert undo_point(b, after, mover) == (r is not None)
        d1 = decision(after)
        if r is None:
            assert d1 is not None and d1.seat == mover and b.turn == after.turn
            assert b.rng == after.rng and b.known == after.known
            assert not any(e.private_to >= 0 for e in after.events)
            found["allowed"] = found.get("allowed", 0) + 1
            continue
        key = next(k for k, v in REASONS.items() if v == r) if r in REASONS.values() else r
        found[key] = found.get(key, 0) + 1
        if key == "handover":
            assert d1 is None or d1.seat != mover or b.turn != after.turn
        elif key == "rng":
            assert b.rng != after.rng
        elif key == "decks":
            assert _sizes(b) != _sizes(after)
        elif key == "secret":
            assert b.known != after.known or any(e.private_to >= 0 for e in after.events)
    for key in SEEN:
        assert found.get(key), (key, found)


def test_the_opponents_step_is_an_undo_point_for_me() -> None:
    for b, after in STEPS[:200]:
        d0 = decision(b)
        assert d0 is not None
        assert undo_point(b, after, 1 - d0.seat)
