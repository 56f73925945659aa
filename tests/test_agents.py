"""The heuristic and search agents: no peeking, determinism, legal output on fuzzed positions
(mid-combat and Meloch-card decisions included), the evaluation, the registry names and the hint."""

from __future__ import annotations

import random
from collections.abc import Iterator
from functools import cache
from typing import Any

import msgspec
import pytest

from meloch.agents import HeuristicAgent, RandomAgent, Sampler, fitted, make_agent
from meloch.agents.evaluate import (
    ARMED_WEIGHTS,
    HAUL,
    MECHS_MAX,
    RACE,
    REACH,
    TUNED_WEIGHTS,
    WEIGHTS,
    WIN_SCORE,
    advantage,
    armed_advantage,
    boast_advantage,
    boast_reach,
    column_fractions,
    evaluate,
    explain,
    haul_advantage,
    haul_value,
    progress,
    race_advantage,
    race_score,
    score,
    standing_score,
    terms,
    tuned_advantage,
)
from meloch.agents.fitted import FEATURES, features, fitted_advantage, hand_set_score
from meloch.agents.flat import FlatAgent, FlatParams, _own, judge_of, line_value, nested_value, next_decision
from meloch.agents.heuristic import (
    TUCK_BEST,
    TUCK_DEFENDER,
    TUCK_NONE,
    TUCK_OWN,
    combat_step,
    combat_value,
    combat_values,
    tuck_rule,
)
from meloch.agents.hints import DEFAULT_HINT_AGENT
from meloch.agents.hints import hint as search_hint
from meloch.agents.ismcts import ISMCTSAgent, Params, hint
from meloch.engine import (
    Action,
    ExpView,
    ScytheView,
    Setup,
    Standing,
    State,
    apply,
    determinize,
    goals,
    legal_actions,
    meloch_facing,
    outcome,
    standing,
    state_hash,
    view,
)
from meloch.engine.board import board
from meloch.engine.cards import combat_type, parse_combat_token
from meloch.engine.scythe.bottom import bottom_blocker
from meloch.engine.scythe.seat import PRODUCE_OUTPUT
from meloch.sim.runner import Hooks, play_game
from tests.test_variants import VARIANTS

FAST = Params(iterations=12, playout=1)
"""A search small enough for tests, with every part (tree, opponent model, playout) exercised."""
FAST_TURN = Params(iterations=8, playout=0, opponent="greedy", finish_turn=True)
"""The same with leaves judged at the end of the seat's own turn and the greedy opponent model."""
FLAT_FAST = FlatParams(samples=3, top=3)
"""The flat search, small: shared samples, a pruned root."""
FLAT_REPLY = FlatParams(samples=3, top=0, reply=True, turns=2)
"""The same over every option, each line two own turns long and judged after the opponent's reply."""
FLAT_FITTED = FlatParams(samples=3, top=3, judge=1)
"""The small flat search with its lines judged by the fitted evaluation."""
FLAT_ARMED = FlatParams(samples=3, top=3, judge=3)
"""The same judged with the mech and stake terms on (``ARMED_WEIGHTS``)."""
FLAT_NESTED = FlatParams(samples=3, top=3, reply=True, width=2, width2=2)
"""The small flat search with the seat's next two decisions searched (the search levels search one)."""
FLAT_TUCK = FlatParams(samples=3, top=3, reply=True, tuck=TUCK_OWN)
"""The small flat search whose lines tuck the seat's best card and a defending opponent's (the Expeditions
seats of ``search:medium`` and ``search:hard``)."""
FLAT_TUCK_BEST = FlatParams(samples=3, top=3, reply=True, turns=2, tuck=TUCK_BEST)
"""The same with two own turns a line, tucking each seat's best card (``search:hard``'s Scythe seat)."""


STAKE_WEIGHTS = {**WEIGHTS, "stake": 1.0}
"""The heuristic's weights with the ``stake`` rule on (``heuristic:t1s1``)."""


class _Keep(Hooks):
    def __init__(self) -> None:
        self.states: list[State] = []

    def on_step(self, before: State, action: Action, after: State) -> None:
        self.states.append(before)


def _heuristic_states(seed: int, map_side: str, track_side: str) -> list[State]:
    """Every position, in order, of a heuristic mirror game (agents seeded ``seed`` and ``seed + 1``)."""
    keep = _Keep()
    play_game(Setup(map_side=map_side, track_side=track_side), seed, (HeuristicAgent(seed), HeuristicAgent(seed + 1)),
              keep)
    return keep.states


@cache
def _positions() -> tuple[State, ...]:
    """Decisions with a choice from random games on both maps and tracks: ordinary ones, and every
    mid-combat (dial, tuck) and Meloch-card decision met."""
    plain: list[State] = []
    special: list[State] = []
    for seed, (m, t) in enumerate((("jungle", "A"), ("desert", "B"), ("jungle", "B"), ("desert", "A")), 40):
        keep = _Keep()
        play_game(Setup(map_side=m, track_side=t), seed, (RandomAgent(seed), RandomAgent(seed + 1)), keep)
        for i, s in enumerate(keep.states):
            legal = legal_actions(s)
            if len(legal) < 2:
                continue
            if legal[0].verb in ("dial", "tuck", "meloch"):
                special.append(s)
            elif i % 23 == 0:
                plain.append(s)
    return tuple(plain[:10] + special[:10])


def test_positions_cover_combat_and_meloch_decisions() -> None:
    verbs = {legal_actions(s)[0].verb for s in _positions()}
    assert {"dial", "meloch"} <= verbs


Searcher = HeuristicAgent | ISMCTSAgent | FlatAgent


def _agents(seed: int) -> list[Searcher]:
    return [HeuristicAgent(seed), ISMCTSAgent(seed, "test", FAST), ISMCTSAgent(seed, "test-turn", FAST_TURN),
            FlatAgent(seed, "test", FLAT_FAST), FlatAgent(seed, "test-reply", FLAT_REPLY),
            FlatAgent(seed, "test-fitted", FLAT_FITTED), FlatAgent(seed, "test-armed", FLAT_ARMED),
            FlatAgent(seed, "test-nested", FLAT_NESTED), FlatAgent(seed, "test-tuck", FLAT_TUCK),
            FlatAgent(seed, "test-tuck-best", FLAT_TUCK_BEST),
            HeuristicAgent(seed, weights=STAKE_WEIGHTS, tuck_best=True, name="heuristic:t1s1")]


