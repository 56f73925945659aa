"""The Triumph Track: metrics, stars and victory (a star placed pushes a ``meloch_draw`` frame,
resolved in ``meloch_cards.py``).

A category is *met* by a seat when the metric named by that seat's requirement reaches its number.
Scythe seats place stars automatically when a category is met; Expeditions seats need Boast
(``boastable``); combat stars come from combat (``place_combat_star``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from meloch.content.schema import Category, TrackSide
from meloch.content.vocab import METRICS
from meloch.engine import flow
from meloch.engine import frames as K
from meloch.engine.actions import Action
from meloch.engine.board import board
from meloch.engine.contract import StarPlaced
from meloch.engine.game_content import active, bound, index
from meloch.engine.model import ExpSeat, Frame, ScytheSeat, State
from meloch.engine.tx import Tx, is_exp, is_scythe


def side(state: State) -> TrackSide:
    return active().tracks[state.setup.track_side]


def controlled(state: State, seat: int) -> set[str]:
    """Territories a seat controls. A location shared with the opposing Expeditions mech is the
    Expeditions player's; home bases and lakes are never territories."""
    p = state.seats[seat]
    opp = state.seats[1 - seat]
    terr = board(state.setup.map_side).territories
    if is_exp(p):
        return {p.loc} if p.loc in terr else set()
    mine = set(p.workers)
    mine.update(p.mechs)
    mine.add(p.character)
    for _, loc in p.structures:
        mine.add(loc)
    mine &= terr  # also drops "" (no character on the board)
    if is_exp(opp):
        mine.discard(opp.loc)
    else:
        mine.discard(opp.character)
        mine.difference_update(opp.mechs)
        mine.difference_update(opp.workers)
    return mine


COIN_REDUCTION: Final[list[Callable[[ScytheSeat], int]]] = []
"""Coins not counted for the coin category (Fenris' unplaced influence): (seat) -> n."""


def unplaced_influence(p: ScytheSeat) -> int:
    """Fenris: "Each player's coin total is continually reduced (for the coin goal on the Triumph
    Track) by the number of unplaced influence tokens in their supply" (rulebook, Faction-Specific
    Notes). The Scythe abilities register the count in ``COIN_REDUCTION``."""
    n = 0
    for fn in COIN_REDUCTION:  # a loop, not sum(generator): this runs at every step
        n += fn(p)
    return n


_SCYTHE_METRICS: Final[dict[str, Callable[[State, int, ScytheSeat], int]]] = {
    "coins": lambda s, i, p: max(0, p.coins - unplaced_influence(p)),
    "popularity": lambda s, i, p: p.popularity,
    "power": lambda s, i, p: p.power,
    "encounters": lambda s, i, p: p.encounters,
    "structures": lambda s, i, p: len(p.structures),
    "upgrades": lambda s, i, p: len(p.top_upgrades),
    "mechs": lambda s, i, p: len(p.mechs),
    "recruits": lambda s, i, p: len(p.recruits),
    "workers": lambda s, i, p: len(p.workers),
    "control": lambda s, i, p: len(controlled(s, i)),
    "combat_cards": lambda s, i, p: len(p.combat_cards),
}


def _scythe_metric(state: State, seat: int, p: ScytheSeat, metric: str) -> int:
    fn = _SCYTHE_METRICS.get(metric)
    return fn(state, seat, p) if fn else 0


def expeditions_workers(p: ExpSeat) -> int:
    return len(p.workers) + sum(1 for _, w in p.active if w)


def _exp_metric(state: State, p: ExpSeat, metric: str) -> int:
    # Plain branches, most frequent first: this runs for every open category at every Boast check.
    if metric == "power":
        return p.power
    if metric == "guile":
        return p.guile
    if metric == "coins":
        return p.coins
    if metric == "workers":
        return expeditions_workers(p)
    if metric == "corruption":
        return len(p.corruption)
    if metric == "corruption_guile" or metric == "corruption_power":
        colour = metric[len("corruption_"):]
        tokens = index().corruption_tokens
        return sum(1 for t in p.corruption if tokens[t][0] == colour)
    if metric == "map_tokens":
        return len(p.map_tokens)
    if metric == "items_upgraded":
        return len(p.upgraded)
    if metric == "meteorites_melded":
        return len(p.melded)
    if metric == "quests_solved":
        return len(p.solved)
    if metric == "cards_controlled":
        return len(p.hand) + len(p.active)
    if metric == "combat_cards":
        return len(p.combat_cards)
    if metric == "control":
        return len(controlled(state, state.seats.index(p)))
    return 0


