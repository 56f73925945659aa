"""What a seat may see: built by listing the visible parts, never by deleting secrets.

A new state field is therefore hidden until it is added here. Hidden from a seat: deck orders,
the opponent's combat cards (count only; an Expeditions hand is face up), face-down map tokens, the
opponent's uncommitted or unrevealed Power Dial and tucked cards (AMB-08: the number of tucked
cards is public), peeks and unkept Factory cards of the opponent, the seed and the RNG.
"""

from __future__ import annotations

from typing import Final

import msgspec

from meloch.engine import contract as c
from meloch.engine import flow, track
from meloch.engine.cards import card, combat_name, combat_type
from meloch.engine.combat import total
from meloch.engine.contract import Event, Known, SeenEvent, View
from meloch.engine.game_content import active, bound
from meloch.engine.model import ExpSeat, ScytheSeat, SeatSetup, State
from meloch.engine.tx import is_scythe


def events_for(events: tuple[Event, ...], seat: int | None) -> list[SeenEvent]:
    """The events as ``seat`` (None: a spectator) may see them: a private event of another seat
    shows its public text and data, or nothing when it has no public side."""
    out = []
    for e in events:
        if e.private_to < 0 or e.private_to == seat:
            out.append(SeenEvent(kind=e.kind, seat=e.seat, text=e.text, data=e.data))
        elif e.public_text:
            out.append(SeenEvent(kind=e.kind, seat=e.seat, text=e.public_text, data=e.public_data, private=True))
    return out


def last_events(state: State, seat: int | None) -> list[SeenEvent]:
    """The typed events of the transition that produced ``state``, as ``seat`` may see them: how a
    shell reads them without touching a ``State`` field (the simulation's per-game figures)."""
    return events_for(state.events, seat)


def event_texts(events: tuple[Event, ...], seat: int | None) -> list[str]:
    """The terminal's log lines: the texts of ``events_for``."""
    return [e.text for e in events_for(events, seat)]


def known_text(k: Known) -> str:
    """A fact as a line of text (the typed record is in ``View.known_facts``)."""
    if k.kind == "factory":
        return "factory:" + ",".join(k.cards)  # the Factory cards it saw and did not keep
    if k.deck == "combat":
        names = [combat_name(int(x[1:])) for x in k.cards]
    else:
        names = [card(x).name for x in k.cards]
    return f"peek top of the {k.deck} deck: {', '.join(names) or 'empty'}"


def _scythe(p: ScytheSeat, mine: bool) -> c.ScytheView:
    return c.ScytheView(
        faction=p.faction, mat=p.mat, home=p.home, power=p.power, popularity=p.popularity, coins=p.coins,
        combat_cards=len(p.combat_cards), character=p.character, mechs=p.mechs, mech_slots=p.mech_slots,
        workers=p.workers, workers_on_mat=p.workers_on_mat, structures=p.structures, recruits=p.recruits,
        enlist_bonuses=p.enlist_bonuses, top_upgrades=p.top_upgrades, bottom_cubes=p.bottom_cubes,
        resources=p.resources, section=p.section, factory_card=p.factory_card, map_tokens=len(p.map_tokens),
        encounters=p.encounters, stars_unplaced=p.stars_unplaced, stars_discarded=p.stars_discarded,
        combat_wins=p.combat_wins,
        # faction tokens: flags, influence and Vesna's tokens and cards are face up; a trap's kind
        # is secret to its owner until it springs.
        flags=p.flags, influence=p.influence,
        traps=tuple(c.Trap(loc, kind if (mine or not armed) else "?", armed) for loc, kind, armed in p.traps),
        vesna_offer=p.vesna_offer, vesna_tokens=p.vesna_tokens, tech_cards=p.tech_cards, tech_used=p.tech_used,
        hand_combat=tuple(combat_name(x) for x in p.combat_cards) if mine else None,
        combat_card_ids=p.combat_cards if mine else None,
    )


def _exp(p: ExpSeat, mine: bool) -> c.ExpView:
    return c.ExpView(
        mech=p.mech, character=p.character, companion=p.companion, home=p.home, loc=p.loc, power=p.power,
        guile=p.guile, coins=p.coins, workers=p.workers,
        # "cards you control are always face up": hand and active row are public
        hand=len(p.hand), hand_cards=p.hand, active=p.active,
        combat_cards=len(p.combat_cards), corruption=tuple(track.token(t) for t in p.corruption),
        map_tokens=p.map_tokens, solved=p.solved, upgraded=p.upgraded, melded=p.melded, token=p.token,
        hero_trashed=p.hero_trashed, combat_wins=p.combat_wins,
        hand_combat=tuple(combat_name(x) for x in p.combat_cards) if mine else None,
        combat_card_ids=p.combat_cards if mine else None,
    )


