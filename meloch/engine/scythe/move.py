"""Scythe movement, and what follows a Move: combat, then encounter, then the Factory.

The rulebook's order of operations ("combat, encounters/maps, then the Factory") is three automatic
frames pushed after a Move; each checks its condition when it runs, so a unit that retreated from
combat has no encounter.
"""

from __future__ import annotations

from typing import Final

import msgspec

from meloch.content.schema import Effect, EncounterCard
from meloch.engine import combat, effects, flow, variants
from meloch.engine import frames as K
from meloch.engine.actions import Action
from meloch.engine.board import board
from meloch.engine.contract import Known, Moved
from meloch.engine.game_content import index
from meloch.engine.model import Frame, State
from meloch.engine.scythe import abilities
from meloch.engine.scythe.pay import AT_CHARACTER, add_resource
from meloch.engine.scythe.seat import _loc_key, sp
from meloch.engine.text import a_or_an
from meloch.engine.tx import Tx, is_exp


def _enemy_units(state: State, seat: int) -> tuple[set[str], set[str]]:
    """(locations of enemy combat units, locations of enemy workers)."""
    o = state.seats[1 - seat]
    if is_exp(o):
        return {o.loc}, set()
    return {o.character, *o.mechs}, set(o.workers)


def destinations(state: State, seat: int, unit: str, start: str, steps: int,
                 without: frozenset[str] = frozenset(), factory: bool = False) -> list[str]:
    """Where ``unit`` (char / mech / worker) may end a move of up to ``steps`` steps.

    Each step is a land step, a tunnel link (tunnels are mutually adjacent), or what an unlocked
    ability adds (``scythe_abilities.MOBILITY``); ``without`` leaves abilities out (to learn
    whether a move needed Toka or Fanatical). Speed adds a step to the character's and mechs'
    ordinary moves; a ``factory`` move's steps are given (2, 3 with Speed: AMB-41 (a))."""
    p = sp(state, seat)
    b = board(state.setup.map_side)
    abil = abilities.step_abilities(p, unit) - without
    combat_unit = unit != "worker"
    if combat_unit and "speed" in abil and not factory:
        steps += 1
    enemy_combat, enemy_workers = _enemy_units(state, seat)
    enemy = frozenset(enemy_combat | enemy_workers)
    is_duel = is_exp(state.seats[1 - seat])
    tokens = {loc for loc, _ in state.map_tokens}
    mines = {loc for k, loc in p.structures if k == "mine"}
    ctx = abilities.MoveCtx(state, seat, p, b, unit, enemy)
    extra = [abilities.MOBILITY[a] for a in sorted(abil) if a in abilities.MOBILITY]

    def step_from(loc: str) -> set[str]:
        out = b.scythe_steps(loc)
        if loc in mines or (loc in b.tunnels and mines):
            out |= (set(b.tunnels) | mines) - {loc}
        for fn in extra:
            out |= fn(ctx, loc)
        own_home = "wayfare" in abil
        return ({o for o in out if o != loc and (b.loc[o].kind != "home" or (own_home and o == p.home))}
                | variants.open_homes_from(state, loc, combat_unit))  # side-B stalemate rule

    def stops(loc: str) -> bool:
        if loc in enemy:
            return True
        return unit == "char" and loc in tokens

    seen = {start}
    frontier = {start}
    result: set[str] = set()
    for _ in range(steps):
        nxt: set[str] = set()
        for loc in frontier:
            for n in step_from(loc):
                if unit == "worker" and (n in enemy_combat or (not is_duel and n in enemy_workers)):
                    continue  # workers may not enter the opposing mech's location
                if unit == "worker" and b.loc[n].kind == "lake":
                    continue  # workers never stand on lakes
                if n in seen:
                    continue
                seen.add(n)
                result.add(n)
                if not stops(n):
                    nxt.add(n)
        frontier = nxt
    result.discard(start)
    return sorted(result, key=_loc_key)


