"""Combat: commit (Power Dial and tucked cards, secretly), reveal, card effects, resolve.

Commitments are stored in ``State.combat`` and shown only to their owner until the reveal; the
attacker commits first, then the defender, then an automatic reveal applies the attacker's cards,
then the defender's (Ambush may add a card after the reveal), then resolution.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final, Literal

import msgspec

from meloch.engine import effects, flow, track, variants
from meloch.engine import frames as K
from meloch.engine.actions import Action
from meloch.engine.board import board
from meloch.engine.cards import combat_name, combat_token, combat_type
from meloch.engine.contract import (
    CombatCard,
    CombatResolved,
    CombatRevealed,
    CombatSide,
    Generic,
    Moved,
    NoCombat,
)
from meloch.engine.model import Combat, Frame, State
from meloch.engine.tx import Tx, is_exp, is_scythe

# ---------------------------------------------------------------- hooks
# Mech, faction and item abilities change combat only through these registries (filled by the
# modules that own those abilities; combat.py never names a faction or a mech).

PRE_COMBAT: Final[list[Callable[[Tx], None]]] = []
"""Run once when a combat starts, before any dial is set (Artillery, Sword, Shield, Scout...):
attacker first by convention; read ``tx.s.combat``."""
CARD_LIMIT: Final[list[Callable[[State, int, str], int]]] = []
"""Extra combat cards a seat may tuck in this combat (People's Army, Suiton): (state, seat, loc) -> n."""
TOTAL_BONUS: Final[list[Callable[[State, int], int]]] = []
"""Flat bonuses to a seat's combat total (an item's combat_plus1, Ronin...): (state, seat) -> n."""
AFTER_LOSS: Final[list[Callable[[Tx, int], None]]] = []
"""Run for the loser after it has retreated and drawn (an item's retreat_card, Horrify...)."""
MAY_TUCK: Final[list[Callable[[State, int, int], bool]]] = []
"""May ``seat`` tuck combat card ``cid`` now (Death Ray: identical values)? (state, seat, cid) -> bool."""
AFTER_COMBAT: Final[list[Callable[[Tx, int], None]]] = []
"""Run for each seat (0 then 1) once a combat is resolved (Veer): (tx, seat)."""


def combat_units(state: State, seat: int, loc: str) -> int:
    p = state.seats[seat]
    if is_exp(p):
        return 1 if p.loc == loc else 0
    return (p.character == loc) + sum(1 for m in p.mechs if m == loc)


def all_units(state: State, loc: str) -> int:
    """Every unit on the location, both players, workers included (Swarm Tactics)."""
    n = 0
    for p in state.seats:
        if is_exp(p):
            n += p.loc == loc
        else:
            n += (p.character == loc) + sum(1 for m in p.mechs if m == loc) + sum(1 for w in p.workers if w == loc)
    return n


def start(tx: Tx, attacker: int, loc: str) -> None:
    s = tx.s
    s.combat = Combat(loc=loc, attacker=attacker, defender=1 - attacker)
    tx.log("combat", f"{flow.tag(s, attacker)} attacks {flow.tag(s, 1 - attacker)} on {loc}.", seat=attacker)
    tx.push_in_order(Frame(kind=K.C_DIAL, seat=attacker), Frame(kind=K.C_DIAL, seat=1 - attacker),
                     Frame(kind=K.C_REVEAL, seat=attacker))
    for hook in PRE_COMBAT:
        hook(tx)


def note_no_combat(tx: Tx, seat: int, unit: str, loc: str) -> None:
    """``seat``'s ``unit`` (a Scythe "char"/"mech<n>" or the Expeditions "mech") has just entered ``loc``:
    when the opponent has units there and no combat follows, say so and why (ref §1.6: "No automatic
    combat when units share a location"; Scythe combat only on territories). A Scythe combat unit
    entering opposing combat units on a territory gets its fight question instead; Scythe vs Scythe
    workers are displaced (``variants.on_enter``)."""
    s = tx.s
    o = s.seats[1 - seat]
    if is_exp(o):
        theirs = [f"{flow.tag(s, 1 - seat)}'s mech"] if o.loc == loc else []
        workers = 0
    else:
        theirs = [x for x, at in (("character", o.character), *((f"mech{i + 1}", m) for i, m in enumerate(o.mechs)))
                  if at == loc]
        theirs = [f"{flow.tag(s, 1 - seat)}'s {' and '.join(theirs)}"] if theirs else []
        workers = sum(1 for w in o.workers if w == loc)
    who = f"{flow.tag(s, seat)}'s {'character' if unit == 'char' else unit}"
    reason: Literal["only_workers", "vanquish_only", "not_territory"]
    if is_exp(s.seats[seat]):
        if theirs:
            reason, text = "vanquish_only", (f"{who} joins {theirs[0]} on {loc}: no combat (units sharing a location "
                                             "never fight by themselves; the Expeditions mech attacks only through a "
                                             "Vanquish benefit).")
        elif workers:
            reason, text = "only_workers", (f"{who} joins {flow.tag(s, 1 - seat)}'s {workers} worker(s) on {loc}: no "
                                            "combat (workers never fight; they stay).")
        else:
            return
    elif theirs and not (board(s.setup.map_side).is_territory(loc) or s.stalemate_open):
        reason, text = "not_territory", (f"{who} joins {theirs[0]} on {loc}: no combat (combat happens only on "
                                         "territories; a home base is not one).")
    else:
        return
    tx.log("no_combat", text, seat=seat, data=NoCombat(unit=unit, loc=loc, reason=reason))


def card_limit(state: State, seat: int, loc: str) -> int:
    """Cards a seat may tuck: one per own character and mech in the combat; the Expeditions mech
    is one unit, so at most one (rulebook, Combat step 1)."""
    base = combat_units(state, seat, loc)
    return base + sum(h(state, seat, loc) for h in CARD_LIMIT) if base else 0


def _set(tx: Tx, **changes: object) -> Combat:
    assert tx.s.combat is not None
    tx.s.combat = msgspec.structs.replace(tx.s.combat, **changes)
    return tx.s.combat


def _pair(t: tuple[object, object], seat: int, v: object) -> tuple[object, object]:
    return (v, t[1]) if seat == 0 else (t[0], v)


MAX_DIAL: Final = 7


def _dial_options(state: State, f: Frame) -> list[Action]:
    p = state.seats[f.seat]
    return [flow.act(state, f.seat, "dial", str(i)) for i in range(min(MAX_DIAL, p.power) + 1)]


def _dial_prompt(state: State, f: Frame) -> str:
    p = state.seats[f.seat]
    c = state.combat
    n = card_limit(state, f.seat, c.loc) if c is not None else 0
    return (f"Combat: secretly set your Power Dial from 0 to {min(MAX_DIAL, p.power)} (at most 7 and your power "
            f"{p.power}); then you may tuck up to {n} combat card(s), one per character and mech in the combat.")


@flow.handler(K.C_DIAL, _dial_prompt, _dial_options, secret=True)
def _dial(tx: Tx, f: Frame, a: Action | None) -> None:
    assert a is not None
    c = tx.s.combat
    assert c is not None
    _set(tx, dial=_pair(c.dial, f.seat, int(a.args[0])))
    who = flow.tag(tx.s, f.seat)
    tx.log("commit", f"{who} sets the Power Dial to {a.args[0]}.", seat=f.seat, private_to=f.seat,
           public=f"{who} sets the Power Dial.", data=Generic(values={"dial": int(a.args[0])}))
    limit = card_limit(tx.s, f.seat, c.loc)
    if tx.s.seats[f.seat].combat_cards and limit:
        tx.push(Frame(kind=K.C_TUCK, seat=f.seat, count=limit))


def _tuck_options(state: State, f: Frame) -> list[Action]:
    assert state.combat is not None
    held = state.seats[f.seat].combat_cards
    tucked = state.combat.cards[f.seat]
    left = [c for c in held if c not in tucked]
    left = [c for c in left if all(ok(state, f.seat, c) for ok in MAY_TUCK)]
    return [flow.act(state, f.seat, "tuck", combat_token(c)) for c in sorted(left)] + [
        flow.act(state, f.seat, "tuck", "done")]


@flow.handler(K.C_TUCK, lambda s, f: f"Combat: secretly tuck a combat card ({f.count} more allowed) or finish.",
              _tuck_options, secret=True)
def _tuck(tx: Tx, f: Frame, a: Action | None) -> None:
    assert a is not None
    c = tx.s.combat
    assert c is not None
    if a.args[0] == "done":
        return
    cid = int(a.args[0][1:])
    _set(tx, cards=_pair(c.cards, f.seat, (*c.cards[f.seat], cid)))
    who = flow.tag(tx.s, f.seat)
    tx.log("commit", f"{who} tucks {combat_name(cid)}.", seat=f.seat, private_to=f.seat,
           public=f"{who} tucks a combat card.", data=Generic(values={"card": cid, "value": combat_type(cid).value}))
    if f.count > 1 and len(tx.s.seats[f.seat].combat_cards) > len(c.cards[f.seat]) + 1:
        tx.push(Frame(kind=K.C_TUCK, seat=f.seat, count=f.count - 1))


@flow.handler(K.C_REVEAL, "reveal")
def _reveal(tx: Tx, f: Frame, a: Action | None) -> None:
    c = _set(tx, revealed=True)
    s = tx.s
    for seat in (c.attacker, c.defender):
        p = tx.seat(seat)
        held = list(p.combat_cards)
        for cid in c.cards[seat]:
            held.remove(cid)
        p.combat_cards = tuple(held)
        names = ", ".join(combat_name(x) for x in c.cards[seat]) or "no card"
        tx.log("reveal", f"{flow.tag(s, seat)} reveals dial {c.dial[seat]} and {names}.", seat=seat,
               data=CombatRevealed(loc=c.loc, side=_side(c, seat)))
    # Attacker's effects first, then the defender's; Ambush asks after the reveal.
    frames: list[Frame] = []
    for seat in (c.attacker, c.defender):
        for cid in c.cards[seat]:
            eff = combat_type(cid).combat_effect
            if eff == "element_of_surprise":
                frames.append(Frame(kind=K.C_SURPRISE, seat=seat, count=cid))
            elif eff == "ambush":
                frames.append(Frame(kind=K.C_AMBUSH, seat=seat))
    tx.push_in_order(*frames, Frame(kind=K.C_RESOLVE, seat=c.attacker))


@flow.handler(K.C_SURPRISE, "Element of Surprise")
def _surprise(tx: Tx, f: Frame, a: Action | None) -> None:
    s = tx.s
    if not s.combat_deck and s.combat_discard:
        s.combat_deck = tx.shuffled(s.combat_discard)
        s.combat_discard = ()
    if not s.combat_deck:
        return
    cid = s.combat_deck[-1]
    s.combat_deck = s.combat_deck[:-1]
    c = s.combat
    assert c is not None
    _set(tx, drawn=_pair(c.drawn, f.seat, (*c.drawn[f.seat], cid)),
         drawn_by=_pair(c.drawn_by, f.seat, (*c.drawn_by[f.seat], f.count)))
    tx.log("reveal", f"Element of Surprise: {flow.tag(s, f.seat)} draws {combat_name(cid)} and adds its value.",
           seat=f.seat, data=_added(c, f.seat, cid))


def _ambush_options(state: State, f: Frame) -> list[Action]:
    c = state.combat
    assert c is not None
    held = state.seats[f.seat].combat_cards
    ok = sorted({x for x in held if combat_type(x).value != 3})
    return [flow.act(state, f.seat, "ambush", combat_token(x)) for x in ok] + [
        flow.act(state, f.seat, "ambush", "none")]


@flow.handler(K.C_AMBUSH, "Ambush: you may play one more combat card of a different value, with its effect.",
              _ambush_options)
def _ambush(tx: Tx, f: Frame, a: Action | None) -> None:
    assert a is not None
    if a.args[0] == "none":
        return
    cid = int(a.args[0][1:])
    c = tx.s.combat
    assert c is not None
    effects.take_combat_card(tx, f.seat, cid, to_discard=False)  # discarded at resolution
    _set(tx, extra=_pair(c.extra, f.seat, (*c.extra[f.seat], cid)))
    tx.log("reveal", f"Ambush: {flow.tag(tx.s, f.seat)} adds {combat_name(cid)}.", seat=f.seat,
           data=_added(c, f.seat, cid))
    eff = combat_type(cid).combat_effect
    if eff == "element_of_surprise":
        tx.push(Frame(kind=K.C_SURPRISE, seat=f.seat, count=cid))
    elif eff == "ambush":  # pragma: no cover - excluded by AMB-05 (a)
        pass


def card_value(state: State, seat: int, cid: int) -> int:
    c = state.combat
    assert c is not None
    t = combat_type(cid)
    eff = t.combat_effect
    if eff == "munitions_bounty":
        return c.dial[seat]
    if eff == "element_of_surprise":
        # each Element of Surprise adds the one card it drew (rulebook: "add its value")
        return t.value + sum(combat_type(x).value for x, by in zip(c.drawn[seat], c.drawn_by[seat], strict=True)
                             if by == cid)
    if eff == "swarm_tactics":
        return t.value + all_units(state, c.loc)
    if eff == "survey_the_battlefield":
        others = sum(len(c.cards[i]) + len(c.extra[i]) for i in (0, 1)) - 1
        return t.value + others
    if eff == "last_ditch_effort" and seat == c.defender:
        return 5
    return t.value


def total(state: State, seat: int) -> int:
    c = state.combat
    assert c is not None
    return (c.dial[seat] + sum(card_value(state, seat, x) for x in (*c.cards[seat], *c.extra[seat]))
            + sum(h(state, seat) for h in TOTAL_BONUS))


def spent_power(state: State, seat: int) -> bool:
    """"Spent at least 1 power (on their dial or via a combat card)": a dial above 0 or a played
    card worth at least 1 (a combat card is power in Scythe; ref §1.7)."""
    c = state.combat
    assert c is not None
    return c.dial[seat] > 0 or any(card_value(state, seat, x) > 0 for x in (*c.cards[seat], *c.extra[seat]))


def _side(c: Combat, seat: int, tot: int = -1) -> CombatSide:
    """A side of a revealed combat for event data: dial and every card counted, with its value."""
    cards = tuple(CombatCard(id=x, name=combat_type(x).name, value=combat_type(x).value)
                  for x in (*c.cards[seat], *c.extra[seat], *c.drawn[seat]))
    return CombatSide(seat=seat, dial=c.dial[seat], cards=cards, total=tot)


def _added(c: Combat, seat: int, cid: int) -> CombatRevealed:
    t = combat_type(cid)
    side = CombatSide(seat=seat, dial=c.dial[seat], cards=(CombatCard(id=cid, name=t.name, value=t.value),))
    return CombatRevealed(loc=c.loc, side=side, added=True)


def _effects_of(c: Combat, seat: int) -> set[str]:
    return {combat_type(x).combat_effect for x in (*c.cards[seat], *c.extra[seat])}


@flow.handler(K.C_RESOLVE, "resolve")
def _resolve(tx: Tx, f: Frame, a: Action | None) -> None:
    s = tx.s
    c = s.combat
    assert c is not None
    ta, td = total(s, c.attacker), total(s, c.defender)
    att_fx = _effects_of(c, c.attacker)
    if ta > td or (ta == td and "last_ditch_effort" not in att_fx):
        winner = c.attacker
    else:
        winner = c.defender
    loser = 1 - winner
    tx.log("combat", f"Combat on {c.loc}: {flow.tag(s, c.attacker)} {ta} vs {flow.tag(s, c.defender)} {td}; "
           f"{flow.tag(s, winner)} wins.", seat=winner,
           data=CombatResolved(loc=c.loc, winner=winner, attacker=_side(c, c.attacker, ta),
                               defender=_side(c, c.defender, td)))
    for seat in (0, 1):
        if c.dial[seat]:
            effects.add_stat(tx, seat, "power", -c.dial[seat], "Power Dial")
    s.combat_discard = (*s.combat_discard, *c.cards[0], *c.cards[1], *c.extra[0], *c.extra[1],
                        *c.drawn[0], *c.drawn[1])
    spent = {seat: spent_power(s, seat) for seat in (0, 1)}
    retreat = {loser}
    if "planned_retreat" in _effects_of(c, winner):
        retreat = {0, 1}
    if "planned_retreat" in _effects_of(c, loser):
        retreat.add(loser)
    s.combat = None
    wp = tx.seat(winner)
    wp.combat_wins += 1
    lp = s.seats[loser]
    forced_out = sum(1 for w in lp.workers if w == c.loc) if is_scythe(lp) else 0
    for seat in sorted(retreat):
        retreat_units(tx, seat, c.loc)
    if winner == c.attacker:  # an attacker that wins loses popularity per worker forced out
        variants.lose_popularity_for_workers(tx, winner, forced_out)
    if spent[loser]:
        effects.draw_combat(tx, loser, 1, "lost a combat after spending power")
    for hook in AFTER_LOSS:
        hook(tx, loser)
    if "no_guts_no_glory" in _effects_of(c, winner):
        tx.log("star", f"No Guts, No Glory: {flow.tag(s, winner)} earns no star from this combat.", seat=winner)
    else:
        track.place_combat_star(tx, winner)
    if s.winner >= 0:
        return
    top = tx.top()
    star_choice = tx.pop() if top is not None and top.kind == K.C_STAR else None
    if variants.forced_combat(s) and c.attacker == s.active:
        # Scythe vs Scythe: every shared location is fought; look for the next one.
        tx.push(Frame(kind=K.S_FIGHT_CHECK, seat=c.attacker))
    for seat in (0, 1):
        for after in AFTER_COMBAT:
            after(tx, seat)
    if star_choice is not None:  # the winner chooses its star's category before anything else
        tx.push(star_choice)


def retreat_units(tx: Tx, seat: int, loc: str) -> None:
    p = tx.seat(seat)
    who = flow.tag(tx.s, seat)
    if is_exp(p):
        if p.loc == loc:
            p.loc = p.home
            tx.log("retreat", f"{who}'s mech retreats to its home base.", seat=seat,
                   data=Moved(unit="mech", frm=loc, to=p.home))
        return
    if p.character == loc:
        p.character = p.home
    p.mechs = tuple(p.home if m == loc else m for m in p.mechs)
    p.workers = tuple(p.home if w == loc else w for w in p.workers)
    tx.log("retreat", f"{who}'s units on {loc} retreat to the home base (resources stay behind).", seat=seat)