def token_list() -> list[tuple[str, int]]:
    """Corruption token instances: index -> (colour, value)."""
    return list(index().corruption_tokens)


def _token_colour(i: int) -> str:
    return index().corruption_tokens[i][0]


def token(i: int) -> tuple[str, int]:
    return index().corruption_tokens[i]


def metric(state: State, seat: int, name: str) -> int:
    p = state.seats[seat]
    if is_scythe(p):
        return _scythe_metric(state, seat, p, name)
    return _exp_metric(state, p, name)


@bound
def metrics(state: State, seat: int) -> dict[str, int | list[str]]:
    """Every Triumph metric of ``seat`` as the rules compute it (``combat``: combats won), plus
    ``controlled``: the sorted locations the seat controls. For checks and displays; the state does
    not store these figures."""
    out: dict[str, int | list[str]] = {m: metric(state, seat, m) for m in sorted(METRICS)}
    out["combat"] = state.seats[seat].combat_wins
    out["controlled"] = sorted(controlled(state, seat), key=lambda x: int(x) if x.isdigit() else 99)
    return out


def goals(state: State, seat: int) -> list[tuple[int, str, str, int, int, bool]]:
    """Every Triumph Track column on ``seat``'s edge as ``(column index, metric, label, have, need,
    open)``: what an agent's evaluation weighs (read-only; ``combat`` counts combats won). ``open``:
    no star on it yet."""
    out: list[tuple[int, str, str, int, int, bool]] = []
    p = state.seats[seat]
    track = state.track
    rows = _edge_rows(state, seat)
    if is_scythe(p):
        for i, m, label, n, combat in rows:
            out.append((i, m, label, p.combat_wins if combat else _scythe_metric(state, seat, p, m), n, not track[i]))
    else:
        for i, m, label, n, combat in rows:
            out.append((i, m, label, p.combat_wins if combat else _exp_metric(state, p, m), n, not track[i]))
    return out


def _edge_rows(state: State, seat: int) -> tuple[tuple[int, str, str, int, bool], ...]:
    """(column, metric, label, number, combat) of every category on ``seat``'s edge, precomputed in
    the content index (``goals``, ``can_boast`` and ``boastable`` run at every search node)."""
    setup = state.setup
    return index().goal_rows[(setup.track_side, setup.seats[seat].role)]


def requirement_of(state: State, seat: int, cat: Category) -> tuple[str, int]:
    req = cat.scythe if state.setup.seats[seat].role == "scythe" else cat.expeditions
    return req.metric, req.n


def met(state: State, seat: int, cat: Category) -> bool:
    m, n = requirement_of(state, seat, cat)
    return not cat.combat and metric(state, seat, m) >= n


def stars_of(state: State, seat: int) -> int:
    return sum(col.count(seat) for col in state.track)


def can_boast(state: State, seat: int) -> bool:
    """Is any category boastable (``boastable`` non-empty), stopping at the first (``met`` on the
    precomputed rows of the seat's edge: this runs for every option list that offers a Boast)."""
    track = state.track
    for i, m, _label, n, combat in _edge_rows(state, seat):
        if not combat and not track[i] and metric(state, seat, m) >= n:
            return True
    return False


def boastable(state: State, seat: int) -> list[int]:
    """Open, met, non-combat categories (column indexes) the seat may Boast onto."""
    track = state.track
    return [i for i, m, _label, n, combat in _edge_rows(state, seat)
            if not combat and not track[i] and metric(state, seat, m) >= n]


# ---------------------------------------------------------------- placing stars


def place_star(tx: Tx, seat: int, col: int, why: str) -> None:
    s = tx.s
    track = list(s.track)
    track[col] = (*track[col], seat)
    s.track = tuple(track)
    cat = side(s).categories[col]
    p = tx.seat(seat)
    if is_scythe(p):
        p.stars_unplaced -= 1
    n = stars_of(s, seat)
    label = (cat.scythe if s.setup.seats[seat].role == "scythe" else cat.expeditions).label
    tx.log("star", f"{flow.tag(s, seat)} places star {n} on column {col + 1} ({label}): {why}.", seat=seat,
           data=StarPlaced(column=col, category=label))
    if n >= s.setup.seats[seat].stars_to_win:
        s.winner = seat
        s.reason = f"{n} stars"
        tx.log("end", f"{flow.tag(s, seat)} wins with {n} stars.", seat=seat)
        return
    if n <= 3:
        tx.push(Frame(kind=K.MELOCH_DRAW, seat=1 - seat))


