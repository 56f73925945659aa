"""The solo Automa (issue 12, docs/automa.md): levels, benefits, setup, runner names, save/replay.

Card-by-card behaviour is pinned by ``tests/scenarios/automa/``; hidden information by
``tests/test_hidden_info.py``."""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest
from typer.testing import CliRunner

from meloch.agents import automa_option, make_agent, with_engine_seats
from meloch.cli.main import app
from meloch.content import get, load
from meloch.content.schema import Effect
from meloch.engine import (
    AutomaSetup,
    Setup,
    SetupError,
    apply,
    events_for,
    from_json,
    legal_actions,
    new_game,
    outcome,
    state_hash,
    to_json,
    view,
)
from meloch.engine import frames as K
from meloch.engine.automa.turn import visible_total
from meloch.engine.effects import queue
from meloch.engine.game_content import using
from meloch.engine.tx import Tx
from meloch.sim.runner import play_game
from meloch.sim.selfplay import run_selfplay
from meloch.sim.stats import wilson


def solo(seat: int = 0, level: int = 3, threat: bool = False, seed: int = 1) -> Setup:
    return Setup(automa=AutomaSetup(seat=seat, level=level, threat=threat))


def test_deck_size_falls_with_the_level() -> None:
    """Phase cards are always in; the level decides how many support cards join them."""
    content = get("").automa
    assert content is not None
    phases = sum(1 for x in content.action_cards if x.kind == "phase")
    for seat, role in ((0, "scythe"), (1, "expeditions")):
        sizes = []
        for level in range(1, 6):
            v = view(new_game(solo(seat, level), 3), 1 - seat).automa
            assert v is not None and v.level == level
            size = v.action_deck + len(v.action_discard)
            assert size == phases + content.level_for(level, role).support_cards
            assert v.progress >= 0
            sizes.append(size)
        assert sizes == sorted(sizes, reverse=True) and len(set(sizes)) == 5


def test_starting_power_follows_the_level_table() -> None:
    content = get("").automa
    assert content is not None
    for level in (1, 5):
        s = new_game(solo(0, level), 2)  # E moves first: the Scythian Automa has not played yet
        assert s.seats[0].power == content.level_for(level, "scythe").power


def test_one_power_per_benefit() -> None:
    s = new_game(solo(1, 2), 4)
    with using(get("")):
        tx = Tx(s, get(""))
        before = tx.s.seats[1].power
        queue(tx, 1, [Effect(op="coins", n=3), Effect(op="guile", n=1)], "a Meloch card")
        assert tx.s.seats[1].power == before + 2  # two benefits, whatever their size
        assert tx.s.seats[1].coins == s.seats[1].coins
        assert not any(f.kind == K.FX for f in tx.s.frames)
        queue(tx, 0, [Effect(op="coins", n=3)], "a Meloch card")  # the human gains as usual
        assert tx.s.frames[-1].kind == K.FX


def test_threat_compares_with_what_it_can_see() -> None:
    """The Automa's estimate of the human uses power and the number of cards, never their faces."""
    s = new_game(solo(0, 3, threat=True), 6)
    t1 = visible_total(s, 1, "1")
    other = msgspec.structs.replace(s.seats[1], combat_cards=tuple(reversed(range(len(s.seats[1].combat_cards)))))
    s2 = msgspec.structs.replace(s, seats=(s.seats[0], other))
    assert visible_total(s2, 1, "1") == t1


@pytest.mark.parametrize(("kw", "msg"), [({"level": 6}, "level must be 1 to 5"), ({"seat": 2}, "automa seat")])
def test_bad_automa_setups_are_refused(kw: dict[str, int], msg: str) -> None:
    args = {"seat": 0, "level": 3} | kw
    with pytest.raises(SetupError, match=msg):
        new_game(Setup(automa=AutomaSetup(**args)), 1)


def test_agent_names_map_to_the_setup_option() -> None:
    assert automa_option("automa:3") == (3, False)
    assert automa_option("automa:5+threat") == (5, True)
    assert automa_option("random") is None
    for bad in ("automa:0", "automa:6", "automa", "automa:3+x"):
        with pytest.raises(ValueError, match="automa:N"):
            automa_option(bad)
    setup = with_engine_seats(Setup(), ("random", "automa:4+threat"))
    assert setup.automa == AutomaSetup(seat=1, level=4, threat=True)
    with pytest.raises(ValueError, match="only one seat"):
        with_engine_seats(Setup(), ("automa:1", "automa:2"))
    seat = make_agent("automa:2", 0)
    with pytest.raises(RuntimeError, match="played by the engine"):
        seat.choose(None, [])


def test_runner_plays_an_automa_game_that_replays() -> None:
    """The runner turns the name into the setup option; the game saves, loads and replays to the
    same hash, and the human is the only seat ever asked."""
    rec = play_game(Setup(), 8, [make_agent("random", 1), make_agent("automa:3+threat", 2)])
    assert rec.setup.automa == AutomaSetup(seat=1, level=3, threat=True)
    assert rec.outcome is not None
    s = new_game(rec.setup, rec.seed)
    texts: list[str] = []
    for a in rec.actions:
        assert legal_actions(s)[0].seat == 0
        s = apply(s, a)
        s = from_json(to_json(s))
        texts.extend(e.text for e in events_for(s.events, 0))
    assert state_hash(s) == rec.final_hash and outcome(s) == rec.outcome
    assert any("The Automa draws a support card" in t for t in texts)
    assert any("the leftmost possible action" in t for t in texts)


