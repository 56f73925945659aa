"""The agent interface and the random agent."""

from __future__ import annotations

import random
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any, Protocol

from meloch.engine import Action, State, View, content_of, determinize, using, view


class Agent(Protocol):
    name: str
    uses_view: bool
    """False for agents that never look at the view: the runner then skips building it (speed)."""

    def choose(self, view: View | None, legal: list[Action]) -> Any:
        """An action from ``legal`` (a human agent may also return a runner ``Control``); ``view`` is
        None when ``uses_view`` is False."""
        ...


class Sampler:
    """What a search agent may know of the hidden parts of a game: fresh samples of the full state
    consistent with its seat's information (``determinize``), never the true state.

    The runner (or the hint) builds one per decision and hands it to an agent with
    ``uses_sampler``; agents call ``sample(rng)`` only. Because ``determinize`` depends only on the
    seat's information and ``rng``, two games the seat cannot tell apart give the same samples.
    """

    __slots__ = ("_state", "seat")

    def __init__(self, state: State, seat: int) -> None:
        self._state = state
        self.seat = seat

    def sample(self, rng: random.Random) -> State:
        """A full state drawn from the seat's information set with ``rng``."""
        return determinize(self._state, self.seat, rng)

    def bound(self) -> AbstractContextManager[object]:
        """The game's content bound around a search: its many engine calls on the samples then skip
        binding it each (``meloch.engine.using``; the content is public, like the setup)."""
        return using(content_of(self._state))


class SearchAgent(Agent, Protocol):
    """An agent that looks ahead: the runner calls ``choose_from`` with a ``Sampler`` instead of
    ``choose``. ``uses_sampler`` is True."""

    uses_sampler: bool

    def choose_from(self, view: View, legal: list[Action], sampler: Sampler) -> Action:
        ...


def wants_sampler(agent: object) -> bool:
    """True for agents that choose through ``choose_from`` with a ``Sampler``."""
    return bool(getattr(agent, "uses_sampler", False))


def choose_for(agent: Agent, state: State, legal: list[Action]) -> Any:
    """``agent``'s choice among ``legal`` (the deciding seat's) in ``state``, asked the way the agent
    needs: a search agent through ``choose_from`` with that seat's ``Sampler``, any other through
    ``choose`` with the seat's view (None for one that reads none). A shell that holds the state and
    asks an agent calls this: a search agent's ``choose`` alone cannot look ahead and picks at random."""
    seat = legal[0].seat
    if wants_sampler(agent):
        return agent.choose_from(view(state, seat), legal, Sampler(state, seat))  # type: ignore[attr-defined]
    return agent.choose(view(state, seat) if agent.uses_view else None, legal)


class RandomAgent:
    """Uniform over the legal actions, with its own seeded RNG (never the game's)."""

    name = "random"
    uses_view = False

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)
        self._bits: Callable[[int], int] = self.rng.getrandbits

    def choose(self, view: View | None, legal: list[Action]) -> Action:
        # ``randrange(n)``'s draw written out (CPython's ``_randbelow_with_getrandbits``, 3.11-3.13):
        # the same numbers without two Python calls, a visible share of a random game's step
        # (docs/speed.md; tests/test_runner.py checks the draws against ``randrange``).
        n = len(legal)
        k = n.bit_length()
        r = self._bits(k)
        while r >= n:
            r = self._bits(k)
        return legal[r]
