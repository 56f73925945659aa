"""How many faction x mat cells binomial noise alone puts outside 35-65% (issue 15).

``python tools/balance_noise.py DIR[,DIR2...]`` draws every cell's games again (4,000 times, fixed
seed) at a given true rate and counts the cells whose drawn rate falls outside the band: once with
every cell at 50%, once with every cell at its faction's observed rate. It tells a faction spread
from mat effects, and how many games a cell needs before the cell target can be judged at all.
"""

from __future__ import annotations

import sys
from collections import defaultdict
from collections.abc import Callable

import numpy as np
import pyarrow as pa

from meloch.sim.simulate import read_results

LOW, HIGH, DRAWS = 0.35, 0.65, 4000
Cell = tuple[str, str]


def main(dirs: str) -> None:
    rows = pa.concat_tables([read_results(d, ["faction", "mat", "winner_role"]) for d in dirs.split(",")]).to_pylist()
    cell: dict[Cell, list[int]] = defaultdict(lambda: [0, 0])
    faction: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for r in rows:
        won = int(r["winner_role"] == "scythe")
        for tally in (cell[(r["faction"], r["mat"])], faction[r["faction"]]):
            tally[0] += won
            tally[1] += 1
    observed = sum(not LOW <= k / n <= HIGH for k, n in cell.values())
    rng = np.random.default_rng(0)
    keys = sorted(cell)
    sizes = np.array([cell[k][1] for k in keys])

    def outside(rate: Callable[[Cell], float]) -> str:
        p = np.array([rate(k) for k in keys])
        drawn = rng.binomial(sizes, p, size=(DRAWS, len(keys))) / sizes
        counts = ((drawn < LOW) | (drawn > HIGH)).sum(axis=1)
        lo, mid, hi = np.percentile(counts, [2.5, 50, 97.5]).astype(int)
        return f"{mid} (95% range {lo}-{hi})"

    print(f"{len(rows)} games, {len(keys)} cells ({sizes.min()}-{sizes.max()} games a cell); "
          f"outside {LOW:.0%}-{HIGH:.0%}: {observed} observed")
    print(f"  noise alone, every cell at 50%: {outside(lambda k: 0.5)}")
    print(f"  noise alone, every cell at its faction's rate: "
          f"{outside(lambda k: faction[k[0]][0] / faction[k[0]][1])}")


if __name__ == "__main__":
    main(sys.argv[1])
