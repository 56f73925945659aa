"""A tiny deterministic PRNG whose whole state is one integer kept inside the game state.

SplitMix64: fast in pure Python, trivially serialisable, and independent of Python's global
``random`` module, so the same (setup, seed, actions) give the same game in any process.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, TypeVar

T = TypeVar("T")
_MASK: Final = (1 << 64) - 1


def _mix(z: int) -> int:
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


def seed_state(seed: int) -> int:
    """Hash a user seed into a starting RNG state.

    SplitMix64's state is a counter with a fixed increment, so seeding it with ``seed * increment``
    would make seed k's stream seed 0's stream shifted by k. Mixing the seed first puts each
    seed at an unrelated point of the cycle."""
    return _mix(_mix((seed & _MASK) ^ 0x632BE59BD9B4E019) ^ 0x9E3779B97F4A7C15)


def next_u64(state: int) -> tuple[int, int]:
    """Return (random 64-bit value, next state)."""
    state = (state + 0x9E3779B97F4A7C15) & _MASK
    return _mix(state), state


def randbelow(state: int, n: int) -> tuple[int, int]:
    """Uniform integer in [0, n) (n >= 1) and the next state; rejection keeps it unbiased."""
    if n <= 1:
        return 0, state
    limit = (1 << 64) - ((1 << 64) % n)
    while True:
        v, state = next_u64(state)
        if v < limit:
            return v % n, state


def shuffled(state: int, items: Sequence[T]) -> tuple[tuple[T, ...], int]:
    """Fisher-Yates shuffle of a copy of ``items``; returns (tuple, next state)."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j, state = randbelow(state, i + 1)
        out[i], out[j] = out[j], out[i]
    return tuple(out), state
