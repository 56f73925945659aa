"""The ladder behind ``meloch ladder``: seat-swapped round robins between agents, win rates with 95%
confidence intervals, an Elo-like rating and each agent's CPU time per move.

Every pair of agents plays the same deals in both seat orders: for each seed, both map sides and
both track sides, A as seat 0 (Scythe in the standard game) then B as seat 0, so a pairing's games
number ``8 * seeds``. A draw (turn limit without a winner) counts half. Time per move is CPU time
(``time.process_time``) of the agent's non-forced decisions.

``role`` keeps only the games in which the later agent of each pair holds that role: an agent's play in
one role never depends on its settings for the other (``search:A/B``), so a setting for one role is
measured at half the cost, and such games pool with a full run's games of that role.
"""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import accumulate

import msgspec

from meloch.agents import Agent, Sampler, agent_settings, make_agent, wants_sampler, with_engine_seats
from meloch.engine import Action, Setup, State, View, apply, content_of, new_game, using
from meloch.sim import stats
from meloch.sim.runner import play_game

MAP_SIDES = ("jungle", "desert")
TRACK_SIDES = ("A", "B")
ROLES = ("scythe", "expeditions")


class LadderGame(msgspec.Struct, frozen=True):
    """One game: ``agents[seat]`` played ``seat``; ``winner`` is a seat or -1 (draw)."""

    agents: tuple[str, str]
    map_side: str
    track_side: str
    seed: int
    winner: int
    decisions: int
    turns: int
    move_seconds: tuple[tuple[float, ...], tuple[float, ...]]
    """CPU seconds of each seat's non-forced decisions."""
    actions: tuple[str, ...] = ()
    """Every action of the game in order (none in files written before 2026-12-06). With the deal they
    rebuild every position (``replay_game``) without the agents: a ladder between search agents costs
    about 20 CPU-s a game, so its games are the data a judge learnt from such play would need."""
    turn_limit: int = 300
    """The deal's turn limit (``replay_game`` builds the setup with it)."""
    settings: tuple[str, str] = ("", "")
    """Each seat's ``agent_settings`` when the game was played ("" in files written before stop 55): a
    level name keeps its name when its settings change, and ``run_ladder`` will not resume over that."""


class Interval(msgspec.Struct, frozen=True):
    rate: float
    low: float
    high: float
    games: int


class PairResult(msgspec.Struct, frozen=True):
    """``a``'s score against ``b``, overall and per role ``a`` played."""

    a: str
    b: str
    overall: Interval
    by_role: dict[str, Interval]


class TimeResult(msgspec.Struct, frozen=True):
    agent: str
    moves: int
    p50_ms: float
    p95_ms: float


class LadderResult(msgspec.Struct, frozen=True):
    agents: tuple[str, ...]
    seeds: int
    games: tuple[LadderGame, ...]
    pairs: tuple[PairResult, ...]
    ratings: dict[str, float]
    times: tuple[TimeResult, ...]


@dataclass(frozen=True)
class GameSpec:
    agents: tuple[str, str]
    map_side: str
    track_side: str
    seed: int
    turn_limit: int = 300


def schedule(agents: Sequence[str], seeds: int, first_seed: int = 1, turn_limit: int = 300,
             role: str | None = None) -> list[GameSpec]:
    """Every pair, every seed, both map and track sides, both seat orders (the same seeds for both);
    with ``role`` (one of ``ROLES``) only the games in which the pair's later agent holds that role."""
    if role is not None and role not in ROLES:
        raise ValueError(f"unknown role {role!r}; choose one of {', '.join(ROLES)}")
    out: list[GameSpec] = []
    for i, a in enumerate(agents):
        for b in agents[i + 1:]:
            for k in range(seeds):
                for m in MAP_SIDES:
                    for t in TRACK_SIDES:
                        seed = first_seed + k
                        if role != ROLES[0]:
                            out.append(GameSpec((a, b), m, t, seed, turn_limit))
                        if role != ROLES[1]:
                            out.append(GameSpec((b, a), m, t, seed, turn_limit))
    return out


@dataclass
class _Timed:
    """Wraps an agent to record the CPU time of its non-forced decisions."""

    agent: Agent
    seconds: list[float] = field(default_factory=list)

    @property
    def name(self) -> str:
        return self.agent.name

    @property
    def uses_view(self) -> bool:
        return self.agent.uses_view

    @property
    def uses_sampler(self) -> bool:
        return wants_sampler(self.agent)

    def choose(self, view: View | None, legal: list[Action]) -> object:
        t = time.process_time()
        out = self.agent.choose(view, legal)
        if len(legal) > 1:
            self.seconds.append(time.process_time() - t)
        return out

    def choose_from(self, view: View, legal: list[Action], sampler: Sampler) -> object:
        t = time.process_time()
        out = self.agent.choose_from(view, legal, sampler)  # type: ignore[attr-defined]
        if len(legal) > 1:
            self.seconds.append(time.process_time() - t)
        return out


