"""The Scythe player's turn: action token, top actions, bottom actions, resources.

Movement, encounters and the Factory are in ``scythe_move.py``.
"""

from __future__ import annotations

from meloch.content import load
from meloch.content.schema import Effect, FactoryCard, MatSection, PlayerMat
from meloch.engine import effects, flow, free
from meloch.engine import scythe_abilities as abilities
from meloch.engine.actions import Action
from meloch.engine.board import board
from meloch.engine.cards import combat_token, combat_type
from meloch.engine.model import ExpSeat, Frame, ScytheSeat, State
from meloch.engine.track import controlled
from meloch.engine.tx import Tx

RESOURCES = ("food", "oil", "metal", "wood")
BOTTOM_RESOURCE = {"upgrade": "oil", "deploy": "metal", "build": "wood", "enlist": "food"}
PRODUCE_OUTPUT = {"mountain": "metal", "farm": "food", "tundra": "oil", "forest": "wood", "village": "worker"}
TOP_BOXES = ("move_units", "move_coins", "bolster_power", "bolster_cards", "trade_popularity", "produce_territories")
RECRUIT_ONGOING: dict[str, Effect] = {
    "upgrade": Effect(op="power", n=1), "deploy": Effect(op="coins", n=1),
    "build": Effect(op="popularity", n=1), "enlist": Effect(op="combat_cards", n=1),
}
"""Ongoing recruit bonus per bottom action (reference.md §3.3, INFERRED)."""
ENLIST_BONUS: dict[str, Effect] = {
    "power": Effect(op="power", n=2), "coins": Effect(op="coins", n=2),
    "popularity": Effect(op="popularity", n=2), "cards": Effect(op="combat_cards", n=2),
}
STRUCTURES = ("monument", "armory", "mill", "mine")


def sp(state: State, seat: int) -> ScytheSeat:
    p = state.seats[seat]
    assert isinstance(p, ScytheSeat)
    return p


def mat(p: ScytheSeat) -> PlayerMat:
    return load().mats[p.mat]


def ability_of(p: ScytheSeat) -> str:
    return abilities.faction_ability(p)


def mech_abilities(p: ScytheSeat) -> set[str]:
    return abilities.mech_abilities(p)


# ---------------------------------------------------------------- resources


def res_at(p: ScytheSeat, loc: str, kind: str) -> int:
    return sum(n for lc, k, n in p.resources if lc == loc and (kind == "any" or k == kind))


def resources_available(state: State, seat: int, kind: str) -> int:
    """Resources the seat may spend: those on territories it controls."""
    p = sp(state, seat)
    ctrl = controlled(state, seat)
    return sum(n for lc, k, n in p.resources if lc in ctrl and (kind == "any" or k == kind))


def add_resource(tx: Tx, seat: int, loc: str, kind: str, n: int) -> None:
    p = tx.sc(seat)
    d: dict[tuple[str, str], int] = {(lc, k): c for lc, k, c in p.resources}
    d[(loc, kind)] = d.get((loc, kind), 0) + n
    p.resources = tuple(sorted((lc, k, c) for (lc, k), c in d.items() if c > 0))


def coercion_ready(state: State, seat: int) -> bool:
    """Crimea's Coercion: once per turn, on its own turn, a combat card pays as any 1 resource."""
    p = sp(state, seat)
    return (ability_of(p) == "coercion" and "coercion" not in state.turn_flags and bool(p.combat_cards)
            and state.active == seat)


def spendable(state: State, seat: int, kind: str) -> int:
    """Resources the seat can pay now: on controlled territories, plus 1 through Coercion."""
    return resources_available(state, seat, kind) + (1 if coercion_ready(state, seat) else 0)


def _piles(state: State, seat: int, kind: str) -> list[tuple[str, str, int]]:
    ctrl = controlled(state, seat)
    return [(lc, k, c) for lc, k, c in sp(state, seat).resources
            if lc in ctrl and (kind == "any" or k == kind)]