def _choose(agent: Searcher, state: State) -> Action:
    legal = legal_actions(state)
    seat = legal[0].seat
    return agent.choose_from(view(state, seat), legal, Sampler(state, seat))


def test_agents_never_peek_at_what_their_seat_cannot_see() -> None:
    """The same agent seed chooses the same action in positions whose hidden parts were re-sampled."""
    for i, s in enumerate(_positions()):
        seat = legal_actions(s)[0].seat
        other = determinize(s, seat, random.Random(1000 + i))
        assert legal_actions(other) == legal_actions(s)
        for a, b in zip(_agents(i), _agents(i), strict=True):
            assert _choose(a, s) == _choose(b, other), (a.name, legal_actions(s)[0].verb)


def test_hidden_parts_do_differ_in_the_resampled_positions() -> None:
    """Guards the test above: re-sampling changes the states it compares (else it proves nothing)."""
    from meloch.engine import state_hash

    diff = sum(state_hash(determinize(s, legal_actions(s)[0].seat, random.Random(7))) != state_hash(s)
               for s in _positions())
    assert diff == len(_positions())


def test_agents_are_deterministic_for_a_seed_and_answer_legally() -> None:
    for i, s in enumerate(_positions()[::3]):
        legal = legal_actions(s)
        for agent in _agents(i):
            first = _choose(agent, s)
            assert first in legal
        for a, b in zip(_agents(i), _agents(i), strict=True):
            assert _choose(a, s) == _choose(b, s)


def test_a_game_between_the_agents_is_legal_and_reproducible() -> None:
    setup = Setup(turn_limit=4)
    recs = [play_game(setup, 5, (HeuristicAgent(1), ISMCTSAgent(2, "test", FAST))) for _ in range(2)]
    assert recs[0].actions == recs[1].actions
    assert recs[0].turns >= 4 or recs[0].outcome is not None
    flat = [play_game(setup, 6, (FlatAgent(3, "test", FLAT_REPLY), HeuristicAgent(4))) for _ in range(2)]
    assert flat[0].actions == flat[1].actions
    assert flat[0].turns >= 4 or flat[0].outcome is not None


def test_evaluation_terms_and_values() -> None:
    s = _positions()[3]
    for seat in (0, 1):
        v = evaluate(s, seat)
        assert -1.0 < v < 1.0
        assert advantage(s, seat) == pytest.approx(-advantage(s, 1 - seat))
        t = terms(s, seat)
        assert t["star"] == WEIGHTS["star"] * view(s, seat).stars[seat]
    heavier = dict(WEIGHTS, star=WEIGHTS["star"] + 5)
    stars = view(s, 0).stars
    assert advantage(s, 0, heavier) - advantage(s, 0) == pytest.approx(5 * (stars[0] - stars[1]))


@pytest.mark.parametrize("weights", [WEIGHTS, ARMED_WEIGHTS, STAKE_WEIGHTS], ids=["plain", "armed", "stake"])
def test_the_score_is_the_sum_of_the_named_terms_to_the_last_bit(weights: dict[str, float]) -> None:
    """``standing_score`` (what every search node pays) adds what ``terms`` names, in the same order:
    the same float exactly, so no choice of any agent moves (``==``, not approx)."""
    checked = 0
    for seed, (m, t) in enumerate((("jungle", "A"), ("desert", "B"), ("jungle", "B"), ("desert", "A")), 60):
        keep = _Keep()
        agents = (HeuristicAgent(seed), RandomAgent(seed)) if seed % 2 else (RandomAgent(seed), HeuristicAgent(seed))
        play_game(Setup(map_side=m, track_side=t), seed, agents, keep)
        for s in keep.states[::5]:
            for seat in (0, 1):
                fast = standing_score(standing(s, seat), weights)
                assert fast == sum(terms(s, seat, None, weights).values())
                assert score(s, seat, weights) == fast
                checked += 1
    assert checked > 200


def test_open_columns_have_distinct_labels_on_each_edge() -> None:
    """``terms`` keys the columns by label, ``standing_score`` adds them one by one: the two agree only
    while no edge prints one label on two non-combat columns (two "Win a combat" columns are fine:
    combat is no goal term)."""
    from meloch.content import load

    for side, track in load().tracks.items():
        for role in ("scythe", "expeditions"):
            labels = [getattr(c, role).label for c in track.categories if not c.combat]
            assert len(labels) == len(set(labels)), (side, role, labels)


def test_fitted_features_are_the_hand_set_terms_unweighted() -> None:
    """``fitted.features`` re-states ``evaluate.terms`` without the weights: the hand-set score is the
    weighted sum of the features (so the fitted evaluation sees what the heuristic sees)."""
    checked = 0
    for s in _positions():
        for seat in (0, 1):
            f = features(standing(s, seat))
            assert set(f) == set(FEATURES)
            assert hand_set_score(f) == pytest.approx(score(s, seat)), (seat, f, terms(s, seat))
            checked += f["goal"] > 0
    assert checked  # some position had progress toward an open category


def test_fitted_advantage_is_the_fitted_logit_in_star_units(monkeypatch: pytest.MonkeyPatch) -> None:
    s = _positions()[3]
    assert fitted_advantage(s, 0) == pytest.approx(-fitted_advantage(s, 1))
    roles = {standing(s, seat).role: seat for seat in (0, 1)}
    monkeypatch.setattr(fitted, "BIAS", 0.0)
    monkeypatch.setattr(fitted, "COEF", {r: dict.fromkeys(FEATURES, 0.0) for r in ("scythe", "expeditions")})
    fitted.COEF["scythe"]["stars"] = 2.0
    fitted.COEF["expeditions"]["stars"] = -2.0
    stars = {r: standing(s, seat).stars for r, seat in roles.items()}
    # one star of difference is worth STAR_UNITS, as a star is in the hand-set score
    assert fitted_advantage(s, roles["scythe"]) == pytest.approx(
        fitted.STAR_UNITS * (stars["scythe"] - stars["expeditions"]))
    monkeypatch.setattr(fitted, "BIAS", 1.0)
    assert fitted_advantage(s, roles["scythe"]) == pytest.approx(
        fitted.STAR_UNITS * (stars["scythe"] - stars["expeditions"] + 0.5))


