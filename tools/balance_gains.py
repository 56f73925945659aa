"""Where each seat's track tokens and coins come from (issue 15): replays stored games and tallies the gains.

``python tools/balance_gains.py RESULTS [--track A|B] [--map desert|jungle] [--every N] [--workers W]`` replays one
stored game in N, drawn with a fixed seed (``sample``), with its setup, seed and agents, so the same
game, and prints, per role:

- the power, guile, popularity and coins gained, by the action that gained them ("core" for a card's
  core value, else the verb and first argument of the action during which the gain resolved:
  ``take all`` is a Meloch-card take, but benefits queued behind a choice resolve with that choice,
  so the Scythe seat's Meloch popularity after a resource shows under ``place-resource``);
- every Meloch take: the track value before it and what the visible Meloch benefits offered on
  that track (guile for the Expeditions seat, popularity for the Scythe seat), which shows how
  often a Meloch take is what crosses the Triumph Track's 10 (balance round 12).

It reads only the spectator's events and view, as the simulator's own figures do. A replay costs
what the game cost (about 16 CPU-s with ``search:medium``), so sample with ``--every``.
"""

from __future__ import annotations

import argparse
import collections
import random
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from meloch.engine.meloch_cards import visible_meloch
from meloch.engine.model import Action, State
from meloch.engine.view import last_events, view
from meloch.sim.runner import Hooks
from meloch.sim.simulate import read_results, replay_row

STATS = ("power", "guile", "popularity", "coins")
Tally = collections.Counter[tuple[str, str, str]]


class _Gains(Hooks):
    def __init__(self, roles: tuple[str, ...]) -> None:
        self.roles = roles
        self.tally: Tally = collections.Counter()

    def on_step(self, before: State, action: Action, after: State) -> None:
        seat = action.seat
        if action.verb == "take" and action.args == ("all",):
            sv = view(before, None).seats[seat]
            track = "popularity" if self.roles[seat] == "scythe" else "guile"
            offered = sum(e.n for e in visible_meloch(before, seat) if e.op in ("guile", "popularity"))
            self.tally[(self.roles[seat], "meloch take", f"{track} {getattr(sv, track)} + {offered}")] += 1
        for e in last_events(after, None):
            d = e.data
            if type(d).__name__ != "Changed" or e.seat < 0:
                continue
            what, by = d.what, d.by  # type: ignore[union-attr]
            if what in STATS and by > 0:
                source = "core" if "core value" in e.text else " ".join((action.verb, *action.args[:1]))
                self.tally[(self.roles[e.seat], what, source)] += by


def replay(row: dict[str, Any]) -> Tally:
    """The game's tally; the replay must be the stored game (``replay_row`` checks it)."""
    hooks = _Gains((row["s0_role"], row["s1_role"]))
    same, msg = replay_row(row, hooks)
    if not same:
        raise SystemExit(msg)
    return hooks.tally


def sample(rows: list[dict[str, Any]], every: int) -> list[dict[str, Any]]:
    """About one row in ``every``, drawn with a fixed seed. Not ``rows[::every]``: a grid's rows run
    through the mechs fastest (8 of them), so a stride of 16 or 40 replays one mech's games only."""
    if every <= 1:
        return rows
    picked = random.Random(every).sample(range(len(rows)), max(1, len(rows) // every))
    return [rows[i] for i in sorted(picked)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("results")
    ap.add_argument("--track", choices=("A", "B"))
    ap.add_argument("--map", choices=("desert", "jungle"))
    ap.add_argument("--every", type=int, default=16)
    ap.add_argument("--workers", type=int, default=2)
    a = ap.parse_args()
    rows = read_results(a.results).to_pylist()
    rows = sample([r for r in rows if a.track in (None, r["track_side"]) and a.map in (None, r["map_side"])], a.every)
    total: Tally = collections.Counter()
    with ProcessPoolExecutor(a.workers) as ex:
        for t in ex.map(replay, rows):
            total.update(t)
    where = (f", track {a.track}" if a.track else "") + (f", {a.map}" if a.map else "")
    print(f"{len(rows)} games replayed from {a.results}{where}")
    for role in sorted({k[0] for k in total}):
        for what in (*STATS, "meloch take"):
            items = sorted(((k[2], v) for k, v in total.items() if k[:2] == (role, what)), key=lambda kv: -kv[1])
            if items:
                print(f"{role} {what}: " + "; ".join(f"{src} {v}" for src, v in items))


if __name__ == "__main__":
    main()
