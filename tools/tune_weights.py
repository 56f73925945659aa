"""Tune the evaluation's weights by game results (SPSA), not by fitting positions (issue 11).

``tools/fit_evaluation.py`` fits weights to who won from each position and plays worse: a
regression learns what goes with winning, not what a move should buy (docs/agents.md). SPSA
(simultaneous perturbation stochastic approximation, Spall 1998; the method chess engines tune by)
asks the games directly: every iteration perturbs all the weights at once by a random sign vector
``delta`` (``theta + c*delta`` against ``theta - c*delta``), plays the two heuristic agents against each
other on fresh deals in both seat orders, and steps ``theta`` along ``delta`` by the score difference.

``run`` appends each iteration to ``OUT`` (a JSON line: the weights, the perturbation, the score)
and continues a stopped run from its last line; ``show`` prints the mean of the last iterations'
weights (the tuned ones: SPSA's iterate is noisy, its average is not). The deals alternate the
ladder's setup and random seats, every map and track side (``fit_evaluation._setup``).

    python tools/tune_weights.py run --iterations 600 --games 24 --jobs 2 --out spsa.jsonl
    python tools/tune_weights.py show spsa.jsonl --last 200
"""

from __future__ import annotations

import argparse
import json
import math
import random
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from fit_evaluation import _setup

from meloch.agents.evaluate import WEIGHTS
from meloch.agents.heuristic import HeuristicAgent
from meloch.sim.runner import play_game

SCALES: dict[str, float] = {
    "goal": 1.0, "met": 1.0, "combat": 0.5, "discarded": 1.0, "resources": 0.05, "hand": 0.15,
    "means": 0.2, "spotless": 0.15, "source": 0.15, "mech": 1.0,
}
"""The tuned weights and the size of one perturbation of each (``star`` stays 10: the unit; ``stake``
is a switch). SPSA works in these units, so every weight moves by a comparable share of its role."""

UPPER = {"spotless": 1.0}


def clamp(w: dict[str, float]) -> dict[str, float]:
    return {k: min(UPPER.get(k, math.inf), max(0.0, v)) for k, v in w.items()}


def _one(args: tuple[dict[str, float], dict[str, float], int, int, int]) -> float:
    """One game: the first weights' score (1 win, 0.5 draw, 0 loss)."""
    plus, minus, k, seed, order = args
    agents = [HeuristicAgent(seed * 2 + 1, weights=plus, name="plus"),
              HeuristicAgent(seed * 2 + 2, weights=minus, name="minus")]
    if order:
        agents.reverse()
    rec = play_game(_setup(k, seed), seed, agents)
    w = rec.outcome.winner if rec.outcome is not None else None
    if w is None or w < 0:
        return 0.5
    return float(w == order)


def run(iterations: int, games: int, jobs: int, out: Path, a: float, c: float, big_a: float, seed: int) -> None:
    lines = out.read_text().splitlines() if out.exists() else []
    theta = {k: WEIGHTS[k] / SCALES[k] for k in SCALES}
    if lines:
        last = json.loads(lines[-1])
        theta = {k: v / SCALES[k] for k, v in last["weights"].items()}
    rng = random.Random(seed + len(lines))
    with ProcessPoolExecutor(jobs) as pool, out.open("a") as f:
        for it in range(len(lines), iterations):
            ak = a / (it + 1 + big_a) ** 0.602
            ck = c / (it + 1) ** 0.101
            delta = {k: rng.choice((-1.0, 1.0)) for k in SCALES}
            plus = clamp({**WEIGHTS, **{k: (theta[k] + ck * delta[k]) * SCALES[k] for k in SCALES}})
            minus = clamp({**WEIGHTS, **{k: (theta[k] - ck * delta[k]) * SCALES[k] for k in SCALES}})
            base = seed * 100_000 + it * games
            tasks = [(plus, minus, (base + g // 2) % 8, base + g // 2, g % 2) for g in range(games)]
            score = sum(pool.map(_one, tasks))
            r = (2 * score - games) / games  # plus's mean result minus minus's, in [-1, 1]
            for k in SCALES:
                theta[k] += ak * r / (2 * ck) * delta[k]
            weights = clamp({k: theta[k] * SCALES[k] for k in SCALES})
            theta = {k: weights[k] / SCALES[k] for k in SCALES}
            f.write(json.dumps({"it": it, "r": r, "ak": ak, "ck": ck, "weights": weights, "delta": delta}) + "\n")
            f.flush()
            print(f"{it:5d} r={r:+.3f} " + " ".join(f"{k}={v:.3g}" for k, v in weights.items()), flush=True)


def show(path: Path, last: int) -> dict[str, float]:
    rows = [json.loads(line) for line in path.read_text().splitlines()][-last:]
    mean = {k: sum(r["weights"][k] for r in rows) / len(rows) for k in SCALES}
    drift = sum(r["r"] for r in rows) / len(rows)
    print(f"{len(rows)} iterations, mean r {drift:+.3f}")
    for k, v in mean.items():
        print(f"  {k:10s} {WEIGHTS[k]:7.3f} -> {v:7.3f}")
    print(json.dumps({**WEIGHTS, **{k: round(v, 4) for k, v in mean.items()}}))
    return mean


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run")
    r.add_argument("--iterations", type=int, default=600)
    r.add_argument("--games", type=int, default=24, help="games an iteration (even: both seat orders of each deal)")
    r.add_argument("--jobs", type=int, default=2)
    r.add_argument("--out", type=Path, required=True)
    r.add_argument("--a", type=float, default=16.0)
    r.add_argument("--c", type=float, default=1.0)
    r.add_argument("--big-a", type=float, default=60.0)
    r.add_argument("--seed", type=int, default=7)
    s = sub.add_parser("show")
    s.add_argument("path", type=Path)
    s.add_argument("--last", type=int, default=200)
    args = ap.parse_args()
    if args.cmd == "run":
        run(args.iterations, args.games, args.jobs, args.out, args.a, args.c, args.big_a, args.seed)
    else:
        show(args.path, args.last)


if __name__ == "__main__":
    main()
