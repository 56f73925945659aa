"""The Automa's turn, its combat choices and "1 power per benefit".

On its turn the Automa draws an action card (``AUTOMA_TURN``). A phase card's steps are carried
out in order, each if possible; otherwise it draws a support card and, row by row
(``AUTOMA_ROW``, one frame per row so a combat a row starts is fought before the next row), does
the leftmost possible action. Every draw comes from the game's RNG, so an Automa turn saves,
replays and determinizes like any other. Its combat dial (the card's plus its level's) and tucked
cards come from its current support card (the first is turned up at setup); under Threat it
compares its expected total with what it can see of the human's (power and the number of combat
cards, never their faces): it seeks the fights it reads as won and avoids those it reads as lost.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from collections.abc import Set as AbstractSet

from meloch.content.schema import AutomaContent, AutomaLevel, AutomaStep, AutomaSupportCard, AutomaTrack, Effect
from meloch.engine import combat, effects, flow, track
from meloch.engine import frames as K
from meloch.engine.actions import Action
from meloch.engine.board import board
from meloch.engine.cards import combat_type, combat_types
from meloch.engine.contract import AutomaCardDrawn, AutomaProgress, AutomaStepDone
from meloch.engine.game_content import active, index
from meloch.engine.model import STRUCTURES, AutomaState, Frame, State
from meloch.engine.tx import Tx, is_exp, is_scythe


def automa_seat(state: State) -> int:
    """The Automa's seat, -1 in a two-player game."""
    a = state.setup.automa
    return a.seat if a is not None else -1


def _content() -> AutomaContent:
    a = active().automa
    assert a is not None  # setup refuses an Automa game without automa.yaml
    return a


def level(state: State) -> AutomaLevel:
    """The Automa's level entry for the side it plays (a level may set values per side)."""
    su = state.setup.automa
    assert su is not None
    return _content().level_for(su.level, state.setup.seats[su.seat].role)


def _track(state: State) -> AutomaTrack:
    """The progress track of the Automa's level (a level may have its own)."""
    return level(state).track or _content().track


def card_dial(state: State, sc: AutomaSupportCard | None) -> int:
    """The dial the Automa wants in a combat: its support card's (2 without one) plus its level's
    ``dial`` (its power and the dial's 0-7 limit it further when it turns the dial)."""
    return max(0, min(combat.MAX_DIAL, (sc.dial if sc is not None else 2) + level(state).dial))


def _action_card_kind(cid: str) -> str:
    return next(x.kind for x in _content().action_cards if x.id == cid)


def support_card(cid: str) -> AutomaSupportCard | None:
    return next((x for x in _content().support_cards if x.id == cid), None)


# ---------------------------------------------------------------- setup and turn


def _new_game(tx: Tx) -> None:
    su = tx.s.setup.automa
    if su is None:
        return
    a = _content()
    lv = level(tx.s)
    support = [x.id for x in a.action_cards if x.kind == "support"][: lv.support_cards]
    phases = [x.id for x in a.action_cards if x.kind == "phase"]
    side = tx.s.setup.seats[su.seat].role
    tx.s.automa = AutomaState(action_deck=tx.shuffled(phases + support),
                              support_deck=tx.shuffled([x.id for x in a.support_cards if x.side == side]))
    p = tx.seat(su.seat)
    p.power = lv.power
    tx.log("automa", f"The Automa plays {flow.tag(tx.s, su.seat)} at level {su.level}"
           f"{' with Threat' if su.threat else ''}: {len(phases) + len(support)} action cards, power {lv.power}"
           f", progress {lv.progress}.", seat=su.seat)
    # its first support card is turned up at setup, so a phase card's attack before any support
    # card fights by a card's dial too (without one it fought at a fixed 2 and lost to any dial)
    sid = _draw(tx, "support")
    tx.log("automa", f"The Automa turns up its first support card: {sid}.", seat=su.seat,
           data=AutomaCardDrawn(deck="support", card=sid))
    advance(tx, su.seat, lv.progress)


def _seat_turn(tx: Tx, seat: int) -> bool:
    if seat != automa_seat(tx.s):
        return False
    tx.push(Frame(kind=K.AUTOMA_TURN, seat=seat))
    return True


