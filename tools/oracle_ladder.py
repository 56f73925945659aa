"""What knowing the hidden cards would be worth to a search (issue 11 diagnostic; never a product agent).

``python tools/oracle_ladder.py MODE CANDIDATE BASE --seed S --seeds N --out FILE.games.jsonl`` plays
the ladder's deals (``meloch.sim.ladder``: both seat orders, both map and track sides, 8 games a
seed), ``CANDIDATE`` handed samples built by ``MODE`` in place of its seat's own, against ``BASE``
searching as usual. The games are ladder lines, so ``meloch ladder --from FILE`` prints the figures.

Modes (what the candidate's samples hold):

- ``clairvoyant``: the true state itself, every sample: the opponent's hand and secret commits, and
  every deck order and the game's chance, so every future draw too. With the judge unchanged, this
  bounds what any sampling or inference of the hidden parts can buy.
- ``present``: the true state with the combat, discovery, encounter and Meloch decks and the game's
  chance re-drawn: the hidden present (the opponent's combat cards, its commits, face-down tokens
  and traps) known, most of the future not (the map-token supply and the Factory cards stay as
  they are).
- ``truedial``: the seat's own information with an opponent's committed, unrevealed Power Dial as it
  is (its tucked cards and everything else still drawn): what ``dial`` could buy at best.
- ``dial``: the seat's own information (``determinize``) with an opponent's committed, unrevealed
  Power Dial set by the dial rule every agent here plays (``meloch.agents.heuristic.dial_rule``),
  where ``determinize`` draws it uniformly: an opponent model, legal information.

The candidate's name in the games is ``MODE:CANDIDATE``. Only this tool builds these samplers: the
registry's agents search from ``Sampler`` alone (tests/test_agents.py, the no-peeking test).
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec

import meloch.sim.ladder as ladder
from meloch.agents import Sampler, make_agent
from meloch.agents.heuristic import ruled_dial
from meloch.engine import Action, State, View

MODES = ("clairvoyant", "present", "truedial", "dial")


def _shuffled(rng: random.Random, xs: tuple[Any, ...]) -> tuple[Any, ...]:
    return tuple(rng.sample(list(xs), len(xs)))


class Clairvoyant(Sampler):
    """Every sample is the true state."""

    def sample(self, rng: random.Random) -> State:
        return self._state


class Present(Sampler):
    """The true state with the four decks and the game's chance re-drawn."""

    def sample(self, rng: random.Random) -> State:
        s = self._state
        return msgspec.structs.replace(
            s, rng=rng.getrandbits(64), combat_deck=_shuffled(rng, s.combat_deck),
            discovery_deck=_shuffled(rng, s.discovery_deck), encounter_deck=_shuffled(rng, s.encounter_deck),
            meloch_deck=_shuffled(rng, s.meloch_deck))


def _with_dial(s: State, seat: int, dial: int) -> State:
    """``s`` with ``seat``'s committed Power Dial set to ``dial``."""
    assert s.combat is not None
    dials = (dial, s.combat.dial[1]) if seat == 0 else (s.combat.dial[0], dial)
    return msgspec.structs.replace(s, combat=msgspec.structs.replace(s.combat, dial=dials))


class DialModel(Sampler):
    """The seat's own samples, the opponent's committed hidden dial by the rule."""

    def sample(self, rng: random.Random) -> State:
        s = super().sample(rng)
        c, opp = s.combat, 1 - self.seat
        if c is None or c.revealed or c.dial[opp] < 0:
            return s
        return _with_dial(s, opp, ruled_dial(s.seats[self.seat].power, s.seats[opp].power))


class TrueDial(Sampler):
    """The seat's own samples, the opponent's committed hidden dial as it is."""

    def sample(self, rng: random.Random) -> State:
        s = super().sample(rng)
        c, true = s.combat, self._state.combat
        if c is None or true is None or c.revealed:
            return s
        return _with_dial(s, 1 - self.seat, true.dial[1 - self.seat])


SAMPLERS: dict[str, type[Sampler]] = {"clairvoyant": Clairvoyant, "present": Present, "truedial": TrueDial,
                                      "dial": DialModel}


class Peeking:
    """``inner`` (a search agent) choosing from ``mode``'s samples."""

    uses_view = True
    uses_sampler = True

    def __init__(self, inner: Any, mode: str, name: str) -> None:
        self.inner, self.sampler, self.name = inner, SAMPLERS[mode], name

    def choose(self, view: View | None, legal: list[Action]) -> Action:
        out: Action = self.inner.choose(view, legal)
        return out

    def choose_from(self, view: View, legal: list[Action], sampler: Sampler) -> Action:
        out: Action = self.inner.choose_from(view, legal, self.sampler(sampler._state, sampler.seat))
        return out


def maker(plain: Callable[[str, int], Any] = make_agent) -> Callable[[str, int], Any]:
    """``make_agent`` that also builds ``MODE:NAME`` as ``NAME`` searching ``MODE``'s samples."""
    def make(name: str, seed: int) -> Any:
        mode, _, inner = name.partition(":")
        if mode in SAMPLERS:
            return Peeking(plain(inner, seed), mode, name)
        return plain(name, seed)
    return make


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("mode", choices=MODES)
    ap.add_argument("candidate")
    ap.add_argument("base")
    ap.add_argument("--seed", type=int, default=5001)
    ap.add_argument("--seeds", type=int, default=25)
    ap.add_argument("--out", type=Path, required=True)
    a = ap.parse_args()
    ladder.make_agent = maker()  # type: ignore[assignment]  # the ladder's games build agents by this name
    enc = msgspec.json.Encoder()
    with a.out.open("ab") as f:
        def on_game(g: ladder.LadderGame) -> None:
            f.write(enc.encode(g) + b"\n")
            f.flush()
        ladder.run_ladder([a.base, f"{a.mode}:{a.candidate}"], a.seeds, first_seed=a.seed, jobs=1, on_game=on_game)


if __name__ == "__main__":
    main()
