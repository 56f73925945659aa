"""The evaluation of a position for one seat: the heuristic agent's judgement and the search's leaf value.

It reads only the engine's ``standing(state, seat)`` (a seat's public figures: stars, power, combat
cards, resources, hand, and ``goals``: each Triumph column's metric, have, need; far cheaper than
building the typed view at every node a search reaches) and ``outcome``; ``state`` is always a
sample the seat's agent drew (never the true state of a
game it plays). The score of a seat is a weighted sum of named terms (``WEIGHTS``, the one place the
weights live; ``meloch ladder`` measures any change of them):

- ``star``: stars on the Triumph Track (what wins);
- ``goal``: progress ``f = have/need`` toward the open categories on the seat's edge, ``(f + f**2)/2``
  each (the square rewards finishing a category over spreading; the linear part makes a first step
  worth its cost), counting only as many of the best columns as the seat still needs stars;
- ``met``: an open category already met (an Expeditions seat is a Boast away from its star);
- ``combat``: strength for the open combat column: Power Dial reach (power up to 7) and combat cards;
- ``discarded``: stars a Scythe seat has given up (the random agent's worst habit);
- ``means``: a Scythe seat's resources of the kind an open category's bottom action spends
  (``MEANS``: wood builds structures, metal deploys mechs, food enlists recruits, oil upgrades) count as that
  share of one more item, up to a typical cost of ``MEANS_COST``: without it the look-ahead to the end
  of the turn never sees why to produce or trade for them (the Scythe seat used to stall there);
  wood counts only ``spotless`` as much while Build has no territory to place on (``build_spots``);
- ``source``: a Scythe seat with a worker on a territory that produces what an open category needs
  (``SOURCES``: a forest for structures, a mountain for mechs, a farm for recruits, a tundra for
  upgrades, a village for workers) counts that share of one more item. Both added because the heuristic Scythe player
  used to sit on ten wood with every worker on its one built territory, skipping turn after turn:
  the next structure is two turns away (move a worker, then build), beyond a one-turn look-ahead;
- ``mech`` (off in ``WEIGHTS``, on in ``ARMED_WEIGHTS``): a Scythe seat's deployed mechs, and its
  metal and a mountain worker toward the next one (``mech_value``). Without it the heuristic Scythe
  seat deploys no mech on a track with no "mechs" column (balance round 6, docs/rules-notes.md);
- ``stake`` (off in ``WEIGHTS``, on in ``ARMED_WEIGHTS``): ``combat`` counts while a combat would place
  a star for either seat (``Standing.combat_stake``: past the open combat columns, Saxony's
  stacking), not only while a combat column is open, so a seat keeps its strength for defence;
- ``resources`` (Scythe: resources on the board, which build, deploy, enlist and upgrade) and
  ``hand`` (Expeditions: discovery cards held, which Play, Upgrade, Meld and Solve).

The value for the seat is ``tanh((score(me) - score(opponent)) / SCALE)`` in (-1, 1); a finished
game is +1, -1 or 0.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import msgspec

from meloch.engine import ExpView, ScytheView, Standing, State, View, goals, meloch_facing, outcome, standing, view

WEIGHTS: dict[str, float] = {
    "star": 10.0,
    "goal": 4.0,
    "met": 5.0,
    "combat": 1.5,
    "discarded": 3.0,
    "resources": 0.05,
    "hand": 0.25,
    "means": 0.6,
    "spotless": 1 / 3,
    "source": 0.3,
    "mech": 0.0,
    "stake": 0.0,
}
"""Weight of each evaluation term (see the module docstring); tune them with ``meloch ladder``. The
heuristic agent plays by these, and the balance figures and the Automa table are measured with it:
a change here moves them all (docs/balance.md)."""

ARMED_WEIGHTS: dict[str, float] = {**WEIGHTS, "mech": 3.0, "stake": 1.0}
"""``WEIGHTS`` with the ``mech`` term (3 score units a mech; a star is 10) and the ``stake`` rule on:
the flat search's judge ``e3`` (docs/agents.md). Screened for balance in round 6, where every
faction gained from the mech term (docs/balance/round6/REPORT.md), so the heuristic keeps them off."""

TUNED_WEIGHTS: dict[str, float] = {
    "star": 10.0,
    "goal": 5.228,
    "met": 6.4628,
    "combat": 1.3066,
    "discarded": 1.8787,
    "resources": 0.1271,
    "hand": 0.3417,
    "means": 0.683,
    "spotless": 0.6681,
    "source": 0.199,
    "mech": 1.3532,
    "stake": 0.0,
}
"""``WEIGHTS`` tuned by game results (SPSA over 503 iterations of heuristic games, the mean of the last
150: ``tools/tune_weights.py``): the weights of ``heuristic:k1`` and of a search with
``FlatParams.weights`` 1. Measured no stronger than ``WEIGHTS`` (``heuristic:k1`` scores 48% [42, 55]
against the heuristic in 200 ladder games, docs/agents.md), so no level uses them; kept so the
tuning's output can be laddered by name. The balance figures and the Automa table use ``WEIGHTS``."""

