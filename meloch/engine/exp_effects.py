"""Effect ops of the Expeditions player: cards, workers, corruption, Upgrade/Meld/Solve/Boast.

Each op either changes the state at once or pushes one decision frame; a frame's options list is
the only authority on what may be chosen.
"""

from __future__ import annotations

from collections.abc import Callable

from meloch.content import load
from meloch.content.schema import Effect
from meloch.engine import effects, exp_items, flow, track, variants
from meloch.engine.actions import Action
from meloch.engine.board import board
from meloch.engine.cards import card, combat_name, combat_token
from meloch.engine.expeditions import ep, gain_map_token, gather_benefits, refresh
from meloch.engine.model import ExpSeat, Frame, ScytheSeat, State
from meloch.engine.tx import Tx

COLOURS = ("purple", "green", "red", "yellow", "blue")


def _cap(state: State, seat: int) -> int:
    return load().mechs[ep(state, seat).mech].cap


# ---------------------------------------------------------------- workers


def supply_workers(state: State, colour: str) -> int:
    per = load().supply.expeditions_workers_per_colour
    held = 0
    for p in state.seats:
        if isinstance(p, ExpSeat):
            held += p.workers.count(colour) + sum(1 for _, w in p.active if w == colour)
    return per - held


@effects.op("worker", "expeditions")
def _worker(tx: Tx, seat: int, e: Effect) -> None:
    if e.arg in COLOURS:
        _gain_worker(tx, seat, e.arg)
    else:
        tx.push(Frame(kind="e_worker_colour", seat=seat))


def _gain_worker(tx: Tx, seat: int, colour: str) -> None:
    """Gain a coloured worker from the limited supply (3 per colour). The hero worker is never
    gained: "You cannot gain more hero workers" (rulebook, Expeditions Special Notes)."""
    if colour not in COLOURS:
        return
    if supply_workers(tx.s, colour) <= 0:
        tx.log("gain", f"No {colour} worker is left in the supply.", seat=seat)
        return
    p = tx.ex(seat)
    p.workers = (*p.workers, colour)
    tx.log("gain", f"{flow.tag(tx.s, seat)} gains a {colour} worker.", seat=seat)


def trash_workers(tx: Tx, seat: int, n: int) -> None:
    """Return ``n`` workers from the mat to the supply (a worker cost), coloured ones first. A
    trashed hero worker is gone for good: "if you trash your hero worker, you cannot regain it"."""
    p = tx.ex(seat)
    ws = list(p.workers)
    for _ in range(n):
        if not ws:
            break
        w = next((x for x in ws if x != "hero"), ws[0])
        ws.remove(w)
        if w == "hero":
            p.hero_trashed = True
            tx.log("trash", f"{flow.tag(tx.s, seat)} trashes the hero worker (it cannot be regained).", seat=seat)
    p.workers = tuple(ws)


@flow.handler("e_worker_colour", "Gain a worker: choose its colour (3 of each colour in the supply).",
              lambda s, f: [flow.act(s, f.seat, "worker-colour", c) for c in COLOURS if supply_workers(s, c) > 0])
def _worker_colour(tx: Tx, f: Frame, a: Action | None) -> None:
    assert a is not None
    _gain_worker(tx, f.seat, a.args[0])


# ---------------------------------------------------------------- cards


def draw_discovery(tx: Tx) -> str | None:
    s = tx.s
    if not s.discovery_deck and s.discovery_discard:
        s.discovery_deck = tx.shuffled(s.discovery_discard)
        s.discovery_discard = ()
        tx.log("shuffle", "The sweep pile is shuffled into a new discovery deck.")
    if not s.discovery_deck:
        return None
    c = s.discovery_deck[-1]
    s.discovery_deck = s.discovery_deck[:-1]
    return c


GainHook = Callable[[Tx, int, str], None]
GAIN_HOOKS: list[GainHook] = []
"""Called after a card is gained (Highlander offers to move it to the hand)."""


