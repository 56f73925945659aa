"""The research API: the action space and observation encoders, and the PettingZoo, Gymnasium and
OpenSpiel environments under their own test suites (20 setups here, 200 in the slow suite)."""

from __future__ import annotations

import random
import warnings
from pathlib import Path
from types import SimpleNamespace

import msgspec
import numpy as np
import pytest

from meloch.agents import agent_names, automa_option, make_agent, wants_sampler
from meloch.engine import (
    Setup,
    apply,
    decision,
    determinize,
    glance,
    legal_actions,
    new_game,
    outcome,
    view,
)
from meloch.rl import actions as A
from meloch.rl import observe as O
from meloch.scenario.games import varied_setup

FAST, SLOW = range(20), range(20, 220)
SEARCH_TURNS = 3
"""Turns (both seats) of a fast Gymnasium game against a search opponent (``_check_gym``)."""
ROOT = Path(__file__).resolve().parents[2]


def _random_game(i: int):
    """Yield the states of a random game over ``varied_setup(i)``."""
    s = new_game(varied_setup(i), i)
    rng = random.Random(i)
    while outcome(s) is None:
        yield s
        s = apply(s, rng.choice(legal_actions(s)))


def _check_codec(i: int) -> None:
    kinds = set()
    for s in _random_game(i):
        legal = legal_actions(s)
        kinds.add(decision(s).kind)
        m = A.mask(legal)
        assert m.sum() == len({A.key(a) for a in legal})
        for a in legal:
            b = A.decode(A.encode(a), legal)
            assert A.key(b) == A.key(a) and b in legal
            if not any(x.startswith("c") and x[1:].isdigit() for x in a.args):
                assert b == a  # only combat instances of one type are merged
    assert kinds <= set(O.DECISION_KINDS), kinds - set(O.DECISION_KINDS)


@pytest.mark.parametrize("i", FAST)
def test_codec_round_trips_every_legal_action(i: int) -> None:
    _check_codec(i)


@pytest.mark.slow
@pytest.mark.parametrize("i", SLOW)
def test_codec_round_trips_slow(i: int) -> None:
    _check_codec(i)


def test_bad_indices_are_clear_errors() -> None:
    s = new_game(varied_setup(0), 0)
    legal = legal_actions(s)
    with pytest.raises(A.ActionSpaceError, match="outside the space"):
        A.decode(A.size(), legal)
    illegal = next(i for i in range(A.size()) if i not in A.legal_map(legal))
    with pytest.raises(A.ActionSpaceError, match="not legal now"):
        A.decode(illegal, legal)


def test_caches_without_hashable_actions(monkeypatch: pytest.MonkeyPatch, path: str) -> None:
    """The compiled engine build loses ``Action``'s ``frozen=True`` (its actions do not hash): the
    codec's caches then key by (who, verb, args) and give the same indices, maps and masks (the
    Python indices; the C ``Indexer`` never hashes an ``Action``)."""
    expected = [(A.indices_py(legal_actions(s)), A.legal_map(legal_actions(s))) for s in _random_game(5)][:150]
    monkeypatch.setattr(A, "_HASHABLE", False)
    monkeypatch.setattr(A, "_SEEN", {})
    for n, s in enumerate(_random_game(5)):
        if n >= len(expected):
            break
        legal = legal_actions(s)
        for _ in range(2):  # (the first pass fills the cache, the second reads it)
            idx = A.indices_py(legal)
            assert (idx, A.legal_map(legal)) == expected[n]
            assert np.array_equal(A.mask(legal), A.mask_from(expected[n][0]))
            assert all(A.decode_at(i, idx, legal) == expected[n][1][i] for i in idx)
    assert A._SEEN and all(isinstance(k, tuple) for k in A._SEEN)


def test_documented_sizes_match() -> None:
    doc = (ROOT / "docs" / "rl.md").read_text()
    assert f"{A.size():,} actions" in doc
    assert f"{O.size()} floats" in doc
    assert sum(n for _, _, n in O.layout()) == O.size()
    for name, off, n in O.layout():
        assert f"| `{name}` | {off} | {n} |" in doc


