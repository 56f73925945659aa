"""ISMCTS: information-set Monte Carlo tree search over the agent's own decisions.

Each iteration draws a fresh sample of the game from the seat's information (``Sampler``, i.e.
``determinize`` on the agent's behalf), then walks a tree whose nodes are the seat's own decisions,
keyed by the sequence of its own actions (an *open-loop* tree). Everything else happens in the
sample and never becomes a tree edge:

- the opponent's decisions are played by a fixed opponent model (the one-ply heuristic policy), so
  its secret simultaneous choices (Power Dial, tucked cards) and whatever it holds are never visible
  to the searcher: two samples that differ there reach the same node;
- chance (draws, Meloch cards) comes from the sample's own RNG, re-drawn with every sample;
- forced decisions (one option: about a quarter of the ~500 per game) are applied without a node,
  so the tree spends its depth on real choices.

Selection is UCB1 with availability counts (an action legal in some samples only is judged against
the visits of the samples where it was available) plus a progressive bias ``bias * prior / (n+1)``,
where the prior is the heuristic evaluation of the action's result, computed once when the child is
created. A new leaf is scored by a truncated playout: with ``finish_turn`` (every level) the seat's own turn
is first finished greedily, as the heuristic agent's look-ahead does, so every leaf is judged at the
end of an own turn; then ``playout`` decisions of the one-ply greedy policy for both seats (none at
the levels), then ``evaluate``. (Judging leaves a few decisions into a random opponent's turn made
the search prefer whatever ended its own turn soonest: docs/agents.md.) The chosen action is the
most visited root child.

Levels (``LEVELS``) differ in iterations; ``meloch ladder`` measures their strength and time per
move. A time budget (``seconds``) may replace or cap the iteration budget.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field

from meloch.agents.base import Sampler
from meloch.agents.evaluate import advantage, evaluate
from meloch.agents.heuristic import DEFAULT_DEPTH, dial_rule, greedy_line, reason, ruled_choice
from meloch.engine import Action, State, View, apply, legal_actions, view


@dataclass(frozen=True)
class Params:
    iterations: int = 300
    seconds: float = 0.0
    """CPU-time budget per decision (0: none); the search stops at whichever budget ends first."""
    c: float = 0.7
    """UCB exploration constant (values are in [-1, 1])."""
    bias: float = 1.0
    """Progressive-bias weight of the heuristic prior."""
    playout: int = 4
    """Decisions of the greedy policy after a new leaf before the evaluation."""
    max_depth: int = 12
    """Own decisions below the root that may become tree nodes."""
    opponent: str = "greedy"
    """The opponent model inside the search: ``greedy`` (one-ply heuristic) or ``random`` (cheaper:
    about five times the iterations per second)."""
    finish_turn: bool = False
    """Playout: first finish the seat's own turn greedily (the heuristic agent's look-ahead, up to
    ``DEFAULT_DEPTH`` steps), so leaves are judged at the end of an own turn; then ``playout``
    decisions as usual (docs/agents.md: leaves judged mid-way through a random opponent's turn
    reward ending the own turn early)."""


LEVELS: dict[str, Params] = {
    "easy": Params(iterations=20, playout=0, opponent="random", finish_turn=True),
    "medium": Params(iterations=100, playout=0, opponent="random", finish_turn=True),
    "hard": Params(iterations=400, playout=0, opponent="random", finish_turn=True),
}
"""The named levels (``ismcts:easy`` ...); time per move is measured by ``meloch ladder``."""


@dataclass
class Node:
    visits: int = 0
    total: float = 0.0
    avail: int = 0
    prior: float = 0.0
    children: dict[str, Node] = field(default_factory=dict)


@dataclass
class Choice:
    """A root option after a search: its share of the visits and its mean value."""

    action: str
    visits: int
    share: float
    value: float


def greedy_step(state: State, legal: list[Action], rng: random.Random) -> State:
    """The opponent model and playout policy: the child with the best one-ply ``advantage`` for the
    deciding seat (ties by ``rng``); the Power Dial by ``dial_rule``."""
    seat = legal[0].seat
    if legal[0].verb == "dial":
        rule = dial_rule(view(state, seat), legal)
        if rule is not None:
            return apply(state, rule)
    best: tuple[float, float, State] | None = None
    for a in legal:
        child = apply(state, a)
        key = (advantage(child, seat), rng.random(), child)
        if best is None or key[:2] > best[:2]:
            best = key
    assert best is not None
    return best[2]


class Search:
    """One search from one decision of ``seat``; ``run`` fills the root's statistics."""

    def __init__(self, seat: int, sampler: Sampler, params: Params, rng: random.Random) -> None:
        self.seat, self.sampler, self.p, self.rng = seat, sampler, params, rng
        self.root = Node()
        self.iterations = 0

    def run(self) -> None:
        with self.sampler.bound():
            self._run()

    def _run(self) -> None:
        if self.p.seconds <= 0:  # the clock is not read at all: it costs (a system call per read)
            while self.iterations < self.p.iterations:
                self.iterate()
                self.iterations += 1
            return
        deadline = time.process_time() + self.p.seconds
        while self.iterations < self.p.iterations and time.process_time() < deadline:
            self.iterate()
            self.iterations += 1

    def _opponent_moves(self, s: State) -> tuple[State, list[Action]]:
        """Plays forced steps and the opponent's decisions; returns the state and the legal actions
        of the seat's next real choice (empty: the game ended)."""
        while True:
            legal = legal_actions(s)
            if not legal:
                return s, []
            if len(legal) == 1:
                s = apply(s, legal[0])
            elif legal[0].seat != self.seat:
                s = greedy_step(s, legal, self.rng) if self.p.opponent == "greedy" else \
                    apply(s, legal[self.rng.randrange(len(legal))])
            else:
                return s, legal

    def iterate(self) -> None:
        me = self.seat
        s = self.sampler.sample(self.rng)
        node, path, depth = self.root, [self.root], 0
        legal = legal_actions(s)
        while legal and depth <= self.p.max_depth:
            keys = [str(a) for a in legal]
            for k in keys:
                child = node.children.get(k)
                if child is not None:
                    child.avail += 1
            fresh = [i for i, k in enumerate(keys) if k not in node.children]
            if fresh:
                # Expand every new option with its prior (this sample's one-ply evaluation), then take
                # the most promising new one and stop: it is the new leaf.
                best_i, best_prior, best_child = -1, -math.inf, s
                for i in fresh:
                    child_state = apply(s, legal[i])
                    prior = evaluate(child_state, me)
                    node.children[keys[i]] = Node(avail=1, prior=prior)
                    if prior > best_prior:
                        best_i, best_prior, best_child = i, prior, child_state
                leaf = node.children[keys[best_i]]
                path.append(leaf)
                s = best_child  # (apply is deterministic: the state the prior judged)
                break
            best_k, best_score, best_a = "", -math.inf, legal[0]
            for a, k in zip(legal, keys, strict=True):
                ch = node.children[k]
                if ch.visits == 0:
                    score = 10.0 + ch.prior  # unvisited (created in another sample): first, by prior
                else:
                    score = (ch.total / ch.visits + self.p.c * math.sqrt(math.log(max(1, ch.avail)) / ch.visits)
                             + self.p.bias * ch.prior / (ch.visits + 1))
                if score > best_score:
                    best_k, best_score, best_a = k, score, a
            node = node.children[best_k]
            path.append(node)
            s = apply(s, best_a)
            depth += 1
            s, legal = self._opponent_moves(s)
        value = self.playout(s)
        for n in path:
            n.visits += 1
            n.total += value

    def playout(self, s: State) -> float:
        """Up to ``playout`` decisions (forced ones free): the seat's own by the greedy policy, the
        opponent's by the opponent model; then the evaluation."""
        if self.p.finish_turn:
            s = greedy_line(s, self.seat, DEFAULT_DEPTH)
        n = 0
        while n < self.p.playout:
            legal = legal_actions(s)
            if not legal:
                break
            if len(legal) == 1:
                s = apply(s, legal[0])
                continue
            n += 1
            if legal[0].seat == self.seat or self.p.opponent == "greedy":
                s = greedy_step(s, legal, self.rng)
            else:
                s = apply(s, legal[self.rng.randrange(len(legal))])
        return evaluate(s, self.seat)

    def ranked(self) -> list[Choice]:
        total = sum(ch.visits for ch in self.root.children.values()) or 1
        out = [Choice(k, ch.visits, ch.visits / total, ch.total / ch.visits if ch.visits else 0.0)
               for k, ch in self.root.children.items()]
        out.sort(key=lambda c: (-c.visits, -c.value, c.action))
        return out


