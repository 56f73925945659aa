"""The C path of ``meloch.rl`` (``meloch/rl/_obsc.c``) against the Python one on what random games
rarely reach: unknown ids, a finished game, combats at every stage, bad input; and the switch
between the paths. (``test_rl.py`` compares both paths with the view-based encoding at every step.)"""

from __future__ import annotations

import os
import random
import subprocess
import sys

import msgspec
import numpy as np
import pytest

from meloch.engine import ExpGlance, Setup, apply, glance, legal_actions, new_game, outcome
from meloch.engine.contract import CombatView
from meloch.rl import actions as A
from meloch.rl import native
from meloch.rl import observe as O


def _glances(seed: int, every: int = 9) -> list:
    s, rng, out = new_game(Setup(), seed), random.Random(seed), []
    n = 0
    while outcome(s) is None:
        if n % every == 0:
            out += [glance(s, 0), glance(s, 1)]
        s = apply(s, rng.choice(legal_actions(s)))
        n += 1
    return [*out, glance(s, 0), glance(s, 1)]  # (the finished game: decider -1)


def _variants(g):
    """``g`` and copies with the parts the random games seldom show: unknown kinds, locations and
    cards, corruption stacks, combats before and after the reveal."""
    rep = msgspec.structs.replace
    yield g
    yield rep(g, kind="no-such-kind", decider=g.seat)
    yield rep(g, decider=-1, kind="")
    yield rep(g, map_tokens=("nowhere", *g.map_tokens, *g.map_tokens), lakes=(*g.lakes, "nowhere"))
    locs = O._content_ids()[0]
    yield rep(g, corruption=((locs[0], (("guile", 2), ("power", 3), ("guile", 1))), ("nowhere", (("power", 1),)),
                             (locs[3], ())))
    yield rep(g, combat=CombatView(loc=locs[1], attacker=g.seat, defender=1 - g.seat, revealed=False, tucked=(2, 0),
                                   committed=(True, False), dial_0=3 if g.seat == 0 else None,
                                   dial_1=5 if g.seat == 1 else None))
    yield rep(g, combat=CombatView(loc=locs[1], attacker=1 - g.seat, defender=g.seat, revealed=True, tucked=(1, 3),
                                   committed=(True, True), dial_0=0, dial_1=7, totals=(11, 17)), known=3)
    yield rep(g, seats=tuple(_odd_seat(x) for x in g.seats))


def _odd_seat(x):
    """A seat part with unknown ids, units piled on one location, and resources."""
    rep = msgspec.structs.replace
    locs, cards = O._content_ids()[:2]
    if isinstance(x, ExpGlance):
        return rep(x, hand_cards=("no-card", *cards[:3]), melded=cards[-2:], token="all", loc="nowhere")
    return rep(x, mechs=(locs[2], locs[2], "nowhere"), character="nowhere",
               resources=((locs[2], "oil", 3), (locs[2], "food", 2), ("nowhere", "wood", 1)))


def test_the_c_encoder_equals_the_reference_on_rare_glances(path: str) -> None:
    n = 0
    for seed in (1, 2):
        for g in _glances(seed):
            for v in _variants(g):
                assert np.array_equal(O.encode(v), O.encode_full(v)), (path, v)
                n += 1
    assert n > 200


def test_the_c_encoder_rejects_what_is_not_a_glance() -> None:
    if not native.use(True):
        pytest.fail(f"the C path cannot run: {native.why_not()}")
    g = glance(new_game(Setup(), 1), 0)
    with pytest.raises(TypeError, match="Glance"):
        O.encode(O.from_view)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        O.encode(msgspec.structs.replace(g, track=[[0]]))  # (a list where the glance has tuples)
    with pytest.raises(ValueError, match="seat"):
        O.encode(msgspec.structs.replace(g, seat=2))
    # after an error the encoder rewrites every block: the next vector is still exact
    assert np.array_equal(O.encode(g), O.encode_full(g))


def test_the_c_mask_is_the_python_mask() -> None:
    if not native.use(True):
        pytest.fail(f"the C path cannot run: {native.why_not()}")
    for idx in ([], [0], [5, 5, 17], [A.size() - 1, -1, -A.size()], range(0, A.size(), 97), {3: None, 9: None}):
        m = A.mask_from(idx)
        assert m.dtype == np.int8 and m.flags.writeable and np.array_equal(m, A.mask_from_py(idx))
    first = A.mask_from([1])
    first[:] = 7  # (a user's array is its own)
    for bad in ([1, A.size()], [-A.size() - 1]):
        with pytest.raises(IndexError):
            A.mask_from(bad)
    with pytest.raises(TypeError):
        A.mask_from(["a"])  # type: ignore[list-item]
    assert np.array_equal(A.mask_from([2]), A.mask_from_py([2]))  # (zero again after each call and error)


def test_the_paths_switch_and_say_which_runs() -> None:
    assert native.use(True) and O.NATIVE and native.path().startswith("C")
    try:
        assert not native.use(False) and not O.NATIVE and A.mask_from is A.mask_from_py
        assert native.path().startswith("Python")
    finally:
        native.use(True)
    code = "from meloch.rl import native; print(native.path())"
    env = {**os.environ, native.PURE_ENV: "1"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout
    assert out.startswith("Python") and native.PURE_ENV in out


def test_the_c_indices_are_the_python_indices() -> None:
    """The ``Indexer``'s table gives ``indices_py``'s indices for every legal action of varied games
    (both variants' seat tags), and an action outside the space is the same clear error."""
    from meloch.engine import Action
    from meloch.scenario.games import varied_setup

    if not native.use(True):
        pytest.fail(f"the C path cannot run: {native.why_not()}")
    for i in range(6):
        s, rng = new_game(varied_setup(i), i), random.Random(i)
        while outcome(s) is None:
            legal = legal_actions(s)
            assert A.indices(legal) == A.indices_py(legal) == A.indices(legal)
            s = apply(s, rng.choice(legal))
    long_key = Action("S", "move", ("char", "x" * 60, "y"))  # (longer than a table entry holds)
    for bad in (long_key, Action("S", "no-such-verb")):
        with pytest.raises(A.ActionSpaceError):
            A.indices([bad])
    assert A.indices([Action("S", "end")]) == [A.encode(Action("S", "end"))]


def test_a_build_that_does_not_fit_runs_the_python_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """An editable install whose C sources changed since the build: the Python path, and why."""
    from types import SimpleNamespace

    def stale(**kw: object) -> None:
        raise TypeError("'glance' is an invalid keyword argument")

    fake = SimpleNamespace(Encoder=stale, Indexer=stale, Masker=stale)
    monkeypatch.setattr(native, "modules", lambda: (fake, fake))
    monkeypatch.setattr(native, "_BROKEN", [])
    try:
        assert not native.use(True) and not O.NATIVE and A.indices is A.indices_py
        assert "do not fit" in native.path()
    finally:
        monkeypatch.undo()
        native.use(True)
    assert O.NATIVE and native.path().startswith("C")