def gain_card(tx: Tx, seat: int, cid: str, how: str) -> None:
    """A gained card goes to the right end of the active row, without benefit or worker
    (ref §2.4); Highlander may then move it to the hand (``GAIN_HOOKS``)."""
    p = tx.ex(seat)
    p.active = (*p.active, (cid, ""))
    tx.log("gain", f"{flow.tag(tx.s, seat)} gains {card(cid).name} ({how}).", seat=seat)
    for hook in GAIN_HOOKS:
        hook(tx, seat, cid)


@effects.op("discovery", "expeditions")
def _discovery(tx: Tx, seat: int, e: Effect) -> None:
    for _ in range(e.n):
        c = draw_discovery(tx)
        if c:
            gain_card(tx, seat, c, "drawn")


@effects.op("take_card", "expeditions")
def _take_card(tx: Tx, seat: int, e: Effect) -> None:
    tx.push(Frame(kind="e_take", seat=seat))


@flow.handler("e_take", "Gain a face-up card from a lake.",
              lambda s, f: [flow.act(s, f.seat, "take", lake, c) for lake, c in s.lakes if c])
def _take(tx: Tx, f: Frame, a: Action | None) -> None:
    assert a is not None
    lake, cid = a.args
    gain_card(tx, f.seat, cid, f"from {lake}")
    refill(tx, lake)


def refill(tx: Tx, lake: str) -> None:
    new = draw_discovery(tx) or ""
    tx.s.lakes = tuple((lk, new if lk == lake else c) for lk, c in tx.s.lakes)
    if new:
        tx.log("reveal", f"{card(new).name} is dealt face up on {lake}.")


@effects.op("sweep")
def _sweep(tx: Tx, seat: int, e: Effect) -> None:
    if tx.s.setup.variant != "scythe_vs_scythe":
        tx.push(Frame(kind="sweep", seat=seat))


@flow.handler("sweep", "Sweep: choose face-up cards to replace, one at a time, then finish.",
              lambda s, f: [flow.act(s, f.seat, "sweep", lake) for lake, c in s.lakes if c and lake not in f.items]
              + [flow.act(s, f.seat, "sweep", "done")])
def _sweep_choice(tx: Tx, f: Frame, a: Action | None) -> None:
    assert a is not None
    lake = a.args[0]
    if lake == "done":
        return
    old = dict(tx.s.lakes)[lake]
    tx.s.discovery_discard = (*tx.s.discovery_discard, old)
    tx.log("sweep", f"{flow.tag(tx.s, f.seat)} sweeps {card(old).name} from {lake}.", seat=f.seat)
    refill(tx, lake)
    tx.push(Frame(kind="sweep", seat=f.seat, items=(*f.items, lake)))


@effects.op("refresh", "expeditions")
def _refresh(tx: Tx, seat: int, e: Effect) -> None:
    refresh(tx, seat)


@effects.op("play", "expeditions")
def _play(tx: Tx, seat: int, e: Effect) -> None:
    if ep(tx.s, seat).hand:
        tx.push(Frame(kind="e_play", seat=seat))


def _controlled_cards(state: State, seat: int, kind: str) -> list[str]:
    p = ep(state, seat)
    return sorted({c for c in (*p.hand, *(c for c, _ in p.active)) if card(c).kind == kind})


def _remove_card(tx: Tx, seat: int, cid: str) -> None:
    """Take a card out of hand or the active row; a worker on it returns to the mat."""
    p = tx.ex(seat)
    if cid in p.hand:
        hand = list(p.hand)
        hand.remove(cid)
        p.hand = tuple(hand)
        return
    for i, (c, w) in enumerate(p.active):
        if c == cid:
            p.active = p.active[:i] + p.active[i + 1:]
            if w:
                p.workers = (*p.workers, w)
            return


