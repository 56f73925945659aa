"""What a seat may see: built by listing the visible parts, never by deleting secrets.

A new state field is therefore hidden until it is added here. Hidden from a seat: deck orders,
the opponent's combat cards and discovery hand (counts only), face-down map tokens, the
opponent's uncommitted or unrevealed Power Dial and tucked cards (AMB-08: the number of tucked
cards is public), peeks and unkept Factory cards of the opponent, the seed and the RNG.
"""

from __future__ import annotations

from typing import Any

from meloch.engine import flow, track
from meloch.engine.cards import combat_name
from meloch.engine.combat import total
from meloch.engine.game_content import bound
from meloch.engine.model import Event, ExpSeat, ScytheSeat, State


def events_for(events: tuple[Event, ...], seat: int | None) -> list[str]:
    """Event texts as ``seat`` (None: a spectator) may read them."""
    out = []
    for e in events:
        if e.private_to < 0 or e.private_to == seat:
            out.append(e.text)
        elif e.public:
            out.append(e.public)
    return out


def _scythe(p: ScytheSeat, mine: bool) -> dict[str, Any]:
    v: dict[str, Any] = {
        "role": "scythe", "faction": p.faction, "mat": p.mat, "home": p.home,
        "power": p.power, "popularity": p.popularity, "coins": p.coins,
        "combat_cards": len(p.combat_cards), "character": p.character, "mechs": list(p.mechs),
        "mech_slots": list(p.mech_slots), "workers": list(p.workers), "workers_on_mat": p.workers_on_mat,
        "structures": [list(x) for x in p.structures], "recruits": list(p.recruits),
        "enlist_bonuses": list(p.enlist_bonuses), "top_upgrades": list(p.top_upgrades),
        "bottom_cubes": list(p.bottom_cubes), "resources": [list(x) for x in p.resources],
        "section": p.section, "factory_card": p.factory_card, "map_tokens": len(p.map_tokens),
        "encounters": p.encounters, "stars_unplaced": p.stars_unplaced, "stars_discarded": p.stars_discarded,
        "combat_wins": p.combat_wins,
        # faction tokens: flags, influence and Vesna's tokens and cards are face up; a trap's kind
        # is secret to its owner until it springs.
        "flags": list(p.flags), "influence": list(p.influence),
        "traps": [[loc, kind if (mine or not armed) else "?", armed] for loc, kind, armed in p.traps],
        "vesna_offer": list(p.vesna_offer), "vesna_tokens": list(p.vesna_tokens),
        "tech_cards": list(p.tech_cards), "tech_used": list(p.tech_used),
    }
    if mine:
        v["hand_combat"] = [combat_name(c) for c in p.combat_cards]
        v["combat_card_ids"] = list(p.combat_cards)
    return v


def _exp(p: ExpSeat, mine: bool) -> dict[str, Any]:
    v: dict[str, Any] = {
        "role": "expeditions", "mech": p.mech, "character": p.character, "companion": p.companion,
        "home": p.home, "loc": p.loc, "power": p.power, "guile": p.guile, "coins": p.coins,
        "workers": list(p.workers), "hand": len(p.hand), "active": [list(x) for x in p.active],
        "combat_cards": len(p.combat_cards), "corruption": [list(track.token(t)) for t in p.corruption],
        "map_tokens": list(p.map_tokens), "solved": list(p.solved), "upgraded": list(p.upgraded),
        "melded": list(p.melded), "token": p.token, "hero_trashed": p.hero_trashed, "combat_wins": p.combat_wins,
    }
    if mine:
        v["hand_cards"] = list(p.hand)
        v["hand_combat"] = [combat_name(c) for c in p.combat_cards]
        v["combat_card_ids"] = list(p.combat_cards)
    return v


@bound
def view(state: State, seat: int | None = None) -> dict[str, Any]:
    """The JSON-ready view of ``state`` for ``seat`` (None: spectator)."""
    s = state
    top = s.frames[-1] if s.frames else None
    decision = None
    if top is not None and s.winner < 0:
        decision = {"seat": top.seat, "kind": top.kind, "prompt": flow.HANDLERS[top.kind].prompt(s, top)}
        if top.seat != seat:  # a prompt may name what only its seat sees; a spectator sees public data
            decision["prompt"] = f"waiting for {flow.tag(s, top.seat)}"
    combat = None
    if s.combat is not None:
        c = s.combat
        combat = {"loc": c.loc, "attacker": c.attacker, "defender": c.defender, "revealed": c.revealed,
                  "tucked": [len(c.cards[0]), len(c.cards[1])],
                  "committed": [c.dial[0] >= 0, c.dial[1] >= 0]}
        for i in (0, 1):
            if c.revealed or seat == i:
                combat[f"dial_{i}"] = c.dial[i]
                combat[f"cards_{i}"] = [combat_name(x) for x in c.cards[i]]
        if c.revealed:
            combat["extra"] = [[combat_name(x) for x in c.extra[i]] for i in (0, 1)]
            combat["drawn"] = [[combat_name(x) for x in c.drawn[i]] for i in (0, 1)]
            combat["totals"] = [total(s, 0), total(s, 1)]
    seats = []
    for i, p in enumerate(s.seats):
        seats.append(_scythe(p, seat == i) if isinstance(p, ScytheSeat) else _exp(p, seat == i))
    return {
        "seat": seat,
        "setup": {"map_side": s.setup.map_side, "track_side": s.setup.track_side, "variant": s.setup.variant,
                  "seats": [{"role": x.role, "faction": x.faction, "mat": x.mat, "mech": x.mech,
                             "character": x.character, "companion": x.companion,
                             "stars_to_win": x.stars_to_win} for x in s.setup.seats],
                  "turn_limit": s.setup.turn_limit},
        "tags": [flow.tag(s, 0), flow.tag(s, 1)],
        "turn": s.turn, "active": s.active, "step": s.step,
        "decision": decision,
        "map_tokens": [loc for loc, _ in s.map_tokens],
        "map_token_supply": len(s.map_token_supply),
        "map_token_trash": len(s.map_token_trash),
        "corruption_trash": [list(track.token(t)) for t in s.corruption_trash],
        "corruption": {loc: [list(track.token(t)) for t in st] for loc, st in s.corruption},
        "revealed": list(s.revealed),
        "lakes": {lake: c for lake, c in s.lakes},
        "decks": {"discovery": len(s.discovery_deck), "combat": len(s.combat_deck),
                  "encounter": len(s.encounter_deck), "factory": len(s.factory_cards),
                  "meloch": len(s.meloch_deck)},
        "discovery_discard": list(s.discovery_discard),
        "combat_discard": [combat_name(c) for c in s.combat_discard],
        "discovery_trash": list(s.discovery_trash),
        "combat_trash": [combat_name(c) for c in s.combat_trash],
        "encounter_used": list(s.encounter_used),
        "meloch_row": [list(x) for x in s.meloch_row],
        "track": [list(col) for col in s.track],
        "stars": [track.stars_of(s, 0), track.stars_of(s, 1)],
        "home_turns": list(s.home_turns), "stalemate_open": s.stalemate_open,
        "seats": seats,
        "combat": combat,
        "known": [text for who, text in s.known if who == seat],
        "events": events_for(s.events, seat),
        "winner": s.winner, "reason": s.reason,
    }
