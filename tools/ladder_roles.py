"""Ladder runs pooled by the setting each role played, against one opponent (issue 11).

``python tools/ladder_roles.py RUN.games.jsonl ... [NAME=SPEC ...] [--opponent NAME]`` reads
``meloch ladder`` files and scores every other agent against the opponent (default
``search:medium``) by role and by the setting it played in that role: a ``search:SCYTHE/EXPEDITIONS``
spec is split at its ``/`` (a spec without one plays both roles), so a split spec's Scythe games pool
with every run whose Scythe setting is the same. ``NAME=SPEC`` reads an agent name as the spec it
stood for when its file was played (``search:hard=search:s8t6r1w3n2h0/s16t8r1w3n2h0``: a level's
settings change between stops). Why: an agent's play in one role never depends on its setting for
the other, so each role's games from every run measure that role's setting, and the best setting
for each role can be chosen on all of them rather than on one run of the combination.
"""

from __future__ import annotations

import sys
from pathlib import Path

from meloch.sim.ladder import ROLES as SEAT_ROLES
from meloch.sim.ladder import against, load_games, seat_score
from meloch.sim.stats import wilson

ROLES = tuple(role.capitalize() for role in SEAT_ROLES)


def role_setting(name: str, seat: int) -> str:
    """The setting ``name`` plays in ``seat``: its spec's part for that role (the whole name when it has
    no ``/``)."""
    kind, _, spec = name.partition(":")
    parts = spec.split("/")
    if len(parts) != 2:
        return name
    return f"{kind}:{parts[seat]}"


def pooled(paths: list[str], aliases: dict[str, str], opponent: str) -> dict[tuple[str, str], tuple[float, int]]:
    """(role, setting) -> (points, games) against ``opponent`` over every file (draws half a point)."""
    out: dict[tuple[str, str], tuple[float, int]] = {}
    for path in paths:
        for g, seat in against(load_games(Path(path).read_bytes()), opponent):
            key = (ROLES[seat], role_setting(aliases.get(g.agents[seat], g.agents[seat]), seat))
            points, games = out.get(key, (0.0, 0))
            out[key] = (points + seat_score(g, seat), games + 1)
    return out


def main(args: list[str]) -> None:
    opponent = "search:medium"
    if "--opponent" in args:
        i = args.index("--opponent")
        opponent = args[i + 1]
        args = args[:i] + args[i + 2:]
    aliases = dict(a.split("=", 1) for a in args if "=" in a)
    table = pooled([a for a in args if "=" not in a], aliases, opponent)
    print(f"against {opponent}, every run pooled by each role's setting:")
    for (role, setting), (points, games) in sorted(table.items()):
        low, high = wilson(points, games)
        print(f"  as {role:11} {setting:24} {100 * points / games:5.1f}% [{100 * low:.0f}, {100 * high:.0f}]  "
              f"n={games}")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