VARIANT_SETUPS = {name: VARIANTS[name] for name in ("standard", "scythe_vs_scythe", "expeditions_vs_expeditions")}


@pytest.mark.parametrize("variant", sorted(VARIANT_SETUPS))
def test_standing_agrees_with_the_view(variant: str) -> None:
    """The evaluation reads ``standing`` instead of the typed view (speed): every figure it carries
    is the one the view shows, from either seat's view, so the evaluation's values are unchanged."""
    keep = _Keep()
    play_game(VARIANT_SETUPS[variant], 11, (RandomAgent(3), RandomAgent(4)), keep)
    assert len(keep.states) > 100
    spotted = produced = 0
    boasts: set[int] = set()
    for s in keep.states[::7]:
        for seat in (0, 1):
            st = standing(s, seat, boasts=True)
            assert standing(s, seat).boast_steps == -1  # only when asked: the e5 judge alone reads it
            for viewer in (seat, 1 - seat):
                v = view(s, viewer)
                p = v.seats[seat]
                assert st.stars == v.stars[seat] and st.stars_to_win == v.setup.seats[seat].stars_to_win
                assert (st.power, st.combat_cards) == (p.power, p.combat_cards)
                if isinstance(p, ScytheView):
                    assert (st.role, st.stars_discarded, st.resources, st.hand, st.mechs) == (
                        "scythe", p.stars_discarded, p.resources, 0, len(p.mechs))
                    # Build's own rule says where a structure could go: the same answer
                    assert (st.build_spots > 0) == (bottom_blocker(s, seat, "build") == "")
                    terrain = board(s.setup.map_side).terrain
                    fed = {PRODUCE_OUTPUT.get(terrain(w)) for w in p.workers} - {None}
                    assert set(st.produces) <= fed and list(st.produces) == sorted(st.produces)
                    spotted += st.build_spots > 0
                    produced += bool(st.produces)
                else:
                    assert isinstance(p, ExpView)
                    assert (st.role, st.stars_discarded, st.resources, st.hand, st.mechs) == (
                        "expeditions", 0, (), p.hand, 0)
                    # the Boast sites a player sees: exposed Boast gathers, hidden ones once revealed
                    b = board(s.setup.map_side)
                    sites = [lid for lid in b.numbered
                             if any(e.op == "boast" for e in b.loc[lid].gather)
                             or (lid in v.revealed and any(e.op == "boast" for e in b.loc[lid].revealed))]
                    near = [b.mech_distance[p.loc][x] for x in sites if x in b.mech_distance[p.loc]]
                    assert st.boast_steps == (min(near) if near else -1)
                    boasts.add(st.boast_steps)
            assert list(st.goals) == goals(s, seat)
    if variant != "expeditions_vs_expeditions":
        assert spotted and produced  # the new figures were exercised
    if variant != "scythe_vs_scythe":
        assert len(boasts) >= 2  # the mech's distance to a Boast changed during the game


def test_evaluation_of_a_finished_game() -> None:
    rec_keep = _Keep()
    rec = play_game(Setup(), 3, (RandomAgent(1), RandomAgent(2)), rec_keep)
    assert rec.outcome is not None and rec.outcome.winner is not None
    last = rec_keep.states[-1]
    end = apply(last, rec.actions[-1])
    assert outcome(end) is not None
    w = rec.outcome.winner
    assert evaluate(end, w) > 0.99 and evaluate(end, 1 - w) < -0.99
    assert explain(last, end, w) == "wins the game"
    assert fitted_advantage(end, w) == WIN_SCORE and fitted_advantage(end, 1 - w) == -WIN_SCORE


def test_heuristic_never_discards_a_star_for_a_resource() -> None:
    """Leverage trades an unplaced star for one resource: the random agent's habit that loses it the
    game; the evaluation prices a star far above a resource."""
    checked = 0
    for s in _positions():
        legal = legal_actions(s)
        if any(a.verb == "leverage" and a.args[0] == "gain" for a in legal):
            choice = _choose(HeuristicAgent(0), s)
            assert not (choice.verb == "leverage" and choice.args[0] == "gain")
            checked += 1
    assert checked >= 1


def test_registry_names_and_levels() -> None:
    assert make_agent("heuristic", 1).name == "heuristic"
    for level in ("easy", "medium", "hard"):
        assert make_agent(f"ismcts:{level}", 1).name == f"ismcts:{level}"
    a = make_agent("ismcts:25", 1)
    assert isinstance(a, ISMCTSAgent) and a.params.iterations == 25
    for bad in ("ismcts:fast", "ismcts:0", "ismcts:"):
        with pytest.raises(ValueError, match="unknown agent"):
            make_agent(bad, 1)
    flat = make_agent("search:flat", 1)
    assert isinstance(flat, FlatAgent) and flat.name == "search:flat"
    nested = make_agent("search:s4t3r1w3v2", 1)
    assert isinstance(nested, FlatAgent)
    assert nested.params == FlatParams(samples=4, top=3, reply=True, width=3, width2=2)
    spec = make_agent("search:s4t3r1d6n2", 1)
    assert isinstance(spec, FlatAgent) and spec.params == FlatParams(samples=4, top=3, reply=True, depth=6, turns=2)
    # the levels are the settings docs/agents.md measured under these spec names
    for level, measured in (("medium", "s8t6r1/s16t8r1w3b3"), ("hard", "s8t6r1w3n2h0b1/s16t8r1w3h0b3")):
        named, spelled = make_agent(f"search:{level}", 1), make_agent(f"search:{measured}", 1)
        assert isinstance(named, FlatAgent) and isinstance(spelled, FlatAgent)
        assert named.by_role == spelled.by_role
    for judge in (1, 2, 3, 4, 5, 6):
        fitted = make_agent(f"search:s4t3e{judge}", 1)
        assert isinstance(fitted, FlatAgent) and fitted.params == FlatParams(samples=4, top=3, judge=judge)
    tuned = make_agent("search:s4t3r1w3k1", 1)
    assert isinstance(tuned, FlatAgent) and tuned.params == FlatParams(samples=4, top=3, reply=True, width=3, weights=1)
    assert judge_of(tuned.params) is tuned_advantage and judge_of(FlatParams(judge=3, weights=1)) is armed_advantage
    assert judge_of(FlatParams()) is advantage
    assert judge_of(FlatParams(judge=6)) is haul_advantage
    for bad in ("search:", "search:s0", "search:n0", "search:x4", "search:s4q", "search:s4/", "search:s4/s4/s4",
                "search:s4/x", "search:s4e7", "search:s4w", "search:s4k2", "search:s4k"):
        with pytest.raises(ValueError, match="unknown agent"):
            make_agent(bad, 1)
    split = make_agent("search:s2t3/s3t2r1", 1)
    assert isinstance(split, FlatAgent) and split.by_role == {
        "scythe": FlatParams(samples=2, top=3), "expeditions": FlatParams(samples=3, top=2, reply=True)}


