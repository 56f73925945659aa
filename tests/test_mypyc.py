"""The optional mypyc build (``make fast``, docs/speed.md): never a stale one, and the same rules.

The fast tests check ``meloch.engine._native``'s guard on a scratch directory: compiled files run
only while every source matches the build manifest. The slow test builds the compiled engine in a
copy of the package and runs the golden games, perft and determinism tests against it.
"""

from __future__ import annotations

import ast
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest

from meloch import compiled
from meloch.agents import _native as agents_native
from meloch.agents import evaluate
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


def test_the_suite_runs_the_pure_agents_unless_built() -> None:
    """The agents' search code has its own build and guard (``meloch.agents._native``)."""
    built = evaluate.__file__ is not None and not evaluate.__file__.endswith(".py")
    assert built == agents_native.COMPILED
    if compiled.pure_requested():
        assert not agents_native.COMPILED


def test_a_stale_agents_build_falls_back_to_the_sources(tmp_path: Path) -> None:
    """A changed agents source refuses the agents' build: ``select`` installs a finder that loads
    ``meloch.agents`` modules from their ``.py`` files (and nothing else)."""
    ags = tmp_path / "agents"
    ags.mkdir()
    (ags / "evaluate.py").write_text("x = 1\n")
    (ags / ("evaluate" + EXTENSION_SUFFIXES[0])).write_bytes(b"")
    (ags / compiled.MANIFEST).write_text(json.dumps({"evaluate.py": compiled.source_digest(ags / "evaluate.py")}))
    finder = compiled.PureFinder("meloch.agents.")
    before = list(sys.meta_path)
    try:
        if not compiled.pure_requested():
            assert compiled.select(ags, finder)  # fresh: the build is used, no finder
            assert finder not in sys.meta_path
        (ags / "evaluate.py").write_text("x = 2\n")
        assert "evaluate.py changed" in compiled.stale_reason(ags)
        assert not compiled.select(ags, finder)
        assert sys.meta_path[0] is finder
    finally:
        sys.meta_path[:] = before
    spec = finder.find_spec("meloch.agents.evaluate", [str(ags)])
    assert spec is not None and spec.origin is not None and spec.origin.endswith("evaluate.py")
    assert finder.find_spec("meloch.engine.flow", [str(ags)]) is None


def test_the_build_compiles_the_agents_modules_it_names() -> None:
    """``tools/mypyc_build.py`` reads ``COMPILED_MODULES`` from the agents' guard's source (building
    must not import the package): the same list, each a module there."""
    spec = importlib.util.spec_from_file_location("mypyc_build", ROOT / "tools" / "mypyc_build.py")
    assert spec is not None and spec.loader is not None
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    assert tool.agents_modules(ROOT) == list(agents_native.COMPILED_MODULES)
    for name in agents_native.COMPILED_MODULES:
        assert (ROOT / "meloch" / "agents" / name).is_file(), name


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


AGENT_GAMES = """
import meloch.agents._native as n
from meloch.agents import make_agent
from meloch.engine import Setup
from meloch.sim.runner import play_game
out = [str(n.COMPILED)]
pairs = [("heuristic", "ismcts:easy"), ("search:s4t4r1", "heuristic:t1s1m3"), ("ismcts:30", "search:flat"),
         ("search:s2t3r1w2v2", "heuristic")]
for i, (a, b) in enumerate(pairs):
    r = play_game(Setup(), 50 + i, (make_agent(a, 7 + i), make_agent(b, 8 + i)))
    out.append(f"{len(r.actions)}:{r.final_hash}")
print(" ".join(out))
"""
"""Agent games (every search agent and the heuristic) whose every action the compiled and the pure
agents must share: the final hash and length of each game."""


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
                            "import meloch.agents._native as a, meloch.agents.evaluate as e;"
                            "print(n.COMPILED, a.COMPILED, f.__file__, e.__file__)"],
                           cwd=copy, env=env, capture_output=True, text=True)
    assert probe.stdout.startswith("True True") and str(copy) in probe.stdout, probe.stdout + probe.stderr
    assert not probe.stdout.strip().endswith(".py"), probe.stdout  # the agents' evaluation is compiled
    # the compiled agents make the same choices as their sources: whole games, every action
    games = [subprocess.run([sys.executable, "-c", AGENT_GAMES], cwd=copy, env=env | extra, capture_output=True,
                            text=True, timeout=1800) for extra in ({}, {_native.PURE_ENV: "1"})]
    assert all(g.returncode == 0 for g in games), games[0].stderr[-2000:] + games[1].stderr[-2000:]
    assert games[0].stdout.startswith("True") and games[1].stdout.startswith("False"), games[0].stdout
    assert games[0].stdout.split()[1:] == games[1].stdout.split()[1:]
    tests = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-m", "not slow",
                            "tests/test_golden.py", "tests/test_perft.py", "tests/test_determinism.py",
                            "tests/test_speed.py"],
                           cwd=copy, env=env, capture_output=True, text=True, timeout=3600)
    assert tests.returncode == 0, tests.stdout[-3000:] + tests.stderr[-2000:]
