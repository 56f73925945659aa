"""Options that describe themselves: a label, a menu group, the cost and gain where the engine knows
them, and typed references to the board things an option names (one source for every shell).

``options(state)`` returns one ``Option`` per legal action, in the order of ``legal_actions``. The
words come from a registry of describers keyed by verb (``@describer("move")``); a rule module that
adds a verb may register its describer next to its handler. A verb without a describer still gets a
readable label built from its notation, so a new verb never breaks a shell.

Options are the deciding seat's: they may name that seat's own hidden cards, never the other seat's
(only public facts such as pieces on the board are read for the opponent).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

import msgspec

from meloch.content.registry import get
from meloch.content.schema import Effect, Location
from meloch.engine import api, flow
from meloch.engine import frames as K
from meloch.engine.actions import Action
from meloch.engine.api import legal_actions
from meloch.engine.board import board
from meloch.engine.cards import combat_name, combat_types
from meloch.engine.contract import Described, Option, Ref, View
from meloch.engine.effects import describe as effect_text
from meloch.engine.game_content import active, bound, index, using
from meloch.engine.model import Frame, State
from meloch.engine.text import a_or_an
from meloch.engine.tx import is_exp, is_scythe

Describer = Callable[[State, Frame, Action], Described | None]
DESCRIBERS: Final[dict[str, Describer]] = {}

FREE_VERBS: Final = frozenset({"discard-combat", "leverage", "voyager", "odins-wrath", "scarecrow"})
"""Verbs of the free-action registry (taken at any pause of the own turn)."""


Details = Callable[[State, Frame, Action], tuple[tuple[str, ...], tuple[str, ...]] | None]
DETAILS: Final[dict[str, Details]] = {}
"""Verb -> (cost, gain) that a role package knows and this module cannot read (a Scythe bottom
action's mat cost and coins, Produce's cost by workers); added to the describer's own."""


def describer(*verbs: str) -> Callable[[Describer], Describer]:
    """Register ``fn`` as the describer of ``verbs``."""

    def deco(fn: Describer) -> Describer:
        for v in verbs:
            DESCRIBERS[v] = fn
        return fn

    return deco


@bound
def options(state: State) -> list[Option]:
    """The deciding seat's options, described, in the order of ``legal_actions``."""
    if state.winner >= 0 or not state.frames:
        return []
    f = state.frames[-1]
    return [describe_action(state, f, a) for a in legal_actions(state)]


def describe_action(state: State, f: Frame, a: Action) -> Option:
    fn = DESCRIBERS.get(a.verb)
    d = None
    try:
        d = fn(state, f, a) if fn is not None else None
    except (KeyError, IndexError, ValueError, StopIteration):
        d = None  # malformed args for this verb: fall back to the generic words
    if d is None:
        d = Described(label=" ".join((a.verb.replace("-", " ").capitalize(), *a.args)))
    details = DETAILS.get(a.verb)
    extra = details(state, f, a) if details is not None else None
    if extra is not None:
        d = msgspec.structs.replace(d, cost=d.cost + extra[0], gain=d.gain + extra[1])
    return Option(action=str(a), label=d.label, group=d.group or a.verb, cost=d.cost, gain=d.gain, refs=d.refs,
                  free=a.verb in FREE_VERBS)


def choice_label(state: State, f: Frame, a: Action) -> str:
    """The label of ``a`` at ``state`` (what the log says of a choice without an event of its own)."""
    return describe_action(state, f, a).label


api.CHOICE_LABEL[:] = [choice_label]


# ---------------------------------------------------------------- names


def _locations(side: str) -> dict[str, Location]:
    return board(side).loc


def loc_name(state: State, loc: str) -> str:
    """``1 (farm)``, ``4 (Factory)``, ``lake-w (lake)``, ``home-s (S home)``."""
    return _place_name(state.setup.map_side, loc, [p.home for p in state.seats],
                       [flow.tag(state, i) for i in range(len(state.seats))])


def location_name(view: View, loc: str) -> str:
    """``loc_name`` from a seat's view, with that game's content (the shells' way to name a place)."""
    with using(get(view.setup.content)):
        return _place_name(view.setup.map_side, loc, [p.home for p in view.seats], list(view.tags))


