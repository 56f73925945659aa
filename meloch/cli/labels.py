"""Readable names for what the terminal shows: locations, cards, effects, mat sections, and a sentence
for every action (``label``).

Everything here reads only the engine's public protocol (a ``view`` dict, ``Action`` values) and the
content data (names, map geometry). No rule is decided here: a label only describes a legal action in
words, falling back to its notation for anything it does not know.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache
from typing import Any

from meloch.content import load
from meloch.content.schema import CombatCardType, Effect, MapSide
from meloch.engine import Action

SEAT_STYLES = ("bold red", "bold blue")
"""Style of seat 0's and seat 1's pieces and tags."""

# ---------------------------------------------------------------- small helpers


def effect_text(e: Effect) -> str:
    """A short description of one content effect, e.g. ``power +2`` (display only)."""
    if e.op == "one_of":
        return " / ".join(" + ".join(effect_text(x) for x in opt) or "nothing" for opt in e.one_of)
    if e.op == "custom":
        return e.arg.replace("_", " ")
    name = e.op.replace("_", " ")
    if e.arg:
        name = f"{name} {e.arg}"
    counted = e.n != 1 or e.op in ("power", "guile", "coins", "popularity", "combat_cards")
    return f"{name} +{e.n}" if counted else name


def effects_text(effects: Sequence[Effect]) -> str:
    return ", ".join(effect_text(e) for e in effects) or "nothing"


def seat_tag(view: dict[str, Any], seat: int) -> str:
    return str(view["tags"][seat])


def _seat_of(view: dict[str, Any], action: Action) -> int:
    tags = list(view["tags"])
    return tags.index(action.who) if action.who in tags else action.seat


@cache
def map_of(side: str) -> MapSide:
    return load().maps[side]


def loc_name(view: dict[str, Any], loc: str) -> str:
    """``1 (farm)``, ``4 (Factory)``, ``lake-w (lake)``, ``home-s (S home)``."""
    m = map_of(view["setup"]["map_side"])
    lo = next((x for x in m.locations if x.id == loc), None)
    if lo is None:
        return loc
    if lo.kind == "home":
        for i, p in enumerate(view["seats"]):
            if p.get("home") == loc:
                return f"{loc} ({seat_tag(view, i)} home)"
        return f"{loc} (home)"
    if lo.kind == "lake":
        return f"{loc} (lake)"
    return f"{loc} (Factory)" if lo.factory else f"{loc} ({lo.terrain})"


def card_name(cid: str) -> str:
    """A discovery card's name and kind: ``Stone Blade (item i01)``."""
    c = load().cards.get(cid)
    return f"{c.name} ({c.kind} {cid})" if c is not None else cid


@cache
def _combat_names() -> tuple[str, ...]:
    out: list[str] = []
    for t in load().combat_cards:
        out.extend([f"{t.name} ({t.value})"] * t.count)
    return tuple(out)


def combat_card_name(token: str, view: dict[str, Any] | None = None) -> str:
    """``c12`` -> ``Ambush (3) #12`` (looked up in the viewer's hand first, then the content)."""
    if not re.fullmatch(r"c\d+", token):
        return card_name(token)
    cid = int(token[1:])
    if view is not None and view.get("seat") is not None:
        me = view["seats"][view["seat"]]
        for i, name in zip(me.get("combat_card_ids", []), me.get("hand_combat", []), strict=False):
            if i == cid:
                return str(name)
    names = _combat_names()
    return f"{names[cid]} #{cid}" if 0 <= cid < len(names) else token


@cache
def _combat_types() -> tuple[CombatCardType, ...]:
    return tuple(t for t in load().combat_cards for _ in range(t.count))


def _combat_discard_bonus(token: str) -> str:
    if not re.fullmatch(r"c\d+", token):
        return ""
    cid = int(token[1:])
    types = _combat_types()
    return effects_text(types[cid].discard) if 0 <= cid < len(types) else ""


def combat_card_text(cid: int) -> str:
    """What combat card ``cid`` does: ``in combat: ...; discard on your turn: coins +2``."""
    types = _combat_types()
    if not 0 <= cid < len(types):
        return ""
    t = types[cid]
    return f"in combat: {t.combat_text.rstrip('.')}; discard on your turn: {effects_text(t.discard)}"


def section_text(view: dict[str, Any], seat: int, sec: str) -> str:
    p = view["seats"][seat]
    if sec == "factory":
        fc = p.get("factory_card") or "?"
        return f"the Factory card ({fc})"
    mat = load().mats.get(p.get("mat", ""))
    if mat is None or not sec.isdigit() or not 1 <= int(sec) <= len(mat.sections):
        return f"section {sec}"
    s = mat.sections[int(sec) - 1]
    return f"section {sec} ({s.top.capitalize()} / {s.bottom.capitalize()})"


