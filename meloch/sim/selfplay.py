"""Random-vs-random self-play: one pure function per game, and a summary over many games.

``play_random_game(setup, seed)`` is deterministic: the game uses ``seed`` and the two random agents
use seeds derived from it (``meloch.agents.agent_seed``), so a record can be replayed with
``replay(record.setup, record.seed, list(record.actions))``.
"""

from __future__ import annotations

import traceback
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

import msgspec

from meloch.agents import agent_seed, make_agent, with_engine_seats
from meloch.engine import VARIANT_ROLES, Setup, new_game, view
from meloch.sim.runner import DEFAULT_MAX_DECISIONS, GameRecord, RunnerError, play_game

SelfPlayError = RunnerError
"""The engine left a game without a legal action, or it ran past the decision cap."""

__all__ = ["DEFAULT_MAX_DECISIONS", "GameRecord", "SelfPlayError", "SelfPlaySummary", "agent_seeds", "make_setup",
           "play_random_game", "run_selfplay"]


def agent_seeds(seed: int) -> tuple[int, int]:
    """The two agents' seeds for game ``seed`` (the registry's one rule)."""
    return agent_seed(seed, 0), agent_seed(seed, 1)


def make_setup(map_side: str = "jungle", track_side: str = "A", variant: str = "standard",
               turn_limit: int = 300) -> Setup:
    """A setup with the default components for ``variant``'s roles."""
    if variant not in VARIANT_ROLES:
        raise ValueError(f"unknown variant {variant!r}; choose one of {', '.join(VARIANT_ROLES)}")
    r0, r1 = VARIANT_ROLES[variant]
    return msgspec.convert({"map_side": map_side, "track_side": track_side, "variant": variant,
                            "seats": [{"role": r0}, {"role": r1}], "turn_limit": turn_limit}, Setup)


def play_random_game(setup: Setup | None, seed: int, max_decisions: int = DEFAULT_MAX_DECISIONS,
                     agents: tuple[str, str] = ("random", "random")) -> GameRecord:
    """Play one game between two agents (random by default; ``automa:N[+threat]`` names a seat the
    engine's Automa plays: the runner turns it into the setup option) to its end."""
    players = [make_agent(name, agent_seed(seed, seat)) for seat, name in enumerate(agents)]
    return play_game(setup, seed, players, max_decisions=max_decisions)


@dataclass
class SelfPlaySummary:
    tags: tuple[str, str]
    records: list[GameRecord] = field(default_factory=list)
    errors: list[tuple[int, str]] = field(default_factory=list)
    """(seed, traceback text) of each game that raised."""

    @property
    def games(self) -> int:
        return len(self.records) + len(self.errors)

    def wins_by_tag(self) -> Counter[str]:
        c: Counter[str] = Counter()
        for r in self.records:
            if r.outcome is not None and r.outcome.winner is not None:
                c[self.tags[r.outcome.winner]] += 1
            else:
                c["none"] += 1
        return c

    def wins_by_reason(self) -> Counter[tuple[str, str]]:
        c: Counter[tuple[str, str]] = Counter()
        for r in self.records:
            o = r.outcome
            who = self.tags[o.winner] if o is not None and o.winner is not None else "none"
            c[(who, o.reason if o is not None else "unfinished")] += 1
        return c

    def turn_limit_games(self) -> int:
        return sum(1 for r in self.records if r.outcome is not None and r.outcome.reason == "turn limit")

    def mean_turns(self) -> float:
        return sum(r.turns for r in self.records) / len(self.records) if self.records else 0.0

    def mean_decisions(self) -> float:
        return sum(r.decisions for r in self.records) / len(self.records) if self.records else 0.0


def run_selfplay(setup: Setup, seeds: Iterable[int], on_game: Callable[[int], None] | None = None,
                 max_decisions: int = DEFAULT_MAX_DECISIONS,
                 agents: tuple[str, str] = ("random", "random")) -> SelfPlaySummary:
    """Play one game per seed (random agents unless ``agents`` names others); an exception in a
    game is recorded, not raised."""
    setup = with_engine_seats(setup, agents)
    tags = view(new_game(setup, 0), None).tags
    summary = SelfPlaySummary(tags=(str(tags[0]), str(tags[1])))
    for seed in seeds:
        try:
            summary.records.append(play_random_game(setup, seed, max_decisions, agents))
        except Exception:
            summary.errors.append((seed, traceback.format_exc()))
        if on_game is not None:
            on_game(seed)
    return summary