def _tuck_op(kind: str, field: str, verb: str) -> None:
    @effects.op(verb, "expeditions")
    def fn(tx: Tx, seat: int, e: Effect) -> None:
        p = ep(tx.s, seat)
        if len(getattr(p, field)) < _cap(tx.s, seat):
            tx.push(Frame(kind=f"e_{verb}", seat=seat))

    def options(state: State, f: Frame) -> list[Action]:
        return [flow.act(state, f.seat, verb, c) for c in _controlled_cards(state, f.seat, kind)]

    @flow.handler(f"e_{verb}", f"{verb.capitalize()}: choose a {kind} you control to tuck.", options)
    def resolve(tx: Tx, f: Frame, a: Action | None) -> None:
        assert a is not None
        cid = a.args[0]
        _remove_card(tx, f.seat, cid)
        p = tx.ex(f.seat)
        setattr(p, field, (*getattr(p, field), cid))
        tx.log(verb, f"{flow.tag(tx.s, f.seat)} {verb}s {card(cid).name}.", seat=f.seat)
        if verb == "meld":
            bonus = [b for m in p.melded for b in card(m).meld]
            effects.queue(tx, f.seat, bonus, "meld bonuses")


_tuck_op("item", "upgraded", "upgrade")
_tuck_op("meteorite", "melded", "meld")


@effects.op("solve", "expeditions")
def _solve(tx: Tx, seat: int, e: Effect) -> None:
    if len(ep(tx.s, seat).solved) < _cap(tx.s, seat):
        tx.push(Frame(kind="e_solve", seat=seat, tag=e.arg))


def solvable(state: State, seat: int) -> list[str]:
    p = ep(state, seat)
    return [c for c in _controlled_cards(state, seat, "quest")
            if p.loc in card(c).solve_locations and effects.can_pay(state, seat, card(c).solve_cost)]


@flow.handler("e_solve", "Solve: choose a quest for this location and pay its cost.",
              lambda s, f: [flow.act(s, f.seat, "solve", c) for c in solvable(s, f.seat)])
def _solve_choice(tx: Tx, f: Frame, a: Action | None) -> None:
    assert a is not None
    c = card(a.args[0])
    effects.pay(tx, f.seat, c.solve_cost, f"solving {c.name}")
    _remove_card(tx, f.seat, c.id)
    p = tx.ex(f.seat)
    p.solved = (*p.solved, c.id)
    tx.log("solve", f"{flow.tag(tx.s, f.seat)} solves {c.name}.", seat=f.seat)
    effects.queue(tx, f.seat, c.solve_gain, f"quest {c.name}")
    if f.tag == "nikte":
        for q in p.solved:
            effects.add_stat(tx, f.seat, card(q).core, card(q).core_value, "Nikte: solved quests")


@effects.op("boast", "expeditions")
def _boast(tx: Tx, seat: int, e: Effect) -> None:
    tx.push(Frame(kind="e_boast", seat=seat))


def _boast_options(state: State, f: Frame) -> list[Action]:
    return [flow.act(state, f.seat, "boast", str(i + 1)) for i in track.boastable(state, f.seat)]


@flow.handler("e_boast", "Boast: place a star on a Triumph category whose requirement you meet.", _boast_options)
def _boast_choice(tx: Tx, f: Frame, a: Action | None) -> None:
    assert a is not None
    track.place_star(tx, f.seat, int(a.args[0]) - 1, "Boast")


@effects.op("rescue", "expeditions")
def _rescue(tx: Tx, seat: int, e: Effect) -> None:
    if ep(tx.s, seat).active:
        tx.push(Frame(kind="e_rescue", seat=seat))


@flow.handler("e_rescue", "Rescue: return a card from your active row to your hand.",
              lambda s, f: [flow.act(s, f.seat, "rescue", c) for c in sorted({c for c, _ in ep(s, f.seat).active})])
def _rescue_choice(tx: Tx, f: Frame, a: Action | None) -> None:
    assert a is not None
    _remove_card(tx, f.seat, a.args[0])
    p = tx.ex(f.seat)
    p.hand = (*p.hand, a.args[0])
    tx.log("rescue", f"{flow.tag(tx.s, f.seat)} rescues {card(a.args[0]).name}.", seat=f.seat)


@effects.op("discard", "expeditions")
def _discard(tx: Tx, seat: int, e: Effect) -> None:
    if ep(tx.s, seat).hand:
        tx.push(Frame(kind="e_discard", seat=seat))


@flow.handler("e_discard", "Discard: move a card from hand to your active row without activating it.",
              lambda s, f: [flow.act(s, f.seat, "discard", c) for c in sorted(set(ep(s, f.seat).hand))])
