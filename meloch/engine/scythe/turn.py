"""The Scythe player's turn: moving the action token to a section, then the top-row action, the
bottom-row action, both or neither; Leverage (Constantinople) and Refresh, which move or use the
action token outside that order.

The other Scythe rules are split by area (see ``meloch/engine/scythe/__init__.py``).
"""

from __future__ import annotations

from meloch.content.schema import Effect
from meloch.engine import effects, flow, free
from meloch.engine import frames as K
from meloch.engine.actions import Action
from meloch.engine.combat import AFTER_COMBAT
from meloch.engine.free import do_free_action, free_actions
from meloch.engine.model import Frame, State
from meloch.engine.scythe import abilities
from meloch.engine.scythe.abilities import mech_abilities
from meloch.engine.scythe.pay import (
    add_resource,
    coercion_ready,
    pay_resources,
)
from meloch.engine.scythe.seat import (
    RESOURCES,
    _card_sections,
    _loc_key,
    ability_of,
    mat,
    section_name,
    section_token,
    set_section,
    sp,
)
from meloch.engine.track import controlled
from meloch.engine.tx import Tx, is_scythe

# ---------------------------------------------------------------- turn start


def start_turn(tx: Tx, seat: int) -> None:
    tx.push(Frame(kind=K.S_SECTION, seat=seat))
    abilities.vesna_first_turn(tx, seat)


flow.START_TURN["scythe"] = start_turn


def sections(state: State, seat: int) -> list[int]:
    """Sections the action token may move to: a different one (Relentless may repeat a mat
    section, never the Factory card); 4 is the Factory card, 5.. Vesna's unused Technophile cards."""
    p = sp(state, seat)
    out = list(range(len(mat(p).sections)))
    if ability_of(p) != "relentless":
        # Not last turn's section, even when a Refresh moved the token away before it was placed
        # this turn (Scythe: "a different section of your Player Mat than last turn").
        left = {int(x.split(":")[1]) for x in state.turn_flags if x.startswith("left_section:")}
        out = [i for i in out if i != p.section and i not in left]
    return out + [i for i in _card_sections(p) if f"left_section:{i}" not in state.turn_flags]



def _leverage_options(state: State, seat: int) -> list[Action]:
    """Leverage (Constantinople): once per turn, discard an unplaced star for a resource on a
    controlled territory, or pay a resource to regain a discarded star (rulebook Appendix)."""
    p = sp(state, seat)
    if ability_of(p) != "leverage" or "leverage" in state.turn_flags:
        return []
    out = []
    owned = controlled(state, seat)
    if p.stars_unplaced > 0:  # AMB-24 (a): not without a controlled territory
        ctrl = sorted(owned, key=_loc_key)
        who = flow.tag(state, seat)
        out += [flow.ACTION(who, "leverage", ("gain", r, loc)) for r in RESOURCES for loc in ctrl]
    if p.stars_discarded > 0:
        # ``spendable`` per resource, with control computed once: piles on controlled territories,
        # plus 1 through Coercion
        have = dict.fromkeys(RESOURCES, 1 if coercion_ready(state, seat) else 0)
        for lc, k, n in p.resources:
            if lc in owned and k in have:
                have[k] += n
        out += [flow.act(state, seat, "leverage", "regain", r) for r in RESOURCES if have[r] > 0]
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


def _section_options(state: State, f: Frame) -> list[Action]:
    p = sp(state, f.seat)
    who = flow.tag(state, f.seat)
    return [flow.ACTION(who, "section", (section_token(i, p),))
            for i in sections(state, f.seat)] + free_actions(state, f.seat)


def _section_prompt(state: State, f: Frame) -> str:
    return "Move your action token to a section of your player mat."


@flow.handler(K.S_SECTION, _section_prompt, _section_options)
def _section(tx: Tx, f: Frame, a: Action | None) -> None:
    assert a is not None
    if do_free_action(tx, f, a):
        return
    p = set_section(tx, f.seat, a.args[0])
    sec = p.section
    tx.log("section", f"{flow.tag(tx.s, f.seat)} moves the action token to {section_name(p, sec)}.", seat=f.seat)
    tx.push_in_order(Frame(kind=K.S_TOP, seat=f.seat), Frame(kind=K.S_BOTTOM, seat=f.seat),
                     Frame(kind=K.TURN_END, seat=f.seat))



# ---------------------------------------------------------------- Refresh


@effects.op("refresh", "scythe")
def _refresh(tx: Tx, seat: int, e: Effect) -> None:
    tx.push(Frame(kind=K.S_REFRESH, seat=seat))


def _refresh_options(state: State, f: Frame) -> list[Action]:
    """A different section (the Factory card included, AMB-26 (a)); before the first turn's
    token placement any section."""
    p = sp(state, f.seat)
    secs = [i for i in range(len(mat(p).sections)) if i != p.section] + _card_sections(p)
    return [flow.act(state, f.seat, "refresh-to", section_token(i, p)) for i in secs]


@flow.handler(K.S_REFRESH, "Refresh: move your action token to a different section.", _refresh_options)
def _refresh_to(tx: Tx, f: Frame, a: Action | None) -> None:
    assert a is not None
    if any(g.kind == K.S_SECTION and g.seat == f.seat for g in tx.s.frames):  # token not yet placed
        tx.set_flag(f"left_section:{sp(tx.s, f.seat).section}")
    p = set_section(tx, f.seat, a.args[0])
    tx.log("refresh", f"{flow.tag(tx.s, f.seat)} refreshes the action token to {section_name(p, p.section)}.",
           seat=f.seat)


# ---------------------------------------------------------------- Veer (after a combat)


def _veer_after_combat(tx: Tx, seat: int) -> None:
    p = tx.s.seats[seat]
    if is_scythe(p) and "veer" in mech_abilities(p):
        tx.push(Frame(kind=K.C_VEER, seat=seat))


AFTER_COMBAT.append(_veer_after_combat)


def _veer_options(state: State, f: Frame) -> list[Action]:
    return [Action(x.who, "veer", x.args) for x in _refresh_options(state, f)] + [
        flow.act(state, f.seat, "veer", "no")]


@flow.handler(K.C_VEER, "Veer: after combat you may move your action token to a different section.",
              _veer_options)
def _veer(tx: Tx, f: Frame, a: Action | None) -> None:
    assert a is not None
    if a.args[0] == "no":
        return
    p = tx.sc(f.seat)
    p.section = 4 if a.args[0] == "factory" else int(a.args[0]) - 1
    tx.log("veer", f"{flow.tag(tx.s, f.seat)} veers the action token to {section_name(p, p.section)}.",
           seat=f.seat)