def test_heuristic_settings_by_name() -> None:
    """``heuristic:t1s1m3``: the look-ahead expecting the best card tucked, the stake and mech terms."""
    h = make_agent("heuristic:t1s1m3", 1)
    assert isinstance(h, HeuristicAgent) and h.name == "heuristic:t1s1m3" and h.tuck_best
    assert h.weights == {**WEIGHTS, "stake": 1.0, "mech": 3.0}
    plain = make_agent("heuristic:t0", 1)
    assert isinstance(plain, HeuristicAgent) and not plain.tuck_best and plain.weights == WEIGHTS
    tuned = make_agent("heuristic:k1", 1)
    assert isinstance(tuned, HeuristicAgent) and tuned.weights == TUNED_WEIGHTS
    assert make_agent("heuristic:k1m3", 1).weights == {**TUNED_WEIGHTS, "mech": 3.0}  # type: ignore[attr-defined]
    for bad in ("heuristic:", "heuristic:x1", "heuristic:t", "heuristic:t1q", "heuristic:k2"):
        with pytest.raises(ValueError, match="unknown agent"):
            make_agent(bad, 1)


def test_combat_values_number_the_deck_as_the_engine_does() -> None:
    assert len(combat_values()) == 60
    assert [combat_value(f"c{i}") for i in range(60)] == [combat_type(i).value for i in range(60)]
    assert combat_value("c60") == 0 and combat_value("done") == 0


def test_look_ahead_tucks_the_best_card_when_told() -> None:
    """``combat_step``: no card tucked by default; by its ``tuck`` mode the highest-valued card held:
    for either seat (``TUCK_BEST``), the defender only (``TUCK_DEFENDER``), or the searching seat and
    its opponent when it defends (``TUCK_OWN``)."""
    found, roles = 0, set()
    for seed in range(60, 70):
        for st in _heuristic_states(seed, "desert", "B"):
            legal = legal_actions(st)
            cards = [a for a in legal if a.verb == "tuck" and a.args[0] != "done"]
            if not cards:
                continue
            best = max(combat_type(parse_combat_token(a.args[0])).value for a in cards)
            pick = tuck_rule(legal, tuck_best=True)
            assert pick in cards and combat_type(parse_combat_token(pick.args[0])).value == best
            done = Action(legal[0].who, "tuck", ("done",))
            assert tuck_rule(legal) == done
            assert state_hash(combat_step(st, legal, TUCK_BEST)) == state_hash(apply(st, pick))
            assert state_hash(combat_step(st, legal, TUCK_NONE)) == state_hash(apply(st, done))
            seat = legal[0].seat
            assert st.combat is not None
            defends = seat == st.combat.defender
            roles.add(defends)
            by_rule = {TUCK_DEFENDER: (defends, -1), TUCK_OWN: (True, seat)}
            for mode, (best, me) in by_rule.items():
                assert state_hash(combat_step(st, legal, mode, me)) == state_hash(apply(st, pick if best else done))
            other = combat_step(st, legal, TUCK_OWN, 1 - seat)
            assert state_hash(other) == state_hash(apply(st, pick if defends else done))
            found += 1
        if found >= 6 and roles == {True, False}:
            break
    assert found >= 6 and roles == {True, False}


def test_a_role_split_search_uses_each_role_s_settings() -> None:
    """``search:A/B`` judges a Scythe decision with A and an Expeditions decision with B: it chooses as
    a search with that role's settings alone, from the same seed (compared by choices, not by spying on
    a method, so the compiled build is tested the same way)."""
    name = "search:s2t3/s3t2r1"
    roles = {0: "scythe", 1: "expeditions"}  # the standard duel
    checked = {0: 0, 1: 0}
    apart = 0
    for s in _positions():
        legal = legal_actions(s)
        if legal[0].verb in ("dial", "tuck"):
            continue
        seat = legal[0].seat
        split = make_agent(name, 1)
        assert isinstance(split, FlatAgent)
        own, other = split.by_role[roles[seat]], split.by_role[roles[1 - seat]]
        v = view(s, seat)
        got = split.choose_from(v, legal, Sampler(s, seat))
        assert got == FlatAgent(1, params=own).choose_from(v, legal, Sampler(s, seat))
        apart += got != FlatAgent(1, params=other).choose_from(v, legal, Sampler(s, seat))
        checked[seat] += 1
    assert min(checked.values()) >= 2
    assert apart >= 1  # the two settings choose differently somewhere: the check can fail


def test_hint_ranks_options_with_shares_and_reasons() -> None:
    s = next(p for p in _positions() if len(legal_actions(p)) >= 3 and legal_actions(p)[0].verb != "dial")
    legal = legal_actions(s)
    seat = legal[0].seat
    hints = hint(Sampler(s, seat), legal, seed=1, level="easy")
    assert 1 <= len(hints) <= 3
    assert {h.action for h in hints} <= {str(a) for a in legal}
    assert all(h.reason for h in hints)
    shares = [h.share for h in hints]
    assert shares == sorted(shares, reverse=True) and 0 < sum(shares) <= 1.0 + 1e-9
    assert hint(Sampler(s, seat), legal[:1]) == [type(hints[0])(str(legal[0]), 1.0, "the only option")]


