#!/bin/bash
# Writes docs/balance/round29/REPORT.md from the result dirs (the checkout's .venv; `make install` first).
cd "$(dirname "$0")/../../.."
R=docs/balance/round29
. docs/balance/report-common.sh
SEL='^(all|track A|track B|desert|jungle|desert track A|desert track B|jungle track A|jungle track B|togawa|constantinople):'
SLICES=$(dirs $H/*-*)
DA=$(dirs $H/*-dA)
{
cat <<'HEAD'
# Balance round 29 (2026-12-07, stop 67): tool output (written by `report.sh`)

The prose is in docs/rules-notes.md, "Balance", round 29; the plan, with its amendments as played, in
`plan.md`. **No content changed.** `search:hard` in both seats, root 2026. "base" in the first two
sections is the old medium's grid on the same deals; M3 (`m3.patch`: track A's column 3 "blue gem 3"
read as "Deploy 3 mechs") and D6 (`d6.patch`: the desert's oil one step out) are paired with
hard's grid on the shipped content.
HEAD
echo; echo "## Togawa and Constantinople (tc-*) against the old medium's grid"; echo '```'
$P $MB $H/tc-dA,$H/tc-dB,$H/tc-j | grep -E "$SEL"
echo '```'
echo; echo "## Hard's whole grid (15 slices, 2,560 deals) against the old medium's grid, and the cells"; echo '```'
$P $MB $SLICES | grep -E '^(all|track A|track B|desert|jungle|desert track A|desert track B|jungle track A|jungle track B):'
.venv/bin/python tools/balance_cells.py $(ls -d $H/*-*) | tail -8
echo '```'
if [ -d $R/hard-m3-dA ]; then
  echo; echo "## M3 on the desert's track A (lumberjack and odins_wrath, every faction and mat)"; echo '```'
  $P $DA $R/hard-m3-dA | grep -E '^(all|[a-z]+):'
  .venv/bin/python $R/m3.py $DA $R/hard-m3-dA
  echo '```'
fi
if [ -d $R/hard-m3-jA ]; then
  echo; echo "## M3 on the jungle's track A (lumberjack, every faction and mat; unpaired: its seeds are not the grid's)"; echo '```'
  .venv/bin/python - $R/hard-m3-jA <<'PY'
import glob, sys
from meloch.sim.simulate import read_results
from meloch.sim.stats import wilson
base = [r for d in glob.glob("docs/balance/hard-2026/*-j") for r in read_results(d).to_pylist()
        if r["track_side"] == "A" and r["mech"] == "lumberjack"]
lever = read_results(sys.argv[1]).to_pylist()
for name, rs in (("grid (shipped)", base), ("M3", lever)):
    k = sum(r["winner_role"] == "scythe" for r in rs)
    lo, hi = wilson(k, len(rs))
    print(f"{name}: n={len(rs)} Scythe {100 * k / len(rs):.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]")
PY
  echo '```'
fi
if [ -d $R/hard-d6-dA ]; then
  D6A=$R/hard-d6-dA,$R/hard-d6-dA2   # hard-d6-dA3 joins when complete (320 deals)
  echo; echo "## D6 on the desert's track A (the desert's oil one step out; $D6A)"; echo '```'
  $P $DA $D6A | grep -E '^(all|[a-z]+):'
  .venv/bin/python $R/m3.py $DA $D6A
  echo '```'
fi
if [ -d $R/hard-d6-dB ]; then
  DB=$(dirs $H/*-dB)
  D6B=$(dirs $R/hard-d6-dB*)
  echo; echo "## D6 on the desert's track B ($D6B)"; echo '```'
  $P $DB $D6B | grep -E '^(all|[a-z]+):'
  .venv/bin/python $R/m3.py $DB $D6B | sed -n '1,12p'
  echo '```'
fi
} > $R/REPORT.md