def _discard_choice(tx: Tx, f: Frame, a: Action | None) -> None:
    assert a is not None
    _remove_card(tx, f.seat, a.args[0])
    p = tx.ex(f.seat)
    p.active = (*p.active, (a.args[0], ""))
    tx.log("discard", f"{flow.tag(tx.s, f.seat)} discards {card(a.args[0]).name} to the active row.", seat=f.seat)


@effects.op("trash", "expeditions")
def _trash(tx: Tx, seat: int, e: Effect) -> None:
    tx.push(Frame(kind="e_trash", seat=seat))


def _trash_options(state: State, f: Frame) -> list[Action]:
    p = ep(state, f.seat)
    ids = sorted({c for c in (*p.hand, *(c for c, _ in p.active))
                  if card(c).kind not in ("character", "companion")})
    return ([flow.act(state, f.seat, "trash", c) for c in ids]
            + [flow.act(state, f.seat, "trash", combat_token(c)) for c in sorted(set(p.combat_cards))])


@flow.handler("e_trash", "Trash a discovery card or a combat card.", _trash_options)
def _trash_choice(tx: Tx, f: Frame, a: Action | None) -> None:
    assert a is not None
    x = a.args[0]
    if x.startswith("c") and x[1:].isdigit():
        p = tx.ex(f.seat)
        cards = list(p.combat_cards)
        cards.remove(int(x[1:]))
        p.combat_cards = tuple(cards)
        tx.s.combat_discard = (*tx.s.combat_discard, int(x[1:]))
        tx.log("trash", f"{flow.tag(tx.s, f.seat)} trashes a combat card ({combat_name(int(x[1:]))}).", seat=f.seat)
    else:
        _remove_card(tx, f.seat, x)
        tx.s.discovery_discard = (*tx.s.discovery_discard, x)
        tx.log("trash", f"{flow.tag(tx.s, f.seat)} trashes {card(x).name}.", seat=f.seat)


# ---------------------------------------------------------------- map tokens, corruption, Vanquish


@effects.op("map_token", "expeditions")
def _map_token(tx: Tx, seat: int, e: Effect) -> None:
    t = effects.draw_map_token(tx)
    if t is not None:
        gain_map_token(tx, seat, t)


def stack_at(state: State, loc: str) -> tuple[int, ...]:
    return next((st for lc, st in state.corruption if lc == loc), ())


def take_corruption(tx: Tx, seat: int, loc: str, why: str) -> None:
    s = tx.s
    st = stack_at(s, loc)
    tok = st[-1]
    rest = st[:-1]
    s.corruption = tuple((lc, rest if lc == loc else x) for lc, x in s.corruption if lc != loc or rest)
    p = tx.ex(seat)
    p.corruption = (*p.corruption, tok)
    colour, value = track.token(tok)
    tx.log("corruption", f"{flow.tag(s, seat)} gains a {colour} {value} corruption token ({why}).", seat=seat)
    if not rest:
        s.revealed = (*s.revealed, loc)
        lo = board(s.setup.map_side).loc[loc]
        tx.log("reveal", f"Location {loc} is cleared: {', '.join(effects.describe(x) for x in lo.revealed)} "
               "is exposed.", seat=seat)


@effects.op("corruption", "expeditions")
def _corruption(tx: Tx, seat: int, e: Effect) -> None:
    loc = ep(tx.s, seat).loc
    if stack_at(tx.s, loc):
        take_corruption(tx, seat, loc, "gained")


def attack_targets(state: State, seat: int) -> bool:
    """Opposing combat units on the mech's location (Vanquish may attack them)."""
    p = ep(state, seat)
    o = state.seats[1 - seat]
    b = board(state.setup.map_side)
    if not (b.is_territory(p.loc) or state.stalemate_open):
        return False
    if isinstance(o, ScytheSeat):
        return p.loc in (o.character, *o.mechs)
    return p.loc == o.loc


