"""Round 27's readings of hard's stored games (docs/rules-notes.md "Balance", round 27).

``python docs/balance/round27/readings.py``: per Scythe mat, who takes column 5 ("$12" / "$9") and
the Scythe seat's win rate with and without it; the turn-limit games; and, with ``--trace DIR GAME``,
a replay of one game (it must match its stored row) that prints hard's Expeditions values at its first
token choice on a Boast site from turn 150 on.
"""

from __future__ import annotations

import collections
import contextlib
import sys

from meloch.sim.runner import Hooks
from meloch.sim.simulate import find_row, read_results, replay_row

H = "docs/balance/hard-2026/"
SLICES = ("sa-dA", "sa-dB", "sa-j", "rp-dA", "rp-dB", "rp-j", "cn-dA", "cn-dB", "cn-j")


def _seats(r: dict) -> tuple[str, str]:
    return ("s0", "s1") if r["s0_role"] == "scythe" else ("s1", "s0")


def coin_column(rows: list[dict]) -> None:
    st: dict[str, list[int]] = collections.defaultdict(lambda: [0] * 5)
    for r in rows:
        s, e = _seats(r)
        took = "$12" in (r[s + "_claim_categories"] or [])
        exp = "$9" in (r[e + "_claim_categories"] or [])
        won = r["winner_role"] == "scythe"
        for k in (r["mat"], "all"):
            x = st[k]
            for i, v in enumerate((True, took, exp, won and took, won and not took)):
                x[i] += v
    print("mat: games, Scythe takes $12, Expeditions $9 | Scythe wins given $12, given not, overall")
    for k, (n, took, exp, wt, wn) in sorted(st.items()):
        print(f"{k:13} {n:5} {took / n:.2f} {exp / n:.2f} | {wt / max(took, 1):.2f} {wn / max(n - took, 1):.2f} "
              f"{(wt + wn) / n:.2f}")


def turn_limits(rows: list[dict]) -> None:
    hit = [r for r in rows if r["reason"] == "turn limit"]
    print(f"turn limit: {len(hit)} of {len(rows)}")
    print(" by slice:", dict(collections.Counter((r["map_side"], r["track_side"]) for r in hit)))
    stars = collections.Counter((r[_seats(r)[0] + "_stars"], r[_seats(r)[1] + "_stars"]) for r in hit)
    print(" (Scythe stars, Expeditions stars):", dict(stars))


def trace(out: str, game: int) -> None:
    import pickle

    from meloch.agents.base import Sampler
    from meloch.agents.flat import SEARCH_LEVELS, FlatAgent
    from meloch.engine import legal_actions, view
    from meloch.engine.standing import boast_steps

    class Stop(Exception):
        pass

    class At(Hooks):
        state = None

        def on_step(self, before, action, after) -> None:  # type: ignore[no-untyped-def]
            if (int(view(after, None).turn) >= 150 and action.who == "E" and action.verb == "token"
                    and boast_steps(before, before.seats[action.seat].loc) == 0):
                self.state = pickle.loads(pickle.dumps(before))
                raise Stop

    hook = At()
    with contextlib.suppress(Stop):
        replay_row(find_row(out, game), hook)
    s = hook.state
    if s is None:
        print("no late token choice on a Boast site")
        return
    legal = legal_actions(s)
    p = SEARCH_LEVELS["hard"][1]
    sampler = Sampler(s, legal[0].seat)
    with sampler.bound():
        vals = FlatAgent(seed=1, level="flat").values(legal, sampler, p)
    print(f"game {game}, turn {int(view(s, None).turn)}: hard's Expeditions values by token",
          {" ".join(legal[i].args): round(v, 2) for i, v in vals.items()})


if __name__ == "__main__":
    if sys.argv[1:2] == ["--trace"]:
        trace(sys.argv[2], int(sys.argv[3]))
    else:
        rows = [r for d in SLICES for r in read_results(H + d).to_pylist()]
        coin_column(rows)
        turn_limits(rows)