MEANS: dict[str, str] = {"structures": "wood", "mechs": "metal", "recruits": "food", "upgrades": "oil"}
"""Triumph metric -> the resource its Scythe bottom action spends (the ``means`` term). Track A's
"Upgrade 3 times" (balance round 5) needs the oil: without it the heuristic Scythe player never
upgraded toward the column."""

SOURCES: dict[str, str] = {**MEANS, "workers": "worker"}
"""Triumph metric -> what a worker territory must produce to feed it (the ``source`` term)."""

MEANS_COST = 3
"""Resources counted toward one more item (the mats' bottom costs are 2 to 4)."""

SCALE = 12.0
"""Score difference that maps to a value of tanh(1) ~ 0.76."""


class Progress(NamedTuple):
    """A seat's open Triumph columns, read once for ``terms`` and the fitted evaluation's features."""

    fractions: list[tuple[float, str]]
    """``(f, label)`` per open unmet non-combat column: ``f = have/need``, a Scythe seat's ``have``
    counting its means and sources (module docstring), in the columns' order."""
    met: list[str]
    """Labels of the open non-combat columns already met, in the columns' order."""
    combat_open: bool


def held_resources(st: Standing) -> dict[str, int]:
    """A Scythe seat's resources on the board by kind."""
    held: dict[str, int] = {}
    for _, kind, n in st.resources:
        held[kind] = held.get(kind, 0) + n
    return held


def scythe_have(st: Standing, metric: str, have: int, held: dict[str, int], w: dict[str, float]) -> float:
    """A Scythe seat's ``have`` toward an open column with its ``means`` (the resource the column's
    bottom action spends, ``spotless`` as much for wood with nowhere to build) and ``source`` (a
    worker on a territory producing it) shares (module docstring)."""
    have_eff = float(have)
    spent = MEANS.get(metric)
    if spent is not None and held:
        share = min(held.get(spent, 0), MEANS_COST) / MEANS_COST
        if metric == "structures" and st.build_spots == 0:
            share *= w["spotless"]
        have_eff += w["means"] * share
    if SOURCES.get(metric, "") in st.produces:
        have_eff += w["source"]
    return have_eff


def progress(st: Standing, w: dict[str, float] = WEIGHTS) -> Progress:
    """``st``'s open columns (``Progress``); ``w`` gives the ``means``, ``spotless`` and ``source`` shares."""
    fractions: list[tuple[float, str]] = []
    met: list[str] = []
    combat_open = False
    scythe = st.role == "scythe"
    held = held_resources(st)
    for _, metric, label, have, need, is_open in st.goals:
        if not is_open:
            continue
        if metric == "combat":
            combat_open = True
            continue
        if have >= need:
            met.append(label)
            continue
        have_eff = scythe_have(st, metric, have, held, w) if scythe else float(have)
        fractions.append((have_eff / need if need else 1.0, label))
    return Progress(fractions, met, combat_open)


def combat_reach(st: Standing) -> float:
    """Power Dial reach and combat cards, 0 to 2: ``min(power, 7)/7 + min(cards, 3)/3``."""
    return min(st.power, 7) / 7.0 + min(st.combat_cards, 3) / 3.0


MECHS_MAX = 4
"""A Scythe seat's mechs (its faction mat has four)."""


