"""Every call the server makes into the engine and the agents, in one place.

The engine's outward contract is changing (typed ``View``, described options, typed events, an
engine-side ``undo_point``, an agent registry); keeping the server's use of it here means the
switch touches this module only. Everything else in ``meloch.server`` handles ``State`` values as
opaque objects and JSON-ready builtins returned from here.
"""

from __future__ import annotations

import hashlib
import random
from functools import cache
from typing import Any, get_args

import msgspec

from meloch.agents import AUTOMA_NAMES, Sampler, agent_names, automa_option, choose_for, make_agent
from meloch.agents import with_engine_seats as registry_engine_seats
from meloch.agents.hints import reason_for
from meloch.content import get as content_get
from meloch.content.loader import DATA_DIR
from meloch.content.schema import Effect
from meloch.engine import (
    VARIANT_ROLES,
    Event,
    IllegalAction,
    Setup,
    SetupError,
    State,
    apply,
    decision,
    events_for,
    from_json,
    goals,
    legal_actions,
    new_game,
    options,
    outcome,
    parse,
    state_hash,
    to_json,
    view,
)
from meloch.engine import Variant as EngineVariant
from meloch.engine import undo_refusal as engine_undo_refusal
from meloch.engine.meloch_cards import visible_meloch
from meloch.guide import GLOSSARY, TOPICS, catalogue, effects_text

__all__ = [
    "AGENTS",
    "AGENT_CHOICES",
    "IllegalAction",
    "Refusal",
    "SetupError",
    "State",
    "agent_move",
    "content_texts",
    "content_version",
    "deciding_seat",
    "decode_setup",
    "encode_setup",
    "game_choices",
    "game_over",
    "initial_state",
    "known_agent",
    "map_geometry",
    "move",
    "outcome_of",
    "prompt_for",
    "rules_texts",
    "seat_count",
    "seat_events",
    "seat_forced",
    "seat_options",
    "seat_tag",
    "seat_view",
    "snapshot_decode",
    "snapshot_encode",
    "state_digest",
    "turn_of",
    "undo_event",
    "undo_refusal",
    "warm_up",
    "with_engine_seats",
]

AGENTS = tuple(agent_names())
"""Agent names a seat may be given: the agent registry's."""
AGENT_CHOICES = (*AGENTS, *AUTOMA_NAMES)
"""What a seat may be given at creation: an agent, or the solo Automa (a seat the rules play)."""


def known_agent(name: str) -> bool:
    """An agent of the registry, or a well-formed Automa name (``automa:3``, ``automa:5+threat``)."""
    if name in AGENTS:
        return True
    try:
        return automa_option(name) is not None
    except ValueError:
        return False


def with_engine_seats(setup: Setup, names: list[str]) -> Setup:
    """``setup`` with the seats named ``automa:N[+threat]`` played by the engine's Automa."""
    try:
        return registry_engine_seats(setup, names)
    except ValueError as err:
        raise Refusal("bad_agent", str(err)) from None


class Refusal(Exception):
    """An action the engine (or the undo rule) refused: ``code`` for programs, ``message`` for people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"[{code}] {message}")
        self.code = code
        self.message = message


@cache
def content_version() -> str:
    """A digest of the content files: a stored game replays only under the content it was played with."""
    h = hashlib.sha256()
    for path in sorted(DATA_DIR.rglob("*.yaml")):
        h.update(str(path.relative_to(DATA_DIR)).encode())
        h.update(b"\0")
        h.update(path.read_bytes())
    return h.hexdigest()[:16]


def map_geometry(side: str) -> dict[str, Any]:
    """The public geometry of map side ``side`` (locations with x/y and terrain, edges with rivers)
    for drawing the board; raises ``Refusal('not_found', ...)`` for an unknown side."""
    maps = content_get("").maps
    if side not in maps:
        raise Refusal("not_found", f"unknown map side {side!r}: use one of {', '.join(sorted(maps))}")
    m = maps[side]
    locs = [{"id": x.id, "kind": x.kind, "number": x.number, "terrain": x.terrain, "x": x.x, "y": x.y,
             "tunnel": x.tunnel, "factory": x.factory} for x in m.locations]
    edges = [{"a": e.a, "b": e.b, "river": e.river} for e in m.edges]
    return {"id": m.id, "name": m.name, "home_scythe": m.home_scythe, "home_expeditions": m.home_expeditions,
            "locations": locs, "edges": edges}


@cache
def game_choices() -> dict[str, Any]:
    """What the new-game screen offers, from the content and the agent registry: map and track sides,
    variants with their roles, factions, mats and mechs, the characters and companions, every
    registered agent and the Automa's levels (a seat named ``automa:N`` or ``automa:N+threat``)."""
    c = content_get("")
    cards = c.cards.values()
    automa = c.automa
    return {
        "map_sides": [{"id": m.id, "name": m.name} for m in c.maps.values()],
        "track_sides": sorted(c.tracks),
        "variants": [{"id": v, "roles": list(VARIANT_ROLES[v])} for v in get_args(EngineVariant)],
        "factions": [{"id": f.id, "name": f.name} for f in c.factions.values()],
        "mats": [{"id": m.id, "name": m.name, "number": m.number}
                 for m in sorted(c.mats.values(), key=lambda m: m.number)],
        "mechs": [{"id": m.id, "name": m.name} for m in c.mechs.values()],
        "characters": [{"id": d.id, "name": d.name} for d in cards if d.kind == "character"],
        "companions": [{"id": d.id, "name": d.name} for d in cards if d.kind == "companion"],
        "agents": list(AGENTS),
        "automa_levels": [] if automa is None else sorted(lv.level for lv in automa.levels),
        "default_turn_limit": Setup().turn_limit,
        "default_seat": msgspec.to_builtins(Setup().seats[0]),
        # the experience-disparity variant: the less experienced seat may win with 3 or 2 stars
        # (the engine's setup check refuses both seats under 4)
        "stars_to_win": [4, 3, 2],
    }


