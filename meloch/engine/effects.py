"""The effect executor: one interpreter for every benefit and cost written in content.

``queue`` pushes an automatic ``fx`` frame that resolves effects one at a time; an effect that needs
a choice pushes a decision frame above the rest of the queue. Ops are registered per role in
``OPS`` by the rule modules (``OPS[(role, op)]``, with ``(None, op)`` for both roles), so adding an
op is one entry. Costs use ``can_pay``/``pay`` with the same vocabulary.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from meloch.content.schema import Effect
from meloch.engine import flow
from meloch.engine import frames as K
from meloch.engine.actions import Action
from meloch.engine.cards import combat_name, combat_token
from meloch.engine.contract import Changed, Drawn
from meloch.engine.model import Frame, State
from meloch.engine.tx import Tx, is_scythe

OpFn = Callable[[Tx, int, Effect], None]
OPS: Final[dict[tuple[str | None, str], OpFn]] = {}
CUSTOM: Final[dict[str, OpFn]] = {}
CUSTOM_TEXT: Final[dict[str, str]] = {
    "nikte": "Nikte: refresh your other workers or Solve",
    "nikte_refresh": "refresh all other workers (Nikte's stays)",
    "nohoch": "Nohoch: pay $1 for your location's top corruption, or Vanquish",
    "nohoch_corruption": "pay $1 to gain your location's top corruption",
    "factory19_encounter": "your character draws an encounter card",
    "south_power": "if every opponent is south of you, gain 2 power",
    "north_guile": "if every opponent is north of you, gain 2 guile",
}
"""How a custom handler reads in prompts and logs (a test checks every handler has its text)."""

POWER_CAP: Final = {"scythe": 16, "expeditions": 10}
"""Power cap per role: the Duel board's popularity/power track (16, docs/rules-notes.md "Scythe
power and popularity limits") and Expeditions' mat (10)."""
POPULARITY_CAP: Final = 16
"""The Duel board's shared popularity/power track, read as 0..16 (docs/rules-notes.md)."""
GUILE_CAP: Final = 10


def op(name: str, role: str | None = None) -> Callable[[OpFn], OpFn]:
    def deco(fn: OpFn) -> OpFn:
        OPS[(role, name)] = fn
        return fn

    return deco


def describe(e: Effect) -> str:
    if e.op == "one_of":
        return " / ".join(" + ".join(describe(x) for x in opt) for opt in e.one_of)
    if e.op == "custom":
        return CUSTOM_TEXT.get(e.arg, e.arg.replace("_", " "))
    parts = [e.op.replace("_", " ")]
    if e.n != 1 or e.op in ("power", "guile", "coins", "popularity", "combat_cards"):
        parts.append(str(e.n))
    if e.arg and e.op not in ("solve", "vanquish"):  # their arg names the card that grants them
        parts.append(e.arg)
    return " ".join(parts)


BENEFIT_FILTER: Final[list[Callable[[Tx, int, Sequence[Effect], str], bool]]] = []
"""A hook that returns True has taken the benefits itself (the Automa: 1 power per benefit)."""


def queue(tx: Tx, seat: int, effects: Sequence[Effect], source: str = "") -> None:
    """Resolve ``effects`` for ``seat`` next (above whatever is pending)."""
    if effects and any(hook(tx, seat, effects, source) for hook in BENEFIT_FILTER):
        return
    if effects:
        tx.push(Frame(kind=K.FX, seat=seat, effects=tuple(effects), tag=source))


@flow.handler(K.FX, "resolving effects")
def _fx(tx: Tx, f: Frame, a: Action | None) -> None:
    e, rest = f.effects[0], f.effects[1:]
    if rest:
        tx.push(Frame(kind=K.FX, seat=f.seat, effects=rest, tag=f.tag))
    execute(tx, f.seat, e)


def execute(tx: Tx, seat: int, e: Effect) -> None:
    if e.op == "one_of":
        tx.push(Frame(kind=K.ONE_OF, seat=seat, effects=(e,)))
        return
    if e.op == "custom":
        CUSTOM[e.arg](tx, seat, e)
        return
    role = flow.role(tx.s, seat)
    fn = OPS.get((role, e.op)) or OPS.get((None, e.op))
    if fn is None:
        tx.log("effect", f"{flow.tag(tx.s, seat)}: {describe(e)} has no effect for the {role} player.", seat=seat)
        return
    fn(tx, seat, e)


def _one_of_options(state: State, f: Frame) -> list[Action]:
    e = f.effects[0]
    return [flow.act(state, f.seat, "option", str(i + 1)) for i, opt in enumerate(e.one_of)
            if can_gain(state, f.seat, opt)] or [flow.act(state, f.seat, "option", "1")]


def _one_of_prompt(state: State, f: Frame) -> str:
    e = f.effects[0]
    return "Choose one: " + "; ".join(
        f"{i + 1}) " + " + ".join(describe(x) for x in opt) for i, opt in enumerate(e.one_of))


