"""Issue 15's balance targets over the union of several ``meloch simulate`` results directories.

``docs/balance.md`` plays the full grid in two halves (the mats split in two); each half has its
own ``meloch report``, and this prints the targets over both together (every configuration of
the full grid once): ``python tools/balance_union.py DIR [DIR ...]``. The checks are those of
``meloch/sim/report.py`` (``TARGETS``; a row passes when its point estimate lies in the band).

``--over LEVER [LEVER ...]`` projects a lever onto the grid: each game in the LEVER directories
replaces the grid's game on the same deal (setup, agents and seed: ``meloch report --over``, whose
``pooled`` this uses), so a lever played on one slice of the grid (``meloch simulate run ... --only
map_side=desert``, the grid's root) prints the checks the whole grid would give with that slice's
content changed. Only valid when the lever leaves the rest of the grid's games as they were
(content the other slices never meet).
"""

from __future__ import annotations

import sys
from typing import Any

from meloch.sim.report import TARGETS, pooled
from meloch.sim.stats import wilson


def _pct(k: int, n: int) -> str:
    lo, hi = wilson(k, n)
    return f"{100 * k / n:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]"


def checks(df: Any) -> list[tuple[str, str, int, str, str, bool]]:
    rows: list[tuple[str, str, int, str, str, bool]] = []

    def check(scope: str, value: str, sub: Any, role: str, band: tuple[float, float]) -> None:
        n = len(sub)
        k = int((sub["winner_role"] == role).sum())
        rows.append((scope, value, n, f"{role} {_pct(k, n)}", f"{100 * band[0]:.0f}-{100 * band[1]:.0f}%",
                     band[0] <= k / n <= band[1]))

    for role in ("scythe", "expeditions"):
        check("overall", role, df, role, TARGETS[0])
    for axis in ("map_side", "track_side"):
        for v, sub in df.groupby(axis):
            check(axis.replace("_", " "), str(v), sub, "scythe", TARGETS[0])
    for (fac, mat), sub in df.groupby(["faction", "mat"]):
        check("faction x mat", f"{fac}/{mat}", sub, "scythe", TARGETS[1])
    for v, sub in df.groupby("mech"):
        check("mech", str(v), sub, "expeditions", TARGETS[1])
    return rows


def _games(dirs: list[str], over: list[str]) -> tuple[Any, int, int]:
    """The duels with the same agent in both seats, how many the lever replaced, how many it added."""
    base = len(pooled(dirs)[1]) if over else 0
    _, df, replaced = pooled(dirs, over)
    added = len(df) - base if over else 0
    return df[(df["variant"] == "standard") & (df["agent0"] == df["agent1"])], replaced, added


def main(argv: list[str]) -> None:
    split = argv.index("--over") if "--over" in argv else len(argv)
    df, replaced, added = _games(argv[:split], argv[split + 1:])
    if argv[split + 1:]:
        print(f"{replaced + added} lever games replace {replaced} of the grid's games on the same deals.")
        if added:
            print(f"  {added} lever games have no deal in the grid (another root or grid?): "
                  "they are added, not compared.")
    rows = checks(df)
    print(f"{len(df)} games; {sum(r[5] for r in rows)} of {len(rows)} checks pass.\n")
    print("| scope | value | games | win rate [95% CI] | target | result |\n|---|---|---|---|---|---|")
    for r in rows:
        if r[0] != "faction x mat":
            print("| " + " | ".join(str(x) for x in r[:5]) + f" | {'pass' if r[5] else 'FAIL'} |")
    cells = [r for r in rows if r[0] == "faction x mat"]
    passing = ", ".join(f"{r[1]} ({r[3].split()[1]})" for r in cells if r[5])
    games = sorted({r[2] for r in cells})
    print(f"\nFaction x mat: {sum(r[5] for r in cells)} of {len(cells)} cells pass (games a cell: {games}); "
          f"passing: {passing or 'none'}.")


if __name__ == "__main__":
    main(sys.argv[1:])
