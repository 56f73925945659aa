#!/bin/bash
# Writes docs/balance/round19/REPORT.md from the result dirs (the checkout's .venv; `make install` first).
cd "$(dirname "$0")/../../.."
R=docs/balance/round19
G=docs/balance/round15/medium-2026
L=docs/balance/round18; O="--over $L/lever15-dA $L/lever15-dB $L/lever15-dB2"
P=".venv/bin/python tools/balance_paired.py"
S=".venv/bin/python tools/balance_screen.py"
M="mat=engineering,industrial,innovative,militant"
{
cat <<'HEAD'
# Balance round 19 (2026-12-05, stop 48): tool output (written by `report.sh`)

lever16 (`lever16.patch`, against ccc6071: jungle 5 gathers a combat card and $1, not $2), played with
`search:medium` in both seats on the medium grid's own jungle deals (root 2026), so each game pairs
with the grid's game on the same deal (`docs/balance/round15/medium-2026`; the jungle's games there
are the shipped content's, lever15 changing only the desert). **Not adopted**: the content is
unchanged. The prose is in docs/rules-notes.md, "Balance", round 19.

- `lever16-jB/`: the jungle's track B for four mats, every faction and mech, 320 deals
  (`--only map_side=jungle --only track_side=B --only mat=engineering,industrial,innovative,militant`).
- `lever16-jA/`: the jungle's track A for two mats, every faction and mech, 160 deals (`--only map_side=jungle --only track_side=A --only mat=engineering,industrial`).
- `gains-jungle-highlander.txt`, `combats-jungle-B.txt`: the diagnostics quoted in the notes (replays of the grid's games; not rerun by this script).

Played in a worktree of main with the patch applied and the compiled modules copied:

```
PYTHONPATH=WORKTREE meloch simulate run DIR --maps all --tracks all --variants standard --factions all \
  --mats all --mechs all --agents0 search:medium --agents1 search:medium -n 1 --root 2026 --workers 2 \
  --only map_side=jungle --only track_side=B --only mat=engineering,industrial,innovative,militant
python tools/balance_paired.py docs/balance/round15/medium-2026 DIR
```
HEAD
for d in lever16-jB lever16-jA; do
  [ -d $R/$d ] || continue
  echo; echo "## $d vs the medium grid, the same deals"; echo '```'
  $P $G $R/$d
  echo '```'
done
echo; echo "## Claims, jungle track B, the same 320 deals: the grid's games, then lever16's"; echo '```'
$S $G map_side=jungle track_side=B $M; echo; $S $R/lever16-jB
echo '```'
if [ -d $R/lever16-jA ]; then
  echo; echo "## Claims, jungle track A, the same 160 deals: the grid's games, then lever16's"; echo '```'
  $S $G map_side=jungle track_side=A mat=engineering,industrial; echo; $S $R/lever16-jA
  echo '```'
fi
echo; echo "## The medium grid on the shipped content with lever16's games in place (a projection, not adopted)"; echo '```'
.venv/bin/python tools/balance_union.py $G $O $R/lever16-jB $( [ -d $R/lever16-jA ] && echo $R/lever16-jA ) | sed -n 1,12p
echo '```'
} > $R/REPORT.md