@flow.handler(K.ONE_OF, _one_of_prompt, _one_of_options)
def _one_of(tx: Tx, f: Frame, a: Action | None) -> None:
    assert a is not None
    queue(tx, f.seat, f.effects[0].one_of[int(a.args[0]) - 1], "choice")


CanGain = Callable[[State, int, Effect], bool]
CAN_GAIN: Final[dict[tuple[str | None, str], CanGain]] = {}
"""Optional checks "can this effect do anything now?", keyed like ``OPS`` (custom handlers as
``(None, "custom:<name>")``). Effects without a check count as possible."""


def can_gain(state: State, seat: int, effects: Sequence[Effect]) -> bool:
    """Whether every effect of an option can do something now (hides "/" options that cannot:
    Nohoch's paid corruption without $1, a Factory card's Deploy with no mech left...)."""
    role = flow.role(state, seat)
    for e in effects:
        key = f"custom:{e.arg}" if e.op == "custom" else e.op
        check = CAN_GAIN.get((role, key)) or CAN_GAIN.get((None, key))
        if check is not None and not check(state, seat, e):
            return False
    return True


# ---------------------------------------------------------------- simple gains


def _cap(state: State, seat: int, stat: str) -> int:
    role = flow.role(state, seat)
    if stat == "power":
        return POWER_CAP[role]
    if stat == "popularity":
        return POPULARITY_CAP
    return GUILE_CAP


def add_stat(tx: Tx, seat: int, stat: str, n: int, why: str = "") -> int:
    """Raise or lower power / guile / popularity / coins within their limits; returns the change."""
    p = tx.seat(seat)
    if not hasattr(p, stat):
        return 0
    old = int(getattr(p, stat))
    new = old + n
    new = max(0, new) if stat == "coins" else max(0, min(_cap(tx.s, seat, stat), new))
    setattr(p, stat, new)
    if new != old:
        sign = "+" if new > old else ""
        tx.log("gain", f"{flow.tag(tx.s, seat)} {stat} {sign}{new - old} -> {new}{' (' + why + ')' if why else ''}.",
               seat=seat, data=Changed(what=stat, by=new - old))
    return new - old


for _stat in ("power", "guile", "coins", "popularity"):
    def _mk(stat: str) -> OpFn:
        def fn(tx: Tx, seat: int, e: Effect) -> None:
            add_stat(tx, seat, stat, e.n)
        return fn
    OPS[(None, _stat)] = _mk(_stat)


def _opp_stat(stat: str) -> OpFn:
    def fn(tx: Tx, seat: int, e: Effect) -> None:
        add_stat(tx, 1 - seat, stat, -e.n, "opponent's effect")
    return fn


OPS[(None, "opp_power")] = _opp_stat("power")
OPS[(None, "opp_guile")] = _opp_stat("guile")
OPS[(None, "opp_popularity")] = _opp_stat("popularity")


@op("opp_decrease")
def _opp_decrease(tx: Tx, seat: int, e: Effect) -> None:
    """"All opponents first decrease each token on tracks by 1": power and popularity for a
    Scythe opponent, power and guile for an Expeditions opponent."""
    opp = tx.s.seats[1 - seat]
    add_stat(tx, 1 - seat, "power", -1, "decrease tokens on tracks")
    add_stat(tx, 1 - seat, "popularity" if is_scythe(opp) else "guile", -1, "decrease tokens on tracks")


# ---------------------------------------------------------------- combat cards


def draw_combat(tx: Tx, seat: int, n: int = 1, why: str = "") -> list[int]:
    """Draw combat cards (an empty deck takes the shuffled discard pile: AMB-07 (a))."""
    s = tx.s
    got: list[int] = []
    for _ in range(n):
        if not s.combat_deck and s.combat_discard:
            s.combat_deck = tx.shuffled(s.combat_discard)
            s.combat_discard = ()
            tx.log("shuffle", "The combat discard pile is shuffled into a new deck.")
        if not s.combat_deck:
            break
        got.append(s.combat_deck[-1])
        s.combat_deck = s.combat_deck[:-1]
    if got:
        p = tx.seat(seat)
        p.combat_cards = (*p.combat_cards, *got)
        _log_combat_draw(tx, seat, got, why)
    return got


def _log_combat_draw(tx: Tx, seat: int, got: list[int], why: str) -> None:
    """One line per draw; a draw right after another of the same seat for the same reason (two
    "combat cards 1" gains of one step) joins it, so nobody reads the same line twice."""
    s = tx.s
    because = f" ({why})" if why else ""

    def public(n: int) -> str:
        return f"{flow.tag(s, seat)} draws {n} combat card(s){because}."

    last = tx.events[-1] if tx.events else None
    if (last is not None and last.kind == "draw" and last.private_to == seat and isinstance(last.data, Drawn)
            and last.data.deck == "combat" and last.public_text == public(last.data.count)):
        tx.events.pop()
        got = [*(int(c[1:]) for c in last.data.cards), *got]
    tx.log("draw", f"{flow.tag(s, seat)} draws {', '.join(combat_name(c) for c in got)}{because}.", seat=seat,
           private_to=seat, public=public(len(got)),
           data=Drawn(deck="combat", count=len(got), cards=tuple(f"c{c}" for c in got)),
           public_data=Drawn(deck="combat", count=len(got)))


