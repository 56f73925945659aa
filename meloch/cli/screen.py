"""The compact screen drawn at every decision: it fits 80×24.

Top to bottom: one header line, a small map (one short line per location, laid out by the map's
coordinates), one or two lines of the deciding seat's own state, one line of the opponent's public
state, one line of the Triumph Track, the last events, the decision and a page of its options.
Detail lives behind ``show board|track|log|cards|opponent`` (``render.py``).

Options come from the engine's described options only. Their keys are stable: a section keeps
its number (``1``-``4``, ``f`` for a Factory card) whatever was chosen last turn, free actions are
folded into one entry (``x``), and a long list whose options share a first argument (Upgrade:
the top box, then the section; Enlist: the recruit, then the bonus) is shown as a two-level menu.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from meloch.cli.names import SEAT_STYLES, map_of
from meloch.engine import ExpView, Option, ScytheView, View

WIDTH, HEIGHT = 80, 24
"""The terminal the screen is built for: nothing drawn at a decision is wider or taller."""
EVENT_LINES = 3
"""Events shown on the main screen; ``show log`` lists them all."""
MIN_PAGE = 4
RES_ABBR = {"food": "fd", "oil": "oil", "metal": "mt", "wood": "wd"}
SECTION_VERBS = ("section", "refresh-to", "veer")


# ---------------------------------------------------------------- keys and menus


@dataclass
class Entry:
    """One line of the option menu: a key, its text, and what it stands for (an option, a submenu)."""

    key: str
    text: str
    option: Option | None = None
    submenu: str = ""
    """Non-empty: choosing the entry opens that submenu ("free" or a first argument)."""
    note: str = ""


@dataclass
class Menu:
    """The entries of the current decision at one level; ``title`` says which level."""

    entries: list[Entry] = field(default_factory=list)
    title: str = ""


def _args(o: Option) -> list[str]:
    return o.action.split()[2:]


def _verb(o: Option) -> str:
    parts = o.action.split()
    return parts[1] if len(parts) > 1 else ""


def option_key(o: Option, position: int) -> str:
    """A section keeps its number whatever else is offered (``f``: the Factory card section); any other
    option is keyed by its position in the decision's own list."""
    args = _args(o)
    if _verb(o) in SECTION_VERBS and args:
        if args[0].isdigit():
            return args[0]
        if args[0] == "factory" or args[0].startswith("tech-"):
            return "f"
        if args[0] == "no":
            return "0"
    return str(position)


def _costs(o: Option, have: dict[str, int]) -> str:
    out = []
    for c in o.cost:
        m = re.fullmatch(r"(\w+) (\d+)", c)
        name = m.group(1) if m else ""
        out.append(f"{c} (have {have[name]})" if m and name in have else c)
    return ", ".join(out)


def entry_text(o: Option, have: dict[str, int]) -> str:
    text = o.label
    bits = []
    if o.cost:
        bits.append("cost " + _costs(o, have))
    if o.gain and not all(g in o.label for g in o.gain):
        bits.append("gain " + ", ".join(o.gain))
    if bits:
        text += " [" + "; ".join(bits) + "]"
    return text


def _grouping(main: Sequence[Option], page: int) -> bool:
    """Group by first argument when the list is long and its options all share a verb and a first argument
    takes at least two values (Upgrade, Enlist, Trade, Adjacent...)."""
    if len(main) <= page:
        return False
    verbs = {_verb(o) for o in main}
    if len(verbs) != 1 or any(len(_args(o)) < 2 for o in main):
        return False
    firsts = {_args(o)[0] for o in main}
    return 2 <= len(firsts) < len(main)