def test_search_hint_ranks_by_the_search_and_says_how_far_behind() -> None:
    """The default hint is the strongest search's: its options best first, each ``behind`` the best by
    the search's own means (``FlatAgent.values`` on the same samples), with a reason."""
    s = next(p for p in _positions() if len(legal_actions(p)) >= 4 and legal_actions(p)[0].verb != "dial")
    legal = legal_actions(s)
    seat = legal[0].seat
    hints = search_hint(Sampler(s, seat), legal, seed=1)
    assert len(hints) == 3 and all(h.reason and h.share is None for h in hints)
    searcher = make_agent(DEFAULT_HINT_AGENT, 1)
    assert isinstance(searcher, FlatAgent)
    with Sampler(s, seat).bound():
        role = view(s, seat).setup.seats[seat].role
        values = searcher.values(legal, Sampler(s, seat), searcher.by_role[role])
    by_action = {str(legal[i]): v for i, v in values.items()}
    best = max(values.values())
    assert [h.action for h in hints] == sorted(by_action, key=lambda a: (-by_action[a], a))[:3]
    assert [h.behind for h in hints] == [pytest.approx(best - by_action[h.action]) for h in hints]
    assert hints[0].behind == 0 and hints[1].behind is not None and hints[1].behind >= 0
    other = determinize(s, seat, random.Random(5))  # it reads only the seat's information
    assert search_hint(Sampler(other, seat), legal, seed=1) == hints
    only = search_hint(Sampler(s, seat), legal[:1])
    assert [(h.action, h.behind) for h in only] == [(str(legal[0]), 0.0)]
    ismcts = search_hint(Sampler(s, seat), legal, seed=1, agent="ismcts:easy")
    assert all(h.share is not None and h.behind is None for h in ismcts)
    with pytest.raises(ValueError, match="search agent"):
        search_hint(Sampler(s, seat), legal, agent="heuristic")


@cache
def _random_steps() -> tuple[tuple[State, Action, State], ...]:
    """Every step with a choice of two random games (before, action, after)."""
    out: list[tuple[State, Action, State]] = []
    for seed in (5, 6):
        keep = _Keep()
        rec = play_game(Setup(track_side="AB"[seed % 2]), seed, (RandomAgent(seed), RandomAgent(seed + 9)), keep)
        for before, text in zip(keep.states, rec.actions, strict=True):
            legal = legal_actions(before)
            if len(legal) > 1:
                a = next(x for x in legal if str(x) == text)
                out.append((before, a, apply(before, a)))
    return tuple(out)


def test_hint_reasons_speak_of_goals_stars_and_means() -> None:
    """The reason names a Triumph column by its label with the seat's have/need, a placed star with
    its column, and never a bare number of evaluation points."""
    seen: set[str] = set()
    for before, a, after in _random_steps():
        seat = a.seat
        reason = explain(before, after, seat)
        assert "(+" not in reason and "improves" not in reason, reason
        table = {label: (have, need) for _, _, label, have, need, _ in goals(after, seat)}
        if reason.startswith("gets you closer to "):
            label = reason.split('"')[1]
            have, need = table[label]
            assert f'"{label}": {have}/{need}' in reason
            seen.add("goal")
        if view(after, seat).stars[seat] > view(before, seat).stars[seat] and outcome(after) is None:
            closed = [lab for _, _, lab, _, _, o in goals(after, seat) if not o
                      and any(lab == lb and ob for _, _, lb, _, _, ob in goals(before, seat))]
            assert reason.startswith(f'places a star on "{closed[0]}" ({view(after, seat).stars[seat]} of 4)'), reason
            seen.add("star")
    assert {"goal", "star"} <= seen


def test_hint_reason_for_gathering_the_means_of_an_open_column() -> None:
    """A Scythe step that adds wood while "Build 4 structures" counts says so."""
    for before, a, after in _random_steps():
        if a.seat != 0:
            continue
        wood = [sum(n for _, r, n in view(s, 0).seats[0].resources if r == "wood") for s in (before, after)]
        reason = explain(before, after, 0)
        if wood[1] > wood[0] and reason.startswith("gathers wood"):
            assert f"({wood[1]} wood on the board)" in reason and '"Build 4 structures"' in reason
            return
    pytest.fail("no wood-gathering step led the reason in these games")


@pytest.mark.parametrize(("metric", "kind"), [
    ("structures", "wood"), ("mechs", "metal"), ("recruits", "food"), ("upgrades", "oil"),
])
def test_means_and_source_count_toward_each_bottom_row_column(metric: str, kind: str) -> None:
    """A Scythe seat's resources of the kind a column's bottom action spends, and a worker on a
    territory producing them, count toward that column: "upgrades" (oil, a tundra) as the others,
    so a track that reads a column as upgrades (balance round 5) is not one the heuristic ignores."""
    goal = ((2, metric, "the column", 1, 3, True),)

    def fraction(resources: tuple[tuple[str, str, int], ...], produces: tuple[str, ...]) -> float:
        st = Standing(role="scythe", stars=0, stars_to_win=4, goals=goal, power=0, combat_cards=0,
                      stars_discarded=0, resources=resources, hand=0, build_spots=1, produces=produces)
        (f, label), = progress(st).fractions
        assert label == "the column"
        return f

    bare = fraction((), ())
    assert bare == pytest.approx(1 / 3)
    held = fraction((("3", kind, 3),), ())
    assert held == pytest.approx((1 + WEIGHTS["means"]) / 3)
    assert fraction((), (kind,)) == pytest.approx((1 + WEIGHTS["source"]) / 3)
    other = "wood" if kind != "wood" else "metal"
    assert fraction((("3", other, 3),), (other,)) == bare  # another column's means count nothing here


def _saxony_state(faction: str, claimed: bool) -> State:
    """A fresh track-A game (one combat column, 6) with the combat column claimed by the Expeditions
    seat or open."""
    from meloch.engine import SeatSetup, new_game
    from meloch.scenario.patch import apply_patch
    setup = Setup(track_side="A", seats=(SeatSetup(role="scythe", faction=faction), SeatSetup(role="expeditions")))
    s = new_game(setup, 5)
    return apply_patch(s, {"track.6": [1]}) if claimed else s


@pytest.mark.parametrize(("faction", "claimed", "stake"), [
    ("crimea", False, True), ("crimea", True, False), ("saxony", False, True), ("saxony", True, True)])
