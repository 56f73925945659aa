"""The optional mypyc build (``make fast``, docs/speed.md): never a stale one, and the same rules.

The fast tests check ``meloch.engine._native``'s guard on a scratch directory: compiled files run
only while every source matches the build manifest. The slow test builds the compiled engine in a
copy of the package and runs the golden games, perft and determinism tests against it.
"""

from __future__ import annotations

import ast
import json
import os
import re
import shutil
import subprocess
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest

from meloch.engine import _native, flow

ROOT = Path(__file__).resolve().parent.parent


def _scratch(tmp_path: Path) -> Path:
    eng = tmp_path / "engine"
    eng.mkdir()
    (eng / "flow.py").write_text("x = 1\n")
    (eng / ("flow" + EXTENSION_SUFFIXES[0])).write_bytes(b"")
    digests = {"flow.py": _native.source_digest(eng / "flow.py")}
    (eng / _native.MANIFEST.name).write_text(json.dumps(digests))
    return eng


def test_a_build_matching_its_sources_is_used(tmp_path: Path) -> None:
    eng = _scratch(tmp_path)
    assert _native.extension_files(eng)
    assert _native.stale_reason(eng) == ""


def test_a_changed_source_makes_the_build_stale(tmp_path: Path) -> None:
    eng = _scratch(tmp_path)
    (eng / "flow.py").write_text("x = 2\n")
    assert "flow.py changed" in _native.stale_reason(eng)


def test_a_build_without_manifest_is_stale(tmp_path: Path) -> None:
    eng = _scratch(tmp_path)
    (eng / _native.MANIFEST.name).unlink()
    assert _native.stale_reason(eng) == "no build manifest"


def test_the_pure_finder_loads_sources() -> None:
    spec = _native.PureFinder().find_spec("meloch.engine.flow", [str(_native.ENGINE)])
    assert spec is not None and spec.origin is not None and spec.origin.endswith("flow.py")
    assert _native.PureFinder().find_spec("json.decoder", [str(_native.ENGINE)]) is None


def test_the_suite_runs_the_pure_engine_unless_built() -> None:
    """``make test`` sets MELOCH_PURE=1; without a fresh build nothing compiled is imported."""
    compiled = flow.__file__ is not None and not flow.__file__.endswith(".py")
    assert compiled == _native.COMPILED
    if os.environ.get(_native.PURE_ENV, "") not in ("", "0"):
        assert not _native.COMPILED


def test_every_struct_is_declared_where_mypyc_does_not_compile() -> None:
    """A msgspec Struct in a module ``make fast`` compiles loses its options (``frozen``: no hash),
    so every engine module declaring one is in the build's ``NOT_COMPILED`` (read from the tool's
    source: importing it needs mypyc)."""
    tree = ast.parse((ROOT / "tools" / "mypyc_build.py").read_text())
    kept = next(ast.literal_eval(n.value) for n in tree.body if isinstance(n, ast.Assign)
                and any(isinstance(t, ast.Name) and t.id == "NOT_COMPILED" for t in n.targets))
    declaring = {p.name for p in (ROOT / "meloch" / "engine").rglob("*.py")
                 if re.search(r"^class \w+\((msgspec\.)?Struct\b", p.read_text(), re.M)}
    assert declaring and declaring <= kept, declaring - kept


@pytest.mark.slow
def test_the_compiled_engine_plays_the_same_games(tmp_path: Path) -> None:
    """Build with mypyc in a copy (minutes), then golden, perft and determinism against it."""
    if shutil.which("cc") is None and shutil.which("gcc") is None:
        pytest.skip("no C compiler")
    copy = tmp_path / "src"
    ignore = shutil.ignore_patterns("__pycache__", "*.so", "_mypyc_manifest.json")
    shutil.copytree(ROOT / "meloch", copy / "meloch", ignore=ignore)
    shutil.copytree(ROOT / "tests", copy / "tests", ignore=ignore)
    shutil.copytree(ROOT / "tools", copy / "tools", ignore=ignore)
    shutil.copy(ROOT / "pyproject.toml", copy / "pyproject.toml")
    env = {k: v for k, v in os.environ.items() if k != _native.PURE_ENV} | {"PYTHONPATH": str(copy)}
    built = subprocess.run([sys.executable, "tools/mypyc_build.py", str(copy)], cwd=copy, env=env,
                           capture_output=True, text=True, timeout=3600)
    assert built.returncode == 0, built.stdout[-2000:] + built.stderr[-2000:]
    probe = subprocess.run([sys.executable, "-c", "import meloch.engine._native as n, meloch.engine.flow as f;"
                            "print(n.COMPILED, f.__file__)"], cwd=copy, env=env, capture_output=True, text=True)
    assert probe.stdout.startswith("True") and str(copy) in probe.stdout, probe.stdout + probe.stderr
    tests = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-m", "not slow",
                            "tests/test_golden.py", "tests/test_perft.py", "tests/test_determinism.py",
                            "tests/test_speed.py"],
                           cwd=copy, env=env, capture_output=True, text=True, timeout=3600)
    assert tests.returncode == 0, tests.stdout[-3000:] + tests.stderr[-2000:]
