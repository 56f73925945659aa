"""Scythe faction and mech abilities: one registry keyed by ability name.

Everything a faction or a mech ability changes goes through this module, so the rule modules
never test a faction's name:

- ``mech_abilities(p)`` / ``faction_ability(p)``: what a seat has unlocked (Vesna's free slots hold
  the ability tokens she chose);
- ``MOBILITY``: extra one-step destinations per ability (``move.destinations`` asks each
  unlocked ability in turn), and ``RIVERS`` for the river-crossing abilities;
- hooks registered at import in the shared modules' registries (``combat``, ``track``,
  ``variants``, ``hooks``), so no shared module imports this one:
- combat hooks (``combat.PRE_COMBAT``...): ``pre_combat`` (Sword, Shield, Artillery, Scout, Disarm,
  Ronin), ``extra_card_slots`` / ``may_tuck`` (People's Army, Suiton, Death Ray) and
  ``after_combat`` (Horrify, Shinobi re-arming); Camaraderie has no effect in the Duel;
- tokens the character leaves after moving: Albion's flags, Togawa's traps, Fenris' influence
  (``TOKEN_ABILITIES``), the traps springing (``on_enemy_enters``) and influence stopping the
  Expeditions mech (``stops_exp_mech``), both through ``hooks.py``;
- ``unplaced_influence(p)`` for the Triumph Track's coin category (Fenris, ``track.COIN_REDUCTION``);
- Vesna: her ability tokens and her Technophile Factory cards.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Final, NamedTuple

from meloch.content.schema import Effect, Trap
from meloch.engine import combat, effects, flow, hooks, track, variants
from meloch.engine import frames as K
from meloch.engine.actions import Action
from meloch.engine.board import Board, board
from meloch.engine.cards import combat_name, combat_type, factory_pool
from meloch.engine.contract import Generic
from meloch.engine.game_content import active
from meloch.engine.model import Frame, ScytheSeat, State
from meloch.engine.text import a_or_an
from meloch.engine.tx import Tx, is_exp, is_scythe

VESNA_TOKENS: Final[tuple[str, ...]] = (
    "artillery", "camaraderie", "disarm", "peoples_army", "ronin", "scout", "seaworthy", "shield",
    "submerge", "suiton", "sword", "township", "underpass", "wayfare",
)
"""Vesna's mech ability tokens the engine knows. reference.md §3.10 lists 18; Feint, Regroup,
Stealth and Tactics have no known text and are left out (docs/rules-notes.md)."""
VESNA_OFFER: Final = 6
"""Tokens dealt face up for Vesna to choose 2 from (stand-in, docs/rules-notes.md)."""
LAKE_ABILITIES: Final = frozenset({"seaworthy", "submerge", "suiton"})


def sp(state: State, seat: int) -> ScytheSeat:
    p = state.seats[seat]
    assert is_scythe(p)
    return p


def faction_ability(p: ScytheSeat) -> str:
    return active().factions[p.faction].ability


def token_count(p: ScytheSeat) -> int:
    """Tokens the faction ability places (factions.yaml ``tokens``: Albion's flags, Togawa's traps,
    Fenris' influence)."""
    return active().factions[p.faction].tokens


def traps(p: ScytheSeat) -> dict[str, Trap]:
    """Togawa's trap kinds by id (factions.yaml ``traps``)."""
    return {t.id: t for t in active().factions[p.faction].traps}


def mech_abilities(p: ScytheSeat) -> set[str]:
    """Abilities unlocked by the deployed mechs (Vesna's token slots hold her chosen tokens)."""
    mechs = active().factions[p.faction].mechs
    out: set[str] = set()
    for i in p.mech_slots:
        ab = mechs[i].ability
        if ab == "vesna_tokens":
            k = sum(1 for j in range(i) if mechs[j].ability == "vesna_tokens")
            if k < len(p.vesna_tokens):
                out.add(p.vesna_tokens[k])
        else:
            out.add(ab)
    return out


def _controlled(state: State, seat: int) -> set[str]:
    return track.controlled(state, seat)


# ---------------------------------------------------------------- movement


class MoveCtx(NamedTuple):
    state: State
    seat: int
    p: ScytheSeat
    b: Board
    unit: str
    """char / mech / worker."""
    enemy: frozenset[str]
    """Locations holding any opposing unit."""


MobilityFn = Callable[[MoveCtx, str], set[str]]
MOBILITY: Final[dict[str, MobilityFn]] = {}
"""Ability -> extra locations one movement can reach from a location (combat units only)."""


def mobility(name: str) -> Callable[[MobilityFn], MobilityFn]:
    def deco(fn: MobilityFn) -> MobilityFn:
        MOBILITY[name] = fn
        return fn
    return deco


def _structure_locs(state: State) -> set[str]:
    out: set[str] = set()
    for q in state.seats:
        if is_scythe(q):
            out |= {loc for _, loc in q.structures}
    return out


def _mines(p: ScytheSeat) -> set[str]:
    return {loc for k, loc in p.structures if k == "mine"}


@mobility("riverwalk")
def _riverwalk(m: MoveCtx, loc: str) -> set[str]:
    if faction_ability(m.p) == "technophile":  # Vesna: to or from territories with any structure
        built = _structure_locs(m.state)
        return {n for n in m.b.river[loc] if loc in built or n in built}
    terrains = active().factions[m.p.faction].riverwalk
    return {n for n in m.b.river[loc] if m.b.terrain(n) in terrains}


@mobility("burrow")
def _burrow(m: MoveCtx, loc: str) -> set[str]:
    tun = set(m.b.tunnels) | _mines(m.p)
    return {n for n in m.b.river[loc] if loc in tun or n in tun}


@mobility("toka")
def _toka(m: MoveCtx, loc: str) -> set[str]:
    return set() if "toka" in m.state.turn_flags else set(m.b.river[loc])


def _lakes(m: MoveCtx, loc: str) -> set[str]:
    return {n for n in m.b.land[loc] if m.b.loc[n].kind == "lake"}


MOBILITY["seaworthy"] = _lakes
MOBILITY["suiton"] = _lakes


@mobility("submerge")
def _submerge(m: MoveCtx, loc: str) -> set[str]:
    out = _lakes(m, loc)
    if m.b.loc[loc].kind == "lake":
        out |= set(m.b.lakes) - {loc}
    return out


@mobility("township")
def _township(m: MoveCtx, loc: str) -> set[str]:
    """Villages you control and the Factory are all adjacent to one another (ref §3.10)."""
    group = {v for v in _controlled(m.state, m.seat) if m.b.terrain(v) == "village"} | {m.b.factory}
    return group if loc in group else set()


@mobility("underpass")
def _underpass(m: MoveCtx, loc: str) -> set[str]:
    """Mountains you control, tunnels and your Mine are all adjacent to one another (ref §3.10)."""
    group = {v for v in _controlled(m.state, m.seat) if m.b.terrain(v) == "mountain"}
    group |= set(m.b.tunnels) | _mines(m.p)
    return group if loc in group else set()


@mobility("warp")
def _warp(m: MoveCtx, loc: str) -> set[str]:
    if not m.b.is_territory(loc):
        return set()
    t = m.b.terrain(loc)
    return {n for n in m.b.numbered if m.b.terrain(n) == t and n not in m.enemy}


@mobility("rally")
def _rally(m: MoveCtx, loc: str) -> set[str]:
    return {w for w in (*m.p.workers, *m.p.flags) if m.b.is_territory(w)}


@mobility("shinobi")
def _shinobi(m: MoveCtx, loc: str) -> set[str]:
    return {t for t, _, _ in m.p.traps}


@mobility("fanatical")
def _fanatical(m: MoveCtx, loc: str) -> set[str]:
    return {t for t in m.p.influence if t not in m.b.all_adjacent[loc]}


@mobility("wayfare")
def _wayfare(m: MoveCtx, loc: str) -> set[str]:
    """Your own home base (the Duel map has no inactive faction's home base)."""
    return {m.p.home}


@mobility("leap")
def _leap(m: MoveCtx, loc: str) -> set[str]:
    """Jump over one adjacent territory or lake to the location beyond it in a straight line
    (the direction changes by less than 35 degrees), ignoring rivers and lakes."""
    a = m.b.loc[loc]
    out: set[str] = set()
    for mid in m.b.all_adjacent[loc]:
        bm = m.b.loc[mid]
        if bm.kind == "home":
            continue
        d1 = (bm.x - a.x, bm.y - a.y)
        for far in m.b.all_adjacent[mid]:
            c = m.b.loc[far]
            if far == loc or c.kind != "location":
                continue
            d2 = (c.x - bm.x, c.y - bm.y)
            ang = abs(math.atan2(d1[0] * d2[1] - d1[1] * d2[0], d1[0] * d2[0] + d1[1] * d2[1]))
            if ang < math.radians(35):
                out.add(far)
    return out


def step_abilities(p: ScytheSeat, unit: str) -> set[str]:
    """The abilities that shape one step of ``unit``: mech abilities apply to the character and
    mechs, Nordic's Swim to workers."""
    if unit == "worker":
        return {"swim"} if faction_ability(p) == "swim" else set()
    return mech_abilities(p)


def swim(m: MoveCtx, loc: str) -> set[str]:
    return set(m.b.river[loc])


MOBILITY["swim"] = swim


# ---------------------------------------------------------------- tokens left by the character

TOKEN_ABILITIES: Final = {"exalt": "flag", "maifuku": "trap", "influence": "influence"}


def token_options(state: State, seat: int) -> list[Action]:
    """Albion flag / Togawa trap / Fenris influence on the character's territory after it moved."""
    p = sp(state, seat)
    kind = TOKEN_ABILITIES.get(faction_ability(p), "")
    b = board(state.setup.map_side)
    loc = p.character
    if not kind or not b.is_territory(loc) or "char_moved" not in state.turn_flags:
        return []
    out: list[Action] = []
    if kind == "flag" and len(p.flags) < token_count(p) and loc not in p.flags:
        out.append(flow.act(state, seat, "token", "flag"))
    elif kind == "trap" and loc not in {t for t, _, _ in p.traps} and len(p.traps) < token_count(p):
        placed = {k for _, k, _ in p.traps}
        out += [flow.act(state, seat, "token", "trap", k) for k in traps(p) if k not in placed]
    elif kind == "influence" and len(p.influence) < token_count(p) and loc not in p.influence:
        out.append(flow.act(state, seat, "token", "influence"))
    return [*out, flow.act(state, seat, "token", "no")] if out else []


@flow.handler(K.S_TOKEN, lambda s, f: "Your character moved: place a token on its territory?",
              lambda s, f: token_options(s, f.seat))
def _token(tx: Tx, f: Frame, a: Action | None) -> None:
    assert a is not None
    if a.args[0] == "no":
        return
    p = tx.sc(f.seat)
    loc = p.character
    who = flow.tag(tx.s, f.seat)
    if a.args[0] == "flag":
        p.flags = (*p.flags, loc)
        tx.log("token", f"{who} places a flag on {loc}.", seat=f.seat)
    elif a.args[0] == "trap":
        p.traps = (*p.traps, (loc, a.args[1], True))
        tx.log("token", f"{who} places {a_or_an(a.args[1])} trap on {loc}.", seat=f.seat, private_to=f.seat,
               public=f"{who} places a face-down trap on {loc}.",
               data=Generic(values={"token": "trap", "trap": a.args[1], "loc": loc}),
               public_data=Generic(values={"token": "trap", "loc": loc}))
    else:
        p.influence = (*p.influence, loc)
        tx.log("token", f"{who} places an influence token on {loc}.", seat=f.seat)


def on_enemy_enters(tx: Tx, seat: int, loc: str) -> None:
    """``seat``'s unit ended its movement on ``loc``: an armed trap of the opponent there springs
    (Togawa) and its effects (factions.yaml ``traps``) resolve for the trap's owner. The popularity
    trap's ``opp_popularity`` does nothing to the Expeditions player, who has no popularity
    (rulebook, Faction-Specific Notes, Togawa), but the trap is still sprung (AMB-45 (a))."""
    o = tx.s.seats[1 - seat]
    if not is_scythe(o) or not any(t == loc and armed for t, _, armed in o.traps):
        return
    kind = next(k for t, k, armed in o.traps if t == loc and armed)
    ow = tx.sc(1 - seat)
    ow.traps = tuple((t, k, False) if t == loc else (t, k, a) for t, k, a in ow.traps)
    trap = traps(o)[kind]
    tx.log("trap", f"{flow.tag(tx.s, seat)} springs {a_or_an(kind)} trap on {loc}: {trap.text}", seat=seat)
    for e in trap.effects:
        if e.op == "opp_popularity" and is_exp(tx.s.seats[seat]):
            tx.log("trap", "The popularity trap has no effect on the Expeditions player.", seat=seat)
            continue
        effects.execute(tx, 1 - seat, e)


@effects.op("opp_coins")
def _opp_coins(tx: Tx, seat: int, e: Effect) -> None:
    effects.add_stat(tx, 1 - seat, "coins", -e.n, "opponent's effect")


@effects.op("opp_discard")
def _opp_discard(tx: Tx, seat: int, e: Effect) -> None:
    """The opponent discards ``n`` combat cards at random (Togawa's card trap)."""
    victim = tx.seat(1 - seat)
    for _ in range(min(e.n, len(victim.combat_cards))):
        cards = list(victim.combat_cards)
        cid = cards.pop(tx.randbelow(len(cards)))
        victim.combat_cards = tuple(cards)
        tx.s.combat_discard = (*tx.s.combat_discard, cid)
        tx.log("trap", f"{flow.tag(tx.s, 1 - seat)} discards {combat_name(cid)} at random.", seat=1 - seat)


def stops_exp_mech(state: State, seat: int, loc: str) -> bool:
    """Fenris influence ends the Expeditions mech's movement (rulebook, Faction-Specific Notes)."""
    o = state.seats[1 - seat]
    return is_scythe(o) and loc in o.influence


def unplaced_influence(p: ScytheSeat) -> int:
    """Influence tokens still in Fenris' supply: they reduce the coin count for the Triumph Track's
    coin category (rulebook, Faction-Specific Notes, Fenris). 0 for other factions."""
    return token_count(p) - len(p.influence) if faction_ability(p) == "influence" else 0


def encounter_picks(p: ScytheSeat) -> int:
    """Options an encounter lets the seat take: 2 with Polania's Meander, else 1."""
    return 2 if faction_ability(p) == "meander" else 1


def _camaraderie(p: ScytheSeat) -> str:
    """Polania's Camaraderie: no popularity lost for displaced workers (ref §3.10)."""
    return "Camaraderie" if "camaraderie" in mech_abilities(p) else ""


def after_move_frames(state: State, seat: int) -> list[Frame]:
    """Frames to push once a Move (and its combat, encounter and Factory) is over."""
    return [Frame(kind=K.S_REARM, seat=seat), Frame(kind=K.S_TOKEN, seat=seat)]


@flow.handler(K.S_REARM, "Shinobi re-arms a trap")
def _rearm(tx: Tx, f: Frame, a: Action | None) -> None:
    p = sp(tx.s, f.seat)
    if "shinobi" in mech_abilities(p):
        rearm(tx, f.seat, {p.character, *p.mechs})


def rearm(tx: Tx, seat: int, locs: set[str]) -> None:
    p = sp(tx.s, seat)
    if any(t in locs and not armed for t, _, armed in p.traps):
        w = tx.sc(seat)
        w.traps = tuple((t, k, True) if t in locs else (t, k, a) for t, k, a in w.traps)
        tx.log("trap", f"{flow.tag(tx.s, seat)} re-arms a trap (Shinobi).", seat=seat)


# ---------------------------------------------------------------- combat hooks (called from combat.py)


def pre_combat(tx: Tx) -> None:
    """"Before combat" mech abilities of each Scythe seat in the combat, attacker first
    (``combat.PRE_COMBAT``): Sword, Shield, Disarm, Scout at once; Artillery asks."""
    c = tx.s.combat
    assert c is not None
    attacker, loc = c.attacker, c.loc
    tx.s.turn_flags = (*(x for x in tx.s.turn_flags if not x.startswith("combat_loc:")), f"combat_loc:{loc}")
    b = board(tx.s.setup.map_side)
    for seat in (attacker, 1 - attacker):
        p = tx.s.seats[seat]
        if not is_scythe(p):
            continue
        ab = mech_abilities(p)
        who = flow.tag(tx.s, seat)
        if "sword" in ab and seat == attacker:
            tx.log("ability", f"Sword: {flow.tag(tx.s, 1 - seat)} loses 2 power.", seat=seat)
            effects.add_stat(tx, 1 - seat, "power", -2, "Sword")
        if "shield" in ab and seat != attacker:
            effects.add_stat(tx, seat, "power", 2, "Shield")
        if "disarm" in ab and (loc in b.tunnels or loc in _mines(p)):
            tx.log("ability", f"Disarm: {flow.tag(tx.s, 1 - seat)} loses 2 power.", seat=seat)
            effects.add_stat(tx, 1 - seat, "power", -2, "Disarm")
        if "scout" in ab:
            o = tx.s.seats[1 - seat]
            if o.combat_cards:
                ow = tx.seat(1 - seat)
                cards = list(ow.combat_cards)
                cid = cards.pop(tx.randbelow(len(cards)))
                ow.combat_cards = tuple(cards)
                me = tx.seat(seat)
                me.combat_cards = (*me.combat_cards, cid)
                tx.log("ability", f"Scout: {who} steals {combat_name(cid)}.", seat=seat, private_to=seat,
                       public=f"Scout: {who} steals a combat card at random.")
    # Artillery is optional (pay 1 power): asked after the automatic ones, attacker first.
    frames = [Frame(kind=K.S_ARTILLERY, seat=seat) for seat in (attacker, 1 - attacker)
              if is_scythe(tx.s.seats[seat]) and "artillery" in mech_abilities(sp(tx.s, seat))]
    tx.push_in_order(*frames)


def _artillery_options(state: State, f: Frame) -> list[Action]:
    if state.seats[f.seat].power < 1:
        return []
    return [flow.act(state, f.seat, "artillery", "yes"), flow.act(state, f.seat, "artillery", "no")]


@flow.handler(K.S_ARTILLERY, "Artillery: pay 1 power so that your opponent loses 2 power?", _artillery_options)
def _artillery(tx: Tx, f: Frame, a: Action | None) -> None:
    assert a is not None
    if a.args[0] == "yes":
        effects.add_stat(tx, f.seat, "power", -1, "Artillery")
        effects.add_stat(tx, 1 - f.seat, "power", -2, "Artillery")


def extra_card_slots(state: State, seat: int, loc: str) -> int:
    """Combat cards a Scythe seat may tuck beyond one per combat unit."""
    p = state.seats[seat]
    if not is_scythe(p):
        return 0
    ab = mech_abilities(p)
    b = board(state.setup.map_side)
    n = 0
    if "peoples_army" in ab and loc in p.workers:
        n += 1
    if "suiton" in ab and b.loc[loc].kind == "lake":
        n += 1
    if "death_ray" in ab:
        n += 60
    return n


def may_tuck(state: State, seat: int, cid: int) -> bool:
    """Death Ray: cards beyond the normal slots must all share one value with the tucked ones."""
    p = state.seats[seat]
    c = state.combat
    if not is_scythe(p) or c is None or "death_ray" not in mech_abilities(p):
        return True
    tucked = c.cards[seat]
    normal = (p.character == c.loc) + sum(m == c.loc for m in p.mechs) + extra_card_slots(state, seat, c.loc) - 60
    if len(tucked) < normal:
        return True
    vals = {combat_type(x).value for x in (*tucked, cid)}
    return len(vals) == 1


def ronin_bonus(state: State, seat: int) -> int:
    """Ronin: +2 to the combat total when exactly one of your units (character or mech, no worker)
    is in the combat (``combat.TOTAL_BONUS``)."""
    p = state.seats[seat]
    c = state.combat
    if not is_scythe(p) or c is None or "ronin" not in mech_abilities(p):
        return 0
    units = (p.character == c.loc) + sum(m == c.loc for m in p.mechs) + sum(w == c.loc for w in p.workers)
    return 2 if units == 1 else 0


def horrify(tx: Tx, loser: int) -> None:
    """Horrify: when the opponent of a Fenris seat with Horrify loses and retreats, Fenris places
    an influence token on the combat territory (``combat.AFTER_LOSS``)."""
    p = tx.s.seats[1 - loser]
    loc = next((x[len("combat_loc:"):] for x in tx.s.turn_flags if x.startswith("combat_loc:")), "")
    if not is_scythe(p) or "horrify" not in mech_abilities(p) or not loc:
        return
    if faction_ability(p) != "influence" or len(p.influence) >= token_count(p) or loc in p.influence \
            or not board(tx.s.setup.map_side).is_territory(loc):
        return
    w = tx.sc(1 - loser)
    w.influence = (*w.influence, loc)
    tx.log("ability", f"Horrify: {flow.tag(tx.s, 1 - loser)} places an influence token on {loc}.", seat=1 - loser)


combat.PRE_COMBAT.append(pre_combat)
combat.CARD_LIMIT.append(extra_card_slots)
combat.TOTAL_BONUS.append(ronin_bonus)
combat.AFTER_LOSS.append(horrify)
combat.MAY_TUCK.append(may_tuck)
hooks.MECH_STOPS.append(stops_exp_mech)
hooks.UNIT_ENTERS.append(on_enemy_enters)
track.COIN_REDUCTION.append(unplaced_influence)
track.STACK_COMBAT_STARS.append(lambda p: faction_ability(p) == "dominate")
variants.WORKER_LOSS_WAIVER.append(_camaraderie)


# ---------------------------------------------------------------- Vesna


def vesna_first_turn(tx: Tx, seat: int) -> bool:
    """At Vesna's first turn: deal her ability tokens and take her Technophile Factory cards.
    Returns True when frames were pushed (the turn continues after them)."""
    p = sp(tx.s, seat)
    if faction_ability(p) != "technophile" or p.vesna_offer:
        return False
    w = tx.sc(seat)
    w.vesna_offer = tx.shuffled(VESNA_TOKENS)[:VESNA_OFFER]
    on_board = set(tx.s.factory_cards)
    rest = sorted((fc.id for fc in factory_pool(tx.s.setup) if fc.id not in on_board), key=_card_key)
    # The Duel's 3 cards leave one aside, which she takes; with base Scythe's cards mixed in
    # (Setup.base_factory_cards) she is dealt 3 of the rest at random, as in Scythe.
    w.tech_cards = tuple(rest if len(rest) <= 3 else sorted(tx.shuffled(rest)[:3], key=_card_key))
    tx.log("vesna", f"{flow.tag(tx.s, seat)} (Vesna) is dealt ability tokens {', '.join(w.vesna_offer)} "
           f"and takes Factory card(s) {', '.join(w.tech_cards) or 'none'} face up (Technophile).", seat=seat)
    tx.push(Frame(kind=K.S_VESNA, seat=seat, count=2))
    return True


def _card_key(cid: str) -> tuple[int, str]:
    return (int(cid), "") if cid.isdigit() else (999, cid)


def _vesna_options(state: State, f: Frame) -> list[Action]:
    p = sp(state, f.seat)
    return [flow.act(state, f.seat, "vesna-token", t) for t in p.vesna_offer if t not in p.vesna_tokens]


@flow.handler(K.S_VESNA,
              lambda s, f: f"Vesna: choose a mech ability token for a free mech slot ({f.count} left).",
              _vesna_options)
def _vesna(tx: Tx, f: Frame, a: Action | None) -> None:
    assert a is not None
    w = tx.sc(f.seat)
    w.vesna_tokens = (*w.vesna_tokens, a.args[0])
    tx.log("vesna", f"{flow.tag(tx.s, f.seat)} places the {a.args[0]} token on a mech slot.", seat=f.seat)
    if f.count > 1:
        tx.push(Frame(kind=K.S_VESNA, seat=f.seat, count=f.count - 1))