@cache
def content_texts() -> dict[str, Any]:
    """The public content catalogue for hover texts (``meloch.guide.catalogue``), plus what a mat and
    the Triumph Track look like (sections with their actions and costs; each box's two requirements)."""
    c = content_get("")
    return {
        "entries": [{"id": e.id, "name": e.name, "kind": e.kind, "text": e.text} for e in catalogue()],
        "mats": {m.id: {"name": m.name, "sections": [msgspec.to_builtins(s) for s in m.sections]}
                 for m in c.mats.values()},
        "tracks": {side: [{"column": k.column, "combat": k.combat,
                           "scythe": {"icon": k.scythe.icon, "label": k.scythe.label},
                           "expeditions": {"icon": k.expeditions.icon, "label": k.expeditions.label}}
                          for k in t.categories] for side, t in c.tracks.items()},
    }


def rules_texts() -> dict[str, Any]:
    """The rules panel: topics and the glossary (``meloch.guide``, the terminal's ``rules`` texts)."""
    return {"topics": dict(TOPICS), "glossary": dict(sorted(GLOSSARY.items()))}


def turn_of(state: State) -> int:
    """The turn number a spectator sees (for a replay's "jump to turn")."""
    return view(state, None).turn


def warm_up() -> None:
    """Load the content and start one game, so the first request does not pay for it."""
    content_version()
    new_game(Setup(), 0)


def decode_setup(data: Any) -> Setup:
    """A ``Setup`` from JSON builtins; raises ``Refusal('bad_setup', ...)`` with msgspec's reason."""
    try:
        return msgspec.convert(data if data is not None else {}, Setup)
    except msgspec.ValidationError as err:
        raise Refusal("bad_setup", f"bad setup: {err}") from None


def encode_setup(setup: Setup) -> dict[str, Any]:
    out: dict[str, Any] = msgspec.to_builtins(setup)
    return out


def initial_state(setup: Setup, seed: int) -> State:
    try:
        return new_game(setup, seed)
    except SetupError as err:
        raise Refusal("bad_setup", str(err)) from None


def seat_count(setup: Setup) -> int:
    return len(setup.seats)


def deciding_seat(state: State) -> int | None:
    d = decision(state)
    return None if d is None else d.seat


def game_over(state: State) -> bool:
    return decision(state) is None


def outcome_of(state: State) -> dict[str, Any] | None:
    o = outcome(state)
    return None if o is None else {"winner": o.winner, "reason": o.reason}


def seat_tag(state: State, seat: int) -> str:
    return str(seat_view(state, None)["tags"][seat])


def move(state: State, seat: int, text: str) -> tuple[State, str]:
    """Apply ``text`` for ``seat``: the new state and the action's canonical text.

    A seat may only act for itself: an action naming the other seat is refused as not its turn,
    before the engine sees it, so a client cannot move for its opponent.
    """
    try:
        action = parse(text)
    except IllegalAction as err:
        raise Refusal(err.code, err.message) from None
    d = decision(state)
    if d is None:
        raise Refusal("game_over", "The game is over; no action is allowed.")
    if d.seat != seat:
        raise Refusal("not_your_turn", f"It is {seat_tag(state, d.seat)}'s decision now, not yours.")
    if action.seat != seat:
        raise Refusal("not_your_seat", f"You play {seat_tag(state, seat)}; '{action.who}' is not your seat.")
    try:
        return apply(state, action), str(action)
    except IllegalAction as err:
        raise Refusal(err.code, err.message) from None