def _draw(tx: Tx, deck: str) -> str:
    """Top card of the action or support deck; an empty deck takes its shuffled discard pile."""
    a = tx.s.automa
    assert a is not None
    pile, discard = (a.action_deck, a.action_discard) if deck == "action" else (a.support_deck, a.support_discard)
    if not pile:
        pile, discard = tx.shuffled(discard), ()
        tx.log("automa", f"The Automa shuffles its {deck} discard pile into a new deck.", seat=automa_seat(tx.s))
    cid, pile = pile[0], pile[1:]
    discard = (*discard, cid)
    if deck == "action":
        tx.s.automa = _replace(a, action_deck=pile, action_discard=discard)
    else:
        tx.s.automa = _replace(a, support_deck=pile, support_discard=discard, card=cid)
    return cid


def _replace(a: AutomaState, **changes: object) -> AutomaState:
    fields = {f: getattr(a, f) for f in a.__struct_fields__}
    fields.update(changes)
    return AutomaState(**fields)


@flow.handler(K.AUTOMA_TURN, "the Automa's turn")
def _turn(tx: Tx, f: Frame, _a: Action | None) -> None:
    seat = f.seat
    cid = _draw(tx, "action")
    kind = _action_card_kind(cid)
    if kind == "phase":
        tx.log("automa", f"The Automa draws an action card: {cid}, a phase card, carried out.", seat=seat,
               data=AutomaCardDrawn(deck="action", card=cid, card_kind="phase"))
        steps = next(x.steps for x in _content().action_cards if x.id == cid)
        tx.push_in_order(*(Frame(kind=K.AUTOMA_ROW, seat=seat, tag=cid, count=i) for i in range(len(steps))))
        return
    tx.log("automa", f"The Automa draws an action card: {cid}.", seat=seat,
           data=AutomaCardDrawn(deck="action", card=cid, card_kind="support"))
    sid = _draw(tx, "support")
    sc = support_card(sid)
    assert sc is not None
    tx.log("automa", f"The Automa draws a support card: {sid} (dial {sc.dial}, {sc.cards} combat card(s)).",
           seat=seat, data=AutomaCardDrawn(deck="support", card=sid))
    rows = [Frame(kind=K.AUTOMA_ROW, seat=seat, tag=sid, count=i) for i in range(len(sc.rows))]
    if tx.s.setup.automa is not None and tx.s.setup.automa.threat:
        rows.insert(0, Frame(kind=K.AUTOMA_ROW, seat=seat, tag=sid, count=-1))  # Threat seeks a fight first
    tx.push_in_order(*rows)


def row_steps(state: State, card: str, row: int) -> tuple[AutomaStep, ...]:
    """The steps of ``row`` of ``card``: a phase card's row i is its step i alone; row -1 is
    Threat's "seek a fight": attack an enemy unit it expects to beat, else step toward one."""
    if row < 0:
        return (AutomaStep(verb="attack", n=0), AutomaStep(verb="move_toward", target="enemy"))
    sc = support_card(card)
    if sc is not None:
        return sc.rows[row]
    steps = next(x.steps for x in _content().action_cards if x.id == card)
    return (steps[row],)


@flow.handler(K.AUTOMA_ROW, "the Automa's row")
def _row(tx: Tx, f: Frame, _a: Action | None) -> None:
    phase = support_card(f.tag) is None
    seek = f.count < 0
    for step in row_steps(tx.s, f.tag, f.count):
        plan = plan_step(tx.s, f.seat, step, seek=seek)
        if plan is None:
            continue
        _do(tx, f, step, plan, phase)
        return
    if not seek:
        where = f"{f.tag} (phase card), step {f.count + 1}" if phase else f"{f.tag} row {f.count + 1}"
        tx.log("automa", f"The Automa's {where}: no action is possible.", seat=f.seat,
               data=AutomaStepDone(card=f.tag, row=0 if phase else f.count + 1, verb="none"))


# ---------------------------------------------------------------- the action vocabulary

Plan = tuple[str, str, str]
"""(unit, destination, Threat's reading): what a possible step will do."""


def _units(state: State, seat: int) -> list[tuple[str, str]]:
    """The seat's combat units as (name, location): "character", "mech 1".. or the Expeditions "mech"."""
    p = state.seats[seat]
    if is_exp(p):
        return [("mech", p.loc)]
    return [("character", p.character)] + [(f"mech {i + 1}", m) for i, m in enumerate(p.mechs)]


def _steps_fn(state: State, seat: int) -> Callable[[str], AbstractSet[str]]:
    b = board(state.setup.map_side)
    return b.mech_steps if is_exp(state.seats[seat]) else b.scythe_steps