def _place_name(side: str, loc: str, homes: list[str], tags: list[str]) -> str:
    lo = _locations(side).get(loc)
    if lo is None:
        return loc
    if lo.kind == "home":
        for home, tag in zip(homes, tags, strict=False):
            if home == loc:
                return f"{loc} ({tag} home)"
        return f"{loc} (home)"
    if lo.kind == "lake":
        return f"{loc} (lake)"
    return f"{loc} (Factory)" if lo.factory else f"{loc} ({lo.terrain})"


def card_name(cid: str) -> str:
    """A discovery card's name and kind: ``Stone Blade (item)``."""
    c = active().cards.get(cid)
    return f"{c.name} ({c.kind})" if c is not None else cid


def _combat(tok: str) -> str:
    return combat_name(int(tok[1:]))


def _loc(loc: str) -> Ref:
    return Ref("location", loc)


def _card(cid: str) -> Ref:
    return Ref("card", cid)


def _effects(es: tuple[Effect, ...]) -> tuple[str, ...]:
    return tuple(effect_text(e) for e in es)


def section_text(state: State, seat: int, sec: str) -> str:
    p = state.seats[seat]
    if sec == "factory" or sec.startswith("tech-"):
        fid = sec[5:] if sec.startswith("tech-") else p.factory_card if is_scythe(p) else ""
        fc = index().factory_cards.get(fid)
        return f"the Factory card {fc.name} ({fc.top_text})" if fc is not None else "the Factory card"
    if is_scythe(p):
        mat = active().mats.get(p.mat)
        if mat is not None and sec.isdigit() and 1 <= int(sec) <= len(mat.sections):
            s = mat.sections[int(sec) - 1]
            return f"section {sec} ({s.top.capitalize()} / {s.bottom.capitalize()})"
    return f"section {sec}"


def _units_on(state: State, seat: int, loc: str) -> list[str]:
    p = state.seats[seat]
    if is_exp(p):
        return ["mech"] if p.loc == loc else []
    out = ["character"] if p.character == loc else []
    for what, where in (("mech", p.mechs), ("worker", p.workers)):
        k = sum(1 for x in where if x == loc)
        if k:
            out.append(f"{k} {what}s" if k > 1 else what)
    return out


def _opponent_there(state: State, seat: int, loc: str) -> str:
    other = 1 - seat
    u = _units_on(state, other, loc)
    return f" ({flow.tag(state, other)} {', '.join(u)} there)" if u else ""


def _lake_card(state: State, lake: str) -> str:
    return dict(state.lakes).get(lake, "")


# ---------------------------------------------------------------- shared verbs


@describer("end")
def _end(state: State, f: Frame, a: Action) -> Described:
    return Described(label="End your turn")


@describer("discard-combat")
def _discard_combat(state: State, f: Frame, a: Action) -> Described:
    bonus = _effects(combat_types()[int(a.args[0][1:])].discard)
    text = f"Discard combat card {_combat(a.args[0])}" + (f" for {', '.join(bonus)}" if bonus else "")
    return Described(label=text, cost=(f"combat card {_combat(a.args[0])}",), gain=bonus,
                     refs=(Ref("combat_card", a.args[0]),))


@describer("option")
def _option(state: State, f: Frame, a: Action) -> Described:
    i = int(a.args[0])
    if f.kind == K.ONE_OF and f.effects:
        gain = _effects(f.effects[0].one_of[i - 1])
        return Described(label=f"Choose option {i}: {' + '.join(gain) or 'nothing'}", gain=gain)
    return Described(label=f"Choose option {i}")


@describer("meloch")
def _meloch(state: State, f: Frame, a: Action) -> Described:
    return Described(label=f"Place the next Meloch card {a.args[0]}")


_TAKE: Final = {
    "all": "Take all the Meloch benefits facing you",
    "none": "Take none of the Meloch benefits",
    "first": "Take the first Meloch benefit, then decide on the rest",
    "skip-first": "Skip the first Meloch benefit, then decide on the rest",
}


@describer("take")
def _take(state: State, f: Frame, a: Action) -> Described | None:
    if len(a.args) == 2:
        lake, cid = a.args
        return Described(label=f"Take {card_name(cid)} from {loc_name(state, lake)}", refs=(_loc(lake), _card(cid)))
    text = _TAKE.get(a.args[0])
    return Described(label=text) if text else None


@describer("sweep")
def _sweep(state: State, f: Frame, a: Action) -> Described:
    if a.args[0] == "done":
        return Described(label="Finish sweeping")
    card = _lake_card(state, a.args[0])
    where = loc_name(state, a.args[0])
    if card:
        return Described(label=f"Sweep {card_name(card)} from {where}", refs=(_loc(a.args[0]), _card(card)))
    return Described(label=f"Sweep {where}", refs=(_loc(a.args[0]),))


