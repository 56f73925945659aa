"""``meloch.sim.cells``: the faction + mat fit and the noise reading behind the report's cell section."""

from __future__ import annotations

import math

import numpy as np

from meloch.sim.cells import additive, logistic, noise_outside


def _games(p: float, n: int) -> list[bool]:
    return [True] * round(n * p) + [False] * (n - round(n * p))


def test_additive_fit_recovers_main_effects_and_drops_a_cells_own_deviation() -> None:
    faction = {"albion": -0.6, "nordic": 0.0, "saxony": 0.7}
    mat = {"agricultural": 0.5, "industrial": 0.0, "militant": -0.3}
    truth = {(f, m): 1 / (1 + math.exp(-(0.1 + fe + me))) for f, fe in faction.items() for m, me in mat.items()}
    cells = {key: _games(p, 200_000) for key, p in truth.items()}
    fit = additive(cells)
    assert max(abs(fit[key] - p) for key, p in truth.items()) < 1e-3
    odd = dict(cells)
    odd[("saxony", "agricultural")] = [True] * 200_000  # one cell far off its main effects
    refit = additive(odd)
    assert refit[("saxony", "agricultural")] < 0.95
    assert refit[("albion", "militant")] < truth[("albion", "militant")] + 0.05


def test_fit_stays_finite_when_a_small_grid_has_a_faction_that_always_wins() -> None:
    """One game a cell: a faction with only wins has no finite maximum-likelihood effect; the fit's
    small penalty keeps it finite and ordered."""
    cells = {("saxony", "agricultural"): [True], ("saxony", "militant"): [True],
             ("albion", "agricultural"): [False], ("albion", "militant"): [True]}
    fit = additive(cells)
    assert all(0.0 < q < 1.0 and math.isfinite(q) for q in fit.values())
    assert fit[("saxony", "militant")] > 0.99 and fit[("albion", "agricultural")] < fit[("albion", "militant")]
    beta = logistic(np.array([[1.0, 0.0], [1.0, 1.0]]), np.array([5.0, 5.0]), np.array([0.0, 5.0]))
    assert np.all(np.isfinite(beta)) and beta[1] > 5


def test_noise_outside_counts_cells_past_the_band_by_chance() -> None:
    assert noise_outside([10_000] * 20, [0.5] * 20, (0.35, 0.65)) == (0, 0, 0)
    assert noise_outside([10_000] * 20, [0.9] * 20, (0.35, 0.65)) == (20, 20, 20)
    lo, mid, hi = noise_outside([32] * 80, [0.5] * 80, (0.35, 0.65))
    # P(a 32-game cell at 50% reads outside 35-65%) = P(k <= 11 or k >= 21) = 2 * 0.0551
    assert lo <= round(80 * 2 * 0.0551) <= hi and abs(mid - 80 * 2 * 0.0551) <= 2
    assert noise_outside([32] * 80, [0.5] * 80, (0.35, 0.65)) == (lo, mid, hi)  # fixed seed