def play(spec: GameSpec) -> LadderGame:
    """One ladder game; the agents are seeded from the game seed and the agent's name, so the same
    agent plays the same way in both seat orders of a deal."""
    timed = [_Timed(make_agent(name, _agent_seed(spec.seed, name))) for name in spec.agents]
    setup = deal_setup(spec.agents, spec.map_side, spec.track_side, spec.turn_limit)
    rec = play_game(setup, spec.seed, timed)  # type: ignore[arg-type]
    winner = -1 if rec.outcome is None or rec.outcome.winner is None else rec.outcome.winner
    return LadderGame(spec.agents, spec.map_side, spec.track_side, spec.seed, winner, rec.decisions, rec.turns,
                      (tuple(timed[0].seconds), tuple(timed[1].seconds)), rec.actions, spec.turn_limit,
                      (agent_settings(timed[0].agent), agent_settings(timed[1].agent)))


def deal_setup(agents: Sequence[str], map_side: str, track_side: str, turn_limit: int) -> Setup:
    """The setup of a ladder deal: what ``play`` plays and ``replay_game`` rebuilds."""
    return with_engine_seats(Setup(map_side=map_side, track_side=track_side, turn_limit=turn_limit), agents)


def replay_game(game: LadderGame) -> list[State]:
    """Every position of a recorded ladder game, from the deal and its actions (the engine alone, no
    agent is asked): the first is the deal, the last the final position."""
    if not game.actions:
        raise ValueError("this ladder game has no actions recorded (a file written before 2026-12-06)")
    setup = deal_setup(game.agents, game.map_side, game.track_side, game.turn_limit)
    with using(content_of(setup)):
        return list(accumulate(game.actions, apply, initial=new_game(setup, game.seed)))


def _agent_seed(seed: int, name: str) -> int:
    return seed * 1_000_003 + sum((i + 1) * ord(ch) for i, ch in enumerate(name))


def wilson(score: float, n: int) -> Interval:
    """Win rate ``score / n`` with its Wilson 95% interval (draws count half in ``score``)."""
    low, high = stats.wilson(score, n)
    return Interval(score / n if n else 0.0, low, high, n)


def seat_score(g: LadderGame, seat: int) -> float:
    """``seat``'s points in ``g``: 1 for a win, 0 for a loss, a draw 0.5."""
    return 0.5 if g.winner < 0 else float(g.winner == seat)


def against(games: Iterable[LadderGame], opponent: str) -> Iterator[tuple[LadderGame, int]]:
    """Each game ``opponent`` played against another agent, with that agent's seat (what the measuring
    tools compare a candidate by; a mirror game of ``opponent`` says nothing of another agent)."""
    for g in games:
        if opponent in g.agents and g.agents[0] != g.agents[1]:
            yield g, 1 - g.agents.index(opponent)


def _score(g: LadderGame, name: str) -> tuple[float, int]:
    """(points, seat) of ``name`` in ``g``."""
    seat = g.agents.index(name)
    return seat_score(g, seat), seat


def pair_result(games: Iterable[LadderGame], a: str, b: str) -> PairResult:
    mine = [g for g in games if set(g.agents) == {a, b}]
    total = sum(_score(g, a)[0] for g in mine)
    by_role: dict[str, Interval] = {}
    for seat, role in enumerate(ROLES):
        sub = [g for g in mine if g.agents[seat] == a]
        by_role[role] = wilson(sum(_score(g, a)[0] for g in sub), len(sub))
    return PairResult(a, b, wilson(total, len(mine)), by_role)


