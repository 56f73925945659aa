"""Detail panels of a seat's view with rich (``show board|track|cards|opponent|log``): the seat
panels, the private panel, the Triumph Track, the Meloch row, the combat, the events and the full
map. The compact screen drawn at every decision is ``meloch.cli.screen``; readable names come from
``names`` and option labels only from the engine's described options."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec
from rich.columns import Columns
from rich.console import RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from meloch.cli.names import (
    SEAT_STYLES,
    card_name,
    combat_card_name,
    combat_card_text,
    effects_text,
    section_text,
)
from meloch.cli.render_map import MAP_LEGEND, render_adjacency, render_map
from meloch.content import load
from meloch.engine import ExpView, ScytheView, View, location_name

_SHOWN_KEYS = {
    "role", "faction", "mat", "home", "power", "popularity", "coins", "combat_cards", "character", "mechs",
    "mech_slots", "workers", "workers_on_mat", "structures", "recruits", "enlist_bonuses", "top_upgrades",
    "bottom_cubes", "resources", "section", "factory_card", "map_tokens", "encounters", "stars_unplaced",
    "stars_discarded", "combat_wins", "mech", "companion", "loc", "guile", "hand", "active", "corruption",
    "solved", "upgraded", "melded", "token", "hero_trashed", "hand_cards", "hand_combat", "combat_card_ids",
}
"""Seat fields with their own row or panel; any other field of the view is listed as it is."""


def _j(view: View) -> dict[str, Any]:
    """The JSON form, for the ``names`` helpers that read it."""
    out: dict[str, Any] = msgspec.to_builtins(view)
    return out


def seat_tag(view: View, seat: int) -> str:
    return view.tags[seat]


__all__ = [
    "SEAT_STYLES",
    "card_name",
    "combat_card_name",
    "render_adjacency",
    "render_board",
    "render_combat",
    "render_events",
    "render_header",
    "render_map",
    "render_meloch",
    "render_private",
    "render_seats",
    "render_track",
]

# ---------------------------------------------------------------- seats, track, Meloch row


def _kv(table: Table, key: str, value: Any) -> None:
    if value in (None, "", [], ()):
        value = "-"
    if isinstance(value, list | tuple):
        value = ", ".join(str(x) for x in value)
    table.add_row(key, str(value))


def _seat_table(view: View, i: int) -> Table:
    p = view.seats[i]
    me = view.seat == i
    role = "scythe" if isinstance(p, ScytheView) else "expeditions"
    title = f"{seat_tag(view, i)} {role.capitalize()}" + (" (you)" if me else "")
    t = Table(title=title, title_style=SEAT_STYLES[i], show_header=False, box=None, pad_edge=False)
    t.add_column(style="dim", no_wrap=True)
    t.add_column(overflow="fold")
    stars = view.stars[i]
    if isinstance(p, ScytheView):
        c = load()
        fac = c.factions.get(p.faction)
        mat = c.mats.get(p.mat)
        _kv(t, "faction", f"{fac.name if fac else p.faction} / {mat.name if mat else p.mat} mat")
        _kv(t, "stars", f"{stars} placed, {p.stars_unplaced} unplaced, {p.stars_discarded} discarded")
        _kv(t, "power/pop/$", f"{p.power} / {p.popularity} / ${p.coins}")
        _kv(t, "combat cards", p.combat_cards)
        sec = p.section
        _kv(t, "action token", "-" if sec < 0 else "Factory card" if sec == 4
            else section_text(_j(view), i, str(sec + 1)))
        _kv(t, "character", p.character)
        _kv(t, "mechs", [f"{loc} (slot {s + 1})" for loc, s in zip(p.mechs, p.mech_slots, strict=False)])
        _kv(t, "workers", f"{len(p.workers)} on board, {p.workers_on_mat} on mat")
        _kv(t, "resources", [f"{n} {r} on {loc}" for loc, r, n in p.resources])
        _kv(t, "structures", [f"{k} on {loc}" for k, loc in p.structures])
        _kv(t, "recruits", p.recruits)
        _kv(t, "upgrades", [x.replace("_", " ") for x in p.top_upgrades])
        _kv(t, "cost cubes", p.bottom_cubes)
        _kv(t, "factory card", p.factory_card)
        _kv(t, "tokens/enc.", f"{p.map_tokens} map tokens, {p.encounters} encounters")
        _kv(t, "combat wins", p.combat_wins)
    else:
        c = load()
        mech = c.mechs.get(p.mech)
        _kv(t, "mech", f"{mech.name if mech else p.mech} at {p.loc}")
        _kv(t, "hero", f"{card_name(p.character)} + {card_name(p.companion)}")
        _kv(t, "stars", stars)
        _kv(t, "power/guile/$", f"{p.power} / {p.guile} / ${p.coins}")
        _kv(t, "action token", p.token)
        _kv(t, "workers", p.workers)
        _kv(t, "hand", [card_name(x) for x in p.hand_cards] or f"{p.hand} card(s)")
        _kv(t, "combat cards", p.combat_cards)
        _kv(t, "active row", [card_name(cid) + (f" [{w}]" if w else "") for cid, w in p.active])
        _kv(t, "corruption", [f"{col} {val}" for col, val in p.corruption])
        _kv(t, "map tokens", p.map_tokens)
        _kv(t, "solved", [card_name(x) for x in p.solved])
        _kv(t, "upgraded", [card_name(x) for x in p.upgraded])
        _kv(t, "melded", [card_name(x) for x in p.melded])
        _kv(t, "combat wins", p.combat_wins)
    fields = msgspec.to_builtins(p)
    for key in sorted(set(fields) - _SHOWN_KEYS):
        if fields[key] not in (None, "", [], (), False, 0):
            _kv(t, key.replace("_", " "), fields[key])
    return t


def render_seats(view: View) -> Table:
    """Both seats' public state side by side."""
    grid = Table.grid(padding=(0, 2), expand=False)
    grid.add_column(ratio=1)
    grid.add_column(ratio=1)
    grid.add_row(_seat_table(view, 0), _seat_table(view, 1))
    return grid


