"""Where each seat's track tokens and coins come from (issue 15): replays stored games and tallies the gains.

``python tools/balance_gains.py RESULTS [--track A|B] [--map desert|jungle] [--every N] [--workers W]`` replays one
stored game in N, drawn with a fixed seed (``replay_sample.sample``), with its setup, seed and agents, so the same
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

import collections
from typing import Any

from replay_sample import arguments, replayed, tally

from meloch.engine.meloch_cards import visible_meloch
from meloch.engine.model import Action, State
from meloch.engine.view import last_events, view
from meloch.sim.runner import Hooks

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
    return replayed(row, _Gains((row["s0_role"], row["s1_role"]))).tally


def main() -> None:
    total, heading = tally(arguments(__doc__.splitlines()[0]), replay)
    print(heading)
    for role in sorted({k[0] for k in total}):
        for what in (*STATS, "meloch take"):
            items = sorted(((k[2], v) for k, v in total.items() if k[:2] == (role, what)), key=lambda kv: -kv[1])
            if items:
                print(f"{role} {what}: " + "; ".join(f"{src} {v}" for src, v in items))


if __name__ == "__main__":
    main()