def _units(state: State, seat: int, moved: tuple[str, ...]) -> list[tuple[str, str, str]]:
    """(token, kind, location) of each unit that may still move; one worker per location."""
    p = sp(state, seat)
    out: list[tuple[str, str, str]] = []
    if "char" not in moved:
        out.append(("char", "char", p.character))
    for i, loc in enumerate(p.mechs):
        if f"mech{i + 1}" not in moved:
            out.append((f"mech{i + 1}", "mech", loc))
    seen: set[str] = set()
    for i, loc in enumerate(p.workers):
        if f"w{i}" not in moved and loc not in seen:
            seen.add(loc)
            out.append(("worker", "worker", loc))
    return out


def _move_steps(f: Frame) -> tuple[int, bool]:
    """(steps per unit, Factory Move?): a Factory Move frame carries its steps in ``count``."""
    if f.kind == K.S_FACTORY_MOVE:
        return f.count, True
    return 1, False


def _move_options(state: State, f: Frame) -> list[Action]:
    steps, factory = _move_steps(f)
    out = []
    for tok, kind, loc in _units(state, f.seat, f.items):
        for d in destinations(state, f.seat, kind, loc, steps, factory=factory):
            out.append(flow.act(state, f.seat, "move", tok, loc, d))
    return [*out, flow.act(state, f.seat, "move", "done")] if out else []


def _move_prompt(state: State, f: Frame) -> str:
    if f.kind == K.S_FACTORY_MOVE:
        return f"Factory Move: one unit moves up to {f.count} times."
    return f"Move: move a different unit one step ({f.count} unit(s) left), or finish."


ONCE_PER_TURN_MOVES: Final = ("toka",)
"""Mobility abilities usable once per turn: a move that needed one marks it used."""


@flow.handler(K.S_FACTORY_MOVE, _move_prompt, _move_options)
@flow.handler(K.S_MOVE, _move_prompt, _move_options)
def _move(tx: Tx, f: Frame, a: Action | None) -> None:
    assert a is not None
    if a.args[0] == "done":
        tx.log("move", f"{flow.tag(tx.s, f.seat)} finishes moving.", seat=f.seat)
        return
    tok, frm, to = a.args
    kind = "char" if tok == "char" else "mech" if tok.startswith("mech") else "worker"
    steps, factory = _move_steps(f)
    before = tx.s
    vias = speed_stops(before, f.seat, kind, frm, to, steps, factory)  # before anything is written
    for ab in (*ONCE_PER_TURN_MOVES, "fanatical"):
        if to in destinations(before, f.seat, kind, frm, steps, frozenset({ab}), factory):
            continue
        if ab == "fanatical":
            p0 = tx.sc(f.seat)
            if to in p0.influence:
                p0.influence = tuple(x for x in p0.influence if x != to)
                tx.log("ability", f"Fanatical: {flow.tag(tx.s, f.seat)} takes back the influence on {to}.",
                       seat=f.seat)
        else:
            tx.set_flag(ab)
    p = tx.sc(f.seat)
    if tok == "char":
        p.character = to
        moved = "char"
        tx.set_flag("char_moved")
    elif tok.startswith("mech"):
        i = int(tok[4:]) - 1
        mechs = list(p.mechs)
        mechs[i] = to
        p.mechs = tuple(mechs)
        moved = tok
    else:
        i = next(i for i, w in enumerate(p.workers) if w == frm and f"w{i}" not in f.items)
        workers = list(p.workers)
        workers[i] = to
        p.workers = tuple(workers)
        moved = f"w{i}"
    tx.log("move", f"{flow.tag(tx.s, f.seat)} moves {'a worker' if tok == 'worker' else tok} from {frm} to {to}.",
           seat=f.seat, data=Moved(unit=tok, frm=frm, to=to))
    if f.kind == K.S_MOVE and f.count > 1:
        tx.push(Frame(kind=K.S_MOVE, seat=f.seat, count=f.count - 1, items=(*f.items, moved)))
    if vias and _has_cargo(tx.s, f.seat, (frm, *vias)):
        tx.push(Frame(kind=K.S_VIA, seat=f.seat, loc=frm, tag=to, items=tuple(vias)))
    elif carry_options(tx.s, f.seat, kind, frm, to):
        tx.push(Frame(kind=K.S_CARRY, seat=f.seat, loc=frm, tag=to, items=(kind,)))
    abilities.on_enemy_enters(tx, f.seat, to)
    variants.on_enter(tx, f.seat, tok != "worker", to)  # Scythe vs Scythe: displaced workers
    if tok != "worker":
        combat.note_no_combat(tx, f.seat, tok, to)