def render_private(view: View) -> RenderableType | None:
    """The viewer's own cards in full (hand, combat cards) and secrets (peeks). None for a spectator."""
    seat = view.seat
    if seat is None:
        return None
    p = view.seats[seat]
    t = Table(show_header=False, box=None, pad_edge=False)
    t.add_column(style="dim", no_wrap=True)
    t.add_column(overflow="fold")
    if isinstance(p, ExpView):
        c = load()
        lines = []
        for cid in p.hand_cards:
            card = c.cards.get(cid)
            if card is None:
                lines.append(cid)
                continue
            lines.append(f"{card.name} ({card.kind} {cid}; {card.core} {card.core_value}, "
                         f"{card.worker} worker): {card.ability_text}")
        t.add_row("hand", "\n".join(lines) or "-")
    cards = [f"{name}: {combat_card_text(cid)}" if combat_card_text(cid) else str(name)
             for cid, name in zip(p.combat_card_ids or (), p.hand_combat or (), strict=False)]
    t.add_row("combat cards", "\n".join(cards) or "-")
    if view.known:
        t.add_row("you know", "\n".join(view.known))
    return Panel(t, title=f"{seat_tag(view, seat)} private (only you see this)", border_style=SEAT_STYLES[seat],
                 title_align="left")


def render_track(view: View) -> Table:
    """The Triumph Track: each category's requirement per role and the stars placed on it."""
    side = load().tracks[view.setup.track_side]
    t = Table(title=f"Triumph Track {side.id}  (stars: " + ", ".join(
        f"{seat_tag(view, i)} {view.stars[i]}/{view.setup.seats[i].stars_to_win}" for i in (0, 1)) + ")",
        pad_edge=False, expand=False)
    t.add_column("#", justify="right")
    t.add_column("Scythe needs")
    t.add_column("Expeditions needs")
    t.add_column("stars")
    for k, cat in enumerate(side.categories):
        col = view.track[k] if k < len(view.track) else ()
        stars = Text()
        for s in col:
            stars.append(f"*{seat_tag(view, s)} ", style=SEAT_STYLES[s])
        t.add_row(str(cat.column), cat.scythe.label, cat.expeditions.label, stars)
    return t


