#!/bin/bash
# Writes docs/balance/round23/REPORT.md from the result dirs (the checkout's .venv; `make install` first).
cd "$(dirname "$0")/../../.."
R=docs/balance/round23
H=docs/balance/hard-2026
HB=docs/balance/round15/heuristic-2026,docs/balance/round18/heuristic-2026-desert   # the shipped content's heuristic grid, root 2026
MB=docs/balance/round15/medium-2026,docs/balance/round18/lever15-dA,docs/balance/round18/lever15-dB,docs/balance/round18/lever15-dB2   # the old medium's grid
P=".venv/bin/python tools/balance_paired.py"
F=".venv/bin/python tools/balance_fights.py"
SEL='^(all|track A|track B|desert|jungle|albion|saxony|desert track A|desert track B|jungle track A|jungle track B):'
HARD=$(ls -d $H/sa-* | paste -sd,)
{
cat <<'HEAD'
# Balance round 23 (2026-12-07, stop 61): tool output (written by `report.sh`)

The prose is in docs/rules-notes.md, "Balance", round 23; the plan, written before the medium games,
in `plan.md`. **No content changed.**

- `h-base/`, `h-r3/`, `h-rs/`, `h-enc/`: heuristic in both seats, root 2026, one worker each, stopped
  part way (h-base: the shipped content, which replays the stored grid's winners on every deal it
  played; the levers: `r3.patch`, `rs.patch`, `enc.patch`, each against the content of 78aac9e).
- `m60-sa/`: the stop-60 `search:medium` in both seats on the grid's Saxony and Albion deals
  (`--only faction=saxony,albion`, root 2026), paused after 138 games (the desert's track A, and 10
  of its track B): resumable with `meloch simulate resume docs/balance/round23/m60-sa -w 2`.
- `../hard-2026/sa-*`: `search:hard` in both seats on the same factions' deals, by map and track
  slice (`--only faction=saxony,albion --only map_side=desert --only track_side=A`, and so on).

```
meloch simulate run DIR --maps all --tracks all --variants standard --factions all --mats all \
  --mechs all --agents0 search:hard --agents1 search:hard -n 1 --root 2026 --workers 2 \
  --only faction=saxony,albion --only map_side=desert --only track_side=A
python tools/balance_paired.py BASE DIR; python tools/balance_fights.py BASE DIR
```
HEAD
for L in r3 rs enc; do
  echo; echo "## Heuristic, lever $L against the shipped content (the same deals)"; echo '```'
  $P $HB $R/h-$L | grep -E "$SEL"
  echo '```'
done
echo; echo "## h-base: the shipped content replayed with today's heuristic"; echo '```'
$P $HB $R/h-base | sed -n 1p
echo '```'
echo; echo "## The stop-60 medium (m60-sa) against the old medium's grid, the same deals"; echo '```'
$P $MB $R/m60-sa | grep -E "$SEL"
$F $MB $R/m60-sa
echo '```'
echo; echo "## search:hard on the desert's track A (sa-dA) against the stop-60 medium, the same 128 deals"; echo '```'
$P $R/m60-sa $H/sa-dA | grep -E "$SEL"
$F $R/m60-sa $H/sa-dA
echo '```'
echo; echo "## search:hard (every sa-* slice) against the old medium's grid, the same deals"; echo '```'
$P $MB $HARD | grep -E "$SEL"
$F $MB $HARD
echo '```'
} > $R/REPORT.md
