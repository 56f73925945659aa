"""Fit ``meloch.agents.fitted``: play heuristic mirror games, keep both seats' features at the end of
every turn, and fit ``logit P(Scythe wins)`` by L2-regularised logistic regression (Newton steps).

    python tools/fit_evaluation.py play --games 400 --seed 20000 --jobs 2 --out /tmp/fit.npz
    python tools/fit_evaluation.py fit /tmp/fit.npz [more.npz ...]

``play`` deals half its games on the ladder's setup (``Setup()``'s seats, every map and track side)
and half with a random faction, mat and mech (the grid's axes), seeds from ``--seed`` on (keep them
apart from the ladder's). ``fit`` prints the coefficients to paste into ``meloch/agents/fitted.py``,
and the held-out log-loss and accuracy next to the hand-set evaluation's (games split by seed parity).
"""

from __future__ import annotations

import argparse
import random
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

from meloch.agents.evaluate import advantage
from meloch.agents.fitted import FEATURES, features, hand_set_score
from meloch.agents.registry import make_agent
from meloch.engine import Action, SeatSetup, Setup, State, legal_actions, standing
from meloch.sim.runner import Hooks, play_game
from meloch.sim.simulate import axis_values

ROLES = ("scythe", "expeditions")

PINNED: dict[str, float] = {"scythe.discarded": -0.3}
"""Features not fitted, with their weight in stars of the same role (the hand-set evaluation's 3 of a
star's 10): a star given up is never good, but in the heuristic's games the seats that gave one up
went on to win more often than not (they traded it while ahead), and a search that believed the
fitted sign would throw stars away."""


class _TurnEnds(Hooks):
    """Both seats' features (Scythe seat's first) after every action that ends a seat's turn."""

    def __init__(self) -> None:
        self.rows: list[list[float]] = []
        self.hand: list[float] = []

    def on_step(self, before: State, action: Action, after: State) -> None:
        legal = legal_actions(after)
        if not legal or legal[0].seat == action.seat:
            return
        st0 = standing(after, 0)
        sts = [st0, standing(after, 1)]
        sts.sort(key=lambda st: ROLES.index(st.role))
        row: list[float] = []
        for st in sts:
            f = features(st)
            row += [f[name] for name in FEATURES]
        self.rows.append(row)
        # the hand-set evaluation of the same position, for comparison: the Scythe seat's advantage
        self.hand.append(advantage(after, 0 if sts[0] is st0 else 1))


