"""Does a lever compress the faction x mat field, and by how much (issue 15, balance round 24)?

``python tools/balance_compress.py BASE[,BASE2...] LEVER[,LEVER2...] [STRENGTH[,STRENGTH2...]]`` (later
directories' games replace earlier ones' on the same deal, as ``--over`` does in ``balance_cells.py``)

The cell check needs the field narrower, not shifted. Games pair on the deal as in
``balance_paired.py``. Each cell's baseline strength ``s`` is its logit under the faction + mat fit
of the STRENGTH games (``balance_cells.additive``; another root of the same content and agents),
centred on the cells' mean. Both runs are then fitted with ``logit p = a + b * s``: ``b`` is how
much of that spread a run keeps, ``a`` where the field sits, and a lever with a smaller ``b`` than
its baseline narrows the field. Without STRENGTH the baseline's own games give ``s``, which
makes the baseline's ``b`` 1 by construction and favours the lever: the baseline's luck on its
deals is in ``s``, and a lever that changes many games' outcomes loses it (regression to the
mean), so a lever that only reshuffles would read as compressing; STRENGTH avoids that. The
interval on the lever's ``b`` minus the baseline's comes from resampling the deals (2,000 draws,
fixed seed; both runs on the same drawn deals). Last, the lever's own faction + mat fit: its cells
outside 35-65%, and the same with its intercept moved so its overall rate is the baseline's (what a
role counterweight that moves every cell alike would leave), the question a compressive lever
with a role shift has to answer.
"""

from __future__ import annotations

import sys
from collections import defaultdict

import numpy as np
from balance_cells import BAND  # this folder is on the path when run as a script
from balance_paired import Deal, by_deal

from meloch.sim.cells import additive, logistic


def _logit(p: float) -> float:
    return float(np.log(p / (1 - p)))


def _fit_ab(s: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    """Maximum likelihood ``(a, b)`` of ``logit p = a + b * s``, one game a row."""
    a, b = logistic(np.column_stack([np.ones_like(s), s]), np.ones_like(y), y)
    return float(a), float(b)


def _span(fit: dict[tuple[str, str], float]) -> float:
    """Highest fitted cell logit minus the lowest."""
    logits = [_logit(q) for q in fit.values()]
    return max(logits) - min(logits)


def _cells(deals: list[Deal], won: dict[Deal, bool]) -> dict[tuple[str, str], list[bool]]:
    cells: dict[tuple[str, str], list[bool]] = defaultdict(list)
    for d in deals:
        cells[(d[2], d[3])].append(won[d])
    return cells


def _outside(fit: dict[tuple[str, str], float], shift: float = 0.0) -> list[tuple[str, str, float]]:
    out = []
    for (f, m), q in sorted(fit.items()):
        p = 100 / (1 + np.exp(-(_logit(q) + shift)))
        if not BAND[0] <= p <= BAND[1]:
            out.append((f, m, p))
    return out


def _recentre(fit: dict[tuple[str, str], float], cells: dict[tuple[str, str], list[bool]], rate: float) -> float:
    """The logit shift that moves the fitted cells' game-weighted mean rate to ``rate``."""
    lo, hi = -5.0, 5.0
    logits = {k: _logit(q) for k, q in fit.items()}
    n = sum(len(v) for v in cells.values())
    for _ in range(60):
        mid = (lo + hi) / 2
        mean = sum(len(cells[k]) / (1 + np.exp(-(lg + mid))) for k, lg in logits.items()) / n
        lo, hi = (mid, hi) if mean < rate else (lo, mid)
    return (lo + hi) / 2


def main(base_dirs: str, lever_dirs: str, strength_dirs: str | None) -> None:
    def won(r: dict[str, object]) -> bool:
        return r["winner_role"] == "scythe"

    base = by_deal(base_dirs, ["winner_role"], won)
    lever = by_deal(lever_dirs, ["winner_role"], won)
    deals = sorted(set(base) & set(lever))
    base_cells = _cells(deals, base)
    base_fit = additive(base_cells)
    if strength_dirs:
        strength = by_deal(strength_dirs, ["winner_role"], won)
        strength_fit = additive(_cells(sorted(strength), strength))
        print(f"cell strengths from {len(strength)} other games ({strength_dirs})")
    else:
        strength_fit = base_fit
        print("cell strengths from the baseline's own games (its b is 1 by construction; see the docstring)")
    logit = {k: _logit(q) for k, q in strength_fit.items()}
    centre = float(np.mean(list(logit.values())))
    s = np.array([logit[(d[2], d[3])] - centre for d in deals])
    yb = np.array([base[d] for d in deals], dtype=float)
    yl = np.array([lever[d] for d in deals], dtype=float)
    ab, bb = _fit_ab(s, yb)
    al, bl = _fit_ab(s, yl)
    rng = np.random.default_rng(0)
    diffs = []
    for _ in range(2000):
        i = rng.integers(0, len(deals), len(deals))
        diffs.append(_fit_ab(s[i], yl[i])[1] - _fit_ab(s[i], yb[i])[1])
    lo, hi = np.percentile(diffs, [2.5, 97.5])
    print(f"n={len(deals)} deals; Scythe: base {100 * yb.mean():.1f}%, lever {100 * yl.mean():.1f}%")
    print(f"spread kept b: base {bb:.2f}, lever {bl:.2f}; lever - base {bl - bb:+.2f} [{lo:+.2f}, {hi:+.2f}] "
          f"(below 0: the lever compresses); field centre a: base {ab:+.2f}, lever {al:+.2f}")
    lever_cells = _cells(deals, lever)
    lever_fit = additive(lever_cells)
    print(f"fitted cell span (logits): base {_span(base_fit):.2f}, lever {_span(lever_fit):.2f} "
          f"(the band allows {_logit(BAND[1] / 100) - _logit(BAND[0] / 100):.2f})")
    for name, fit, shift in (("base", base_fit, 0.0), ("lever", lever_fit, 0.0),
                             ("lever recentred on the base's rate", lever_fit,
                              _recentre(lever_fit, lever_cells, float(yb.mean())))):
        out = _outside(fit, shift)
        print(f"cells outside the band in the {name} fit{f' (shift {shift:+.2f})' if shift else ''}: "
              f"{len(out)} of {len(fit)}" + (": " + ", ".join(f"{f}/{m} {p:.1f}" for f, m, p in out) if out else ""))


if __name__ == "__main__":
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2], sys.argv[3] if len(sys.argv) == 4 else None)