def seat_view(state: State, seat: int | None) -> dict[str, Any]:
    """The engine's view for ``seat`` (None: spectator) as JSON builtins (dict today, Struct later)."""
    out: dict[str, Any] = msgspec.to_builtins(view(state, seat))
    return out


def seat_events(events: tuple[Event, ...], seat: int | None) -> list[dict[str, Any]]:
    """The events ``seat`` (None: a spectator) may see, typed (``SeenEvent``) as JSON builtins."""
    return [msgspec.to_builtins(e) for e in events_for(events, seat)]


def public_extras(state: State) -> dict[str, Any]:
    """What the view does not spell out but a player reads off the table, the same for every seat
    and spectators (each figure is a count of public things): ``progress[seat]``, each Triumph column
    on that seat's edge as ``{"column", "label", "have", "need", "open"}`` (the engine's ``goals``),
    and ``meloch_facing[seat]``, the benefits of the visible Meloch halves facing that seat, as text
    (the engine's ``visible_meloch``)."""
    n = seat_count(state.setup)
    progress = [[{"column": c, "label": label, "have": have, "need": need, "open": is_open}
                 for c, _metric, label, have, need, is_open in goals(state, s)] for s in range(n)]
    facing = [effects_text(_summed(visible_meloch(state, s))) if state.meloch_row else "" for s in range(n)]
    return {"progress": progress, "meloch_facing": facing}


def _summed(effects: list[Effect]) -> list[Effect]:
    """Like benefits added up for reading ("coins +3", not "coins +1, coins +2"); choices stay apart."""
    out: list[Effect] = []
    for e in effects:
        same = next((i for i, x in enumerate(out)
                     if not e.one_of and not x.one_of and (x.op, x.arg) == (e.op, e.arg)), None)
        if same is None:
            out.append(e)
        else:
            out[same] = msgspec.structs.replace(out[same], n=out[same].n + e.n)
    return out


def hint(state: State, seat: int, seed: int, agent: str = "heuristic") -> dict[str, Any] | None:
    """The option agent ``agent`` would pick for ``seat`` now (None unless it decides), with the
    one-line reason the terminal's hint gives (``reason_for``): both read only the seat's
    information, so a hint knows nothing the seat does not."""
    d = decision(state)
    if d is None or d.seat != seat:
        return None
    action = agent_move(state, seat, agent, seed)
    label = next((o.label for o in options(state) if o.action == action), action)
    reason = reason_for(Sampler(state, seat), parse(action), seed)
    return {"action": action, "label": label, "agent": agent, "reason": reason}


def prompt_for(state: State, seat: int | None) -> dict[str, Any] | None:
    """The current decision as ``seat`` may see it (the view's own, so a prompt never leaks)."""
    d = seat_view(state, seat)["decision"]
    return None if d is None else dict(d)


def seat_options(state: State, seat: int | None) -> list[dict[str, Any]]:
    """The deciding seat's described options (``options(state)``: action, label, group, cost, gain,
    refs, free) as JSON builtins; empty for every other seat and spectators."""
    d = decision(state)
    if d is None or seat is None or d.seat != seat:
        return []
    out: list[dict[str, Any]] = msgspec.to_builtins(options(state))
    return out


def seat_forced(state: State, seat: int | None) -> bool:
    """True when ``seat`` decides now and has exactly one option (a client may take it unasked)."""
    d = decision(state)
    return d is not None and seat is not None and d.seat == seat and d.forced


def undo_event(state: State, seat: int, text: str) -> tuple[Event, ...]:
    """The event an accepted undo records (the undone action was the seat's own and public)."""
    return (Event(kind="undo", text=f"{seat_tag(state, seat)} took back '{text}'.", seat=seat),)


def undo_refusal(before: State, after: State, text: str, seat: int) -> str | None:
    """Why the action ``text`` (``before`` -> ``after``) may not be undone by ``seat``; None if it may:
    the engine's undo policy (``meloch.engine.undo_refusal``)."""
    if parse(text).seat != seat:
        return "the last action was your opponent's, not yours."
    return engine_undo_refusal(before, after, seat)


def agent_move(state: State, seat: int, agent: str, seed: int) -> str:
    """The move agent ``agent`` makes for ``seat`` (seeded, so a retried computation agrees)."""
    if agent not in AGENTS:
        raise Refusal("bad_agent", f"unknown agent {agent!r}: use one of {', '.join(AGENTS)}")
    legal = legal_actions(state)
    assert legal and legal[0].seat == seat, "agent_move asks the deciding seat"
    bot = make_agent(agent, random.Random(seed).getrandbits(63))
    return str(choose_for(bot, state, legal))


def state_digest(state: State) -> str:
    return state_hash(state)


def snapshot_encode(state: State) -> bytes:
    return to_json(state)


def snapshot_decode(data: bytes) -> State:
    return from_json(data)
