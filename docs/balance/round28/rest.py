"""The old medium's grid (the shipped content's previous report) on the deals hard's grid has and has
not played: the Scythe seat's rate overall, by track side and by map side. It says where hard's grid
may end while slices are missing (round 28, docs/balance/round28/plan.md). Run from the checkout."""

import glob

from meloch.sim.report import pooled

OLD_MEDIUM = ["docs/balance/round15/medium-2026", "docs/balance/round18/lever15-dA",
              "docs/balance/round18/lever15-dB", "docs/balance/round18/lever15-dB2"]
DEAL = ["map_side", "track_side", "variant", "faction", "mat", "mech", "seed"]
SLICES = (("track_side", "A"), ("track_side", "B"), ("map_side", "desert"), ("map_side", "jungle"))


def main() -> None:
    _, old, _ = pooled([OLD_MEDIUM[0]], OLD_MEDIUM[1:])
    _, hard, _ = pooled(sorted(glob.glob("docs/balance/hard-2026/*-*")))
    hit = old.set_index(DEAL).index.isin(hard.set_index(DEAL).index)
    for name, d in (("old medium, all", old), ("old medium, played by hard", old[hit]),
                    ("old medium, not yet played by hard", old[~hit])):
        won = d["winner_role"] == "scythe"
        parts = [f"{v}={won[d[c] == v].mean():.1%} (n={int((d[c] == v).sum())})" for c, v in SLICES]
        print(f"{name}: n={len(d)} Scythe {won.mean():.1%};", ", ".join(parts))


if __name__ == "__main__":
    main()