def test_selfplay_and_wilson() -> None:
    summary = run_selfplay(Setup(), range(1, 4), agents=("automa:5", "random"))
    assert len(summary.records) == 3 and not summary.errors
    assert all(r.setup.automa is not None for r in summary.records)
    lo, hi = wilson(30, 100)
    assert 0.21 < lo < 0.22 and 0.39 < hi < 0.40


def test_cli_refuses_bad_automa_names() -> None:
    r = CliRunner().invoke(app, ["play", "--vs", "automa:9"])
    assert r.exit_code != 0 and "automa:N" in r.output
    r = CliRunner().invoke(app, ["play", "--threat"])
    assert r.exit_code != 0 and "--vs automa:N" in r.output
    r = CliRunner().invoke(app, ["selfplay", "--games", "2", "--agents", "aggressive,automa:2"])
    assert r.exit_code == 0, r.output
    assert "aggressive vs automa:2" in r.output


def test_the_automas_turn_cannot_be_taken_back() -> None:
    """The human's action that hands the turn to the Automa (which then draws its cards) is not undoable."""
    from meloch.engine import undo_refusal

    s = new_game(solo(0, 3), 5)
    for _ in range(200):
        t = apply(s, legal_actions(s)[0])
        if any(e.kind == "automa" for e in t.events):
            assert undo_refusal(s, t, 1) is not None
            return
        s = t
    pytest.fail("the Automa never played")


def test_a_level_may_have_its_own_progress_track() -> None:
    """Level 1's easy tracker (a star every sixth box) is the view's and the engine's; the loader
    refuses a level track without five star boxes within its length."""
    from meloch.content import ContentError
    from meloch.content.loader import _check_automa
    from meloch.content.schema import AutomaTrack

    content = get("")
    a = content.automa
    assert a is not None
    assert a.track_for(1, "scythe").star_boxes == (6, 12, 18, 24, 30) and a.track_for(3, "scythe") == a.track
    assert a.track_for(2, "expeditions").star_boxes == (5, 10, 15, 20, 25)
    for level in (1, 2, 3):
        v = view(new_game(solo(0, level), 3), 1).automa
        assert v is not None and v.star_boxes == a.track_for(level, "scythe").star_boxes
        assert v.track_length == a.track_for(level, "scythe").length
    bad = AutomaTrack(length=20, star_boxes=(5, 10, 15, 25), provenance="standin")
    levels = (msgspec.structs.replace(a.levels[0], track=bad), *a.levels[1:])
    with pytest.raises(ContentError, match="five boxes"):
        _check_automa(msgspec.structs.replace(content, automa=msgspec.structs.replace(a, levels=levels)))


def test_the_automa_line_fits_80_columns_at_every_level() -> None:
    from meloch.cli.screen import automa_line

    for level in range(1, 6):
        s = new_game(solo(1, level, threat=True), 2)
        s = msgspec.structs.replace(s, automa=msgspec.structs.replace(s.automa, progress=12, card="explorer-6"))
        line = automa_line(view(s, 0))
        assert line is not None and len(line.plain) <= 80, line.plain
        assert f"L{level}+T 12/" in line.plain


def test_a_level_may_set_values_per_side() -> None:
    """A level's ``sides`` entry overrides its values for one side the Automa plays (the two sides
    are tuned apart); the loader checks the deck sizes fall for each side; the dial a level adds
    is applied within the dial's 0-7."""
    from meloch.content import ContentError
    from meloch.content.loader import _check_automa
    from meloch.content.schema import AutomaLevelSide
    from meloch.engine.automa.turn import card_dial, support_card

    content = get("")
    a = content.automa
    assert a is not None
    lv = a.levels[1]
    for role in ("scythe", "expeditions"):
        o = lv.sides.get(role)
        got = a.level_for(2, role)
        assert got.support_cards == (o.support_cards if o is not None and o.support_cards is not None
                                     else lv.support_cards)
        assert got.progress == lv.progress and got.track == lv.track
    with_side = msgspec.structs.replace(lv, sides={"expeditions": AutomaLevelSide(support_cards=3)})
    assert with_side.for_side("expeditions").support_cards == 3 and with_side.for_side("scythe") is with_side
    levels = (a.levels[0], with_side, *a.levels[2:])
    with pytest.raises(ContentError, match="expeditions"):
        _check_automa(msgspec.structs.replace(content, automa=msgspec.structs.replace(a, levels=levels)))
    sc = support_card("scythian-5")
    assert sc is not None and sc.dial == 5
    for level in range(1, 6):
        s = new_game(solo(0, level), 2)
        assert card_dial(s, sc) == min(7, 5 + a.level_for(level, "scythe").dial)
        assert card_dial(s, None) == min(7, 2 + a.level_for(level, "scythe").dial)


def test_every_automa_card_has_a_scenario() -> None:
    """Issue 12: scenario files pin each Automa card's behaviour, so every support card and every
    phase card of the content is played in at least one scenario under ``tests/scenarios/automa``
    (a card added to the content without one fails here)."""
    automa = load().automa
    assert automa is not None
    text = "\n".join(p.read_text() for p in (Path(__file__).parent / "scenarios" / "automa").glob("*.yaml"))
    cards = [c.id for c in automa.support_cards] + [c.id for c in automa.action_cards if c.kind == "phase"]
    assert len(cards) == 16
    missing = [c for c in cards if c not in text]
    assert not missing, f"Automa cards without a scenario: {missing}"