def _occupied(state: State, seat: int) -> set[str]:
    """Locations with any unit of ``seat`` (workers too: the Automa never walks onto them)."""
    p = state.seats[seat]
    if is_exp(p):
        return {p.loc}
    return {p.character, *p.mechs, *p.workers}


def _targets(state: State, seat: int, target: str) -> set[str]:
    b = board(state.setup.map_side)
    if target == "enemy":
        return {loc for _, loc in _units(state, 1 - seat) if b.is_territory(loc)}
    if target == "token":
        return {loc for loc, _ in state.map_tokens}
    if target == "center":
        return {b.factory}
    return {state.seats[seat].home}


def _distances(steps: Callable[[str], AbstractSet[str]], targets: set[str], locs: Sequence[str]) -> dict[str, int]:
    """Steps from every location to the nearest target (reverse BFS over one unit's moves)."""
    dist = {t: 0 for t in targets}
    frontier = deque(targets)
    nodes = set(locs)
    while frontier:
        x = frontier.popleft()
        for y in nodes:
            if y not in dist and x in steps(y):
                dist[y] = dist[x] + 1
                frontier.append(y)
    return dist


def expected_total(state: State, seat: int) -> int:
    """The Automa's expected combat total: its support card's dial with its level's (within its
    power) plus its highest combat cards the card lets it tuck."""
    a = state.automa
    sc = support_card(a.card) if a is not None and a.card else None
    n = sc.cards if sc is not None else 0
    p = state.seats[seat]
    values = sorted((combat_type(c).value for c in p.combat_cards), reverse=True)
    return min(card_dial(state, sc), p.power) + sum(values[:n])


def visible_total(state: State, seat: int, loc: str) -> float:
    """What the Automa can see of ``seat``'s strength: its power (up to the dial's 7) and how many
    combat cards it could tuck at the average card value; never the cards' faces."""
    p = state.seats[seat]
    types = combat_types()
    avg = sum(t.value for t in types) / len(types)
    n = min(len(p.combat_cards), max(1, combat.card_limit(state, seat, loc)))
    return min(p.power, combat.MAX_DIAL) + n * avg


def threat_margin(state: State, seat: int, loc: str) -> float:
    """The Automa's expected total minus what it can see of the human's strength at ``loc``."""
    return expected_total(state, seat) - visible_total(state, 1 - seat, loc)


def threat_reading(state: State, seat: int, loc: str) -> str:
    """Threat's choice from its thresholds (``automa.yaml`` ``threat``): "fight" (it is the
    stronger: it seeks the fight), "avoid" (it would probably lose: no attack, no step toward it) or
    "card" (neither: its card decides, as without Threat)."""
    m = threat_margin(state, seat, loc)
    th = _content().threat
    return "fight" if m >= th.seek else "avoid" if m < th.avoid else "card"


def plan_step(state: State, seat: int, step: AutomaStep, *, seek: bool = False) -> Plan | None:
    """What ``step`` would do now, or None when it is not possible (the row's next step is tried)."""
    a = state.automa
    su = state.setup.automa
    threat = su is not None and su.threat
    p = state.seats[seat]
    if step.verb == "power":
        return ("", "", "") if p.power < effects.POWER_CAP[flow.role(state, seat)] else None
    if step.verb == "progress":
        return ("", "", "") if a is not None and a.progress < _track(state).length else None
    if step.verb == "combat_cards":
        return ("", "", "") if state.combat_deck or state.combat_discard else None
    if step.verb in ("deploy", "build", "gather"):
        return _plan_place(state, seat, step)
    steps = _steps_fn(state, seat)
    if step.verb == "attack":
        enemy = {loc for _, loc in _units(state, 1 - seat)}
        for unit, loc in _units(state, seat):
            for dest in sorted(steps(loc) & enemy):
                reading = threat_reading(state, seat, dest) if threat else ""
                if reading == "fight" or (reading in ("", "card") and not seek and p.power >= step.n):
                    return (unit, dest, reading)  # Threat never starts one it reads "avoid"
        return None
    # move_toward
    b = board(state.setup.map_side)
    targets = _targets(state, seat, step.target)
    reading = ""
    if threat and step.target == "enemy":
        # Threat: never toward an enemy unit it would probably lose to; its seek row only toward
        # one it is the stronger against
        ok = ("fight",) if seek else ("fight", "card")
        targets = {loc for loc in targets if threat_reading(state, seat, loc) in ok}
        reading = "fight" if seek else ""
    if not targets:
        return None
    dist = _distances(steps, targets, tuple(b.loc))
    blocked = _occupied(state, 1 - seat)
    best: tuple[int, int, str, str] | None = None
    for i, (unit, loc) in enumerate(_units(state, seat)):
        here = dist.get(loc)
        if here is None or here == 0:
            continue
        for dest in sorted(steps(loc) - blocked):
            d = dist.get(dest)
            if d is not None and d < here and (best is None or (d, i) < best[:2]):
                best = (d, i, unit, dest)
    return (best[2], best[3], reading) if best is not None else None


