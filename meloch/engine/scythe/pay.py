"""The Scythe player's resources and payments: what may be spent (controlled territories,
Coercion), paying one resource at a time where it matters, and placing gained resources and
workers."""

from __future__ import annotations

from typing import Final

from meloch.content.schema import Effect
from meloch.engine import effects, flow
from meloch.engine import frames as K
from meloch.engine.actions import Action
from meloch.engine.board import board
from meloch.engine.cards import combat_token, combat_type
from meloch.engine.contract import Changed, MapTokenGained, WorkerGained
from meloch.engine.model import Frame, ScytheSeat, State
from meloch.engine.scythe.seat import RESOURCES, _loc_key, ability_of, sp
from meloch.engine.track import controlled
from meloch.engine.tx import Tx


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
    tx.push(Frame(kind=K.S_PAY, seat=seat, count=n, tag=kind, loc=why))


def _pay_options(state: State, f: Frame) -> list[Action]:
    out = [flow.act(state, f.seat, "pay", lc, k) for lc, k, _ in _piles(state, f.seat, f.tag)]
    if coercion_ready(state, f.seat):
        seen: set[str] = set()
        for c in sorted(sp(state, f.seat).combat_cards):
            if combat_type(c).id not in seen:
                seen.add(combat_type(c).id)
                out.append(flow.act(state, f.seat, "pay", "coerce", combat_token(c)))
    return out


@flow.handler(K.S_PAY, lambda s, f: f"Pay {f.count} {f.tag} for {f.loc}: choose the territory that pays one"
              + (" (or spend a combat card by Coercion)" if coercion_ready(s, f.seat) else "") + ".",
              _pay_options)
def _pay(tx: Tx, f: Frame, a: Action | None) -> None:
    assert a is not None
    who = flow.tag(tx.s, f.seat)
    if a.args[0] == "coerce":
        cid = int(a.args[1][1:])
        effects.take_combat_card(tx, f.seat, cid)
        tx.set_flag("coercion")
        tx.log("pay", f"{who} spends {combat_type(cid).name} as 1 {f.tag} (Coercion, {f.loc}).", seat=f.seat)
    else:
        add_resource(tx, f.seat, a.args[0], a.args[1], -1)
        tx.log("pay", f"{who} pays 1 {a.args[1]} from {a.args[0]} ({f.loc}).", seat=f.seat,
           data=Changed(what=a.args[1], by=-1, loc=a.args[0]))
    if f.count > 1:
        pay_resources(tx, f.seat, f.tag, f.count - 1, f.loc)


def worker_territories(state: State, seat: int) -> list[str]:
    """Controlled territories with at least one of the seat's workers."""
    p = sp(state, seat)
    ctrl = controlled(state, seat)
    return sorted({w for w in p.workers if w in ctrl}, key=_loc_key)



AT_CHARACTER: Final = "@char"
"""Suffix of a ``resource`` effect's arg set by encounters: the gain appears on the character's
territory (ref §3.8), even a shared one, where it cannot be spent while shared (AMB-13 (a))."""


@effects.op("resource", "scythe")
def _resource(tx: Tx, seat: int, e: Effect) -> None:
    kind, _, where = e.arg.partition("@")
    p = sp(tx.s, seat)
    loc = p.character if where and board(tx.s.setup.map_side).is_territory(p.character) else ""
    tx.push(Frame(kind=K.S_PLACE_RESOURCE, seat=seat, count=e.n, tag=kind, loc=loc))


def _place_res_options(state: State, f: Frame) -> list[Action]:
    locs = [f.loc] if f.loc else sorted(controlled(state, f.seat), key=_loc_key)
    kinds = RESOURCES if f.tag in ("any", "") else (f.tag,)
    return [flow.act(state, f.seat, "place-resource", loc, k) for loc in locs for k in kinds]


def gain_one_resource(tx: Tx, seat: int, loc: str, kind: str, log_kind: str) -> None:
    """One resource of ``kind`` placed on ``loc`` and logged (a placed gain, a Trade's choice)."""
    add_resource(tx, seat, loc, kind, 1)
    tx.log(log_kind, f"{flow.tag(tx.s, seat)} gains 1 {kind} on {loc}.", seat=seat,
           data=Changed(what=kind, by=1, loc=loc))


@flow.handler(K.S_PLACE_RESOURCE, lambda s, f: f"Place {f.count} gained {f.tag} on "
              + (f"your character's territory {f.loc}." if f.loc else "a territory you control."),
              _place_res_options)
def _place_res(tx: Tx, f: Frame, a: Action | None) -> None:
    assert a is not None
    gain_one_resource(tx, f.seat, a.args[0], a.args[1], "gain")
    if f.count > 1:
        tx.push(Frame(kind=K.S_PLACE_RESOURCE, seat=f.seat, count=f.count - 1, tag=f.tag, loc=f.loc))


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
    tx.push(Frame(kind=K.S_RETURN_WORKER, seat=seat, count=n, tag=why))


@flow.handler(K.S_RETURN_WORKER, lambda s, f: f"Return a worker to your mat ({f.tag}): choose its location.",
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
    p = sp(tx.s, seat)
    if p.workers_on_mat <= 0:
        return
    if e.arg.endswith(AT_CHARACTER) and p.character in controlled(tx.s, seat):
        # An encounter's worker appears on the character's territory (ref §3.8), unless that
        # territory is shared with the Expeditions mech, which workers may not enter.
        w = tx.sc(seat)
        w.workers = (*w.workers, p.character)
        w.workers_on_mat -= 1
        tx.log("gain", f"{flow.tag(tx.s, seat)} places a worker on {p.character} (encounter).", seat=seat,
               data=WorkerGained(worker=p.character))
        return
    tx.push(Frame(kind=K.S_PLACE_WORKER, seat=seat))


def _place_worker_options(state: State, f: Frame) -> list[Action]:
    p = sp(state, f.seat)
    locs = [*sorted(controlled(state, f.seat), key=_loc_key), p.home]
    return [flow.act(state, f.seat, "place-worker", loc) for loc in locs]


@flow.handler(K.S_PLACE_WORKER, "Place a worker from your mat on a territory you control or your home base.",
              _place_worker_options)
def _place_worker(tx: Tx, f: Frame, a: Action | None) -> None:
    assert a is not None
    p = tx.sc(f.seat)
    p.workers = (*p.workers, a.args[0])
    p.workers_on_mat -= 1
    tx.log("gain", f"{flow.tag(tx.s, f.seat)} places a worker on {a.args[0]}.", seat=f.seat,
           data=WorkerGained(worker=a.args[0]))



@effects.op("map_token", "scythe")
def _map_token(tx: Tx, seat: int, e: Effect) -> None:
    s = tx.s
    t = effects.draw_map_token(tx)
    if t is not None:
        p = tx.sc(seat)
        p.map_tokens = (*p.map_tokens, t)
        tx.log("gain", f"{flow.tag(s, seat)} gains a map token.", seat=seat, data=MapTokenGained(loc=p.character))


# ---------------------------------------------------------------- costs in the effect vocabulary


@effects.cost("resource", lambda s, seat, c: spendable(s, seat, c.arg) >= c.n, "scythe")
def _pay_resource_cost(tx: Tx, seat: int, c: Effect, why: str) -> None:
    pay_resources(tx, seat, c.arg, c.n, why)


@effects.cost("worker", lambda s, seat, c: len(sp(s, seat).workers) >= c.n, "scythe")
def _pay_worker_cost(tx: Tx, seat: int, c: Effect, why: str) -> None:
    return_workers(tx, seat, c.n, why)  # the player chooses which worker; the choice logs what was paid
