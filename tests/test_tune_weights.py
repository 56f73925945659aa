"""``tools/tune_weights.py``: the SPSA step, resuming a stopped run, and the averaged weights."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from meloch.agents.evaluate import WEIGHTS

ROOT = Path(__file__).resolve().parent.parent
TOOL = ROOT / "tools" / "tune_weights.py"
SCALES = {"goal": 1.0, "met": 1.0, "combat": 0.5, "discarded": 1.0, "resources": 0.05, "hand": 0.15,
          "means": 0.2, "spotless": 0.15, "source": 0.15, "mech": 1.0}


def _run(*args: str) -> str:
    done = subprocess.run([sys.executable, str(TOOL), *args], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_spsa_steps_along_the_perturbation_by_the_score_and_resumes_where_it_stopped(tmp_path: Path) -> None:
    out = tmp_path / "spsa.jsonl"
    _run("run", "--iterations", "2", "--games", "2", "--jobs", "1", "--out", str(out), "--a", "40")
    _run("run", "--iterations", "3", "--games", "2", "--jobs", "1", "--out", str(out), "--a", "40")
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["it"] for r in rows] == [0, 1, 2]  # the second command played only the missing iteration
    before = {k: WEIGHTS[k] for k in SCALES}
    for r in rows:
        assert r["r"] in (-1.0, 0.0, 1.0, -0.5, 0.5)  # two games: the perturbed pair's score difference
        for k, scale in SCALES.items():
            want = before[k] / scale + r["ak"] * r["r"] / (2 * r["ck"]) * r["delta"][k]
            want = min(1.0 if k == "spotless" else float("inf"), max(0.0, want * scale))
            assert abs(r["weights"][k] - want) < 1e-9, (r["it"], k)
        before = r["weights"]
    shown = _run("show", str(out), "--last", "2")
    mean = json.loads(shown.splitlines()[-1])
    for k in SCALES:
        assert abs(mean[k] - round((rows[1]["weights"][k] + rows[2]["weights"][k]) / 2, 4)) < 1e-9
    assert mean["star"] == WEIGHTS["star"]
