"""Balance round 25's replay diagnostic: where hard's Saxony and Albion games fight and what they claim.

``python docs/balance/round25/diag.py EVERY DIR...`` replays about one game in EVERY of each faction
(``replay_sample.sample``; each replay must end as stored) and prints, per faction, the combats by
location, attacking role and winning role, the stars each role placed by category, the Sword / Disarm /
Deploy log lines seen, and the wins. Run from the repository's root with its .venv. (The log lines were
first read from the State's raw events; the spectator's give the same counts: 20 replayed games
compared in stop 63's review.)
"""
import collections
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[3] / "tools"))
from concurrent.futures import ProcessPoolExecutor
from replay_sample import replayed, sample
from meloch.engine.contract import CombatResolved, StarPlaced
from meloch.engine.view import last_events
from meloch.sim.runner import Hooks
from meloch.sim.simulate import read_results

class H(Hooks):
    def __init__(self, roles):
        self.roles = roles; self.t = collections.Counter()
    def on_step(self, before, action, after):
        for e in last_events(after, None):  # the spectator's events, as tools/balance_combats.py reads them
            for key in ("Disarm:", "Sword:", "deploys", "Deploy"):
                if key in e.text:
                    self.t[("ability", key)] += 1
            d = e.data
            if isinstance(d, CombatResolved):
                self.t[("combat", d.loc, self.roles[d.attacker.seat], self.roles[d.winner])] += 1
            elif isinstance(d, StarPlaced) and e.seat >= 0:
                self.t[("star", self.roles[e.seat], d.category)] += 1

def rep(row):
    h = replayed(row, H((row["s0_role"], row["s1_role"])))
    t = h.t; t[("games",)] += 1; t[("win", row["winner_role"])] += 1
    return row["faction"], t

if __name__ == "__main__":
    every = int(sys.argv[1]); dirs = sys.argv[2:]
    rows = []
    for d in dirs:
        rs = read_results(d).to_pylist()
        for f in ("saxony", "albion"):
            rows += sample([r for r in rs if r["faction"] == f], every)
    tot = collections.defaultdict(collections.Counter)
    with ProcessPoolExecutor(2) as ex:
        for f, t in ex.map(rep, rows):
            tot[f].update(t)
    for f, t in tot.items():
        print("==", f)
        for k, v in sorted(t.items(), key=lambda kv: (kv[0][0], str(kv[0]))):
            print("  ", k, v)
