#!/bin/bash
# Complementary slice: the other 4 mats and 4 mechs, root 12. Runs base-jungle-b, j1-b, base-desert-b, d1-b in sequence.
set -e
cd "$(git rev-parse --show-toplevel)"  # (run from a checkout of main)
M=(simulate run)
G="--tracks all --factions all --mats engineering,innovative,militant,patriotic --mechs highlander,marsh_strider,odins_wrath,tatanka --agents0 heuristic --agents1 heuristic -n 1 --root 12 --workers 1 --no-progress"
run() { PYTHONPATH=$PWD .venv/bin/python -m meloch.cli.main simulate run /tmp/bal/$1 --maps $2 $G > /tmp/bal/$1.log 2>&1; }
test -z "$(git status --porcelain meloch/)"
run base-jungle-b jungle
git apply docs/balance/round4/j1-village-next-to-home.patch
PYTHONPATH=$PWD .venv/bin/python -c "from meloch.content import load; load()"
run j1-b jungle
git checkout -- meloch/content/data/maps/jungle.yaml
run base-desert-b desert
git apply docs/balance/round4/d1-no-village-next-to-home.patch
PYTHONPATH=$PWD .venv/bin/python -c "from meloch.content import load; load()"
run d1-b desert
git checkout -- meloch/content/data/maps/desert.yaml
echo ALLDONE
