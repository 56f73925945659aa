"""Flat Monte Carlo over the heuristic's own lines: the heuristic agent, judged on many samples.

The heuristic agent ranks each option by one greedy line to the end of its own turn on *one* sample
of the hidden parts, so a lucky draw on that sample (a card, an encounter) decides the move. The ISMCTS
agent samples afresh every iteration but spreads its visits almost evenly over the options and backs
up the mean of exploratory lines (docs/agents.md): it chooses worse than the heuristic. This agent
keeps the heuristic's judgement and removes its noise:

- ``samples`` determinizations are drawn once per decision and *shared by every option* (common
  random numbers: two options are compared on the same draws, so their difference is far less noisy
  than either value);
- the first sample ranks every option by the heuristic's greedy line; only the ``top`` best go on
  (0: all), so the budget goes to the options that matter, not the free combat-card discards;
- each kept option is scored by the mean, over the samples, of the ``advantage`` after its greedy line,
  optionally (``reply``) after the opponent's greedy reply turn as well, and optionally over more own
  turns (``turns``: a Scythe plan often pays a turn later);
- optionally (``width``) the seat's next decision is searched too: an option is worth the best of its
  ``width`` best follow-ups' means, not its one greedy line (the greedy line picks a turn's details,
  which unit moves where after a section is chosen, by their one-step value);
- the choice is a softmax over the means with the heuristic's temperature (variety only among
  near-equal options). The Power Dial is set by the heuristic's rule; forced decisions at once.

Every sample comes from the ``Sampler`` with the agent's own RNG: the choice depends only on what its
seat sees and its seed.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass, replace

from meloch.agents.base import Sampler
from meloch.agents.evaluate import (
    TUNED_WEIGHTS,
    advantage,
    armed_advantage,
    boast_advantage,
    haul_advantage,
    race_advantage,
    tuned_advantage,
)
from meloch.agents.fitted import fitted_advantage, role_weighted_advantage
from meloch.agents.heuristic import (
    COMBAT_VERBS,
    DEFAULT_DEPTH,
    TUCK_BEST,
    TUCK_NONE,
    TUCK_OWN,
    combat_step,
    greedy_line,
    ruled_choice,
    softmax_pick,
)
from meloch.engine import Action, State, View, apply, legal_actions

MAX_FORCED = 64
"""Forced steps followed between the end of a line and the next real decision (a safety bound)."""


@dataclass(frozen=True)
class FlatParams:
    samples: int = 8
    """Determinizations per decision, shared by every option."""
    top: int = 0
    """Options kept after the first sample's ranking (0: all)."""
    reply: bool = False
    """Judge each line after the opponent's greedy reply turn too (else at the end of the own turn)."""
    turns: int = 1
    """Own turns in each line: past the first, the opponent's greedy reply and the seat's next greedy
    turn follow (a Scythe plan often pays a turn later: move a worker, then build)."""
    depth: int = DEFAULT_DEPTH
    """Greedy steps of each line (the heuristic's look-ahead)."""
    temperature: float = 0.1
    """Softmax temperature over the mean advantages, in score units (the heuristic's)."""
    judge: int = 0
    """What judges each line's end (the lines themselves stay the heuristic's): 0 the heuristic's
    ``advantage``; 1 the fitted evaluation (``fitted_advantage``: a weight per role and feature fitted
    to game outcomes); 2 the heuristic's scores with the opponent's weighted by the fitted ratio of the
    roles (``role_weighted_advantage``); 3 the heuristic's terms with its mechs and the combat at stake
    counted (``armed_advantage``, ``ARMED_WEIGHTS``); 4 the heuristic's terms with each open column's
    value discounted by the opponent's progress on it (``race_advantage``); 5 the heuristic's terms
    and the Expeditions mech's reach to a Boast (``boast_advantage``); 6 the heuristic's terms with the
    Meloch haul each seat's next star hands the other counted now (``haul_advantage``)."""
    width: int = 0
    """Second own decisions searched under each kept option (0: none, the greedy line decides it): when
    the seat decides again after the option, its ``width`` best next options (ranked on the first
    sample) are each judged on every sample, and the option is worth the best of their means (the
    greedy line is myopic about a turn's details: which unit moves where after a section is chosen)."""
    width2: int = 0
    """With ``width``: the seat's decision after that searched ``width2`` wide too (0: the greedy line)."""
    reply_width: int = 0
    """With ``reply``: the opponent's first decision of its reply turn searched ``reply_width`` wide
    against the seat (its options that rank highest by its own one-step ``advantage``, each followed
    by its greedy line; the line is worth the least of them to the seat). 0: the greedy reply."""
    race_turns: int = 0
    """In a race (either seat one star or less from winning, by the seat's view), own turns in each line
    in place of ``turns`` (0: ``turns`` throughout): a star one turn out decides a race, and a race is
    where half the games between the levels end (docs/agents.md, "Two own turns a line in a race only")."""
    tuck: int = TUCK_NONE
    """What the lines tuck in a combat (``combat_step``): no card (``TUCK_NONE``), each seat its best
    card (``TUCK_BEST``), the defender its best card and the attacker none (``TUCK_DEFENDER``), or the
    searching seat its best card and its opponent its best card when it defends (``TUCK_OWN``).
    Lines that tuck none judge an attack by the dials alone, which names the winner of about half the
    combats the searches fight (docs/agents.md, "Hard: lines that tuck a combat card")."""
    weights: int = 0
    """The weights of every line (both seats' greedy steps) and, with ``judge`` 0, of its end:
    0 the heuristic's ``WEIGHTS``; 1 ``TUNED_WEIGHTS`` (tuned by game results, tools/tune_weights.py)."""


