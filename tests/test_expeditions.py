"""The Expeditions player's rules: turn, Move, Play, Gather, corruption, hero worker, direction rule,
item ongoing abilities and every mech. Sources are named in each test's docstring."""

from __future__ import annotations

import pytest
from test_expeditions_helpers import drain, ex, legal, play, position, sc

from meloch.content import load
from meloch.content.schema import Effect
from meloch.engine import IllegalAction, SeatSetup, Setup, decision, view
from meloch.engine import effects as fx
from meloch.engine.combat import TOTAL_BONUS
from meloch.engine.expeditions.corruption import vanquish_cost
from meloch.engine.expeditions.turn import mech_destinations
from meloch.engine.model import Combat, Frame
from meloch.engine.track import metric
from meloch.engine.tx import Tx
from meloch.scenario.games import play as random_play
from meloch.scenario.invariants import check

MECHS = sorted(load().mechs)


# ---------------------------------------------------------------- turn


def test_token_cycle_refresh_all_then_cover_one() -> None:
    """ref §2.2: refresh -> all three -> cover one of Move/Play/Gather (take the other two) -> ...;
    a Refresh turn only when the token started on Move/Play/Gather."""
    s = position(token="refresh")
    assert legal(s)[:1] == ["E token all"] and "E token refresh" not in legal(s)
    s = position(token="all")
    assert [a for a in legal(s) if a.startswith("E token")] == ["E token move", "E token play", "E token gather"]
    s = position(token="move")
    assert [a for a in legal(s) if a.startswith("E token")] == ["E token play", "E token gather", "E token refresh"]
    s = play(s, "E token gather")
    assert decision(s) is not None and decision(s).kind == "e_actions"  # type: ignore[union-attr]
    assert {a for a in legal(s) if a.startswith("E do")} <= {"E do move", "E do play"}


def test_refresh_turn_returns_cards_and_workers() -> None:
    """ref §2.2: a Refresh turn returns all workers on active cards to the mat and all active cards
    to hand."""
    s = position(token="gather", hand=(), active=(("m01", "green"), ("m09", "")), exp={"workers": ("hero",)})
    s = play(s, "E token refresh")
    s = drain(s)
    p = ex(s)
    assert {"m01", "m09"} <= set(p.hand) and p.active == ()
    assert sorted(p.workers) == ["green", "hero"]


# ---------------------------------------------------------------- Move


def test_move_range_rivers_lakes_and_stops() -> None:
    """rulebook, Expeditions Special Notes: the mech may cross rivers, never enter lakes or use
    tunnels; it stops on a Scythe character or mech and passes Scythe workers."""
    s = position(exp={"loc": "1"}, scythe={"character": "home-s", "workers": ("2",), "workers_on_mat": 7})
    d = mech_destinations(s, 1)
    assert not any(x.startswith(("lake", "home")) for x in d)
    assert "9" in d  # 1 -> 2 (Scythe worker only: passed) -> 9 (across the river: 9 has only river links)
    s = position(exp={"loc": "1"}, scythe={"character": "2", "workers": (), "workers_on_mat": 8, "mechs": ("5",),
                                           "mech_slots": (0,)})
    d = mech_destinations(s, 1)
    assert "2" in d and "5" in d and "9" not in d  # the mech stops on 2 and 5


def test_move_is_taken_when_possible_and_range_1_to_3() -> None:
    s = position(exp={"loc": "6"})
    d = mech_destinations(s, 1)
    assert set(d) == {"1", "2", "3", "4", "5", "7", "8", "10"}  # 9 is 4 steps away
    s = position(mech="marsh_strider", exp={"loc": "6"})
    assert "9" in mech_destinations(s, 1)


def test_move_plus1_item_extends_range() -> None:
    """Item ongoing ``move_plus1`` (vocab.ONGOING), active with a worker on the active row."""
    s = position(exp={"loc": "6"}, active=(("i02", "green"),))
    assert "9" in mech_destinations(s, 1)
    s = position(exp={"loc": "6"}, active=(("i02", ""),))
    assert "9" not in mech_destinations(s, 1)