@describer("dial")
def _dial(state: State, f: Frame, a: Action) -> Described:
    return Described(label=f"Set your Power Dial to {a.args[0]} (secret until the reveal)",
                     cost=(f"power {a.args[0]}",) if a.args[0] != "0" else ())


@describer("tuck", "ambush")
def _tuck(state: State, f: Frame, a: Action) -> Described:
    if a.args[0] in ("done", "none"):
        return Described(label="Tuck no more combat cards" if a.verb == "tuck" else "Play no Ambush card")
    verb = "Tuck" if a.verb == "tuck" else "Ambush with"
    return Described(label=f"{verb} combat card {_combat(a.args[0])}", refs=(Ref("combat_card", a.args[0]),))


# ---------------------------------------------------------------- Scythe verbs


@describer("section", "refresh-to", "veer")
def _section(state: State, f: Frame, a: Action) -> Described:
    sec = a.args[0]
    if a.verb == "veer" and sec == "no":
        return Described(label="Do not Veer")
    head = {"section": "Move your action token to", "refresh-to": "Refresh: move your action token to",
            "veer": "Veer: move your action token to"}[a.verb]
    return Described(label=f"{head} {section_text(state, f.seat, sec)}", refs=(Ref("section", sec),))


_TOP: Final = {
    "move": ("Move: move up to 2 units one step each", (), ()),
    "coin": ("Move: gain coins instead of moving", (), ("coins",)),
    "power": ("Bolster: pay $1 and gain power", ("coins 1",), ("power",)),
    "card": ("Bolster: pay $1 and draw combat card(s)", ("coins 1",), ("combat cards",)),
    "resources": ("Trade: pay $1 and gain 2 resources", ("coins 1",), ("2 resources",)),
    "popularity": ("Trade: pay $1 and gain popularity", ("coins 1",), ("popularity",)),
    "produce": ("Produce on territories with your workers", (), ()),
    "factory": ("Use the top action of your Factory card", (), ()),
    "skip": ("Skip the top-row action", (), ()),
}


@describer("top")
def _top(state: State, f: Frame, a: Action) -> Described | None:
    t = _TOP.get(a.args[0])
    return Described(label=t[0], cost=t[1], gain=t[2]) if t else None


@describer("bottom")
def _bottom(state: State, f: Frame, a: Action) -> Described:
    if a.args[0] == "skip":
        return Described(label="Skip the bottom-row action")
    if a.args[0] == "factory-move":
        return Described(label="Factory Move: move one unit several steps")
    return Described(label=f"Take the bottom-row action {a.args[0].capitalize()} (pay its cost)")


def _unit(tok: str) -> str:
    if tok == "char":
        return "your character"
    if tok == "worker":
        return "a worker"
    return f"your mech {tok[4:]}" if tok.startswith("mech") else tok


@describer("move")
def _move(state: State, f: Frame, a: Action) -> Described | None:
    if a.args == ("done",):
        return Described(label="Finish moving")
    if len(a.args) == 3:
        tok, src, dst = a.args
        kind = "char" if tok == "char" else "worker" if tok == "worker" else "mech"
        return Described(label=f"Move {_unit(tok)} from {loc_name(state, src)} to {loc_name(state, dst)}"
                         + _opponent_there(state, f.seat, dst),
                         group=f"move {kind}", refs=(Ref("unit", tok), _loc(src), _loc(dst)))
    if len(a.args) == 1:
        p = state.seats[f.seat]
        src = p.loc if is_exp(p) else ""
        dst = a.args[0]
        return Described(label=f"Move your mech from {loc_name(state, src)} to {loc_name(state, dst)}"
                         + _opponent_there(state, f.seat, dst), group="move mech",
                         refs=(Ref("unit", "mech"), _loc(src), _loc(dst)))
    return None


@describer("fight")
def _fight(state: State, f: Frame, a: Action) -> Described:
    return Described(label="Start a combat here" if a.args[0] == "yes" else "Do not fight")


@describer("encounter")
def _encounter(state: State, f: Frame, a: Action) -> Described:
    card = index().encounters[f.tag]
    o = card.options[int(a.args[0]) - 1]
    return Described(label=f"Encounter option {a.args[0]}: {o.text}", cost=_effects(o.cost), gain=_effects(o.gain))


