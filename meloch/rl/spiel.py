"""OpenSpiel registration: ``python_meloch`` as a sequential, zero-sum, imperfect-information game.

Chance is handled inside the engine: the first node is the one chance node, which picks the game's
seed uniformly among ``seeds`` values; every later shuffle and draw comes from the engine's seeded
RNG. (OpenSpiel's ``SAMPLED_STOCHASTIC`` mode would need ``Game.GetRNGState`` for serialization,
which a Python game cannot override, so the seed is an explicit chance outcome instead.) Actions
are the fixed space of ``meloch.rl.actions``. The observation (and information state) of a player
is its view: the tensor is ``meloch.rl.observe``'s vector, the string the view as text.
``resample_from_infostate`` is the engine's ``determinize``, so OpenSpiel's ISMCTS bot searches over
worlds consistent with what the player saw. Importing this module registers the game;
``pyspiel.load_game("python_meloch")``.

Parameters: ``seeds`` (number of chance outcomes, i.e. game seeds 0..seeds-1) and ``turn_limit``.
The information state is the current view (with the seat's known facts), not the full history of
observations: OpenSpiel's perfect-recall assumption does not hold exactly.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pyspiel

from meloch.engine import Setup, State, apply, decision, legal_actions, new_game, outcome, view
from meloch.rl import actions as A
from meloch.rl import observe as O

SHORT_NAME = "python_meloch"
_DEFAULTS = {"seeds": 1024, "turn_limit": 300}

GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Duel of Meloch",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_DEFAULTS,
)


def _game_info(turn_limit: int, seeds: int) -> pyspiel.GameInfo:
    return pyspiel.GameInfo(
        num_distinct_actions=A.size(), max_chance_outcomes=seeds, num_players=2, min_utility=-1.0,
        max_utility=1.0, utility_sum=0.0, max_game_length=turn_limit * 60,
    )


class MelochGame(pyspiel.Game):  # type: ignore[misc]
    def __init__(self, params: dict[str, Any] | None = None) -> None:
        p = {**_DEFAULTS, **(params or {})}
        self.turn_limit = int(p["turn_limit"])
        self.seeds = int(p["seeds"])
        if self.seeds < 1 or self.turn_limit < 1:
            raise ValueError(f"seeds and turn_limit must be positive, not {self.seeds} and {self.turn_limit}")
        super().__init__(GAME_TYPE, _game_info(self.turn_limit, self.seeds), p)

    def new_initial_state(self) -> MelochState:
        return MelochState(self, None)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> MelochObserver:
        return MelochObserver()


class _Shared:
    """Holds an engine state. OpenSpiel clones a Python state by deep-copying its attributes;
    engine states are values (never mutated), so a clone may share it: copying it is pure cost."""

    __slots__ = ("state",)

    def __init__(self, state: State | None) -> None:
        self.state = state

    def __deepcopy__(self, memo: dict[int, Any]) -> _Shared:
        return self

    def __getstate__(self) -> tuple[State | None]:
        return (self.state,)  # a tuple: pickle skips __setstate__ for a falsy state

    def __setstate__(self, state: tuple[State | None]) -> None:
        self.state = state[0]


class MelochState(pyspiel.State):  # type: ignore[misc]
    def __init__(self, game: MelochGame, state: State | None) -> None:
        super().__init__(game)
        self.box = _Shared(state)
        self.seeds = game.seeds
        self.turn_limit = game.turn_limit

    @property
    def meloch(self) -> State | None:
        return self.box.state

    @meloch.setter
    def meloch(self, state: State) -> None:
        self.box = _Shared(state)

    @property
    def game_state(self) -> State:
        if self.meloch is None:
            raise ValueError("the game's seed is not chosen yet (the initial chance node)")
        return self.meloch

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(i, 1.0 / self.seeds) for i in range(self.seeds)] if self.meloch is None else []

    def current_player(self) -> int:
        if self.meloch is None:
            return int(pyspiel.PlayerId.CHANCE)
        if outcome(self.meloch) is not None:
            return int(pyspiel.PlayerId.TERMINAL)
        d = decision(self.meloch)
        return int(pyspiel.PlayerId.TERMINAL) if d is None else d.seat

    def _legal_actions(self, player: int) -> list[int]:
        if self.meloch is None:
            return list(range(self.seeds))
        return sorted(A.legal_map(legal_actions(self.meloch)))

    def _apply_action(self, action: int) -> None:
        if self.meloch is None:
            self.meloch = new_game(Setup(turn_limit=self.turn_limit), int(action))
            return
        self.meloch = apply(self.meloch, A.decode(action, legal_actions(self.meloch)))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == int(pyspiel.PlayerId.CHANCE):
            return f"seed {action}"
        return " ".join(A.action_keys()[action])

    def is_terminal(self) -> bool:
        return self.meloch is not None and outcome(self.meloch) is not None

    def returns(self) -> list[float]:
        out = outcome(self.meloch) if self.meloch is not None else None
        if out is None or out.winner is None:
            return [0.0, 0.0]
        return [1.0, -1.0] if out.winner == 0 else [-1.0, 1.0]

    def resample_from_infostate(self, player: int, prob_sampler: Any = None) -> MelochState:
        """A state the player cannot tell from this one (the engine's ``determinize``)."""
        from meloch.engine import determinize

        u = float(prob_sampler()) if callable(prob_sampler) else random.random()
        rng = random.Random(int(u * 2**53))
        return MelochState(self.get_game(), determinize(self.game_state, player, rng))

    def __str__(self) -> str:
        if self.meloch is None:
            return "seed not chosen"
        v = view(self.meloch, None)
        return f"turn {v.turn} step {v.step} stars {v.stars[0]}-{v.stars[1]} decision " + (
            f"{v.decision.seat} {v.decision.kind}" if v.decision else "none")


class MelochObserver:
    """Observation and information state of one player: its view, as a tensor and as text."""

    def __init__(self) -> None:
        self.tensor = np.zeros(O.size(), dtype=np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: MelochState, player: int) -> None:
        self.tensor[:] = 0 if state.meloch is None else O.observe_state(state.meloch, player)

    def string_from(self, state: MelochState, player: int) -> str:
        return "seed not chosen" if state.meloch is None else O.view_text(view(state.meloch, player))


pyspiel.register_game(GAME_TYPE, MelochGame)
