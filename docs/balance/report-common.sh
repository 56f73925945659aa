# Sourced by each round's report.sh (from the checkout's root): the result dirs and tools they share.
H=docs/balance/hard-2026
MB=docs/balance/round15/medium-2026,docs/balance/round18/lever15-dA,docs/balance/round18/lever15-dB,docs/balance/round18/lever15-dB2   # the old medium's grid
P=".venv/bin/python tools/balance_paired.py"
C=".venv/bin/python tools/balance_compress.py"
F=".venv/bin/python tools/balance_fights.py"
dirs() { ls -d "$@" | paste -sd, -; }   # the directories a glob names, comma-joined (balance_paired.py's form)