# ---------------------------------------------------------------- Play, trash, discard, hero worker


def test_play_needs_matching_worker_or_hero() -> None:
    """ref §2.4 and rulebook: the hero worker "is all worker colors"."""
    s = position(hand=("m01",), exp={"workers": ("red", "hero")})
    s = play(s, "E token all", "E do play", "E play m01")
    assert [a for a in legal(s)] == ["E worker hero", "E worker none"]
    with pytest.raises(IllegalAction) as e:
        play(s, "E worker red")
    assert e.value.code == "illegal_choice"


def test_trash_any_card_discard_only_discovery() -> None:
    """rulebook: trash = a discovery or a combat card; discard = a discovery card from hand to the
    active row without activating it."""
    s = position(hand=("m01", "m09"), exp={"combat_cards": (5,)})
    tx = Tx(s, load())
    tx.push(Frame(kind="e_actions", seat=1, items=("gather",)))
    fx.execute(tx, 1, Effect(op="trash"))
    opts = legal(tx.s)
    assert "E trash c5" in opts and "E trash m01" in opts and "E trash nikte" not in opts
    tx2 = Tx(s, load())
    tx2.push(Frame(kind="e_actions", seat=1, items=("gather",)))
    fx.execute(tx2, 1, Effect(op="discard"))
    opts = legal(tx2.s)
    assert "E discard m01" in opts and not any("c5" in a for a in opts)
    s2 = play(tx2.s, "E discard m01")
    assert ex(s2).active[-1] == ("m01", "") and ex(s2).guile == ex(s).guile


def test_hero_worker_counts_and_is_never_regained() -> None:
    """rulebook: the hero worker counts toward the "6 workers" category; "You cannot gain more hero
    workers, and if you trash your hero worker, you cannot regain it"."""
    s = position(exp={"workers": ("hero", "red"), "loc": "4"}, active=(("m01", "green"),))
    assert metric(s, 1, "workers") == 3
    tx = Tx(s, load())
    tx.push(Frame(kind="e_actions", seat=1, items=("gather",)))
    fx.pay(tx, 1, (Effect(op="worker"),), "test")
    assert legal(tx.s) == ["E pay-worker hero", "E pay-worker red"], "the player chooses the worker paid"
    s2 = play(tx.s, "E pay-worker red")
    assert ex(s2).workers == ("hero",)
    tx = Tx(s2, load())
    fx.pay(tx, 1, (Effect(op="worker"),), "test")  # one colour left: no decision
    p = ex(tx.s)
    assert p.workers == () and p.hero_trashed
    tx.push(Frame(kind="e_actions", seat=1, items=("gather",)))
    fx.execute(tx, 1, Effect(op="worker", arg="any"))
    assert "E worker-colour hero" not in legal(tx.s)


def test_power_and_guile_capped_at_10() -> None:
    s = position(exp={"power": 9, "guile": 10})
    tx = Tx(s, load())
    fx.execute(tx, 1, Effect(op="power", n=3))
    fx.execute(tx, 1, Effect(op="guile", n=1))
    assert ex(tx.s).power == 10 and ex(tx.s).guile == 10


# ---------------------------------------------------------------- Gather, corruption, Vanquish


def test_gather_takes_every_exposed_benefit() -> None:
    """ref §2.5: gain all exposed benefits of the location ("/" = choose one)."""
    s = position(exp={"loc": "7", "power": 0, "guile": 0, "workers": ()})
    s = play(s, "E token all", "E do gather")
    assert legal(s) == ["E option 1", "E option 2"] or ex(s).workers == ("green",)
    s = drain(s)
    assert "green" in ex(s).workers and ex(s).power + ex(s).guile == 1


