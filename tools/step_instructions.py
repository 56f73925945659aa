"""Instructions per random-game step under valgrind's callgrind: a deterministic speed figure.

``meloch bench`` measures CPU time, which moves by 10% and more between moments on a shared machine;
the number of instructions a step executes does not, so it tells a 2% change from noise in one run.
Usage: ``python tools/step_instructions.py [GAMES] [--keep DIR]`` (needs ``valgrind``; about 40 s for
20 games). It runs the same script with 0 and with GAMES random games (``RandomAgent(k)`` in both
seats, seeds 1..GAMES, through ``meloch.sim.runner.play_game``) and prints (instructions of the
second - instructions of the first) / steps, with ``PYTHONHASHSEED=0`` (string hashes move set
orders and dict probes by about 0.5% from run to run otherwise). Use the build you mean to measure (``make fast`` or
``MELOCH_PURE=1``); ``--keep DIR`` keeps both callgrind files for ``callgrind_annotate``.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

GAMES = """
import sys
from meloch.agents import RandomAgent
from meloch.engine import Setup, new_game
from meloch.sim.runner import play_game
setup = Setup()
new_game(setup, 0)
steps = 0
for g in range(int(sys.argv[1])):
    agent = RandomAgent(g + 1)
    steps += play_game(setup, g + 1, (agent, agent)).decisions
print("steps", steps)
"""


def run(games: int, out: Path) -> tuple[int, int]:
    """(instructions, steps) of one run under callgrind."""
    script = out.parent / "games.py"
    script.write_text(GAMES)
    p = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", sys.executable,
                        str(script), str(games)], capture_output=True, text=True, check=True,
                       env={**os.environ, "PYTHONHASHSEED": "0"})
    ir = re.search(r"Collected : (\d+)", p.stderr)
    steps = re.search(r"steps (\d+)", p.stdout)
    if ir is None or steps is None:
        raise SystemExit(f"step_instructions: unexpected valgrind output:\n{p.stderr[-2000:]}")
    return int(ir.group(1)), int(steps.group(1))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("games", type=int, nargs="?", default=20)
    ap.add_argument("--keep", type=Path, help="keep the two callgrind files in this directory")
    a = ap.parse_args()
    if shutil.which("valgrind") is None:
        raise SystemExit("step_instructions: needs valgrind (Debian package: valgrind)")
    with tempfile.TemporaryDirectory() as tmp:
        d = a.keep or Path(tmp)
        d.mkdir(parents=True, exist_ok=True)
        base, _ = run(0, d / "callgrind.0.out")
        total, steps = run(a.games, d / f"callgrind.{a.games}.out")
    print(f"{(total - base) / steps:,.0f} instructions a step ({steps:,} steps in {a.games} games)")


if __name__ == "__main__":
    main()
