"""The Scythe player's bottom-row actions: Upgrade, Deploy, Build, Enlist with each mat's costs
and coins, recruits' ongoing bonuses, and the Factory card's bottom-row Move."""

from __future__ import annotations

from meloch.content.schema import Effect, MatSection
from meloch.engine import effects, flow, hooks
from meloch.engine import frames as K
from meloch.engine.actions import Action
from meloch.engine.board import board
from meloch.engine.describe import DETAILS
from meloch.engine.frames import FrameKind
from meloch.engine.free import do_free_action, free_actions
from meloch.engine.game_content import active
from meloch.engine.model import STRUCTURES, Frame, ScytheSeat, State
from meloch.engine.scythe.pay import pay_resources, spendable, worker_territories
from meloch.engine.scythe.seat import (
    BOTTOM_RESOURCE,
    ENLIST_BONUS,
    PRODUCE_OUTPUT,
    RECRUIT_ONGOING,
    TOP_BOXES,
    mat,
    mech_abilities,
    sp,
)
from meloch.engine.scythe.top import factory_card
from meloch.engine.text import a_or_an
from meloch.engine.track import controlled
from meloch.engine.tx import Tx, is_scythe


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


def means(state: State, seat: int) -> tuple[int, tuple[str, ...]]:
    """``standing``'s Scythe figures: territories where Build could place a structure now (a
    controlled territory with the seat's worker and no structure of its own; 0 once all are
    built), and what the seat's worker territories produce, sorted."""
    p = sp(state, seat)
    if not p.workers:
        return 0, ()
    wt = set(p.workers) & controlled(state, seat)  # (worker_territories, unsorted: order is not read)
    if len(p.structures) >= len(STRUCTURES):
        spots = 0
    else:
        spots = len(wt.difference([loc for _, loc in p.structures]))
    terrain = board(state.setup.map_side).terrain
    kinds = {PRODUCE_OUTPUT.get(terrain(loc), "") for loc in wt}
    kinds.discard("")
    return spots, tuple(sorted(kinds))


hooks.SCYTHE_MEANS.append(means)


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


@flow.handler(K.S_BOTTOM, _bottom_prompt, _bottom_options)
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
        tx.push_in_order(Frame(kind=K.S_FACTORY_MOVE, seat=seat, count=steps),
                         Frame(kind=K.S_AFTER_MOVE, seat=seat))
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
    if is_scythe(opp) and sec.bottom in opp.recruits:
        # Scythe vs Scythe: the opponent is the neighbour on both sides, once per action (ref §3.3);
        # never from the Expeditions player (rulebook, Scythe Special Notes).
        effects.queue(tx, 1 - seat, (RECRUIT_ONGOING[sec.bottom],), "recruit ongoing bonus (neighbour)")
    if cost:  # the full cost is paid first: payment choices go on top
        pay_resources(tx, seat, BOTTOM_RESOURCE[sec.bottom], cost, sec.bottom.capitalize())


def push_bottom(tx: Tx, seat: int, action: str) -> None:
    if action == "upgrade":
        tx.push(Frame(kind=K.S_UPGRADE, seat=seat))
    else:
        tx.push(Frame(kind=f"s_{action}", seat=seat))


def _upgrade_options(state: State, f: Frame) -> list[Action]:
    p = sp(state, f.seat)
    tops = [b for b in TOP_BOXES if b not in p.top_upgrades]
    secs = [str(i + 1) for i, s in enumerate(mat(p).sections) if p.bottom_cubes[i] < s.bottom_cost - s.bottom_cost_min]
    return [flow.act(state, f.seat, "upgrade", t, s) for t in tops for s in secs]