@describer("factory")
def _factory(state: State, f: Frame, a: Action) -> Described:
    fc = index().factory_cards[a.args[0]]
    return Described(label=f"Take Factory card {fc.name}: {fc.top_text}", cost=_effects(fc.cost),
                     gain=_effects(fc.gain), refs=(_card(fc.id),))


@describer("trade")
def _trade(state: State, f: Frame, a: Action) -> Described:
    loc, res = a.args
    return Described(label=f"Trade: gain 1 {res} on {loc_name(state, loc)}", gain=(f"{res} 1",),
                     refs=(_loc(loc), Ref("resource", res)))


@describer("produce")
def _produce(state: State, f: Frame, a: Action) -> Described:
    if a.args[0] == "done":
        return Described(label="Finish producing")
    return Described(label=f"Produce on {loc_name(state, a.args[0])}", refs=(_loc(a.args[0]),))


@describer("upgrade")
def _upgrade(state: State, f: Frame, a: Action) -> Described:
    if len(a.args) == 2:
        box, sec = a.args
        return Described(label=f"Upgrade: improve {box.replace('_', ' ')} and lower the bottom cost of "
                         f"{section_text(state, f.seat, sec)}", refs=(Ref("section", sec),))
    return Described(label=f"Upgrade {card_name(a.args[0])}", refs=(_card(a.args[0]),))


@describer("deploy")
def _deploy(state: State, f: Frame, a: Action) -> Described:
    p = state.seats[f.seat]
    assert is_scythe(p)
    mech = active().factions[p.faction].mechs[int(a.args[0]) - 1]
    return Described(label=f"Deploy mech {a.args[0]} ({mech.ability}) on {loc_name(state, a.args[1])}",
                     refs=(Ref("unit", f"mech{a.args[0]}"), _loc(a.args[1])))


@describer("build")
def _build(state: State, f: Frame, a: Action) -> Described:
    return Described(label=f"Build {a_or_an(a.args[0])} on {loc_name(state, a.args[1])}", refs=(_loc(a.args[1]),))


@describer("enlist")
def _enlist(state: State, f: Frame, a: Action) -> Described:
    return Described(label=f"Enlist the {a.args[0].capitalize()} recruit, one-time bonus: {a.args[1]}",
                     gain=(a.args[1],))


@describer("place-resource")
def _place_resource(state: State, f: Frame, a: Action) -> Described:
    return Described(label=f"Place the gained {a.args[1]} on {loc_name(state, a.args[0])}",
                     refs=(_loc(a.args[0]), Ref("resource", a.args[1])))


@describer("place-worker")
def _place_worker(state: State, f: Frame, a: Action) -> Described:
    return Described(label=f"Place a worker from your mat on {loc_name(state, a.args[0])}", refs=(_loc(a.args[0]),))


@describer("leverage")
def _leverage(state: State, f: Frame, a: Action) -> Described | None:
    if len(a.args) == 3:
        return Described(label=f"Leverage: discard a star to gain 1 {a.args[1]} on {loc_name(state, a.args[2])}",
                         cost=("star 1",), gain=(f"{a.args[1]} 1",), refs=(_loc(a.args[2]),))
    if len(a.args) == 2:
        return Described(label=f"Leverage: pay 1 {a.args[1]} to regain a discarded star", cost=(f"{a.args[1]} 1",),
                         gain=("star 1",))
    return None


@describer("pay")
def _pay(state: State, f: Frame, a: Action) -> Described:
    if a.args[0] == "coerce":
        return Described(label=f"Coercion: spend combat card {_combat(a.args[1])} instead of a resource",
                         cost=(f"combat card {_combat(a.args[1])}",), refs=(Ref("combat_card", a.args[1]),))
    return Described(label=f"Pay 1 {a.args[1]} from {loc_name(state, a.args[0])}", cost=(f"{a.args[1]} 1",),
                     refs=(_loc(a.args[0]), Ref("resource", a.args[1])))


@describer("carry")
def _carry(state: State, f: Frame, a: Action) -> Described:
    if a.args[0] == "done":
        return Described(label="Carry nothing more")
    return Described(label="Carry a worker along" if a.args[0] == "worker" else f"Carry 1 {a.args[0]} along")


@describer("return-worker")
def _return_worker(state: State, f: Frame, a: Action) -> Described:
    return Described(label=f"Return a worker from {loc_name(state, a.args[0])} to your mat", refs=(_loc(a.args[0]),))


