"""Which build of the engine runs: pure Python (the default) or the optional mypyc build.

``make fast`` (``tools/mypyc_build.py``) compiles the hot engine modules with mypyc into extension
modules next to their sources and writes ``MANIFEST`` with the SHA-256 of every compiled source.
Python prefers an extension module to a ``.py`` of the same name, so a build left behind after a
source changed would silently run old rules. This module (never compiled, imported first by
``meloch/engine/__init__.py``) refuses that: when the manifest is missing, any compiled source has
changed since the build, or ``MELOCH_PURE=1`` is set, it installs an import finder that loads every
``meloch.engine`` module from its ``.py`` file, so the pure-Python engine runs. ``COMPILED`` says
which build is in use (``meloch bench`` prints it).
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from collections.abc import Sequence
from importlib.machinery import EXTENSION_SUFFIXES, ModuleSpec, SourceFileLoader
from importlib.util import spec_from_file_location
from pathlib import Path
from types import ModuleType

ENGINE = Path(__file__).resolve().parent
MANIFEST = ENGINE / "_mypyc_manifest.json"
"""Written by the build: {"module/path.py": sha256 of its source when compiled}."""
PURE_ENV = "MELOCH_PURE"


NOT_MYPYC = ("_glancec.",)
"""Extension modules under the engine that are not the mypyc build: the C ``glance`` (``_glancec.c``,
built by every install, with its Python fallback in ``glance.py``)."""


def extension_files(root: Path = ENGINE) -> list[Path]:
    """Modules of the mypyc build (``.so``/``.pyd``) under ``root``."""
    return sorted(p for p in root.rglob("*") if any(p.name.endswith(s) for s in EXTENSION_SUFFIXES)
                  and not p.name.startswith(NOT_MYPYC))


def source_digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def stale_reason(root: Path = ENGINE) -> str:
    """Why the compiled modules under ``root`` must not run ("" when they match their sources)."""
    manifest = root / MANIFEST.name
    if not manifest.exists():
        return "no build manifest"
    try:
        recorded: dict[str, str] = json.loads(manifest.read_text())
    except (OSError, ValueError):
        return "unreadable build manifest"
    for rel, digest in recorded.items():
        src = root / rel
        if not src.exists() or source_digest(src) != digest:
            return f"{rel} changed since the build"
    return ""


class PureFinder:
    """Loads ``meloch.engine`` modules from their ``.py`` sources, never from a compiled file."""

    prefix = "meloch.engine."

    def find_spec(self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
                  ) -> ModuleSpec | None:
        if not fullname.startswith(self.prefix) or not path:
            return None
        leaf = fullname.rpartition(".")[2]
        for d in path:
            src = Path(d) / f"{leaf}.py"
            if src.is_file():
                return spec_from_file_location(fullname, src, loader=SourceFileLoader(fullname, str(src)))
        return None  # a package (its __init__.py is never compiled) or not ours: the usual finders


def _select() -> bool:
    """Use the compiled modules only when present, fresh, and not refused by ``MELOCH_PURE``."""
    if not extension_files():
        return False
    if os.environ.get(PURE_ENV, "") not in ("", "0") or stale_reason():
        sys.meta_path.insert(0, PureFinder())
        return False
    return True


COMPILED: bool = _select()
"""True when the engine runs the mypyc build (``make fast``), False for pure Python."""