def test_combat_stake(faction: str, claimed: bool, stake: bool) -> None:
    """A combat is at stake while a combat column is open, and past it only for Saxony, which stacks
    its combat stars on claimed columns (rulebook, Saxony); both seats see the same answer."""
    s = _saxony_state(faction, claimed)
    assert [standing(s, seat).combat_stake for seat in (0, 1)] == [stake, stake]
    combat_open = any(g[1] == "combat" and g[5] for g in goals(s, 1))
    assert combat_open == (not claimed)
    # the stake rule counts the Expeditions seat's combat strength only under ARMED_WEIGHTS
    assert ("combat strength" in terms(s, 1, None, ARMED_WEIGHTS)) == stake
    assert ("combat strength" in terms(s, 1)) == combat_open


def test_mech_term() -> None:
    """``mech`` (ARMED_WEIGHTS only): each deployed mech, and toward the next one the metal held and
    a mountain worker, as a goal's means and source; the heuristic's WEIGHTS leave it out."""
    def st(mechs: int, metal: int, produces: tuple[str, ...] = ()) -> Standing:
        return Standing(role="scythe", stars=0, stars_to_win=4, goals=(), power=0, combat_cards=0,
                        stars_discarded=0, resources=(("3", "metal", metal),) if metal else (), hand=0,
                        produces=produces, mechs=mechs)
    from meloch.agents.evaluate import mech_value
    w = ARMED_WEIGHTS
    assert mech_value(st(2, 0), w) == pytest.approx(2 * w["mech"])
    assert mech_value(st(2, 3), w) == pytest.approx(w["mech"] * (2 + w["means"]))
    assert mech_value(st(1, 6, ("metal",)), w) == pytest.approx(w["mech"] * (1 + w["means"] + w["source"]))
    assert mech_value(st(MECHS_MAX, 9, ("metal",)), w) == pytest.approx(MECHS_MAX * w["mech"])
    assert WEIGHTS["mech"] == 0 and WEIGHTS["stake"] == 0


def test_armed_judge_counts_a_deployed_mech() -> None:
    """The search's judge ``e3`` sees a deployed mech where the heuristic's ``advantage`` does not."""
    from meloch.scenario.patch import apply_patch
    s = _saxony_state("crimea", False)
    home = s.seats[0].workers[0]  # type: ignore[union-attr]
    deployed = apply_patch(s, {"seats.0.mechs": [home], "seats.0.mech_slots": [0]})
    assert standing(deployed, 0).mechs == 1
    assert advantage(deployed, 0) == pytest.approx(advantage(s, 0))
    assert armed_advantage(deployed, 0) - armed_advantage(s, 0) == pytest.approx(ARMED_WEIGHTS["mech"])
    assert armed_advantage(s, 1) - armed_advantage(deployed, 1) == pytest.approx(ARMED_WEIGHTS["mech"])


def test_race_judge_discounts_a_column_the_opponent_is_taking() -> None:
    """The judge ``e4`` (``race_advantage``): with no opponent progress a seat's score is the heuristic's;
    a met column the opponent has met too counts ``RACE`` less; an unmet one counts
    less by at most its own share; and the judge is antisymmetric."""
    met_checked = goal_checked = 0
    for s in _positions():
        for seat in (0, 1):
            st = standing(s, seat)
            if st.role == "expeditions":  # its first open non-combat category met, not yet Boasted
                first = next(i for i, g in enumerate(st.goals) if g[5] and g[1] != "combat")
                goals = list(st.goals)
                goals[first] = (*goals[first][:3], goals[first][4], *goals[first][4:])
                st = msgspec.structs.replace(st, goals=tuple(goals))
            mine = column_fractions(st)
            base = race_score(st, mine, {})
            assert base == pytest.approx(standing_score(st))
            for col, f in mine.items():
                contested = race_score(st, mine, {col: 1.0})
                if f >= 1.0:
                    assert base - contested == pytest.approx(RACE * WEIGHTS["met"])
                    met_checked += 1
                elif f > 0:
                    own = WEIGHTS["goal"] * (f + f * f) / 2
                    assert 0 <= base - contested <= RACE * own + 1e-9
                    goal_checked += 1
        assert race_advantage(s, 0) == pytest.approx(-race_advantage(s, 1))
    assert goal_checked and met_checked


def test_boast_judge_counts_the_mech_s_way_to_a_boast() -> None:
    """The judge ``e5``: an Expeditions seat with a met open category gains ``REACH`` on a Boast site,
    a quarter less a step away, nothing from 4 steps, nothing with no category met, and a Scythe seat
    never; the judge is the heuristic's ``advantage`` plus the two seats' reach, antisymmetric."""
    exp = next(standing(s, seat) for s in _positions() for seat in (0, 1)
               if standing(s, seat).role == "expeditions" and not any(
                   g[5] and g[1] != "combat" and g[3] >= g[4] for g in standing(s, seat).goals))
    first = next(i for i, g in enumerate(exp.goals) if g[5] and g[1] != "combat")
    goals = list(exp.goals)
    goals[first] = (*goals[first][:3], goals[first][4], *goals[first][4:])
    met = msgspec.structs.replace(exp, goals=tuple(goals))
    for steps, share in ((0, 1.0), (1, 0.75), (3, 0.25), (4, 0.0), (6, 0.0), (-1, 0.0)):
        assert boast_reach(msgspec.structs.replace(met, boast_steps=steps)) == pytest.approx(REACH * share)
    assert boast_reach(msgspec.structs.replace(exp, boast_steps=0)) == 0.0
    for s in _positions():
        for seat in (0, 1):
            reach = boast_reach(standing(s, seat)) - boast_reach(standing(s, 1 - seat))
            assert boast_advantage(s, seat) == pytest.approx(advantage(s, seat) + reach)
            if standing(s, seat).role == "scythe":
                assert boast_reach(standing(s, seat)) == 0.0


def _with_meloch_row(row: list[tuple[str, bool]], popularity: int) -> State:
    """A fresh track-A game (Scythe: Crimea) with the Meloch row ``row`` (the rest in the deck) and the
    Scythe seat's popularity set."""
    from meloch.scenario.patch import apply_patch
    s = _saxony_state("crimea", False)
    cards = [*s.meloch_deck, *(c for c, _ in s.meloch_row)]
    placed = {c for c, _ in row}
    return apply_patch(s, {"meloch_row": [[c, r] for c, r in row], "meloch_deck": [c for c in cards if c not in placed],
                           "seats.0.popularity": popularity})


