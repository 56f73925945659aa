"""Round 26's surrogate figures of a lever, read from stored games only (no replay).

``python docs/balance/round26/surrogates.py BASE[,BASE2] LEVER[,LEVER2]``: on the deals both played
(same configuration and seed), per faction and per faction and track side, baseline -> lever:
the Scythe win rate (win), "Win a combat" stars of each seat (scomb, ecomb), the share of games with
two or more Scythe combat stars (s2: Saxony's stacked stars, the sources' Duel rule), combats a game
(fights), who took the coin column (scoin "$12", ecoin "$9") and stars placed by each seat. Why: a
128-deal screen reads a faction's win rate to about +-12 points, and these show the mechanism a lever
is meant to move (round 26's plan) at a size where the win rate cannot.
"""

from __future__ import annotations

import sys

import pandas as pd

from meloch.sim.report import pooled

KEY = ["config_id", "seed"]
COLS = ["win", "scomb", "ecomb", "s2", "fights", "scoin", "ecoin", "sstars", "estars"]


def table(dirs: str) -> pd.DataFrame:
    _, df, _ = pooled(dirs.split(","))
    rows = []
    for _, r in df.iterrows():
        sc, ex = ("s0", "s1") if r.s0_role == "scythe" else ("s1", "s0")
        cs, ce = list(r[sc + "_claim_categories"]), list(r[ex + "_claim_categories"])
        rows.append(dict(config_id=r.config_id, seed=r.seed, faction=r.faction, track=r.track_side,
                         win=int(r.winner_role == "scythe"), scomb=cs.count("Win a combat"),
                         ecomb=ce.count("Win a combat"), s2=int(cs.count("Win a combat") >= 2),
                         fights=r[sc + "_combats"], scoin=int("$12" in cs), ecoin=int("$9" in ce),
                         sstars=len(cs), estars=len(ce)))
    return pd.DataFrame(rows)


def main(base: str, lever: str) -> None:
    m = table(base).merge(table(lever), on=KEY, suffixes=("_b", "_l"))
    print("shared deals", len(m))
    groups = [("all", m), *m.groupby("faction_b"), *m.groupby(["faction_b", "track_b"])]
    for g, sub in groups:
        label = g if isinstance(g, str) else " ".join(g)
        print(f"{label:<12} {len(sub):>4}  " + "  ".join(
            f"{c} {sub[c + '_b'].mean():.2f}->{sub[c + '_l'].mean():.2f}" for c in COLS))


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
