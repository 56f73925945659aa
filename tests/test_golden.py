"""Golden games: seeded random games stored as (setup, seed, actions, hashes) and replayed.

The hashes are ``meloch.scenario.games.fingerprint``: the state's rules content without event texts
and empty fields, so a new state field with an empty default or a reworded log line keeps the games.

A difference means some rule now plays out differently (or an action became illegal). If intended,
regenerate with ``python tests/test_golden.py --write`` (or ``regenerate()``) and note the rule change
in ``docs/rules-notes.md``. Each file also stores the state hash every ``CHECKPOINT`` actions, so a
failure names the first stretch of the game that changed.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import msgspec
import pytest

from meloch.engine import IllegalAction, Setup, apply, new_game
from meloch.scenario.games import fingerprint, play, varied_setup

DIR = Path(__file__).parent / "golden"
CHECKPOINT = 50
N_GAMES = 24
FILES = sorted(DIR.glob("*.json"))


def record(i: int) -> dict[str, Any]:
    """Golden game ``i``: varied setup ``i``, seed 7000 + i, random play."""
    setup = varied_setup(i)
    seed = 7000 + i
    final, actions = play(setup, seed)
    s = new_game(setup, seed)
    checkpoints = {"0": fingerprint(s)}
    for k, a in enumerate(actions, 1):
        s = apply(s, a)
        if k % CHECKPOINT == 0:
            checkpoints[str(k)] = fingerprint(s)
    return {"setup": msgspec.to_builtins(setup), "seed": seed, "winner": final.winner, "reason": final.reason,
            "final_hash": fingerprint(final), "checkpoints": checkpoints, "actions": actions}


def regenerate(n: int = N_GAMES) -> None:
    DIR.mkdir(parents=True, exist_ok=True)
    for old in DIR.glob("game-*.json"):
        old.unlink()
    for i in range(n):
        (DIR / f"game-{i:02d}.json").write_text(json.dumps(record(i), indent=0) + "\n", encoding="utf-8")


def test_enough_golden_games() -> None:
    assert len(FILES) >= 20


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_golden(path: Path) -> None:
    g = json.loads(path.read_text(encoding="utf-8"))
    s = new_game(msgspec.convert(g["setup"], Setup), g["seed"])
    assert fingerprint(s) == g["checkpoints"]["0"], f"{path.name}: the setup itself changed"
    for k, a in enumerate(g["actions"], 1):
        try:
            s = apply(s, a)
        except IllegalAction as err:
            pytest.fail(f"{path.name}: action {k} {a!r} is now refused: {err}", pytrace=False)
        want = g["checkpoints"].get(str(k))
        if want is not None and fingerprint(s) != want:
            pytest.fail(f"{path.name}: the game diverges between actions {k - CHECKPOINT} and {k}", pytrace=False)
    assert fingerprint(s) == g["final_hash"], f"{path.name}: final state differs"
    assert (s.winner, s.reason) == (g["winner"], g["reason"])


if __name__ == "__main__":
    if "--write" in sys.argv:
        regenerate()
        print(f"wrote {N_GAMES} golden games to {DIR}; note the rules change in docs/rules-notes.md")
