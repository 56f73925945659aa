"""Build (or remove) the optional mypyc-compiled engine and search code: ``make fast`` / ``make unfast``.

Usage: ``python tools/mypyc_build.py [ROOT]`` compiles the engine modules under ``ROOT`` (default:
this checkout) in place, next to their sources, then writes ``meloch/engine/_mypyc_manifest.json``
with the SHA-256 of every engine source; then the same for the agents' search code
(``meloch.agents._native.COMPILED_MODULES``: the evaluation, the heuristic and the searches) and
``meloch/agents/_mypyc_manifest.json``. Each package's ``_native.py`` uses its compiled modules only
while every source of that package still matches its manifest (and ``MELOCH_PURE`` is unset);
otherwise its pure-Python sources run (``meloch/compiled.py``). The two are separate builds (the
agents call the engine through Python), so either may fall back alone.
``python tools/mypyc_build.py --clean [ROOT]`` removes both builds.

Compiled: every engine module except the packages' ``__init__``, ``_native`` (it chooses the build),
and the modules that declare msgspec Structs: ``model``/``contract`` (``Action``, ``Option``,
``Decision``... live there; no hot code, and mypyc rejects a ``msgspec.field`` default) and
``glance`` (its seat parts): a class mypyc compiles loses its Struct options (``frozen``,
``order``, hashing), so ``Action`` would neither hash nor sort in the compiled build. A Struct
declared anywhere else in the engine belongs in ``model`` or ``contract``. Needs mypy (which ships mypyc),
setuptools and a C compiler.
"""

from __future__ import annotations

import ast
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
"""``meloch.compiled.MANIFEST`` (not imported: building must not import the engine)."""


def engine_dir(root: Path) -> Path:
    return root / "meloch" / "engine"


def agents_dir(root: Path) -> Path:
    return root / "meloch" / "agents"


def agents_modules(root: Path) -> list[str]:
    """``COMPILED_MODULES`` of ``meloch/agents/_native.py``, read from its source."""
    tree = ast.parse((agents_dir(root) / "_native.py").read_text())
    for node in tree.body:
        target = node.target if isinstance(node, ast.AnnAssign) else \
            node.targets[0] if isinstance(node, ast.Assign) else None
        if isinstance(target, ast.Name) and target.id == "COMPILED_MODULES" and node.value is not None:
            return list(ast.literal_eval(node.value))
    raise SystemExit("mypyc_build: meloch/agents/_native.py declares no COMPILED_MODULES")


def _clean_dir(pkg: Path) -> int:
    n = 0
    for p in sorted(pkg.rglob("*")):
        if any(p.name.endswith(s) for s in EXTENSION_SUFFIXES) and not p.name.startswith(NOT_MYPYC):
            p.unlink()
            n += 1
    (pkg / MANIFEST).unlink(missing_ok=True)
    return n


def clean(root: Path) -> int:
    n = _clean_dir(engine_dir(root)) + _clean_dir(agents_dir(root))
    shutil.rmtree(root / "build" / "mypyc", ignore_errors=True)
    print(f"removed {n} compiled files: the pure-Python engine and agents run")
    return 0


def _compile(pkg: Path, sources: list[str], group: str) -> None:
    temp = str(Path("build") / "mypyc" / group)
    setup(
        name=f"meloch-{group}-mypyc",
        ext_modules=mypycify(sources, group_name=f"meloch.{group}._mypyc", opt_level="3", target_dir=temp),
        script_args=["build_ext", "--inplace", "--build-temp", temp, "--build-lib", temp],
    )
    digests = {str(p.relative_to(pkg)): hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(pkg.rglob("*.py"))}
    (pkg / MANIFEST).write_text(json.dumps(digests, indent=1, sort_keys=True) + "\n")


def build(root: Path) -> int:
    clean(root)
    eng, ags = engine_dir(root), agents_dir(root)
    os.chdir(root)
    engine_sources = sorted(str(p.relative_to(root)) for p in eng.rglob("*.py") if p.name not in NOT_COMPILED)
    _compile(eng, engine_sources, "engine")
    agent_sources = [str((ags / name).relative_to(root)) for name in agents_modules(root)]
    _compile(ags, agent_sources, "agents")
    print(f"compiled {len(engine_sources)} engine modules and {len(agent_sources)} agents modules with mypyc; "
          "MELOCH_PURE=1 runs the pure-Python sources")
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
