"""A lever's effect deal by deal (issue 15): the Scythe win-rate difference, lever minus baseline.

``python tools/balance_paired.py BASE[,BASE2...] LEVER[,LEVER2...]`` (comma-separated results
directories are pooled). Games pair on the deal (track side, faction, mat, mech, seed), so both
runs must play the same grid with the same root (the map side is part of the deal: a full grid
plays both); most deals have the same winner either way (the
configuration decides much of a game), which makes
the paired interval (normal approximation on the per-deal differences -1, 0, +1) far tighter than
comparing two win rates. Printed overall, per track side, per map side and per map and track side,
per faction and per faction and track side, with the flips either way.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any, TypeVar

import pyarrow as pa

from meloch.sim.simulate import read_results
from meloch.sim.stats import mean_interval

DEAL = ["map_side", "track_side", "faction", "mat", "mech", "seed"]  # what pairs two games
Deal = tuple[str, str, str, str, str, int]
T = TypeVar("T")


def by_deal(dirs: str, columns: list[str], value: Callable[[dict[str, Any]], T]) -> dict[Deal, T]:
    """Every game of the comma-separated results directories, keyed by its deal, as ``value`` of its row
    (``columns`` read besides the deal's; ``balance_fights.py`` pairs its figures the same way)."""
    tables = [read_results(d, [*DEAL, *columns]) for d in dirs.split(",")]
    return {tuple(r[c] for c in DEAL): value(r) for r in pa.concat_tables(tables).to_pylist()}


def _deals(dirs: str) -> dict[Deal, bool]:
    return by_deal(dirs, ["winner_role"], lambda r: r["winner_role"] == "scythe")


def shift(name: str, base: dict[Deal, bool], lever: dict[Deal, bool], keys: list[Deal]) -> str | None:
    """One line: the Scythe win rates on ``keys`` (True = a Scythe win) and the paired difference with
    its interval and the flips; None under two deals (no interval)."""
    if len(keys) < 2:
        return None
    d = [int(lever[k]) - int(base[k]) for k in keys]
    n = len(d)
    m, half = mean_interval([float(x) for x in d])
    up, down = d.count(1), d.count(-1)
    rate_b, rate_l = sum(base[k] for k in keys) / n, sum(lever[k] for k in keys) / n
    return (f"{name}: n={n} base {100 * rate_b:.1f}% lever "
            f"{100 * rate_l:.1f}% diff {100 * m:+.1f} points, paired 95% CI [{100 * (m - half):+.1f}, "
            f"{100 * (m + half):+.1f}] (flips: {up} lose->win, {down} win->lose, {n - up - down} same)")


def main(base_dirs: str, lever_dirs: str) -> None:
    base, lever = _deals(base_dirs), _deals(lever_dirs)
    keys = sorted(set(base) & set(lever))
    maps = sorted({k[0] for k in keys})
    factions = sorted({k[2] for k in keys})
    scopes: list[tuple[str | None, str | None, str | None]] = (
        [(None, None, None), (None, "A", None), (None, "B", None)]
        + [(m, t, None) for m in maps for t in (None, "A", "B")]
        + [(None, t, f) for f in factions for t in (None, "A", "B")])
    for side, track, faction in scopes:
        ks = [k for k in keys if (side is None or k[0] == side) and (track is None or k[1] == track)
              and (faction is None or k[2] == faction)]
        name = " ".join(x for x in (faction, side, None if track is None else "track " + track) if x) or "all"
        line = shift(name, base, lever, ks)
        if line is not None:
            print(line)

if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: python tools/balance_paired.py BASE[,BASE2...] LEVER[,LEVER2...]")
    main(sys.argv[1], sys.argv[2])
