"""The faction x mat cells with the noise taken out: which cells a grid puts outside a band because of
the content, and how many it would put outside by chance alone.

A grid of one game a deal gives each faction x mat cell a few dozen games, so binomial noise alone
moves a 50% cell past 35% or 65% now and then, and a faction whose rate is 60% has several of its
cells past 65% by chance. Two readings tell content from sample (balance rounds 16 and 20,
docs/rules-notes.md): a logistic fit of faction + mat main effects to every game (each effect read
on every game of its faction or mat, so a cell's own noise is not kept), and the count of cells
outside the band when every cell's games are drawn again at given rates.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

Cell = tuple[str, str]
"""(faction, mat)."""

RIDGE = 1e-2
"""The logistic fit's L2 penalty on the effects (not the intercept): finite effects where a small
grid's cell has only wins or only losses; at a grid's sizes (a faction or mat has 100+ games) it
moves a fitted rate by well under 0.1 point."""

DRAWS = 4000
"""How many times the noise reading draws every cell's games again (fixed seed: the same answer
every run)."""


def logistic(x: np.ndarray, n: np.ndarray, k: np.ndarray, ridge: float = RIDGE) -> np.ndarray:
    """Coefficients of ``logit p = x @ beta`` for rows of ``n`` games with ``k`` wins each, by
    penalised maximum likelihood (damped Newton; column 0 is the unpenalised intercept)."""
    pen = np.full(x.shape[1], ridge)
    pen[0] = 0.0

    def objective(b: np.ndarray) -> float:
        eta = x @ b
        return float(k @ eta - n @ np.logaddexp(0.0, eta) - 0.5 * pen @ (b * b))

    beta = np.zeros(x.shape[1])
    value = objective(beta)
    for _ in range(100):
        p = 1 / (1 + np.exp(-(x @ beta)))
        grad = x.T @ (k - n * p) - pen * beta
        hess = x.T @ (x * (n * p * (1 - p))[:, None]) + np.diag(pen + 1e-12)
        step = np.linalg.solve(hess, grad)
        t = 1.0
        while t > 1e-8 and objective(beta + t * step) < value - 1e-12:
            t /= 2
        beta = beta + t * step
        value = objective(beta)
        if np.abs(t * step).max() < 1e-10:
            break
    return beta


def additive(cells: Mapping[Cell, Sequence[bool]]) -> dict[Cell, float]:
    """Each cell's win rate (0-1) under ``logit p = a + faction + mat``, fitted to the cells' games
    (the first faction and mat in sorted order are the baseline)."""
    keys = list(cells)
    factions = sorted({f for f, _ in keys})
    mats = sorted({m for _, m in keys})
    x = np.zeros((len(keys), len(factions) + len(mats) - 1))
    x[:, 0] = 1
    for i, (f, m) in enumerate(keys):
        if factions.index(f):
            x[i, factions.index(f)] = 1
        if mats.index(m):
            x[i, len(factions) - 1 + mats.index(m)] = 1
    n = np.array([len(cells[key]) for key in keys], dtype=float)
    k = np.array([sum(cells[key]) for key in keys], dtype=float)
    fitted = 1 / (1 + np.exp(-(x @ logistic(x, n, k))))
    return {key: float(q) for key, q in zip(keys, fitted, strict=True)}


def noise_outside(sizes: Sequence[int], rates: Sequence[float], band: tuple[float, float]) -> tuple[int, int, int]:
    """How many cells of these sizes lie outside ``band`` (rates 0-1) when each is drawn again at its
    true rate: the 2.5th percentile, the median and the 97.5th percentile over ``DRAWS`` draws."""
    n = np.array(sizes)
    drawn = np.random.default_rng(0).binomial(n, np.array(rates), size=(DRAWS, len(n))) / n
    counts = ((drawn < band[0]) | (drawn > band[1])).sum(axis=1)
    lo, mid, hi = np.percentile(counts, [2.5, 50, 97.5])
    return int(lo), int(mid), int(hi)
