"""Where a faction's combats happen, who starts them and who wins them (issue 15 diagnostics).

``python tools/combat_sites.py FACTION TRACK GAMES [AGENT]`` plays ``GAMES`` games of ``FACTION``
(patriotic mat) against every Expeditions mech in turn, both map sides alternating, on track side
``TRACK``, the agent (default ``heuristic``) in both seats, deal seeds 5000 + i. It prints the
Scythe seat's game wins, the combats by location and attacker, the combats the Scythe seat won, and
how often Saxony's Disarm fired. The engine's typed ``CombatResolved`` events are read, nothing else.
Balance round 7 (docs/rules-notes.md) quotes it: on track B every faction wins about 60% of its
combats, and only Saxony turns the ones past the two combat columns into stars.
"""

from __future__ import annotations

import sys
from collections import Counter

from meloch.agents import agent_seed, make_agent
from meloch.engine import Action, SeatSetup, Setup, State
from meloch.engine.contract import CombatResolved
from meloch.sim.runner import Hooks, play_game

MECHS = ("voyager", "highlander", "mole", "tatanka", "scarecrow", "lumberjack", "odins_wrath", "marsh_strider")


class Sites(Hooks):
    def __init__(self) -> None:
        self.by_site: Counter[tuple[str, str]] = Counter()
        self.scythe_won = 0
        self.disarm = 0

    def on_step(self, before: State, action: Action, after: State) -> None:
        for e in after.events:
            if "Disarm" in e.text:
                self.disarm += 1
            if isinstance(e.data, CombatResolved):
                d = e.data
                self.by_site[(d.loc, "Scythe attacks" if d.attacker.seat == 0 else "Expeditions attacks")] += 1
                self.scythe_won += d.winner == 0


def main(faction: str, track: str, games: int, agent: str = "heuristic") -> None:
    sites = Sites()
    wins = 0
    for i in range(games):
        setup = Setup(map_side="desert" if i % 2 else "jungle", track_side=track,
                      seats=(SeatSetup(role="scythe", faction=faction, mat="patriotic"),
                             SeatSetup(role="expeditions", mech=MECHS[i % len(MECHS)])))
        seed = 5000 + i
        rec = play_game(setup, seed, (make_agent(agent, agent_seed(seed, 0)), make_agent(agent, agent_seed(seed, 1))),
                        sites)
        wins += rec.outcome is not None and rec.outcome.winner == 0
    combats = sum(sites.by_site.values())
    print(f"{faction} on track {track}: the Scythe seat wins {wins} of {games} games; {combats} combats, "
          f"{sites.scythe_won} won by the Scythe seat; Disarm fired {sites.disarm} times")
    for (loc, who), n in sorted(sites.by_site.items()):
        print(f"  location {loc}, {who}: {n}")


if __name__ == "__main__":
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]), *sys.argv[4:5])