def test_vanquish_pays_top_token_and_clears_stack() -> None:
    """ref §2.4: Vanquish pays the top token's value in its colour, gains it, may repeat; clearing
    the stack exposes its benefit for later Gathers."""
    s = position(exp={"loc": "8", "power": 10, "guile": 10})
    stack = dict(s.corruption)["8"]
    s = play(s, "E token all", "E do gather")
    assert "E vanquish stop" in legal(s)
    s = play(s, "E vanquish corruption", "E vanquish corruption")
    p = ex(s)
    assert set(p.corruption) == set(stack) and "8" in s.revealed and "8" not in dict(s.corruption)
    spent = 20 - p.power - p.guile
    from meloch.engine.track import token
    assert spent == sum(token(t)[1] for t in stack)


def test_vanquish_discounts_lumberjack_and_item() -> None:
    """Lumberjack (ref §2.8): the first corruption of each colour costs 1 less; item
    ``vanquish_discount``: the first token of each Vanquish costs 1 less."""
    s = position(mech="lumberjack", exp={"loc": "8"})
    f = Frame(kind="e_vanquish", seat=1)
    from meloch.engine.track import token
    colour, value = token(dict(s.corruption)["8"][-1])
    assert vanquish_cost(s, 1, f) == (colour, value - 1)
    assert vanquish_cost(s, 1, Frame(kind="e_vanquish", seat=1, count=1, items=(colour,))) == (colour, value)
    s = position(exp={"loc": "8"}, active=(("i04", "yellow"),))
    assert vanquish_cost(s, 1, f) == (colour, value - 1)


def test_nohoch_vanquish_may_gain_revealed_benefit() -> None:
    """rulebook Appendix (Nohoch): "If this Vanquish removes the location's final corruption, you
    may gain the revealed benefit"."""
    s = position(hand=("nohoch",), exp={"loc": "8", "power": 10, "guile": 10, "workers": ("hero",)})
    s = play(s, "E token all", "E do play", "E play nohoch", "E worker hero", "E option 2",
             "E vanquish corruption", "E vanquish corruption")
    assert decision(s).kind == "one_of"  # type: ignore[union-attr]
    assert "8" in s.revealed


def test_attack_option_only_with_scythe_units_and_costs_nothing() -> None:
    """rulebook Combat (a); AMB-46 (a), AMB-49 (a): Vanquish may attack Scythe units on the
    location instead of corruption, paying nothing but the dial."""
    s = position(exp={"loc": "8", "power": 0, "guile": 0}, scythe={"character": "8"})
    s = play(s, "E token all", "E do gather")
    assert "E vanquish attack" in legal(s) and "E vanquish corruption" not in legal(s)
    s2 = play(s, "E vanquish attack")
    assert s2.combat is not None and s2.combat.attacker == 1


def test_gather_coin_item() -> None:
    s = position(exp={"loc": "7", "coins": 0}, active=(("i05", "yellow"),))
    s = drain(play(s, "E token all", "E do gather"))
    assert ex(s).coins == 1


def test_combat_plus1_and_retreat_card_items() -> None:
    s = position(active=(("i01", "red"), ("i09", "red")), exp={"workers": ()})
    assert sum(h(s, 1) for h in TOTAL_BONUS) >= 1
    from meloch.engine import combat as cb
    s = s.__class__(**{f: getattr(s, f) for f in s.__struct_fields__})
    s.combat = Combat(loc="4", attacker=0, defender=1, dial=(0, 0), revealed=True)
    assert cb.total(s, 1) == 1
    tx = Tx(s, load())
    n = len(ex(s).combat_cards)
    for hook in cb.AFTER_LOSS:
        hook(tx, 1)
    assert len(ex(tx.s).combat_cards) == n + 1