FLAT_LEVELS: dict[str, FlatParams] = {
    "flat": FlatParams(samples=8, top=6),
    "flat-reply": FlatParams(samples=8, top=6, reply=True),
}
"""Named settings (``search:NAME``); ``search:s8t6r1n2`` names any other (registry). Their strength
against the heuristic and time per move: docs/agents.md."""

SEARCH_LEVELS: dict[str, tuple[FlatParams, FlatParams]] = {
    "medium": (FlatParams(samples=8, top=6, reply=True),
               FlatParams(samples=16, top=8, reply=True, width=3, tuck=TUCK_OWN)),
    "hard": (FlatParams(samples=8, top=6, reply=True, turns=2, width=3, temperature=0.0, tuck=TUCK_BEST),
             FlatParams(samples=16, top=8, reply=True, width=3, temperature=0.0, tuck=TUCK_OWN)),
}
"""The search opponents a player picks (``search:medium``, ``search:hard``): settings as Scythe and as
Expeditions. Both roles judge each line after the opponent's greedy reply turn (``reply``: the
Expeditions seat then sees the Scythe seat's attack on a mech it leaves exposed); the Expeditions
seat draws more samples, and ``hard``'s Scythe seat and every Expeditions seat search their own next
decision 3 wide (``width``: a section's details, a card's worker; 2026-12-03). ``hard`` always takes
the best mean (``temperature`` 0), where ``medium``'s softmax over means 0.05 score units apart
leaves its own best option in about a third of its decisions; as Scythe it plays two own turns a
line (``turns``: a plan that pays a turn later is seen, stop 55). The lines tuck a combat card
(``tuck``, stop 56): each Expeditions seat's lines its own best card and the opponent's best card
when the opponent defends (``TUCK_OWN``), where lines that tuck none judged an attack by the dials
alone; ``hard``'s Scythe lines each seat's best card (``TUCK_BEST``: the model for an opponent whose
attacks carry a card, as ``medium``'s Expeditions attacks do). ``medium``'s Scythe seat leaves its
next decision unsearched (stop 31's ``s8t6r1``), which keeps it above the issue's 65% against the
heuristic and leaves ``hard``'s Expeditions seat room over it. Chosen together by a rule written
before the games (docs/agents/stop59/plan.md, docs/agents/stop60/plan.md); the per-role figures and
time per move: docs/agents.md, "The levels of stop 60". At temperature 0 the choice hardly moves
with more samples, options or follow-ups (98-100% the same choice), so only the lines and their
judge make a level stronger."""


def next_decision(s: State, tuck: int = TUCK_NONE, me: int = -1) -> tuple[State, list[Action]]:
    """``s`` after its forced steps and the secret combat commits played by rule (``combat_step``, by
    ``tuck`` for the searching seat ``me``), with the legal actions of the next real decision (empty:
    the game ended)."""
    legal = legal_actions(s)
    for _ in range(MAX_FORCED):
        if not legal:
            break
        if len(legal) == 1:
            s = apply(s, legal[0])
        elif legal[0].verb in COMBAT_VERBS:
            nxt = combat_step(s, legal, tuck, me)
            if nxt is None:
                break
            s = nxt
        else:
            break
        legal = legal_actions(s)
    return s, legal


