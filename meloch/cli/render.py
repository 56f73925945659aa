"""Terminal rendering of a seat's view with rich, and readable labels for actions.

Everything here reads only the engine's public protocol (a ``view`` dict, ``Action`` values) and the
content data (names, map geometry). No rule is decided here: the options shown are the engine's
legal actions, and a label only describes an action in words (falling back to its notation).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache
from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from meloch.content import load
from meloch.content.schema import Effect, MapSide
from meloch.engine import Action

SEAT_STYLES = ("bold red", "bold blue")
"""Style of seat 0's and seat 1's pieces and tags."""

MAP_SCALE_X = 6.0
"""Characters per map unit east-west."""
MAP_SCALE_Y = 2.5
"""Lines per map unit north-south."""
BLOCK_WIDTH = 16
"""Widest line of a location's block on the text map."""

RES_ABBR = {"food": "fd", "oil": "oil", "metal": "mt", "wood": "wd"}


# ---------------------------------------------------------------- small helpers


def _fx(e: Effect) -> str:
    """A short description of one content effect, e.g. ``power +2`` (display only)."""
    if e.op == "one_of":
        return " / ".join(" + ".join(_fx(x) for x in opt) or "nothing" for opt in e.one_of)
    if e.op == "custom":
        return e.arg.replace("_", " ")
    name = e.op.replace("_", " ")
    if e.arg:
        name = f"{name} {e.arg}"
    counted = e.n != 1 or e.op in ("power", "guile", "coins", "popularity", "combat_cards")
    return f"{name} +{e.n}" if counted else name


def _fxs(effects: Sequence[Effect]) -> str:
    return ", ".join(_fx(e) for e in effects) or "nothing"


def _tag(view: dict[str, Any], seat: int) -> str:
    return str(view["tags"][seat])


def _seat_of(view: dict[str, Any], action: Action) -> int:
    tags = list(view["tags"])
    return tags.index(action.who) if action.who in tags else action.seat


@cache
def _map(side: str) -> MapSide:
    return load().maps[side]


def loc_name(view: dict[str, Any], loc: str) -> str:
    """``1 (farm)``, ``4 (Factory)``, ``lake-w (lake)``, ``home-s (S home)``."""
    m = _map(view["setup"]["map_side"])
    lo = next((x for x in m.locations if x.id == loc), None)
    if lo is None:
        return loc
    if lo.kind == "home":
        for i, p in enumerate(view["seats"]):
            if p.get("home") == loc:
                return f"{loc} ({_tag(view, i)} home)"
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


def _combat_discard_bonus(token: str) -> str:
    if not re.fullmatch(r"c\d+", token):
        return ""
    cid = int(token[1:])
    types = [t for t in load().combat_cards for _ in range(t.count)]
    return _fxs(types[cid].discard) if 0 <= cid < len(types) else ""


def _section_text(view: dict[str, Any], seat: int, sec: str) -> str:
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
    lo = next((x for x in _map(view["setup"]["map_side"]).locations if x.id == loc), None)
    if lo is None:
        return ""
    shown = lo.gather + (lo.revealed if loc in view.get("revealed", []) else ())
    return _fx(shown[i - 1]) if 1 <= i <= len(shown) else ""


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
        text = _prompt_choice(prompt, args[0])
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
        return f"Move your action token to {_section_text(view, seat, args[0])}"
    if v == "refresh-to" and n == 1:
        return f"Refresh: move your action token to {_section_text(view, seat, args[0])}"
    if v == "veer" and n == 1:
        if args[0] == "no":
            return "Do not Veer"
        return f"Veer: move your action token to {_section_text(view, seat, args[0])}"
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
        return f"Move {unit} from {ln(src)} to {ln(dst)}"
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
        return f"Upgrade: improve {box} and lower the bottom cost of {_section_text(view, seat, args[1])}"
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
        return f"Move your mech from {ln(p['loc'])} to {ln(args[0])}"
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
    if v == "gained-to" and n == 1:
        return "Put the gained card in your hand" if args[0] == "hand" else "Leave the gained card on your active row"
    return None