def build_menu(opts: Sequence[Option], have: dict[str, int], level: str = "", page: int = 12) -> Menu:
    """The entries at ``level``: "" (the decision), "free" (the free actions) or a first argument."""
    main = [o for o in opts if not o.free]
    free = [o for o in opts if o.free]
    if level == "free":
        return Menu([Entry(str(i + 1), entry_text(o, have), o) for i, o in enumerate(free)],
                    "Free actions (b: back)")
    if level:
        sub = [o for o in main if _args(o) and _args(o)[0] == level]
        return Menu([Entry(str(i + 1), entry_text(o, have), o) for i, o in enumerate(sub)],
                    f"{_verb(sub[0]).capitalize() if sub else ''} {level.replace('_', ' ')}: choose (b: back)")
    entries: list[Entry] = []
    if _grouping(main, page):
        seen: dict[str, list[Option]] = {}
        for o in main:
            seen.setdefault(_args(o)[0], []).append(o)
        for i, (first, group) in enumerate(seen.items()):
            costs = sorted({c for o in group for c in o.cost})
            cost = f" [cost {', '.join(costs)}]" if costs and len(costs) <= 2 else ""
            entries.append(Entry(str(i + 1), f"{_verb(group[0]).capitalize()}: {first.replace('_', ' ')} "
                                 f"({len(group)} choices){cost}", submenu=first))
    else:
        entries = [Entry(option_key(o, i + 1), entry_text(o, have), o) for i, o in enumerate(main)]
    if free:
        kinds = sorted({_verb(o).replace("-", " ") for o in free})
        entries.append(Entry("x", f"Free actions ({len(free)}): {', '.join(kinds)}", submenu="free"))
    return Menu(entries)


# ---------------------------------------------------------------- the state lines


def have_of(v: View) -> dict[str, int]:
    """The deciding seat's current amounts, to show next to costs (``metal 3 (have 1)``)."""
    if v.seat is None:
        return {}
    p = v.seats[v.seat]
    out = {"coins": p.coins, "power": p.power, "combat": p.combat_cards}
    if isinstance(p, ScytheView):
        out["popularity"] = p.popularity
        for r in RES_ABBR:
            out[r] = sum(n for _, res, n in p.resources if res == r)
        out["star"] = p.stars_unplaced
    else:
        out["guile"] = p.guile
    return out


def _scythe_line(v: View, i: int, me: bool) -> str:
    p = v.seats[i]
    assert isinstance(p, ScytheView)
    res = {r: sum(n for _, x, n in p.resources if x == r) for r in RES_ABBR}
    res_txt = " ".join(f"{RES_ABBR[r]}{n}" for r, n in res.items() if n) or "none"
    sec = "-" if p.section < 0 else "Factory" if p.section == 4 else str(p.section + 1)
    line = (f"power {p.power} pop {p.popularity} ${p.coins} | combat cards {p.combat_cards} | res {res_txt} | "
            f"workers {len(p.workers)}+{p.workers_on_mat} mat | mechs {len(p.mechs)} | build {len(p.structures)} | "
            f"recruits {len(p.recruits)} | upgr {len(p.top_upgrades)} | token {sec}")
    if me and p.hand_combat:
        line += " | cards: " + ", ".join(str(x).split(" #")[0] for x in p.hand_combat)
    return line


def _exp_line(v: View, i: int, me: bool) -> str:
    p = v.seats[i]
    assert isinstance(p, ExpView)
    cor = sum(1 for _ in p.corruption)
    line = (f"power {p.power} guile {p.guile} ${p.coins} | combat cards {p.combat_cards} | hand {p.hand} | "
            f"active {len(p.active)} | workers {len(p.workers)} | corruption {cor} | tokens {len(p.map_tokens)} | "
            f"solved {len(p.solved)} upgr {len(p.upgraded)} meld {len(p.melded)} | token {p.token}")
    if me and p.hand_combat:
        line += " | cards: " + ", ".join(str(x).split(" #")[0] for x in p.hand_combat)
    return line


def seat_line(v: View, i: int) -> Text:
    me = v.seat == i
    p = v.seats[i]
    who = f"{v.tags[i]} {'you' if me else 'opp'}"
    body = _scythe_line(v, i, me) if isinstance(p, ScytheView) else _exp_line(v, i, me)
    t = Text()
    t.append(f"{who}: ", style=SEAT_STYLES[i])
    t.append(body)
    return t


def header(v: View) -> Text:
    setup = v.setup
    t = Text()
    t.append(f"Turn {v.turn}", style="bold")
    t.append(f" | {setup.map_side} {setup.track_side} | ")
    for i in (0, 1):
        seat = setup.seats[i]
        t.append(f"{v.tags[i]} {seat.role.capitalize()} {v.stars[i]}/{seat.stars_to_win} stars",
                 style=SEAT_STYLES[i])
        t.append("  " if i == 0 else "")
    if v.seat is not None:
        t.append(f" | you: {v.tags[v.seat]}")
    return t


