"""The Triumph Track: metrics, stars, Meloch cards and victory.

A category is *met* by a seat when the metric named by that seat's requirement reaches its number.
Scythe seats place stars automatically when a category is met; Expeditions seats need Boast
(``boastable``); combat stars come from combat (``place_combat_star``).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

import msgspec

from meloch.content import load
from meloch.content.schema import Category, Effect, MelochCard, TrackSide
from meloch.engine import flow
from meloch.engine.actions import Action
from meloch.engine.board import board
from meloch.engine.contract import MelochCardEvent, StarPlaced
from meloch.engine.model import ExpSeat, Frame, ScytheSeat, State
from meloch.engine.tx import Tx


def side(state: State) -> TrackSide:
    return load().tracks[state.setup.track_side]


def controlled(state: State, seat: int) -> set[str]:
    """Territories a seat controls. A location shared with the opposing Expeditions mech is the
    Expeditions player's; home bases and lakes are never territories."""
    p = state.seats[seat]
    opp = state.seats[1 - seat]
    b = board(state.setup.map_side)
    if isinstance(p, ExpSeat):
        return {p.loc} if b.is_territory(p.loc) else set()
    mine = {p.character, *p.mechs, *p.workers} | {loc for _, loc in p.structures}
    mine = {loc for loc in mine if loc and b.is_territory(loc)}
    if isinstance(opp, ExpSeat):
        mine.discard(opp.loc)
    else:
        enemy = {opp.character, *opp.mechs, *opp.workers}
        mine -= enemy
    return mine


def unplaced_influence(p: ScytheSeat) -> int:
    """Fenris: "Each player's coin total is continually reduced (for the coin goal on the Triumph
    Track) by the number of unplaced influence tokens in their supply" (rulebook, Faction-Specific
    Notes). Asks the Scythe abilities module; 0 when it does not know the faction."""
    try:
        from meloch.engine.scythe_abilities import unplaced_influence as fn
    except ImportError:  # pragma: no cover - the abilities module is optional for the track
        return 0
    return fn(p)


