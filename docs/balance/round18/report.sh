#!/bin/bash
# Writes docs/balance/round18/REPORT.md from the result dirs (the checkout's .venv; `make install` first).
cd "$(dirname "$0")/../../.."
R=docs/balance/round18
G=docs/balance/round15/medium-2026
P=".venv/bin/python tools/balance_paired.py"
U=".venv/bin/python tools/balance_union.py"
S=".venv/bin/python tools/balance_screen.py"
{
cat <<'HEAD'
# Balance round 18 (2026-12-05, stops 46 and 47): tool output (written by `report.sh`)

lever15, the desert's village moved a step farther from the Scythe home, played with `search:medium`
in both seats on **the medium grid's own deals** (root 2026, every faction, mat and mech), sliced with
`--only`, so each game pairs with the grid's game on the same deal
(`docs/balance/round15/medium-2026`, round 15's content) and the grid can be projected with the
lever's games in place of the slice's. The prose is in docs/rules-notes.md, "Balance", round 18.
`lever15.patch` is the lever's content, applied to 1592761 (round 15's content); **adopted in stop 47**
(the shipped desert map), so the three directories below are every desert deal of the grid on the
shipped content, and the grid's jungle games are unchanged by it (the desert map is the only file it
changes; 7 jungle deals replayed on it end in the grid's final state, the same final hash).

- `lever15-dA/`: the desert's track-A slice, all 640 deals (`--only track_side=A --only map_side=desert`).
- `lever15-dB/`: the desert's track-B slice, four factions' 256 deals (`--only track_side=B --only
  map_side=desert --only faction=albion,crimea,nordic,saxony`).
- `lever15-dB2/`: the same for the other six factions' 384 deals (`--only
  faction=constantinople,fenris,polania,rusviet,togawa,vesna`; started in stop 46, finished in 47).

```
meloch simulate run DIR --maps all --tracks all --variants standard --factions all --mats all --mechs all \
  --agents0 search:medium --agents1 search:medium -n 1 --root 2026 --workers 2 \
  --only track_side=A --only map_side=desert
python tools/balance_paired.py docs/balance/round15/medium-2026 DIR
python tools/balance_union.py docs/balance/round15/medium-2026 --over DIR   # the grid with DIR's deals replaced
meloch report docs/balance/round15/medium-2026 --over DIR ...                # the same as a full report
```
HEAD
for d in lever15-dA lever15-dB lever15-dB2; do
  echo; echo "## $d vs the medium grid (round 15), the same deals"; echo '```'
  $P $G $R/$d
  echo '```'
done
echo; echo "## Every desert deal (the three directories together) vs the medium grid, the same deals"; echo '```'
$P $G $R/lever15-dA,$R/lever15-dB,$R/lever15-dB2 2>/dev/null | head -6
echo '```'
echo; echo "## Claims, desert track A: the grid's games, then lever15's"; echo '```'
$S $G map_side=desert track_side=A; echo; $S $R/lever15-dA
echo '```'
echo; echo "## Claims, desert track B: the grid's games, then lever15's"; echo '```'
$S $G map_side=desert track_side=B; echo; $S $R/lever15-dB $R/lever15-dB2
echo '```'
echo; echo "## The medium grid with lever15's desert track-A games in place of its own"; echo '```'
$U $G --over $R/lever15-dA
echo '```'
echo; echo "## ... and every desert deal (tracks A and B): the medium grid on the shipped content"; echo '```'
$U $G --over $R/lever15-dA $R/lever15-dB $R/lever15-dB2
echo '```'
} > $R/REPORT.md