def test_activate_adjacent_lake_card_and_ongoing_for_the_turn() -> None:
    """ref §2.5: activate an adjacent face-up card's ability without a worker; ongoing effects so
    activated last until the end of the turn."""
    s = position(exp={"loc": "3"})
    tx = Tx(s, load())
    tx.push(Frame(kind="turn_end", seat=1))
    fx.execute(tx, 1, Effect(op="activate_adjacent"))
    assert legal(tx.s) == ["E activate lake-w"]
    s4 = position(exp={"loc": "4"})
    tx = Tx(s4, load())
    fx.execute(tx, 1, Effect(op="activate_adjacent"))
    from meloch.engine.expeditions.draw import _activate_options
    assert _activate_options(tx.s, tx.s.frames[-1]) == []


# ---------------------------------------------------------------- duel phrases


def test_direction_rule_compares_with_scythe_character() -> None:
    """rulebook: "compare your mech's location to the Scythe character's location"; north is up
    from the Expeditions seat (AMB-38 (a))."""
    from meloch.engine.expeditions.direction import every_opponent
    s = position(exp={"loc": "4"}, scythe={"character": "home-s"})
    assert every_opponent(s, 1, "north") and not every_opponent(s, 1, "south")
    s = position(exp={"loc": "4"}, scythe={"character": "8"})
    assert every_opponent(s, 1, "south") and not every_opponent(s, 1, "north")


def test_peek_is_private_and_keeps_order() -> None:
    """rulebook: "Choose either the combat deck or the discovery deck (not 1 from each). Only you
    see these cards." AMB-42 (a): the order stays."""
    s = position(hand=("m04",), exp={"workers": ("purple",)})
    s = play(s, "E token all", "E do play", "E play m04", "E worker purple")
    assert legal(s) == ["E peek combat", "E peek discovery"]
    deck = s.combat_deck
    s = play(s, "E peek combat")
    assert s.combat_deck == deck
    assert view(s, 1).known and not view(s, 0).known
    assert any("peeks at the top 2 cards of the combat deck" in t for t in view(s, 0).events)


def test_opp_decrease_never_below_zero() -> None:
    s = position(scythe={"power": 0, "popularity": 1})
    tx = Tx(s, load())
    fx.execute(tx, 1, Effect(op="opp_decrease"))
    assert sc(tx.s).power == 0 and sc(tx.s).popularity == 0


# ---------------------------------------------------------------- mechs


def test_voyager_chooses_the_token_once_per_turn_anywhere() -> None:
    """rulebook Appendix (Voyager): "Once per turn, you may trash 1 corruption to Upgrade, Meld,
    or Boast ... anywhere"."""
    s = position(hand=("i05", "m01"), exp={"loc": "7", "corruption": (0, 11)})
    assert "E voyager upgrade" in legal(s) and "E voyager meld" in legal(s)
    s = play(s, "E voyager upgrade")
    assert legal(s) == ["E trash-corruption guile-2", "E trash-corruption power-3"]
    s = play(s, "E trash-corruption power-3", "E upgrade i05")
    assert ex(s).corruption == (0,) and ex(s).upgraded == ("i05",)
    assert not any(a.startswith("E voyager") for a in legal(s))


def test_tatanka_caps_at_5_others_at_4() -> None:
    """ref §2.7: solve/upgrade/meld capped at 4 per game, 5 with Tatanka."""
    from meloch.engine.expeditions.mechs import tuck_possible
    ups = ("i01", "i02", "i03", "i04")
    s = position(hand=("i05",), exp={"upgraded": ups})
    assert not tuck_possible(s, 1, "upgrade")
    s = s.__class__(**{f: getattr(s, f) for f in s.__struct_fields__})
    p = ex(s).__class__(**{f: getattr(ex(s), f) for f in ex(s).__struct_fields__})
    p.mech = "tatanka"
    s.seats = (s.seats[0], p)
    assert tuck_possible(s, 1, "upgrade")


def test_odins_wrath_trashes_supply_token() -> None:
    s = position(mech="odins_wrath", exp={"power": 0})
    n = len(s.map_token_supply)
    s = play(s, "E odins-wrath power")
    assert ex(s).power == 1 and len(s.map_token_supply) == n - 1
    assert not any(a.startswith("E odins-wrath") for a in legal(s))