def pay_resources(tx: Tx, seat: int, kind: str, n: int, why: str) -> None:
    """Pay ``n`` resources of ``kind`` from controlled territories (known to be payable).

    Where it matters which territory pays (resources on more than one controlled territory) or
    Coercion could pay, the player chooses, one resource at a time (an ``s_pay`` frame pushed on
    top, so callers push what follows the payment first); otherwise the payment is automatic."""
    piles = _piles(tx.s, seat, kind)
    if not coercion_ready(tx.s, seat) and (len(piles) <= 1 or sum(c for _, _, c in piles) == n):
        left = n
        for lc, k, c in piles:
            take = min(c, left)
            add_resource(tx, seat, lc, k, -take)
            left -= take
        tx.log("pay", f"{flow.tag(tx.s, seat)} pays {n} {kind} ({why}).", seat=seat)
        return
    tx.push(Frame(kind="s_pay", seat=seat, count=n, tag=kind, loc=why))


def _pay_options(state: State, f: Frame) -> list[Action]:
    out = [flow.act(state, f.seat, "pay", lc, k) for lc, k, _ in _piles(state, f.seat, f.tag)]
    if coercion_ready(state, f.seat):
        seen: set[str] = set()
        for c in sorted(sp(state, f.seat).combat_cards):
            if combat_type(c).id not in seen:
                seen.add(combat_type(c).id)
                out.append(flow.act(state, f.seat, "pay", "coerce", combat_token(c)))
    return out


@flow.handler("s_pay", lambda s, f: f"Pay {f.count} {f.tag} for {f.loc}: choose the territory that pays one"
              + (" (or spend a combat card by Coercion)" if coercion_ready(s, f.seat) else "") + ".",
              _pay_options)
def _pay(tx: Tx, f: Frame, a: Action | None) -> None:
    assert a is not None
    who = flow.tag(tx.s, f.seat)
    if a.args[0] == "coerce":
        cid = int(a.args[1][1:])
        p = tx.sc(f.seat)
        cards = list(p.combat_cards)
        cards.remove(cid)
        p.combat_cards = tuple(cards)
        tx.s.combat_discard = (*tx.s.combat_discard, cid)
        tx.set_flag("coercion")
        tx.log("pay", f"{who} spends {combat_type(cid).name} as 1 {f.tag} (Coercion, {f.loc}).", seat=f.seat)
    else:
        add_resource(tx, f.seat, a.args[0], a.args[1], -1)
        tx.log("pay", f"{who} pays 1 {a.args[1]} from {a.args[0]} ({f.loc}).", seat=f.seat)
    if f.count > 1:
        pay_resources(tx, f.seat, f.tag, f.count - 1, f.loc)


def worker_territories(state: State, seat: int) -> list[str]:
    """Controlled territories with at least one of the seat's workers."""
    p = sp(state, seat)
    ctrl = controlled(state, seat)
    return sorted({w for w in p.workers if w in ctrl}, key=_loc_key)


def _loc_key(lid: str) -> tuple[int, str]:
    return (int(lid), "") if lid.isdigit() else (99, lid)


# ---------------------------------------------------------------- turn start


def start_turn(tx: Tx, seat: int) -> None:
    tx.push(Frame(kind="s_section", seat=seat))
    abilities.vesna_first_turn(tx, seat)


flow.START_TURN["scythe"] = start_turn


def sections(state: State, seat: int) -> list[int]:
    """Sections the action token may move to: a different one (Relentless may repeat a mat
    section, never the Factory card); 4 is the Factory card, 5.. Vesna's unused Technophile cards."""
    p = sp(state, seat)
    out = list(range(len(mat(p).sections)))
    if ability_of(p) != "relentless" and p.section in out:
        out.remove(p.section)
    return out + _card_sections(p)


def _card_sections(p: ScytheSeat) -> list[int]:
    out = [4] if p.factory_card and p.section != 4 else []
    return out + [5 + k for k, c in enumerate(p.tech_cards) if c not in p.tech_used and p.section != 5 + k]


def section_token(sec: int, p: ScytheSeat) -> str:
    if sec == 4:
        return "factory"
    if sec >= 5:
        return f"tech-{p.tech_cards[sec - 5]}"
    return str(sec + 1)


def parse_section(tok: str, p: ScytheSeat) -> int:
    if tok == "factory":
        return 4
    if tok.startswith("tech-"):
        return 5 + p.tech_cards.index(tok[5:])
    return int(tok) - 1


def section_card(p: ScytheSeat, sec: int) -> str:
    """The Factory card id of a card section (4: the kept card, 5..: Vesna's), else ""."""
    if sec == 4:
        return p.factory_card
    return p.tech_cards[sec - 5] if sec >= 5 else ""


