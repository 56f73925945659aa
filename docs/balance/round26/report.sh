#!/bin/bash
# Writes docs/balance/round26/REPORT.md from the result dirs (the checkout's .venv; `make install` first).
cd "$(dirname "$0")/../../.."
R=docs/balance/round26
. docs/balance/report-common.sh
S=".venv/bin/python $R/surrogates.py"
J2SA=docs/balance/round25/hard-j2-sa,$R/hard-j2-sa-B
SEL='^(all|track A|track B|desert track A|desert track B|jungle track A|jungle track B|albion|polania|rusviet|saxony):'
{
cat <<'HEAD'
# Balance round 26 (2026-12-07, stop 64): tool output (written by `report.sh`)

The prose is in docs/rules-notes.md, "Balance", round 26; the plan, with its amendments as played, in
`plan.md`. **No content changed.** Each lever is a patch against the shipped content: J2 is
`docs/balance/round25/j2.patch` (the jungle's hidden Boast, location 2 -> 6), D2 `d2.patch` here (the
desert's hidden Boast, location 2 -> 8). `search:hard` in both seats, root 2026, paired with
`docs/balance/hard-2026/` (the shipped content on the same deals). J2 on Saxony and Albion's jungle is
round 25's `hard-j2-sa` (track A) with this round's `hard-j2-sa-B` (track B).

```
git apply docs/balance/round25/j2.patch   # in a worktree with the compiled modules
meloch simulate run DIR --maps all --tracks all --variants standard --factions all --mats all \
  --mechs all --agents0 search:hard --agents1 search:hard -n 1 --root 2026 --workers 2 \
  --only faction=saxony,albion --only map_side=jungle --only track_side=B
python tools/balance_paired.py docs/balance/hard-2026/sa-j DIR; python docs/balance/round26/surrogates.py docs/balance/hard-2026/sa-j DIR
```
HEAD
echo; echo "## J2, Saxony and Albion, both jungle tracks (256 deals)"; echo '```'
$P $H/sa-j $J2SA | grep -E "$SEL"
$F $H/sa-j $J2SA
$S $H/sa-j $J2SA
$C $H/sa-j $J2SA $MB | tail -6
echo '```'
echo; echo "## D2, Saxony and Albion, the desert (track A, and the first track-B deals)"; echo '```'
$P $H/sa-dA,$H/sa-dB $R/hard-d2-sa | grep -E "$SEL"
$F $H/sa-dA,$H/sa-dB $R/hard-d2-sa
$S $H/sa-dA,$H/sa-dB $R/hard-d2-sa
echo '```'
echo; echo "## J2, Rusviet and Polania, the jungle"; echo '```'
$P $H/rp-j $R/hard-j2-rp | grep -E "$SEL"
$F $H/rp-j $R/hard-j2-rp
$S $H/rp-j $R/hard-j2-rp
echo '```'
echo; echo "## search:hard, shipped content: Rusviet and Polania on the jungle (rp-j) against the old medium's grid"; echo '```'
$P $MB $H/rp-j | grep -E "$SEL"
echo '```'
echo; echo "## Hard's grid so far (shipped content): the cells"; echo '```'
.venv/bin/python tools/balance_cells.py $H/sa-dA $H/sa-dB $H/sa-j $H/rp-dA $H/rp-dB $H/rp-j | tail -8
echo '```'
} > $R/REPORT.md