def test_meloch_facing_reads_the_visible_halves_for_each_role() -> None:
    """``meloch_facing``: the newest card shows both halves, an older one its left half only; upright,
    a card's ``toward_scythe`` benefits face seat 0; rotated, its halves and sides swap; popularity
    and guile are read for the seat's role."""
    from meloch.engine.meloch_cards import meloch_card
    bargain, promise = meloch_card("meloch9"), meloch_card("meloch10")

    def as_role(effects: list[Any], role: str) -> list[tuple[str, int]]:
        swap = {"scythe": {"guile": "popularity"}, "expeditions": {"popularity": "guile"}}[role]
        return [(swap.get(e.op, e.op), e.n) for e in effects]

    upright = _with_meloch_row([("meloch9", False)], 3)
    assert list(meloch_facing(upright, 0)) == as_role([*bargain.left.toward_scythe, *bargain.right.toward_scythe],
                                                      "scythe")
    assert list(meloch_facing(upright, 1)) == as_role(
        [*bargain.left.toward_expeditions, *bargain.right.toward_expeditions], "expeditions")
    rotated = _with_meloch_row([("meloch9", True)], 3)
    assert list(meloch_facing(rotated, 0)) == as_role(
        [*bargain.right.toward_expeditions, *bargain.left.toward_expeditions], "scythe")
    two = _with_meloch_row([("meloch9", False), ("meloch10", False)], 3)
    assert list(meloch_facing(two, 0)) == as_role(
        [*bargain.left.toward_scythe, *promise.left.toward_scythe, *promise.right.toward_scythe], "scythe")
    assert meloch_facing(_with_meloch_row([], 3), 0) == ()


def test_haul_judge_counts_the_meloch_haul_a_star_hands_over() -> None:
    """The judge ``e6``: ``haul_value`` is what the benefits facing a seat add to its score (nothing with
    an empty row); popularity that completes the Scythe seat's "Popularity 10" is a star at once,
    worth far more than the same popularity far from it; ``haul_advantage`` is ``advantage`` less
    ``HAUL`` times the haul the seat's next star hands over plus as much of the opponent's, none for
    a seat whose next star is its 4th (or its 4th Meloch-free one), and antisymmetric."""
    from meloch.scenario.patch import apply_patch
    empty = _with_meloch_row([], 8)
    assert haul_value(empty, 0) == haul_value(empty, 1) == 0.0
    assert haul_advantage(empty, 0) == pytest.approx(advantage(empty, 0))
    near, far = _with_meloch_row([("meloch9", False)], 8), _with_meloch_row([("meloch9", False)], 2)
    assert haul_value(near, 0) > WEIGHTS["star"] > haul_value(far, 0) > 0
    for s in (near, far, *_positions()):
        for seat in (0, 1):
            want = advantage(s, seat) - HAUL * (haul_value(s, 1 - seat) - haul_value(s, seat))
            if outcome(s) is None and max(standing(s, i).stars for i in (0, 1)) < 3:
                assert haul_advantage(s, seat) == pytest.approx(want)
        assert haul_advantage(s, 0) == pytest.approx(-haul_advantage(s, 1))
    # the Expeditions seat at 3 stars: its next star wins, it hands the Scythe seat nothing
    three = apply_patch(near, {"track.0": [1], "track.1": [1], "track.2": [1]})
    assert standing(three, 1).stars == 3
    assert haul_advantage(three, 1) == pytest.approx(advantage(three, 1) + HAUL * haul_value(three, 1))


def _second(after: State, b: Action, seat: int, depth: int) -> float:
    """The best line over the seat's decision after ``b`` (``b``'s own line if the seat does not decide next)."""
    deeper, more = next_decision(apply(after, b))
    if not _own(more, seat):
        return line_value(apply(after, b), seat, depth - 1, True)
    return max(line_value(apply(deeper, c), seat, depth - 2, True) for c in more)


def _searched_choices(first: int) -> Iterator[tuple[State, int, Action]]:
    """(state, deciding seat, option) for the first ``first`` options of every non-combat position: what
    the search tests below walk."""
    for s in _positions():
        legal = legal_actions(s)
        if legal[0].verb in ("dial", "tuck"):
            continue
        for a in legal[:first]:
            yield s, legal[0].seat, a


def test_nested_search_takes_the_best_of_the_seat_s_next_decisions() -> None:
    """``FlatParams.width``/``width2``: on one sample and every option kept, an option is worth the best
    line over the seat's next decision (and the one after), where the plain search follows one greedy line."""
    checked = 0
    for s, seat, a in _searched_choices(4):
        after, nxt = next_decision(apply(s, a))
        if not _own(nxt, seat):
            assert nested_value([s], a, seat, FlatParams(samples=1, width=99), judge=advantage) is None
            continue
        depth = 8
        one = FlatParams(samples=1, width=99, reply=True)
        want = max(line_value(apply(after, b), seat, depth - 1, True) for b in nxt)
        assert nested_value([s], a, seat, one, judge=advantage) == want

        two = FlatParams(samples=1, width=99, width2=99, reply=True)
        assert nested_value([s], a, seat, two, judge=advantage) == max(_second(after, b, seat, depth) for b in nxt)
        checked += 1
    assert checked >= 3


def test_line_weights_play_both_seats_lines_and_judge_the_end() -> None:
    """``FlatParams.weights``: a line's greedy steps, the seat's and the opponent's reply, go by the
    given weights (here ones that differ from ``WEIGHTS`` in every term), not by ``WEIGHTS``."""
    from meloch.agents.heuristic import greedy_line
    odd = {k: (v * 2.5 if v else 1.0) for k, v in WEIGHTS.items()} | {"spotless": 0.9}

    def judge(st: State, seat: int) -> float:
        return advantage(st, seat, odd)

    depth = 6
    differs = 0
    for s, seat, a in _searched_choices(3):
        start = apply(s, a)
        own = greedy_line(start, seat, depth, odd)
        assert line_value(start, seat, depth, False, 1, judge, 0, odd) == judge(own, seat)
        at_reply, reply = next_decision(own)
        if reply and reply[0].seat != seat:
            at_reply = greedy_line(at_reply, reply[0].seat, depth, odd)
        odd_value = line_value(start, seat, depth, True, 1, judge, 0, odd)
        assert odd_value == judge(at_reply, seat)
        differs += odd_value != line_value(start, seat, depth, True, 1, judge)
    assert differs >= 1
    from meloch.agents.flat import LINE_ADVANTAGES, LINE_WEIGHTS
    assert len(LINE_ADVANTAGES) == len(LINE_WEIGHTS)
    for s, seat, a in _searched_choices(1):
        for judge_k, weights_k in zip(LINE_ADVANTAGES, LINE_WEIGHTS, strict=True):
            assert judge_k(apply(s, a), seat) == advantage(apply(s, a), seat, weights_k)