def track_line(v: View) -> Text:
    t = Text("Track: ", style="bold")
    for k, col in enumerate(v.track):
        t.append(f"{k + 1}:")
        if col:
            for s in col:
                t.append(v.tags[s], style=SEAT_STYLES[s])
        else:
            t.append("-", style="dim")
        t.append(" ")
    return t


def automa_line(v: View) -> Text | None:
    """The solo Automa's progress from the view's ``automa`` part: its box, the track ('*' star
    boxes, '@' its token), stars from it, action deck left/size, support deck left and its current
    support card (left out when the line would pass 80 columns: level 1's long track); None
    without an Automa."""
    a = v.automa
    if a is None:
        return None
    t = Text(f"Automa L{a.level}{'+T' if a.threat else ''} ", style=SEAT_STYLES[a.seat])
    t.append(f"{a.progress}/{a.track_length} ", style="bold")
    t.append("[")
    for b in range(1, a.track_length + 1):
        ch = "@" if b == a.progress else "*" if b in a.star_boxes else "."
        t.append(ch, style="bold" if b <= a.progress else "dim")
    t.append("] ")
    t.append(f"stars {sum(1 for b in a.star_boxes if b <= a.progress)}/{len(a.star_boxes)} ")
    tail = f"deck {a.action_deck}/{a.action_deck + len(a.action_discard)} sup {a.support_deck}"
    card = f" {a.card or '-'}"
    t.append(tail + (card if len(t.plain) + len(tail) + len(card) <= 80 else ""), style="dim")
    return t


# ---------------------------------------------------------------- the small map


def _token(v: View, lid: str, kind: str) -> list[tuple[str, str]]:
    if kind == "lake":
        return [(f"~{lid[5:].upper()}" + ("*" if v.lakes.get(lid) else ""), "cyan")]
    if kind == "home":
        owner = next((i for i, p in enumerate(v.seats) if p.home == lid), None)
        parts = [(f"H{v.tags[owner]}" if owner is not None else "H", "bold")]
    else:
        parts = [(lid, "bold reverse")]
    for i, p in enumerate(v.seats):
        if isinstance(p, ScytheView):
            u = ("C" if p.character == lid else "")
            nm = sum(1 for x in p.mechs if x == lid)
            nw = sum(1 for x in p.workers if x == lid)
            u += (f"M{nm}" if nm else "") + (f"W{nw}" if nw else "")
            u += "b" * sum(1 for _, w in p.structures if w == lid)
            if u:
                parts.append((f"{v.tags[i]}:{u}", SEAT_STYLES[i]))
        elif p.loc == lid:
            parts.append((f"{v.tags[i]}:M", SEAT_STYLES[i]))
    if lid in v.map_tokens:
        parts.append(("t", "bold yellow"))
    stack = v.corruption.get(lid)
    if stack:
        parts.append((f"c{len(stack)}", "magenta"))
    return parts


def small_map(v: View, width: int = WIDTH) -> Text:
    """One short token per location (``3 S:CW2 t c2``: id, units, map token, corruption count) placed by
    the map's coordinates on about seven lines."""
    m = map_of(v.setup.map_side)
    xs = [lo.x for lo in m.locations]
    ys = [lo.y for lo in m.locations]
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    rows = 7
    toks = {lo.id: _token(v, lo.id, lo.kind) for lo in m.locations}
    lens = {k: sum(len(w) for w, _ in t) + len(t) - 1 for k, t in toks.items()}
    span = width - 1 - max(lens.values())
    grid: list[list[tuple[int, str]]] = [[] for _ in range(rows)]  # per row: (column, location)
    for lo in sorted(m.locations, key=lambda lo: lo.x):
        r = round((y1 - lo.y) / (y1 - y0) * (rows - 1)) if y1 > y0 else 0
        c = round((lo.x - x0) / (x1 - x0) * span) if x1 > x0 else 0
        if grid[r]:
            pc, pid = grid[r][-1]
            c = max(c, pc + lens[pid] + 2)
        grid[r].append((c, lo.id))
    out = Text()
    for r in range(rows):
        line = Text()
        for c, lid in grid[r]:
            line.append(" " * max(0, c - len(line.plain)))
            for j, (w, st) in enumerate(toks[lid]):
                line.append((" " if j else "") + w, style=st)
        line.truncate(width)
        out.append_text(line)
        if r < rows - 1:
            out.append("\n")
    return out