# ---------------------------------------------------------------- the map


class _Canvas:
    def __init__(self, width: int, height: int) -> None:
        self.w, self.h = width, height
        self.chars = [[" "] * width for _ in range(height)]
        self.styles: list[list[str]] = [[""] * width for _ in range(height)]

    def put(self, row: int, col: int, text: str, style: str = "") -> None:
        if not 0 <= row < self.h:
            return
        for i, ch in enumerate(text):
            c = col + i
            if 0 <= c < self.w:
                self.chars[row][c] = ch
                self.styles[row][c] = style

    def text(self) -> Text:
        out = Text()
        for r in range(self.h):
            line = "".join(self.chars[r]).rstrip()
            c = 0
            while c < len(line):
                style = self.styles[r][c]
                e = c
                while e < len(line) and self.styles[r][e] == style:
                    e += 1
                out.append(line[c:e], style=style or None)
                c = e
            if r < self.h - 1:
                out.append("\n")
        return out


def _wrap(parts: list[tuple[str, str]], width: int) -> list[list[tuple[str, str]]]:
    """Greedy wrap of styled words into lines of at most ``width`` characters."""
    lines: list[list[tuple[str, str]]] = [[]]
    used = 0
    for word, style in parts:
        word = word[:width]
        need = len(word) + (1 if lines[-1] else 0)
        if lines[-1] and used + need > width:
            lines.append([])
            used, need = 0, len(word)
        lines[-1].append((word, style))
        used += need
    return [ln for ln in lines if ln]


def _block(view: dict[str, Any], loc: Any) -> list[list[tuple[str, str]]]:
    """Styled lines describing one location, at most ``BLOCK_WIDTH`` wide."""
    lid = loc.id
    if loc.kind == "lake":
        head = [(lid, "bold cyan")]
        card = view["lakes"].get(lid, "")
        body: list[tuple[str, str]] = []
        if card:
            c = load().cards.get(card)
            body = [(w, "cyan") for w in (c.name if c else card).split()] + [(f"[{card}]", "dim")]
        else:
            body = [("(empty)", "dim")]
        return _wrap(head, BLOCK_WIDTH) + _wrap(body, BLOCK_WIDTH)
    if loc.kind == "home":
        owner = next((i for i, p in enumerate(view["seats"]) if p.get("home") == lid), None)
        head = [(f"{_tag(view, owner)}-home" if owner is not None else lid,
                 SEAT_STYLES[owner] if owner is not None else "bold")]
    else:
        marks = ("T" if loc.tunnel else "") + ("F" if loc.factory else "")
        terrain = "FACTORY" if loc.factory else loc.terrain
        head = [(f"{lid}", "bold reverse"), (terrain, "bold")]
        if marks:
            head.append((marks, "bold yellow"))
    words: list[tuple[str, str]] = []
    for i, p in enumerate(view["seats"]):
        tag, style = _tag(view, i), SEAT_STYLES[i]
        if p["role"] == "scythe":
            units = []
            if p.get("character") == lid:
                units.append("C")
            nm = sum(1 for x in p.get("mechs", []) if x == lid)
            if nm:
                units.append(f"M{nm}")
            nw = sum(1 for x in p.get("workers", []) if x == lid)
            if nw:
                units.append(f"W{nw}")
            if units:
                words.append((f"{tag}:" + ",".join(units), style))
            for kind, where in p.get("structures", []):
                if where == lid:
                    words.append((f"{tag}:{kind}", style))
            if lid in p.get("flags", []):
                words.append((f"{tag}:flag", style))
            if lid in p.get("influence", []):
                words.append((f"{tag}:infl", style))
            for t in p.get("traps", []):
                if t and t[0] == lid:
                    words.append((f"{tag}:trap" + (f"({t[1]})" if len(t) > 1 and t[1] != "?" else ""), style))
            res = [f"{RES_ABBR.get(r, r)}{k}" for where, r, k in p.get("resources", []) if where == lid]
            if res:
                words.append(("+".join(res), style.replace("bold ", "")))
        elif p.get("loc") == lid:
            words.append((f"{tag}:mech", style))
    if lid in view.get("map_tokens", []):
        words.append(("token", "bold yellow"))
    stack = view.get("corruption", {}).get(lid)
    if stack:
        words.append(("cor:" + ",".join(f"{c[0][0].upper()}{c[1]}" for c in stack), "magenta"))
    if lid in view.get("revealed", []):
        words.append(("(cleared)", "dim magenta"))
    return _wrap(head, BLOCK_WIDTH) + _wrap(words, BLOCK_WIDTH)