def set_section(tx: Tx, seat: int, tok: str) -> ScytheSeat:
    p = tx.sc(seat)
    p.section = parse_section(tok, p)
    if p.section >= 5:
        p.tech_used = (*p.tech_used, p.tech_cards[p.section - 5])
    return p


def _leverage_options(state: State, seat: int) -> list[Action]:
    """Leverage (Constantinople): once per turn, discard an unplaced star for a resource on a
    controlled territory, or pay a resource to regain a discarded star (rulebook Appendix)."""
    p = sp(state, seat)
    if ability_of(p) != "leverage" or "leverage" in state.turn_flags:
        return []
    out = []
    ctrl = sorted(controlled(state, seat), key=_loc_key)
    if p.stars_unplaced > 0:  # AMB-24 (a): not without a controlled territory
        out += [flow.act(state, seat, "leverage", "gain", r, loc) for r in RESOURCES for loc in ctrl]
    if p.stars_discarded > 0:
        out += [flow.act(state, seat, "leverage", "regain", r) for r in RESOURCES if spendable(state, seat, r) > 0]
    return out


def _leverage(tx: Tx, seat: int, a: Action) -> None:
    tx.set_flag("leverage")
    p = tx.sc(seat)
    if a.args[0] == "gain":
        p.stars_unplaced -= 1
        p.stars_discarded += 1
        add_resource(tx, seat, a.args[2], a.args[1], 1)
        tx.log("leverage", f"{flow.tag(tx.s, seat)} discards a star to gain 1 {a.args[1]} on {a.args[2]}.",
               seat=seat)
    else:
        p.stars_unplaced += 1
        p.stars_discarded -= 1
        tx.log("leverage", f"{flow.tag(tx.s, seat)} pays 1 {a.args[1]} to regain a star.", seat=seat)
        pay_resources(tx, seat, a.args[1], 1, "Leverage")


free.FREE_OPTIONS["scythe"].append(_leverage_options)
free.FREE_RESOLVE["leverage"] = _leverage
free_actions = free.free_actions
do_free_action = free.do_free_action


def _section_options(state: State, f: Frame) -> list[Action]:
    p = sp(state, f.seat)
    return [flow.act(state, f.seat, "section", section_token(i, p))
            for i in sections(state, f.seat)] + free_actions(state, f.seat)


def _section_prompt(state: State, f: Frame) -> str:
    return "Move your action token to a section of your player mat."


@flow.handler("s_section", _section_prompt, _section_options)
def _section(tx: Tx, f: Frame, a: Action | None) -> None:
    assert a is not None
    if do_free_action(tx, f, a):
        return
    p = set_section(tx, f.seat, a.args[0])
    sec = p.section
    tx.log("section", f"{flow.tag(tx.s, f.seat)} moves the action token to {section_name(p, sec)}.", seat=f.seat)
    tx.push_in_order(Frame(kind="s_top", seat=f.seat), Frame(kind="s_bottom", seat=f.seat),
                     Frame(kind="turn_end", seat=f.seat))


def section_name(p: ScytheSeat, sec: int) -> str:
    if sec >= 4:
        return f"the Factory card {section_card(p, sec)}"
    s = mat(p).sections[sec]
    return f"section {sec + 1} ({s.top}/{s.bottom})"


# ---------------------------------------------------------------- top actions


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
        elif top == "produce" and effects.can_pay(state, seat, produce_cost(p)) and worker_territories(state, seat):
            a("produce")
    a("skip")
    return out


def factory_card(p: ScytheSeat) -> FactoryCard:
    cid = section_card(p, p.section)
    return next(x for x in load().factory_cards if x.id == cid)


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
            if not worker_territories(state, f.seat):
                why.append("Produce needs a territory you control with a worker on it")
            elif not effects.can_pay(state, f.seat, produce_cost(p)):
                why.append("Produce costs " + ", ".join(effects.describe(c) for c in produce_cost(p)))
    why = [w for w in why if w]
    return f"{head}: take it or skip it." + (f" ({'; '.join(why)}.)" if why else "")


