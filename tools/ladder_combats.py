"""The combats of ladder games, and how well each way a search's lines tuck names their winners (issue 11).

``python tools/ladder_combats.py RUN.games.jsonl ... [--agent NAME]`` replays ``meloch ladder``
files (their recorded actions, by the engine alone) and finds every combat: who attacked, both Power
Dials, both tucked cards, the winner, and the best card each seat held when the dials were set. It
prints, by the role the agent ``NAME`` (default: the first agent of the first game that is not
``search:medium``) held and by which agent attacked, how often the attacker won and tucked, and how
often each tuck model of the lines (``FlatParams.tuck``) names the winner from the dials that were
set: no card (``b0``, the lines of every level before stop 56), each seat its best card (``b1``),
the defender its best card (``b2``), the agent's seat its best card and its opponent its best card
when it defends (``b3``). Card effects are left out (the value printed on the card counts), so the
figures are a floor. Why: the lines judge an attack by how they play its combat, so a model that
names the winner more often is one whose attacks the search can trust.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from meloch.agents.heuristic import combat_value
from meloch.engine import State, content_of, using
from meloch.sim.ladder import LadderGame, load_games, replay_game

MODELS = ("b0", "b1", "b2", "b3")
"""The tuck models scored (``FlatParams.tuck`` 0-3)."""


@dataclass(frozen=True)
class Fight:
    attacker: int
    dials: tuple[int, int]
    """Each seat's Power Dial."""
    tucked: tuple[int | None, int | None]
    """Each seat's tucked card value (None: no card)."""
    best: tuple[int, int]
    """Each seat's best combat card value when the dials were set (0: none held)."""
    winner: int


def fights(game: LadderGame, states: list[State] | None = None) -> Iterator[Fight]:
    """Every combat of ``game`` in order, from its recorded actions (``states``: its replay, when the
    caller has it)."""
    states = states if states is not None else replay_game(game)
    acts = game.actions
    i = 0
    while i < len(acts):
        if acts[i].split(" ", 2)[1] != "dial":
            i += 1
            continue
        before = states[i]
        assert before.combat is not None, f"a dial outside a combat at action {i}"
        attacker = before.combat.attacker
        dials: list[int] = [0, 0]
        tucked: list[int | None] = [None, None]
        j = i
        while j < len(acts) and acts[j].split(" ", 2)[1] in ("dial", "tuck"):
            who, verb, arg = acts[j].split(" ", 2)
            seat = 0 if who == "S" else 1
            if verb == "dial":
                dials[seat] = int(arg)
            elif arg != "done":
                tucked[seat] = combat_value(arg)
            j += 1
        wins = [p.combat_wins for p in before.seats]
        k = j
        while k < len(states) - 1 and [p.combat_wins for p in states[k].seats] == wins:
            k += 1
        after = [p.combat_wins for p in states[k].seats]
        winner = 0 if after[0] > wins[0] else 1 if after[1] > wins[1] else -1
        best = tuple(max((combat_value(f"c{c}") for c in p.combat_cards), default=0) for p in before.seats)
        if winner >= 0:
            yield Fight(attacker, (dials[0], dials[1]), (tucked[0], tucked[1]), (best[0], best[1]), winner)
        i = j


def predicted(f: Fight, model: str, me: int) -> int:
    """The winner the lines' ``model`` names from the dials set (the attacker wins ties); ``me``: the
    searching seat (``b3``)."""
    att, dfn = f.attacker, 1 - f.attacker
    tuck = {"b0": (False, False), "b1": (True, True), "b2": (False, True),
            "b3": (att == me, True)}[model]
    a = f.dials[att] + (f.best[att] if tuck[0] else 0)
    d = f.dials[dfn] + (f.best[dfn] if tuck[1] else 0)
    return att if a >= d else dfn


Row = tuple[str, str]
"""(the agent's role, who attacked: "it" or "opponent")."""


def table(games: Iterable[LadderGame], agent: str) -> dict[Row, dict[str, int]]:
    """Counts by row: combats, attacker wins, attacker tucks, defender tucks, and each model's right calls."""
    out: dict[Row, dict[str, int]] = {}
    for g in games:
        if agent not in g.agents:
            continue
        me = g.agents.index(agent)
        states = replay_game(g)
        with using(content_of(states[0])):
            for f in fights(g, states):
                row = ("Scythe" if me == 0 else "Expeditions", "it" if f.attacker == me else "opponent")
                c = out.setdefault(row, dict.fromkeys(("combats", "attacker won", "attacker tucked",
                                                         "defender tucked", *MODELS), 0))
                c["combats"] += 1
                c["attacker won"] += f.winner == f.attacker
                c["attacker tucked"] += f.tucked[f.attacker] is not None
                c["defender tucked"] += f.tucked[1 - f.attacker] is not None
                for m in MODELS:
                    c[m] += predicted(f, m, me) == f.winner
    return out


def main(argv: list[str]) -> int:
    agent = None
    if "--agent" in argv[:-1]:  # a trailing --agent with no name falls to the usage below
        k = argv.index("--agent")
        agent, argv = argv[k + 1], argv[:k] + argv[k + 2:]
    if not argv or any(a.startswith("-") for a in argv):
        print(__doc__)
        return 2
    try:
        games = [g for path in argv for g in load_games(Path(path).read_bytes())]
    except (OSError, ValueError) as err:  # msgspec's decode errors are ValueErrors
        print(f"cannot read the ladder files: {err}", file=sys.stderr)
        return 2
    if agent is None:
        agent = next((a for g in games for a in g.agents if a != "search:medium"), None)
    if agent is None or not any(agent in g.agents for g in games):
        print(f"no game of {agent or 'an agent other than search:medium'} in these files", file=sys.stderr)
        return 2
    print(f"{agent}: combats by its role and who attacked; the share of winners each tuck model names")
    for (role, who), c in sorted(table(games, agent).items()):
        n = c["combats"]
        calls = "  ".join(f"{m} {100 * c[m] / n:.0f}%" for m in MODELS)
        print(f"as {role:<11} attacker {who:<8} {n:>4} combats, attacker won {100 * c['attacker won'] / n:.0f}%, "
              f"tucked: attacker {100 * c['attacker tucked'] / n:.0f}%, defender {100 * c['defender tucked'] / n:.0f}%;"
              f"  {calls}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
