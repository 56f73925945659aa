"""``tools/tune_weights.py``: the SPSA step, resuming a stopped run, and the averaged weights."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from meloch.agents.evaluate import WEIGHTS

ROOT = Path(__file__).resolve().parent.parent
TOOL = ROOT / "tools" / "tune_weights.py"


@pytest.fixture
def tool(monkeypatch: pytest.MonkeyPatch) -> Any:
    """The tool as a module (its own imports expect ``tools/`` on the path, as when run as a script)."""
    monkeypatch.syspath_prepend(str(ROOT / "tools"))
    return importlib.import_module("tune_weights")


def _run(*args: str) -> str:
    done = subprocess.run([sys.executable, str(TOOL), *args], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_spsa_steps_along_the_perturbation_by_the_score_and_resumes_where_it_stopped(tmp_path: Path, tool: Any) -> None:
    scales: dict[str, float] = tool.SCALES
    out = tmp_path / "spsa.jsonl"
    _run("run", "--iterations", "2", "--games", "2", "--jobs", "1", "--out", str(out), "--a", "40")
    _run("run", "--iterations", "3", "--games", "2", "--jobs", "1", "--out", str(out), "--a", "40")
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["it"] for r in rows] == [0, 1, 2]  # the second command played only the missing iteration
    before = {k: WEIGHTS[k] for k in scales}
    for r in rows:
        assert r["r"] in (-1.0, 0.0, 1.0, -0.5, 0.5)  # two games: the perturbed pair's score difference
        for k, scale in scales.items():
            want = before[k] / scale + r["ak"] * r["r"] / (2 * r["ck"]) * r["delta"][k]
            want = tool.clamp({k: want * scale})[k]
            assert abs(r["weights"][k] - want) < 1e-9, (r["it"], k)
        before = r["weights"]
    shown = _run("show", str(out), "--last", "2")
    mean = json.loads(shown.splitlines()[-1])
    assert set(scales) <= set(WEIGHTS) - {"star", "stake"}
    assert tool.clamp({"spotless": 1.5, "goal": -1.0}) == {"spotless": 1.0, "goal": 0.0}
    for k in scales:
        assert abs(mean[k] - round((rows[1]["weights"][k] + rows[2]["weights"][k]) / 2, 4)) < 1e-9
    assert mean["star"] == WEIGHTS["star"]
