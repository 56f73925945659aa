#!/bin/bash
# Writes docs/balance/round24/REPORT.md from the result dirs (the checkout's .venv; `make install` first).
cd "$(dirname "$0")/../../.."
R=docs/balance/round24
H=docs/balance/hard-2026
HB=docs/balance/round15/heuristic-2026,docs/balance/round18/heuristic-2026-desert   # shipped content, heuristic, root 2026
HB7=docs/balance/round15/heuristic-2027,docs/balance/round18/heuristic-2027-desert  # the same, root 2027
MB=docs/balance/round15/medium-2026,docs/balance/round18/lever15-dA,docs/balance/round18/lever15-dB,docs/balance/round18/lever15-dB2   # the old medium's grid
S26=docs/balance/round15/heuristic-2027,docs/balance/round18/heuristic-2027-desert,docs/balance/round15/heuristic-2028,docs/balance/round18/heuristic-2028-desert   # strengths for root 2026's cells
S27=$HB,docs/balance/round15/heuristic-2028,docs/balance/round18/heuristic-2028-desert   # and for root 2027's
HSA=$H/sa-dA,$H/sa-dB,$H/sa-j   # search:hard, shipped content, Saxony and Albion
P=".venv/bin/python tools/balance_paired.py"
C=".venv/bin/python tools/balance_compress.py"
F=".venv/bin/python tools/balance_fights.py"
SEL='^(all|track A|track B|desert track A|desert track B|jungle track A|jungle track B|albion|constantinople|crimea|fenris|nordic|polania|rusviet|saxony|togawa|vesna):'
{
cat <<'HEAD'
# Balance round 24 (2026-12-07, stop 62): tool output (written by `report.sh`)

The prose is in docs/rules-notes.md, "Balance", round 24; the plan, written before the games, in
`plan.md`. **No content changed.** Each lever is a patch here against the content of d6a0ddb
(`lever.py` and `addE.py` wrote them: Meloch benefit counts scaled, rounded half up; one combat card
added to every `toward_expeditions` set). `h-*`: heuristic in both seats on the whole grid, one
worker each (`h-rs`, `h-rsnr`, `h-rse3` stopped part way: their shape was round 23's); `hard-pc-sa`:
`search:hard` in both seats with `pc` on the Saxony and Albion deals.

```
git apply docs/balance/round24/pc.patch   # in a worktree with the compiled modules
meloch simulate run DIR --maps all --tracks all --variants standard --factions all --mats all \
  --mechs all --agents0 heuristic --agents1 heuristic -n 1 --root 2026 --workers 1
meloch simulate run DIR ... --agents0 search:hard --agents1 search:hard --root 2026 --workers 2 \
  --only faction=saxony,albion
python tools/balance_paired.py BASE DIR; python tools/balance_compress.py BASE DIR
```
HEAD
echo; echo "## search:hard, shipped content: the Saxony and Albion slices complete (512 deals) against the old medium's grid"; echo '```'
$P $MB $HSA | grep -E "$SEL"
echo '```'
for L in rs rsnr rse3 pc p2 c2 pce; do
  [ -d $R/h-$L ] || continue
  echo; echo "## Heuristic, lever $L against the shipped content (root 2026, the same deals)"; echo '```'
  $P $HB $R/h-$L | grep -E "$SEL"
  $C $HB $R/h-$L $S26
  echo '```'
done
echo; echo "## Heuristic, lever pc against the shipped content, root 2027"; echo '```'
$P $HB7 $R/h-pc-2027 | grep -E "$SEL"
$C $HB7 $R/h-pc-2027 $S27
echo '```'
echo; echo "## Heuristic, lever pc, roots 2026 and 2027 pooled (cell strengths from root 2028)"; echo '```'
$C $HB,$HB7 $R/h-pc,$R/h-pc-2027 docs/balance/round15/heuristic-2028,docs/balance/round18/heuristic-2028-desert
echo '```'
echo; echo "## search:hard, shipped content: Rusviet and Polania, the desert's track A (rp-dA) against the old medium's grid"; echo '```'
$P $MB $H/rp-dA | grep -E "$SEL"
$F $MB $H/rp-dA
echo '```'
echo; echo "## search:hard, lever pc against the shipped content's hard slices (Saxony and Albion, the same deals)"; echo '```'
$P $HSA $R/hard-pc-sa | grep -E "$SEL"
$F $HSA $R/hard-pc-sa
$C $HSA $R/hard-pc-sa $MB
echo '```'
} > $R/REPORT.md
