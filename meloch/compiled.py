"""Which build of a package runs: its pure-Python sources or the optional mypyc build (``make fast``).

``tools/mypyc_build.py`` compiles a package's hot modules with mypyc into extension modules next to
their sources and writes a manifest (``MANIFEST``) with the SHA-256 of every ``.py`` of the package.
Python prefers an extension module to a ``.py`` of the same name, so a build left behind after a
source changed would silently run old code. ``select`` refuses that: when the manifest is missing,
any source has changed since the build, or ``MELOCH_PURE=1`` is set, it installs an import finder
that loads every module of the package from its ``.py`` file. Two packages are built this way: the
engine (``meloch.engine._native``) and the agents' search code (``meloch.agents._native``); each is
checked on its own, so an edited agent never turns the compiled engine off, and the reverse.
Nothing here imports a package it guards (it runs before them).
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

MANIFEST = "_mypyc_manifest.json"
"""Written by the build in the package's directory: {"module/path.py": sha256 of its source}."""
PURE_ENV = "MELOCH_PURE"
"""Set to 1: every guarded package runs its pure-Python sources (``make test`` sets it)."""


def extension_files(root: Path, skip: tuple[str, ...] = ()) -> list[Path]:
    """Modules of the mypyc build (``.so``/``.pyd``) under ``root``; names starting with one of
    ``skip`` are other extensions (built by every install, not by ``make fast``)."""
    return sorted(p for p in root.rglob("*") if any(p.name.endswith(s) for s in EXTENSION_SUFFIXES)
                  and not p.name.startswith(skip))


def source_digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def stale_reason(root: Path) -> str:
    """Why the compiled modules under ``root`` must not run ("" when they match their sources)."""
    manifest = root / MANIFEST
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


def pure_requested() -> bool:
    return os.environ.get(PURE_ENV, "") not in ("", "0")


class PureFinder:
    """Loads the modules named ``prefix...`` from their ``.py`` sources, never from a compiled file."""

    def __init__(self, prefix: str) -> None:
        self.prefix = prefix

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


def select(root: Path, finder: PureFinder, skip: tuple[str, ...] = ()) -> bool:
    """Use the compiled modules under ``root`` only when present, fresh, and not refused by
    ``MELOCH_PURE``; otherwise install ``finder`` so the package's sources run. Call it from the
    package's ``__init__`` before any of its modules is imported."""
    if not extension_files(root, skip):
        return False
    if pure_requested() or stale_reason(root):
        sys.meta_path.insert(0, finder)
        return False
    return True
