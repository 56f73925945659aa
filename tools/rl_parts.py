"""Where the RL environment's time goes: the ``meloch bench --rl`` loops with parts swapped out.

``python tools/rl_parts.py [GAMES]`` plays GAMES random games (seeds 100 and up) on the raw
engine loop and then through the PettingZoo env of ``meloch bench --rl`` several times, each time
with one more part replaced by a constant (the variants' order rotates per game, so load changes
hit all alike), and prints the CPU time per decision of each (``indices=pre``: the legal actions'
indices computed before the timed part), with the mean and standard error of
its per-game difference to the full env. The swapped-out runs are measurements only (their
observations are wrong); ``docs/rl.md`` quotes them. Run under ``nice`` on one core.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from meloch.engine import Setup, State, apply, glance, legal_actions, new_game
from meloch.rl import actions as A
from meloch.rl import observe as O
from meloch.rl.bench import _env, _raw, _recorded

_OBS, _MASK, _IND = O.observe_state, A.mask_from, A.indices
_ZERO = np.zeros(O.size(), np.float32)
_ONES = np.ones(A.size(), np.int8)  # (all ones: the bench's check of the chosen index passes)


def _glance_only(state: State, seat: int) -> np.ndarray:
    glance(state, seat)
    return _ZERO


_PRE: list[list[int]] = []
"""The current game's indices, one list per decision, last first (the ``indices=pre`` variant)."""


def _pre(legal: Any) -> list[int]:
    return _PRE.pop()


def _set(obs: Callable[[State, int], np.ndarray], mask: Callable[[Any], np.ndarray],
         ind: Callable[[Any], list[int]] = _IND) -> Callable[[], None]:
    def use() -> None:
        O.observe_state, A.mask_from, A.indices = obs, mask, ind
    return use


VARIANTS: dict[str, Callable[[], None]] = {
    "env": _set(_OBS, _MASK),
    "mask=const": _set(_OBS, lambda idx: _ONES),
    "encode=const": _set(_glance_only, _MASK),
    "observation=const": _set(lambda s, seat: _ZERO, _MASK),
    "observation,mask=const": _set(lambda s, seat: _ZERO, lambda idx: _ONES),
    "observation,mask=const,indices=pre": _set(lambda s, seat: _ZERO, lambda idx: _ONES, _pre),
}


def main(games: int) -> None:
    _env(1, [A.encode(a) for a in _recorded(1)])  # (warm the caches)
    names = list(VARIANTS)
    raw: list[float] = []
    per: dict[str, list[float]] = {v: [] for v in names}
    for g in range(games):
        seed = 100 + g
        rec = _recorded(seed)
        indices = [A.encode(a) for a in rec]
        pre, s = [], new_game(Setup(), seed)
        for a in rec:
            pre.append(_IND(legal_actions(s)))
            s = apply(s, a)
        t0 = time.process_time()
        n = _raw(seed)
        raw.append((time.process_time() - t0) / n)
        for v in names[g % len(names):] + names[:g % len(names)]:
            VARIANTS[v]()
            _PRE[:] = pre[::-1]
            t0 = time.process_time()
            n = _env(seed, indices)
            per[v].append((time.process_time() - t0) / n)
    VARIANTS["env"]()
    r = statistics.mean(raw)
    print(f"raw engine loop: {1e6 * r:.1f} us per decision ({games} games)")
    for v in names:
        d = [x - y for x, y in zip(per[v], per["env"], strict=True)]
        se = statistics.stdev(d) / len(d) ** 0.5 if len(d) > 1 else 0.0
        m = statistics.mean(per[v])
        print(f"{v:36s} {1e6 * m:6.1f} us  overhead {1 - r / m:5.1%}  "
              f"vs env {1e6 * statistics.mean(d):+6.2f} +- {1e6 * se:.2f} us")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 40)
