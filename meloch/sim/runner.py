"""The one game runner: terminal play, self-play, the tournament, the benchmark and the scenario
games all play through ``play_game``.

``play_game(setup, seed, agents, hooks)`` asks the deciding seat's agent for an action until the
game ends and returns a ``GameRecord`` (setup, seed, actions, outcome...) from which ``replay``
rebuilds the game exactly. A human agent may answer with a ``Control`` instead of an action
(``undo`` takes back the seat's last step when the engine's ``undo_refusal`` allows it; ``quit``
stops). Hooks see every step (``on_step``), every undo and the end. Only the engine's public
protocol is used.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import msgspec

from meloch.agents import Agent, Sampler, wants_sampler, with_engine_seats
from meloch.engine import (
    TAG_SEAT,
    Action,
    Outcome,
    Setup,
    State,
    apply,
    content_of,
    decision,
    legal_actions,
    new_game,
    outcome,
    parse,
    state_hash,
    undo_refusal,
    using,
    view,
)

DEFAULT_MAX_DECISIONS = 1_000_000
"""Safety net against a game that never reaches the turn limit (an engine bug if it triggers)."""


class GameRecord(msgspec.Struct, frozen=True):
    """One played game: enough to replay it, and its result."""

    setup: Setup
    seed: int
    actions: tuple[str, ...]
    outcome: Outcome | None
    turns: int
    decisions: int
    final_hash: str
    agents: tuple[str, ...] = ()
    stars: tuple[int, ...] = ()
    """Stars of each seat at the end (the tournament's tiebreak)."""
    quit: bool = False
    """The game was left before its end (a human quit, or the input ended)."""


class RunnerError(RuntimeError):
    """The engine left a game without a legal action, or it ran past the decision cap."""


class Control(msgspec.Struct, frozen=True):
    """What a human agent may answer instead of an action."""

    kind: Literal["undo", "quit"]


def view_field(v: Any, name: str) -> Any:
    """Field ``name`` of a view, whether the view is a dict or a typed struct."""
    return v[name] if isinstance(v, dict) else getattr(v, name)


@dataclass
class History:
    """A game in progress: every state after every accepted action (for undo) and the actions."""

    setup: Setup
    seed: int
    states: list[State] = field(default_factory=list)
    actions: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.states:
            self.states = [new_game(self.setup, self.seed)]

    @property
    def state(self) -> State:
        return self.states[-1]

    def push(self, action: Action | str) -> State:
        """Apply ``action`` (raises ``IllegalAction``) and record it."""
        if isinstance(action, str):
            action = parse(action)
        s = apply(self.state, action)
        self.states.append(s)
        self.actions.append(str(action))
        return s


class Hooks:
    """Callbacks around a game; the defaults do nothing."""

    def on_step(self, before: State, action: Action, after: State) -> None:
        """After every accepted action."""

    def on_undo(self, seat: int, undone: Sequence[tuple[State, str]], refusal: str | None, blocked: str = "") -> None:
        """After an undo request: the (state before, action) pairs taken back, or why none was
        (``refusal``) and the action that cannot be taken back (``blocked``, empty if none)."""

    def on_end(self, state: State, record: GameRecord) -> None:
        """When the game ends or is left."""


def play_game(setup: Setup | None, seed: int, agents: Sequence[Agent], hooks: Hooks | None = None, *,
              history: History | None = None, max_decisions: int = DEFAULT_MAX_DECISIONS,
              keep_states: bool = False) -> GameRecord:
    """Play until the game ends (or a ``Control('quit')``): ``agents[seat]`` chooses for ``seat``.

    ``history`` continues a game in progress (a resumed save); ``keep_states`` keeps every state
    (needed for undo; implied by a given ``history``).
    """
    setup = with_engine_seats(setup or Setup(), [a.name for a in agents])
    h = history if history is not None else History(setup, seed)
    keep = keep_states or history is not None
    hooks = hooks or Hooks()
    with using(content_of(h.setup)):  # bound once for the game, not by every protocol call
        state, quit_ = _loop(h, agents, hooks, keep, max_decisions, seed)
    public = view(state, None)
    o = outcome(state)
    rec = GameRecord(setup=h.setup, seed=h.seed, actions=tuple(h.actions), outcome=o,
                     turns=int(view_field(public, "turn")), decisions=len(h.actions), final_hash=state_hash(state),
                     agents=tuple(a.name for a in agents), stars=tuple(int(x) for x in view_field(public, "stars")),
                     quit=quit_)
    hooks.on_end(state, rec)
    return rec


def _loop(h: History, agents: Sequence[Agent], hooks: Hooks, keep: bool, max_decisions: int,
          seed: int) -> tuple[State, bool]:
    """``play_game``'s steps: (the last state, whether a seat quit)."""
    # Per step only what changes: how each seat's agent is asked is fixed for the game, and the
    # default hook does nothing (a random game's step is ~12 us, so these lookups showed).
    asks = [(wants_sampler(a), bool(getattr(a, "uses_view", True))) for a in agents]
    on_step = None if type(hooks).on_step is Hooks.on_step else hooks.on_step
    states, actions = h.states, h.actions
    state = h.state
    quit_ = False
    while True:
        legal = legal_actions(state)
        if not legal:
            if outcome(state) is None:
                raise RunnerError(f"seed {seed}: no legal action and no outcome (after {len(actions)} actions)")
            break
        if len(actions) >= max_decisions:
            raise RunnerError(f"seed {seed}: more than {max_decisions} decisions")
        seat = TAG_SEAT[legal[0].who]  # ``Action.seat`` without its Python call
        agent = agents[seat]
        sampled, viewed = asks[seat]
        if sampled:
            choice = agent.choose_from(view(state, seat), legal, Sampler(state, seat))  # type: ignore[attr-defined]
        else:
            choice = agent.choose(view(state, seat) if viewed else None, legal)
        # The exact type first: ``isinstance`` against a Struct class takes a slow path.
        if type(choice) is not Action and isinstance(choice, Control):
            if choice.kind == "quit":
                quit_ = True
                break
            _undo(h, seat, hooks)
            state = h.state
            continue
        after = apply(state, choice)  # refuses anything not in ``legal``
        if keep:
            states.append(after)
        else:
            states[-1] = after
        actions.append(str(choice))
        if on_step is not None:
            on_step(state, choice, after)
        state = after
    return state, quit_


def _undo(h: History, seat: int, hooks: Hooks) -> None:
    """Take back ``seat``'s last step and the forced steps just before it (they would only be taken
    again), as far as the engine's ``undo_refusal`` allows."""
    if len(h.states) < 2:
        hooks.on_undo(seat, [], "there is nothing to undo." if not h.actions else "this game keeps no history.")
        return
    j = len(h.states) - 1
    refusal = undo_refusal(h.states[j - 1], h.states[j], seat)
    while refusal is None:
        j -= 1
        if j < 1 or not _forced(h.states[j]):
            break
        refusal = undo_refusal(h.states[j - 1], h.states[j], seat)
    if _forced(h.states[j]) or j == len(h.states) - 1:
        # Stopped on a step that cannot be undone, with only forced steps after it.
        blocked = h.actions[j - 1] if j >= 1 and refusal is not None else ""
        hooks.on_undo(seat, [], refusal or "only steps with a single option lie before it.", blocked)
        return
    undone: list[tuple[State, str]] = []
    while len(h.states) - 1 > j:
        h.states.pop()
        undone.append((h.states[-1], h.actions.pop()))
    hooks.on_undo(seat, undone, None)


def _forced(state: State) -> bool:
    d = decision(state)
    return d is not None and d.forced
