"""Which build of the agents' search code runs: pure Python (the default) or the optional mypyc build.

``make fast`` compiles ``COMPILED_MODULES`` (the evaluation and the searches: what every search node
runs) next to their sources, as it does the engine; this module (never compiled, imported first by
``meloch/agents/__init__.py``) uses them only while every agents source matches the build's manifest
and ``MELOCH_PURE`` is unset (``meloch.compiled``). The compiled modules make the same choices as the
sources (the slow test ``tests/test_mypyc.py`` plays agent games with both and compares every action);
they only run faster: the evaluation's Python was about a third of an ISMCTS iteration (docs/speed.md).
"""

from __future__ import annotations

from pathlib import Path

from meloch import compiled

AGENTS = Path(__file__).resolve().parent

COMPILED_MODULES = ("evaluate.py", "heuristic.py", "ismcts.py", "flat.py")
"""What ``tools/mypyc_build.py`` compiles here (read from this source by the build, not imported)."""


def stale_reason(root: Path = AGENTS) -> str:
    """Why the compiled agents modules under ``root`` must not run ("" when they match their sources)."""
    return compiled.stale_reason(root)


COMPILED: bool = compiled.select(AGENTS, compiled.PureFinder("meloch.agents."))
"""True when the agents' search code runs the mypyc build (``make fast``), False for pure Python."""
