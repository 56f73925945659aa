"""The Scythe player's rules: coverage of the scenario files in tests/scenarios/scythe/ (one per
faction and mech ability at least; tests/test_scenarios.py runs them), and random self-play over
every faction x mat combination."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from meloch.content import load
from meloch.engine import SeatSetup, Setup, apply, legal_actions, new_game, outcome
from meloch.scenario import run_file

HERE = Path(__file__).parent / "scenarios" / "scythe"
SCENARIOS = sorted(HERE.glob("*.yaml"))


def test_enough_scythe_scenarios() -> None:
    assert len(SCENARIOS) >= 60


def _abilities() -> list[str]:
    c = load()
    names = {f.ability for f in c.factions.values()}
    names |= {m.ability for f in c.factions.values() for m in f.mechs}
    return sorted(names)


@pytest.mark.parametrize("ability", _abilities())
def test_every_scythe_ability_has_its_scenario(ability: str) -> None:
    """One test per faction ability and per mech ability: ``ability_<key>.yaml`` pins it."""
    path = HERE / f"ability_{ability}.yaml"
    assert path.exists(), f"no scenario pins the Scythe ability {ability!r} ({path.name})"
    result = run_file(path)
    if not result.ok:
        pytest.fail(result.report(), pytrace=False)


def _combos() -> list[tuple[str, str]]:
    c = load()
    return [(f, m) for f in sorted(c.factions) for m in sorted(c.mats)]


def _random_games(faction: str, mat: str, games: int) -> None:
    for seed in range(games):
        setup = Setup(map_side=("jungle", "desert")[seed % 2], track_side=("A", "B")[(seed // 2) % 2],
                      seats=(SeatSetup(role="scythe", faction=faction, mat=mat), SeatSetup(role="expeditions")))
        s = new_game(setup, seed)
        rng = random.Random(seed)
        while outcome(s) is None:
            acts = legal_actions(s)
            assert acts, f"{faction}/{mat} seed {seed}: no legal action at step {s.step}"
            s = apply(s, rng.choice(acts))


@pytest.mark.parametrize(("faction", "mat"), _combos())
def test_selfplay_one_game_per_combination(faction: str, mat: str) -> None:
    _random_games(faction, mat, 1)


@pytest.mark.slow
@pytest.mark.parametrize(("faction", "mat"), _combos())
def test_selfplay_twenty_games_per_combination(faction: str, mat: str) -> None:
    _random_games(faction, mat, 20)
