"""Described options (``meloch.engine.options``): one label, group, cost/gain and references per legal
action, in the order of ``legal_actions``, for every verb the engine offers."""

from __future__ import annotations

import re

import msgspec
import pytest

from meloch.content import load
from meloch.engine import Option, Setup, legal_actions, new_game, options, replay
from meloch.engine.describe import DESCRIBERS
from meloch.engine.model import ExpSeat, State
from meloch.scenario.games import random_game, varied_setup

GAMES = 14


def _ref_exists(state: State, kind: str, ident: str) -> bool:
    c = load()
    if kind == "location":
        return any(lo.id == ident for lo in c.maps[state.setup.map_side].locations)
    if kind == "card":
        return ident in c.cards or any(f.id == ident for f in c.factory_cards)
    if kind == "combat_card":
        return re.fullmatch(r"c\d+", ident) is not None and int(ident[1:]) < sum(t.count for t in c.combat_cards)
    if kind == "track_box":
        return any(str(cat.column) == ident for cat in c.tracks[state.setup.track_side].categories)
    if kind == "map_token":
        return any(m.id == ident for m in c.map_tokens)
    if kind == "resource":
        return ident in ("food", "metal", "oil", "wood")
    if kind == "section":
        return ident in ("1", "2", "3", "4", "factory") or ident.startswith("tech-")
    return bool(ident)


def _hand(state: State, seat: int) -> set[str]:
    return {f"c{i}" for i in state.seats[seat].combat_cards}


def _check(state: State, opts: list[Option]) -> None:
    legal = legal_actions(state)
    assert [o.action for o in opts] == [str(a) for a in legal]  # same order as legal_actions
    labels = [o.label for o in opts]
    assert len(set(labels)) == len(labels), labels  # unique within the decision
    seat = legal[0].seat
    other_hand = _hand(state, 1 - seat) - _hand(state, seat)
    for o, a in zip(opts, legal, strict=True):
        assert a.verb in DESCRIBERS, f"no describer for {a.verb!r}"
        assert o.label and o.group
        for arg in a.args:  # no raw ids where a name exists
            if re.fullmatch(r"c\d+", arg) or arg in load().cards:
                assert not re.search(rf"(?<![\w#]){re.escape(arg)}\b", o.label), (o.label, arg)
        for cid in other_hand:  # nor named in words
            assert not re.search(rf"#{cid[1:]}\b", o.label), (o.label, cid)
        for r in o.refs:
            assert _ref_exists(state, r.kind, r.id), (o.action, r)
            # the other seat's combat cards are never named
            assert not (r.kind == "combat_card" and r.id in other_hand and a.verb != "keep"), (o.action, r)


@pytest.mark.parametrize("i", range(GAMES))
def test_every_option_of_fuzzed_games_is_described(i: int) -> None:
    setup = varied_setup(i)
    setup = Setup(map_side=setup.map_side, track_side=setup.track_side, variant=setup.variant, seats=setup.seats,
                  turn_limit=70, base_factory_cards=setup.base_factory_cards, base_encounters=setup.base_encounters)
    verbs: set[str] = set()
    for s, a in random_game(setup, 900 + i):
        if a is None:
            break
        opts = options(s)
        _check(s, opts)
        verbs.update(o.group for o in opts)
    assert verbs


def test_groups_collect_like_options_and_the_move_labels_name_places() -> None:
    # The Scythe seat's first Move: character and worker moves are separate groups.
    s = replay(Setup(), 35237, ["E token all", "E do move", "E move 1", "E do play", "E play nikte",
                                "E worker hero", "E option 1", "E do gather", "S section 2", "S top move"])
    opts = options(s)
    groups = {o.group for o in opts}
    assert {"move char", "move worker"} <= groups
    char = [o for o in opts if o.group == "move char"]
    assert all(o.label.startswith("Move your character from home-s (S home) to ") for o in char)
    assert all([r.kind for r in o.refs] == ["unit", "location", "location"] for o in char)


def test_costs_and_gains_where_the_engine_knows_them() -> None:
    seen = {"discard-combat": 0, "pay": 0}
    for i in range(4):
        for st, a in random_game(Setup(turn_limit=60), 5 + i):
            if a is None:
                break
            for o in options(st):
                verb, args = o.action.split()[1], o.action.split()[2:]
                if verb == "discard-combat":
                    seen[verb] += 1
                    assert o.free and o.cost and o.cost[0].startswith("combat card ")
                if verb == "pay" and args[0] != "coerce":
                    seen[verb] += 1
                    assert o.cost == (f"{args[1]} 1",)
                    assert [r.kind for r in o.refs] == ["location", "resource"]
    assert all(seen.values()), seen


def test_options_for_the_expeditions_mech_move_name_the_start() -> None:
    s = replay(Setup(), 3, ["E token all", "E do move"])
    p = s.seats[1]
    assert isinstance(p, ExpSeat)
    for o in options(s):
        assert o.group == "move mech"
        assert o.label.startswith(f"Move your mech from {p.loc} ")


def test_unknown_verbs_still_get_words() -> None:
    from meloch.engine import Action
    from meloch.engine.describe import describe_action

    s = new_game(Setup(), 1)
    o = describe_action(s, s.frames[-1], Action("E", "brand-new-verb", ("x",)))
    assert o.label == "Brand new verb x" and o.group == "brand-new-verb"


def test_bottom_actions_and_produce_show_their_costs() -> None:
    """A bottom-row action shows its mat cost (less upgrade cubes) and coins; Produce its cost by
    workers once four or more are on the board (the Scythe role registers these in describe.DETAILS)."""
    bottoms = produce_costed = 0
    for i in range(6):
        for s, a in random_game(msgspec.structs.replace(varied_setup(i), turn_limit=80), 700 + i):
            if a is None:
                break
            for o in options(s):
                verb, arg = o.action.split()[1:3] if len(o.action.split()) > 2 else ("", "")
                if verb == "bottom" and arg not in ("skip", "factory-move"):
                    bottoms += 1
                    assert o.gain and o.gain[0].startswith("$"), o
                    assert all(re.fullmatch(r"\d+ (oil|metal|food|wood)", c) for c in o.cost), o
                if verb == "top" and arg == "produce" and o.cost:
                    produce_costed += 1
                    assert all(c.split()[0] in ("power", "popularity", "coins") for c in o.cost), o
    assert bottoms > 0 and produce_costed > 0