def _setup(k: int, seed: int) -> Setup:
    rng = random.Random(seed)
    maps, tracks = ("desert", "jungle"), ("A", "B")
    # map, track and seats each alternate on their own bit of k, so every pairing of them is dealt
    m, t = maps[k % 2], tracks[(k // 2) % 2]
    if (k // 4) % 2 == 0:  # the ladder's seats
        return Setup(map_side=m, track_side=t)
    seats = (SeatSetup(role="scythe", faction=rng.choice(axis_values("factions")), mat=rng.choice(axis_values("mats"))),
             SeatSetup(role="expeditions", mech=rng.choice(axis_values("mechs"))))
    return Setup(map_side=m, track_side=t, seats=seats)


def _one(args: tuple[int, int]) -> tuple[list[list[float]], list[float], int, int]:
    k, seed = args
    hooks = _TurnEnds()
    agents = [make_agent("heuristic", seed * 7 + 1), make_agent("heuristic", seed * 7 + 2)]
    setup = _setup(k, seed)
    rec = play_game(setup, seed, agents, hooks)
    w = -1 if rec.outcome is None or rec.outcome.winner is None else rec.outcome.winner
    scythe_seat = next(i for i, s in enumerate(setup.seats) if s.role == "scythe")
    label = -1 if w < 0 else int(w == scythe_seat)
    return hooks.rows, hooks.hand, label, seed


def play(games: int, seed: int, jobs: int, out: Path) -> None:
    rows: list[list[float]] = []
    hand: list[float] = []
    labels: list[int] = []
    game_of: list[int] = []
    with ProcessPoolExecutor(jobs) as pool:
        for done, (r, h, label, s) in enumerate(pool.map(_one, [(k, seed + k) for k in range(games)]), 1):
            if label < 0:
                continue
            rows += r
            hand += h
            labels += [label] * len(r)
            game_of += [s] * len(r)
            print(f"\r{done}/{games} games, {len(rows)} positions", end="", file=sys.stderr)
    print(file=sys.stderr)
    np.savez(out, x=np.array(rows), hand=np.array(hand), y=np.array(labels), game=np.array(game_of))


def _fit(x: np.ndarray, y: np.ndarray, l2: float = 1.0, steps: int = 50) -> np.ndarray:
    """Weights (bias first) of an L2-regularised logistic regression, by Newton's method."""
    a = np.hstack([np.ones((len(x), 1)), x])
    w = np.zeros(a.shape[1])
    reg = l2 * np.eye(a.shape[1])
    reg[0, 0] = 0.0
    for _ in range(steps):
        p = 1 / (1 + np.exp(-a @ w))
        g = a.T @ (p - y) + reg @ w
        h = (a * (p * (1 - p))[:, None]).T @ a + reg
        step = np.linalg.solve(h, g)
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    return w


def _hand_scores(f: np.ndarray) -> np.ndarray:
    """``fitted.hand_set_score`` of each row of one seat's feature columns (``FEATURES`` order)."""
    return np.array([hand_set_score(dict(zip(FEATURES, map(float, row), strict=True))) for row in f])


def _loss(p: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    p = np.clip(p, 1e-6, 1 - 1e-6)
    return float(-(y * np.log(p) + (1 - y) * np.log(1 - p)).mean()), float(((p > 0.5) == (y > 0.5)).mean())


def fit(paths: list[Path]) -> None:
    data = [np.load(p) for p in paths]
    x = np.vstack([d["x"] for d in data])
    y = np.concatenate([d["y"] for d in data]).astype(float)
    hand = np.concatenate([d["hand"] for d in data])
    game = np.concatenate([d["game"] for d in data])
    names = [f"{r}.{f}" for r in ROLES for f in FEATURES]
    keep = (x.std(axis=0) > 0) & np.array([n not in PINNED for n in names])
    print(f"{len(np.unique(game))} games, {len(y)} positions; Scythe wins {y.mean():.1%} of positions")
    train, test = game % 2 == 0, game % 2 == 1
    w = _fit(x[train][:, keep], y[train])
    p = 1 / (1 + np.exp(-(np.hstack([np.ones((test.sum(), 1)), x[test][:, keep]]) @ w)))
    # the hand-set evaluation, calibrated on the training half (one scale and a bias), for a fair comparison
    wh = _fit(hand[train][:, None], y[train], l2=0.0)
    ph = 1 / (1 + np.exp(-(wh[0] + wh[1] * hand[test])))
    (lf, af), (lh, ah) = _loss(p, y[test]), _loss(ph, y[test])
    lc = _loss(np.full(test.sum(), y[train].mean()), y[test])[0]
    print(f"held-out (odd seeds): fitted log-loss {lf:.4f} accuracy {af:.3f}; "
          f"hand-set {lh:.4f} {ah:.3f}; constant {lc:.4f}")
    # the role ratio (ROLE_OPPONENT): logit = b + a_S * score(Scythe) - a_E * score(Expeditions), scores hand-set
    n = len(FEATURES)
    scores = np.c_[_hand_scores(x[:, :n]), _hand_scores(x[:, n:])]
    wr = _fit(scores, y, l2=0.0)
    a_s, a_e = wr[1], -wr[2]
    print(f'ROLE_OPPONENT = {{"scythe": {a_e / a_s:.3f}, "expeditions": {a_s / a_e:.3f}}}')
    w = _fit(x[:, keep], y)
    coef = dict.fromkeys(names, 0.0)
    for name, value in zip([n for n, k in zip(names, keep, strict=True) if k], w[1:], strict=True):
        coef[name] = float(value)
    for name, stars in PINNED.items():
        coef[name] = stars * coef[name.split(".")[0] + ".stars"]
    print(f"BIAS = {w[0]:.4f}")
    print("COEF: dict[str, dict[str, float]] = {")
    for r in ROLES:
        inner = ", ".join(f'"{f}": {coef[f"{r}.{f}"]:.4f}' for f in FEATURES)
        print(f'    "{r}": {{{inner}}},')
    print("}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("play")
    p.add_argument("--games", type=int, default=400)
    p.add_argument("--seed", type=int, default=20000)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--out", type=Path, required=True)
    f = sub.add_parser("fit")
    f.add_argument("paths", type=Path, nargs="+")
    a = ap.parse_args()
    if a.cmd == "play":
        play(a.games, a.seed, a.jobs, a.out)
    else:
        fit(a.paths)


if __name__ == "__main__":
    main()