def carry_options(state: State, seat: int, kind: str, frm: str, to: str) -> list[Action]:
    """What the unit that just moved from ``frm`` to ``to`` may bring along: resources (any unit;
    out of a shared location too, AMB-12 (a)) and, for a mech, workers. Nothing is left on a lake
    and no worker is carried into the opposing mech's location (AMB-11 (a)) or a home base."""
    p = sp(state, seat)
    b = board(state.setup.map_side)
    if b.loc[to].kind == "lake":
        return []
    out = [flow.act(state, seat, "carry", r) for r in sorted({k for lc, k, _ in p.resources if lc == frm})]
    enemy_combat, _ = _enemy_units(state, seat)
    if kind == "mech" and frm in p.workers and to not in enemy_combat and b.loc[to].kind != "home":
        out.append(flow.act(state, seat, "carry", "worker"))
    return [*out, flow.act(state, seat, "carry", "done")] if out else []


@flow.handler(K.S_CARRY, lambda s, f: f"Carry along from {f.loc} to {f.tag}: a resource"
              f"{' or a worker' if f.items == ('mech',) else ''} (one at a time), or done.",
              lambda s, f: carry_options(s, f.seat, f.items[0], f.loc, f.tag))
def _carry(tx: Tx, f: Frame, a: Action | None) -> None:
    assert a is not None
    what = a.args[0]
    if what == "done":
        return
    if what == "worker":
        p = tx.sc(f.seat)
        workers = list(p.workers)
        workers[workers.index(f.loc)] = f.tag
        p.workers = tuple(workers)
    else:
        add_resource(tx, f.seat, f.loc, what, -1)
        add_resource(tx, f.seat, f.tag, what, 1)
    tx.log("move", f"{flow.tag(tx.s, f.seat)} carries {a_or_an(what)} from {f.loc} to {f.tag}.", seat=f.seat,
           data=Moved(unit=what, frm=f.loc, to=f.tag))
    tx.push(f)


def speed_stops(state: State, seat: int, kind: str, frm: str, to: str, steps: int, factory: bool) -> list[str]:
    """Territories where a mech with Speed moving from ``frm`` to ``to`` may stop on the way to pick
    up and drop off resources and workers (rulebook Appendix, Speed: "Your mechs can pick up and
    drop off resources and workers in the middle of a move action when they have the Speed
    ability"): a territory ``m`` with a path frm -> m -> to within the move's steps (2 for a Move
    with Speed, 3 for a Factory Move with Speed), not holding an opposing unit (that would end the
    move). One stop per move. Computed from the state before the move (control can change)."""
    if kind != "mech" or "speed" not in abilities.mech_abilities(sp(state, seat)):
        return []
    total = steps if factory else steps + 1
    b = board(state.setup.map_side)
    enemy_combat, enemy_workers = _enemy_units(state, seat)
    out: set[str] = set()
    for k in range(1, total):
        for m in destinations(state, seat, "mech", frm, k, factory=True):
            if m in out or m == to or not b.is_territory(m) or m in enemy_combat or m in enemy_workers:
                continue
            if to in destinations(state, seat, "mech", m, total - k, factory=True):
                out.add(m)
    return sorted(out, key=_loc_key)


def _has_cargo(state: State, seat: int, locs: tuple[str, ...]) -> bool:
    """Whether the seat has resources or workers on any of ``locs`` (a stop on the way matters)."""
    p = sp(state, seat)
    return any(lc in locs for lc, _, _ in p.resources) or any(w in locs for w in p.workers)


