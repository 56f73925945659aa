"""PettingZoo AEC environment: two agents named by seat and role ("scythe_0" and "expeditions_1"
in the duel).

Each agent observes ``{"observation": float32 vector, "action_mask": int8 mask}`` built from its own
view (``meloch.rl.observe``); the mask is all zeros for the agent not deciding. Rewards are +1 for
the winner and -1 for the loser at the end, 0 for both at a draw (the turn limit) and at every
other step. With ``render_mode="ansi"``, ``infos[agent]["text"]`` holds the deciding agent's view
as text and ``render()`` returns it. An illegal action index ends the game with -1 for the agent
that sent it (PettingZoo's ``TerminateIllegalWrapper``, as in its classic games). ``max_cycles``
truncates the game after that many decisions (both agents truncated). ``reset(seed=n)`` plays game
seed ``n``; a ``reset()`` without one draws the game seed from an RNG seeded by the constructor's
``seed``.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from meloch.engine import Action, Setup, State, apply, decision, legal_actions, new_game, outcome, view
from meloch.rl import actions as A
from meloch.rl import observe as O


def observation_space() -> spaces.Dict:
    return spaces.Dict({
        "observation": spaces.Box(low=-np.inf, high=np.inf, shape=(O.size(),), dtype=np.float32),
        "action_mask": spaces.Box(low=0, high=1, shape=(A.size(),), dtype=np.int8),
    })


def end_rewards(state: State) -> tuple[float, float]:
    """(+1, -1), (-1, +1) or (0, 0) for a finished game, by seat."""
    out = outcome(state)
    if out is None or out.winner is None:
        return 0.0, 0.0
    return (1.0, -1.0) if out.winner == 0 else (-1.0, 1.0)


def agent_names(setup: Setup) -> list[str]:
    """``<role>_<seat>``: "scythe_0" and "expeditions_1" in the duel."""
    return [f"{s.role}_{i}" for i, s in enumerate(setup.seats)]


class raw_env(AECEnv):  # type: ignore[misc]  # (PettingZoo's name; AECEnv is untyped)
    metadata = {"render_modes": ["ansi"], "name": "meloch_v0", "is_parallelizable": False}

    def __init__(self, setup: Setup | None = None, render_mode: str | None = None,
                 max_cycles: int | None = None, seed: int | None = None) -> None:
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode {render_mode!r} is not supported; use 'ansi' or None")
        if max_cycles is not None and max_cycles < 1:
            raise ValueError(f"max_cycles must be at least 1, not {max_cycles!r}")
        self.setup = setup or Setup()
        self.render_mode = render_mode
        self.max_cycles = max_cycles
        self.possible_agents = agent_names(self.setup)
        self._seat_of = {a: i for i, a in enumerate(self.possible_agents)}
        self.agents = self.possible_agents[:]
        self._obs_space = observation_space()
        self._n = A.size()
        self._act_space = spaces.Discrete(self._n)
        self._rng = random.Random(seed)
        """Draws the game seed of a ``reset()`` without a seed (``seed`` makes those reproducible)."""
        self.state: State | None = None
        self.steps = 0
        self._legal: list[Action] = []
        """The current decision's legal actions (empty once the game is over)."""
        self._idx: list[int] = []
        """Their indices, in the same order (decoding and the mask read only these)."""
        self._seen: dict[str, dict[str, np.ndarray]] = {}
        self._over = False
        """The game has ended (``outcome`` is not None)."""
        self._done = False
        """Every agent is terminated or truncated (the game ended, an illegal action, ``max_cycles``)."""
        self._zero = True
        """Every entry of ``rewards`` is 0 (so a step need not reset or accumulate them)."""
        """Observations handed out for the current state, by agent (``last()`` and ``observe()``)."""

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._obs_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._act_space

    def _live(self) -> State:
        if self.state is None:
            raise RuntimeError("call reset() before observe(), step() or last()")
        return self.state

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seen = self._seen.get(agent)
        if seen is not None:
            return seen
        state = self.state if self.state is not None else self._live()
        if agent == self.agent_selection and not (self._over or self._done):
            m = A.mask_from(self._idx)  # (a new array each time: users keep what they are given)
        else:
            m = A.no_mask()
        seen = self._seen[agent] = {"observation": O.observe_state(state, self._seat_of[agent]), "action_mask": m}
        return seen

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """PettingZoo's ``last`` (the same tuple), without its extra call and assertion per step."""
        agent = self.agent_selection
        return (self.observe(agent) if observe else None, self._cumulative_rewards[agent],
                self.terminations[agent], self.truncations[agent], self.infos[agent])

    def agent_iter(self, max_iter: int = 2**63) -> Iterable[str]:
        """PettingZoo's ``agent_iter`` (the selected agent until no agent is left, at most
        ``max_iter`` times), as a generator: its iterator's ``__next__`` is a Python call per step."""
        return _AgentIter(self, max_iter)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng.seed(seed)
        game_seed = seed if seed is not None else self._rng.randrange(2**31)
        self.state = new_game(self.setup, game_seed)
        self.steps = 0
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._zero = True
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self._done = False
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._moved()

    def _moved(self) -> None:
        """The state changed: forget the per-state caches and select the deciding agent."""
        self._seen = {}
        state = self.state if self.state is not None else self._live()
        self._over = outcome(state) is not None
        if self._over:
            self._legal, self._idx = [], []
            return
        legal = self._legal = legal_actions(state)
        self._idx = A.indices(legal)
        agent = self.agent_selection = self.possible_agents[legal[0].seat]
        if self.render_mode:
            self.infos[agent]["text"] = self._text(self._seat_of[agent])

    def _text(self, seat: int) -> str:
        return O.view_text(view(self._live(), seat))

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self._done and (self.terminations[agent] or self.truncations[agent]):
            self._seen = {}
            self._was_dead_step(action)
            self._zero = True  # (it clears the rewards)
            return
        if action is None:
            raise ValueError(f"{agent} must act: step(None) is only for an agent that is done")
        index = int(action)
        if not 0 <= index < self._n:
            raise A.ActionSpaceError(f"action index {index} is outside the space 0..{self._n - 1}")
        try:
            a: Action | None = self._legal[self._idx.index(index)]
        except ValueError:
            a = None
        self._cumulative_rewards[agent] = 0.0
        if not self._zero:
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self._zero = True
        if a is None:
            # an illegal index ends the game and loses it, as PettingZoo's TerminateIllegalWrapper does
            self.rewards[agent] = -1.0
            self._zero = False
            self.terminations = dict.fromkeys(self.agents, True)
            self._done = True
            self.infos[agent]["illegal_action"] = True
            self._seen = {}
            self._accumulate_rewards()
            return
        self.state = apply(self.state if self.state is not None else self._live(), a)
        self.steps += 1
        self._moved()
        if self._over:
            r = end_rewards(self.state)
            self.rewards = {a: r[i] for i, a in enumerate(self.possible_agents)}
            self._zero = False
            self.terminations = dict.fromkeys(self.agents, True)
            self._done = True
        elif self.max_cycles is not None and self.steps >= self.max_cycles:
            self.truncations = dict.fromkeys(self.agents, True)
            self._done = True
        if not self._zero:  # (adding zeros changes nothing)
            self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        d = decision(self._live())
        return self._text(d.seat if d is not None else 0)

    def close(self) -> None:
        pass


class _AgentIter:
    """What ``agent_iter`` returns: iterable again, as PettingZoo's ``AECIterable``."""

    def __init__(self, env: raw_env, max_iter: int) -> None:
        self.env, self.max_iter = env, max_iter

    def __iter__(self) -> Iterator[str]:
        env, left = self.env, self.max_iter
        while env.agents and left > 0:
            left -= 1
            yield env.agent_selection


def env(**kwargs: Any) -> raw_env:
    """The AEC environment. It checks its own input, so it needs none of PettingZoo's wrappers: an
    illegal index ends the game with -1 for its sender (as ``TerminateIllegalWrapper`` does in
    PettingZoo's classic games), an index outside the space raises ``ActionSpaceError``, and using
    it before ``reset()`` raises ``RuntimeError``."""
    return raw_env(**kwargs)
