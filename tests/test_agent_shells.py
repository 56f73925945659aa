"""Every shell that holds a game and asks an agent (the server's agent seats and hints, the Gymnasium
opponent) asks it the way the agent needs (``meloch.agents.choose_for``): a search agent through
``choose_from`` with its seat's ``Sampler``. Until 2026-12-04 the server and the Gymnasium env called
``choose``, which a search agent answers uniformly at random (it has no sampler to look ahead with):
a browser player's "heuristic" or "search:hard" opponent, and a researcher's, played at random."""

from __future__ import annotations

import random

from meloch.agents import HeuristicAgent, Sampler, agent_seed, make_agent
from meloch.engine import Setup, State, apply, decision, legal_actions, new_game, outcome, state_hash, view
from meloch.rl import MelochEnv
from meloch.rl import actions as A
from meloch.server import engine_port as port


def _positions(n: int) -> list[State]:
    """States of a random game where a seat has three options or more (no combat commit)."""
    s, rng, out = new_game(Setup(), 11), random.Random(2), []
    while outcome(s) is None and len(out) < n:
        legal = legal_actions(s)
        if len(legal) >= 3 and legal[0].verb not in ("dial", "tuck"):
            out.append(s)
        s = apply(s, rng.choice(legal))
    return out


def test_server_agent_seats_and_hints_search_like_the_agent() -> None:
    positions = _positions(12)
    assert len(positions) == 12
    apart = 0
    for i, s in enumerate(positions):
        legal = legal_actions(s)
        seat = legal[0].seat
        bits = random.Random(i).getrandbits(63)
        searched = str(HeuristicAgent(bits).choose_from(view(s, seat), legal, Sampler(s, seat)))
        assert port.agent_move(s, seat, "heuristic", i) == searched
        hint = port.hint(s, seat, i)
        assert hint is not None and hint["action"] == searched
        apart += searched != str(HeuristicAgent(bits).choose(view(s, seat), legal))
    assert apart >= 3  # the uniform pick (what the shells used to get) differs: the check can fail
    s = positions[0]
    seat = legal_actions(s)[0].seat
    medium = make_agent("search:medium", random.Random(5).getrandbits(63))
    assert port.agent_move(s, seat, "search:medium", 5) == str(
        medium.choose_from(view(s, seat), legal_actions(s), Sampler(s, seat)))  # type: ignore[attr-defined]


def test_gymnasium_opponent_searches_like_the_agent() -> None:
    """The moves of a heuristic opponent after the env's first step are the heuristic's own, replayed
    apart from the env."""
    env = MelochEnv(seat=0, opponent="heuristic")
    _, info = env.reset(seed=3)
    seed = info["game_seed"]
    agent = make_agent("heuristic", agent_seed(seed, 1))
    uniform = make_agent("heuristic", agent_seed(seed, 1))
    moved = differ = 0

    def answer(s: State) -> State:
        nonlocal moved, differ
        while (d := decision(s)) is not None and d.seat == 1:
            legal = legal_actions(s)
            a = agent.choose_from(view(s, 1), legal, Sampler(s, 1))  # type: ignore[attr-defined]
            differ += len(legal) > 1 and a != uniform.choose(view(s, 1), legal)
            s, moved = apply(s, a), moved + 1
        return s

    s = answer(new_game(env.setup, seed))  # the opponent's setup choices, made in reset
    assert state_hash(env.state) == state_hash(s)
    for _ in range(40):  # the env's seat takes its first option; the opponent answers in both games
        mine = legal_actions(s)[0]
        env.step(A.encode(mine))
        s = answer(apply(s, mine))
        assert state_hash(env.state) == state_hash(s)
        if outcome(s) is not None:
            break
    assert moved >= 3 and differ >= 1, (moved, differ)