def test_scarecrow_extra_action_on_refresh_turn() -> None:
    s = position(mech="scarecrow", token="move", exp={"map_tokens": ("mt1",), "loc": "7"})
    assert not any(a.startswith("E scarecrow") for a in legal(s))
    s = play(s, "E token refresh")
    assert "E scarecrow gather" in legal(s)
    s = play(s, "E scarecrow move")
    assert decision(s).kind == "e_move" and ex(s).map_tokens == ()  # type: ignore[union-attr]


def test_mole_gathers_covered_benefit() -> None:
    s = position(mech="mole", exp={"map_tokens": ("mt1",), "loc": "8", "power": 0, "guile": 0})
    s = play(s, "E token all", "E do gather")
    s = drain(s, stop=("e_mole", "e_actions"))
    assert legal(s) == ["E mole gather", "E mole no"]
    s = play(s, "E mole gather")
    assert decision(s).kind in ("e_upgrade", "e_actions")  # type: ignore[union-attr]
    assert ex(s).map_tokens == ()


def test_highlander_gained_card_to_hand() -> None:
    s = position(mech="highlander", exp={"loc": "3"})
    s = play(s, "E token all", "E do gather")
    lake_card = dict(s.lakes)["lake-w"]
    s = play(s, f"E take lake-w {lake_card}")
    assert legal(s) == ["E gained-to hand", "E gained-to row"]
    s = play(s, "E gained-to hand")
    assert lake_card in ex(s).hand


def test_marsh_strider_range() -> None:
    assert load().mechs["marsh_strider"].move_max == 4


# ---------------------------------------------------------------- random self-play


@pytest.mark.parametrize("mech", MECHS)
def test_selfplay_20_games_per_mech(mech: str) -> None:
    """Random self-play: 20 games with every mech end without error and keep every invariant."""
    for seed in range(20):
        side = ("jungle", "desert")[seed % 2]
        setup = Setup(map_side=side, track_side=("A", "B")[seed // 2 % 2],
                      seats=(SeatSetup(role="scythe"), SeatSetup(role="expeditions", mech=mech)))
        final, _ = random_play(setup, seed)
        assert final.winner >= 0, (mech, seed)
        assert not check(final), (mech, seed, check(final))


# ---------------------------------------------------------------- custom handlers documented


def test_every_custom_handler_is_registered_and_documented() -> None:
    """docs/content.md lists every ``effects.CUSTOM`` name; every ``custom`` in content has one."""
    from pathlib import Path

    doc = (Path(__file__).parent.parent / "docs" / "content.md").read_text()
    table = doc.split("### Custom handlers", 1)[1].split("\n## ", 1)[0]
    for name in fx.CUSTOM:
        assert f"| `{name}` |" in table, f"custom handler {name!r} is not documented in docs/content.md"
    c = load()
    used: set[str] = set()

    def walk(effects: tuple[Effect, ...]) -> None:
        for e in effects:
            if e.op == "custom":
                used.add(e.arg)
            for alt in e.one_of:
                walk(alt)

    for card in c.cards.values():
        for lst in (card.ability, card.meld, card.solve_cost, card.solve_gain):
            walk(lst)
    for fc in c.factory_cards:
        walk(fc.cost)
        walk(fc.gain)
    for mt in c.map_tokens:
        walk(mt.bonus)
    assert used <= set(fx.CUSTOM), used - set(fx.CUSTOM)
    assert {"south_power", "north_guile", "nikte", "nohoch"} <= used


def test_trash_discard_and_activate_adjacent_are_in_play() -> None:
    """The ops ``trash``, ``discard`` and ``activate_adjacent`` each appear in the content (stand-in
    discovery cards and gather lists), so they occur in real games."""
    c = load()
    ops = {e.op for card in c.cards.values() for e in card.ability}
    ops |= {e.op for m in c.maps.values() for lo in m.locations for e in (*lo.gather, *lo.revealed)}
    assert {"trash", "discard", "activate_adjacent"} <= ops