_SCYTHE_METRICS: dict[str, Callable[[State, int, ScytheSeat], int]] = {
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
    colours = [_token_colour(t) for t in p.corruption]
    table: dict[str, Callable[[], int]] = {
        "power": lambda: p.power,
        "guile": lambda: p.guile,
        "coins": lambda: p.coins,
        "workers": lambda: expeditions_workers(p),
        "corruption": lambda: len(p.corruption),
        "corruption_guile": lambda: colours.count("guile"),
        "corruption_power": lambda: colours.count("power"),
        "map_tokens": lambda: len(p.map_tokens),
        "items_upgraded": lambda: len(p.upgraded),
        "meteorites_melded": lambda: len(p.melded),
        "quests_solved": lambda: len(p.solved),
        "cards_controlled": lambda: len(p.hand) + len(p.active),
        "combat_cards": lambda: len(p.combat_cards),
        "control": lambda: len(controlled(state, state.seats.index(p))),
    }
    return table.get(metric, lambda: 0)()


def token_list() -> list[tuple[str, int]]:
    """Corruption token instances: index -> (colour, value)."""
    out: list[tuple[str, int]] = []
    for t in load().corruption:
        out.extend([(t.colour, t.value)] * t.count)
    return out


_TOKENS: list[tuple[str, int]] = []


def _token_colour(i: int) -> str:
    if not _TOKENS:
        _TOKENS.extend(token_list())
    return _TOKENS[i][0]


def token(i: int) -> tuple[str, int]:
    if not _TOKENS:
        _TOKENS.extend(token_list())
    return _TOKENS[i]


def metric(state: State, seat: int, name: str) -> int:
    p = state.seats[seat]
    if isinstance(p, ScytheSeat):
        return _scythe_metric(state, seat, p, name)
    return _exp_metric(state, p, name)


def metrics(state: State, seat: int) -> dict[str, int | list[str]]:
    """Every Triumph metric of ``seat`` as the rules compute it (``combat``: combats won), plus
    ``controlled``: the sorted locations the seat controls. For checks and displays; the state does
    not store these figures."""
    from meloch.content.vocab import METRICS

    out: dict[str, int | list[str]] = {m: metric(state, seat, m) for m in sorted(METRICS)}
    out["combat"] = state.seats[seat].combat_wins
    out["controlled"] = sorted(controlled(state, seat), key=lambda x: int(x) if x.isdigit() else 99)
    return out


def goals(state: State, seat: int) -> list[tuple[int, str, str, int, int, bool]]:
    """Every Triumph Track column on ``seat``'s edge as ``(column index, metric, label, have, need,
    open)``: what an agent's evaluation weighs (read-only; ``combat`` counts combats won). ``open``:
    no star on it yet."""
    out: list[tuple[int, str, str, int, int, bool]] = []
    for i, cat in enumerate(side(state).categories):
        req = cat.scythe if state.setup.seats[seat].role == "scythe" else cat.expeditions
        have = state.seats[seat].combat_wins if cat.combat else metric(state, seat, req.metric)
        out.append((i, req.metric, req.label, have, req.n, not state.track[i]))
    return out


def requirement_of(state: State, seat: int, cat: Category) -> tuple[str, int]:
    req = cat.scythe if state.setup.seats[seat].role == "scythe" else cat.expeditions
    return req.metric, req.n


def met(state: State, seat: int, cat: Category) -> bool:
    m, n = requirement_of(state, seat, cat)
    return not cat.combat and metric(state, seat, m) >= n


def stars_of(state: State, seat: int) -> int:
    return sum(col.count(seat) for col in state.track)


def boastable(state: State, seat: int) -> list[int]:
    """Open, met, non-combat categories (column indexes) the seat may Boast onto."""
    t = side(state)
    return [i for i, cat in enumerate(t.categories) if not state.track[i] and met(state, seat, cat)]


# ---------------------------------------------------------------- placing stars


def place_star(tx: Tx, seat: int, col: int, why: str) -> None:
    s = tx.s
    track = list(s.track)
    track[col] = (*track[col], seat)
    s.track = tuple(track)
    cat = side(s).categories[col]
    p = tx.seat(seat)
    if isinstance(p, ScytheSeat):
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
        tx.push(Frame(kind="meloch_draw", seat=1 - seat))


def combat_star_columns(state: State, seat: int) -> list[int]:
    """Combat categories (column indexes) a combat winner may put its star on: the open ones; for
    Saxony (``dominate``), once none is open, every claimed one, by either player (rulebook,
    Saxony: "first open categories, then stack on categories claimed by either player")."""
    cats = side(state).categories
    cols = [i for i, c in enumerate(cats) if c.combat and not state.track[i]]
    p = state.seats[seat]
    if not cols and isinstance(p, ScytheSeat) and load().factions[p.faction].ability == "dominate":
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
    if isinstance(p, ScytheSeat) and p.stars_unplaced <= 0:
        tx.log("star", f"{flow.tag(s, seat)} has no unplaced star: the combat star is lost.", seat=seat)
        return
    if len(cols) == 1:
        place_star(tx, seat, cols[0], "combat victory")
    else:
        tx.push(Frame(kind="c_star", seat=seat))


def _combat_star_options(state: State, f: Frame) -> list[Action]:
    return [flow.act(state, f.seat, "star", str(i + 1)) for i in combat_star_columns(state, f.seat)]


@flow.handler("c_star", "Combat victory: choose the combat category that takes your star.", _combat_star_options)
def _combat_star(tx: Tx, f: Frame, a: Action | None) -> None:
    assert a is not None
    place_star(tx, f.seat, int(a.args[0]) - 1, "combat victory")


@cache
def _scythe_reqs(track_side: str) -> tuple[tuple[int, str, int], ...]:
    """(column, metric, number) of every non-combat category on the Scythe edge."""
    cats = load().tracks[track_side].categories
    return tuple((i, c.scythe.metric, c.scythe.n) for i, c in enumerate(cats) if not c.combat)


def check_scythe_stars(tx: Tx) -> None:
    """Scythe seats place a star at once on every open category they meet."""
    s = tx.s
    if s.winner >= 0 or not s.track:
        return
    reqs = _scythe_reqs(s.setup.track_side)
    for seat in (s.active, 1 - s.active):  # Scythe vs Scythe: the player whose turn it is first
        if not isinstance(s.seats[seat], ScytheSeat):
            continue
        for i, m, n in reqs:
            p = s.seats[seat]
            assert isinstance(p, ScytheSeat)
            if s.winner >= 0:
                return
            if s.track[i] or _scythe_metric(s, seat, p, m) < n:
                continue
            if p.stars_unplaced <= 0:
                continue  # Leverage: the category waits until a star is regained
            place_star(tx, seat, i, "requirement met")


flow.AFTER_STEP.append(check_scythe_stars)


# ---------------------------------------------------------------- Meloch cards


def meloch_card(cid: str) -> MelochCard:
    return next(c for c in load().meloch_cards if c.id == cid)


def visible_meloch(state: State, seat: int) -> list[Effect]:
    """Benefits facing ``seat`` on all visible Meloch halves.

    Model (reference.md §1.9, AMB-44): the row grows to the right and each new card covers the
    right half of the previous one, so every card but the newest shows its left half. A rotated
    card swaps its halves and which seat each benefit faces. Seat 0 sits at the Scythe edge (the
    star-badge edge); a benefit for a track the seat's role lacks is read as its parallel track
    (popularity <-> guile), as the rulebook does for "decrease each token on tracks" in the variants;
    in the standard duel too, a reading recorded in docs/rules-notes.md ("Rules review", item 8)."""
    out: list[Effect] = []
    row = state.meloch_row
    for i, (cid, rotated) in enumerate(row):
        card = meloch_card(cid)
        halves = [card.right, card.left] if rotated else [card.left, card.right]
        shown = halves if i == len(row) - 1 else halves[:1]
        for h in shown:
            toward_me = (seat == 0) != rotated
            out.extend(_for_role(state, seat, e) for e in (h.toward_scythe if toward_me else h.toward_expeditions))
    return out


_PARALLEL = {"scythe": {"guile": "popularity"}, "expeditions": {"popularity": "guile"}}


def _for_role(state: State, seat: int, e: Effect) -> Effect:
    new = _PARALLEL[state.setup.seats[seat].role].get(e.op)
    return Effect(op=new, n=e.n, arg=e.arg) if new else e


@flow.handler("meloch_draw", "draw a Meloch card")
def _meloch_draw(tx: Tx, f: Frame, a: Action | None) -> None:
    """Draw the top Meloch card (it is placed face up at once, so the draw is public), then
    choose its orientation knowing the card."""
    s = tx.s
    if not s.meloch_deck:
        return
    cid = s.meloch_deck[-1]
    s.meloch_deck = s.meloch_deck[:-1]
    tx.log("meloch", f"{flow.tag(s, f.seat)} draws Meloch card {meloch_card(cid).name}.", seat=f.seat,
           data=MelochCardEvent(card=cid, rotated=False, placed=False))
    tx.push(Frame(kind="meloch_orient", seat=f.seat, tag=cid))


def _return_drawn_meloch(tx: Tx) -> None:
    """A Meloch card drawn but not yet placed when the game ends goes back on its deck."""
    drawn = tuple(f.tag for f in tx.s.frames if f.kind == "meloch_orient")
    if drawn:
        tx.s.meloch_deck = (*tx.s.meloch_deck, *reversed(drawn))


flow.GAME_END.append(_return_drawn_meloch)


def _orient_options(state: State, f: Frame) -> list[Action]:
    return [flow.act(state, f.seat, "meloch", "upright"), flow.act(state, f.seat, "meloch", "rotated")]


def facing_after(state: State, seat: int, cid: str, rotated: bool) -> list[Effect]:
    """The benefits that would face ``seat`` once ``cid`` is placed so."""
    return visible_meloch(msgspec.structs.replace(state, meloch_row=(*state.meloch_row, (cid, rotated))), seat)


def _orient_prompt(state: State, f: Frame) -> str:
    from meloch.engine.effects import describe

    def gains(rotated: bool) -> str:
        return ", ".join(describe(e) for e in facing_after(state, f.seat, f.tag, rotated)) or "nothing"

    return (f"Your opponent placed a star: place Meloch card {meloch_card(f.tag).name} over half of the "
            f"last one. Upright, the visible benefits facing you are: {gains(False)}; rotated: {gains(True)}.")


@flow.handler("meloch_orient", _orient_prompt, _orient_options)
def _meloch_orient(tx: Tx, f: Frame, a: Action | None) -> None:
    assert a is not None
    s = tx.s
    cid = f.tag
    rotated = a.args[0] == "rotated"
    s.meloch_row = (*s.meloch_row, (cid, rotated))
    tx.log("meloch", f"{flow.tag(s, f.seat)} places Meloch card {meloch_card(cid).name} "
           f"{'rotated' if rotated else 'upright'}.", seat=f.seat,
           data=MelochCardEvent(card=cid, rotated=rotated, placed=True))
    gains = visible_meloch(s, f.seat)
    if gains:
        tx.push(Frame(kind="meloch_gain", seat=f.seat, effects=tuple(gains)))


def _gain_options(state: State, f: Frame) -> list[Action]:
    opts = [flow.act(state, f.seat, "take", "all"), flow.act(state, f.seat, "take", "none")]
    if len(f.effects) > 1:
        opts += [flow.act(state, f.seat, "take", "first"), flow.act(state, f.seat, "take", "skip-first")]
    return opts


def _gain_prompt(state: State, f: Frame) -> str:
    from meloch.engine import effects

    return ("Meloch benefits facing you: " + ", ".join(effects.describe(e) for e in f.effects)
            + ". Take all, none, or decide on the first one and then on the rest.")


@flow.handler("meloch_gain", _gain_prompt, _gain_options)
def _meloch_gain(tx: Tx, f: Frame, a: Action | None) -> None:
    from meloch.engine import effects

    assert a is not None
    choice = a.args[0]
    rest = f.effects[1:]
    if choice in ("first", "skip-first") and rest:
        tx.push(Frame(kind="meloch_gain", seat=f.seat, effects=rest))
    if choice == "all":
        effects.queue(tx, f.seat, f.effects, "Meloch card")
    elif choice == "first":
        effects.queue(tx, f.seat, f.effects[:1], "Meloch card")
    else:
        tx.log("meloch", f"{flow.tag(tx.s, f.seat)} declines a Meloch benefit.", seat=f.seat)
