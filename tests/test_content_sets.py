"""Content as an explicit input (issue 10, item 7): a game names its content set in
``Setup.content``; two games with different content run side by side in one process, each giving
the results it gives alone."""

from __future__ import annotations

import shutil
from pathlib import Path

import msgspec
import pytest
import yaml

from meloch.content import ContentError, get, load, load_dir, register
from meloch.content.loader import DATA_DIR
from meloch.engine import SetupError, from_json, new_game, to_json, view
from meloch.engine.game_content import active, bind, unbind, using
from meloch.engine.model import ScytheSeat, Setup, State
from meloch.scenario.games import fingerprint, random_game, varied_setup

TEST_ID = "test-stronger"
POWER_BONUS = 2
STEPS = 300


def _test_content(tmp: Path) -> None:
    """The standard data with every faction's starting power raised, every mat's bottom action
    worth $1 more (read at every bottom action, so the content matters all game long) and the
    power map token (``mt4``) worth 5 instead of 2; loaded and validated like the standard set."""
    data = tmp / "data"
    shutil.copytree(DATA_DIR, data)
    factions = yaml.safe_load((data / "factions.yaml").read_text(encoding="utf-8"))
    for f in factions:
        f["power"] += POWER_BONUS
    (data / "factions.yaml").write_text(yaml.safe_dump(factions, sort_keys=False), encoding="utf-8")
    mats = yaml.safe_load((data / "mats.yaml").read_text(encoding="utf-8"))
    for m in mats:
        for sec in m["sections"]:
            sec["bottom_coins"] += 1
    (data / "mats.yaml").write_text(yaml.safe_dump(mats, sort_keys=False), encoding="utf-8")
    tokens = (data / "map_tokens.yaml").read_text(encoding="utf-8")
    assert "{id: mt4, bonus: [power 2]" in tokens
    (data / "map_tokens.yaml").write_text(tokens.replace("{id: mt4, bonus: [power 2]", "{id: mt4, bonus: [power 5]"),
                                          encoding="utf-8")
    register(TEST_ID, load_dir(data))


@pytest.fixture(scope="module")
def test_content(tmp_path_factory: pytest.TempPathFactory) -> str:
    _test_content(tmp_path_factory.mktemp("content"))
    return TEST_ID



def _solo(setup: Setup, seed: int) -> list[str]:
    """The game alone, with its content bound around the whole run (not only per call)."""
    out = []
    with using(get(setup.content)):
        for i, (s, _) in enumerate(random_game(setup, seed)):
            out.append(fingerprint(s))
            if i >= STEPS:
                break
    return out


def _scythe(s: State) -> ScytheSeat:
    p = next(p for p in s.seats if isinstance(p, ScytheSeat))
    return p


def test_the_test_set_is_its_own_content(test_content: str) -> None:
    assert get(test_content) is not load()
    assert get(test_content).map_tokens != load().map_tokens
    std = new_game(Setup(), 3)
    alt = new_game(Setup(content=test_content), 3)
    assert _scythe(alt).power == _scythe(std).power + POWER_BONUS
    assert alt.setup.content == test_content and std.setup.content == ""
    # the content id is saved with the state, and a view still reads
    assert from_json(to_json(alt)).setup.content == test_content
    assert view(alt, 0)


@pytest.mark.parametrize("i", [0, 1, 2, 7])
def test_two_content_sets_interleave_in_one_process(test_content: str, i: int) -> None:
    std_setup = varied_setup(i)
    alt_setup = msgspec.structs.replace(std_setup, content=test_content)
    seed = 900 + i
    alone_std = _solo(std_setup, seed)
    alone_alt = _solo(alt_setup, seed)
    assert alone_std != alone_alt  # the content changes the game, so the comparison below can fail
    g_std, g_alt = random_game(std_setup, seed), random_game(alt_setup, seed)
    both_std: list[str] = []
    both_alt: list[str] = []
    for _ in range(STEPS + 1):  # one step of each game in turn
        for g, out in ((g_std, both_std), (g_alt, both_alt)):
            nxt = next(g, None)
            if nxt is not None:
                out.append(fingerprint(nxt[0]))
    assert both_std == alone_std
    assert both_alt == alone_alt


def test_an_unknown_content_set_is_a_setup_error() -> None:
    with pytest.raises(SetupError, match="unknown content set 'nope'"):
        new_game(Setup(content="nope"), 1)
    with pytest.raises(ContentError):
        get("nope")


def test_the_standard_id_cannot_be_taken() -> None:
    with pytest.raises(ValueError, match="standard"):
        register("", load())


def test_an_id_cannot_change_its_content(test_content: str) -> None:
    changed = msgspec.structs.replace(get(test_content), map_tokens=load().map_tokens)
    with pytest.raises(ValueError, match="already registered"):
        register(test_content, changed)


def test_a_call_binds_its_own_game_s_content_inside_another_s_binding(test_content: str) -> None:
    """``using`` (the runner binds its game's content for the whole game) lets the calls on that game
    skip binding; a call on a game of other content inside it must still bind its own, and undo it."""
    std, alt = new_game(Setup(), 5), new_game(Setup(content=test_content), 5)
    for outer, same, other in (("", std, alt), (test_content, alt, std)):
        with using(get(outer)):
            assert bind(same) is None  # already bound: nothing to set, nothing to undo
            assert active() is get(outer)
            token = bind(other)
            assert token is not None and active() is get(other.setup.content)
            unbind(token)
            assert active() is get(outer)
    token = bind(std)  # nothing bound outside: a call binds
    assert token is not None and active() is load()
    unbind(token)