MAP_KEY = ("map: id S:C character M mech W workers b building | E:M mech | t map token | c2 corruption | "
           "~W* lake with a card | HS home")


# ---------------------------------------------------------------- the screen


def _clip(text: str, lines: int, width: int = WIDTH) -> str:
    """At most ``lines`` lines of ``width`` (word-wrapped), the last one ending in '...' when cut."""
    words = text.split()
    out: list[str] = []
    cur = ""
    for w in words:
        if cur and len(cur) + 1 + len(w) > width:
            out.append(cur)
            cur = w
        else:
            cur = f"{cur} {w}" if cur else w
    if cur:
        out.append(cur)
    if len(out) > lines:
        out = out[:lines]
        out[-1] = out[-1][: width - 4] + " ..."
    return "\n".join(x[:width] for x in out)


@dataclass
class Screen:
    renderable: RenderableType
    pages: int
    page: int


def _line(text: str | Text, style: str = "") -> Text:
    t = text if isinstance(text, Text) else Text(text, style=style)
    t.no_wrap = True
    t.overflow = "ellipsis"
    return t


def compose(v: View, menu: Menu, events: Sequence[str], notes: Sequence[str] = (), page: int = 0,
            height: int = HEIGHT, width: int = WIDTH) -> Screen:
    """The whole screen of a decision; the options fill what is left of ``height`` (one line stays for the
    prompt), in pages."""
    top: list[RenderableType] = [_line(header(v)), small_map(v, width)]
    used = 1 + 7
    for i in (v.seat, 1 - v.seat) if v.seat is not None else (0, 1):
        if i == v.seat:  # the deciding seat's own line may take two lines
            mine = seat_line(v, i)
            text = _clip(mine.plain, 2, width)
            t = Text(text)
            t.stylize(SEAT_STYLES[i], 0, len(f"{v.tags[i]} you:"))
            top.append(t)
            used += text.count("\n") + 1
        else:
            top.append(_line(seat_line(v, i)))
            used += 1
    solo = automa_line(v)
    ev_lines = EVENT_LINES
    if solo is not None:  # the Automa's line takes an event line's place: the screen stays 24 high
        top.append(_line(solo))
        used += 1
        ev_lines -= 1
    shown = list(events)[-ev_lines:]
    track = track_line(v)
    if len(events) > ev_lines:
        track.append(f"| {len(events) - ev_lines} more events: show log", style="dim")
    else:
        track.append("| show track", style="dim")
    top.append(_line(track))
    used += 1
    for e in shown or ["(nothing new since your last decision)"]:
        top.append(_line("- " + e, "dim" if not shown else ""))
        used += 1
    for n in notes:
        top.append(_line(n, "green"))
        used += 1
    d = v.decision
    if d is not None:
        prompt = _clip(f"{v.tags[d.seat]} decides: {d.prompt}", 2, width)
        top.append(Text(prompt, style=SEAT_STYLES[d.seat]))
        used += prompt.count("\n") + 1
        if menu.title:
            top.append(_line(menu.title, "bold"))
            used += 1
    room = max(MIN_PAGE, height - 1 - used - 1)  # the prompt line, the footer line
    entries = menu.entries
    pages = max(1, (len(entries) + room - 1) // room)
    page = min(max(page, 0), pages - 1)
    grid = Table.grid(padding=(0, 1))
    grid.add_column(justify="right", style="bold cyan", no_wrap=True)
    grid.add_column(no_wrap=True, overflow="ellipsis", max_width=width - 5)
    for entry in entries[page * room:(page + 1) * room]:
        grid.add_row(entry.key + ")", entry.text)
    foot = "keys above, or: explain, rules, card NAME, show board|track|log|cards|opponent, help"
    if pages > 1:
        foot = f"page {page + 1}/{pages}: n next, p previous | " + foot
    return Screen(Group(*top, grid, _line(foot, "dim")), pages, page)