@flow.handler("s_top", _top_prompt, _top_options)
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
        tx.push_in_order(Frame(kind="s_move", seat=seat, count=top_value(p, "move_units")),
                         Frame(kind="s_after_move", seat=seat))
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
            tx.push(Frame(kind="s_trade", seat=seat, count=2))
        else:
            effects.add_stat(tx, seat, "popularity", top_value(p, "trade_popularity"), "Trade")
        if "armory" in structures:
            effects.add_stat(tx, seat, "power", 1, "Armory")
    elif choice == "produce":
        effects.pay(tx, seat, produce_cost(p), "Produce")
        n = top_value(p, "produce_territories")
        tx.push(Frame(kind="s_produce", seat=seat, count=n))
        mill = next((loc for k, loc in p.structures if k == "mill"), "")
        if mill and mill in controlled(tx.s, seat):
            _produce_at(tx, seat, mill, 1, "Mill")


def _trade_options(state: State, f: Frame) -> list[Action]:
    return [flow.act(state, f.seat, "trade", loc, r) for loc in worker_territories(state, f.seat) for r in RESOURCES]


@flow.handler("s_trade", lambda s, f: f"Trade: gain a resource on a territory with your worker ({f.count} left).",
              _trade_options)
def _trade(tx: Tx, f: Frame, a: Action | None) -> None:
    assert a is not None
    add_resource(tx, f.seat, a.args[0], a.args[1], 1)
    tx.log("trade", f"{flow.tag(tx.s, f.seat)} gains 1 {a.args[1]} on {a.args[0]}.", seat=f.seat)
    if f.count > 1:
        tx.push(Frame(kind="s_trade", seat=f.seat, count=f.count - 1))


def _produce_options(state: State, f: Frame) -> list[Action]:
    p = sp(state, f.seat)
    b = board(state.setup.map_side)
    out = [flow.act(state, f.seat, "produce", loc) for loc in worker_territories(state, f.seat)
           if loc not in f.items and b.terrain(loc) in PRODUCE_OUTPUT
           and not (b.terrain(loc) == "village" and p.workers_on_mat == 0)]
    return [*out, flow.act(state, f.seat, "produce", "done")] if out else []


@flow.handler("s_produce", lambda s, f: f"Produce: choose a territory with workers ({f.count} left).",
              _produce_options)
def _produce(tx: Tx, f: Frame, a: Action | None) -> None:
    assert a is not None
    loc = a.args[0]
    if loc == "done":
        return
    n = sum(1 for w in sp(tx.s, f.seat).workers if w == loc)
    _produce_at(tx, f.seat, loc, n, "Produce")
    if f.count > 1:
        tx.push(Frame(kind="s_produce", seat=f.seat, count=f.count - 1, items=(*f.items, loc)))


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
        tx.log("produce", f"{flow.tag(tx.s, seat)} produces {n} {out} on {loc} ({why}).", seat=seat)


# ---------------------------------------------------------------- bottom actions


def bottom_cost(p: ScytheSeat, sec: int) -> int:
    s = mat(p).sections[sec]
    return s.bottom_cost - p.bottom_cubes[sec]


def _bottom_options(state: State, f: Frame) -> list[Action]:
    p = sp(state, f.seat)
    out = free_actions(state, f.seat)
    if p.section >= 4:
        out.append(flow.act(state, f.seat, "bottom", "factory-move"))
    else:
        s = mat(p).sections[p.section]
        if spendable(state, f.seat, BOTTOM_RESOURCE[s.bottom]) >= bottom_cost(p, p.section):
            out.append(flow.act(state, f.seat, "bottom", s.bottom))
    out.append(flow.act(state, f.seat, "bottom", "skip"))
    return out


def bottom_blocker(state: State, seat: int, action: str) -> str:
    """Why a bottom-row action would place nothing ("" when it can); its coins are paid anyway."""
    p = sp(state, seat)
    wt = worker_territories(state, seat)
    if action == "deploy":
        if len(p.mech_slots) >= 4:
            return "all 4 mechs are deployed"
        if not wt:
            return "Deploy needs a territory you control with a worker on it"
    if action == "build":
        if len(p.structures) >= len(STRUCTURES):
            return "all 4 structures are built"
        if not [x for x in wt if x not in {loc for _, loc in p.structures}]:
            return "Build needs a territory you control with a worker on it and no structure"
    if action == "enlist" and len(p.recruits) >= 4:
        return "all 4 recruits are enlisted"
    if action == "upgrade" and len(p.top_upgrades) >= len(TOP_BOXES):
        return "all 6 technology cubes are placed"
    return ""


