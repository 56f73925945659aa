"""Expeditions workers and held map tokens: gaining a worker, paying a worker cost, paying a map
token (Scarecrow, Mole).

A payment whose pieces differ (worker colours, map token ids) is the player's choice: one
decision per piece paid, skipped when only one distinct piece could be paid.
"""

from __future__ import annotations

from typing import Final

from meloch.content.schema import Effect
from meloch.engine import effects, flow
from meloch.engine import frames as K
from meloch.engine.actions import Action
from meloch.engine.contract import WorkerGained
from meloch.engine.expeditions.turn import ep
from meloch.engine.game_content import active
from meloch.engine.model import Frame, State
from meloch.engine.text import a_or_an
from meloch.engine.tx import Tx, is_exp

COLOURS: Final = ("purple", "green", "red", "yellow", "blue")


# ---------------------------------------------------------------- gaining a worker


def supply_workers(state: State, colour: str) -> int:
    per = active().supply.expeditions_workers_per_colour
    held = 0
    for p in state.seats:
        if is_exp(p):
            held += p.workers.count(colour) + sum(1 for _, w in p.active if w == colour)
    return per - held


@effects.op("worker", "expeditions")
def _worker(tx: Tx, seat: int, e: Effect) -> None:
    if e.arg in COLOURS:
        gain_worker(tx, seat, e.arg)
    else:
        tx.push(Frame(kind=K.E_WORKER_COLOUR, seat=seat))


def gain_worker(tx: Tx, seat: int, colour: str) -> None:
    """Gain a coloured worker from the limited supply (3 per colour). The hero worker is never
    gained: "You cannot gain more hero workers" (rulebook, Expeditions Special Notes)."""
    if colour not in COLOURS:
        return
    if supply_workers(tx.s, colour) <= 0:
        tx.log("gain", f"No {colour} worker is left in the supply.", seat=seat)
        return
    p = tx.ex(seat)
    p.workers = (*p.workers, colour)
    tx.log("gain", f"{flow.tag(tx.s, seat)} gains {a_or_an(colour)} worker.", seat=seat,
           data=WorkerGained(worker=colour))


@flow.handler(K.E_WORKER_COLOUR, "Gain a worker: choose its colour (3 of each colour in the supply).",
              lambda s, f: [flow.act(s, f.seat, "worker-colour", c) for c in COLOURS if supply_workers(s, c) > 0])
def _worker_colour(tx: Tx, f: Frame, a: Action | None) -> None:
    assert a is not None
    gain_worker(tx, f.seat, a.args[0])


# ---------------------------------------------------------------- paying a worker


def trash_workers(tx: Tx, seat: int, n: int) -> None:
    """Pay a worker cost of ``n`` workers from the mat (``effects.pay``): each paid worker is the
    player's choice of colour (an ``e_pay_worker`` decision), made at once when the mat holds a
    single colour. A trashed hero worker is gone for good: "if you trash your hero worker, you
    cannot regain it" (rulebook, Expeditions Special Notes)."""
    while n > 0:
        colours = sorted(set(ep(tx.s, seat).workers))
        if not colours:
            return
        if len(colours) > 1:
            tx.push(Frame(kind=K.E_PAY_WORKER, seat=seat, count=n))
            return
        _trash_worker(tx, seat, colours[0])
        n -= 1


def _trash_worker(tx: Tx, seat: int, colour: str) -> None:
    p = tx.ex(seat)
    ws = list(p.workers)
    ws.remove(colour)
    p.workers = tuple(ws)
    who = flow.tag(tx.s, seat)
    if colour == "hero":
        p.hero_trashed = True
        tx.log("trash", f"{who} trashes the hero worker (it cannot be regained).", seat=seat)
    else:
        tx.log("trash", f"{who} returns {a_or_an(colour)} worker to the supply.", seat=seat)


def _pay_worker_prompt(state: State, f: Frame) -> str:
    more = f" ({f.count} to pay)" if f.count > 1 else ""
    return (f"Pay a worker{more}: choose which worker from your mat returns to the supply "
            "(a trashed hero worker can never be regained).")


@flow.handler(K.E_PAY_WORKER, _pay_worker_prompt,
              lambda s, f: [flow.act(s, f.seat, "pay-worker", w) for w in sorted(set(ep(s, f.seat).workers))])
def _pay_worker(tx: Tx, f: Frame, a: Action | None) -> None:
    assert a is not None
    _trash_worker(tx, f.seat, a.args[0])
    trash_workers(tx, f.seat, f.count - 1)


# ---------------------------------------------------------------- paying a held map token


def pay_map_token(tx: Tx, seat: int, why: str) -> None:
    """Trash one held map token for ``why`` (Scarecrow, Mole): the player chooses which (an
    ``e_pay_map_token`` decision), at once when only one is held. Push this after the follow-up
    frames so that the token is chosen first."""
    held = ep(tx.s, seat).map_tokens
    if len(set(held)) > 1:
        tx.push(Frame(kind=K.E_PAY_MAP_TOKEN, seat=seat, tag=why))
    elif held:
        _trash_map_token(tx, seat, held[0], why)


def _trash_map_token(tx: Tx, seat: int, tok: str, why: str) -> None:
    p = tx.ex(seat)
    ts = list(p.map_tokens)
    ts.remove(tok)
    p.map_tokens = tuple(ts)
    tx.s.map_token_trash = (*tx.s.map_token_trash, tok)
    tx.log("trash", f"{flow.tag(tx.s, seat)} trashes map token {tok} ({why}).", seat=seat)


@flow.handler(K.E_PAY_MAP_TOKEN, lambda s, f: f"{f.tag}: choose which of your map tokens to trash.",
              lambda s, f: [flow.act(s, f.seat, "pay-map-token", t) for t in sorted(set(ep(s, f.seat).map_tokens))])
def _pay_map_token(tx: Tx, f: Frame, a: Action | None) -> None:
    assert a is not None
    _trash_map_token(tx, f.seat, a.args[0], f.tag)


@effects.cost("worker", lambda s, seat, c: len(ep(s, seat).workers) >= c.n, "expeditions")
def _pay_worker_cost(tx: Tx, seat: int, c: Effect, why: str) -> None:
    trash_workers(tx, seat, c.n)  # the player chooses which colours; the choice logs what was paid
