"""The typed contract: JSON Schemas of the view and of events, checked-in copies, fuzzed validation.

Views and events of random games over varied setups are validated with the real ``jsonschema``
package against the schemas ``meloch schema view|event`` prints, so a field that the types do not
declare (or a value of the wrong type) fails here, as it would in a client written against them.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from pathlib import Path

import jsonschema
import msgspec
from typer.testing import CliRunner

from meloch.cli.main import app
from meloch.cli.schema_cmd import schema_text
from meloch.engine import (
    SeenEvent,
    Setup,
    State,
    View,
    apply,
    decision,
    events_for,
    flow,
    from_json,
    legal_actions,
    new_game,
    to_json,
    view,
    view_json,
)
from meloch.engine.cards import combat_type
from meloch.engine.contract import CombatResolved, CombatRevealed, Drawn, event_schema, view_schema
from meloch.scenario.games import random_game, varied_setup

DOCS = Path(__file__).parent.parent / "docs" / "schema"
N_VIEWS = 1000


def test_checked_in_schemas_are_up_to_date() -> None:
    for part in ("view", "event"):
        on_disk = (DOCS / f"{part}.json").read_text(encoding="utf-8")
        assert on_disk == schema_text(part), f"docs/schema/{part}.json is stale: run `meloch schema {part}`"


def test_schema_command_prints_the_schemas() -> None:
    runner = CliRunner()
    for part in ("view", "event"):
        r = runner.invoke(app, ["schema", part])
        assert r.exit_code == 0, r.output
        assert json.loads(r.output) == json.loads(schema_text(part))
    bad = runner.invoke(app, ["schema", "nope"])
    assert bad.exit_code != 0 and "Traceback" not in bad.output


def _validators() -> tuple[jsonschema.Draft202012Validator, jsonschema.Draft202012Validator]:
    vs, es = view_schema(), event_schema()
    jsonschema.Draft202012Validator.check_schema(vs)
    jsonschema.Draft202012Validator.check_schema(es)
    return jsonschema.Draft202012Validator(vs), jsonschema.Draft202012Validator(es)


def test_fuzzed_views_and_events_validate() -> None:
    """1,000 views (seats 0, 1 and the spectator) of random games, and every event each one sees; more
    games while a common event kind is still unseen (a star is a few steps a game, and which steps are
    sampled moves with the content), up to 100 games."""
    vv, ev = _validators()
    rng = random.Random(11)
    checked = events = g = 0
    kinds: set[str] = set()
    common = {"Moved", "Changed", "Drawn", "StarPlaced"}
    while (checked < N_VIEWS or not common <= kinds) and g < 100:
        for s, _a in random_game(varied_setup(g), 90_000 + g):
            if rng.random() > 0.05:
                continue
            for seat in (0, 1, None):
                v = view_json(s, seat)
                errors = sorted(vv.iter_errors(v), key=lambda e: list(e.path))
                assert not errors, f"game {g} step {s.step} seat {seat}: {errors[0].message} at {list(errors[0].path)}"
                for e in events_for(s.events, seat):
                    data = msgspec.json.decode(msgspec.json.encode(e))
                    bad = list(ev.iter_errors(data))
                    assert not bad, f"game {g} step {s.step} seat {seat}: event {data}: {bad[0].message}"
                    if e.data is not None:
                        kinds.add(type(e.data).__name__)
                    events += 1
                checked += 1
        g += 1
    assert events > checked  # events were seen, not just views
    assert common <= kinds, kinds


def test_the_schema_rejects_what_the_types_do_not_declare() -> None:
    vv, ev = _validators()
    v = view_json(new_game(Setup(), 1), 0)
    assert not list(vv.iter_errors(v))
    v["turn"] = "three"
    assert list(vv.iter_errors(v))
    bad_event = {"kind": "move", "seat": 0, "text": "x", "data": {"kind": "moved", "unit": "mech"}}
    assert list(ev.iter_errors(bad_event))  # frm and to are required


def test_spectator_view_is_the_same_type() -> None:
    s = new_game(Setup(), 2)
    assert isinstance(view(s, None), View) and isinstance(view(s, 0), View)
    assert view(s, None).seat is None


def _play_until(pred: Callable[[State], bool], seed: int, limit: int = 4000,
                before: list[State] | None = None) -> State | None:
    """The first state of a random game (seed ``seed``) for which ``pred`` holds, or None; the
    state before it is appended to ``before``."""
    s = prev = new_game(Setup(), seed)
    rng = random.Random(seed)
    for _ in range(limit):
        if pred(s):
            if before is not None:
                before.append(prev)
            return s
        if decision(s) is None:
            break
        prev, s = s, apply(s, rng.choice(legal_actions(s)))
    return None


def test_a_drawn_combat_card_is_named_only_to_its_owner() -> None:
    def drew(s: State) -> bool:
        return any(isinstance(e.data, Drawn) and e.data.deck == "combat" and e.private_to >= 0
                   for e in s.events)

    for seed in range(1, 40):
        s = _play_until(drew, seed)
        if s is None:
            continue
        e = next(x for x in s.events if isinstance(x.data, Drawn) and x.private_to >= 0)
        owner = e.private_to
        mine = [x for x in events_for(s.events, owner) if isinstance(x.data, Drawn) and x.data.cards]
        theirs = [x for x in events_for(s.events, 1 - owner) + events_for(s.events, None)
                  if isinstance(x.data, Drawn) and x.data.deck == "combat"]
        assert mine and all(len(x.data.cards) == x.data.count for x in mine if isinstance(x.data, Drawn))
        assert theirs and all(x.private and not x.data.cards for x in theirs if isinstance(x.data, Drawn))
        return
    raise AssertionError("no private combat draw in 40 games")


def test_combat_events_carry_each_cards_value() -> None:
    def resolved(s: State) -> bool:
        return any(isinstance(e.data, CombatResolved) for e in s.events)

    for seed in range(1, 200):
        s = _play_until(resolved, seed, 20_000)
        if s is None:
            continue
        seen: list[SeenEvent] = events_for(s.events, None)
        r = next(x.data for x in seen if isinstance(x.data, CombatResolved))
        for side in (r.attacker, r.defender):
            assert all(c.value == combat_type(c.id).value and c.name == combat_type(c.id).name for c in side.cards)
            assert side.total >= side.dial >= 0
        if r.attacker.total != r.defender.total:
            bigger = r.attacker if r.attacker.total > r.defender.total else r.defender
            assert r.winner == bigger.seat
        return
    raise AssertionError("no combat resolved in 200 games")


def test_combat_reveal_names_cards_and_values() -> None:
    def revealed(s: State) -> bool:
        return any(isinstance(e.data, CombatRevealed) and not e.data.added for e in s.events)

    for seed in range(1, 200):
        before: list[State] = []
        s = _play_until(revealed, seed, 20_000, before)
        if s is None:
            continue
        sides = [x.data.side for x in events_for(s.events, None)
                 if isinstance(x.data, CombatRevealed) and not x.data.added]
        assert len(sides) == 2 and {sd.seat for sd in sides} == {0, 1}
        c = before[0].combat  # not yet revealed; the last commit may still be missing
        assert c is not None and not c.revealed
        for sd in sides:
            if c.dial[sd.seat] >= 0:
                assert sd.dial == c.dial[sd.seat] and [x.id for x in sd.cards] == list(c.cards[sd.seat])
            assert 0 <= sd.dial <= 7
            assert {x.id for x in sd.cards} <= set(before[0].seats[sd.seat].combat_cards)
            assert all(x.value == combat_type(x.id).value for x in sd.cards)
            assert not any(x.id in s.seats[sd.seat].combat_cards for x in sd.cards)
        return
    raise AssertionError("no combat reveal in 200 games")


def test_legal_actions_cache_serves_many_live_states() -> None:
    """Each state keeps its own options (a search holds many); they equal a fresh computation from
    a decoded copy (no cache), and a copy, a replace or the JSON form never carries them."""
    rng = random.Random(5)
    live: list[State] = []
    for s, _a in random_game(varied_setup(3), 77):
        if decision(s) is not None and rng.random() < 0.2:
            live.append(s)
    assert len(live) > 50
    for s in live:
        assert flow.cached_options(s) is not None  # apply remembered them
    for s in reversed(live):  # every old state still answers from its own slot
        fresh = from_json(to_json(s))
        assert flow.cached_options(fresh) is None
        assert [str(a) for a in legal_actions(s)] == [str(a) for a in legal_actions(fresh)]
    s = live[0]
    assert flow.cached_options(copy.copy(s)) is None
    assert flow.cached_options(msgspec.structs.replace(s, step=s.step)) is None
    assert b"_options" not in to_json(s)
    got = legal_actions(s)
    got.clear()  # the caller's list is its own
    assert legal_actions(s)