def mech_value(st: Standing, w: dict[str, float] = WEIGHTS) -> float:
    """A Scythe seat's mechs, ``w["mech"]`` each, and toward the next one its metal (the ``means``
    share of ``MEANS_COST``) and a worker on a mountain (the ``source`` share), as for a goal."""
    if st.mechs >= MECHS_MAX:
        return w["mech"] * MECHS_MAX
    metal = sum(n for _, kind, n in st.resources if kind == "metal")
    nxt = w["means"] * min(metal, MEANS_COST) / MEANS_COST + (w["source"] if "metal" in st.produces else 0.0)
    return w["mech"] * (st.mechs + nxt)


def terms(state: State, seat: int, st: Standing | None = None, weights: dict[str, float] | None = None,
          ) -> dict[str, float]:
    """The weighted terms of ``seat``'s score, by name (goals by their label, for the hint's reason);
    ``st`` is ``standing(state, seat)`` when the caller has it."""
    w = weights or WEIGHTS
    st = st if st is not None else standing(state, seat)
    out: dict[str, float] = {"star": w["star"] * st.stars}
    missing = max(0, st.stars_to_win - st.stars)
    prog = progress(st, w)
    for label in prog.met:
        out[label] = w["met"]
    ranked = sorted(((w["goal"] * (f + f * f) / 2, label) for f, label in prog.fractions), reverse=True)
    for value, label in ranked[:missing]:
        out[label] = value
    if prog.combat_open or (w["stake"] and st.combat_stake):
        out["combat strength"] = w["combat"] * combat_reach(st)
    if st.role == "scythe":
        out["stars discarded"] = -w["discarded"] * st.stars_discarded
        out["resources"] = w["resources"] * min(12, sum(n for _, _, n in st.resources))
        if w["mech"]:
            out["mechs"] = mech_value(st, w)
    else:
        out["cards in hand"] = w["hand"] * min(6, st.hand)
    return out


def standing_score(st: Standing, w: dict[str, float] = WEIGHTS) -> float:
    """``sum(terms(...).values())`` without the named terms: the same additions in the same order, so
    the same float to the last bit (``tests/test_agents.py`` checks it on fuzzed positions). It is what
    every search node pays twice (``advantage``): building the dict of labels and sorting them was
    half an ISMCTS iteration's evaluation time (docs/speed.md). Exact because a seat's open
    non-combat columns have distinct labels (the content test checks it): ``terms`` keys them by label."""
    total = w["star"] * st.stars
    missing = st.stars_to_win - st.stars
    prog = progress(st, w)
    for _ in prog.met:
        total += w["met"]
    goal_w = w["goal"]
    values = [goal_w * (f + f * f) / 2 for f, _ in prog.fractions]
    if missing > 0 and values:
        values.sort(reverse=True)
        for v in values[:missing]:
            total += v
    return _other_terms(total, st, prog.combat_open, w)


def _other_terms(total: float, st: Standing, combat_open: bool, w: dict[str, float]) -> float:
    """``total`` plus the terms after the goals (combat strength, then the role's own), added in
    ``terms``' order so that ``standing_score`` stays the same float to the last bit."""
    if combat_open or (w["stake"] and st.combat_stake):
        total += w["combat"] * combat_reach(st)
    if st.role == "scythe":
        total += -w["discarded"] * st.stars_discarded
        total += w["resources"] * min(12, sum(n for _, _, n in st.resources))
        if w["mech"]:
            total += mech_value(st, w)
    else:
        total += w["hand"] * min(6, st.hand)
    return total


def score(state: State, seat: int, weights: dict[str, float] | None = None) -> float:
    return standing_score(standing(state, seat), weights or WEIGHTS)


WIN_SCORE = 1000.0
"""``advantage`` of a won game (far above any position's)."""


def finished_advantage(state: State, seat: int) -> float | None:
    """A finished game's ``advantage`` for ``seat``: +-``WIN_SCORE``, 0 for a draw; None while it goes on
    (every judge of a position shares it)."""
    o = outcome(state)
    if o is None:
        return None
    return 0.0 if o.winner is None or o.winner < 0 else (WIN_SCORE if o.winner == seat else -WIN_SCORE)