def take_combat_card(tx: Tx, seat: int, cid: int, to_discard: bool = True) -> None:
    """Take combat card ``cid`` out of ``seat``'s hand; it goes to the discard pile (or, when
    ``to_discard`` is false, wherever the caller puts it: the trash, a combat)."""
    p = tx.seat(seat)
    cards = list(p.combat_cards)
    cards.remove(cid)
    p.combat_cards = tuple(cards)
    if to_discard:
        tx.s.combat_discard = (*tx.s.combat_discard, cid)


@op("combat_cards")
def _combat_cards(tx: Tx, seat: int, e: Effect) -> None:
    draw_combat(tx, seat, e.n)


def _pay_combat_options(state: State, f: Frame) -> list[Action]:
    held = sorted(set(state.seats[f.seat].combat_cards))
    return [flow.act(state, f.seat, "pay-combat", combat_token(c)) for c in held]


@flow.handler(K.PAY_COMBAT, lambda s, f: f"Pay {f.count} combat card(s) ({f.tag}): choose which to discard.",
              _pay_combat_options)
def _pay_combat(tx: Tx, f: Frame, a: Action | None) -> None:
    assert a is not None
    cid = int(a.args[0][1:])
    take_combat_card(tx, f.seat, cid)
    tx.log("pay", f"{flow.tag(tx.s, f.seat)} discards {combat_name(cid)} ({f.tag}).", seat=f.seat)
    if f.count > 1:
        tx.push(Frame(kind=K.PAY_COMBAT, seat=f.seat, count=f.count - 1, tag=f.tag))


def draw_map_token(tx: Tx) -> str | None:
    """Take the top face-down map token of the set-aside supply (AMB-16 (a)), if any."""
    s = tx.s
    if not s.map_token_supply:
        return None
    t = s.map_token_supply[-1]
    s.map_token_supply = s.map_token_supply[:-1]
    return t


# ---------------------------------------------------------------- costs


CostCheck = Callable[[State, int, Effect], bool]
CostPay = Callable[[Tx, int, Effect, str], None]
COSTS: Final[dict[tuple[str | None, str], tuple[CostCheck, CostPay]]] = {}
"""Costs go through an op table like gains: ``COSTS[(role, op)] = (can_pay, pay)``, with
``(None, op)`` for both roles; the role packages register their own (resources, workers). An op
with no entry for the payer's role cannot be paid."""


def cost(name: str, check: CostCheck, role: str | None = None) -> Callable[[CostPay], CostPay]:
    def deco(fn: CostPay) -> CostPay:
        COSTS[(role, name)] = (check, fn)
        return fn

    return deco


def _cost_entry(state: State, seat: int, c: Effect) -> tuple[CostCheck, CostPay] | None:
    role = flow.role(state, seat)
    return COSTS.get((role, c.op)) or COSTS.get((None, c.op))


def can_pay(state: State, seat: int, cost: Sequence[Effect]) -> bool:
    for c in cost:
        entry = _cost_entry(state, seat, c)
        if entry is None or not entry[0](state, seat, c):
            return False
    return True


def pay(tx: Tx, seat: int, cost: Sequence[Effect], why: str) -> None:
    """Pay a cost known to be payable (``can_pay``). Which resources, workers and combat cards pay
    is the player's choice (a decision frame each); map tokens, whose faces no longer matter once
    held, are paid oldest first."""
    for c in cost:
        entry = _cost_entry(tx.s, seat, c)
        assert entry is not None, f"no way to pay {c.op}"
        entry[1](tx, seat, c, why)


def _has_stat(state: State, seat: int, c: Effect) -> bool:
    return int(getattr(state.seats[seat], c.op, 0)) >= c.n


def _pay_stat(tx: Tx, seat: int, c: Effect, why: str) -> None:
    add_stat(tx, seat, c.op, -c.n, why)


for _stat in ("coins", "power", "guile", "popularity"):
    cost(_stat, _has_stat)(_pay_stat)


@cost("combat_cards", lambda s, seat, c: len(s.seats[seat].combat_cards) >= c.n)
def _pay_combat_cards(tx: Tx, seat: int, c: Effect, why: str) -> None:
    tx.push(Frame(kind=K.PAY_COMBAT, seat=seat, count=c.n, tag=why))


@cost("map_token", lambda s, seat, c: len(s.seats[seat].map_tokens) >= c.n)
def _pay_map_tokens(tx: Tx, seat: int, c: Effect, why: str) -> None:
    p = tx.seat(seat)
    tokens, p.map_tokens = p.map_tokens[: c.n], p.map_tokens[c.n:]
    tx.s.map_token_trash = (*tx.s.map_token_trash, *tokens)
    tx.log("pay", f"{flow.tag(tx.s, seat)} pays {c.n} map token(s) ({why}).", seat=seat)