@flow.handler(K.S_VIA, lambda s, f: f"Your mech moved from {f.loc} to {f.tag} with Speed: stop on the way at "
              f"{' or '.join(f.items)} to drop off and pick up resources and workers, or go straight (none).",
              lambda s, f: [*(flow.act(s, f.seat, "via", m) for m in f.items), flow.act(s, f.seat, "via", "none")])
def _via(tx: Tx, f: Frame, a: Action | None) -> None:
    assert a is not None
    mid = a.args[0]
    if mid == "none":
        tx.push(Frame(kind=K.S_CARRY, seat=f.seat, loc=f.loc, tag=f.tag, items=("mech",)))
        return
    tx.log("move", f"{flow.tag(tx.s, f.seat)}'s mech stops on the way at {mid} (Speed).", seat=f.seat)
    tx.push_in_order(Frame(kind=K.S_CARRY, seat=f.seat, loc=f.loc, tag=mid, items=("mech",)),
                     Frame(kind=K.S_CARRY, seat=f.seat, loc=mid, tag=f.tag, items=("mech",)))


@flow.handler(K.S_AFTER_MOVE, "after the Move")
def _after_move(tx: Tx, f: Frame, a: Action | None) -> None:
    tx.push_in_order(Frame(kind=K.S_FIGHT_CHECK, seat=f.seat),
                     Frame(kind=K.S_ENCOUNTER_CHECK, seat=f.seat),
                     Frame(kind=K.S_FACTORY_CHECK, seat=f.seat), *abilities.after_move_frames(tx.s, f.seat))


def combat_location(state: State, seat: int) -> str:
    """The location where this Scythe seat may start a combat after its Move, or ""."""
    p = sp(state, seat)
    o = state.seats[1 - seat]
    mine = {p.character, *p.mechs}
    b = board(state.setup.map_side)
    if is_exp(o):
        ok = o.loc in mine and (b.is_territory(o.loc) or state.stalemate_open)
        return o.loc if ok else ""
    both = mine & {o.character, *o.mechs}
    both = {x for x in both if b.is_territory(x) or state.stalemate_open}
    return min(both, key=_loc_key) if both else ""


@flow.handler(K.S_FIGHT_CHECK, "combat check")
def _fight_check(tx: Tx, f: Frame, a: Action | None) -> None:
    loc = combat_location(tx.s, f.seat)
    if loc:
        tx.push(Frame(kind=K.S_FIGHT, seat=f.seat, loc=loc))


def _fight_options(state: State, f: Frame) -> list[Action]:
    if variants.forced_combat(state):
        return [flow.act(state, f.seat, "fight", "yes")]
    return [flow.act(state, f.seat, "fight", "yes"), flow.act(state, f.seat, "fight", "no")]


@flow.handler(K.S_FIGHT, lambda s, f: f"Your combat units share {f.loc} with the opponent: start a combat?",
              _fight_options)
def _fight(tx: Tx, f: Frame, a: Action | None) -> None:
    assert a is not None
    if a.args[0] == "yes":
        combat.start(tx, f.seat, f.loc)
    else:
        tx.log("combat", f"{flow.tag(tx.s, f.seat)} declines to fight on {f.loc}.", seat=f.seat)


@flow.handler(K.S_ENCOUNTER_CHECK, "encounter check")
def _encounter_check(tx: Tx, f: Frame, a: Action | None) -> None:
    s = tx.s
    p = sp(s, f.seat)
    tok = next((t for loc, t in s.map_tokens if loc == p.character), None)
    if tok is None:
        return
    s.map_tokens = tuple((loc, t) for loc, t in s.map_tokens if loc != p.character)
    p2 = tx.sc(f.seat)
    p2.map_tokens = (*p2.map_tokens, tok)
    p2.encounters += 1
    tx.log("encounter", f"{flow.tag(s, f.seat)}'s character takes the map token on {p.character}: an encounter.",
           seat=f.seat)
    start_encounter(tx, f.seat)


