"""A lever's effect on the fighting, deal by deal (issue 15): combats, wins and combat stars a game.

``python tools/balance_fights.py BASE[,BASE2...] LEVER[,LEVER2...]`` reads only the stored games (no
replay) of two results directories that played the same deals (``balance_paired.py`` pairs them the
same way) and prints, per track side and overall, on the deals both played: the Scythe win rate,
combats a game, combats won by each role, stars each role placed on "Win a combat" columns (Saxony's
stacked ones included) and turns, baseline then lever. Why: a lever meant to make the seats fight
less (or lose less) should show it here even where the win rate is too noisy to read.
"""

from __future__ import annotations

import sys
from typing import Any

from balance_paired import by_deal  # this folder is on the path when run as a script

PER_SEAT = ["role", "combats", "combat_wins", "claim_categories"]
COLUMNS = ["winner_role", "turns", *(f"s{i}_{c}" for i in (0, 1) for c in PER_SEAT)]
COMBAT_CATEGORY = "Win a combat"
FIGURES = ("Scythe wins", "combats", "Scythe combat wins", "Expeditions combat wins", "Scythe combat stars",
           "Expeditions combat stars", "turns")


def figures(r: dict[str, Any]) -> tuple[float, ...]:
    """One game's ``FIGURES``."""
    sc, ex = ("s0", "s1") if r["s0_role"] == "scythe" else ("s1", "s0")
    return (float(r["winner_role"] == "scythe"), r[f"{sc}_combats"], r[f"{sc}_combat_wins"], r[f"{ex}_combat_wins"],
            r[f"{sc}_claim_categories"].count(COMBAT_CATEGORY), r[f"{ex}_claim_categories"].count(COMBAT_CATEGORY),
            r["turns"])


def main(base_dirs: str, lever_dirs: str) -> None:
    base, lever = by_deal(base_dirs, COLUMNS, figures), by_deal(lever_dirs, COLUMNS, figures)
    keys = sorted(set(base) & set(lever))
    print(f"{'':>6} {'deals':>5} {'':>5}  " + "  ".join(f"{f:>13}" for f in FIGURES))
    for track in (None, "A", "B"):
        ks = [k for k in keys if track is None or k[1] == track]
        if not ks:
            continue
        for label, games in (("grid", base), ("lever", lever)):
            means = [sum(games[k][i] for k in ks) / len(ks) for i in range(len(FIGURES))]
            print(f"{track or 'all':>6} {len(ks):>5} {label:>5}  " + "  ".join(f"{m:>13.2f}" for m in means))


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