def advantage(state: State, seat: int, weights: dict[str, float] | None = None) -> float:
    """``score(seat) - score(opponent)`` in score units (a star is ``WEIGHTS['star']``); a finished
    game is +-``WIN_SCORE`` (0 for a draw). The heuristic ranks by it (its temperature is in these
    units, so it does not shrink where tanh saturates)."""
    end = finished_advantage(state, seat)
    if end is not None:
        return end
    return score(state, seat, weights) - score(state, 1 - seat, weights)


def armed_advantage(state: State, seat: int) -> float:
    """``advantage`` with ``ARMED_WEIGHTS`` (the mech and stake terms on): the flat search's judge ``e3``."""
    return advantage(state, seat, ARMED_WEIGHTS)


def tuned_advantage(state: State, seat: int) -> float:
    """``advantage`` with ``TUNED_WEIGHTS``: the flat search's judge with ``FlatParams.weights`` 1."""
    return advantage(state, seat, TUNED_WEIGHTS)


RACE = 1.0
"""How much the opponent's progress on the facing category of a column discounts a seat's own
progress there (``race_advantage``): at the opponent's ``g`` (0 to 1) the seat's goal or met value
in that column counts ``1 - RACE * g**2``."""


def column_fractions(st: Standing, w: dict[str, float] = WEIGHTS) -> dict[int, float]:
    """Column -> ``st``'s progress on each open non-combat Triumph column: ``progress``'s fraction (a
    Scythe seat's means and sources counted), 1 for a met one."""
    prog = progress(st, w)
    column = {label: col for col, _, label, _, _, _ in st.goals}
    out = {column[label]: f for f, label in prog.fractions}
    out.update((column[label], 1.0) for label in prog.met)
    return out


def race_score(st: Standing, mine: dict[int, float], theirs: dict[int, float], w: dict[str, float] = WEIGHTS) -> float:
    """``standing_score`` with each open column's goal or met value discounted by the opponent's
    progress on that column (``RACE``): the track takes one star a column, so a category the
    opponent is about to claim is worth less than one nobody contests."""
    total = w["star"] * st.stars
    missing = st.stars_to_win - st.stars
    values: list[float] = []
    for col, f in mine.items():
        g = theirs.get(col, 0.0)
        keep = 1.0 - RACE * g * g
        if f >= 1.0:
            total += w["met"] * keep
        else:
            values.append(w["goal"] * (f + f * f) / 2 * keep)
    if missing > 0 and values:
        values.sort(reverse=True)
        total += sum(values[:missing])
    combat_open = any(metric == "combat" and is_open for _, metric, _, _, _, is_open in st.goals)
    return _other_terms(total, st, combat_open, w)


def race_advantage(state: State, seat: int) -> float:
    """``advantage`` with every open column's value discounted by the opponent's progress there
    (``race_score``): the flat search's judge ``e4`` (docs/agents.md). The heuristic's own ``goal``
    term counts a category the opponent is a step from taking as fully as an uncontested one."""
    end = finished_advantage(state, seat)
    if end is not None:
        return end
    me, opp = standing(state, seat), standing(state, 1 - seat)
    fm, fo = column_fractions(me), column_fractions(opp)
    return race_score(me, fm, fo) - race_score(opp, fo, fm)


REACH = 2.5
"""Score units an Expeditions seat's met, open category gains from its mech standing on a location
whose Gather Boasts (``boast_advantage``), less by a quarter a step farther, none from 4 steps."""


def boast_reach(st: Standing) -> float:
    """``REACH`` for an Expeditions seat with a met open category, by its mech's distance to a Boast
    (``Standing.boast_steps``); 0 for a Scythe seat, none met, or no Boast in reach."""
    if st.role != "expeditions" or st.boast_steps < 0:
        return 0.0
    if not progress(st).met:
        return 0.0
    return REACH * max(0.0, 1.0 - st.boast_steps / 4)


def boast_advantage(state: State, seat: int) -> float:
    """``advantage`` with ``boast_reach`` for each seat: the flat search's judge ``e5`` (docs/agents.md).
    The heuristic counts a met category the same wherever the mech stands, so a line that walks the
    mech toward a Boast over two turns looks no better than one that stays (medium's Expeditions
    seat ended a third of its lost games holding a met category it never Boasted)."""
    end = finished_advantage(state, seat)
    if end is not None:
        return end
    me, opp = standing(state, seat, boasts=True), standing(state, 1 - seat, boasts=True)
    return standing_score(me) + boast_reach(me) - standing_score(opp) - boast_reach(opp)


