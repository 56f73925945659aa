"""The engine's C ``glance`` (``meloch/engine/_glancec.c``) against the Python one (``glance_py``):
equal glances, and the same remembered parts handed back as the same objects, at every step of
varied random games for both seats, in determinized copies, and on bad input. ``make test``
installs with a C compiler, so the C glance must be built here (a missing build fails)."""

from __future__ import annotations

import random
import sys

import pytest

from meloch.engine import (
    AutomaSetup,
    Setup,
    apply,
    determinize,
    glance,
    glance_is_native,
    legal_actions,
    new_game,
    outcome,
    use_native_glance,
)
from meloch.scenario.games import varied_setup

G = sys.modules["meloch.engine.glance"]  # (the package's ``glance`` attribute is the function)


@pytest.fixture(autouse=True)
def _native_on() -> object:
    if not use_native_glance(True):
        pytest.fail("meloch.engine._glancec is not built: reinstall with a C compiler (pip install -e .)")
    yield
    use_native_glance(True)


def _both(state: object, seat: int) -> tuple[object, object]:
    use_native_glance(True)
    c = glance(state, seat)  # type: ignore[arg-type]
    use_native_glance(False)
    p = glance(state, seat)  # type: ignore[arg-type]
    use_native_glance(True)
    return c, p


SETUPS = [varied_setup(i) for i in range(8)] + [
    Setup(automa=AutomaSetup(seat=0, level=5, threat=True)), Setup(automa=AutomaSetup(seat=1, level=3))]
"""Varied setups (both sides, every faction, mat and mech, a variant) and the solo game on both sides."""


@pytest.mark.parametrize("i", range(len(SETUPS)))
def test_c_glance_equals_python_glance_at_every_step(i: int) -> None:
    s, rng = new_game(SETUPS[i], i), random.Random(i)
    seen = {"combat": 0, "corruption": 0, "steps": 0}
    while True:
        for seat in rng.sample((0, 1), 2):
            c, p = _both(s, seat)
            assert c == p, (i, s.step, seat)
        seen["combat"] += s.combat is not None
        seen["corruption"] += any(getattr(x, "corruption", ()) for x in s.seats)
        seen["steps"] += 1
        if outcome(s) is not None:
            break
        s = apply(s, rng.choice(legal_actions(s)))
    assert glance(s, 0).decider == -1  # (the finished game)
    assert seen["steps"] > 30  # (a random player against the Automa lasts a few turns)


def test_the_games_reach_combat_and_corruption() -> None:
    """The parts C leaves to Python (combat, an Expeditions seat with corruption) occur in the games
    above, so the comparison covers the hand-over both ways."""
    combat = corruption = 0
    for i in range(8):
        s, rng = new_game(varied_setup(i), i), random.Random(i)
        while outcome(s) is None:
            combat += s.combat is not None
            corruption += any(getattr(x, "corruption", ()) for x in s.seats)
            s = apply(s, rng.choice(legal_actions(s)))
    assert combat > 0 and corruption > 0


def test_unchanged_parts_come_back_as_the_same_objects() -> None:
    """What the encoder's memo relies on: a part whose source did not change (or changed only in
    what the glance does not read) is the very object handed out before, on the C path as on the
    Python one."""
    s, rng = new_game(Setup(), 3), random.Random(3)
    same = 0
    prev = glance(s, 0)
    for _ in range(300):
        if outcome(s) is not None:
            break
        s = apply(s, rng.choice(legal_actions(s)))
        g = glance(s, 0)
        for a, b in zip(prev.seats, g.seats, strict=True):
            if a == b:
                assert a is b
                same += 1
        if g.map_tokens == prev.map_tokens:
            assert g.map_tokens is prev.map_tokens
        prev = g
    assert same > 100


def test_determinized_copies_glance_alike() -> None:
    s, rng = new_game(varied_setup(4), 4), random.Random(4)
    n = 0
    while outcome(s) is None:
        if n % 11 == 0:
            for seat in (0, 1):
                d = determinize(s, seat, random.Random(n))
                c, p = _both(d, seat)
                assert c == p == glance(s, seat)
        s = apply(s, rng.choice(legal_actions(s)))
        n += 1


def test_bad_input_gets_the_python_errors() -> None:
    s = new_game(Setup(), 1)
    assert glance_is_native() and type(glance).__name__ == "Glancer"
    for bad in (2, -1, "0", None):
        with pytest.raises(ValueError, match="seat must be 0 or 1"):
            glance(s, bad)  # type: ignore[arg-type]
    with pytest.raises(AttributeError):
        glance("not a state", 0)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        glance(s)  # type: ignore[call-arg]
    assert glance(s, seat=1) == G.glance_py(s, 1)  # (keywords: the Python path)


def test_the_switch() -> None:
    assert use_native_glance(False) is False and not glance_is_native()
    assert use_native_glance(True) is True and glance_is_native()


def test_a_glancer_that_is_not_set_up_refuses_clearly() -> None:
    from meloch.engine import _glancec

    g = _glancec.Glancer.__new__(_glancec.Glancer)
    with pytest.raises(RuntimeError, match="not set up"):
        g(new_game(Setup(), 1), 0)
    kw = {name: int for name in ("state_type", "setup_type", "frame_type", "known_type", "scythe_seat",
                                 "exp_seat", "glance_type", "scythe_glance", "exp_glance")}
    with pytest.raises(AttributeError):  # (int has no field "setup")
        _glancec.Glancer(**kw, memo={}, new_memo=lambda s, c: [], refresh=print, combat=print, fallback=print)


def test_without_the_c_build_glance_is_python() -> None:
    """An install without a C compiler has no ``_glancec``: ``glance`` is ``glance_py`` and works."""
    import subprocess

    code = ("import sys; sys.modules['meloch.engine._glancec'] = None\n"
            "from meloch.engine import Setup, glance, glance_is_native, new_game, use_native_glance\n"
            "import meloch.engine.glance\n"
            "g = sys.modules['meloch.engine.glance']\n"
            "assert not glance_is_native() and glance is g.glance_py and use_native_glance(True) is False\n"
            "assert glance(new_game(Setup(), 1), 0).seat == 0\n"
            "print('python glance')\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and "python glance" in r.stdout, r.stderr
