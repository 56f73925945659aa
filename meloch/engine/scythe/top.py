"""The Scythe player's top-row actions: Move (or coins), Bolster, Trade, Produce with their
upgradeable values and the structures' bonuses (Monument, Armory, Mill), and the top row of a
Factory card."""

from __future__ import annotations

from meloch.content.schema import Effect, FactoryCard
from meloch.engine import effects, flow
from meloch.engine import frames as K
from meloch.engine.actions import Action
from meloch.engine.board import board
from meloch.engine.contract import Changed
from meloch.engine.describe import DETAILS
from meloch.engine.model import Frame, ScytheSeat, State
from meloch.engine.scythe.pay import add_resource, gain_one_resource, worker_territories
from meloch.engine.scythe.seat import PRODUCE_OUTPUT, RESOURCES, _loc_key, factory_card_by_id, mat, section_card, sp
from meloch.engine.track import controlled
from meloch.engine.tx import Tx


def top_value(p: ScytheSeat, box: str) -> int:
    base = {"move_units": 2, "move_coins": 1, "bolster_power": 2, "bolster_cards": 1,
            "trade_popularity": 1, "produce_territories": 2}[box]
    return base + (1 if box in p.top_upgrades else 0)


def produce_cost(p: ScytheSeat) -> list[Effect]:
    """Produce costs by workers on the board: 4+ -> 1 power, 6+ -> +1 popularity, 8 -> +$1."""
    n = len(p.workers)
    cost = []
    if n >= 4:
        cost.append(Effect(op="power", n=1))
    if n >= 6:
        cost.append(Effect(op="popularity", n=1))
    if n >= 8:
        cost.append(Effect(op="coins", n=1))
    return cost


def _top_options(state: State, f: Frame) -> list[Action]:
    seat = f.seat
    p = sp(state, seat)
    out: list[Action] = []
    def a(*args: str) -> None:
        out.append(flow.act(state, seat, "top", *args))
    if p.section >= 4:
        if factory_top_blocker(state, seat) == "":
            a("factory")
    else:
        top = mat(p).sections[p.section].top
        if top == "move":
            a("move")
            a("coin")
        elif top == "bolster" and p.coins >= 1:
            a("power")
            a("card")
        elif top == "trade" and p.coins >= 1:
            if worker_territories(state, seat):
                a("resources")
            a("popularity")
        elif top == "produce" and effects.can_pay(state, seat, produce_cost(p)) and (
                worker_territories(state, seat) or _mill(state, seat)):
            a("produce")
    a("skip")
    return out


def factory_card(p: ScytheSeat) -> FactoryCard:
    cid = section_card(p, p.section)
    return factory_card_by_id(cid)


def factory_top_blocker(state: State, seat: int) -> str:
    """Why the current Factory card's top action cannot be taken ("" when it can)."""
    p = sp(state, seat)
    fc = factory_card(p)
    if not effects.can_pay(state, seat, fc.cost):
        return f"Factory card {fc.id} costs {', '.join(effects.describe(c) for c in fc.cost)}"
    if any(c.op == "worker" for c in fc.cost) and p.workers_on_mat >= 8 - 2:
        return f"Factory card {fc.id} needs room on the Produce row of your mat for the returned worker"
    return ""


def _top_prompt(state: State, f: Frame) -> str:
    p = sp(state, f.seat)
    why: list[str] = []
    if p.section >= 4:
        fc = factory_card(p)
        why.append(factory_top_blocker(state, f.seat))
        head = f"Factory card {fc.id}: {fc.top_text}"
    else:
        top = mat(p).sections[p.section].top
        head = f"Top-row action {top.capitalize()}"
        if top in ("bolster", "trade") and p.coins < 1:
            why.append(f"{top.capitalize()} costs $1; you have $0")
        if top == "trade" and not worker_territories(state, f.seat):
            why.append("Trade for resources needs a territory you control with a worker on it")
        if top == "produce":
            if not worker_territories(state, f.seat) and not _mill(state, f.seat):
                why.append("Produce needs a territory you control with a worker on it")
            elif not effects.can_pay(state, f.seat, produce_cost(p)):
                why.append("Produce costs " + ", ".join(effects.describe(c) for c in produce_cost(p)))
    why = [w for w in why if w]
    return f"{head}: take it or skip it." + (f" ({'; '.join(why)}.)" if why else "")