STACK_COMBAT_STARS: Final[list[Callable[[ScytheSeat], bool]]] = []
"""May this seat place a combat star on a combat category already taken (Saxony's Dominate)?"""


def combat_star_columns(state: State, seat: int) -> list[int]:
    """Combat categories (column indexes) a combat winner may put its star on: the open ones; for
    Saxony (``dominate``), once none is open, every claimed one, by either player (rulebook,
    Saxony: "first open categories, then stack on categories claimed by either player")."""
    cats = side(state).categories
    cols = [i for i, c in enumerate(cats) if c.combat and not state.track[i]]
    p = state.seats[seat]
    if not cols and is_scythe(p) and any(may(p) for may in STACK_COMBAT_STARS):
        cols = [i for i, c in enumerate(cats) if c.combat]
    return cols


def place_combat_star(tx: Tx, seat: int) -> None:
    """A combat winner's star. With one possible category it is placed at once; with more (track
    side B, or Saxony stacking) the winner chooses (frame ``c_star``)."""
    s = tx.s
    cols = combat_star_columns(s, seat)
    p = s.seats[seat]
    if not cols:
        tx.log("star", f"{flow.tag(s, seat)} wins the combat but no combat category is open.", seat=seat)
        return
    if is_scythe(p) and p.stars_unplaced <= 0:
        tx.log("star", f"{flow.tag(s, seat)} has no unplaced star: the combat star is lost.", seat=seat)
        return
    if len(cols) == 1:
        place_star(tx, seat, cols[0], "combat victory")
    else:
        tx.push(Frame(kind=K.C_STAR, seat=seat))


def _combat_star_options(state: State, f: Frame) -> list[Action]:
    return [flow.act(state, f.seat, "star", str(i + 1)) for i in combat_star_columns(state, f.seat)]


@flow.handler(K.C_STAR, "Combat victory: choose the combat category that takes your star.", _combat_star_options)
def _combat_star(tx: Tx, f: Frame, a: Action | None) -> None:
    assert a is not None
    place_star(tx, f.seat, int(a.args[0]) - 1, "combat victory")


def _scythe_reqs(track_side: str) -> tuple[tuple[int, str, int], ...]:
    """(column, metric, number) of every non-combat category on the Scythe edge."""
    return index().scythe_reqs[track_side]


def check_scythe_stars(tx: Tx) -> None:
    """Scythe seats place a star at once on every open category they meet.

    Incremental (it runs before every decision): every metric is a function of the seats and a
    category never reopens, so only seats handed out for writing since the last pass
    (``tx.touched``) can have met something new. A seat's metrics read its own seat only, except
    control, which also reads the other seat's units: an untouched Scythe seat whose opponent was
    touched checks its control categories only; with no seat touched the pass is skipped."""
    touched = tx.touched
    if not touched:
        return
    s = tx.s
    if s.winner >= 0 or not s.track:
        return
    reqs = _scythe_reqs(s.setup.track_side)
    first = s.active
    for seat in (first, 1 - first):  # Scythe vs Scythe: the player whose turn it is first
        p = s.seats[seat]
        if not is_scythe(p):
            continue
        own = seat in touched
        if not own and (1 - seat) not in touched:
            continue
        track = s.track  # read once (this runs before every decision); re-read after a star
        for i, m, n in reqs:
            if (not own and m != "control") or track[i]:
                continue
            if _scythe_metric(s, seat, p, m) < n:
                continue
            if p.stars_unplaced <= 0:
                continue  # Leverage: the category waits until a star is regained
            place_star(tx, seat, i, "requirement met")
            if s.winner >= 0:
                return
            track = s.track
            p = s.seats[seat]
            assert is_scythe(p)
    tx.touched = set()  # a full pass: every met open category now holds a star (or waits for one)


flow.AFTER_STEP.append(check_scythe_stars)