def test_reply_searched_wide_takes_the_worst_of_the_opponent_s_first_decisions() -> None:
    """``FlatParams.reply_width``: a line is worth, to the seat, the least over the opponent's reply
    options (all of them with a width of 99) of the opponent's greedy rest of the turn; one wide, it
    is the greedy reply itself (the same first step: the best one-step ``advantage``)."""
    from meloch.agents.heuristic import greedy_line
    depth = 6
    checked = 0
    for s, seat, a in _searched_choices(3):
        start = apply(s, a)
        at_reply, reply = next_decision(greedy_line(start, seat, depth))
        greedy = line_value(start, seat, depth, True)
        assert line_value(start, seat, depth, True, reply_width=1) == greedy
        if not _own(reply, 1 - seat):
            assert line_value(start, seat, depth, True, reply_width=99) == greedy
            continue
        worst = min(advantage(greedy_line(apply(at_reply, b), 1 - seat, depth - 1), seat) for b in reply)
        assert line_value(start, seat, depth, True, reply_width=99) == worst
        assert worst <= greedy
        checked += 1
    assert checked >= 3
    assert make_agent("search:s8t6r1w3q3/s16t8r1w3q3", 1).by_role["expeditions"].reply_width == 3  # type: ignore[attr-defined]


def test_race_turns_lengthen_the_lines_only_in_a_race() -> None:
    """``FlatParams.race_turns`` (``z2``): when either seat is one star or less from winning (by the
    view), the search chooses as one with two own turns a line; otherwise as the plain search, from the
    same seed (compared by choices)."""
    from meloch.agents.flat import in_race
    agent = make_agent("search:s2t3z2", 1)
    assert isinstance(agent, FlatAgent) and agent.params.race_turns == 2
    checked = apart = 0
    for s in _positions():
        legal = legal_actions(s)
        if legal[0].verb in ("dial", "tuck"):
            continue
        seat = legal[0].seat
        calm = msgspec.structs.replace(view(s, seat), stars=(0, 0))
        assert not in_race(calm)
        need = calm.setup.seats[1 - seat].stars_to_win
        race = msgspec.structs.replace(calm, stars=(need - 1, 0) if seat == 1 else (0, need - 1))
        assert in_race(race)
        plain, longer = FlatParams(samples=2, top=3), FlatParams(samples=2, top=3, turns=2)
        assert make_agent("search:s2t3z2", 1).choose_from(calm, legal, Sampler(s, seat)) == \
            FlatAgent(1, params=plain).choose_from(calm, legal, Sampler(s, seat))
        got = make_agent("search:s2t3z2", 1).choose_from(race, legal, Sampler(s, seat))
        assert got == FlatAgent(1, params=longer).choose_from(race, legal, Sampler(s, seat))
        apart += got != FlatAgent(1, params=plain).choose_from(race, legal, Sampler(s, seat))
        checked += 1
    assert checked >= 4
    assert apart >= 1  # two own turns choose differently somewhere: the check can fail


def test_temperature_zero_takes_the_best_mean() -> None:
    """``h0`` (``FlatParams.temperature`` 0): the search takes the option with the best mean advantage,
    the first of equal ones, every time (the same seed's ``values``); ``h25`` reads as 0.25 score units."""
    from meloch.agents.heuristic import ruled_choice
    agent = make_agent("search:s2t3h0", 1)
    assert isinstance(agent, FlatAgent) and agent.params.temperature == 0.0
    assert make_agent("search:s2t3h25", 1).params.temperature == 0.25  # type: ignore[attr-defined]
    assert make_agent("search:s2t3", 1).params.temperature == FlatParams().temperature  # type: ignore[attr-defined]
    checked = 0
    for s in _positions():
        legal = legal_actions(s)
        seat = legal[0].seat
        v = view(s, seat)
        if len(legal) < 2 or ruled_choice(v, legal) is not None:
            continue
        twin = FlatAgent(7, params=agent.params)
        with Sampler(s, seat).bound():
            vals = twin.values(legal, Sampler(s, seat))
        keys = sorted(vals)
        best = max(vals[i] for i in keys)
        assert FlatAgent(7, params=agent.params).choose_from(v, legal, Sampler(s, seat)) == \
            legal[next(i for i in keys if vals[i] == best)]
        checked += 1
        if checked >= 6:
            break
    assert checked >= 6


def test_lines_tuck_by_their_mode() -> None:
    """``b1``-``b3`` (``FlatParams.tuck``) set what the lines tuck; ``b4`` names no mode. On the choice
    to start a combat (an Expeditions Vanquish, a Scythe fight) the lines that expect the defender's
    best card value the options otherwise than lines that tuck none, somewhere (the check can fail)."""
    assert [make_agent(f"search:s2t3b{k}", 1).params.tuck for k in range(4)] == \
        [TUCK_NONE, TUCK_BEST, TUCK_DEFENDER, TUCK_OWN]  # type: ignore[attr-defined]
    with pytest.raises(ValueError):
        make_agent("search:s2t3b4", 1)
    plain, own = FlatParams(samples=2, top=3, reply=True), FlatParams(samples=2, top=3, reply=True, tuck=TUCK_OWN)
    checked = apart = 0
    for seed in range(80, 100):
        for s in _heuristic_states(seed, "jungle", "A"):
            legal = legal_actions(s)
            if len(legal) < 2 or legal[0].verb not in ("vanquish", "fight"):
                continue
            seat = legal[0].seat
            with Sampler(s, seat).bound():
                a = FlatAgent(3, params=plain).values(legal, Sampler(s, seat))
                b = FlatAgent(3, params=own).values(legal, Sampler(s, seat))
            checked += 1
            apart += a != b
        if checked >= 12 and apart:
            break
    assert checked >= 12 and apart >= 1
