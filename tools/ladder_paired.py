"""Two ladder runs of one opponent on the same deals, compared game by game (issue 11).

``python tools/ladder_paired.py BASE.games.jsonl CANDIDATE.games.jsonl [OPPONENT]`` pairs the games
of two ``meloch ladder`` files played with the same ``--seed`` against the same opponent (default
``search:medium``): a game is its deal (seed, map side, track side) and the seat the candidate held.
It prints each run's score on the common games and the paired difference with its normal 95%
interval. Why: a deal decides much of a game (the same role wins both seat orders of a deal about
half the time), so two candidates' scores on the same deals differ far less by chance than two
independent win rates do.

``python tools/ladder_paired.py BASE CANDIDATE --agents BASE_NAME,CANDIDATE_NAME`` pairs by the named
agent of each file instead, whatever its opponent is called: for runs whose opponents differ by name
(hard's Scythe seat against medium, then against a medium candidate; stop 58).
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from pathlib import Path

from meloch.sim.ladder import LadderGame, against, load_games, seat_score
from meloch.sim.stats import mean_interval

Key = tuple[int, str, str, int]


def _by_deal(games: Iterable[tuple[LadderGame, int]]) -> dict[Key, float]:
    """(seed, map side, track side, seat) -> that seat's score (1, 0, a draw 0.5)."""
    return {(g.seed, g.map_side, g.track_side, seat): seat_score(g, seat) for g, seat in games}


def scores(path: str, opponent: str) -> dict[Key, float]:
    """The other agent's score in each game against ``opponent``, keyed by deal and its seat."""
    return _by_deal(against(load_games(Path(path).read_bytes()), opponent))


def scores_of(path: str, agent: str) -> dict[Key, float]:
    """``agent``'s score in each game it played, keyed by deal and its seat."""
    games = [(g, g.agents.index(agent)) for g in load_games(Path(path).read_bytes()) if agent in g.agents]
    if not games:
        raise ValueError(f"{path}: no game of {agent!r}")
    return _by_deal(games)


def paired(base: dict[Key, float], cand: dict[Key, float]) -> tuple[int, float, float, float, float, int]:
    """(common games, base score, candidate score, difference, its 95% half-width, games with the same
    result) on the games both runs played."""
    keys = sorted(set(base) & set(cand))
    n = len(keys)
    if n < 2:  # mean_interval's own message would not say why
        raise ValueError(f"{n} common games: the two runs must play the same deals (the same --seed)")
    d = [cand[k] - base[k] for k in keys]
    mean, half = mean_interval(d)
    return n, sum(base[k] for k in keys) / n, sum(cand[k] for k in keys) / n, mean, half, sum(x == 0 for x in d)


def main(base_path: str, cand_path: str, opponent: str = "search:medium", agents: str | None = None) -> None:
    """Print the pairing against ``opponent``, or with ``agents`` ("BASE_NAME,CANDIDATE_NAME") by each
    file's named agent."""
    if agents is not None:
        names = agents.split(",")
        if len(names) != 2 or not all(names):
            sys.exit("--agents takes two names: the base file's agent and the candidate file's")
        n, b, c, mean, half, same = paired(scores_of(base_path, names[0]), scores_of(cand_path, names[1]))
        label = f"of {names[0]} and {names[1]}"
    else:
        n, b, c, mean, half, same = paired(scores(base_path, opponent), scores(cand_path, opponent))
        label = f"against {opponent}"
    print(f"{n} common games {label}: base {100 * b:.1f}%, candidate {100 * c:.1f}%, "
          f"difference {100 * mean:+.1f} points [{100 * (mean - half):+.1f}, {100 * (mean + half):+.1f}], "
          f"the same result in {same}")


if __name__ == "__main__":
    args = sys.argv[1:]
    if "--help" in args or not (len(args) in (2, 3) or (len(args) == 4 and args[2] == "--agents")):
        sys.exit(__doc__)
    try:
        if len(args) == 4:
            main(args[0], args[1], agents=args[3])
        else:
            main(*args)
    except (OSError, ValueError) as e:
        sys.exit(f"ladder_paired: {e}")
