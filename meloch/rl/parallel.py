"""PettingZoo Parallel environment, and its AEC form in strict rotation (``env``).

The game is sequential, so a parallel step is one decision: every live agent sends an action,
the deciding agent's is applied, the others' are ignored (their action masks are all zero, and
PettingZoo's masked ``sample`` gives them index 0). An index that is not legal for the deciding
agent is ignored too: the decision stays open, the step still counts, and
``infos[agent]["illegal_action"]`` says so (the sequential ``meloch.rl.env`` ends the game
instead; a parallel caller sends actions for everyone each step, so ignoring is the consistent
rule here). ``max_cycles`` truncates after that many parallel steps. Rewards as in ``meloch.rl.pz``.

``env(**kwargs)`` is ``parallel_to_aec(parallel_env(**kwargs))``: every agent acts once per cycle,
which is what PettingZoo's ``max_cycles_test`` counts (``tests/rl`` runs it on this module).
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import ParallelEnv
from pettingzoo.utils.conversions import parallel_to_aec

from meloch.engine import Action, Setup, State, apply, legal_actions, new_game, outcome
from meloch.rl import actions as A
from meloch.rl import observe as O
from meloch.rl.pz import agent_names, end_rewards, observation_space

Obs = dict[str, np.ndarray]


class MelochParallel(ParallelEnv):  # type: ignore[misc]  # (ParallelEnv is untyped)
    metadata = {"render_modes": [], "name": "meloch_parallel_v0"}

    def __init__(self, setup: Setup | None = None, max_cycles: int | None = None, seed: int | None = None) -> None:
        if max_cycles is not None and max_cycles < 1:
            raise ValueError(f"max_cycles must be at least 1, not {max_cycles!r}")
        self.setup = setup or Setup()
        self.max_cycles = max_cycles
        self.render_mode = None
        self.possible_agents = agent_names(self.setup)
        self.agents: list[str] = []
        self._obs_space = observation_space()
        self._act_space = spaces.Discrete(A.size())
        self._rng = random.Random(seed)
        self.game: State | None = None
        """The game's state (not ``state``: that is ``ParallelEnv.state()``, the global observation)."""
        self.steps = 0

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._obs_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._act_space

    def _live(self) -> State:
        if self.game is None:
            raise RuntimeError("call reset() before step()")
        return self.game

    def _observe(self) -> tuple[dict[str, Obs], dict[int, Action]]:
        state = self._live()
        legal = A.legal_map(legal_actions(state)) if outcome(state) is None else {}
        decider = next(iter(legal.values())).seat if legal else -1
        obs = {agent: {"observation": O.observe_state(state, i),
                       "action_mask": A.mask_of(legal) if i == decider else A.no_mask()}
               for i, agent in enumerate(self.possible_agents)}
        return obs, legal

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, Obs], dict[str, dict[str, Any]]]:
        if seed is not None:
            self._rng.seed(seed)
        self.game = new_game(self.setup, seed if seed is not None else self._rng.randrange(2**31))
        self.steps = 0
        self.agents = self.possible_agents[:]
        obs, _ = self._observe()
        return obs, {a: {} for a in self.agents}

    def step(self, actions: dict[str, Any]) -> tuple[dict[str, Obs], dict[str, float], dict[str, bool],
                                                     dict[str, bool], dict[str, dict[str, Any]]]:
        state = self._live()
        if not self.agents:
            raise RuntimeError("the game is over: call reset()")
        legal = A.legal_map(legal_actions(state))
        decider = self.possible_agents[next(iter(legal.values())).seat]
        infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        sent = actions.get(decider)
        if sent is None:
            raise ValueError(f"{decider} decides now and sent no action")
        index = int(sent)
        if not 0 <= index < A.size():
            raise A.ActionSpaceError(f"action index {index} is outside the space 0..{A.size() - 1}")
        if index in legal:
            state = self.game = apply(state, legal[index])
        else:
            infos[decider]["illegal_action"] = True
        self.steps += 1
        rewards = dict.fromkeys(self.agents, 0.0)
        over = outcome(state) is not None
        truncated = not over and self.max_cycles is not None and self.steps >= self.max_cycles
        if over:
            r = end_rewards(state)
            rewards = {a: r[i] for i, a in enumerate(self.possible_agents)}
        obs, _ = self._observe()
        terminations = dict.fromkeys(self.agents, over)
        truncations = dict.fromkeys(self.agents, truncated)
        if over or truncated:
            self.agents = []
        return obs, rewards, terminations, truncations, infos

    def render(self) -> None:
        return None

    def close(self) -> None:
        pass


def parallel_env(**kwargs: Any) -> MelochParallel:
    """The Parallel environment (``setup``, ``max_cycles``, ``seed``)."""
    return MelochParallel(**kwargs)


def env(**kwargs: Any) -> Any:
    """The Parallel environment as an AEC one in strict rotation (PettingZoo's ``parallel_to_aec``)."""
    return parallel_to_aec(parallel_env(**kwargs))