def _loc_key(loc: str) -> tuple[int, str]:
    return (int(loc), "") if loc.isdigit() else (99, loc)


def worker_territories(state: State, seat: int) -> list[str]:
    """The Scythian's territories with its worker and no enemy unit, lowest number first (where it
    deploys, builds and gathers; its workers never move)."""
    p = state.seats[seat]
    if not is_scythe(p):
        return []
    b = board(state.setup.map_side)
    enemy = _occupied(state, 1 - seat)
    return sorted({w for w in p.workers if b.is_territory(w) and w not in enemy}, key=_loc_key)


def _plan_place(state: State, seat: int, step: AutomaStep) -> Plan | None:
    """deploy / build / gather: (what, where, "") or None when impossible. Deploy and build are the
    Scythian's (a mech while fewer than 4, the next structure kind on a territory without one);
    gather is the Scythian's worker territories (as many as ``n``, 1 power each, below the power cap)
    or the Explorer's map token on or next to its mech."""
    p = state.seats[seat]
    if is_exp(p):
        if step.verb != "gather":
            return None
        near = board(state.setup.map_side).mech_steps(p.loc) | {p.loc}
        locs = sorted((lc for lc, _ in state.map_tokens if lc in near), key=_loc_key)
        return ("map token", locs[0], "") if locs else None
    terr = worker_territories(state, seat)
    if step.verb == "deploy":
        return ("mech", terr[0], "") if terr and len(p.mechs) < 4 else None
    if step.verb == "build":
        kinds = [k for k in STRUCTURES if k not in {k for k, _ in p.structures}]
        free = [lc for lc in terr if lc not in {lc for _, lc in p.structures}]
        return (kinds[0], free[0], "") if kinds and free else None
    if not terr or p.power >= effects.POWER_CAP[flow.role(state, seat)]:
        return None
    return ("resources", ",".join(terr[: step.n]), "")


def _place(tx: Tx, seat: int, step: AutomaStep, plan: Plan, source: str) -> None:
    """Carry out a planned deploy / build / gather. A gather's benefits go through the benefit
    filter, so they become 1 power each ("1 kracht per beloning")."""
    what, where, _ = plan
    p = tx.seat(seat)
    if is_exp(p):
        tok = next(t for lc, t in tx.s.map_tokens if lc == where)
        tx.s.map_tokens = tuple((lc, t) for lc, t in tx.s.map_tokens if lc != where)
        p.map_tokens = (*p.map_tokens, tok)
        effects.queue(tx, seat, index().map_tokens[tok].bonus, f"map token {tok}")
    elif is_scythe(p):
        if step.verb == "deploy":
            p.mech_slots = (*p.mech_slots, min(set(range(4)) - set(p.mech_slots)))
            p.mechs = (*p.mechs, where)
        elif step.verb == "build":
            p.structures = (*p.structures, (what, where))
        else:
            effects.queue(tx, seat, tuple(Effect(op="gather", arg=lc) for lc in where.split(",")), source)