Judge = Callable[[State, int], float]
"""The value of a line's last state for a seat, in score units (``JUDGES``)."""

JUDGES: tuple[Judge, ...] = (advantage, fitted_advantage, role_weighted_advantage, armed_advantage, race_advantage,
                              boast_advantage, haul_advantage)
"""``FlatParams.judge`` -> the judge."""

LINE_WEIGHTS: tuple[dict[str, float] | None, ...] = (None, TUNED_WEIGHTS)
"""``FlatParams.weights`` -> the weights of the lines (None: ``WEIGHTS``)."""

LINE_ADVANTAGES: tuple[Judge, ...] = (advantage, tuned_advantage)
"""``FlatParams.weights`` -> ``advantage`` by those weights: the judge when ``FlatParams.judge`` is 0."""


def judge_of(p: FlatParams) -> Judge:
    """What judges ``p``'s lines: ``JUDGES[p.judge]``, or for the default judge, ``advantage`` by the
    lines' own weights."""
    return JUDGES[p.judge] if p.judge else LINE_ADVANTAGES[p.weights]


def line_value(state: State, seat: int, depth: int, reply: bool, turns: int = 1, judge: Judge = advantage,
               reply_width: int = 0, weights: dict[str, float] | None = None, tuck: int = TUCK_NONE) -> float:
    """``judge`` (``advantage`` by default) for ``seat`` after its greedy line from ``state`` (the
    heuristic's look-ahead); with ``turns`` > 1, ``turns - 1`` times the opponent's greedy reply then
    the seat's next greedy turn; with ``reply``, after the opponent's greedy line that follows the last
    own turn as well (its first decision searched ``reply_width`` wide against the seat: the least
    value over the opponent's best-ranked options, ``FlatParams.reply_width``). ``weights``: the
    greedy steps' (``FlatParams.weights``; None: ``WEIGHTS``). ``tuck``: ``FlatParams.tuck``."""
    s = greedy_line(state, seat, depth, weights, tuck, seat)
    for k in range(turns - 1 + reply):
        s, legal = next_decision(s, tuck, seat)
        if k == turns - 1 and reply_width > 0 and _own(legal, 1 - seat):
            opp = 1 - seat
            children = [apply(s, b) for b in legal]
            ranked = sorted(range(len(legal)), key=lambda i: -advantage(children[i], opp, weights))[:reply_width]
            return min(judge(greedy_line(children[i], opp, max(1, depth - 1), weights, tuck, seat), seat)
                       for i in ranked)
        if legal and legal[0].seat != seat:
            s = greedy_line(s, legal[0].seat, depth, weights, tuck, seat)
        if k == turns - 1:
            break  # the final reply
        s, legal = next_decision(s, tuck, seat)
        if legal and legal[0].seat == seat:
            s = greedy_line(s, seat, depth, weights, tuck, seat)
    return judge(s, seat)


def nested_value(samples: list[State], action: Action, seat: int, p: FlatParams, judge: Judge) -> float | None:
    """``action``'s value with the seat's next decisions searched (``FlatParams.width``, ``width2``):
    the best, over the seat's ``width`` next options that rank highest on the first sample, of their
    value (the mean line value over the samples, or with ``width2`` the same search one decision
    further). None when the seat does not decide next on the first sample: the plain mean then."""
    after = [next_decision(apply(s, action), p.tuck, seat) for s in samples]
    if not _own(after[0][1], seat):
        return None
    widths = (p.width, p.width2) if p.width2 > 0 else (p.width,)
    return _best_next(after, [False] * len(after), seat, widths, max(1, p.depth - 1), p, judge)


def _own(legal: list[Action], seat: int) -> bool:
    """A real decision (two options or more) of ``seat``."""
    return len(legal) >= 2 and legal[0].seat == seat