@pytest.mark.parametrize("i", range(6))
def test_observation_hides_what_the_seat_cannot_see(i: int, path: str) -> None:
    """Re-sampling everything hidden from a seat leaves its observation unchanged, and the other
    seat's hidden cards do show up somewhere (the test can fail)."""
    rng = random.Random(i)
    resampled = 0
    for n, s in enumerate(_random_game(i)):
        if n % 17:
            continue
        for seat in (0, 1):
            o = O.observe(view(s, seat))
            assert o.dtype == np.float32 and np.isfinite(o).all()
            d = determinize(s, seat, rng)
            o2 = O.observe(view(d, seat))
            assert np.array_equal(o, o2)
            assert glance(d, seat) == glance(s, seat)
            assert np.array_equal(O.observe_state(d, seat), o)
            # the re-sampling did change what the other seat sees of itself (its own combat cards):
            # had the encoder read it for this seat, the vectors above would differ
            resampled += not np.array_equal(O.observe_state(d, 1 - seat), O.observe_state(s, 1 - seat))
            # the incremental encoder's buffers: right after the other seat's vector of the
            # re-sampled state was written, this seat's is still exactly the memo-free one
            O.observe_state(d, 1 - seat)
            assert np.array_equal(O.observe_state(s, seat), O.encode_full(glance(s, seat)))
            assert np.array_equal(O.observe_state(d, seat), o)
    assert resampled > 0
    with pytest.raises(ValueError, match="spectator"):
        O.observe(view(new_game(varied_setup(0), 0), None))
    with pytest.raises(ValueError, match="seat must be 0 or 1"):
        glance(new_game(varied_setup(0), 0), 2)


def _check_glance(i: int) -> None:
    """The engine's ``glance`` gives exactly what the typed view implies, and the cached encoding
    of it equals the view's, for both seats at every step (seats asked in a random order, so the
    caches see the same changes an environment sees)."""
    rng = random.Random(i)
    for s in _random_game(i):
        for seat in rng.sample((0, 1), rng.choice((1, 2))):
            v = view(s, seat)
            g = glance(s, seat)
            assert g == O.from_view(v)
            o = O.observe_state(s, seat)
            assert np.array_equal(o, O.observe(v))
            assert np.array_equal(o, O.encode_full(g))  # the memo-free reference encoding


def test_incremental_encoding_across_games_and_roles(path: str) -> None:
    """Two games stepped in turn, one Scythe vs Scythe and one Expeditions vs Expeditions, both
    seats encoded at every step: each seat's buffer switches game and role at every call, and every
    vector still equals the memo-free encoding. Handed-out vectors are never changed afterwards
    (the buffer is copied out), and changing one does not change the next."""
    games = [_random_game(6), _random_game(10)]
    kept: list[np.ndarray] = []
    for n, states in enumerate(zip(*games, strict=False)):
        for s in states:
            for seat in (0, 1):
                o = O.observe_state(s, seat)
                assert np.array_equal(o, O.encode_full(glance(s, seat)))
                if n % 7 == 0:
                    kept.append(o)
                    o[:] = -1.0  # (a user writing into its vector)
        if n > 120:
            break
    assert kept and all((o == -1.0).all() for o in kept)  # (each kept one is its own array)
    s = next(_random_game(6))
    for seat in (0, 1):
        assert np.array_equal(O.observe_state(s, seat), O.encode_full(glance(s, seat)))


@pytest.mark.parametrize("i", FAST)
def test_glance_equals_the_view(i: int, path: str) -> None:
    _check_glance(i)


@pytest.mark.slow
@pytest.mark.parametrize("i", SLOW)
def test_glance_equals_the_view_slow(i: int, path: str) -> None:
    _check_glance(i)


# ----------------------------------------------------------------------------- PettingZoo


def _pz(i: int, **kw):
    from meloch.rl.pz import env

    return env(setup=varied_setup(i), seed=i, **kw)


def _check_pettingzoo(i: int) -> None:
    from pettingzoo.test import api_test, max_cycles_test, parallel_api_test, seed_test

    import meloch.rl.parallel as P

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(_pz(i, render_mode="ansi"), num_cycles=300)
        seed_test(lambda: _pz(i), num_cycles=200)
        parallel_api_test(P.parallel_env(setup=varied_setup(i), seed=i), num_cycles=300)
    # the real max_cycles_test, on the parallel module with this setup and seed (it calls reset())
    mod = SimpleNamespace(parallel_env=lambda **kw: P.parallel_env(setup=varied_setup(i), seed=i, **kw),
                          env=lambda **kw: P.env(setup=varied_setup(i), seed=i, **kw))
    max_cycles_test(mod)