def render_map(view: dict[str, Any]) -> Text:
    """The board laid out by the map's x/y coordinates on a character grid, north up."""
    m = _map(view["setup"]["map_side"])
    blocks = {lo.id: _block(view, lo) for lo in m.locations}
    xs = [lo.x for lo in m.locations]
    ys = [lo.y for lo in m.locations]
    x0, y1 = min(xs), max(ys)
    placed: list[tuple[int, int, int, int]] = []  # row, col, height, width
    pos: dict[str, tuple[int, int]] = {}
    order = sorted(m.locations, key=lambda lo: (lo.kind != "location", -lo.y, lo.x))
    offsets = sorted(((dr, dc) for dr in range(-3, 10) for dc in range(-12, 13)),
                     key=lambda o: abs(o[0]) * 4 + abs(o[1]))

    def free(r: int, c: int, h: int, w: int) -> bool:
        # blocks may touch vertically but keep one blank column between them
        return all(r + h <= pr or pr + ph <= r or c + w + 1 <= pc or pc + pw + 1 <= c
                   for pr, pc, ph, pw in placed)

    for lo in order:
        lines = blocks[lo.id]
        h = len(lines)
        w = max((sum(len(t) for t, _ in ln) + len(ln) - 1 for ln in lines), default=1)
        r0 = round((y1 - lo.y) * MAP_SCALE_Y)
        c0 = round((lo.x - x0) * MAP_SCALE_X)
        for dr, dc in offsets:
            r, c = max(0, r0 + dr), max(0, c0 + dc)
            if free(r, c, h, w):
                break
        else:  # nowhere near its place: put it below everything
            r, c = max((pr + ph for pr, _, ph, _ in placed), default=0), max(0, c0)
        placed.append((r, c, h, w))
        pos[lo.id] = (r, c)
    height = max(r + h for r, _, h, _ in placed)
    width = max(c + w for _, c, _, w in placed)
    canvas = _Canvas(width + 1, height + 1)
    for lo in m.locations:
        r, c = pos[lo.id]
        for i, ln in enumerate(blocks[lo.id]):
            col = c
            for word, style in ln:
                canvas.put(r + i, col, word, style)
                col += len(word) + 1
    return canvas.text()


def render_adjacency(view: dict[str, Any]) -> Text:
    """Each location's neighbours; ``~`` marks a river crossing."""
    m = _map(view["setup"]["map_side"])
    adj: dict[str, list[str]] = {lo.id: [] for lo in m.locations}
    for e in m.edges:
        mark = "~" if e.river else ""
        adj[e.a].append(e.b + mark)
        adj[e.b].append(e.a + mark)

    def key(x: str) -> tuple[int, int, str]:
        x = x.rstrip("~")
        return (0, int(x), "") if x.isdigit() else (1, 0, x)

    out = Text()
    ids = sorted(adj, key=key)
    for i, lid in enumerate(ids):
        lo = next(x for x in m.locations if x.id == lid)
        tunnel = " T" if lo.tunnel else ""
        out.append(f"{lid:>6}{tunnel:2}: ", style="bold")
        out.append(" ".join(sorted(adj[lid], key=key)))
        if i < len(ids) - 1:
            out.append("\n")
    return out