HAUL = 0.5
"""How much of the Meloch haul a seat's next star hands its opponent the ``e6`` judge counts against it
now (``haul_advantage``)."""

_HAUL_METRIC: dict[str, str] = {"popularity": "popularity", "guile": "guile", "coins": "coins", "power": "power",
                                "combat_cards": "combat_cards", "worker": "workers"}
"""Meloch benefit op -> the Triumph metric it adds to (``haul_value``); the rest (resources, refresh, a
card) are not counted."""

MELOCH_STARS = 3
"""A seat's 1st, 2nd and 3rd stars hand its opponent a Meloch card (reference.md §1.9)."""


def haul_value(state: State, seat: int, st: Standing | None = None) -> float:
    """What the Meloch benefits facing ``seat`` now (``meloch_facing``) would add to its score if it took
    them: its goals' figures raised by them, a Scythe seat's met category a star at once (its stars are
    placed as soon as they are met), an Expeditions seat's met one a Boast away. ``st`` is
    ``standing(state, seat)`` when the caller has it."""
    bumps: dict[str, int] = {}
    for op, n in meloch_facing(state, seat):
        metric = _HAUL_METRIC.get(op)
        if metric is not None:
            bumps[metric] = bumps.get(metric, 0) + max(1, n)
    if not bumps:
        return 0.0
    st = st if st is not None else standing(state, seat)
    stars = st.stars
    rows = []
    for col, metric, label, have, need, is_open in st.goals:
        up = bumps.get(metric, 0) if is_open and metric != "combat" else 0
        if up and st.role == "scythe" and have < need <= have + up:
            stars += 1
            is_open = False
        rows.append((col, metric, label, have + up, need, is_open))
    after = msgspec.structs.replace(st, goals=tuple(rows), stars=min(stars, st.stars_to_win),
                                    power=st.power + bumps.get("power", 0),
                                    combat_cards=st.combat_cards + bumps.get("combat_cards", 0))
    return standing_score(after) - standing_score(st)


def _hands_meloch(st: Standing) -> bool:
    """Will the seat's next star hand its opponent a Meloch card (not its winning star)?"""
    return st.stars < MELOCH_STARS and st.stars + 1 < st.stars_to_win


def haul_advantage(state: State, seat: int) -> float:
    """``advantage`` less ``HAUL`` times the Meloch haul the seat's next star hands its opponent, plus as
    much of the haul the opponent's next star hands the seat: the flat search's judge ``e6``
    (docs/agents.md, "The Meloch haul judged"). ``advantage`` sees a haul only when a line places the
    star, so a Boast looks dear and waiting free; but only the winning star hands nothing, and a seat
    that waits still has to place the others."""
    end = finished_advantage(state, seat)
    if end is not None:
        return end
    opp = 1 - seat
    me, them = standing(state, seat), standing(state, opp)
    owed = haul_value(state, opp, them) if _hands_meloch(me) else 0.0
    owing = haul_value(state, seat, me) if _hands_meloch(them) else 0.0
    return standing_score(me) - standing_score(them) - HAUL * (owed - owing)


def evaluate(state: State, seat: int, weights: dict[str, float] | None = None) -> float:
    """The value of ``state`` for ``seat`` in [-1, 1] (1: a win): ``tanh(advantage / SCALE)``."""
    return math.tanh(advantage(state, seat, weights) / SCALE)


def _goal_table(state: State, seat: int) -> dict[str, tuple[str, int, int, bool]]:
    """label -> (metric, have, need, open) of ``seat``'s Triumph columns."""
    return {label: (metric, have, need, is_open) for _, metric, label, have, need, is_open in goals(state, seat)}