def _check_handout(i: int) -> None:
    """What the environment hands out (cached per step) is the typed view's encoding and the codec's
    mask, and later steps never change it."""
    e = _pz(i)
    e.reset(seed=i)
    rng = random.Random(i)
    kept = []
    for agent in e.agent_iter(150):
        obs, _, term, trunc, _ = e.last()
        if term or trunc:
            e.step(None)
            continue
        seat = e.possible_agents.index(agent)
        other = e.possible_agents[1 - seat]
        assert np.array_equal(obs["observation"], O.observe(view(e.state, seat)))
        assert np.array_equal(obs["observation"], O.encode_full(glance(e.state, seat)))  # (memo-free)
        assert np.array_equal(obs["action_mask"], A.mask(legal_actions(e.state)))
        assert obs["action_mask"].sum() == len({A.key(a) for a in legal_actions(e.state)})
        kept.append((obs, {k: v.copy() for k, v in obs.items()}))
        if rng.random() < 0.3:
            assert np.array_equal(e.observe(other)["observation"], O.observe(view(e.state, 1 - seat)))
            assert not e.observe(other)["action_mask"].any()
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    # what was handed out is the agent's: later steps never change it
    assert all(np.array_equal(obs[k], copy[k]) for obs, copy in kept for k in obs)


@pytest.mark.parametrize("i", FAST)
def test_pettingzoo_api_and_seed(i: int) -> None:
    _check_pettingzoo(i)


@pytest.mark.parametrize("i", FAST)
def test_pettingzoo_hands_out_the_encoding(i: int, path: str) -> None:
    _check_handout(i)


@pytest.mark.slow
@pytest.mark.parametrize("i", SLOW)
def test_pettingzoo_slow(i: int, path: str) -> None:
    _check_pettingzoo(i)
    _check_handout(i)


@pytest.mark.parametrize("cycles", [1, 4, 25])
def test_pettingzoo_max_cycles(cycles: int) -> None:
    """The sequential AEC env's ``max_cycles``: after that many decisions every agent is truncated
    and steps out once (PettingZoo's own ``max_cycles_test`` runs on ``meloch.rl.parallel``, whose
    AEC form acts in strict rotation, in ``_check_pettingzoo``)."""
    e = _pz(3, max_cycles=cycles)
    e.reset(seed=5)
    live = dead = 0
    for _agent in e.agent_iter(10_000):
        obs, _, term, trunc, _ = e.last()
        if term or trunc:
            assert trunc and not term
            dead += 1
            e.step(None)
        else:
            live += 1
            e.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert live == cycles and dead == 2


def test_pettingzoo_full_game_rewards_and_illegal_action() -> None:
    e = _pz(1, render_mode="ansi")
    e.reset(seed=9)
    rng = random.Random(9)
    totals = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        obs, r, term, trunc, info = e.last()
        totals[agent] += r
        if term or trunc:
            e.step(None)
            continue
        assert "decision:" in info["text"] and "decision:" in e.render()
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert sorted(totals.values()) in ([-1.0, 1.0], [0.0, 0.0])
    e.reset(seed=9)
    obs, *_ = e.last()
    sender = e.agent_selection
    e.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
    assert all(e.terminations.values())
    assert e.rewards[sender] == -1 and e.infos[sender]["illegal_action"]
    f = _pz(1)
    f.reset(seed=1)
    with pytest.raises(A.ActionSpaceError, match="outside the space"):
        f.step(A.size())


def test_pettingzoo_needs_reset_and_an_action() -> None:
    e = _pz(2)
    with pytest.raises(RuntimeError, match="reset"):
        e.observe(e.possible_agents[0])
    e.reset(seed=2)
    with pytest.raises(ValueError, match="must act"):
        e.step(None)
    with pytest.raises(ValueError, match="max_cycles"):
        _pz(2, max_cycles=0)


def test_parallel_env_ignores_an_illegal_action_and_truncates() -> None:
    import meloch.rl.parallel as P

    e = P.parallel_env(setup=varied_setup(4), max_cycles=3)
    obs, _ = e.reset(seed=4)
    decider = next(a for a in e.agents if obs[a]["action_mask"].any())
    illegal = int(np.flatnonzero(obs[decider]["action_mask"] == 0)[0])
    before = e.game
    obs2, rew, term, _, info = e.step(dict.fromkeys(e.agents, illegal))
    assert set(rew.values()) == {0.0}
    assert e.game is before and info[decider]["illegal_action"] and not any(term.values())
    assert np.array_equal(obs2[decider]["action_mask"], obs[decider]["action_mask"])
    legal = int(np.flatnonzero(obs2[decider]["action_mask"])[0])
    obs3, *_ = e.step({decider: legal})
    assert e.game is not before and e.agents
    *_, trunc, _ = e.step({a: int(np.flatnonzero(o["action_mask"])[0]) for a, o in obs3.items()
                             if o["action_mask"].any()})
    assert all(trunc.values()) and e.agents == []
    with pytest.raises(RuntimeError, match="over"):
        e.step({})