MAP_LEGEND = ("C character, M mechs, W workers, T tunnel, F Factory, token = face-down map token, "
              "cor = corruption stack bottom..top (P power / G guile + value), fd/oil/mt/wd resources, "
              "~ river")


# ---------------------------------------------------------------- seats, track, Meloch row


def _kv(table: Table, key: str, value: Any) -> None:
    if value in (None, "", [], ()):
        value = "-"
    if isinstance(value, list | tuple):
        value = ", ".join(str(x) for x in value)
    table.add_row(key, str(value))


_SHOWN_KEYS = {
    "role", "faction", "mat", "home", "power", "popularity", "coins", "combat_cards", "character", "mechs",
    "mech_slots", "workers", "workers_on_mat", "structures", "recruits", "enlist_bonuses", "top_upgrades",
    "bottom_cubes", "resources", "section", "factory_card", "map_tokens", "encounters", "stars_unplaced",
    "stars_discarded", "combat_wins", "mech", "companion", "loc", "guile", "hand", "active", "corruption",
    "solved", "upgraded", "melded", "token", "hero_trashed", "hand_cards", "hand_combat", "combat_card_ids",
}
"""Seat keys with their own row or panel; any other key of the view is listed as it is."""


def _seat_table(view: dict[str, Any], i: int) -> Table:
    p = view["seats"][i]
    me = view.get("seat") == i
    title = f"{_tag(view, i)} {p['role'].capitalize()}" + (" (you)" if me else "")
    t = Table(title=title, title_style=SEAT_STYLES[i], show_header=False, box=None, pad_edge=False)
    t.add_column(style="dim", no_wrap=True)
    t.add_column(overflow="fold")
    stars = view["stars"][i]
    if p["role"] == "scythe":
        c = load()
        fac = c.factions.get(p["faction"])
        mat = c.mats.get(p["mat"])
        _kv(t, "faction", f"{fac.name if fac else p['faction']} / {mat.name if mat else p['mat']} mat")
        _kv(t, "stars", f"{stars} placed, {p['stars_unplaced']} unplaced, {p['stars_discarded']} discarded")
        _kv(t, "power/pop/$", f"{p['power']} / {p['popularity']} / ${p['coins']}")
        _kv(t, "combat cards", p["combat_cards"])
        sec = p["section"]
        _kv(t, "action token", "-" if sec < 0 else "Factory card" if sec == 4
            else _section_text(view, i, str(sec + 1)))
        _kv(t, "character", p["character"])
        _kv(t, "mechs", [f"{loc} (slot {s + 1})" for loc, s in zip(p["mechs"], p["mech_slots"], strict=False)])
        _kv(t, "workers", f"{len(p['workers'])} on board, {p['workers_on_mat']} on mat")
        _kv(t, "resources", [f"{n} {r} on {loc}" for loc, r, n in p["resources"]])
        _kv(t, "structures", [f"{k} on {loc}" for k, loc in p["structures"]])
        _kv(t, "recruits", p["recruits"])
        _kv(t, "upgrades", [x.replace("_", " ") for x in p["top_upgrades"]])
        _kv(t, "cost cubes", p["bottom_cubes"])
        _kv(t, "factory card", p["factory_card"])
        _kv(t, "tokens/enc.", f"{p['map_tokens']} map tokens, {p['encounters']} encounters")
        _kv(t, "combat wins", p["combat_wins"])
    else:
        c = load()
        mech = c.mechs.get(p["mech"])
        _kv(t, "mech", f"{mech.name if mech else p['mech']} at {p['loc']}")
        _kv(t, "hero", f"{card_name(p['character'])} + {card_name(p['companion'])}")
        _kv(t, "stars", stars)
        _kv(t, "power/guile/$", f"{p['power']} / {p['guile']} / ${p['coins']}")
        _kv(t, "action token", p["token"])
        _kv(t, "workers", p["workers"])
        _kv(t, "hand", f"{p['hand']} card(s)")
        _kv(t, "combat cards", p["combat_cards"])
        _kv(t, "active row", [card_name(cid) + (f" [{w}]" if w else "") for cid, w in p["active"]])
        _kv(t, "corruption", [f"{col} {val}" for col, val in p["corruption"]])
        _kv(t, "map tokens", p["map_tokens"])
        _kv(t, "solved", [card_name(x) for x in p["solved"]])
        _kv(t, "upgraded", [card_name(x) for x in p["upgraded"]])
        _kv(t, "melded", [card_name(x) for x in p["melded"]])
        _kv(t, "combat wins", p["combat_wins"])
    for key in sorted(set(p) - _SHOWN_KEYS):
        if p[key] not in (None, "", [], (), False, 0):
            _kv(t, key.replace("_", " "), p[key])
    return t


