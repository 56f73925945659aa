"""Round 29's M3 and D6 screens read by mat group and by track-A column (issue 15).

``python docs/balance/round29/m3.py BASE[,BASE...] LEVER[,LEVER...]`` pairs the lever's games with the
baseline's on the deal (``tools/balance_paired.py``'s key) and prints, for the Scythe seat:

- the paired win-rate shift for the mats whose Deploy costs 4 metal (agricultural, engineering,
  patriotic: the ones "Deploy 3 mechs" should cost most) and for the other five;
- per mat, the baseline and lever rates;
- who holds each track-A column at the end, baseline against lever (the column's Scythe category,
  its Expeditions category, or neither), and the median turn of the claims, so the mechanism shows
  beside the result.
"""

from __future__ import annotations

import statistics
import sys
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "tools"))

from balance_paired import DEAL, by_deal, shift

DEPLOY4 = ("agricultural", "engineering", "patriotic")
COLUMNS = ["winner_role", "s0_role", "s0_claim_columns", "s0_claim_categories", "s0_claim_turns",
           "s1_claim_columns", "s1_claim_categories", "s1_claim_turns"]


def _claims(r: dict[str, Any]) -> list[tuple[str, int, str, int]]:
    """(role, column, category, turn) of every star placed in the game."""
    out = []
    for s in ("s0", "s1"):
        role = r["s0_role"] if s == "s0" else ("expeditions" if r["s0_role"] == "scythe" else "scythe")
        cols, cats, turns = r[f"{s}_claim_columns"], r[f"{s}_claim_categories"], r[f"{s}_claim_turns"]
        out += [(role, col, cat, turn) for col, cat, turn in zip(cols, cats, turns, strict=True)]
    return out


def main(base_dirs: str, lever_dirs: str) -> None:
    base = by_deal(base_dirs, COLUMNS, lambda r: r)
    lever = by_deal(lever_dirs, COLUMNS, lambda r: r)
    keys = sorted(set(base) & set(lever))
    mat = DEAL.index("mat")
    won_b = {k: base[k]["winner_role"] == "scythe" for k in keys}
    won_l = {k: lever[k]["winner_role"] == "scythe" for k in keys}
    print(f"{len(keys)} deals paired")
    groups = [("all", keys), ("deploy-4 mats", [k for k in keys if k[mat] in DEPLOY4]),
              ("other mats", [k for k in keys if k[mat] not in DEPLOY4])]
    groups += [(f"  {m}", [k for k in keys if k[mat] == m]) for m in sorted({k[mat] for k in keys})]
    for name, ks in groups:
        line = shift(name, won_b, won_l, ks)
        if line is not None:
            print(line)
    print("who holds each column at the end (track A deals), baseline -> lever: % of deals (median claim turn)")
    track_a = [k for k in keys if k[DEAL.index("track_side")] == "A"]
    held: dict[str, Counter[tuple[int, str]]] = {}
    turns: dict[str, defaultdict[tuple[int, str], list[int]]] = {}
    for name, runs in (("base", base), ("lever", lever)):
        held[name], turns[name] = Counter(), defaultdict(list)
        for k in track_a:
            for role, col, cat, turn in _claims(runs[k]):
                held[name][(col + 1, f"{role} {cat}")] += 1  # stored 0-based
                turns[name][(col + 1, f"{role} {cat}")].append(turn)
    n = max(1, len(track_a))

    def cell(name: str, key: tuple[int, str]) -> str:
        t = turns[name].get(key)
        return f"{100 * held[name][key] / n:.0f}% ({statistics.median(t):.0f})" if t else "0%"

    for key in sorted(set(held["base"]) | set(held["lever"])):
        print(f"  column {key[0]} {key[1]}: {cell('base', key)} -> {cell('lever', key)}")

if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