def _bottom_prompt(state: State, f: Frame) -> str:
    p = sp(state, f.seat)
    if p.section >= 4:
        return "Bottom row of the Factory card: Factory Move (one unit moves up to twice), or skip."
    sec = mat(p).sections[p.section]
    res = BOTTOM_RESOURCE[sec.bottom]
    cost = bottom_cost(p, p.section)
    head = f"Bottom-row action {sec.bottom.capitalize()} (pay {cost} {res}, gain ${sec.bottom_coins})"
    have = spendable(state, f.seat, res)
    if have < cost:
        return (f"{head}: you can spend only {have} {res} (resources on territories you control), so skip "
                "or first discard combat cards.")
    why = bottom_blocker(state, f.seat, sec.bottom)
    return f"{head}: take it or skip it." + (f" ({why}: you would only gain the coins.)" if why else "")


@flow.handler("s_bottom", _bottom_prompt, _bottom_options)
def _bottom(tx: Tx, f: Frame, a: Action | None) -> None:
    assert a is not None
    if do_free_action(tx, f, a):
        return
    seat, choice = f.seat, a.args[0]
    tx.set_flag("bottom_done")
    if choice == "skip":
        tx.log("bottom", f"{flow.tag(tx.s, seat)} skips the bottom-row action.", seat=seat)
        return
    if choice == "factory-move":
        p = sp(tx.s, seat)
        fc = factory_card(p)
        steps = fc.move_steps_speed if "speed" in mech_abilities(p) else fc.move_steps
        tx.push_in_order(Frame(kind="s_move", seat=seat, count=1, tag=f"factory:{steps}"),
                         Frame(kind="s_after_move", seat=seat))
        return
    p = sp(tx.s, seat)
    sec: MatSection = mat(p).sections[p.section]
    cost = bottom_cost(p, p.section)
    tx.log("bottom", f"{flow.tag(tx.s, seat)} takes {sec.bottom.capitalize()}.", seat=seat)
    effects.add_stat(tx, seat, "coins", sec.bottom_coins, sec.bottom.capitalize())
    push_bottom(tx, seat, sec.bottom)
    if sec.bottom in p.recruits:
        effects.queue(tx, seat, (RECRUIT_ONGOING[sec.bottom],), "recruit ongoing bonus")
    opp = tx.s.seats[1 - seat]
    if isinstance(opp, ScytheSeat) and sec.bottom in opp.recruits:
        # Scythe vs Scythe: the opponent is the neighbour on both sides, once per action (ref §3.3);
        # never from the Expeditions player (rulebook, Scythe Special Notes).
        effects.queue(tx, 1 - seat, (RECRUIT_ONGOING[sec.bottom],), "recruit ongoing bonus (neighbour)")
    if cost:  # the full cost is paid first: payment choices go on top
        pay_resources(tx, seat, BOTTOM_RESOURCE[sec.bottom], cost, sec.bottom.capitalize())


def push_bottom(tx: Tx, seat: int, action: str) -> None:
    if action == "upgrade":
        tx.push(Frame(kind="s_upgrade", seat=seat))
    else:
        tx.push(Frame(kind=f"s_{action}", seat=seat))


def _upgrade_options(state: State, f: Frame) -> list[Action]:
    p = sp(state, f.seat)
    tops = [b for b in TOP_BOXES if b not in p.top_upgrades]
    secs = [str(i + 1) for i, s in enumerate(mat(p).sections) if p.bottom_cubes[i] < s.bottom_cost - s.bottom_cost_min]
    return [flow.act(state, f.seat, "upgrade", t, s) for t in tops for s in secs]


@flow.handler("s_upgrade", "Upgrade: take a cube from a top-row box and place it on a bottom-row cost box.",
              _upgrade_options)
def _upgrade(tx: Tx, f: Frame, a: Action | None) -> None:
    assert a is not None
    p = tx.sc(f.seat)
    p.top_upgrades = (*p.top_upgrades, a.args[0])
    i = int(a.args[1]) - 1
    cubes = list(p.bottom_cubes)
    cubes[i] += 1
    p.bottom_cubes = (cubes[0], cubes[1], cubes[2], cubes[3])
    tx.log("upgrade", f"{flow.tag(tx.s, f.seat)} upgrades {a.args[0]} and lowers the cost of section {i + 1}.",
           seat=f.seat)


def _deploy_options(state: State, f: Frame) -> list[Action]:
    p = sp(state, f.seat)
    slots = [str(i + 1) for i in range(4) if i not in p.mech_slots]
    return [flow.act(state, f.seat, "deploy", s, loc) for s in slots for loc in worker_territories(state, f.seat)]


