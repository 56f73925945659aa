"""Conformance fuzzing: seeded random games over varied setups, checked at every step.

Every step: a legal action exists until the game ends, the chosen action applies, the component
invariants hold (``meloch.scenario.invariants``: 60 combat cards, 30 discovery cards, 12 corruption
and 9 map tokens, workers, stars, coins/power ranges). Every ``EXPENSIVE_EVERY``-th step: the JSON
round trip keeps ``state_hash``, ``apply`` leaves its input unchanged (hash before and after), and
every legal action applies (each result checked too). At the end: replaying the action list gives
the same final hash.

``--fuzz-games N`` sets the number of games (default 1000); they run in chunks so ``pytest -n``
spreads them.
"""

from __future__ import annotations

import math
import random

import pytest

from meloch.engine import (
    IllegalAction,
    apply,
    from_json,
    legal_actions,
    new_game,
    replay,
    state_hash,
    to_json,
)
from meloch.scenario.games import varied_setup
from meloch.scenario.invariants import check

CHUNK = 10
EXPENSIVE_EVERY = 29
FIRST_SEED = 100_000


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "chunk" in metafunc.fixturenames:
        n = int(metafunc.config.getoption("--fuzz-games"))
        metafunc.parametrize("chunk", range(math.ceil(n / CHUNK)))


def fuzz_game(i: int) -> int:
    """Play and check game ``i``; returns its number of steps. Raises AssertionError with the
    game, seed and step on any violation."""
    setup = varied_setup(i)
    seed = FIRST_SEED + i
    rng = random.Random(seed)
    s = new_game(setup, seed)
    actions: list[str] = []
    where = f"game {i} (seed {seed}, {setup.variant}, {setup.map_side}/{setup.track_side})"
    while True:
        bad = check(s)
        assert not bad, f"{where} step {s.step}: {bad}"
        acts = legal_actions(s)
        if s.winner >= 0:
            assert not acts, f"{where}: legal actions after the end"
            break
        assert acts, f"{where} step {s.step}: no legal action but the game is not over (frames {s.frames[-1:]})"
        a = acts[rng.randrange(len(acts))]
        if s.step % EXPENSIVE_EVERY == 0:
            h = state_hash(s)
            assert state_hash(from_json(to_json(s))) == h, f"{where} step {s.step}: JSON round trip changes the hash"
            for other in acts:
                try:
                    nxt = apply(s, other)
                except IllegalAction as err:  # pragma: no cover - reported by the assert
                    raise AssertionError(f"{where} step {s.step}: legal {other} refused: {err}") from None
                bad = check(nxt)
                assert not bad, f"{where} step {s.step} after {other}: {bad}"
            assert state_hash(s) == h, f"{where} step {s.step}: apply changed its input state"
        s = apply(s, a)
        actions.append(str(a))
    final = replay(setup, seed, actions)
    assert state_hash(final) == state_hash(s), f"{where}: replaying {len(actions)} actions gives another state"
    return len(actions)


def test_fuzz(chunk: int, request: pytest.FixtureRequest) -> None:
    n = int(request.config.getoption("--fuzz-games"))
    for i in range(chunk * CHUNK, min(n, (chunk + 1) * CHUNK)):
        fuzz_game(i)


def test_setups_cover_the_variety() -> None:
    setups = [varied_setup(i) for i in range(80)]
    assert {s.map_side for s in setups} == {"jungle", "desert"}
    assert {s.track_side for s in setups} == {"A", "B"}
    assert {s.variant for s in setups} == {"standard", "scythe_vs_scythe", "expeditions_vs_expeditions"}
    assert len({x.faction for s in setups for x in s.seats if x.role == "scythe"}) == 10
    assert len({x.mech for s in setups for x in s.seats if x.role == "expeditions"}) == 8
    assert any(s.base_discoveries and any(x.role == "expeditions" for x in s.seats) for s in setups)