def _prompt_choice(prompt: str, n: str) -> str:
    """The text of choice ``n`` in a prompt listing ``1) ...; 2) ...``."""
    m = re.search(rf"(?:^|[:;]\s*){re.escape(n)}\)\s*([^;]*)", prompt)
    return m.group(1).strip().rstrip(".") if m else ""


def _exposed_benefit(view: dict[str, Any], loc: str, i: int) -> str:
    """Display text of the ``i``-th (1-based) benefit exposed at ``loc`` (printed, plus the one under a
    cleared corruption stack); empty if unknown."""
    lo = next((x for x in map_of(view["setup"]["map_side"]).locations if x.id == loc), None)
    if lo is None:
        return ""
    shown = lo.gather + (lo.revealed if loc in view.get("revealed", []) else ())
    return effect_text(shown[i - 1]) if 1 <= i <= len(shown) else ""


def _track_label(view: dict[str, Any], seat: int, col: str) -> str:
    t = load().tracks.get(view["setup"]["track_side"])
    if t is None or not col.isdigit():
        return f"category {col}"
    cats = {c.column: c for c in t.categories}
    c = cats.get(int(col))
    if c is None:
        return f"category {col}"
    req = c.scythe if view["seats"][seat]["role"] == "scythe" else c.expeditions
    return f"category {col} ({req.label})"


def units_on(view: dict[str, Any], seat: int, loc: str) -> list[str]:
    """Readable names of ``seat``'s pieces on ``loc`` that the view shows (``character``, ``2 mechs``...)."""
    p = view["seats"][seat]
    if p["role"] != "scythe":
        return ["mech"] if p.get("loc") == loc else []
    out = ["character"] if p.get("character") == loc else []
    for what, where in (("mech", p.get("mechs", [])), ("worker", p.get("workers", []))):
        k = sum(1 for x in where if x == loc)
        if k:
            out.append(f"{k} {what}s" if k > 1 else what)
    return out


def _occupied_by_opponent(view: dict[str, Any], seat: int, loc: str) -> str:
    """`` (E mech there)`` when a destination holds the other seat's pieces; empty otherwise."""
    others = [i for i in range(len(view["seats"])) if i != seat]
    words = [f"{seat_tag(view, i)} {', '.join(u)}" for i in others if (u := units_on(view, i, loc))]
    return f" ({'; '.join(words)} there)" if words else ""


FREE_VERBS = frozenset({"discard-combat", "leverage", "voyager", "odins-wrath", "scarecrow"})
"""Verbs of the free actions a seat may take at any pause of its own turn (the engine's free-action
registry); the terminal lists them after the decision's own options, so that '1' never discards a card."""


def order_options(legal: Sequence[Action]) -> list[Action]:
    """The legal actions in the order the terminal numbers them: the decision's own options first, in the
    engine's order, then the free actions (discarding combat cards, abilities)."""
    return [a for a in legal if a.verb not in FREE_VERBS] + [a for a in legal if a.verb in FREE_VERBS]


_TOP = {
    "move": "Move: move up to 2 units one step each",
    "coin": "Move: gain coins instead of moving",
    "power": "Bolster: pay $1 and gain power",
    "card": "Bolster: pay $1 and draw combat card(s)",
    "resources": "Trade: pay $1 and gain 2 resources",
    "popularity": "Trade: pay $1 and gain popularity",
    "produce": "Produce on territories with your workers",
    "factory": "Use the top action of your Factory card",
    "skip": "Skip the top-row action",
}
_TOKEN = {
    "all": "Take all three actions (Move, Play, Gather)",
    "refresh": "Take a Refresh turn",
    "move": "Cover Move: take Play and Gather",
    "play": "Cover Play: take Move and Gather",
    "gather": "Cover Gather: take Move and Play",
}
_TAKE = {
    "all": "Take all the Meloch benefits facing you",
    "none": "Take none of the Meloch benefits",
    "first": "Take the first Meloch benefit, then decide on the rest",
    "skip-first": "Skip the first Meloch benefit, then decide on the rest",
}


def label(action: Action, view: dict[str, Any]) -> str:
    """A readable sentence for ``action``, using ``view`` (the deciding seat's) for names.

    Falls back to the notation for anything it does not know, so new verbs still show.
    """
    try:
        text = _label(action, view)
    except (KeyError, IndexError, ValueError, TypeError, AttributeError):
        text = None
    return text or str(action)


