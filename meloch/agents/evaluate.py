"""The evaluation of a position for one seat: the heuristic agent's judgement and the search's leaf value.

It reads only ``view(state, seat)``, the engine's ``goals`` (each Triumph column's metric, have,
need) and ``outcome``; ``state`` is always a sample the seat's agent drew (never the true state of a
game it plays). The score of a seat is a weighted sum of named terms (``WEIGHTS``, the one place the
weights live; ``meloch ladder`` measures any change of them):

- ``star``: stars on the Triumph Track (what wins);
- ``goal``: progress ``f = have/need`` toward the open categories on the seat's edge, ``(f + f**2)/2``
  each (the square rewards finishing a category over spreading; the linear part makes a first step
  worth its cost), counting only as many of the best columns as the seat still needs stars;
- ``met``: an open category already met (an Expeditions seat is a Boast away from its star);
- ``combat``: strength for the open combat column: Power Dial reach (power up to 7) and combat cards;
- ``discarded``: stars a Scythe seat has given up (the random agent's worst habit);
- ``resources`` (Scythe: resources on the board, which build, deploy, enlist and upgrade) and
  ``hand`` (Expeditions: discovery cards held, which Play, Upgrade, Meld and Solve).

The value for the seat is ``tanh((score(me) - score(opponent)) / SCALE)`` in (-1, 1); a finished
game is +1, -1 or 0.
"""

from __future__ import annotations

import math

from meloch.engine import ExpView, ScytheView, State, View, goals, outcome, view

WEIGHTS: dict[str, float] = {
    "star": 10.0,
    "goal": 4.0,
    "met": 5.0,
    "combat": 1.5,
    "discarded": 3.0,
    "resources": 0.05,
    "hand": 0.25,
}
"""Weight of each evaluation term (see the module docstring); tune them with ``meloch ladder``."""

SCALE = 12.0
"""Score difference that maps to a value of tanh(1) ~ 0.76."""


def terms(state: State, seat: int, v: View | None = None, weights: dict[str, float] | None = None,
          ) -> dict[str, float]:
    """The weighted terms of ``seat``'s score, by name (goals by their label, for the hint's reason)."""
    w = weights or WEIGHTS
    v = v if v is not None else view(state, seat)
    out: dict[str, float] = {"star": w["star"] * v.stars[seat]}
    to_win = v.setup.seats[seat].stars_to_win
    missing = max(0, to_win - v.stars[seat])
    progress: list[tuple[float, str]] = []
    combat_open = False
    for _, metric, label, have, need, is_open in goals(state, seat):
        if not is_open:
            continue
        if metric == "combat":
            combat_open = True
            continue
        if have >= need:
            out[label] = w["met"]
        else:
            f = have / need if need else 1.0
            progress.append((w["goal"] * (f + f * f) / 2, label))
    progress.sort(reverse=True)
    for value, label in progress[:missing]:
        out[label] = value
    p = v.seats[seat]
    if combat_open:
        out["combat strength"] = w["combat"] * (min(p.power, 7) / 7.0 + min(p.combat_cards, 3) / 3.0)
    if isinstance(p, ScytheView):
        out["stars discarded"] = -w["discarded"] * p.stars_discarded
        out["resources"] = w["resources"] * min(12, sum(n for _, _, n in p.resources))
    elif isinstance(p, ExpView):
        out["cards in hand"] = w["hand"] * min(6, p.hand)
    return out


def score(state: State, seat: int, v: View, weights: dict[str, float] | None = None) -> float:
    return sum(terms(state, seat, v, weights).values())


WIN_SCORE = 1000.0
"""``advantage`` of a won game (far above any position's)."""


def advantage(state: State, seat: int, weights: dict[str, float] | None = None) -> float:
    """``score(seat) - score(opponent)`` in score units (a star is ``WEIGHTS['star']``); a finished
    game is +-``WIN_SCORE`` (0 for a draw). The heuristic ranks by it (its temperature is in these
    units, so it does not shrink where tanh saturates)."""
    o = outcome(state)
    if o is not None:
        return 0.0 if o.winner is None or o.winner < 0 else (WIN_SCORE if o.winner == seat else -WIN_SCORE)
    v = view(state, seat)
    return score(state, seat, v, weights) - score(state, 1 - seat, v, weights)


def evaluate(state: State, seat: int, weights: dict[str, float] | None = None) -> float:
    """The value of ``state`` for ``seat`` in [-1, 1] (1: a win): ``tanh(advantage / SCALE)``."""
    return math.tanh(advantage(state, seat, weights) / SCALE)


def explain(before: State, after: State, seat: int) -> str:
    """One line on what a step changes most in the evaluation, for ``seat`` (the hint's reason)."""
    o = outcome(after)
    if o is not None:
        return "wins the game" if o.winner == seat else "ends the game"
    vb, va = view(before, seat), view(after, seat)
    deltas: dict[str, float] = {}
    for who, sign in ((seat, 1.0), (1 - seat, -1.0)):
        tb, ta = terms(before, who, vb), terms(after, who, va)
        for k in set(tb) | set(ta):
            name = k if who == seat else f"opponent's {k}"
            deltas[name] = deltas.get(name, 0.0) + sign * (ta.get(k, 0.0) - tb.get(k, 0.0))
    if not deltas:
        return "keeps the position"
    name, d = max(deltas.items(), key=lambda kv: (kv[1], kv[0]))
    if d <= 1e-9:
        name, d = min(deltas.items(), key=lambda kv: (-abs(kv[1]), kv[0]))
        if abs(d) <= 1e-9:
            return "no change the evaluation sees now (sets up later steps)"
        return f"costs least: {name} ({d:+.1f})"
    return f"improves {name} ({d:+.1f})"
