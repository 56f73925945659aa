"""The heuristic agent: a shallow look-ahead to the end of its own turn, judged by ``evaluate``.

For each legal action it applies the action to one sample of the game (``Sampler``: its seat's
information only), then keeps choosing greedily (the best child by the evaluation) while the same
seat decides, up to ``depth`` further steps: that is the rest of its turn, or of its combat step. The
final position's value ranks the action; a softmax with a small ``temperature`` picks among near-equal
ones (variety; in score units, where a star is 10). A decision with one option is taken at once.

Combat dials are secret and simultaneous, so the agent's own dial is set by a rule (enough to beat
the opponent's reachable dial, never more than it has); the look-ahead plays a combat it starts
through with that rule for both seats and no tucked card (``combat_step``), so it sees an attack it
would win (the Scythe seat used to leave "Win a combat" open for want of seeing one).
"""

from __future__ import annotations

import math
import random
from functools import cache

from meloch.agents.base import Sampler
from meloch.agents.evaluate import advantage, explain
from meloch.content import load as load_content
from meloch.engine import Action, State, View, apply, legal_actions, view

COMBAT_VERBS = frozenset({"dial", "tuck"})
"""The secret combat commits, which the look-ahead plays by rule (``combat_step``)."""

TUCK_NONE, TUCK_BEST, TUCK_DEFENDER, TUCK_OWN = 0, 1, 2, 3
"""What a look-ahead tucks by rule (``combat_step``): no card; each seat its best card; the defender its
best card and the attacker none; the searching seat its best card, its opponent its best card when it
defends and none when it attacks (docs/agents.md, "Hard: lines that tuck a combat card")."""

DEFAULT_DEPTH = 8
"""Greedy steps after the candidate action (a turn has ~5 decisions on average)."""


def greedy_value(state: State, seat: int, depth: int, weights: dict[str, float] | None = None,
                 tuck: int = TUCK_NONE) -> float:
    """``advantage`` for ``seat`` after playing greedily (one-ply) while ``seat`` decides."""
    return advantage(greedy_line(state, seat, depth, weights, tuck), seat, weights)


def combat_step(state: State, legal: list[Action], tuck: int = TUCK_NONE, me: int = -1) -> State | None:
    """A secret combat commit played by rule for whichever seat decides (the Power Dial by
    ``dial_rule``; no card tucked, or by ``tuck`` the highest card held, each time the seat may tuck
    one: ``TUCK_BEST`` for either seat, ``TUCK_DEFENDER`` for the defender only, ``TUCK_OWN`` for the
    seat ``me`` and for its opponent when it defends), or None when the decision is not one. The
    look-ahead plays a combat through this way, so it sees an attack it would win (or lose) on the
    sample; a tucked best card makes it expect the opponent's (on the sample: the opponent's hand
    there is a guess)."""
    verb = legal[0].verb
    if verb == "dial":
        a = dial_rule(view(state, legal[0].seat), legal)
        return apply(state, a) if a is not None else None
    if verb == "tuck":
        who = legal[0].seat
        best = tuck == TUCK_BEST or (tuck == TUCK_OWN and who == me)
        if not best and tuck >= TUCK_DEFENDER:  # who defends: the seat's view says (a rare step)
            c = view(state, who).combat
            best = c is not None and who == c.defender
        t = tuck_rule(legal, best)
        return apply(state, t) if t is not None else None
    return None


@cache
def combat_values() -> tuple[int, ...]:
    """The value of each combat card by instance id (``c12`` is 12): the content's types in order,
    each ``count`` times, as the engine numbers the deck (the terminal's card names read it the same
    way; ``tests/test_agents.py`` checks it against the engine)."""
    return tuple(t.value for t in load_content().combat_cards for _ in range(t.count))


def combat_value(token: str) -> int:
    """Value of combat card ``token`` (``c12``); 0 for a token this content does not number."""
    values = combat_values()
    cid = int(token[1:]) if token[1:].isdigit() else -1
    return values[cid] if 0 <= cid < len(values) else 0


def tuck_rule(legal: list[Action], tuck_best: bool = False) -> Action | None:
    """The look-ahead's tuck: "done" (no card), or with ``tuck_best`` the highest-valued card offered
    while one is (ties: the first by token)."""
    cards = [a for a in legal if a.args and a.args[0] != "done"]
    if tuck_best and cards:
        return max(cards, key=lambda a: (combat_value(a.args[0]), a.args[0]))
    return next((a for a in legal if a.args and a.args[0] == "done"), None)