def render_seats(view: dict[str, Any]) -> Table:
    """Both seats' public state side by side."""
    grid = Table.grid(padding=(0, 2), expand=False)
    grid.add_column(ratio=1)
    grid.add_column(ratio=1)
    grid.add_row(_seat_table(view, 0), _seat_table(view, 1))
    return grid


def render_private(view: dict[str, Any]) -> RenderableType | None:
    """The viewer's secrets: hand, combat cards, dial, peeks. None for a spectator."""
    seat = view.get("seat")
    if seat is None:
        return None
    p = view["seats"][seat]
    t = Table(show_header=False, box=None, pad_edge=False)
    t.add_column(style="dim", no_wrap=True)
    t.add_column(overflow="fold")
    if "hand_cards" in p:
        c = load()
        lines = []
        for cid in p["hand_cards"]:
            card = c.cards.get(cid)
            if card is None:
                lines.append(cid)
                continue
            lines.append(f"{card.name} ({card.kind} {cid}; {card.core} {card.core_value}, "
                         f"{card.worker} worker): {card.ability_text}")
        t.add_row("hand", "\n".join(lines) or "-")
    t.add_row("combat cards", ", ".join(p.get("hand_combat", [])) or "-")
    combat = view.get("combat")
    if combat and f"dial_{seat}" in combat:
        t.add_row("your dial", f"{combat[f'dial_{seat}']}, tucked: {', '.join(combat[f'cards_{seat}']) or '-'}")
    if view.get("known"):
        t.add_row("you know", "\n".join(view["known"]))
    return Panel(t, title=f"{_tag(view, seat)} private (only you see this)", border_style=SEAT_STYLES[seat],
                 title_align="left")


def render_track(view: dict[str, Any]) -> Table:
    """The Triumph Track: each category's requirement per role and the stars placed on it."""
    side = load().tracks[view["setup"]["track_side"]]
    t = Table(title=f"Triumph Track {side.id}  (stars: " + ", ".join(
        f"{_tag(view, i)} {view['stars'][i]}/{view['setup']['seats'][i]['stars_to_win']}" for i in (0, 1)) + ")",
        pad_edge=False, expand=False)
    t.add_column("#", justify="right")
    t.add_column("Scythe needs")
    t.add_column("Expeditions needs")
    t.add_column("stars")
    for k, cat in enumerate(side.categories):
        col = view["track"][k] if k < len(view["track"]) else []
        stars = Text()
        for s in col:
            stars.append(f"*{_tag(view, s)} ", style=SEAT_STYLES[s])
        name = f"{cat.column}" + (" (combat)" if cat.combat else "")
        t.add_row(name, cat.scythe.label, cat.expeditions.label, stars)
    return t