@flow.handler("s_deploy", "Deploy: choose a mech (faction-mat slot) and a territory with your worker.",
              _deploy_options)
def _deploy(tx: Tx, f: Frame, a: Action | None) -> None:
    assert a is not None
    p = tx.sc(f.seat)
    slot = int(a.args[0]) - 1
    p.mech_slots = (*p.mech_slots, slot)
    p.mechs = (*p.mechs, a.args[1])
    ab = load().factions[p.faction].mechs[slot]
    tx.log("deploy", f"{flow.tag(tx.s, f.seat)} deploys a mech on {a.args[1]}: unlocks {ab.ability}.", seat=f.seat)


def _build_options(state: State, f: Frame) -> list[Action]:
    p = sp(state, f.seat)
    built = {k for k, _ in p.structures}
    occupied = {loc for _, loc in p.structures}
    kinds = [k for k in STRUCTURES if k not in built]
    locs = [loc for loc in worker_territories(state, f.seat) if loc not in occupied]
    return [flow.act(state, f.seat, "build", k, loc) for k in kinds for loc in locs]


@flow.handler("s_build", "Build: choose a structure and a territory with your worker.", _build_options)
def _build(tx: Tx, f: Frame, a: Action | None) -> None:
    assert a is not None
    p = tx.sc(f.seat)
    p.structures = (*p.structures, (a.args[0], a.args[1]))
    tx.log("build", f"{flow.tag(tx.s, f.seat)} builds a {a.args[0]} on {a.args[1]}.", seat=f.seat)


def _enlist_options(state: State, f: Frame) -> list[Action]:
    p = sp(state, f.seat)
    secs = [b for b in ("upgrade", "deploy", "build", "enlist") if b not in p.recruits]
    bonuses = [b for b in ENLIST_BONUS if b not in p.enlist_bonuses]
    return [flow.act(state, f.seat, "enlist", s, b) for s in secs for b in bonuses]


@flow.handler("s_enlist", "Enlist: choose the recruit's section and its one-time bonus.", _enlist_options)
def _enlist(tx: Tx, f: Frame, a: Action | None) -> None:
    assert a is not None
    p = tx.sc(f.seat)
    p.recruits = (*p.recruits, a.args[0])
    p.enlist_bonuses = (*p.enlist_bonuses, a.args[1])
    tx.log("enlist", f"{flow.tag(tx.s, f.seat)} enlists a recruit ({a.args[0]}) and takes +2 {a.args[1]}.",
           seat=f.seat)
    effects.queue(tx, f.seat, (ENLIST_BONUS[a.args[1]],), "Enlist")




# ---------------------------------------------------------------- effect ops for Scythe


@effects.op("refresh", "scythe")
def _refresh(tx: Tx, seat: int, e: Effect) -> None:
    tx.push(Frame(kind="s_refresh", seat=seat))


def _refresh_options(state: State, f: Frame) -> list[Action]:
    """A different section (the Factory card included, AMB-26 (a)); before the first turn's
    token placement any section."""
    p = sp(state, f.seat)
    secs = [i for i in range(len(mat(p).sections)) if i != p.section] + _card_sections(p)
    return [flow.act(state, f.seat, "refresh-to", section_token(i, p)) for i in secs]


@flow.handler("s_refresh", "Refresh: move your action token to a different section.", _refresh_options)
def _refresh_to(tx: Tx, f: Frame, a: Action | None) -> None:
    assert a is not None
    p = set_section(tx, f.seat, a.args[0])
    tx.log("refresh", f"{flow.tag(tx.s, f.seat)} refreshes the action token to {section_name(p, p.section)}.",
           seat=f.seat)


AT_CHARACTER = "@char"
"""Suffix of a ``resource`` effect's arg set by encounters: the gain appears on the character's
territory (ref §3.8), even a shared one, where it cannot be spent while shared (AMB-13 (a))."""


@effects.op("resource", "scythe")
def _resource(tx: Tx, seat: int, e: Effect) -> None:
    kind, _, where = e.arg.partition("@")
    p = sp(tx.s, seat)
    loc = p.character if where and board(tx.s.setup.map_side).is_territory(p.character) else ""
    tx.push(Frame(kind="s_place_resource", seat=seat, count=e.n, tag=kind, loc=loc))