def _label(a: Action, view: dict[str, Any]) -> str | None:
    seat = _seat_of(view, a)
    p = view["seats"][seat]
    args = a.args
    v, n = a.verb, len(args)

    def ln(loc: str) -> str:
        return loc_name(view, loc)

    prompt = (view.get("decision") or {}).get("prompt", "")
    # ---- shared
    if v == "end" and n == 0:
        return "End your turn"
    if v == "discard-combat" and n == 1:
        bonus = _combat_discard_bonus(args[0])
        return f"Discard combat card {combat_card_name(args[0], view)}" + (f" for {bonus}" if bonus else "")
    if v == "option" and n == 1:
        text = _prompt_choice(prompt, args[0]).replace("_", " ")
        return f"Choose option {args[0]}" + (f": {text}" if text else "")
    if v == "meloch" and n == 1:
        return f"Place the next Meloch card {args[0]}"
    if v == "take" and n == 1:
        return _TAKE.get(args[0])
    if v == "sweep" and n == 1:
        if args[0] == "done":
            return "Finish sweeping"
        card = view["lakes"].get(args[0], "")
        return f"Sweep {card_name(card)} from {ln(args[0])}" if card else f"Sweep {ln(args[0])}"
    if v == "dial" and n == 1:
        return f"Set your Power Dial to {args[0]} (secret until the reveal)"
    if v in ("tuck", "ambush") and n == 1:
        if args[0] in ("done", "none"):
            return "Tuck no more combat cards" if v == "tuck" else "Play no Ambush card"
        verb = "Tuck" if v == "tuck" else "Ambush with"
        return f"{verb} combat card {combat_card_name(args[0], view)}"
    # ---- Scythe
    if v == "section" and n == 1:
        return f"Move your action token to {section_text(view, seat, args[0])}"
    if v == "refresh-to" and n == 1:
        return f"Refresh: move your action token to {section_text(view, seat, args[0])}"
    if v == "veer" and n == 1:
        if args[0] == "no":
            return "Do not Veer"
        return f"Veer: move your action token to {section_text(view, seat, args[0])}"
    if v == "top" and n == 1:
        return _TOP.get(args[0])
    if v == "bottom" and n == 1:
        if args[0] == "skip":
            return "Skip the bottom-row action"
        if args[0] == "factory-move":
            return "Factory Move: move one unit several steps"
        return f"Take the bottom-row action {args[0].capitalize()} (pay its cost)"
    if v == "move" and n == 1 and args[0] == "done":
        return "Finish moving"
    if v == "move" and n == 3:
        tok, src, dst = args
        unit = ("your character" if tok == "char" else "a worker" if tok == "worker"
                else f"your mech {tok[4:]}" if tok.startswith("mech") else tok)
        return f"Move {unit} from {ln(src)} to {ln(dst)}" + _occupied_by_opponent(view, seat, dst)
    if v == "fight" and n == 1:
        return "Start a combat here" if args[0] == "yes" else "Do not fight"
    if v == "encounter" and n == 1:
        used = view.get("encounter_used") or []
        enc = {e.id: e for e in load().encounters}.get(used[-1]) if used else None
        text = enc.options[int(args[0]) - 1].text if enc is not None else _prompt_choice(prompt, args[0])
        return f"Encounter option {args[0]}: {text}"
    if v == "factory" and n == 1:
        fc = {f.id: f for f in load().factory_cards}[args[0]]
        return f"Take Factory card {fc.id}: {fc.top_text}"
    if v == "trade" and n == 2:
        return f"Trade: gain 1 {args[1]} on {ln(args[0])}"
    if v == "produce" and n == 1:
        return "Finish producing" if args[0] == "done" else f"Produce on {ln(args[0])}"
    if v == "upgrade" and n == 2:
        box = args[0].replace("_", " ")
        return f"Upgrade: improve {box} and lower the bottom cost of {section_text(view, seat, args[1])}"
    if v == "deploy" and n == 2:
        fac = load().factions[p["faction"]]
        ability = fac.mechs[int(args[0]) - 1].ability
        return f"Deploy mech {args[0]} ({ability}) on {ln(args[1])}"
    if v == "build" and n == 2:
        return f"Build a {args[0]} on {ln(args[1])}"
    if v == "enlist" and n == 2:
        return f"Enlist the {args[0].capitalize()} recruit, one-time bonus: {args[1]}"
    if v == "place-resource" and n == 2:
        return f"Place the gained {args[1]} on {ln(args[0])}"
    if v == "place-worker" and n == 1:
        return f"Place a worker from your mat on {ln(args[0])}"
    if v == "leverage" and n == 3:
        return f"Leverage: discard a star to gain 1 {args[1]} on {ln(args[2])}"
    if v == "leverage" and n == 2:
        return f"Leverage: pay 1 {args[1]} to regain a discarded star"
    if v == "pay" and n == 2:
        if args[0] == "coerce":
            return f"Coercion: spend combat card {combat_card_name(args[1], view)} instead of a resource"
        return f"Pay 1 {args[1]} from {ln(args[0])}"
    if v == "carry" and n == 1:
        if args[0] == "done":
            return "Carry nothing more"
        return "Carry a worker along" if args[0] == "worker" else f"Carry 1 {args[0]} along"
    if v == "return-worker" and n == 1:
        return f"Return a worker from {ln(args[0])} to your mat"
    if v == "artillery" and n == 1:
        return "Artillery: pay 1 power so that your opponent loses 2 power" if args[0] == "yes" else "No Artillery"
    if v == "vesna-token" and n == 1:
        return f"Take the mech ability token {args[0].replace('_', ' ')}"
    if v == "token" and p["role"] == "scythe" and n in (1, 2):
        where = ln(p["character"])
        if args[0] == "no":
            return "Place no token"
        if args[0] == "trap" and n == 2:
            return f"Place a {args[1]} trap on {where}"
        return f"Place a{'n' if args[0][0] in 'aeiou' else ''} {args[0]} token on {where}"
    # ---- Expeditions
    if v == "token" and n == 1:
        return _TOKEN.get(args[0])
    if v == "do" and n == 1:
        return "Take no more actions" if args[0] == "nothing" else f"Take the {args[0].capitalize()} action now"
    if v == "move" and n == 1:
        return f"Move your mech from {ln(p['loc'])} to {ln(args[0])}" + _occupied_by_opponent(view, seat, args[0])
    if v == "play" and n == 1:
        return f"Play {card_name(args[0])} from your hand"
    if v == "worker" and n == 1:
        return "Place no worker on it" if args[0] == "none" else f"Place your {args[0]} worker on it"
    if v == "worker-colour" and n == 1:
        return f"Gain a {args[0]} worker"
    if v == "take" and n == 2:
        return f"Take {card_name(args[1])} from {ln(args[0])}"
    if v in ("upgrade", "meld", "solve", "rescue", "discard") and n == 1:
        return f"{v.capitalize()} {card_name(args[0])}"
    if v == "trash" and n == 1:
        return f"Trash {combat_card_name(args[0], view)}"
    if v == "map-token-at" and n == 1:
        return f"Take the map token of location {args[0]}"
    if v == "star" and n == 1:
        return f"Put the combat star on {_track_label(view, seat, args[0])}"
    if v == "boast" and n == 1:
        return f"Boast: place a star on {_track_label(view, seat, args[0])}"
    if v == "vanquish" and n == 1:
        return {"corruption": "Vanquish: pay the top corruption's value and take it",
                "attack": "Attack the Scythe units here", "stop": "Stop vanquishing"}.get(args[0])
    if v == "adjacent" and n == 2:
        what = _exposed_benefit(view, args[0], int(args[1]))
        return f"Gain benefit {args[1]} of the adjacent location {ln(args[0])}" + (f": {what}" if what else "")
    if v == "activate" and n == 1:
        card = view["lakes"].get(args[0], "")
        return f"Activate {card_name(card)} on {ln(args[0])}"
    if v == "peek" and n == 1:
        return f"Peek at the top 2 cards of the {args[0]} deck"
    if v == "draw2" and n == 1:
        return "Draw 2 cards: " + " + ".join(args[0].split("-"))
    if v == "keep" and n == 1:
        return f"Keep {combat_card_name(args[0], view)}"
    if v == "voyager" and n == 1:
        return f"Voyager: trash a corruption token to {args[0].capitalize()}"
    if v == "trash-corruption" and n == 1:
        colour, _, value = args[0].partition("-")
        return f"Trash your {colour} {value} corruption token"
    if v == "odins-wrath" and n == 1:
        gain = "$1" if args[0] == "coins" else f"1 {args[0]}"
        return f"Odin's Wrath: trash a map token from the supply to gain {gain}"
    if v == "scarecrow" and n == 1:
        return f"Scarecrow: trash a map token for an extra {args[0].capitalize()} action"
    if v == "mole" and n == 1:
        return "Mole: trash a map token to gather the covered benefit" if args[0] == "gather" else "Do not use Mole"
    if v == "pay-worker" and n == 1:
        extra = " (it can never be regained)" if args[0] == "hero" else ""
        return f"Pay with your {args[0]} worker: it returns to the supply{extra}"
    if v == "pay-combat" and n == 1:
        return f"Pay with combat card {combat_card_name(args[0], view)}"
    if v == "pay-map-token" and n == 1:
        mt = {m.id: m for m in load().map_tokens}.get(args[0])
        return f"Trash your map token {args[0]}" + (f" ({effects_text(mt.bonus)})" if mt is not None else "")
    if v == "via" and n == 1:
        if args[0] == "none":
            return "Go straight, without stopping on the way"
        return f"Stop on the way at {ln(args[0])} to drop off and pick up"
    if v == "gained-to" and n == 1:
        return "Put the gained card in your hand" if args[0] == "hand" else "Leave the gained card on your active row"
    return None

