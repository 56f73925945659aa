"""Round 26's surrogate figures of a lever, read from stored games only (no replay).

``python docs/balance/round26/surrogates.py BASE[,BASE2] LEVER[,LEVER2]``: on the deals both played
(paired as ``tools/balance_paired.py`` pairs them), per faction and per faction and track side,
baseline -> lever: the Scythe win rate (win), "Win a combat" stars of each seat (scomb, ecomb), the
share of games with two or more Scythe combat stars (s2: Saxony's stacked stars, the sources' Duel
rule), combats a game (fights), who took the coin column (scoin "$12", ecoin "$9") and stars placed by
each seat. Why: a 128-deal screen reads a faction's win rate to about +-12 points, and these show the
mechanism a lever is meant to move (round 26's plan) at a size where the win rate cannot.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "tools"))
from balance_fights import COMBAT_CATEGORY
from balance_paired import by_deal

COLS = ["win", "scomb", "ecomb", "s2", "fights", "scoin", "ecoin", "sstars", "estars"]
READ = ["winner_role", *(f"s{i}_{c}" for i in (0, 1) for c in ("role", "combats", "claim_categories"))]


def figures(r: dict[str, Any]) -> tuple[float, ...]:
    """One game's ``COLS``."""
    sc, ex = ("s0", "s1") if r["s0_role"] == "scythe" else ("s1", "s0")
    cs, ce = r[f"{sc}_claim_categories"], r[f"{ex}_claim_categories"]
    return (float(r["winner_role"] == "scythe"), cs.count(COMBAT_CATEGORY), ce.count(COMBAT_CATEGORY),
            float(cs.count(COMBAT_CATEGORY) >= 2), r[f"{sc}_combats"], float("$12" in cs), float("$9" in ce),
            len(cs), len(ce))


def main(base_dirs: str, lever_dirs: str) -> None:
    base, lever = by_deal(base_dirs, READ, figures), by_deal(lever_dirs, READ, figures)
    keys = sorted(set(base) & set(lever))
    print("shared deals", len(keys))
    factions = sorted({k[2] for k in keys})
    groups = [("all", None, None), *((f, f, None) for f in factions),
              *((f"{f} {t}", f, t) for f in factions for t in ("A", "B"))]
    for label, faction, track in groups:
        ks = [k for k in keys if (faction is None or k[2] == faction) and (track is None or k[1] == track)]
        if not ks:
            continue
        print(f"{label:<12} {len(ks):>4}  " + "  ".join(
            f"{c} {sum(base[k][i] for k in ks) / len(ks):.2f}->{sum(lever[k][i] for k in ks) / len(ks):.2f}"
            for i, c in enumerate(COLS)))


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