def render_meloch(view: dict[str, Any]) -> Text:
    cards = {m.id: m for m in load().meloch_cards}
    out = Text()
    out.append("Meloch row (oldest first): ", style="bold")
    for i, (cid, rotated) in enumerate(view["meloch_row"]):
        m = cards.get(cid)
        if m is None:
            out.append(cid)
            continue
        halves = (m.right, m.left) if rotated else (m.left, m.right)
        desc = "; ".join(f"{side} half: Scythe {_fxs(h.toward_scythe)}, Expeditions {_fxs(h.toward_expeditions)}"
                         for side, h in zip(("left", "right"), halves, strict=True))
        out.append(f"\n  {i + 1}. {m.name} ({'rotated' if rotated else 'upright'}): ", style="bold")
        out.append(desc)
    d = view["decks"]
    out.append(f"\nDecks: discovery {d['discovery']}, combat {d['combat']}, encounter {d['encounter']}, "
               f"Factory {d['factory']}, Meloch {d['meloch']}; map tokens aside {view['map_token_supply']}",
               style="dim")
    return out


def render_combat(view: dict[str, Any]) -> Text | None:
    c = view.get("combat")
    if not c:
        return None
    out = Text()
    out.append(f"Combat at {loc_name(view, c['loc'])}: ", style="bold")
    out.append(f"{_tag(view, c['attacker'])} attacks {_tag(view, c['defender'])}; ")
    out.append(f"committed {[_tag(view, i) for i in (0, 1) if c['committed'][i]]}, tucked cards "
               f"{c['tucked'][0]}/{c['tucked'][1]}")
    if c.get("revealed"):
        for i in (0, 1):
            if f"dial_{i}" in c:
                out.append(f"\n  {_tag(view, i)}: dial {c[f'dial_{i}']}, cards {', '.join(c[f'cards_{i}']) or '-'}")
    return out


def render_events(lines: Sequence[str], title: str = "What happened") -> RenderableType:
    text = Text("\n".join(f"- {x}" for x in lines) if lines else "(nothing new)")
    return Panel(text, title=title, title_align="left", border_style="dim")


def render_options(view: dict[str, Any], legal: Sequence[Action]) -> Table:
    """The current decision's options, numbered from 1, with readable labels and notation."""
    t = Table(show_header=True, header_style="bold", pad_edge=False, box=None)
    t.add_column("#", justify="right", style="bold cyan")
    t.add_column("option", overflow="fold")
    t.add_column("notation", style="dim", no_wrap=True)
    for i, a in enumerate(legal):
        t.add_row(str(i + 1), label(a, view), str(a))
    return t


def render_screen(view: dict[str, Any], legal: Sequence[Action], events: Sequence[str]) -> Group:
    """Everything shown before a prompt, from the deciding seat's ``view``."""
    parts: list[RenderableType] = []
    setup = view["setup"]
    head = Text()
    head.append(f"Turn {view['turn']}/{setup['turn_limit']}", style="bold")
    head.append(f"  {setup['map_side']} map, track {setup['track_side']}, {setup['variant']}  ")
    for i in (0, 1):
        head.append(f"{_tag(view, i)} {view['stars'][i]}* ", style=SEAT_STYLES[i])
    parts.append(head)
    parts.append(Panel(render_map(view), title="Map (north up)", title_align="left", expand=False))
    parts.append(Text(MAP_LEGEND, style="dim"))
    parts.append(Panel(render_adjacency(view), title="Adjacency", title_align="left", expand=False))
    parts.append(render_seats(view))
    private = render_private(view)
    if private is not None:
        parts.append(private)
    parts.append(render_track(view))
    parts.append(render_meloch(view))
    combat = render_combat(view)
    if combat is not None:
        parts.append(combat)
    parts.append(render_events(events))
    d = view.get("decision")
    if d is not None:
        tag = _tag(view, d["seat"])
        parts.append(Text(f"{tag} to decide: {d['prompt']}", style=SEAT_STYLES[d["seat"]]))
        parts.append(render_options(view, legal))
    return Group(*parts)