def _best_next(after: list[tuple[State, list[Action]]], lost: list[bool], seat: int, widths: tuple[int, ...],
               depth: int, p: FlatParams, judge: Judge) -> float:
    """The best mean over the samples ``after`` (each at the seat's decision) of its ``widths[0]`` next
    options ranked on the first sample, searching ``widths[1:]`` further decisions. A sample where the
    next option is not legal (a draw differed) is ``lost``: from there it plays the greedy line."""
    s0, legal0 = after[0]
    w = LINE_WEIGHTS[p.weights]
    tb = p.tuck
    ranked = sorted(legal0, key=lambda b: -line_value(apply(s0, b), seat, depth, False, 1, judge, 0, w, tb))[:widths[0]]
    best = -math.inf
    for b in ranked:
        gone = [was_lost or b not in legal for (_, legal), was_lost in zip(after, lost, strict=True)]
        starts = [s if g else apply(s, b) for (s, _), g in zip(after, gone, strict=True)]
        if len(widths) > 1 and depth > 1:
            deeper = [next_decision(x, tb, seat) for x in starts]
            if _own(deeper[0][1], seat):
                best = max(best, _best_next(deeper, gone, seat, widths[1:], depth - 1, p, judge))
                continue
        best = max(best, sum(line_value(x, seat, depth, p.reply, p.turns, judge, p.reply_width, w, tb)
                             for x in starts) / len(starts))
    return best


def in_race(view: View) -> bool:
    """Either seat one star or less from winning (``FlatParams.race_turns``)."""
    return any(view.stars[i] + 1 >= view.setup.seats[i].stars_to_win for i in (0, 1))


class FlatAgent:
    """Flat Monte Carlo over the heuristic's greedy lines (see the module docstring)."""

    uses_view = True
    uses_sampler = True

    def __init__(self, seed: int = 0, level: str = "flat", params: FlatParams | None = None,
                 by_role: dict[str, FlatParams] | None = None) -> None:
        if params is None and level not in FLAT_LEVELS:
            raise ValueError(f"unknown search level {level!r}; choose one of {', '.join(FLAT_LEVELS)}")
        self.params = params or FLAT_LEVELS[level]
        self.by_role = by_role or {}
        """Settings for a role ("scythe", "expeditions") in place of ``params``: the roles' plans
        differ (a Scythe plan often pays a turn later), so their best settings may too."""
        self.name = f"search:{level}"
        self.rng = random.Random(seed)

    def choose(self, view: View | None, legal: list[Action]) -> Action:
        """Without a sampler it cannot look ahead: uniform choice."""
        return legal[self.rng.randrange(len(legal))]

    def values(self, legal: list[Action], sampler: Sampler, params: FlatParams | None = None) -> dict[int, float]:
        """Index in ``legal`` -> mean advantage over the samples, for the options kept."""
        p = params or self.params
        seat = legal[0].seat
        judge = judge_of(p)
        w = LINE_WEIGHTS[p.weights]
        samples = [sampler.sample(self.rng) for _ in range(max(1, p.samples))]
        tb = p.tuck
        first = [line_value(apply(samples[0], a), seat, p.depth, False, 1, judge, 0, w, tb) for a in legal]
        order = sorted(range(len(legal)), key=lambda i: -first[i])
        kept = order[:p.top] if p.top > 0 else order
        out: dict[int, float] = {}
        for i in kept:
            nested = nested_value(samples, legal[i], seat, p, judge) if p.width > 0 else None
            if nested is not None:
                out[i] = nested
                continue
            total = first[i] if not p.reply and p.turns == 1 else \
                line_value(apply(samples[0], legal[i]), seat, p.depth, p.reply, p.turns, judge, p.reply_width, w, tb)
            for s in samples[1:]:
                total += line_value(apply(s, legal[i]), seat, p.depth, p.reply, p.turns, judge, p.reply_width, w, tb)
            out[i] = total / len(samples)
        return out

    def settings(self, role: str) -> FlatParams:
        """The settings this agent searches with when it plays ``role`` ("scythe", "expeditions")."""
        return self.by_role.get(role, self.params)

    def choose_from(self, view: View, legal: list[Action], sampler: Sampler) -> Action:
        rule = ruled_choice(view, legal)
        if rule is not None:
            return rule
        p = self.settings(view.setup.seats[legal[0].seat].role)
        if p.race_turns and in_race(view):
            p = replace(p, turns=p.race_turns)
        with sampler.bound():
            vals = self.values(legal, sampler, p)
        keys = sorted(vals)
        return legal[keys[softmax_pick(self.rng, [vals[i] for i in keys], p.temperature)]]
