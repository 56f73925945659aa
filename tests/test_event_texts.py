"""The event texts every seat reads, over a corpus of seeded random games (all three variants, maps
and tracks from ``varied_setup``, and Automa games): good English ("an armory", never "a armory"),
no line repeated back to back within a step, no blank or dangling explanation, never the engine's
bare-notation fallback ("E chose: option 2."); and every verb offered has a describer that answers,
so the log and the menus always have words. The typed events that explain a quiet moment (a Boast
with nothing to boast, a unit entering the opponent's units without a combat) are checked to occur."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from functools import cache
from itertools import pairwise

from meloch.engine import apply, event_texts, events_for, legal_actions, new_game
from meloch.engine import describe as D
from meloch.engine.contract import BoastSkipped, NoCombat
from meloch.engine.game_content import bound
from meloch.engine.model import AutomaSetup, Setup, State
from meloch.engine.text import a_or_an, article
from meloch.scenario.games import varied_setup

GAMES = 36
AUTOMA = ((1, 1, False), (0, 3, False), (1, 5, True))
"""(seat, level, threat) of the Automa games in the corpus."""

_A_VOWEL = re.compile(r"\b[Aa] ((?!uni|use|usu|one\b|once\b|eu)[aeiouAEIOU][\w-]*)")
_AN_CONSONANT = re.compile(r"\b[Aa]n ((?!hour|honest|honou?r|heir)[b-df-hj-np-tv-zB-DF-HJ-NP-TV-Z][\w-]*)")
_FALLBACK = re.compile(r"\bchose: \w|: option \d+\.$|^\S+ chose: ")
_DANGLING = re.compile(r":\s*$|:\s*[.,;]|\(\s*\)")


def _setups() -> Iterator[tuple[Setup, int]]:
    for i in range(GAMES):
        yield varied_setup(i), 7_000 + i
    for seat, level, threat in AUTOMA:
        yield Setup(automa=AutomaSetup(seat=seat, level=level, threat=threat)), 7_100 + level


@cache
def corpus() -> tuple[list[tuple[str, int | None, list[str]]], list[object], set[str]]:
    """(where, seat, that seat's texts) per step and seat; every event's data; verbs lacking words."""
    steps: list[tuple[str, int | None, list[str]]] = []
    data: list[object] = []
    undescribed: set[str] = set()
    for setup, seed in _setups():
        rng = random.Random(seed)
        s = new_game(setup, seed)
        where = f"{setup.variant} seed {seed}"
        while s.winner < 0:
            undescribed |= _undescribed(s)
            acts = legal_actions(s)
            s = apply(s, acts[rng.randrange(len(acts))])
            for seat in (0, 1, None):
                steps.append((f"{where} step {s.step}", seat, event_texts(s.events, seat)))
            data.extend(e.data for e in events_for(s.events, None))
    return steps, data, undescribed


@bound
def _undescribed(state: State) -> set[str]:
    """Verbs offered at ``state`` whose describer is missing or gives no words (the generic fallback)."""
    f = state.frames[-1]
    out = set()
    for a in legal_actions(state):
        fn = D.DESCRIBERS.get(a.verb)
        if fn is None or fn(state, f, a) is None:
            out.add(f"{a.verb} ({a})")
    return out


def test_article_helper() -> None:
    assert [a_or_an(w) for w in ("armory", "oil", "item", "orange", "worker", "mill", "unit", "hour")] == [
        "an armory", "an oil", "an item", "an orange", "a worker", "a mill", "a unit", "an hour"]
    assert article("8") == "an" and article("3") == "a" and article("") == "a"


def test_no_a_before_a_vowel_sound() -> None:
    bad = [(w, t) for w, _, texts in corpus()[0] for t in texts if _A_VOWEL.search(t) or _AN_CONSONANT.search(t)]
    assert not bad, bad[:5]


def test_no_line_repeated_back_to_back_for_a_seat() -> None:
    bad = [(w, seat, a) for w, seat, texts in corpus()[0] for a, b in pairwise(texts) if a == b]
    assert not bad, bad[:5]


def test_no_blank_or_dangling_explanation() -> None:
    bad = [(w, t) for w, _, texts in corpus()[0] for t in texts if not t.strip() or _DANGLING.search(t)]
    assert not bad, bad[:5]


def test_no_bare_notation_fallback() -> None:
    bad = [(w, t) for w, _, texts in corpus()[0] for t in texts if _FALLBACK.search(t)]
    assert not bad, bad[:5]


def test_every_offered_verb_is_described() -> None:
    assert not corpus()[2]


def test_quiet_moments_are_typed_events() -> None:
    data = corpus()[1]
    reasons = {d.reason for d in data if isinstance(d, NoCombat)}
    assert {"only_workers", "vanquish_only"} <= reasons, reasons
    assert any(isinstance(d, BoastSkipped) for d in data)


def test_the_checks_catch_what_they_look_for() -> None:
    """The patterns flag the slips they are meant to flag (a check that cannot fail proves nothing)."""
    assert _A_VOWEL.search("S builds a armory on 3.") and _A_VOWEL.search("choose a item")
    assert _AN_CONSONANT.search("S gains an worker.") and not _A_VOWEL.search("S gains a unit.")
    assert _FALLBACK.search("E chose: option 2.") and not _FALLBACK.search("E: Choose option 2: solve.")
    assert _DANGLING.search("S places a worker on Cosmic Pearl: ") and not _DANGLING.search("E: Finish.")