VanquishDiscount = Callable[[State, int, Frame, str], int]
VANQUISH_DISCOUNTS: list[VanquishDiscount] = []
"""Mech discounts on a Vanquish token: (state, seat, the e_vanquish frame, token colour) -> amount
(Lumberjack). ``Frame.items`` lists the colours already paid in this Vanquish."""


def vanquish_cost(state: State, seat: int, f: Frame) -> tuple[str, int]:
    """Colour and price of the top corruption token here for this step of the Vanquish: its value,
    less 1 for the first token of a Vanquish per active ``vanquish_discount`` item, less the
    mech's discounts (never below 0)."""
    p = ep(state, seat)
    colour, value = track.token(stack_at(state, p.loc)[-1])
    d = exp_items.count(state, seat, "vanquish_discount") if f.count == 0 else 0
    d += sum(fn(state, seat, f, colour) for fn in VANQUISH_DISCOUNTS)
    return colour, max(0, value - d)


def _vanquish_options(state: State, f: Frame) -> list[Action]:
    p = ep(state, f.seat)
    if variants.must_attack(state, f.seat) and attack_targets(state, f.seat):
        return [flow.act(state, f.seat, "vanquish", "attack")]  # E vs E: sharing means combat
    out = []
    if stack_at(state, p.loc):
        colour, value = vanquish_cost(state, f.seat, f)
        if int(getattr(p, colour)) >= value:
            out.append(flow.act(state, f.seat, "vanquish", "corruption"))
    if f.count == 0 and attack_targets(state, f.seat):
        out.append(flow.act(state, f.seat, "vanquish", "attack"))
    if out:
        out.append(flow.act(state, f.seat, "vanquish", "stop"))
    return out


def _vanquish_prompt(state: State, f: Frame) -> str:
    p = ep(state, f.seat)
    parts = []
    if stack_at(state, p.loc):
        colour, value = vanquish_cost(state, f.seat, f)
        parts.append(f"pay {value} {colour} to gain the top corruption token (you have {getattr(p, colour)})")
    if f.count == 0 and attack_targets(state, f.seat):
        parts.append("attack the Scythe units here (combat)")
    return "Vanquish: " + (" or ".join(parts) or "nothing to vanquish") + ("; or stop." if parts else ".")


@effects.op("vanquish", "expeditions")
def _vanquish(tx: Tx, seat: int, e: Effect) -> None:
    tx.push(Frame(kind="e_vanquish", seat=seat, tag=e.arg))


@flow.handler("e_vanquish", _vanquish_prompt, _vanquish_options)
def _vanquish_choice(tx: Tx, f: Frame, a: Action | None) -> None:
    from meloch.engine import combat

    assert a is not None
    x = a.args[0]
    p = ep(tx.s, f.seat)
    if x == "stop":
        return
    if x == "attack":
        combat.start(tx, f.seat, p.loc)
        return
    colour, value = vanquish_cost(tx.s, f.seat, f)
    effects.add_stat(tx, f.seat, colour, -value, "Vanquish")
    take_corruption(tx, f.seat, p.loc, "Vanquish")
    if f.tag == "nohoch" and p.loc in tx.s.revealed and not stack_at(tx.s, p.loc):
        lo = board(tx.s.setup.map_side).loc[p.loc]
        tx.push(Frame(kind="one_of", seat=f.seat, effects=(Effect(op="one_of", one_of=(lo.revealed, ())),)))
        return
    tx.push(Frame(kind="e_vanquish", seat=f.seat, count=f.count + 1, tag=f.tag, items=(*f.items, colour)))


# ---------------------------------------------------------------- adjacent, peek, draw 2


@effects.op("adjacent", "expeditions")
def _adjacent(tx: Tx, seat: int, e: Effect) -> None:
    tx.push(Frame(kind="e_adjacent", seat=seat))


def _adjacent_options(state: State, f: Frame) -> list[Action]:
    p = ep(state, f.seat)
    b = board(state.setup.map_side)
    out = []
    for n in sorted(b.mech_steps(p.loc), key=lambda x: int(x) if x.isdigit() else 99):
        for i, e in enumerate(gather_benefits(state, n)):
            if e.op != "adjacent":
                out.append(flow.act(state, f.seat, "adjacent", n, str(i + 1)))
    return out


