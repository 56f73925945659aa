"""A lever screen for issue 15: win rates and Triumph claims of one or more results directories.

``python tools/balance_screen.py DIR [DIR ...]`` prints the Scythe seat's win rate overall, by
track side, map side, faction and mech (95% Wilson intervals), and per track side the share of
games in which each role claimed each category, with the median turn of the claim, and who holds
each column at the end (the track takes one star a column, so a category is lost once the
opponent's category in the same column is claimed). It is what
``docs/rules-notes.md`` "Balance" quotes for each lever; ``meloch report`` is the full report.
Arguments of the form ``AXIS=VALUE[,VALUE...]`` (``map_side=desert``, ``faction=albion,saxony``) keep only those games,
so a slice of a grid reads against a lever played on that slice alone.
"""

from __future__ import annotations

import statistics
import sys
from collections import defaultdict
from typing import Any

import pyarrow as pa
from balance_union import _pct  # this folder is on the path when run as a script

from meloch.sim.simulate import read_results

COLUMNS = ["map_side", "track_side", "faction", "mat", "mech", "winner_role", "turns",
           "s0_role", "s1_role", "s0_claim_categories", "s1_claim_categories", "s0_claim_columns", "s1_claim_columns",
           "s0_claim_turns", "s1_claim_turns"]
AXES = ("track_side", "map_side", "faction", "mech", "mat")


def keep(rows: list[dict[str, Any]], filters: list[str]) -> list[dict[str, Any]]:
    """The rows matching every ``AXIS=VALUE[,VALUE...]`` filter (any of the values)."""
    only = [(k, v.split(",")) for k, v in (f.split("=", 1) for f in filters)]
    for k, _ in only:
        if k not in AXES:
            raise SystemExit(f"unknown axis {k!r} in a filter; axes: {', '.join(AXES)}")
    return [r for r in rows if all(str(r[k]) in vs for k, vs in only)]


def main(args: list[str]) -> None:
    dirs = [a for a in args if "=" not in a]
    rows = keep(pa.concat_tables([read_results(d, COLUMNS) for d in dirs]).to_pylist(), [a for a in args if "=" in a])
    n = len(rows)
    k = sum(r["winner_role"] == "scythe" for r in rows)
    print(f"Scythe overall {_pct(k, n)} n={n}; median turns {statistics.median(r['turns'] for r in rows)}")
    for axis in AXES:
        groups: dict[str, list[bool]] = defaultdict(list)
        for r in rows:
            groups[str(r[axis])].append(r["winner_role"] == "scythe")
        print(f"  {axis}: " + "; ".join(f"{v} {100 * sum(g) / len(g):.0f}%" for v, g in sorted(groups.items())))
    for track in sorted({r["track_side"] for r in rows}):
        sub = [r for r in rows if r["track_side"] == track]
        print(f"track {track} ({len(sub)} games): share claimed (median turn)")
        for role in ("scythe", "expeditions"):
            turns: dict[str, list[int]] = defaultdict(list)
            for r in sub:
                seat = 0 if r["s0_role"] == role else 1
                for cat, t in zip(r[f"s{seat}_claim_categories"], r[f"s{seat}_claim_turns"], strict=True):
                    turns[cat].append(t)
            print(f"  {role}: " + "; ".join(f"{c} {100 * len(t) / len(sub):.0f}% ({statistics.median(t):g})"
                                            for c, t in sorted(turns.items(), key=lambda x: -len(x[1]))))
        held: dict[tuple[str, int], int] = defaultdict(int)
        for r in sub:
            for seat in (0, 1):
                for col in r[f"s{seat}_claim_columns"]:
                    held[(r[f"s{seat}_role"], col)] += 1
        print("  columns held (Scythe/Expeditions games): " + "; ".join(
            f"{c + 1}: {held[('scythe', c)]}/{held[('expeditions', c)]}" for c in range(8)))


if __name__ == "__main__":
    if not [a for a in sys.argv[1:] if "=" not in a]:
        sys.exit(__doc__)
    main(sys.argv[1:])