def render_meloch(view: View) -> Text:
    """The Meloch row, card by card with what each half gives each role, and the deck sizes."""
    cards = {m.id: m for m in load().meloch_cards}
    out = Text()
    out.append("Meloch row (oldest first)", style="bold")
    if not view.meloch_row:
        out.append(": empty")
    for i, (cid, rotated) in enumerate(view.meloch_row):
        m = cards.get(cid)
        if m is None:
            out.append(f"\n  {i + 1}. {cid}")
            continue
        halves = (m.right, m.left) if rotated else (m.left, m.right)
        out.append(f"\n  {i + 1}. {m.name} ({'rotated' if rotated else 'upright'})", style="bold")
        for side, h in zip(("left", "right"), halves, strict=True):
            out.append(f"\n     {side}: Scythe {effects_text(h.toward_scythe)}; "
                       f"Expeditions {effects_text(h.toward_expeditions)}")
    d = view.decks
    out.append(f"\nDecks: discovery {d.discovery}, combat {d.combat}, encounter {d.encounter},\n"
               f"Factory {d.factory}, Meloch {d.meloch}; map tokens set aside {view.map_token_supply}",
               style="dim")
    return out


def render_combat(view: View) -> RenderableType | None:
    """The combat in progress as the viewer may see it: who attacks where, who has set a dial, how many
    cards each side tucked, the viewer's own dial and cards (secret until the reveal), and after the
    reveal both sides' dials, cards and totals. None when no combat is in progress."""
    c = view.combat
    if c is None:
        return None
    att, dfd = c.attacker, c.defender
    t = Table(show_header=False, box=None, pad_edge=False)
    t.add_column(style="dim", no_wrap=True)
    t.add_column(overflow="fold")
    t.add_row("where", f"{seat_tag(view, att)} attacks {seat_tag(view, dfd)} on {location_name(view, c.loc)}; "
              "the attacker wins ties")
    me = view.seat
    for i in (att, dfd):
        tag = seat_tag(view, i)
        dial_i, cards_i = (c.dial_0, c.cards_0) if i == 0 else (c.dial_1, c.cards_1)
        if c.revealed and dial_i is not None:
            cards = [*(cards_i or ()), *(c.extra or ((), ()))[i]]
            text = f"dial {dial_i}, cards: {', '.join(cards) or 'none'}"
            drawn = (c.drawn or ((), ()))[i]
            if drawn:
                text += f", drawn: {', '.join(drawn)}"
            if c.totals:
                text += f"; total {c.totals[i]}"
        else:
            text = ("dial set" if c.committed[i] else "dial not set yet") + f", {c.tucked[i]} card(s) tucked"
            if i == me and dial_i is not None:
                text += (f"; yours (secret): dial {dial_i if dial_i >= 0 else 'not set'}, "
                         f"cards: {', '.join(cards_i or ()) or 'none'}")
        t.add_row(f"{tag} {'attacker' if i == att else 'defender'}", text)
    title = "Combat (revealed)" if c.revealed else "Combat in progress"
    return Panel(t, title=title, title_align="left", border_style="bold yellow", expand=False)


def render_events(lines: Sequence[str], title: str = "What happened") -> RenderableType:
    text = Text("\n".join(f"- {x}" for x in lines) if lines else "(nothing new)")
    return Panel(text, title=title, title_align="left", border_style="dim")


def render_header(view: View) -> Text:
    """One line: the turn, the setup, and the stars of both seats."""
    setup = view.setup
    head = Text()
    head.append(f"Turn {view.turn} of at most {setup.turn_limit}", style="bold")
    head.append(f"  |  {setup.map_side} map, Triumph Track {setup.track_side}"
                + ("" if setup.variant == "standard" else f", {setup.variant.replace('_', ' ')}") + "  |  ")
    for i in (0, 1):
        role = setup.seats[i].role.capitalize()
        head.append(f"{seat_tag(view, i)} {role} {view.stars[i]}/{setup.seats[i].stars_to_win} stars",
                    style=SEAT_STYLES[i])
        head.append("   " if i == 0 else "")
    return head


def render_board(view: View) -> Columns:
    """The map, the adjacency list and the legend, side by side when the terminal is wide enough."""
    return Columns([Panel(render_map(view), title="Map (north up)", title_align="left", expand=False),
                    Panel(render_adjacency(view), title="Adjacency", title_align="left", expand=False),
                    Text(MAP_LEGEND, style="dim")], padding=(0, 1))
