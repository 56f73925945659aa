"""Which build of the engine runs: pure Python (the default) or the optional mypyc build.

``make fast`` (``tools/mypyc_build.py``) compiles the hot engine modules with mypyc into extension
modules next to their sources and writes ``MANIFEST`` with the SHA-256 of every engine source. This
module (never compiled, imported first by ``meloch/engine/__init__.py``) uses them only while every
source matches and ``MELOCH_PURE`` is unset; otherwise every ``meloch.engine`` module loads from its
``.py`` file (``meloch.compiled``, shared with the agents' build). ``COMPILED`` says which build is in
use (``meloch bench`` prints it).
"""

from __future__ import annotations

from pathlib import Path

from meloch import compiled
from meloch.compiled import PURE_ENV, source_digest

__all__ = ["COMPILED", "ENGINE", "MANIFEST", "NOT_MYPYC", "PURE_ENV", "PureFinder", "extension_files",
           "source_digest", "stale_reason"]

ENGINE = Path(__file__).resolve().parent
MANIFEST = ENGINE / compiled.MANIFEST
"""Written by the build: {"module/path.py": sha256 of its source when compiled}."""

NOT_MYPYC = ("_glancec.",)
"""Extension modules under the engine that are not the mypyc build: the C ``glance`` (``_glancec.c``,
built by every install, with its Python fallback in ``glance.py``)."""


def extension_files(root: Path = ENGINE) -> list[Path]:
    """Modules of the mypyc build (``.so``/``.pyd``) under ``root``."""
    return compiled.extension_files(root, NOT_MYPYC)


def stale_reason(root: Path = ENGINE) -> str:
    """Why the compiled modules under ``root`` must not run ("" when they match their sources)."""
    return compiled.stale_reason(root)


class PureFinder(compiled.PureFinder):
    """Loads ``meloch.engine`` modules from their ``.py`` sources, never from a compiled file."""

    def __init__(self) -> None:
        super().__init__("meloch.engine.")


COMPILED: bool = compiled.select(ENGINE, PureFinder(), NOT_MYPYC)
"""True when the engine runs the mypyc build (``make fast``), False for pure Python."""