@describer("artillery")
def _artillery(state: State, f: Frame, a: Action) -> Described:
    if a.args[0] == "yes":
        return Described(label="Artillery: pay 1 power so that your opponent loses 2 power", cost=("power 1",))
    return Described(label="No Artillery")


@describer("vesna-token")
def _vesna_token(state: State, f: Frame, a: Action) -> Described:
    return Described(label=f"Take the mech ability token {a.args[0].replace('_', ' ')}",
                     refs=(Ref("token", a.args[0]),))


_TOKEN: Final = {
    "all": "Take all three actions (Move, Play, Gather)",
    "refresh": "Take a Refresh turn",
    "move": "Cover Move: take Play and Gather",
    "play": "Cover Play: take Move and Gather",
    "gather": "Cover Gather: take Move and Play",
}


@describer("token")
def _token(state: State, f: Frame, a: Action) -> Described | None:
    p = state.seats[f.seat]
    if is_exp(p):
        text = _TOKEN.get(a.args[0])
        return Described(label=text) if text else None
    where = loc_name(state, p.character)
    if a.args[0] == "no":
        return Described(label="Place no token")
    if a.args[0] == "trap" and len(a.args) == 2:
        return Described(label=f"Place {a_or_an(a.args[1])} trap on {where}", refs=(_loc(p.character),))
    article = "an" if a.args[0][0] in "aeiou" else "a"
    return Described(label=f"Place {article} {a.args[0]} token on {where}", refs=(_loc(p.character),))


# ---------------------------------------------------------------- Expeditions verbs


@describer("do")
def _do(state: State, f: Frame, a: Action) -> Described:
    if a.args[0] == "nothing":
        return Described(label="Take no more actions")
    return Described(label=f"Take the {a.args[0].capitalize()} action now")


@describer("play", "meld", "solve", "rescue", "discard")
def _card_verb(state: State, f: Frame, a: Action) -> Described:
    text = f"Play {card_name(a.args[0])} from your hand" if a.verb == "play" else \
        f"{a.verb.capitalize()} {card_name(a.args[0])}"
    return Described(label=text, refs=(_card(a.args[0]),))


@describer("worker")
def _worker(state: State, f: Frame, a: Action) -> Described:
    if a.args[0] == "none":
        return Described(label="Place no worker on it")
    return Described(label=f"Place your {a.args[0]} worker on it", refs=(Ref("worker", a.args[0]),))


@describer("worker-colour")
def _worker_colour(state: State, f: Frame, a: Action) -> Described:
    return Described(label=f"Gain {a_or_an(a.args[0])} worker", gain=(f"{a.args[0]} worker",),
                     refs=(Ref("worker", a.args[0]),))


@describer("trash")
def _trash(state: State, f: Frame, a: Action) -> Described:
    tok = a.args[0]
    if tok.startswith("c") and tok[1:].isdigit():
        return Described(label=f"Trash combat card {_combat(tok)}", refs=(Ref("combat_card", tok),))
    return Described(label=f"Trash {card_name(tok)}", refs=(_card(tok),))


def _track_box(state: State, seat: int, col: str) -> str:
    """"category N (its requirement for this seat's role)"."""
    t = active().tracks.get(state.setup.track_side)
    cat = next((c for c in t.categories if str(c.column) == col), None) if t is not None else None
    if cat is None:
        return f"category {col}"
    req = cat.scythe if is_scythe(state.seats[seat]) else cat.expeditions
    return f"category {col} ({req.label})"


@describer("boast")
def _boast(state: State, f: Frame, a: Action) -> Described:
    col = a.args[0]
    return Described(label=f"Boast: place a star on {_track_box(state, f.seat, col)}", refs=(Ref("track_box", col),))


@describer("star")
def _star(state: State, f: Frame, a: Action) -> Described:
    col = a.args[0]
    return Described(label=f"Put the combat star on {_track_box(state, f.seat, col)}", refs=(Ref("track_box", col),))


@describer("map-token-at")
def _map_token_at(state: State, f: Frame, a: Action) -> Described:
    loc = a.args[0]
    return Described(label=f"Take the map token of {loc_name(state, loc)}", refs=(_loc(loc),))


_VANQUISH: Final = {"corruption": "Vanquish: pay the top corruption's value and take it",
             "attack": "Attack the Scythe units here", "stop": "Stop vanquishing"}


@describer("vanquish")
def _vanquish(state: State, f: Frame, a: Action) -> Described | None:
    text = _VANQUISH.get(a.args[0])
    return Described(label=text) if text else None


