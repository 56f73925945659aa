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
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from meloch.engine import Setup, State, apply, decision, legal_actions, new_game, outcome, view
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
        self.setup = setup or Setup()
        self.render_mode = render_mode
        self.max_cycles = max_cycles
        probe = new_game(self.setup, 0)
        self.possible_agents = agent_names(self.setup)
        self.agents = self.possible_agents[:]
        self._obs_space = observation_space()
        self._act_space = spaces.Discrete(A.size())
        self._rng = random.Random(seed)
        """Draws the game seed of a ``reset()`` without a seed (``seed`` makes those reproducible)."""
        self.state: State = probe
        self.steps = 0

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._obs_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._act_space

    def _seat(self, agent: str) -> int:
        return self.possible_agents.index(agent)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self._seat(agent)
        d = decision(self.state)
        m = (A.mask(legal_actions(self.state)) if d is not None and d.seat == seat and agent in self.agents
             and not (self.terminations[agent] or self.truncations[agent]) else np.zeros(A.size(), dtype=np.int8))
        return {"observation": O.observe(view(self.state, seat)), "action_mask": m}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng.seed(seed)
        game_seed = seed if seed is not None else self._rng.randrange(2**31)
        self.state = new_game(self.setup, game_seed)
        self.steps = 0
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._select()

    def _select(self) -> None:
        d = decision(self.state)
        if d is not None:
            self.agent_selection = self.possible_agents[d.seat]
            self.infos[self.agent_selection]["text"] = self._text(d.seat) if self.render_mode else ""

    def _text(self, seat: int) -> str:
        return O.view_text(view(self.state, seat))

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert action is not None
        self.state = apply(self.state, A.decode(int(action), legal_actions(self.state)))
        self.steps += 1
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if outcome(self.state) is not None:
            r = end_rewards(self.state)
            self.rewards = {a: r[i] for i, a in enumerate(self.possible_agents)}
            self.terminations = dict.fromkeys(self.agents, True)
        elif self.max_cycles is not None and self.steps >= self.max_cycles:
            self.truncations = dict.fromkeys(self.agents, True)
        if not (self.terminations[agent] or self.truncations[agent]):
            self._select()
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        d = decision(self.state)
        return self._text(d.seat if d is not None else 0)

    def close(self) -> None:
        pass


def env(**kwargs: Any) -> Any:
    """The wrapped environment (illegal actions end the game; out-of-range actions assert; order
    enforced), as PettingZoo's classic games ship it."""
    e: Any = raw_env(**kwargs)
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=-1)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)