@flow.handler(K.S_UPGRADE, "Upgrade: take a cube from a top-row box and place it on a bottom-row cost box.",
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


@flow.handler(K.S_DEPLOY, "Deploy: choose a mech (faction-mat slot) and a territory with your worker.",
              _deploy_options)
def _deploy(tx: Tx, f: Frame, a: Action | None) -> None:
    assert a is not None
    p = tx.sc(f.seat)
    slot = int(a.args[0]) - 1
    p.mech_slots = (*p.mech_slots, slot)
    p.mechs = (*p.mechs, a.args[1])
    ab = active().factions[p.faction].mechs[slot]
    tx.log("deploy", f"{flow.tag(tx.s, f.seat)} deploys a mech on {a.args[1]}: unlocks {ab.ability}.", seat=f.seat)


def _build_options(state: State, f: Frame) -> list[Action]:
    p = sp(state, f.seat)
    built = {k for k, _ in p.structures}
    occupied = {loc for _, loc in p.structures}
    kinds = [k for k in STRUCTURES if k not in built]
    locs = [loc for loc in worker_territories(state, f.seat) if loc not in occupied]
    return [flow.act(state, f.seat, "build", k, loc) for k in kinds for loc in locs]


@flow.handler(K.S_BUILD, "Build: choose a structure and a territory with your worker.", _build_options)
def _build(tx: Tx, f: Frame, a: Action | None) -> None:
    assert a is not None
    p = tx.sc(f.seat)
    p.structures = (*p.structures, (a.args[0], a.args[1]))
    tx.log("build", f"{flow.tag(tx.s, f.seat)} builds {a_or_an(a.args[0])} on {a.args[1]}.", seat=f.seat)


def _enlist_options(state: State, f: Frame) -> list[Action]:
    p = sp(state, f.seat)
    secs = [b for b in ("upgrade", "deploy", "build", "enlist") if b not in p.recruits]
    bonuses = [b for b in ENLIST_BONUS if b not in p.enlist_bonuses]
    return [flow.act(state, f.seat, "enlist", s, b) for s in secs for b in bonuses]


@flow.handler(K.S_ENLIST, "Enlist: choose the recruit's section and its one-time bonus.", _enlist_options)
def _enlist(tx: Tx, f: Frame, a: Action | None) -> None:
    assert a is not None
    p = tx.sc(f.seat)
    p.recruits = (*p.recruits, a.args[0])
    p.enlist_bonuses = (*p.enlist_bonuses, a.args[1])
    tx.log("enlist", f"{flow.tag(tx.s, f.seat)} enlists a recruit ({a.args[0]}) and takes +2 {a.args[1]}.",
           seat=f.seat)
    effects.queue(tx, f.seat, (ENLIST_BONUS[a.args[1]],), "Enlist")




for _b in ("deploy", "build", "enlist", "upgrade"):
    def _mk(action: str) -> effects.OpFn:
        def fn(tx: Tx, seat: int, e: Effect) -> None:
            push_bottom(tx, seat, action)
        return fn
    effects.OPS[("scythe", _b)] = _mk(_b)



def _can(options: flow.Options, kind: FrameKind) -> effects.CanGain:
    return lambda state, seat, e: bool(options(state, Frame(kind=kind, seat=seat)))


effects.CAN_GAIN.update({
    ("scythe", "deploy"): _can(_deploy_options, K.S_DEPLOY),
    ("scythe", "build"): _can(_build_options, K.S_BUILD),
    ("scythe", "enlist"): _can(_enlist_options, K.S_ENLIST),
    ("scythe", "upgrade"): _can(_upgrade_options, K.S_UPGRADE),
})


def _bottom_details(state: State, f: Frame, a: Action) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    """A bottom-row action's cost (its mat cost less the upgrade cubes) and coins, for ``describe``."""
    p = sp(state, f.seat)
    if a.args[0] in ("skip", "factory-move") or not 0 <= p.section < 4:
        return None
    sec = mat(p).sections[p.section]
    cost = bottom_cost(p, p.section)
    return ((f"{cost} {BOTTOM_RESOURCE[sec.bottom]}",) if cost > 0 else (), (f"${sec.bottom_coins}",))


DETAILS["bottom"] = _bottom_details