def _place_res_options(state: State, f: Frame) -> list[Action]:
    locs = [f.loc] if f.loc else sorted(controlled(state, f.seat), key=_loc_key)
    kinds = RESOURCES if f.tag in ("any", "") else (f.tag,)
    return [flow.act(state, f.seat, "place-resource", loc, k) for loc in locs for k in kinds]


@flow.handler("s_place_resource", lambda s, f: f"Place {f.count} gained {f.tag} on "
              + (f"your character's territory {f.loc}." if f.loc else "a territory you control."),
              _place_res_options)
def _place_res(tx: Tx, f: Frame, a: Action | None) -> None:
    assert a is not None
    add_resource(tx, f.seat, a.args[0], a.args[1], 1)
    tx.log("gain", f"{flow.tag(tx.s, f.seat)} gains 1 {a.args[1]} on {a.args[0]}.", seat=f.seat)
    if f.count > 1:
        tx.push(Frame(kind="s_place_resource", seat=f.seat, count=f.count - 1, tag=f.tag, loc=f.loc))


def return_workers(tx: Tx, seat: int, n: int, why: str) -> None:
    """Return ``n`` workers from the board to the mat (Factory card 21): the player chooses which,
    unless they all stand on one location."""
    p = sp(tx.s, seat)
    if len(set(p.workers)) <= 1:
        w = tx.sc(seat)
        w.workers = w.workers[n:]
        w.workers_on_mat += n
        tx.log("pay", f"{flow.tag(tx.s, seat)} returns {n} worker(s) to the mat ({why}).", seat=seat)
        return
    tx.push(Frame(kind="s_return_worker", seat=seat, count=n, tag=why))


@flow.handler("s_return_worker", lambda s, f: f"Return a worker to your mat ({f.tag}): choose its location.",
              lambda s, f: [flow.act(s, f.seat, "return-worker", loc)
                            for loc in sorted(set(sp(s, f.seat).workers), key=_loc_key)])
def _return_worker(tx: Tx, f: Frame, a: Action | None) -> None:
    assert a is not None
    w = tx.sc(f.seat)
    workers = list(w.workers)
    workers.remove(a.args[0])
    w.workers = tuple(workers)
    w.workers_on_mat += 1
    tx.log("pay", f"{flow.tag(tx.s, f.seat)} returns the worker on {a.args[0]} to the mat ({f.tag}).", seat=f.seat)
    if f.count > 1:
        return_workers(tx, f.seat, f.count - 1, f.tag)


@effects.op("worker", "scythe")
def _worker(tx: Tx, seat: int, e: Effect) -> None:
    if sp(tx.s, seat).workers_on_mat > 0:
        tx.push(Frame(kind="s_place_worker", seat=seat))


def _place_worker_options(state: State, f: Frame) -> list[Action]:
    p = sp(state, f.seat)
    locs = [*sorted(controlled(state, f.seat), key=_loc_key), p.home]
    return [flow.act(state, f.seat, "place-worker", loc) for loc in locs]


@flow.handler("s_place_worker", "Place a worker from your mat on a territory you control or your home base.",
              _place_worker_options)
def _place_worker(tx: Tx, f: Frame, a: Action | None) -> None:
    assert a is not None
    p = tx.sc(f.seat)
    p.workers = (*p.workers, a.args[0])
    p.workers_on_mat -= 1
    tx.log("gain", f"{flow.tag(tx.s, f.seat)} places a worker on {a.args[0]}.", seat=f.seat)


for _b in ("deploy", "build", "enlist", "upgrade"):
    def _mk(action: str) -> effects.OpFn:
        def fn(tx: Tx, seat: int, e: Effect) -> None:
            push_bottom(tx, seat, action)
        return fn
    effects.OPS[("scythe", _b)] = _mk(_b)


@effects.op("map_token", "scythe")
def _map_token(tx: Tx, seat: int, e: Effect) -> None:
    s = tx.s
    t = effects.draw_map_token(tx)
    if t is not None:
        p = tx.sc(seat)
        p.map_tokens = (*p.map_tokens, t)
        tx.log("gain", f"{flow.tag(s, seat)} gains a map token.", seat=seat)


def exp_opponent(state: State, seat: int) -> ExpSeat | None:
    o = state.seats[1 - seat]
    return o if isinstance(o, ExpSeat) else None
