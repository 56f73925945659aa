"""What the replaying diagnostics share (``balance_gains.py``, ``balance_combats.py``): the command line,
a seeded sample of a grid's games, the checked replay and the pooled tally."""

from __future__ import annotations

import argparse
import collections
import random
from collections.abc import Callable, Hashable
from concurrent.futures import ProcessPoolExecutor
from typing import Any, TypeVar

from meloch.sim.runner import Hooks
from meloch.sim.simulate import read_results, replay_row

H = TypeVar("H", bound=Hooks)
K = TypeVar("K", bound=Hashable)


def arguments(description: str) -> argparse.Namespace:
    """``RESULTS [--track A|B] [--map desert|jungle] [--every N] [--workers W]``."""
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("results")
    ap.add_argument("--track", choices=("A", "B"))
    ap.add_argument("--map", choices=("desert", "jungle"))
    ap.add_argument("--every", type=int, default=16)
    ap.add_argument("--workers", type=int, default=2)
    return ap.parse_args()


def sample(rows: list[dict[str, Any]], every: int) -> list[dict[str, Any]]:
    """About one row in ``every``, drawn with a fixed seed. Not ``rows[::every]``: a grid's rows run
    through the mechs fastest (8 of them), so a stride of 16 or 40 replays one mech's games only."""
    if every <= 1:
        return rows
    picked = random.Random(every).sample(range(len(rows)), max(1, len(rows) // every))
    return [rows[i] for i in sorted(picked)]


def replayed(row: dict[str, Any], hooks: H) -> H:
    """``hooks`` after watching the stored game played again; the replay must be that game."""
    same, msg = replay_row(row, hooks)
    if not same:
        raise SystemExit(msg)
    return hooks


def tally(a: argparse.Namespace, replay: Callable[[dict[str, Any]], collections.Counter[K]]
          ) -> tuple[collections.Counter[K], str]:
    """Every sampled game's tally (``replay``, a module-level function so the workers can run it),
    summed, and the heading line that says which games they were."""
    rows = read_results(a.results).to_pylist()
    rows = sample([r for r in rows if a.track in (None, r["track_side"]) and a.map in (None, r["map_side"])], a.every)
    total: collections.Counter[K] = collections.Counter()
    with ProcessPoolExecutor(a.workers) as ex:
        for t in ex.map(replay, rows):
            total.update(t)
    where = (f", track {a.track}" if a.track else "") + (f", {a.map}" if a.map else "")
    return total, f"{len(rows)} games replayed from {a.results}{where}"