def greedy_line(state: State, seat: int, depth: int, weights: dict[str, float] | None = None,
                tuck: int = TUCK_NONE, me: int = -1) -> State:
    """The state after up to ``depth`` greedy (one-ply ``advantage``) steps while ``seat`` decides;
    a combat's secret commits on the way are played by rule for both seats (``combat_step``, ``tuck``;
    ``me``: the searching seat)."""
    s = state
    for _ in range(depth):
        legal = legal_actions(s)
        while legal and legal[0].verb in COMBAT_VERBS:
            nxt = combat_step(s, legal, tuck, me)
            if nxt is None:
                break
            s = nxt
            legal = legal_actions(s)
        if not legal or legal[0].seat != seat:
            break
        if len(legal) == 1:
            s = apply(s, legal[0])
            continue
        best: tuple[float, State] | None = None
        for a in legal:
            child = apply(s, a)
            val = advantage(child, seat, weights)
            if best is None or val > best[0]:
                best = (val, child)
        assert best is not None
        s = best[1]
    return s


def reason(sample: State, action: Action) -> str:
    """Why ``action`` (a hint's one line): what the evaluation gains most from it followed by the
    seat's greedy rest of the turn on ``sample`` (``explain``)."""
    seat = action.seat
    return explain(sample, greedy_line(apply(sample, action), seat, DEFAULT_DEPTH), seat)


def softmax_pick(rng: random.Random, values: list[float], temperature: float) -> int:
    """An index drawn with weights ``exp((v - max) / temperature)``; the best one if temperature is 0."""
    top = max(values)
    if temperature <= 0:
        return values.index(top)
    weights = [math.exp((v - top) / temperature) for v in values]
    return rng.choices(range(len(values)), weights=weights)[0]


def ruled_dial(opponent_power: int, power: int) -> int:
    """The dial ``dial_rule`` sets for a seat with ``power`` facing ``opponent_power`` (the dial runs
    from 0 to ``min(7, power)``)."""
    want, top = min(7, opponent_power) + 1, min(7, power)
    if top >= want:
        return want
    return top if power >= 4 else 0


def dial_rule(view: View, legal: list[Action]) -> Action | None:
    """The Power Dial by rule (``ruled_dial``): one more than the opponent can reach with its dial
    alone, within this seat's means; 0 when it cannot get there (power kept for later), unless its
    power is 4 or more (then all of the dial)."""
    dials = sorted((a for a in legal if a.verb == "dial"), key=lambda a: int(a.args[0]))
    if not dials or view.seat is None:
        return None
    d = ruled_dial(view.seats[1 - view.seat].power, view.seats[view.seat].power)
    return next((a for a in dials if int(a.args[0]) == d), dials[-1])


def ruled_choice(view: View, legal: list[Action]) -> Action | None:
    """The choice every looking-ahead agent makes without looking: a forced decision's one option, the
    Power Dial by ``dial_rule``; None when the decision needs the agent's own judgement."""
    if len(legal) == 1:
        return legal[0]
    return dial_rule(view, legal)


class HeuristicAgent:
    """Shallow look-ahead on the evaluation (see the module docstring)."""

    name = "heuristic"
    uses_view = True
    uses_sampler = True

    def __init__(self, seed: int = 0, *, temperature: float = 0.1, depth: int = DEFAULT_DEPTH,
                 weights: dict[str, float] | None = None, tuck_best: bool = False, name: str = "heuristic") -> None:
        self.rng = random.Random(seed)
        self.temperature, self.depth, self.weights, self.tuck_best = temperature, depth, weights, tuck_best
        self.name = name

    def choose(self, view: View | None, legal: list[Action]) -> Action:
        """Without a sampler (a shell that offers none) it cannot look ahead: uniform choice."""
        return legal[self.rng.randrange(len(legal))]

    def choose_from(self, view: View, legal: list[Action], sampler: Sampler) -> Action:
        rule = ruled_choice(view, legal)
        if rule is not None:
            return rule
        seat = legal[0].seat
        with sampler.bound():
            s = sampler.sample(self.rng)
            tuck = TUCK_BEST if self.tuck_best else TUCK_NONE
            values = [greedy_value(apply(s, a), seat, self.depth, self.weights, tuck) for a in legal]
        return legal[softmax_pick(self.rng, values, self.temperature)]
