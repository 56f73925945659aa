"""Where a grid's combats happen, who starts them and who wins them (issue 15 diagnostics).

``python tools/balance_combats.py RESULTS [--track A|B] [--map desert|jungle] [--every N] [--workers W]``
replays one stored game in N, drawn with a fixed seed (``replay_sample.sample``), each with its
setup, seed and agents, so the same game (``replay_row`` checks it ends as stored), and prints,
per location, the combats by attacking role and how many the Scythe seat won, and the combat stars
each role placed. Unlike ``tools/combat_sites.py``, which plays fresh heuristic games of one
faction, this reads the grid's own games, whatever the agents and seats. Only the spectator's typed
``CombatResolved`` and ``StarPlaced`` events are read. Balance round 19 (docs/rules-notes.md) uses it.
"""

from __future__ import annotations

import collections
from typing import Any

from replay_sample import arguments, replayed, tally

from meloch.engine.contract import CombatResolved, StarPlaced
from meloch.engine.model import Action, State
from meloch.engine.view import last_events
from meloch.sim.runner import Hooks

Tally = collections.Counter[tuple[str, ...]]


class _Combats(Hooks):
    def __init__(self, roles: tuple[str, ...]) -> None:
        self.roles = roles
        self.tally: Tally = collections.Counter()

    def on_step(self, before: State, action: Action, after: State) -> None:
        for e in last_events(after, None):
            d = e.data
            if isinstance(d, CombatResolved):
                attacker = self.roles[d.attacker.seat]
                self.tally[("combat", d.loc, attacker, self.roles[d.winner])] += 1
            elif isinstance(d, StarPlaced) and d.category == "Win a combat" and e.seat >= 0:
                self.tally[("star", self.roles[e.seat])] += 1


def replay(row: dict[str, Any]) -> Tally:
    """The game's tally; the replay must be the stored game."""
    return replayed(row, _Combats((row["s0_role"], row["s1_role"]))).tally


def main() -> None:
    total, heading = tally(arguments(__doc__.splitlines()[0]), replay)
    combats = sum(v for k, v in total.items() if k[0] == "combat")
    print(f"{heading}: {combats} combats; combat stars placed: "
          + ", ".join(f"{k[1]} {v}" for k, v in sorted(total.items()) if k[0] == "star"))
    for loc in sorted({k[1] for k in total if k[0] == "combat"}, key=lambda s: (len(s), s)):
        parts = []
        for attacker in ("scythe", "expeditions"):
            n = sum(v for k, v in total.items() if k[:3] == ("combat", loc, attacker))
            won = total[("combat", loc, attacker, "scythe")]
            if n:
                parts.append(f"{attacker} attacks {n} (Scythe wins {won})")
        print(f"  location {loc}: " + "; ".join(parts))


if __name__ == "__main__":
    main()