def _phrase(name: str, own: bool, d: float, before: State, after: State, seat: int, vb: View, va: View) -> str:
    """A player's words for a change of the evaluation term ``name`` (``own``: ``seat``'s own term,
    else the opponent's) by ``d`` in ``seat``'s favour."""
    who = seat if own else 1 - seat
    pa = va.seats[who]
    gb, ga = _goal_table(before, who), _goal_table(after, who)
    if name == "star":
        to_win = va.setup.seats[who].stars_to_win
        # by column, not by label: track B has two "Win a combat" columns
        closed = [b[2] for b, a in zip(goals(before, who), goals(after, who), strict=True) if b[5] and not a[5]]
        where = f" on \"{closed[0]}\"" if closed else ""
        if own:
            return f"places a star{where} ({va.stars[who]} of {to_win})"
        return f"lets the opponent place a star{where} ({va.stars[who]} of {to_win})"
    if name in ga:
        metric, have, need, is_open = ga[name]
        had = gb[name][1] if name in gb else have
        if not is_open:
            return f"{'closes' if own else 'lets the opponent close'} \"{name}\""
        if have >= need and had < need:
            return (f"meets \"{name}\" ({have}/{need}): a star within reach" if own
                    else f"lets the opponent meet \"{name}\" ({have}/{need})")
        kind = MEANS.get(metric)
        if kind is not None and have == had and isinstance(pa, ScytheView):
            n = sum(k for _, r, k in pa.resources if r == kind)
            verb = "gathers" if d > 0 else "spends"
            return f"{verb} {kind} toward \"{name}\" ({n} {kind} on the board)" if own else \
                f"the opponent {verb} {kind} toward \"{name}\""
        if own:
            return (f"gets you closer to \"{name}\": {have}/{need}" if have > had
                    else f"sets you back on \"{name}\": {have}/{need}")
        return (f"sets the opponent back on \"{name}\": {have}/{need}" if have < had
                else f"lets the opponent get closer to \"{name}\": {have}/{need}")
    if name == "combat strength":
        text = f"power {pa.power}, {pa.combat_cards} combat cards"
        if own:
            return f"{'builds' if d > 0 else 'spends'} combat strength ({text})"
        return f"{'weakens' if d > 0 else 'strengthens'} the opponent in combat ({text})"
    if name == "stars discarded" and isinstance(pa, ScytheView):
        return "gives up a star" if own else "makes the opponent give up a star"
    if name == "resources" and isinstance(pa, ScytheView):
        n = sum(k for _, _, k in pa.resources)
        return f"{'gathers' if d > 0 else 'spends'} resources ({n} on the board)" if own else \
            f"the opponent {'loses' if d > 0 else 'gains'} resources ({n} on the board)"
    if name == "cards in hand" and isinstance(pa, ExpView):
        return f"{'draws' if d > 0 else 'uses'} discovery cards ({pa.hand} in hand)" if own else \
            f"the opponent {'loses' if d > 0 else 'gains'} discovery cards ({pa.hand} in hand)"
    return f"changes {name}" if own else f"changes the opponent's {name}"


def explain(before: State, after: State, seat: int) -> str:
    """One line, in a player's words, on what a step (or a line of steps) changes most in the
    evaluation for ``seat``: the hint's reason. The largest gain leads; a second clear gain follows."""
    o = outcome(after)
    if o is not None:
        return "wins the game" if o.winner == seat else "ends the game"
    vb, va = view(before, seat), view(after, seat)
    deltas: dict[tuple[bool, str], float] = {}
    for who, sign in ((seat, 1.0), (1 - seat, -1.0)):
        tb, ta = terms(before, who), terms(after, who)
        for k in set(tb) | set(ta):
            deltas[(who == seat, k)] = sign * (ta.get(k, 0.0) - tb.get(k, 0.0))
    ranked = sorted(deltas.items(), key=lambda kv: (-kv[1], not kv[0][0], kv[0][1]))
    gains = [(key, d) for key, d in ranked if d > 1e-9]
    if not gains:
        costs = sorted(((key, d) for key, d in deltas.items() if d < -1e-9), key=lambda kv: (-kv[1], kv[0][1]))
        if not costs:
            return "no change the evaluation sees yet (sets up later steps)"
        (own, name), d = costs[0]
        return f"the least costly option: {_phrase(name, own, d, before, after, seat, vb, va)}"
    (own, name), d = gains[0]
    text = _phrase(name, own, d, before, after, seat, vb, va)
    if len(gains) > 1 and gains[1][1] >= 0.25 * d and not (name == "star" or gains[1][0][1] == "star"):
        (own2, name2), d2 = gains[1]
        text += f"; also {_phrase(name2, own2, d2, before, after, seat, vb, va)}"
    return text