def _do(tx: Tx, f: Frame, step: AutomaStep, plan: Plan, phase: bool) -> None:
    seat = f.seat
    unit, dest, reading = plan
    where = ("its phase card" if phase
             else "Threat" if f.count < 0 else f"row {f.count + 1}, the leftmost possible action")
    data = AutomaStepDone(card=f.tag, row=0 if phase else f.count + 1, verb=step.verb, n=step.n, unit=unit, loc=dest,
                          target=step.target, threat=reading)
    if step.verb in ("attack", "move_toward"):
        _move(tx, seat, unit, dest)
        what = "attacks on" if step.verb == "attack" else f"moves its {unit} toward the {step.target or 'target'} to"
        tx.log("automa", f"The Automa ({f.tag}, {where}): {what} {dest}"
               f"{f' ({unit})' if step.verb == 'attack' else ''}{'; Threat reads: ' + reading if reading else ''}.",
               seat=seat, data=data)
        if step.verb == "attack":
            combat.start(tx, seat, dest)
        return
    if step.verb in ("deploy", "build", "gather"):
        unit, dest, _ = plan
        done = {"deploy": f"deploys a mech on {dest}", "build": f"builds a {unit} on {dest}",
                "gather": f"gathers the map token of {dest}" if unit == "map token" else f"gathers on {dest}"}
        tx.log("automa", f"The Automa ({f.tag}, {where}): {done[step.verb]}.", seat=seat, data=data)
        _place(tx, seat, step, plan, f.tag)
        return
    tx.log("automa", f"The Automa ({f.tag}, {where}): {step.verb.replace('_', ' ')} {step.n}.", seat=seat, data=data)
    if step.verb == "power":
        effects.add_stat(tx, seat, "power", step.n, "Automa")
    elif step.verb == "combat_cards":
        effects.draw_combat(tx, seat, step.n, "Automa")
    else:
        advance(tx, seat, step.n)


def _move(tx: Tx, seat: int, unit: str, dest: str) -> None:
    p = tx.seat(seat)
    if is_exp(p):
        p.loc = dest
    elif is_scythe(p):
        if unit == "character":
            p.character = dest
        else:
            i = int(unit.split()[1]) - 1
            p.mechs = (*p.mechs[:i], dest, *p.mechs[i + 1:])


def advance(tx: Tx, seat: int, n: int) -> None:
    """Move the progress token ``n`` boxes; each star box reached places a star on the Triumph
    Track's leftmost non-combat column the Automa has no star on (the boxes it stands in for)."""
    a = tx.s.automa
    assert a is not None
    t = _track(tx.s)
    for _ in range(n):
        if a.progress >= t.length or tx.s.winner >= 0:
            break
        a = _replace(a, progress=a.progress + 1)
        tx.s.automa = a
        star = a.progress in t.star_boxes
        tx.log("automa", f"The Automa's progress token reaches box {a.progress}{' (a star box)' if star else ''}.",
               seat=seat, data=AutomaProgress(box=a.progress, star=star))
        if star:
            cats = track.side(tx.s).categories
            col = next((i for i, c in enumerate(cats) if not c.combat and seat not in tx.s.track[i]), None)
            if col is not None:
                track.place_star(tx, seat, col, f"Automa progress box {a.progress}")


# ---------------------------------------------------------------- choices and benefits


def _auto_choice(state: State, f: Frame, opts: list[Action]) -> Action | None:
    """The Automa answers its own choice frames: its dial and tucked cards from its support card;
    anything else (a retreat, a star's column, a Meloch card) by the first option, a finish first."""
    if f.seat != automa_seat(state):
        return None
    a = state.automa
    sc = support_card(a.card) if a is not None and a.card else None
    if f.kind == K.C_DIAL:
        want = card_dial(state, sc)
        best = max((o for o in opts if int(o.args[0]) <= want), key=lambda o: int(o.args[0]), default=opts[0])
        return best
    if f.kind == K.C_TUCK:
        c = state.combat
        tucked = len(c.cards[f.seat]) if c is not None else 0
        cards = [o for o in opts if o.args[0] != "done"]
        if cards and sc is not None and tucked < sc.cards:
            return max(cards, key=lambda o: (combat_type(int(o.args[0][1:])).value, o.args[0]))
        return next(o for o in opts if o.args[0] == "done")
    for o in opts:
        if o.args and o.args[0] in ("done", "pass", "end", "skip", "no"):
            return o
    return opts[0]


def _benefits(tx: Tx, seat: int, fx: Sequence[Effect], source: str) -> bool:
    """"1 power per benefit": whatever would give the Automa something gives it 1 power each."""
    if seat != automa_seat(tx.s) or any(e.n < 0 for e in fx):
        return False
    got = effects.add_stat(tx, seat, "power", len(fx), "Automa: 1 power per benefit")
    tx.log("automa", f"The Automa takes 1 power per benefit ({len(fx)}){' from ' + source if source else ''}.",
           seat=seat, data=AutomaStepDone(card=source, row=0, verb="benefit", n=got))
    return True


flow.NEW_GAME.append(_new_game)
flow.SEAT_TURN.append(_seat_turn)
flow.AUTO_CHOICE.append(_auto_choice)
effects.BENEFIT_FILTER.append(_benefits)
