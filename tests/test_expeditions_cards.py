"""One test per Expeditions card and map token, parametrised over content: a card without an entry
here fails ``test_every_card_has_a_test``.

Each card is played from hand with a worker of its own colour (reference.md §2.4: "Gain its core
value ... and/or place a matching-colour worker on it to activate its ability"), from the mech on
the Factory (4, jungle), which holds a corruption stack; the Scythe character is on its home base
(north) unless a case says otherwise.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from test_expeditions_helpers import drain, ex, first, legal, play, position, sc

from meloch.content import load
from meloch.engine import State, decision
from meloch.engine.cards import card
from meloch.engine.effects import GUILE_CAP
from meloch.engine.expeditions.items import sources


@dataclass
class Case:
    choices: tuple[str, ...] = ()
    """Actions after the worker is placed; a bare verb means "the first legal action of that verb"."""
    check: Callable[[State, State], None] = lambda before, after: None
    hand: tuple[str, ...] = ()
    exp: dict[str, Any] = field(default_factory=dict)
    scythe: dict[str, Any] = field(default_factory=dict)
    state: dict[str, Any] = field(default_factory=dict)


def _eq(path: Callable[[State], Any], delta: int) -> Callable[[State, State], None]:
    def chk(b: State, a: State) -> None:
        assert path(a) - path(b) == delta, (path(b), path(a))
    return chk


def _all(*checks: Callable[[State, State], None]) -> Callable[[State, State], None]:
    def chk(b: State, a: State) -> None:
        for c in checks:
            c(b, a)
    return chk


combat = _eq(lambda s: len(ex(s).combat_cards), 1)
combat2 = _eq(lambda s: len(ex(s).combat_cards), 2)
row1 = _eq(lambda s: len(ex(s).active), 1)


def peeked(b: State, a: State) -> None:
    assert any(k.seat == 1 and k.kind == "peek" for k in a.known)


def swept(b: State, a: State) -> None:
    assert dict(a.lakes)["lake-w"] != dict(b.lakes)["lake-w"]
    assert dict(b.lakes)["lake-w"] in a.discovery_discard


def opp_decreased(b: State, a: State) -> None:
    assert sc(a).power == sc(b).power - 1 and sc(a).popularity == sc(b).popularity - 1


CASES: dict[str, Case] = {
    # items
    "i01": Case(check=combat),
    "i02": Case(choices=("take",), check=row1),
    "i03": Case(choices=("E peek discovery",), check=_all(peeked, row1)),
    "i04": Case(check=opp_decreased),
    "i05": Case(check=_eq(lambda s: ex(s).coins, 2)),
    "i06": Case(hand=("m01",), choices=("E discard m01",), check=_all(
        combat2, lambda b, a: None if ex(a).active[-1] == ("m01", "") and ex(a).guile == ex(b).guile
        else pytest.fail("m01 discarded to the row without its core value"))),
    "i07": Case(check=_eq(lambda s: len(ex(s).corruption), 1)),
    "i08": Case(choices=("E adjacent 7 1",), check=lambda b, a: None if "green" in ex(a).workers else pytest.fail()),
    "i09": Case(state={"map_token_supply": ("mt1", "mt2", "mt3", "mt4", "mt6", "mt7", "mt8", "mt9", "mt5")},
                check=_all(
        _eq(lambda s: len(ex(s).map_tokens), 1), _eq(lambda s: ex(s).guile, 2))),
    "i10": Case(hand=("m01",), choices=("E meld m01",), check=lambda b, a: None if ex(a).melded == ("m01",)
                else pytest.fail()),
    # meteorites
    "m01": Case(check=_eq(lambda s: ex(s).guile, 1)),
    "m02": Case(exp={"combat_cards": (5,)}, choices=("E trash c5",), check=_all(
        _eq(lambda s: ex(s).coins, 3), _eq(lambda s: len(ex(s).combat_cards), -1),
        lambda b, a: None if 5 in a.combat_trash else pytest.fail("trashed combat card to the trash"))),
    "m03": Case(choices=("E sweep lake-w", "E sweep done"), check=swept),
    "m04": Case(choices=("E peek combat",), check=peeked),
    "m05": Case(scythe={"character": "7"}, check=_eq(lambda s: ex(s).power, 2)),
    "m06": Case(choices=("E rescue m06",), check=lambda b, a: None if "m06" in ex(a).hand else pytest.fail()),
    "m07": Case(choices=("take",), check=row1),
    "m08": Case(choices=("E draw2 combat-combat", "keep"), check=combat),
    "m09": Case(check=lambda b, a: None if ex(a).active[-1] == ("m09", "purple") else pytest.fail()),
    "m10": Case(check=opp_decreased),
    # quests
    "q01": Case(check=_eq(lambda s: ex(s).guile, 2)),
    "q02": Case(exp={"loc": "5"}, check=_all(combat, _eq(lambda s: ex(s).coins, 2))),  # gather_here on 5
    "q03": Case(choices=("E peek discovery",), check=peeked),
    "q04": Case(check=combat),
    "q05": Case(check=lambda b, a: None if not ex(a).active and "q05" in ex(a).hand else pytest.fail()),
    "q06": Case(exp={"power": 5, "guile": 5}, choices=("E vanquish corruption", "E vanquish stop"),
                check=_eq(lambda s: len(ex(s).corruption), 1)),
    "q07": Case(choices=("E sweep lake-w", "E sweep done"), check=swept),
    "q08": Case(hand=("m09",), choices=("E play m09", "E worker none"),
                check=lambda b, a: None if ex(a).active[-1] == ("m09", "") else pytest.fail()),
    "q09": Case(check=opp_decreased),
    "q10": Case(check=row1),
    # character and companion
    "nikte": Case(choices=("E option 1",), state={}, exp={"workers": ("hero", "green")},
                  check=lambda b, a: None if "purple" in ex(a).workers else pytest.fail()),
    "nohoch": Case(exp={"coins": 1, "workers": ("hero", "yellow")}, choices=("E option 1",),
                   check=_all(_eq(lambda s: len(ex(s).corruption), 1), _eq(lambda s: ex(s).coins, -1))),
}


def test_every_card_has_a_test() -> None:
    assert set(CASES) == set(load().cards)


@pytest.mark.parametrize("cid", sorted(load().cards))
def test_card(cid: str) -> None:
    case = CASES[cid]
    c = card(cid)
    active: tuple[tuple[str, str], ...] = ()
    exp: dict[str, Any] = {"loc": "4", "power": 0, "guile": 0, "coins": 0, "workers": ("hero", c.worker)}
    if cid == "nikte":
        active = (("m09", "purple"),)
    exp.update(case.exp)
    s = position(hand=(cid, *case.hand), active=active, exp=exp, scythe=case.scythe, state=case.state)
    s = play(s, "E token all", "E do play", f"E play {cid}")
    before = s
    assert getattr(ex(s), c.core) == min(c.core_value + exp[c.core], GUILE_CAP), "core value gained on play"
    s = play(s, f"E worker {c.worker}")
    for ch in case.choices:
        s = play(s, ch if " " in ch else first(s, ch))
    s = drain(s)
    case.check(before, s)


# ---------------------------------------------------------------- quests: Solve via Nikte


@pytest.mark.parametrize("qid", sorted(k for k, v in load().cards.items() if v.kind == "quest"))
def test_quest_solve(qid: str) -> None:
    """Each quest is solved at each of its 2 locations (rulebook: "Each quest card has 2 locations
    where it can be solved"), paying its cost; Nikte's Solve then gains the core value of all
    solved quests, this one included (AMB-35 (a))."""
    q = card(qid)
    for loc in q.solve_locations:
        # The supply's top map token is mt1 (combat cards only), so a map_token gain cannot change
        # the power/guile/coins checked below.
        supply = ("mt2", "mt3", "mt4", "mt5", "mt6", "mt7", "mt8", "mt9", "mt1")
        s = position(hand=("nikte", qid), exp={"loc": loc, "power": 5, "guile": 5, "coins": 5,
                                               "workers": ("hero", "green", "red"), "combat_cards": (0,)},
                     state={"map_tokens": (), "map_token_supply": supply})
        if any(e.op == "map_token" for e in q.solve_cost):
            s = position(hand=("nikte", qid), exp={"loc": loc, "power": 5, "guile": 5, "coins": 5,
                                                   "workers": ("hero", "green"), "map_tokens": ("mt1",)})
        s = play(s, "E token all", "E do play", "E play nikte", "E worker green", "E option 2")
        assert f"E solve {qid}" in legal(s)
        b = s
        s = play(s, f"E solve {qid}")
        assert ex(s).solved == (qid,)
        assert qid not in ex(s).hand
        for e in q.solve_cost:
            if e.op in ("power", "guile", "coins"):
                gained_core = q.core_value if q.core == e.op else 0
                assert getattr(ex(s), e.op) <= getattr(ex(b), e.op) - e.n + gained_core + 2
        s = drain(s)
        assert ex(s).solved == (qid,)


def test_quest_not_solvable_elsewhere() -> None:
    s = position(hand=("nikte", "q01"), exp={"loc": "4", "power": 5, "workers": ("hero", "green")})
    s = play(s, "E token all", "E do play", "E play nikte", "E worker green", "E option 2")
    d = decision(s)
    assert d is not None and d.kind != "e_solve"


# ---------------------------------------------------------------- meteorites: meld bonus; items: upgrade


@pytest.mark.parametrize("mid", sorted(k for k, v in load().cards.items() if v.kind == "meteorite"))
def test_meteorite_meld_bonus(mid: str) -> None:
    """Meld tucks the meteorite and gains the meld bonus of every melded meteorite (ref §2.5)."""
    s = position(hand=(mid,), exp={"corruption": (0,), "loc": "4", "power": 0, "guile": 0, "coins": 0})
    s = play(s, "E voyager meld", "E trash-corruption guile-2", f"E meld {mid}")
    assert ex(s).melded == (mid,)
    s = drain(s, stop=("e_token",))
    p = ex(s)
    assert p.power + p.guile + p.coins + len(p.combat_cards) >= 1, "a meld bonus was gained"


@pytest.mark.parametrize("iid", sorted(k for k, v in load().cards.items() if v.kind == "item"))
def test_item_upgrade(iid: str) -> None:
    """Upgrade tucks the item; only its ongoing ability remains, for the rest of the game."""
    s = position(hand=(iid,), exp={"corruption": (0,), "loc": "4"})
    s = play(s, "E voyager upgrade", "E trash-corruption guile-2", f"E upgrade {iid}")
    assert ex(s).upgraded == (iid,)
    assert iid not in ex(s).hand
    ongoing = card(iid).ongoing
    assert sources(s, 1) == ([ongoing] if ongoing else [])


# ---------------------------------------------------------------- map tokens


TOKEN_CHECKS: dict[str, Callable[[State, State], None]] = {
    "mt1": combat2,
    "mt2": _all(combat, _eq(lambda s: ex(s).coins, 1)),
    "mt3": _all(combat, _eq(lambda s: ex(s).power, 1)),
    "mt4": _eq(lambda s: ex(s).power, 2),
    "mt5": _eq(lambda s: ex(s).guile, 2),
    "mt6": _eq(lambda s: ex(s).coins, 3),
    "mt7": _eq(lambda s: len(ex(s).workers), 1),
    "mt8": row1,
    "mt9": _all(row1, _eq(lambda s: ex(s).guile, 1)),
}


def test_every_map_token_has_a_test() -> None:
    assert set(TOKEN_CHECKS) == {t.id for t in load().map_tokens}


@pytest.mark.parametrize("tid", sorted(t.id for t in load().map_tokens))
def test_map_token_bonus_on_arrival(tid: str) -> None:
    """The mech stops on the token and first gains its secret bonus (rulebook, Expeditions
    Special Notes); no corruption is added."""
    supply = tuple(t.id for t in load().map_tokens if t.id != tid)
    s = position(exp={"loc": "home-e", "power": 0, "guile": 0, "coins": 0, "workers": ()},
                 state={"map_tokens": (("7", tid),), "map_token_supply": supply})
    s = play(s, "E token all", "E do move")
    assert "E move 7" in legal(s)
    assert "E move 6" not in legal(s), \
        "the mech must stop on the map token at 7"
    b = s
    cor = s.corruption
    s = play(s, "E move 7")
    s = drain(s)
    assert ex(s).map_tokens == (tid,)
    assert s.corruption == cor
    TOKEN_CHECKS[tid](b, s)
