"""Which implementation of the environments' per-decision work runs: the C extensions
``meloch.rl._obsc`` (the observation encoder) and ``meloch.rl._actc`` (the legal actions' indices and
the action mask), or the Python one.

Why two: in Python, encoding the deciding seat's observation and building its mask cost about half
the engine's own time per decision (``docs/rl.md``, "Throughput"); the C extension does the same
work in a fraction of that. The Python implementation stays: it is the reference the tests compare
the C one with at every step (both paths run in ``make test``), and the fallback when the
extensions are not built (``pip install`` builds it when a C compiler is there; without one the
install still works and says so) or when ``MELOCH_RL_PURE=1`` is set.

``meloch.rl.observe`` and ``meloch.rl.actions`` choose at import (``load``); ``use(False)`` /
``use(True)`` switches both at run time, and the engine's C ``glance`` with them (the tests run both
paths); ``path()`` says which runs (``meloch bench --rl`` prints it).
"""

from __future__ import annotations

import os
from functools import cache
from types import ModuleType

PURE_ENV = "MELOCH_RL_PURE"
"""Set to 1: the Python path, even when the extension is built."""


@cache
def _import() -> tuple[tuple[ModuleType, ModuleType] | None, str]:
    try:
        from meloch.rl import _actc, _obsc
    except ImportError as e:
        return None, f"the C extensions meloch.rl._obsc / _actc are not built ({e}); reinstall with a C compiler"
    return (_obsc, _actc), ""


def modules() -> tuple[ModuleType, ModuleType] | None:
    """The extension modules (``_obsc``, ``_actc``) when built, else None (``MELOCH_RL_PURE`` aside)."""
    return _import()[0]


def load() -> tuple[ModuleType, ModuleType] | None:
    """``modules()`` unless ``MELOCH_RL_PURE`` switches them off."""
    if os.environ.get(PURE_ENV, "") not in ("", "0"):
        return None
    return _import()[0]


def why_not() -> str:
    """Why the extension cannot run ("" when it can)."""
    return _import()[1]


_BROKEN: list[str] = []
"""Why the built extensions could not be set up (a build older than its sources), if so."""


def broken(e: Exception) -> None:
    """The extensions are built but do not fit this code (an editable install whose C sources changed
    since the build): remember why, and run the Python path (``path()`` says it)."""
    _BROKEN[:] = [f"the C extensions do not fit this code ({e}); reinstall (pip install -e .) to rebuild them"]


def use(native: bool) -> bool:
    """Switch the observation encoder and the mask to the C path (``native``) or the Python one.
    Returns whether the C path now runs (False when it was asked for but is not built)."""
    from meloch.engine import use_native_glance
    from meloch.rl import actions, observe

    on = native and modules() is not None and not _BROKEN
    observe._use(on)
    actions._use(on)
    glanced = use_native_glance(on)
    return observe.NATIVE and actions.NATIVE and glanced


def path() -> str:
    """Which path runs, as one line for people."""
    from meloch.engine import glance_is_native
    from meloch.rl import observe

    if observe.NATIVE:
        if not glance_is_native():
            return "C (meloch.rl._obsc, meloch.rl._actc); the engine's glance in Python (_glancec not built)"
        return "C (meloch.rl._obsc, meloch.rl._actc, meloch.engine._glancec)"
    if _BROKEN:
        return f"Python: {_BROKEN[0]}"
    if modules() is None:
        return f"Python: {why_not()}"
    return f"Python ({PURE_ENV} set)" if load() is None else "Python (switched by meloch.rl.native.use)"
