#!/bin/bash
# Writes docs/balance/round27/REPORT.md from the result dirs (the checkout's .venv; `make install` first).
cd "$(dirname "$0")/../../.."
R=docs/balance/round27
. docs/balance/report-common.sh
SEL='^(all|track A|track B|desert|jungle|desert track A|desert track B|jungle track A|jungle track B|albion|crimea|fenris|nordic|saxony|vesna):'
{
cat <<'HEAD'
# Balance round 27 (2026-12-07, stop 65): tool output (written by `report.sh`)

The prose is in docs/rules-notes.md, "Balance", round 27; the plan, with its amendments as played, in
`plan.md`. **No content changed.** M1 is `m1.patch` here (the Meloch cards' `toward_scythe` popularity
halved, rounded up), played in a worktree with the compiled modules; `search:hard` in both seats,
root 2026, paired with `docs/balance/hard-2026/` (the shipped content on the same deals).
HEAD
echo; echo "## search:hard, shipped content: Crimea and Nordic (cn-*) against the old medium's grid"; echo '```'
$P $MB $H/cn-dA,$H/cn-dB,$H/cn-j | grep -E "$SEL"
echo '```'
echo; echo "## search:hard, shipped content: Vesna and Fenris's desert track A (vf-dA) against the old medium's grid"; echo '```'
$P $MB $H/vf-dA | grep -E "$SEL"
echo '```'
echo; echo "## Six factions of hard's grid against the old medium's grid, and the cells"; echo '```'
$P $MB $H/sa-dA,$H/sa-dB,$H/sa-j,$H/rp-dA,$H/rp-dB,$H/rp-j,$H/cn-dA,$H/cn-dB,$H/cn-j | grep -E '^(all|track A|track B|desert|jungle):'
.venv/bin/python tools/balance_cells.py $H/sa-dA $H/sa-dB $H/sa-j $H/rp-dA $H/rp-dB $H/rp-j $H/cn-dA $H/cn-dB $H/cn-j | tail -6
echo '```'
echo; echo "## The coin column, the turn-limit games, and one traced (readings.py)"; echo '```'
.venv/bin/python $R/readings.py
.venv/bin/python $R/readings.py --trace $H/sa-j 1755
echo '```'
echo; echo "## M1, Saxony and Albion, the jungle's track A (128 deals)"; echo '```'
$P $H/sa-j $R/hard-m1-sa-jA | grep -E "$SEL"
.venv/bin/python docs/balance/round26/surrogates.py $H/sa-j $R/hard-m1-sa-jA
echo '```'
} > $R/REPORT.md