class ISMCTSAgent:
    """The search agent (see the module docstring); ``level`` names its ``Params`` in ``LEVELS``."""

    uses_view = True
    uses_sampler = True

    def __init__(self, seed: int = 0, level: str = "medium", params: Params | None = None) -> None:
        if params is None and level not in LEVELS:  # ``ismcts:N`` passes its own params
            raise ValueError(f"unknown ISMCTS level {level!r}; choose one of {', '.join(LEVELS)}")
        self.params = params or LEVELS[level]
        self.name = f"ismcts:{level}"
        self.rng = random.Random(seed)
        self.last: Search | None = None

    def choose(self, view: View | None, legal: list[Action]) -> Action:
        """Without a sampler it cannot search: uniform choice."""
        return legal[self.rng.randrange(len(legal))]

    def search(self, legal: list[Action], sampler: Sampler) -> Search:
        s = Search(legal[0].seat, sampler, self.params, self.rng)
        s.run()
        self.last = s
        return s

    def choose_from(self, view: View, legal: list[Action], sampler: Sampler) -> Action:
        rule = ruled_choice(view, legal)
        if rule is not None:
            return rule
        best = self.search(legal, sampler).ranked()[0].action
        return next(a for a in legal if str(a) == best)


@dataclass(frozen=True)
class Hint:
    action: str
    share: float
    reason: str


def hint(sampler: Sampler, legal: list[Action], seed: int = 0, level: str = "hard", top: int = 3) -> list[Hint]:
    """The ``level`` agent's ``top`` options for the deciding seat with their share of visits and a
    one-line reason: what the evaluation gains most from the option followed by the greedy rest of
    the seat's turn, on one sample of the seat's information."""
    if not legal:
        return []
    if len(legal) == 1:
        return [Hint(str(legal[0]), 1.0, "the only option")]
    agent = ISMCTSAgent(seed, level)
    ranked = agent.search(legal, sampler).ranked()[:top]
    sample = sampler.sample(random.Random(seed))
    by_text = {str(a): a for a in legal}
    return [Hint(c.action, c.share, reason(sample, by_text[c.action])) for c in ranked]
