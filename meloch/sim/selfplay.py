"""Random-vs-random self-play: one pure function per game, and a summary over many games.

``play_random_game(setup, seed)`` is deterministic: the game uses ``seed`` and the two random agents
use seeds derived from it (``agent_seeds``), so a record can be replayed with
``replay(record.setup, record.seed, list(record.actions))``.
"""

from __future__ import annotations

import traceback
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

import msgspec

from meloch.agents import RandomAgent
from meloch.engine import (
    Outcome,
    Setup,
    apply,
    decision,
    legal_actions,
    new_game,
    outcome,
    state_hash,
    view,
)

DEFAULT_MAX_DECISIONS = 1_000_000
"""Safety net against a game that never reaches the turn limit (an engine bug if it triggers)."""


class GameRecord(msgspec.Struct, frozen=True):
    setup: Setup
    seed: int
    actions: tuple[str, ...]
    outcome: Outcome | None
    turns: int
    decisions: int
    final_hash: str


class SelfPlayError(RuntimeError):
    """The engine left a game without a legal action, or it ran past the decision cap."""


def agent_seeds(seed: int) -> tuple[int, int]:
    """The two agents' seeds for game ``seed`` (distinct across seats and games)."""
    return 2 * seed + 1, 2 * seed + 2


def make_setup(map_side: str = "jungle", track_side: str = "A", variant: str = "standard",
               turn_limit: int = 300) -> Setup:
    """A setup with the default components for ``variant``'s roles."""
    roles = {"standard": ("scythe", "expeditions"), "scythe_vs_scythe": ("scythe", "scythe"),
             "expeditions_vs_expeditions": ("expeditions", "expeditions")}
    if variant not in roles:
        raise ValueError(f"unknown variant {variant!r}; choose one of {', '.join(roles)}")
    r0, r1 = roles[variant]
    return msgspec.convert({"map_side": map_side, "track_side": track_side, "variant": variant,
                            "seats": [{"role": r0}, {"role": r1}], "turn_limit": turn_limit}, Setup)


def play_random_game(setup: Setup | None, seed: int, max_decisions: int = DEFAULT_MAX_DECISIONS) -> GameRecord:
    """Play one game between two random agents to its end."""
    setup = setup or Setup()
    state = new_game(setup, seed)
    agents = tuple(RandomAgent(s) for s in agent_seeds(seed))
    actions: list[str] = []
    while True:
        d = decision(state)
        if d is None:
            break
        legal = legal_actions(state)
        if not legal:
            raise SelfPlayError(f"seed {seed}: no legal action for seat {d.seat} at {d.kind!r} "
                                f"(turn {state.turn}, after {len(actions)} actions)")
        if len(actions) >= max_decisions:
            raise SelfPlayError(f"seed {seed}: more than {max_decisions} decisions (turn {state.turn})")
        a = agents[d.seat].choose(view(state, d.seat), legal)
        state = apply(state, a)
        actions.append(str(a))
    return GameRecord(setup=setup, seed=seed, actions=tuple(actions), outcome=outcome(state), turns=state.turn,
                      decisions=len(actions), final_hash=state_hash(state))


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
                 max_decisions: int = DEFAULT_MAX_DECISIONS) -> SelfPlaySummary:
    """Play one random game per seed; an exception in a game is recorded, not raised."""
    tags = view(new_game(setup, 0), None).tags
    summary = SelfPlaySummary(tags=(str(tags[0]), str(tags[1])))
    for seed in seeds:
        try:
            summary.records.append(play_random_game(setup, seed, max_decisions))
        except Exception:
            summary.errors.append((seed, traceback.format_exc()))
        if on_game is not None:
            on_game(seed)
    return summary
