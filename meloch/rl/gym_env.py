"""Gymnasium single-agent environment: one seat against an opponent from the agent registry.

``MelochEnv(seat=0, opponent="random")`` plays ``seat``; every other decision is taken by
``make_agent(opponent, agent_seed(game_seed, 1 - seat))`` (any registry name: random, aggressive,
heuristic, the ISMCTS levels), or the other seat is the solo Automa, ``automa:N`` / ``automa:N+threat``
(a seat the rules drive: the setup gets that option, ``with_engine_seats``). The observation is the dict
of the PettingZoo environment (``observation``, ``action_mask``); ``action_masks()`` returns the
mask too (the sb3-contrib ``MaskablePPO`` convention). Reward +1/-1/0 at the end. An illegal action
ends the episode with -1 (``info["illegal_action"]``), as in the PettingZoo environment.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np

from meloch.agents import choose_for, make_agent
from meloch.agents.registry import agent_seed, with_engine_seats
from meloch.engine import Setup, State, apply, legal_actions, new_game, outcome, view
from meloch.rl import actions as A
from meloch.rl import observe as O
from meloch.rl.pz import end_rewards, observation_space


class MelochEnv(gym.Env[dict[str, np.ndarray], int]):
    metadata = {"render_modes": ["ansi"]}

    def __init__(self, seat: int = 0, opponent: str = "random", setup: Setup | None = None,
                 render_mode: str | None = None) -> None:
        if seat not in (0, 1):
            raise ValueError(f"seat must be 0 or 1, not {seat!r}")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode {render_mode!r} is not supported; use 'ansi' or None")
        make_agent(opponent, 0)  # a clear ValueError now for an unknown name
        names = [opponent if s != seat else "agent" for s in range(2)]
        # an Automa level is a seat the rules drive: a setup option, not an agent (never asked)
        self.seat, self.opponent_name, self.setup = seat, opponent, with_engine_seats(setup or Setup(), names)
        self.render_mode = render_mode
        self.observation_space = observation_space()  # type: ignore[assignment]
        self.action_space = gym.spaces.Discrete(A.size())  # type: ignore[assignment]
        self.state: State = new_game(self.setup, 0)
        self.opponent = make_agent(opponent, 0)
        self.done = True

    def _obs(self) -> dict[str, np.ndarray]:
        legal = legal_actions(self.state)  # (empty once the game is over)
        m = A.mask(legal) if legal and legal[0].seat == self.seat else A.no_mask()
        return {"observation": O.observe_state(self.state, self.seat), "action_mask": m}

    def action_masks(self) -> np.ndarray:
        return self._obs()["action_mask"].astype(bool)

    def _play_opponent(self) -> None:
        while outcome(self.state) is None:
            legal = legal_actions(self.state)
            if legal[0].seat == self.seat:
                return
            self.state = apply(self.state, choose_for(self.opponent, self.state, legal))

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(2**31))
        self.state = new_game(self.setup, game_seed)
        self.opponent = make_agent(self.opponent_name, agent_seed(game_seed, 1 - self.seat))
        self._play_opponent()
        self.done = outcome(self.state) is not None
        return self._obs(), {"game_seed": game_seed}

    def step(self, action: int) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        if self.done:
            raise RuntimeError("the episode is over (or not started): call reset()")
        try:
            a = A.decode(int(action), legal_actions(self.state))
        except A.ActionSpaceError as e:
            self.done = True
            return self._obs(), -1.0, True, False, {"illegal_action": True, "error": str(e)}
        self.state = apply(self.state, a)
        self._play_opponent()
        done = self.done = outcome(self.state) is not None
        reward = end_rewards(self.state)[self.seat] if done else 0.0
        info: dict[str, Any] = {}
        if done:
            out = outcome(self.state)
            info["winner"] = None if out is None else out.winner
        return self._obs(), reward, done, False, info

    def render(self) -> str | None:
        return O.view_text(view(self.state, self.seat)) if self.render_mode == "ansi" else None
