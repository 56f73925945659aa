#!/bin/bash
# Writes docs/balance/round25/REPORT.md from the result dirs (the checkout's .venv; `make install` first).
cd "$(dirname "$0")/../../.."
R=docs/balance/round25
. docs/balance/report-common.sh
SEL='^(all|track A|track B|desert track A|desert track B|jungle track A|jungle track B|albion|constantinople|crimea|fenris|nordic|polania|rusviet|saxony|togawa|vesna):'
{
cat <<'HEAD'
# Balance round 25 (2026-12-07, stop 63): tool output (written by `report.sh`)

The prose is in docs/rules-notes.md, "Balance", round 25; the plan, with its amendments as played, in
`plan.md`. **No content changed.** Each lever is a patch here against the shipped content (436a7f0);
`hard-<lever>-sa`: `search:hard` in both seats with the lever on the Saxony and Albion deals of root
2026, paired with `docs/balance/hard-2026/sa-dA` (A1, EC1: the desert's track A) or `sa-j` (J2: the
jungle's track A), the shipped content on the same deals.
`diag.txt`, `diag-j.txt`: `diag.py` on every fifth of hard's desert and jungle Saxony and Albion games.

```
git apply docs/balance/round25/ec1.patch   # in a worktree with the compiled modules
meloch simulate run DIR --maps all --tracks all --variants standard --factions all --mats all \
  --mechs all --agents0 search:hard --agents1 search:hard -n 1 --root 2026 --workers 2 \
  --only faction=saxony,albion --only map_side=desert --only track_side=A
python tools/balance_paired.py docs/balance/hard-2026/sa-dA DIR; python tools/balance_fights.py docs/balance/hard-2026/sa-dA DIR
python docs/balance/round25/diag.py 5 docs/balance/hard-2026/sa-dA docs/balance/hard-2026/sa-dB > diag.txt
```
HEAD
for L in a1 ec1 j2; do
  [ -d $R/hard-$L-sa ] || continue
  B=$H/sa-dA; [ $L = j2 ] && B=$H/sa-j
  echo; echo "## search:hard, lever $L against the shipped content (Saxony and Albion, the same deals)"; echo '```'
  $P $B $R/hard-$L-sa | grep -E "$SEL"
  $F $B $R/hard-$L-sa
  echo '```'
done
echo; echo "## search:hard, shipped content: Rusviet and Polania on the desert (rp-dA, rp-dB) against the old medium's grid"; echo '```'
$P $MB $H/rp-dA,$H/rp-dB | grep -E "$SEL"
$F $MB $H/rp-dA,$H/rp-dB
echo '```'
echo; echo "## search:hard, shipped content: Rusviet and Polania on the jungle (rp-j, part way) against the old medium's grid"; echo '```'
$P $MB $H/rp-j | grep -E "$SEL"
$F $MB $H/rp-j
echo '```'
} > $R/REPORT.md
