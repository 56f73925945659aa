"""The engine's speed work keeps the rules: the incremental Triumph check (``Tx.touched``) never
misses a star that the full check would place, and a hand-built state is checked in full."""

from __future__ import annotations

import msgspec

from meloch.content import get
from meloch.engine import Setup, apply, legal_actions, new_game
from meloch.engine.game_content import using
from meloch.engine.model import ScytheSeat, State
from meloch.engine.track import met, side
from meloch.scenario.games import random_game, varied_setup


def _missed(s: State) -> list[tuple[int, int]]:
    """(seat, column) of every open non-combat category a Scythe seat meets while it has a star
    to place: what the full check would have placed before this decision."""
    with using(get(s.setup.content)):
        cats = side(s).categories
        return [(seat, i) for seat, p in enumerate(s.seats)
                if isinstance(p, ScytheSeat) and p.stars_unplaced > 0
                for i, cat in enumerate(cats) if not s.track[i] and met(s, seat, cat)]


def test_incremental_star_check_misses_nothing() -> None:
    games = [g for g in range(40) if any(x.role == "scythe" for x in varied_setup(g).seats)][:10]
    assert any(varied_setup(g).variant == "scythe_vs_scythe" for g in games)
    steps = 0
    for g in games:
        for s, _a in random_game(varied_setup(g), 70_000 + g):
            if s.winner < 0:
                assert not _missed(s), f"game {g} step {s.step}: {_missed(s)}"
            steps += 1
    assert steps > 1000


def test_a_hand_built_state_is_checked_in_full() -> None:
    """A patched state carries no 'settled' mark: its first step places the star it earned."""
    s = new_game(Setup(), 4)
    sc = next(i for i, p in enumerate(s.seats) if isinstance(p, ScytheSeat))
    p = s.seats[sc]
    assert isinstance(p, ScytheSeat)
    with using(get("")):
        col = next(i for i, c in enumerate(side(s).categories) if not c.combat and c.scythe.metric == "power")
        need = side(s).categories[col].scythe.n
    patched = msgspec.structs.replace(s, seats=tuple(
        msgspec.structs.replace(q, power=need) if i == sc else q for i, q in enumerate(s.seats)))
    assert _missed(patched) == [(sc, col)]
    after = apply(patched, legal_actions(patched)[0])
    assert sc in after.track[col]
    assert not _missed(after)