@describer("adjacent")
def _adjacent(state: State, f: Frame, a: Action) -> Described:
    loc, i = a.args[0], int(a.args[1])
    lo = _locations(state.setup.map_side).get(loc)
    shown = (lo.gather + (lo.revealed if loc in state.revealed else ())) if lo is not None else ()
    gain = (effect_text(shown[i - 1]),) if 1 <= i <= len(shown) else ()
    return Described(label=f"Gain benefit {i} of the adjacent location {loc_name(state, loc)}"
                     + (f": {gain[0]}" if gain else ""), gain=gain, refs=(_loc(loc),))


@describer("activate")
def _activate(state: State, f: Frame, a: Action) -> Described:
    card = _lake_card(state, a.args[0])
    return Described(label=f"Activate {card_name(card)} on {loc_name(state, a.args[0])}",
                     refs=(_loc(a.args[0]), *((_card(card),) if card else ())))


@describer("peek")
def _peek(state: State, f: Frame, a: Action) -> Described:
    return Described(label=f"Peek at the top 2 cards of the {a.args[0]} deck")


@describer("draw2")
def _draw2(state: State, f: Frame, a: Action) -> Described:
    return Described(label="Draw 2 cards: " + " + ".join(a.args[0].split("-")))


@describer("keep")
def _keep(state: State, f: Frame, a: Action) -> Described:
    tok = a.args[0]
    if tok.startswith("c") and tok[1:].isdigit():
        return Described(label=f"Keep combat card {_combat(tok)}", refs=(Ref("combat_card", tok),))
    return Described(label=f"Keep {card_name(tok)}", refs=(_card(tok),))


@describer("voyager")
def _voyager(state: State, f: Frame, a: Action) -> Described:
    return Described(label=f"Voyager: trash a corruption token to {a.args[0].capitalize()}",
                     cost=("corruption token 1",))


@describer("trash-corruption")
def _trash_corruption(state: State, f: Frame, a: Action) -> Described:
    colour, _, value = a.args[0].partition("-")
    return Described(label=f"Trash your {colour} {value} corruption token", cost=(f"corruption {value}",))


@describer("odins-wrath")
def _odins_wrath(state: State, f: Frame, a: Action) -> Described:
    gain = "$1" if a.args[0] == "coins" else f"1 {a.args[0]}"
    return Described(label=f"Odin's Wrath: trash a map token from the supply to gain {gain}", gain=(gain,))


@describer("scarecrow")
def _scarecrow(state: State, f: Frame, a: Action) -> Described:
    return Described(label=f"Scarecrow: trash a map token for an extra {a.args[0].capitalize()} action")


@describer("mole")
def _mole(state: State, f: Frame, a: Action) -> Described:
    if a.args[0] == "gather":
        return Described(label="Mole: trash a map token to gather the covered benefit")
    return Described(label="Do not use Mole")


@describer("pay-worker")
def _pay_worker(state: State, f: Frame, a: Action) -> Described:
    extra = " (it can never be regained)" if a.args[0] == "hero" else ""
    return Described(label=f"Pay with your {a.args[0]} worker: it returns to the supply{extra}",
                     cost=(f"{a.args[0]} worker",), refs=(Ref("worker", a.args[0]),))


@describer("pay-combat")
def _pay_combat(state: State, f: Frame, a: Action) -> Described:
    return Described(label=f"Pay with combat card {_combat(a.args[0])}", cost=(f"combat card {_combat(a.args[0])}",),
                     refs=(Ref("combat_card", a.args[0]),))


@describer("pay-map-token")
def _pay_map_token(state: State, f: Frame, a: Action) -> Described:
    mt = index().map_tokens.get(a.args[0])
    bonus = f" ({', '.join(_effects(mt.bonus))})" if mt is not None else ""
    return Described(label=f"Trash your map token {a.args[0]}{bonus}", cost=(f"map token {a.args[0]}",),
                     refs=(Ref("map_token", a.args[0]),))


@describer("via")
def _via(state: State, f: Frame, a: Action) -> Described:
    if a.args[0] == "none":
        return Described(label="Go straight, without stopping on the way")
    return Described(label=f"Stop on the way at {loc_name(state, a.args[0])} to drop off and pick up",
                     refs=(_loc(a.args[0]),))


@describer("gained-to")
def _gained_to(state: State, f: Frame, a: Action) -> Described:
    if a.args[0] == "hand":
        return Described(label="Put the gained card in your hand")
    return Described(label="Leave the gained card on your active row")
