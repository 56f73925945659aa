"""The text map of the board (locations laid out by their map coordinates, north up) and the adjacency
list, drawn from a seat's ``view`` and the map's content data."""

from __future__ import annotations

from typing import Any

from rich.text import Text

from meloch.cli.names import SEAT_STYLES, map_of
from meloch.content import load
from meloch.engine import ScytheView, View

MAP_SCALE_X = 6.0
"""Characters per map unit east-west."""
MAP_SCALE_Y = 2.5
"""Lines per map unit north-south."""
BLOCK_WIDTH = 16
"""Widest line of a location's block on the text map."""

RES_ABBR = {"food": "fd", "oil": "oil", "metal": "mt", "wood": "wd"}

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
        """The canvas as styled text; a run of blank rows is shown as one (the map stays short)."""
        out = Text()
        blank = ["".join(row).strip() == "" for row in self.chars]
        last = max((r for r in range(self.h) if not blank[r]), default=-1)
        rows = [r for r in range(last + 1) if not blank[r] or (r > 0 and not blank[r - 1])]
        for k, r in enumerate(rows):
            line = "".join(self.chars[r]).rstrip()
            c = 0
            while c < len(line):
                style = self.styles[r][c]
                e = c
                while e < len(line) and self.styles[r][e] == style:
                    e += 1
                out.append(line[c:e], style=style or None)
                c = e
            if k < len(rows) - 1:
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


def _block(view: View, loc: Any) -> list[list[tuple[str, str]]]:
    """Styled lines describing one location, at most ``BLOCK_WIDTH`` wide."""
    lid = loc.id
    if loc.kind == "lake":
        head = [(lid, "bold cyan")]
        card = view.lakes.get(lid, "")
        body: list[tuple[str, str]] = []
        if card:
            c = load().cards.get(card)
            body = [(w, "cyan") for w in (c.name if c else card).split()] + [(f"[{card}]", "dim")]
        else:
            body = [("(empty)", "dim")]
        return _wrap(head, BLOCK_WIDTH) + _wrap(body, BLOCK_WIDTH)
    if loc.kind == "home":
        owner = next((i for i, p in enumerate(view.seats) if p.home == lid), None)
        head = [(f"{view.tags[owner]}-home" if owner is not None else lid,
                 SEAT_STYLES[owner] if owner is not None else "bold")]
    else:
        marks = ("T" if loc.tunnel else "") + ("F" if loc.factory else "")
        terrain = "FACTORY" if loc.factory else loc.terrain
        head = [(f"{lid}", "bold reverse"), (terrain, "bold")]
        if marks:
            head.append((marks, "bold yellow"))
    words: list[tuple[str, str]] = []
    for i, p in enumerate(view.seats):
        tag, style = view.tags[i], SEAT_STYLES[i]
        if isinstance(p, ScytheView):
            units = []
            if p.character == lid:
                units.append("C")
            nm = sum(1 for x in p.mechs if x == lid)
            if nm:
                units.append(f"M{nm}")
            nw = sum(1 for x in p.workers if x == lid)
            if nw:
                units.append(f"W{nw}")
            if units:
                words.append((f"{tag}:" + ",".join(units), style))
            for kind, where in p.structures:
                if where == lid:
                    words.append((f"{tag}:{kind}", style))
            if lid in p.flags:
                words.append((f"{tag}:flag", style))
            if lid in p.influence:
                words.append((f"{tag}:infl", style))
            for t in p.traps:
                if t.loc == lid:
                    words.append((f"{tag}:trap" + (f"({t.kind})" if t.kind != "?" else ""), style))
            res = [f"{RES_ABBR.get(r, r)}{k}" for where, r, k in p.resources if where == lid]
            if res:
                words.append(("+".join(res), style.replace("bold ", "")))
        elif p.loc == lid:
            words.append((f"{tag}:mech", style))
    if lid in view.map_tokens:
        words.append(("token", "bold yellow"))
    stack = view.corruption.get(lid)
    if stack:
        words.append(("cor:" + ",".join(f"{c[0][0].upper()}{c[1]}" for c in stack), "magenta"))
    if lid in view.revealed:
        words.append(("(cleared)", "dim magenta"))
    return _wrap(head, BLOCK_WIDTH) + _wrap(words, BLOCK_WIDTH)


def render_map(view: View) -> Text:
    """The board laid out by the map's x/y coordinates on a character grid, north up."""
    m = map_of(view.setup.map_side)
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


def render_adjacency(view: View) -> Text:
    """Each location's neighbours; ``~`` marks a river crossing."""
    m = map_of(view.setup.map_side)
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


MAP_LEGEND = """\
C character   M mechs   W workers
T tunnel   F Factory   ~ river
token   face-down map token
cor:    corruption stack, bottom..top
        (P power / G guile + value)
fd oil mt wd   resources
(cleared)   corruption gone: the
            benefit under it is open"""
"""The key to the map's abbreviations, a few short lines (it stands beside the map when there is room)."""
