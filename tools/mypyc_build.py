"""Build (or remove) the optional mypyc-compiled engine: ``make fast`` / ``make unfast``.

Usage: ``python tools/mypyc_build.py [ROOT]`` compiles the engine modules under ``ROOT`` (default:
this checkout) in place, next to their sources, then writes ``meloch/engine/_mypyc_manifest.json``
with the SHA-256 of every engine source. ``meloch/engine/_native.py`` uses the compiled modules
only while every source still matches that manifest (and ``MELOCH_PURE`` is unset); otherwise the
pure-Python engine runs. ``python tools/mypyc_build.py --clean [ROOT]`` removes the build.

Compiled: every engine module except the packages' ``__init__``, ``_native`` (it chooses the build),
and the modules that declare msgspec Structs: ``model``/``contract`` (``Action``, ``Option``,
``Decision``... live there; no hot code, and mypyc rejects a ``msgspec.field`` default) and
``glance`` (its seat parts): a class mypyc compiles loses its Struct options (``frozen``,
``order``, hashing), so ``Action`` would neither hash nor sort in the compiled build. A Struct
declared anywhere else in the engine belongs in ``model`` or ``contract``. Needs mypy (which ships mypyc),
setuptools and a C compiler.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

from mypyc.build import mypycify
from setuptools import setup

NOT_COMPILED = {"__init__.py", "_native.py", "model.py", "contract.py", "glance.py"}
NOT_MYPYC = ("_glancec.",)
"""``meloch.engine._native.NOT_MYPYC``: the C ``glance`` that every install builds (not removed here)."""
MANIFEST = "_mypyc_manifest.json"
"""``meloch.engine._native.MANIFEST`` (not imported: building must not import the engine)."""


def engine_dir(root: Path) -> Path:
    return root / "meloch" / "engine"


def clean(root: Path) -> int:
    eng = engine_dir(root)
    n = 0
    for p in sorted(eng.rglob("*")):
        if any(p.name.endswith(s) for s in EXTENSION_SUFFIXES) and not p.name.startswith(NOT_MYPYC):
            p.unlink()
            n += 1
    (eng / MANIFEST).unlink(missing_ok=True)
    shutil.rmtree(root / "build" / "mypyc", ignore_errors=True)
    print(f"removed {n} compiled engine files: the pure-Python engine runs")
    return 0


def build(root: Path) -> int:
    clean(root)
    eng = engine_dir(root)
    os.chdir(root)
    sources = sorted(str(p.relative_to(root)) for p in eng.rglob("*.py") if p.name not in NOT_COMPILED)
    temp = str(Path("build") / "mypyc")
    setup(
        name="meloch-engine-mypyc",
        ext_modules=mypycify(sources, group_name="meloch.engine._mypyc", opt_level="3",
                             target_dir=temp),
        script_args=["build_ext", "--inplace", "--build-temp", temp, "--build-lib", temp],
    )
    digests = {str(p.relative_to(eng)): hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(eng.rglob("*.py"))}
    (eng / MANIFEST).write_text(json.dumps(digests, indent=1, sort_keys=True) + "\n")
    print(f"compiled {len(sources)} engine modules with mypyc; MELOCH_PURE=1 runs the pure-Python engine")
    return 0


def main(argv: list[str]) -> int:
    args = [a for a in argv if a != "--clean"]
    root = Path(args[0]).resolve() if args else Path(__file__).resolve().parent.parent
    if not engine_dir(root).is_dir():
        print(f"mypyc_build: no meloch/engine under {root}", file=sys.stderr)
        return 2
    return clean(root) if "--clean" in argv else build(root)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