@flow.handler("e_adjacent", "Gain one benefit of an adjacent location.", _adjacent_options)
def _adjacent_choice(tx: Tx, f: Frame, a: Action | None) -> None:
    assert a is not None
    e = gather_benefits(tx.s, a.args[0])[int(a.args[1]) - 1]
    tx.log("gather", f"{flow.tag(tx.s, f.seat)} gains {effects.describe(e)} from {a.args[0]}.", seat=f.seat)
    effects.execute(tx, f.seat, e)


@effects.op("activate_adjacent", "expeditions")
def _activate_adjacent(tx: Tx, seat: int, e: Effect) -> None:
    tx.push(Frame(kind="e_activate", seat=seat))


def _activate_options(state: State, f: Frame) -> list[Action]:
    p = ep(state, f.seat)
    b = board(state.setup.map_side)
    return [flow.act(state, f.seat, "activate", lake) for lake, c in state.lakes
            if c and b.is_territory(p.loc) and lake in b.all_adjacent[p.loc] and (card(c).ability or card(c).ongoing)]


@flow.handler("e_activate", "Activate the ability of a face-up card next to your location.", _activate_options)
def _activate(tx: Tx, f: Frame, a: Action | None) -> None:
    assert a is not None
    c = card(dict(tx.s.lakes)[a.args[0]])
    tx.log("activate", f"{flow.tag(tx.s, f.seat)} activates {c.name} on {a.args[0]}.", seat=f.seat)
    if c.ongoing:
        tx.set_flag(exp_items.FLAG + c.ongoing)
    effects.queue(tx, f.seat, c.ability, c.name)


@effects.op("peek2")
def _peek2(tx: Tx, seat: int, e: Effect) -> None:
    tx.push(Frame(kind="peek", seat=seat))


def _peek_options(state: State, f: Frame) -> list[Action]:
    decks = ["combat"]
    if state.setup.variant != "scythe_vs_scythe":
        decks.append("discovery")
    if state.setup.variant == "expeditions_vs_expeditions":
        decks = ["discovery"]
    return [flow.act(state, f.seat, "peek", d) for d in decks]


@flow.handler("peek", "Peek at the top 2 cards of one deck (only you see them).", _peek_options)
def _peek(tx: Tx, f: Frame, a: Action | None) -> None:
    assert a is not None
    s = tx.s
    if a.args[0] == "combat":
        top = [combat_name(c) for c in reversed(s.combat_deck[-2:])]
    else:
        top = [card(c).name for c in reversed(s.discovery_deck[-2:])]
    text = f"top of the {a.args[0]} deck: {', '.join(top) or 'empty'}"
    s.known = (*s.known, (f.seat, f"peek {text}"))
    tx.log("peek", f"{flow.tag(s, f.seat)} peeks at the {text}.", seat=f.seat, private_to=f.seat,
           public=f"{flow.tag(s, f.seat)} peeks at the top 2 cards of the {a.args[0]} deck.")


@effects.op("draw2keep1")
def _draw2(tx: Tx, seat: int, e: Effect) -> None:
    tx.push(Frame(kind="draw2", seat=seat))


@flow.handler("draw2", "Draw 2 cards in any combination of the combat and discovery decks.",
              lambda s, f: [flow.act(s, f.seat, "draw2", x) for x in ("combat-combat", "combat-discovery",
                                                                       "discovery-discovery")])
def _draw2_choice(tx: Tx, f: Frame, a: Action | None) -> None:
    assert a is not None
    s = tx.s
    drawn: list[str] = []
    for kind in a.args[0].split("-"):
        if kind == "combat":
            if not s.combat_deck and s.combat_discard:
                s.combat_deck = tx.shuffled(s.combat_discard)
                s.combat_discard = ()
            if s.combat_deck:
                drawn.append(combat_token(s.combat_deck[-1]))
                s.combat_deck = s.combat_deck[:-1]
        else:
            c = draw_discovery(tx)
            if c:
                drawn.append(c)
    if drawn:
        tx.push(Frame(kind="keep1", seat=f.seat, items=tuple(drawn)))


