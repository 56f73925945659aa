"""A fitted evaluation: the chance that the Scythe seat wins, by logistic regression on heuristic games.

The heuristic's evaluation (``evaluate``) weighs both seats' terms alike and compares their sums, with
weights set by hand. The roles are not alike (an Expeditions star comes from different work than a
Scythe one, and on a given setup one role starts ahead), so this evaluation fits one weight per
*role and feature* to the outcomes of heuristic games, from the positions at the end of each turn
(where a search's greedy lines end): ``logit P(Scythe wins) = BIAS + sum(COEF[role][f] * x_f)`` over
both seats' ``features``. ``tools/fit_evaluation.py`` plays the games, fits and prints the numbers
below (their data, figures and command: docs/agents.md, "Evaluations fitted to game outcomes").

The flat search judges the end of each line with it (``search:...e1``); the heuristic agent, the
greedy lines themselves and the ISMCTS agent keep ``evaluate``. Like ``evaluate`` it reads only the
engine's ``standing`` (public figures) and ``outcome``, on a sample the seat drew.
"""

from __future__ import annotations

from meloch.agents.evaluate import WEIGHTS, combat_reach, finished_advantage, progress, score
from meloch.engine import Standing, State, standing

FEATURES: tuple[str, ...] = ("stars", "goal", "best", "met", "combat", "discarded", "resources", "hand")
"""Per seat: ``stars`` on the track; ``goal``, the heuristic's progress term with unit weight (the best
columns the seat still needs, ``(f + f**2)/2`` each); ``best``, the largest ``f`` of an open unmet
column (the nearest star); ``met``, open categories already met; ``combat``, Power Dial reach and
combat cards for an open combat column (0 to 2); ``discarded`` stars (Scythe); ``resources`` on the
board / 12 (Scythe); ``hand``, discovery cards / 6 (Expeditions)."""

BIAS = -0.2444
COEF: dict[str, dict[str, float]] = {
    "scythe": {"stars": 1.0367, "goal": 1.1170, "best": 0.2550, "met": 0.0000, "combat": 0.1514, "discarded": -0.3110,
               "resources": -0.5880, "hand": 0.0000},
    "expeditions": {"stars": -0.9003, "goal": -0.0334, "best": -0.9061, "met": -0.5761, "combat": 0.0050,
                    "discarded": 0.0000, "resources": 0.0000, "hand": -0.1573},
}
"""Fitted by ``tools/fit_evaluation.py`` (the numbers and the games they come from: docs/agents.md)."""

ROLE_OPPONENT: dict[str, float] = {"scythe": 1.300, "expeditions": 0.769}
"""For a seat of this role, the weight of the opponent's hand-set ``score`` against its own: the ratio
of the two roles' weights in ``logit P(Scythe wins) = b + a_S * score(Scythe) - a_E * score(Expeditions)``
fitted like ``COEF`` (``tools/fit_evaluation.py fit`` prints it): an Expeditions point moved the
outcome about 1.3 times as much as a Scythe point in the heuristic's games."""

STAR_UNITS = 10.0
"""``fitted_advantage`` is in the heuristic's score units, where a star is worth ``STAR_UNITS`` (so the
search's softmax temperature means the same): the logit times ``STAR_UNITS`` over the mean fitted
worth of a star."""


def features(st: Standing) -> dict[str, float]:
    """One seat's feature values (``FEATURES``) from its standing (the columns as ``terms`` reads them)."""
    prog = progress(st)
    scythe = st.role == "scythe"
    done = sorted(((f + f * f) / 2 for f, _ in prog.fractions), reverse=True)
    missing = max(0, st.stars_to_win - st.stars)
    return {
        "stars": float(st.stars),
        "goal": sum(done[:missing]),
        "best": max((f for f, _ in prog.fractions), default=0.0),
        "met": float(len(prog.met)),
        "combat": combat_reach(st) if prog.combat_open else 0.0,
        "discarded": float(st.stars_discarded),
        "resources": min(12, sum(n for _, _, n in st.resources)) / 12.0 if scythe else 0.0,
        "hand": 0.0 if scythe else min(6, st.hand) / 6.0,
    }


def hand_set_score(f: dict[str, float]) -> float:
    """The heuristic's ``score`` of a seat from its ``features``: their sum with the hand-set ``WEIGHTS``
    (the features re-state ``terms`` unweighted; a test holds the two together)."""
    w = WEIGHTS
    return (w["star"] * f["stars"] + w["goal"] * f["goal"] + w["met"] * f["met"] + w["combat"] * f["combat"]
            - w["discarded"] * f["discarded"] + w["resources"] * 12 * f["resources"] + w["hand"] * 6 * f["hand"])


def role_weighted_advantage(state: State, seat: int) -> float:
    """``score(seat) - ROLE_OPPONENT[role] * score(opponent)`` (the heuristic's scores, the roles weighed
    by their fitted ratio); a finished game as ``advantage``."""
    end = finished_advantage(state, seat)
    if end is not None:
        return end
    return score(state, seat) - ROLE_OPPONENT[standing(state, seat).role] * score(state, 1 - seat)


def scythe_logit(a: Standing, b: Standing) -> float:
    """``logit P(the Scythe seat wins)`` from both seats' standings (either order)."""
    total = BIAS
    for st in (a, b):
        coef = COEF[st.role]
        for name, x in features(st).items():
            total += coef[name] * x
    return total


def _star_worth() -> float:
    worth = (abs(COEF["scythe"]["stars"]) + abs(COEF["expeditions"]["stars"])) / 2
    return worth if worth > 0 else 1.0


def fitted_advantage(state: State, seat: int) -> float:
    """The fitted logit for ``seat`` (the Scythe logit, negated for the Expeditions seat) in score units
    (``STAR_UNITS``); a finished game as ``advantage``."""
    end = finished_advantage(state, seat)
    if end is not None:
        return end
    mine, theirs = standing(state, seat), standing(state, 1 - seat)
    lg = scythe_logit(mine, theirs)
    return (lg if mine.role == "scythe" else -lg) * STAR_UNITS / _star_worth()