def _combat(s: State, seat: int | None) -> c.CombatView | None:
    if s.combat is None:
        return None
    cb = s.combat
    show = [cb.revealed or seat == i for i in (0, 1)]
    names = [tuple(combat_name(x) for x in cb.cards[i]) for i in (0, 1)]
    extra = drawn = totals = None
    if cb.revealed:
        extra = (tuple(combat_name(x) for x in cb.extra[0]), tuple(combat_name(x) for x in cb.extra[1]))
        drawn = (tuple(combat_name(x) for x in cb.drawn[0]), tuple(combat_name(x) for x in cb.drawn[1]))
        totals = (total(s, 0), total(s, 1))
    return c.CombatView(
        loc=cb.loc, attacker=cb.attacker, defender=cb.defender, revealed=cb.revealed,
        tucked=(len(cb.cards[0]), len(cb.cards[1])), committed=(cb.dial[0] >= 0, cb.dial[1] >= 0),
        dial_0=cb.dial[0] if show[0] else None, cards_0=names[0] if show[0] else None,
        dial_1=cb.dial[1] if show[1] else None, cards_1=names[1] if show[1] else None,
        extra=extra, drawn=drawn, totals=totals,
    )


def _seat(p: ScytheSeat | ExpSeat, mine: bool) -> c.SeatView:
    return _scythe(p, mine) if is_scythe(p) else _exp(p, mine)


def _seat_setup(x: SeatSetup) -> c.SeatSetupView:
    return c.SeatSetupView(role=x.role, faction=x.faction, mat=x.mat, mech=x.mech, character=x.character,
                           companion=x.companion, stars_to_win=x.stars_to_win)


def combat_card(cid: int) -> c.CombatCard:
    """A combat card with its value, for events."""
    t = combat_type(cid)
    return c.CombatCard(id=cid, name=t.name, value=t.value)


@bound
def view(state: State, seat: int | None = None) -> View:
    """What ``seat`` (None: a spectator) may see of ``state``, as the typed ``View``."""
    s = state
    top = s.frames[-1] if s.frames else None
    decision = None
    if top is not None and s.winner < 0:
        # a prompt may name what only its seat sees; anyone else reads "waiting for"
        prompt = flow.HANDLERS[top.kind].prompt(s, top) if top.seat == seat else f"waiting for {flow.tag(s, top.seat)}"
        decision = c.DecisionView(seat=top.seat, kind=top.kind, prompt=prompt)
    su = s.setup
    known = tuple(k for k in s.known if k.seat == seat)
    return View(
        seat=seat,
        setup=c.SetupView(
            map_side=su.map_side, track_side=su.track_side, variant=su.variant, turn_limit=su.turn_limit,
            content=su.content,
            seats=(_seat_setup(su.seats[0]), _seat_setup(su.seats[1]))),
        tags=(flow.tag(s, 0), flow.tag(s, 1)),
        turn=s.turn, active=s.active, step=s.step,
        decision=decision,
        map_tokens=tuple(loc for loc, _ in s.map_tokens),
        map_token_supply=len(s.map_token_supply),
        map_token_trash=len(s.map_token_trash),
        corruption_trash=tuple(track.token(t) for t in s.corruption_trash),
        corruption={loc: tuple(track.token(t) for t in st) for loc, st in s.corruption},
        revealed=s.revealed,
        lakes=dict(s.lakes),
        decks=c.Decks(discovery=len(s.discovery_deck), combat=len(s.combat_deck),
                      encounter=len(s.encounter_deck), factory=len(s.factory_cards), meloch=len(s.meloch_deck)),
        discovery_discard=s.discovery_discard,
        combat_discard=tuple(combat_name(x) for x in s.combat_discard),
        discovery_trash=s.discovery_trash,
        combat_trash=tuple(combat_name(x) for x in s.combat_trash),
        encounter_used=s.encounter_used,
        meloch_row=s.meloch_row,
        track=s.track,
        stars=(track.stars_of(s, 0), track.stars_of(s, 1)),
        home_turns=s.home_turns, stalemate_open=s.stalemate_open,
        seats=(_seat(s.seats[0], seat == 0), _seat(s.seats[1], seat == 1)),
        combat=_combat(s, seat),
        known=tuple(known_text(k) for k in known),
        known_facts=known,
        events=tuple(event_texts(s.events, seat)),
        winner=s.winner, reason=s.reason,
        automa=_automa(s),
    )


def _automa(s: State) -> c.AutomaView | None:
    """The Automa's public side: deck sizes only, never their order."""
    a, su = s.automa, s.setup.automa
    if a is None or su is None:
        return None
    content = active().automa
    assert content is not None
    track = content.track_for(su.level, s.setup.seats[su.seat].role)
    return c.AutomaView(seat=su.seat, level=su.level, threat=su.threat, action_deck=len(a.action_deck),
                        support_deck=len(a.support_deck), action_discard=a.action_discard,
                        support_discard=a.support_discard, card=a.card, progress=a.progress,
                        track_length=track.length, star_boxes=track.star_boxes)


def view_json(state: State, seat: int | None = None) -> dict[str, object]:
    """The JSON form of ``view(state, seat)`` (what scenario files check paths on)."""
    out: dict[str, object] = _DEC.decode(_ENC.encode(view(state, seat)))
    return out


_ENC: Final = msgspec.json.Encoder()
_DEC: Final = msgspec.json.Decoder()