@flow.handler("keep1", "Keep one of the two drawn cards; the other is discarded.",
              lambda s, f: [flow.act(s, f.seat, "keep", x) for x in f.items])
def _keep(tx: Tx, f: Frame, a: Action | None) -> None:
    assert a is not None
    s = tx.s
    for x in f.items:
        is_combat = x.startswith("c") and x[1:].isdigit()
        if x == a.args[0]:
            if is_combat:
                p = tx.seat(f.seat)
                p.combat_cards = (*p.combat_cards, int(x[1:]))
            else:
                gain_card(tx, f.seat, x, "kept")
        elif is_combat:
            s.combat_discard = (*s.combat_discard, int(x[1:]))
        else:
            s.discovery_discard = (*s.discovery_discard, x)
    tx.log("draw", f"{flow.tag(s, f.seat)} keeps one of two drawn cards.", seat=f.seat)


# ---------------------------------------------------------------- Nikte and Nohoch


def _nikte(tx: Tx, seat: int, e: Effect) -> None:
    tx.push(Frame(kind="one_of", seat=seat, effects=(Effect(op="one_of", one_of=(
        (Effect(op="custom", arg="nikte_refresh"),), (Effect(op="solve", arg="nikte"),))),)))


def _nikte_refresh(tx: Tx, seat: int, e: Effect) -> None:
    """Workers on other active cards return to the mat; the one on Nikte stays."""
    p = tx.ex(seat)
    keep = p.character
    back = [w for c, w in p.active if w and c != keep]
    p.active = tuple((c, w if c == keep else "") for c, w in p.active)
    p.workers = (*p.workers, *back)
    tx.log("refresh", f"{flow.tag(tx.s, seat)} refreshes {len(back)} worker(s) (Nikte).", seat=seat)


def _nohoch(tx: Tx, seat: int, e: Effect) -> None:
    tx.push(Frame(kind="one_of", seat=seat, effects=(Effect(op="one_of", one_of=(
        (Effect(op="custom", arg="nohoch_corruption"),), (Effect(op="vanquish", arg="nohoch"),))),)))


def _nohoch_corruption(tx: Tx, seat: int, e: Effect) -> None:
    p = ep(tx.s, seat)
    if p.coins >= 1 and stack_at(tx.s, p.loc):
        effects.add_stat(tx, seat, "coins", -1, "Nohoch")
        take_corruption(tx, seat, p.loc, "Nohoch")


effects.CUSTOM.update(nikte=_nikte, nikte_refresh=_nikte_refresh, nohoch=_nohoch,
                      nohoch_corruption=_nohoch_corruption)


# ---------------------------------------------------------------- the direction rule


def opponent_locations(state: State, seat: int) -> list[str]:
    """Where each opponent is for the direction rule: the Scythe character ("compare your mech's
    location to the Scythe character's location", rulebook, Expeditions Special Notes), or an
    opposing Expeditions mech."""
    o = state.seats[1 - seat]
    return [o.character] if isinstance(o, ScytheSeat) else [o.loc]


def every_opponent(state: State, seat: int, direction: str) -> bool:
    """Is every opponent north/south of the mech? "A location is south/north if any part of it is
    lower/higher than your location. North is up from your perspective." (AMB-38 (a))"""
    b = board(state.setup.map_side)
    mine = ep(state, seat).loc
    test = b.is_north if direction == "north" else b.is_south
    return all(loc and test(loc, mine) for loc in opponent_locations(state, seat))


def _direction(direction: str, stat: str, n: int) -> effects.OpFn:
    def fn(tx: Tx, seat: int, e: Effect) -> None:
        if every_opponent(tx.s, seat, direction):
            effects.add_stat(tx, seat, stat, n, f"every opponent is {direction} of you")
        else:
            tx.log("effect", f"{flow.tag(tx.s, seat)}: not every opponent is {direction} of the mech; "
                   "no gain.", seat=seat)
    return fn


effects.CUSTOM.update(south_power=_direction("south", "power", 2), north_guile=_direction("north", "guile", 2))

from meloch.engine import exp_mechs  # noqa: E402,F401  (registers the mech abilities)

