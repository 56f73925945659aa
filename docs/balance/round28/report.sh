#!/bin/bash
# Writes docs/balance/round28/REPORT.md from the result dirs (the checkout's .venv; `make install` first).
cd "$(dirname "$0")/../../.."
R=docs/balance/round28
. docs/balance/report-common.sh
SEL='^(all|track A|track B|desert|jungle|desert track A|desert track B|jungle track A|jungle track B|vesna|fenris|togawa|constantinople):'
SLICES=$(ls -d $H/*-* | tr '\n' ',' | sed 's/,$//')
{
cat <<'HEAD'
# Balance round 28 (2026-12-07, stop 66): tool output (written by `report.sh`)

The prose is in docs/rules-notes.md, "Balance", round 28; the plan, with its amendments as played, in
`plan.md`. **No content changed.** `search:hard` in both seats, root 2026, the shipped content;
"base" below is the old medium's grid on the same deals.
HEAD
echo; echo "## Vesna and Fenris (vf-*) against the old medium's grid"; echo '```'
$P $MB $H/vf-dA,$H/vf-dB,$H/vf-j | grep -E "$SEL"
echo '```'
for s in tc-dA tc-dB tc-j; do
  [ -d $H/$s ] || continue
  echo; echo "## Togawa and Constantinople, $s (as far as played) against the old medium's grid"; echo '```'
  $P $MB $H/$s | grep -E "$SEL"
  echo '```'
done
echo; echo "## Every slice of hard's grid played so far against the old medium's grid, and the cells"; echo '```'
$P $MB $SLICES | grep -E '^(all|track A|track B|desert|jungle|desert track A|desert track B|jungle track A|jungle track B):'
.venv/bin/python tools/balance_cells.py $(ls -d $H/*-*) | tail -8
echo '```'
echo; echo "## The old medium's grid on the deals hard's grid has not played (rest.py)"; echo '```'
.venv/bin/python $R/rest.py
echo '```'
} > $R/REPORT.md