@flow.handler(K.S_TOP, _top_prompt, _top_options)
def _top(tx: Tx, f: Frame, a: Action | None) -> None:
    assert a is not None
    seat, choice = f.seat, a.args[0]
    p = tx.sc(seat)
    who = flow.tag(tx.s, seat)
    if choice == "skip":
        tx.log("top", f"{who} skips the top-row action.", seat=seat)
        return
    structures = {k for k, _ in p.structures}
    if choice == "factory":
        fc = factory_card(p)
        tx.log("top", f"{who} uses the top of Factory card {fc.id}: {fc.top_text}", seat=seat)
        tx.set_flag("factory_action")
        effects.queue(tx, seat, fc.gain, f"Factory card {fc.id}")
        effects.pay(tx, seat, fc.cost, f"Factory card {fc.id}")  # payment choices (on top) come first
    elif choice == "move":
        tx.push_in_order(Frame(kind=K.S_MOVE, seat=seat, count=top_value(p, "move_units")),
                         Frame(kind=K.S_AFTER_MOVE, seat=seat))
        tx.set_flag("moved")
        tx.log("top", f"{who} takes Move.", seat=seat)
    elif choice == "coin":
        effects.add_stat(tx, seat, "coins", top_value(p, "move_coins"), "Move")
    elif choice in ("power", "card"):
        effects.add_stat(tx, seat, "coins", -1, "Bolster")
        if choice == "power":
            effects.add_stat(tx, seat, "power", top_value(p, "bolster_power"), "Bolster")
        else:
            effects.draw_combat(tx, seat, top_value(p, "bolster_cards"), "Bolster")
        if "monument" in structures:
            effects.add_stat(tx, seat, "popularity", 1, "Monument")
    elif choice in ("resources", "popularity"):
        effects.add_stat(tx, seat, "coins", -1, "Trade")
        if choice == "resources":
            tx.push(Frame(kind=K.S_TRADE, seat=seat, count=2))
        else:
            effects.add_stat(tx, seat, "popularity", top_value(p, "trade_popularity"), "Trade")
        if "armory" in structures:
            effects.add_stat(tx, seat, "power", 1, "Armory")
    elif choice == "produce":
        # The Mill is one more producing territory, and produces as a worker on its own territory
        # when that territory is chosen (ref §3.2; Stonemaier FAQ: "it's a third territory for
        # production ... if you choose the Mill's territory ..., the Mill itself produces as if it is
        # a worker").
        mill = _mill(tx.s, seat)
        n = top_value(p, "produce_territories") + (1 if mill else 0)
        tx.push(Frame(kind=K.S_PRODUCE, seat=seat, count=n, loc=mill))
        effects.pay(tx, seat, produce_cost(p), "Produce")


def _mill(state: State, seat: int) -> str:
    """The seat's Mill territory if it controls it, else ""."""
    mill = next((loc for k, loc in sp(state, seat).structures if k == "mill"), "")
    return mill if mill and mill in controlled(state, seat) else ""


def _trade_options(state: State, f: Frame) -> list[Action]:
    return [flow.act(state, f.seat, "trade", loc, r) for loc in worker_territories(state, f.seat) for r in RESOURCES]


@flow.handler(K.S_TRADE,
              lambda s, f: f"Trade: gain a resource on a territory with your worker ({f.count} left).",
              _trade_options)
def _trade(tx: Tx, f: Frame, a: Action | None) -> None:
    assert a is not None
    gain_one_resource(tx, f.seat, a.args[0], a.args[1], "trade")
    if f.count > 1:
        tx.push(Frame(kind=K.S_TRADE, seat=f.seat, count=f.count - 1))


def _produce_options(state: State, f: Frame) -> list[Action]:
    p = sp(state, f.seat)
    b = board(state.setup.map_side)
    locs = sorted({*worker_territories(state, f.seat), *([f.loc] if f.loc else [])}, key=_loc_key)
    out = [flow.act(state, f.seat, "produce", loc) for loc in locs
           if loc not in f.items and b.terrain(loc) in PRODUCE_OUTPUT
           and not (b.terrain(loc) == "village" and p.workers_on_mat == 0)]
    return [*out, flow.act(state, f.seat, "produce", "done")] if out else []


@flow.handler(K.S_PRODUCE, lambda s, f: f"Produce: choose a territory with workers ({f.count} left).",
              _produce_options)
def _produce(tx: Tx, f: Frame, a: Action | None) -> None:
    assert a is not None
    loc = a.args[0]
    if loc == "done":
        return
    n = sum(1 for w in sp(tx.s, f.seat).workers if w == loc) + (1 if loc == f.loc else 0)
    _produce_at(tx, f.seat, loc, n, "Produce, with the Mill" if loc == f.loc else "Produce")
    if f.count > 1:
        tx.push(Frame(kind=K.S_PRODUCE, seat=f.seat, count=f.count - 1, items=(*f.items, loc), loc=f.loc))


def _produce_at(tx: Tx, seat: int, loc: str, n: int, why: str) -> None:
    out = PRODUCE_OUTPUT.get(board(tx.s.setup.map_side).terrain(loc))
    if out is None:
        return
    if out == "worker":
        p = tx.sc(seat)
        k = min(n, p.workers_on_mat)
        p.workers = (*p.workers, *([loc] * k))
        p.workers_on_mat -= k
        tx.log("produce", f"{flow.tag(tx.s, seat)} produces {k} worker(s) on {loc} ({why}).", seat=seat)
    else:
        add_resource(tx, seat, loc, out, n)
        tx.log("produce", f"{flow.tag(tx.s, seat)} produces {n} {out} on {loc} ({why}).", seat=seat,
               data=Changed(what=out, by=n, loc=loc))



@effects.op("produce", "scythe")
def _produce_op(tx: Tx, seat: int, e: Effect) -> None:
    """Produce on up to ``n`` territories without the Produce costs and without the Mill (base
    Factory card 1, reference.md §3.8)."""
    tx.push(Frame(kind=K.S_PRODUCE, seat=seat, count=e.n))


def _produce_details(state: State, f: Frame, a: Action) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    """Produce's cost by the workers on the board (Scythe: 4+ workers cost power, 6+ popularity, 8 coins)."""
    if a.args[0] != "produce":
        return None
    return tuple(effects.describe(e) for e in produce_cost(sp(state, f.seat))), ()


DETAILS["top"] = _produce_details