# ----------------------------------------------------------------------------- Gymnasium


def _check_gym(i: int) -> None:
    from gymnasium.utils.env_checker import check_env

    from meloch.rl.gym_env import MelochEnv

    # every registry agent (random, aggressive, heuristic, the ISMCTS levels) and Automa levels in turn
    names = [*agent_names(), "automa:1", "automa:3", "automa:5+threat"]
    opponent, setup = names[i % len(names)], varied_setup(i)
    if automa_option(opponent) is not None and setup.variant != "standard":
        setup = Setup()  # (the solo Automa plays the standard duel only)
    if automa_option(opponent) is None and wants_sampler(make_agent(opponent, 0)):
        # a search opponent searches every move (pure Python here: seconds a turn), so its game is cut
        # at a turn limit, in the slow suite too; whole games are the other opponents' (and whole games
        # against search agents are the ladder's and the runner's tests)
        setup = msgspec.structs.replace(setup, turn_limit=SEARCH_TURNS)
    e = MelochEnv(seat=i % 2, opponent=opponent, setup=setup)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(e, skip_render_check=True)
    obs, info = e.reset(seed=i)
    rng = np.random.default_rng(i)
    done, reward = False, 0.0
    while not done:
        assert np.array_equal(obs["action_mask"].astype(bool), e.action_masks())
        obs, reward, done, _, info = e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert reward in (-1.0, 0.0, 1.0) and "winner" in info


@pytest.mark.parametrize("i", FAST)
def test_gymnasium_check_env_and_a_game(i: int) -> None:
    _check_gym(i)


@pytest.mark.slow
@pytest.mark.parametrize("i", SLOW)
def test_gymnasium_slow(i: int) -> None:
    _check_gym(i)


def test_gymnasium_bad_arguments_and_illegal_action() -> None:
    from meloch.rl.gym_env import MelochEnv

    with pytest.raises(ValueError, match="unknown agent"):
        MelochEnv(opponent="nobody")
    with pytest.raises(ValueError, match="seat"):
        MelochEnv(seat=2)
    e = MelochEnv()
    obs, _ = e.reset(seed=1)
    _, r, term, _, info = e.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
    assert r == -1.0 and term and info["illegal_action"]
    with pytest.raises(RuntimeError, match="reset"):
        e.step(0)


# ----------------------------------------------------------------------------- OpenSpiel


def _spiel_game(**params):
    import pyspiel

    import meloch.rl.spiel  # noqa: F401  (registers the game)

    return pyspiel.load_game("python_meloch", params)


def _check_spiel(n: int, turn_limit: int) -> None:
    import pyspiel

    pyspiel.random_sim_test(_spiel_game(turn_limit=turn_limit), num_sims=n, serialize=True, verbose=False)


def test_openspiel_random_sim_with_serialization() -> None:
    """20 games (random seeds among the chance outcomes), full games."""
    _check_spiel(20, 300)


@pytest.mark.slow
def test_openspiel_random_sim_slow() -> None:
    _check_spiel(200, 300)


def test_openspiel_resample_and_ismcts() -> None:
    import pyspiel
    from open_spiel.python.algorithms import ismcts, mcts

    game = _spiel_game(turn_limit=30)
    s = game.new_initial_state()
    assert s.is_chance_node()
    s.apply_action(11)
    rng = np.random.RandomState(0)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), 1.4, 4, random_state=rng)
    for _ in range(4):
        p = s.current_player()
        r = s.resample_from_infostate(p, pyspiel.UniformProbabilitySampler(0.0, 1.0))
        assert r.information_state_string(p) == s.information_state_string(p)
        assert r.information_state_tensor(p) == s.information_state_tensor(p)
        a = bot.step(s)
        assert a in s.legal_actions()
        s.apply_action(a)
    with pytest.raises(ValueError, match="positive"):
        _spiel_game(seeds=0)


# ----------------------------------------------------------------------------- bench


def test_bench_rl_figures() -> None:
    from meloch.rl.bench import run

    r = run(games=1, seed=3)
    assert r.raw_steps > 100 and r.env_steps > 100 and r.raw_per_s > 0 and r.env_per_s > 0
    assert r.encoder.startswith(("C", "Python"))
