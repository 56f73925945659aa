"""The faction x mat cells outside 35-65% (the Scythe seat's win rate), pooled over results directories.

``python tools/balance_cells.py DIR [DIR ...] [--over LEVER ...]`` (``--over`` as in
``balance_union.py``: the lever's games replace the grid's on the same deals) prints the cells
outside the band with their rates, each faction's rate, and the rates by map side and track side.
``balance_union.py`` checks every target but lists only the cells that pass; a lever screen wants
the ones that fail (balance round 9, docs/rules-notes.md). Last, how many cells binomial noise alone
would put outside the band (every cell's games drawn again 4,000 times, fixed seed): with every cell
at 50%, and with every cell at its faction's rate, which tells a faction spread from mat effects
(balance round 16). And the cells with the noise taken out: a logistic fit of faction + mat main
effects to every game (``additive``), whose cells outside the band are the content's, not the
sample's; then how many cells noise around those rates puts outside at the grid's size. The fit and
the noise are ``meloch.sim.cells`` (the report's "content or the sample" section).
"""

from __future__ import annotations

import sys
from collections import defaultdict

from meloch.sim.cells import additive, noise_outside
from meloch.sim.report import TARGETS, pooled

BAND = (100 * TARGETS[1][0], 100 * TARGETS[1][1])
"""The faction x mat band of the report's checks, in percent."""


def _rate(wins: list[bool]) -> float:
    return 100 * sum(wins) / len(wins)


def _noise(cells: dict[tuple[str, str], list[bool]], rates: list[float]) -> str:
    """Cells outside the band when each cell's games are drawn again at the given true rates."""
    lo, mid, hi = noise_outside([len(v) for v in cells.values()], rates, (BAND[0] / 100, BAND[1] / 100))
    return f"{mid} (95% range {lo}-{hi})"


def main(dirs: list[str], over: list[str]) -> None:
    cols = ["faction", "mat", "winner_role", "map_side", "track_side"]
    rows = pooled(dirs, over)[1][cols].to_dict("records")
    cells: dict[tuple[str, str], list[bool]] = defaultdict(list)
    by: dict[str, dict[str, list[bool]]] = defaultdict(lambda: defaultdict(list))
    for r in rows:
        won = r["winner_role"] == "scythe"
        cells[(r["faction"], r["mat"])].append(won)
        for axis in ("faction", "map_side", "track_side"):
            by[axis][r[axis]].append(won)
    out = [(k, _rate(v)) for k, v in sorted(cells.items()) if not BAND[0] <= _rate(v) <= BAND[1]]
    print(f"n={len(rows)}; Scythe {_rate([r['winner_role'] == 'scythe' for r in rows]):.1f}%; "
          f"cells outside {BAND[0]:.0f}-{BAND[1]:.0f}%: {len(out)} of {len(cells)}: "
          + ", ".join(f"{f}/{m} {p:.1f}" for (f, m), p in out))
    for axis, groups in by.items():
        print(f"  {axis}: " + ", ".join(f"{k} {_rate(v):.1f}" for k, v in sorted(groups.items())))
    print("cells outside by binomial noise alone: every cell at 50%: " + _noise(cells, [0.5] * len(cells))
          + "; every cell at its faction's rate: "
          + _noise(cells, [_rate(by["faction"][f]) / 100 for f, _ in cells]))
    fit = additive(cells)
    out_fit = [(key, 100 * q) for key, q in sorted(fit.items()) if not BAND[0] <= 100 * q <= BAND[1]]
    print(f"cells outside by the faction + mat fit (noise taken out): {len(out_fit)} of {len(fit)}"
          + (": " + ", ".join(f"{f}/{m} {p:.1f}" for (f, m), p in out_fit) if out_fit else "")
          + "; with binomial noise around the fit: " + _noise(cells, [fit[key] for key in cells]))


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    args = sys.argv[1:]
    split = args.index("--over") if "--over" in args else len(args)
    main(args[:split], args[split + 1:])