def ratings(agents: Sequence[str], games: Sequence[LadderGame], iterations: int = 200) -> dict[str, float]:
    """Elo-like ratings (Bradley-Terry fit by minorise-maximise, 400 points per factor 10 in odds),
    the first agent anchored at 0. Half a win is added to both sides of every pairing so that a
    clean sweep keeps a finite rating."""
    wins = {(x, y): 0.5 for x in agents for y in agents if x != y}
    for g in games:
        x, y = g.agents
        if g.winner < 0:
            wins[(x, y)] += 0.5
            wins[(y, x)] += 0.5
        else:
            w, l_ = (x, y) if g.winner == 0 else (y, x)
            wins[(w, l_)] += 1
    strength = dict.fromkeys(agents, 1.0)
    for _ in range(iterations):
        for x in agents:
            num = sum(wins[(x, y)] for y in agents if y != x)
            den = sum((wins[(x, y)] + wins[(y, x)]) / (strength[x] + strength[y]) for y in agents if y != x)
            strength[x] = num / den if den else strength[x]
    base = strength[agents[0]]
    return {x: 400 * math.log10(strength[x] / base) for x in agents}


def times(agents: Sequence[str], games: Sequence[LadderGame]) -> list[TimeResult]:
    out = []
    for name in agents:
        xs = sorted(t for g in games for seat in (0, 1) if g.agents[seat] == name for t in g.move_seconds[seat])
        if not xs:
            out.append(TimeResult(name, 0, 0.0, 0.0))
            continue
        out.append(TimeResult(name, len(xs), 1000 * statistics.median(xs),
                              1000 * xs[min(len(xs) - 1, int(0.95 * len(xs)))]))
    return out


def spec_key(agents: tuple[str, str], map_side: str, track_side: str, seed: int) -> tuple[object, ...]:
    """What names one scheduled game (a game of a stopped run is matched to its spec by it)."""
    return (agents, map_side, track_side, seed)


def _check_settings(games: Sequence[LadderGame]) -> None:
    """``ValueError`` when a stored game's agent played by other settings than the same name does now."""
    now: dict[str, str] = {}
    for g in games:
        for name, stored in zip(g.agents, g.settings, strict=True):
            current = now.setdefault(name, agent_settings(make_agent(name, 0)))
            if stored and stored != current:
                raise ValueError(f"{name} now plays by other settings than in the stored games (settings {stored}, "
                                 f"now {current}), so their games cannot be resumed together: start a new --out, "
                                 "or name the old settings as a spec (search:s8t6r1w3, ismcts:N)")


def run_ladder(agents: Sequence[str], seeds: int, *, first_seed: int = 1, turn_limit: int = 300, jobs: int = 1,
               on_game: Callable[[LadderGame], None] | None = None,
               done: Sequence[LadderGame] = (), role: str | None = None) -> LadderResult:
    """Play the whole schedule (``jobs`` worker processes; ``role``: see ``schedule``) and summarise
    it. ``done``: games of a stopped run of the same schedule; their specs are not played again
    (resume), and they count."""
    if len(set(agents)) != len(agents) or len(agents) < 2:
        raise ValueError("the ladder needs at least two different agents")
    for name in agents:
        make_agent(name, 0)  # a clear error for an unknown name before any game
    specs = schedule(agents, seeds, first_seed, turn_limit, role)
    wanted = {spec_key(x.agents, x.map_side, x.track_side, x.seed) for x in specs}
    games: list[LadderGame] = [g for g in done if spec_key(g.agents, g.map_side, g.track_side, g.seed) in wanted]
    _check_settings(games)
    have = {spec_key(g.agents, g.map_side, g.track_side, g.seed) for g in games}
    specs = [x for x in specs if spec_key(x.agents, x.map_side, x.track_side, x.seed) not in have]
    if jobs > 1:
        from multiprocessing import get_context

        with get_context("spawn").Pool(jobs) as pool:
            for g in pool.imap_unordered(play, specs):
                games.append(g)
                if on_game:
                    on_game(g)
    else:
        for spec in specs:
            g = play(spec)
            games.append(g)
            if on_game:
                on_game(g)
    return summarise(agents, seeds, games)


def summarise(agents: Sequence[str], seeds: int, games: Sequence[LadderGame]) -> LadderResult:
    """The ladder's figures from its games (also from a stopped run's ``.games.jsonl``)."""
    games = sorted(games, key=lambda g: (g.agents, g.seed, g.map_side, g.track_side))
    pairs = tuple(pair_result(games, a, b) for i, a in enumerate(agents) for b in agents[i + 1:])
    return LadderResult(tuple(agents), seeds, tuple(games), pairs, ratings(agents, games), tuple(times(agents, games)))


def load_games(data: bytes) -> list[LadderGame]:
    """Games from a ladder file: the summary JSON or the ``.games.jsonl`` lines."""
    text = data.strip()
    if text.startswith(b"{") and b"\n{" not in text:
        return list(msgspec.json.decode(text, type=LadderResult).games)
    return [msgspec.json.decode(line, type=LadderGame) for line in text.splitlines() if line.strip()]