def start_encounter(tx: Tx, seat: int) -> None:
    """Draw an encounter card (an empty deck takes its shuffled used pile, AMB-39 (a)). A base
    Scythe card that makes no sense in the Duel (``duel_sensible: false``) is discarded to the used
    pile and another is drawn (rulebook Setup 8); after as many draws as there are cards, none."""
    s = tx.s
    for _ in range(len(s.encounter_deck) + len(s.encounter_used) + 1):
        if not s.encounter_deck:
            s.encounter_deck = tx.shuffled(s.encounter_used)
            s.encounter_used = ()
            tx.log("shuffle", "The encounter deck is reshuffled.")
        if not s.encounter_deck:
            return
        card = s.encounter_deck[-1]
        s.encounter_deck = s.encounter_deck[:-1]
        s.encounter_used = (*s.encounter_used, card)
        if encounter(card).duel_sensible:
            break
        tx.log("encounter", f"{flow.tag(s, seat)} draws encounter {encounter(card).name}, which makes no sense "
               "in the Duel: it is discarded and another is drawn.", seat=seat)
    else:
        return
    n = abilities.encounter_picks(sp(s, seat))
    tx.log("encounter", f"{flow.tag(s, seat)} draws encounter {encounter(card).name}.", seat=seat)
    tx.push(Frame(kind=K.S_ENCOUNTER, seat=seat, tag=card, count=n))


def encounter(cid: str) -> EncounterCard:
    return index().encounters[cid]


def _encounter_options(state: State, f: Frame) -> list[Action]:
    card = encounter(f.tag)
    return [flow.act(state, f.seat, "encounter", str(i + 1)) for i, o in enumerate(card.options)
            if str(i + 1) not in f.items and effects.can_pay(state, f.seat, o.cost)]


def _encounter_prompt(state: State, f: Frame) -> str:
    card = encounter(f.tag)
    return f"Encounter {card.name}: choose an option: " + "; ".join(
        f"{i + 1}) {o.text}" for i, o in enumerate(card.options))


@flow.handler(K.S_ENCOUNTER, _encounter_prompt, _encounter_options)
def _encounter(tx: Tx, f: Frame, a: Action | None) -> None:
    assert a is not None
    opt = encounter(f.tag).options[int(a.args[0]) - 1]
    if f.count > 1:
        tx.push(Frame(kind=K.S_ENCOUNTER, seat=f.seat, tag=f.tag, count=f.count - 1,
                      items=(*f.items, a.args[0])))
    tx.log("encounter", f"{flow.tag(tx.s, f.seat)} chooses: {opt.text}", seat=f.seat)
    gains = tuple(msgspec.structs.replace(e, arg=e.arg + AT_CHARACTER) if e.op in ("resource", "worker") else e
                  for e in opt.gain)
    effects.queue(tx, f.seat, gains, "encounter")
    effects.pay(tx, f.seat, opt.cost, "encounter")  # payment choices (on top) come first


@flow.handler(K.S_FACTORY_CHECK, "Factory check")
def _factory_check(tx: Tx, f: Frame, a: Action | None) -> None:
    s = tx.s
    p = sp(s, f.seat)
    if p.factory_card or not s.factory_cards or p.character != board(s.setup.map_side).factory:
        return
    tx.push(Frame(kind=K.S_FACTORY, seat=f.seat))


def _factory_options(state: State, f: Frame) -> list[Action]:
    return [flow.act(state, f.seat, "factory", c) for c in state.factory_cards]


@flow.handler(K.S_FACTORY, "Your character reached the Factory: keep one Factory card as a 5th section.",
              _factory_options)
def _factory(tx: Tx, f: Frame, a: Action | None) -> None:
    assert a is not None
    s = tx.s
    p = tx.sc(f.seat)
    p.factory_card = a.args[0]
    s.factory_cards = tuple(c for c in s.factory_cards if c != a.args[0])
    s.known = (*s.known, Known(seat=f.seat, kind="factory", cards=s.factory_cards))
    tx.log("factory", f"{flow.tag(s, f.seat)} takes Factory card {a.args[0]}.", seat=f.seat)


def _factory19(tx: Tx, seat: int, e: Effect) -> None:
    """Factory card 19: the character draws an encounter card without a token."""
    start_encounter(tx, seat)


effects.CUSTOM["factory19_encounter"] = _factory19
