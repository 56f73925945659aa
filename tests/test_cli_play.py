"""The terminal game loop (``meloch play``), driven through scripted input."""

from __future__ import annotations

import io
import itertools
import json
import random
import re
from collections.abc import Callable, Iterable

import pytest
from rich.console import Console
from typer.testing import CliRunner

from meloch.agents import RandomAgent, agent_names
from meloch.cli.main import app
from meloch.cli.play import Session, load_game, resume, run_game
from meloch.cli.play_cmd import AGENT_NAMES
from meloch.engine import (
    AutomaSetup,
    Setup,
    apply,
    decision,
    legal_actions,
    new_game,
    outcome,
    parse,
    replay,
    state_hash,
    undo_refusal,
    view,
    view_json,
)

SEED = 3


@pytest.fixture(autouse=True)
def _data_dir(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The autosave of ``meloch play`` goes to a temporary directory, never the user's."""
    monkeypatch.setenv("MELOCH_DATA_DIR", str(tmp_path / "data"))


def _console() -> Console:
    return Console(file=io.StringIO(), width=100, color_system=None, force_terminal=False)


def _out(console: Console) -> str:
    f = console.file
    assert isinstance(f, io.StringIO)
    return f.getvalue()


def _script(lines: Iterable[str]) -> Callable[[str], str]:
    it = iter(lines)

    def input_fn(_prompt: str) -> str:
        try:
            return next(it)
        except StopIteration:
            raise EOFError from None

    return input_fn


_KEY = re.compile(r"^\s*([0-9a-z]+)\) ", re.M)


def _first_key(console: Console, pick: Callable[[list[str]], str] | None = None) -> Callable[[str], str]:
    """An input function that answers with a key of the last screen printed (the first one, or ``pick``'s);
    Enter at a "pass the device" prompt."""

    def input_fn(_prompt: str) -> str:
        text = _out(console)
        last = text[text.rfind("decides:"):]
        keys = _KEY.findall(last)
        keys = [k for k in keys if k != "x"] or keys
        if not keys or text.rstrip().endswith("when ready."):
            return ""
        return pick(keys) if pick else keys[0]

    return input_fn


def _random_prefix(setup: Setup, seed: int, stop: Callable[[object, object, object], bool],
                   limit: int = 3000) -> list[str]:
    """Actions of a random game up to and including the first action for which ``stop(before, a, after)``."""
    s = new_game(setup, seed)
    agents = (RandomAgent(seed), RandomAgent(seed + 1))
    out: list[str] = []
    for _ in range(limit):
        d = decision(s)
        assert d is not None, "game ended before the wanted action"
        a = agents[d.seat].choose(view(s, d.seat), legal_actions(s))
        after = apply(s, a)
        out.append(str(a))
        if stop(s, a, after):
            return out
        s = after
    raise AssertionError("no such action found")


# ---------------------------------------------------------------- whole games


def test_full_hot_seat_game_answering_1() -> None:
    console = _console()
    session = run_game(Setup(turn_limit=12), SEED, input_fn=_first_key(console), console=console)
    assert not session.quit
    o = outcome(session.state)
    assert o is not None
    text = _out(console)
    assert "Game over" in text
    assert ("wins:" in text) or ("No winner: turn limit" in text)
    assert state_hash(replay(Setup(turn_limit=12), SEED, session.actions)) == state_hash(session.state)


@pytest.mark.parametrize("seed", [1, 2])
def test_full_game_with_random_numbers(seed: int) -> None:
    rng = random.Random(seed)
    console = _console()
    session = run_game(Setup(turn_limit=16), seed, input_fn=_first_key(console, rng.choice),
                       console=console, pass_prompt=False)
    assert outcome(session.state) is not None
    assert "Traceback" not in _out(console)


def test_vs_random_agent_plays_the_other_seat() -> None:
    console = _console()
    session = run_game(Setup(turn_limit=10), SEED, vs="random", human_seat=1, input_fn=_first_key(console),
                       console=console)
    assert outcome(session.state) is not None
    text = _out(console)
    assert "Pass the device" not in text
    assert "S private" not in text  # the agent's secrets are never shown
    assert "E>" in text and "S>" not in text


# ---------------------------------------------------------------- bad input


def test_bad_input_gets_a_message_and_the_prompt_again() -> None:
    # play until the Scythe seat decides
    prefix = _random_prefix(Setup(), SEED, lambda b, a, after: decision(after).seat == 0)  # type: ignore[attr-defined]
    console = _console()
    session = run_game(Setup(), SEED, actions=prefix, console=console, pass_prompt=False,
                       input_fn=_script(["abc", "999", "0", "E token all", "S bogus", "S", "9" * 5000, "9" * 300,
                                         "x" * 1_000_000, "\x00\x07\ufffd", "S section \x1b[2J", "quit", "y"]))
    assert session.quit and session.actions == prefix  # the game is intact
    text = " ".join(_out(console).split())
    assert "'abc' does not answer the current decision" in text
    assert "There is no option 999" in text
    assert "There is no option 0" in text
    assert "It is S's decision now, not E's." in text
    assert "'bogus' does not answer the current decision" in text
    assert "There is no option S" in text  # a lone letter is a key
    assert "That line is too long (5000 characters" in text  # no ValueError on int()
    assert "There is no option 999999999999... (300 characters) here" in text
    assert "That line is too long (1000000 characters" in text and "x" * 1000 not in text
    assert text.count("cannot be typed or read") == 2
    assert text.count("S> ") == 12
    assert "Traceback" not in text


def test_random_bytes_never_end_the_game() -> None:
    rng = random.Random(5)
    lines = [bytes(rng.randrange(256) for _ in range(rng.randrange(1, 60))).decode("utf-8", "replace")
             for _ in range(150)]
    console = _console()
    session = run_game(Setup(), SEED, console=console, pass_prompt=False, input_fn=_script(lines))
    assert session.quit and "Input ended" in _out(console)
    assert state_hash(replay(Setup(), SEED, session.actions)) == state_hash(session.state)


def test_notation_is_case_insensitive() -> None:
    prefix = _random_prefix(Setup(), SEED, lambda b, a, after: decision(after).seat == 0)  # type: ignore[attr-defined]
    s = replay(Setup(), SEED, prefix)
    target = str(legal_actions(s)[0])
    console = _console()
    session = run_game(Setup(), SEED, actions=prefix, console=console, pass_prompt=False,
                       input_fn=_script([target.upper().split(" ", 1)[1]]))
    assert session.actions[len(prefix)] == target


def _screens(text: str) -> list[str]:
    return [x for x in text.split("\x00SCREEN\x00") if x.strip()]


def test_every_decision_screen_fits_80_by_24() -> None:
    heights: list[int] = []
    for seed in (1, 2, 3):
        console = Console(file=io.StringIO(), width=80, height=24, color_system=None, force_terminal=False)
        mark = [0]
        keys = _first_key(console, random.Random(seed).choice)

        def input_fn(_prompt: str, console: Console = console, mark: list[int] = mark,
                     keys: Callable[[str], str] = keys) -> str:
            text = _out(console)
            chunk = text[mark[0]:]
            mark[0] = len(text)
            if "decides:" in chunk:
                screen = chunk[chunk.rfind("Turn "):]
                heights.append(screen.count("\n") + 1)  # + the prompt line
                assert max(len(x) for x in screen.split("\n")) <= 80
            return keys(_prompt)

        session = run_game(Setup(turn_limit=14), seed, console=console, pass_prompt=False, input_fn=input_fn)
        assert outcome(session.state) is not None
    assert heights and max(heights) <= 24, max(heights)


def test_the_solo_screen_shows_the_automas_progress_in_80_by_24() -> None:
    """Against the solo Automa the intro names it (not an agent) and every screen has its line:
    level, progress and stars, deck sizes and current card, from the view's ``automa`` part."""
    console = Console(file=io.StringIO(), width=80, height=24, color_system=None, force_terminal=False)
    mark = [0]
    screens: list[str] = []
    keys = _first_key(console, random.Random(4).choice)

    def input_fn(_prompt: str) -> str:
        text = _out(console)
        chunk = text[mark[0]:]
        mark[0] = len(text)
        if "decides:" in chunk:
            screens.append(chunk[chunk.rfind("Turn "):])
        return keys(_prompt)

    setup = Setup(automa=AutomaSetup(seat=1, level=3, threat=True), turn_limit=16)
    session = run_game(setup, 4, vs="automa:3+threat", human_seat=0, console=console, pass_prompt=False,
                       input_fn=input_fn)
    text = " ".join(_out(console).split())
    assert "against the solo Automa, level 3 with Threat" in text and "agent plays" not in text
    assert screens and all(x.count("\n") + 1 <= 24 and max(len(y) for y in x.split("\n")) <= 80 for x in screens)
    full = [x for x in screens if re.match(r"Turn \d+ \| ", x)]  # not the short "Turn N: S to play" lines
    lines = [next((y for y in x.split("\n") if y.startswith("Automa L3+T ")), "") for x in full]
    a = session.state.automa
    assert a is not None and a.progress > 0
    assert any(f" {a.progress}/20 " in y for y in lines)
    assert all(" stars " in y and " deck " in y and " sup " in y for y in lines)
    assert any(re.search(r" sup \d+ explorer-\d$", y) for y in lines), sorted(set(lines))[:5]


def test_explain_rules_and_card_teach_a_turn() -> None:
    prefix = _random_prefix(Setup(), SEED, lambda b, a, after: decision(after).seat == 0)  # type: ignore[attr-defined]
    console = _console()
    run_game(Setup(), SEED, actions=prefix, console=console, pass_prompt=False,
             input_fn=_script(["explain", "rules", "rules scythe", "rules sweep", "rules glossary", "card i02",
                               "card riverwalk", "card nonsense", "show track", "show board", "show log",
                               "show cards", "show opponent", "show nonsense"]))
    text = " ".join(_out(console).split())
    assert "Your options:" in text and "section 1 (Produce / Upgrade)" in text
    assert "Rules topics: goal, scythe" in text
    assert "Scythe turn: move your action token" in text
    assert "sweep: Replace any number of the face-up discovery cards" in text
    for word in ("boast", "meld", "leverage", "vanquish", "sweep"):
        assert f"{word}: " in text
    assert "(item i02" in text and "(Scythe mech ability)" in text and "No card named 'nonsense'" in text
    assert "Triumph Track" in text and "Adjacency" in text and "Usage: show board" in text
    assert "Traceback" not in text


def test_hint_shows_the_strongest_agents_best_options() -> None:
    """``hint`` prints the search's top options, best first, each with how far it falls behind the best
    and a reason; the game waits at the same decision."""
    def wide(b: object, a: object, after: object) -> bool:
        legal = legal_actions(after)  # type: ignore[arg-type]
        return len(legal) >= 3 and legal[0].seat == 0 and legal[0].verb not in ("dial", "tuck")

    prefix = _random_prefix(Setup(), SEED, wide)
    console = _console()
    run_game(Setup(), SEED, actions=prefix, console=console, pass_prompt=False, input_fn=_script(["hint"]))
    text = " ".join(_out(console).split())
    hints = re.findall(r"hint (\d): (S \S+(?: \S+)*?) \(.*?\), (the best found|\d+\.\d points behind the best "
                       r"\(a star is 10\)): \S", text)
    assert [h[0] for h in hints] == ["1", "2", "3"], text[-1500:]
    assert hints[0][2] == "the best found" and all("behind" in h[2] for h in hints[1:])
    assert "hint 4:" not in text and "Traceback" not in text


def test_section_keys_are_the_section_numbers() -> None:
    from meloch.cli import screen

    def scythe_section(b: object, a: object, after: object) -> bool:
        d = decision(after)  # type: ignore[arg-type]
        return d is not None and d.kind == "s_section" and view(after, 0).seats[0].section >= 0  # type: ignore[arg-type,union-attr]

    prefix = _random_prefix(Setup(), SEED, scythe_section)
    s = replay(Setup(), SEED, prefix)
    from meloch.engine import options

    menu = screen.build_menu(options(s), {})
    for e in menu.entries:
        if e.option is not None and " section " in e.option.action:
            assert e.key == e.option.action.split()[-1]


def test_eof_and_quit_exit_cleanly() -> None:
    console = _console()
    session = run_game(Setup(), SEED, input_fn=_script([]), console=console)
    assert session.quit and "Input ended" in _out(console)
    console = _console()
    session = run_game(Setup(), SEED, input_fn=_script(["", "quit", "y"]), console=console)
    assert session.quit and "You left the game." in _out(console)
    assert "This game is not saved. Leave anyway?" in _out(console)


def test_help_lists_the_commands() -> None:
    console = _console()
    run_game(Setup(), SEED, input_fn=_script(["help"]), console=console, pass_prompt=False)
    text = _out(console)
    for word in ("undo", "save FILE", "quit", "show"):
        assert word in text


# ---------------------------------------------------------------- undo


def test_undo_takes_back_a_non_random_action() -> None:
    console = _console()
    # The Expeditions seat's opening "E token all" is forced (taken for it); "E do move" draws nothing and
    # leaves the same seat deciding, so it can be taken back.
    session = run_game(Setup(), SEED, input_fn=_script(["1", "undo", "quit"]), console=console, pass_prompt=False)
    text = _out(console)
    assert "Forced (E token all): Take all three actions (Move, Play, Gather)." in text
    assert "Undone: E do move (Take the Move action now)." in text
    assert session.actions == ["E token all"]
    assert state_hash(session.state) == state_hash(replay(Setup(), SEED, ["E token all"]))


def _same_seat_after(b: object, after: object) -> bool:
    d0, d1 = decision(b), decision(after)  # type: ignore[arg-type]
    return d0 is not None and d1 is not None and d0.seat == d1.seat and b.turn == after.turn  # type: ignore[attr-defined]


def test_undo_is_refused_after_a_random_draw() -> None:
    def drew(b: object, a: object, after: object) -> bool:
        return _same_seat_after(b, after) and len(legal_actions(b)) > 1 and (  # type: ignore[arg-type]
            b.rng != after.rng  # type: ignore[attr-defined]
            or len(b.combat_deck) != len(after.combat_deck)  # type: ignore[attr-defined]
            or len(b.discovery_deck) != len(after.discovery_deck))  # type: ignore[attr-defined]

    prefix = _random_prefix(Setup(), SEED, drew)
    last = prefix[-1]
    console = _console()
    session = run_game(Setup(), SEED, actions=prefix[:-1], console=console, pass_prompt=False,
                       input_fn=_script([last, "undo", "quit"]))
    text = _out(console)
    assert f"Cannot undo '{last}'" in text
    # nothing was taken back (forced steps after the draw may have followed it)
    assert session.actions[:len(prefix)] == prefix
    assert all(len(legal_actions(replay(Setup(), SEED, session.actions[:k]))) == 1
               for k in range(len(prefix), len(session.actions)))


def test_undo_refusal_rule() -> None:
    s0 = new_game(Setup(), SEED)
    a = legal_actions(s0)[0]
    s1 = apply(s0, a)
    assert undo_refusal(s0, s1, a.seat) is None
    assert undo_refusal(s0, s1, 1 - a.seat) is not None  # not your action
    # an action that hands the decision to the other seat is never undoable
    prefix = _random_prefix(Setup(), SEED, lambda b, a, after: decision(b).seat != decision(after).seat)  # type: ignore[attr-defined]
    b = replay(Setup(), SEED, prefix[:-1])
    after = apply(b, prefix[-1])
    assert undo_refusal(b, after, parse(prefix[-1]).seat) == "it ended your part of the turn."


def test_undo_never_takes_back_only_forced_steps() -> None:
    console = _console()
    session = run_game(Setup(), SEED, input_fn=_script(["undo"]), console=console, pass_prompt=False)
    assert "Cannot undo 'E token all': only steps with a single option lie before it" in " ".join(
        _out(console).split())
    assert session.actions == ["E token all"]


# ---------------------------------------------------------------- save and load


def test_save_then_load_gives_the_same_state(tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "game.json"
    console = _console()
    session = run_game(Setup(map_side="desert", track_side="B"), 7, console=console, pass_prompt=False,
                       input_fn=_script(["1"] * 25 + [f"save {path}", "quit"]))
    assert "Leave anyway" not in _out(console)  # just saved: quit does not ask
    # rich may wrap a long path: compare without whitespace
    assert f"Saved{len(session.actions)}actionsto{path}" in "".join(_out(console).split())
    data = json.loads(path.read_text())
    assert data["seed"] == 7 and data["setup"]["map_side"] == "desert" and data["actions"] == session.actions
    saved = load_game(path)
    resumed = resume(saved)
    assert state_hash(resumed.state) == state_hash(session.state)
    # and the resumed game plays on
    console2 = _console()
    first = _first_key(console2)
    answers = iter(["quit", "y"])
    more = run_game(session=resumed, console=console2, pass_prompt=False,
                    input_fn=lambda p: first(p) if len(resumed.actions) == len(session.actions) else next(answers))
    assert len(more.actions) == len(session.actions) + 1


def test_cli_load_resumes_exactly(tmp_path) -> None:  # type: ignore[no-untyped-def]
    first, second = tmp_path / "a.json", tmp_path / "b.json"
    runner = CliRunner()
    r = runner.invoke(app, ["play", "--seed", "5", "--no-pass-prompt"],
                      input="1\n" * 15 + f"save {first}\nquit\n")
    assert r.exit_code == 0, r.output
    r = runner.invoke(app, ["play", "--load", str(first), "--no-pass-prompt"], input=f"save {second}\nquit\n")
    assert r.exit_code == 0, r.output
    assert "Resumed" in r.output
    a, b = json.loads(first.read_text()), json.loads(second.read_text())
    assert a["actions"] == b["actions"] and a["setup"] == b["setup"]
    assert state_hash(replay(load_game(first).setup, 5, a["actions"])) == state_hash(
        resume(load_game(second)).state)


def test_cli_load_errors(tmp_path) -> None:  # type: ignore[no-untyped-def]
    runner = CliRunner()
    r = runner.invoke(app, ["play", "--load", str(tmp_path / "missing.json")])
    assert r.exit_code == 1 and "cannot read" in r.output
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"setup": {}, "seed": 1, "actions": ["S bogus"]}))
    r = runner.invoke(app, ["play", "--load", str(bad)])
    assert r.exit_code == 1 and "does not replay" in r.output


# ---------------------------------------------------------------- hot-seat secrecy


def test_pass_the_device_before_any_private_information() -> None:
    console = _console()
    session = Session(Setup(turn_limit=12), SEED)
    chunks: list[tuple[int, str]] = []
    seen = [0]

    def input_fn(_prompt: str) -> str:
        text = _out(console)
        d = decision(session.state)
        assert d is not None
        chunks.append((d.seat, text[seen[0]:]))
        seen[0] = len(text)
        return keys(_prompt)

    keys = _first_key(console)

    run_game(session=session, input_fn=input_fn, console=console)
    passes = 0
    for i, (seat, chunk) in enumerate(chunks):
        other = 1 - seat
        tags = view(session.states[0], None).tags
        # whatever is on screen while ``seat`` decides never shows the other seat's private panel
        assert f"{tags[other]} private" not in chunk
        if "Pass the device to" in chunk:
            passes += 1
            m = re.search(r"Pass the device to (\w+)", chunk)
            assert m is not None and m.group(1) == tags[seat]
            # nothing of the new seat's private state is printed before the hand-over prompt
            assert "private (only you see this)" not in chunk.split("Pass the device to")[0]
            # the hand-over prompt ends the chunk: the next chunk shows the seat's screen
            assert chunk.rstrip().endswith("press Enter when ready.")
            assert i + 1 < len(chunks)
            assert f"{tags[seat]} you:" in chunks[i + 1][1]
    assert passes >= 3
    assert "Pass the device to E" in chunks[0][1]


def test_hot_seat_never_prints_the_other_seats_combat_cards() -> None:
    console = _console()
    session = Session(Setup(turn_limit=16), 11)
    leaks: list[str] = []
    seen = [0]

    def input_fn(_prompt: str) -> str:
        text = _out(console)
        chunk = text[seen[0]:]
        seen[0] = len(text)
        d = decision(session.state)
        assert d is not None
        other = 1 - d.seat
        for name in view_json(session.state, other)["seats"][other].get("hand_combat", []):
            ident = name.rsplit(" ", 1)[-1]  # "#12"
            if re.search(re.escape(ident) + r"\b", chunk):
                leaks.append(f"{name} of seat {other} shown to seat {d.seat}")
        return keys(_prompt)

    keys = _first_key(console)

    run_game(session=session, input_fn=input_fn, console=console, pass_prompt=True)
    assert leaks == []


# ---------------------------------------------------------------- labels and the CLI


def test_cli_play_runs_to_the_end_through_the_runner() -> None:
    runner = CliRunner()
    r = runner.invoke(app, ["play", "--seed", "3", "--turn-limit", "4", "--map", "desert"],
                      input="1\n2\n3\n4\n" * 200)
    assert r.exit_code == 0, r.output
    assert "Game over" in r.output
    assert "Pass the device to E" in r.output


def test_cli_play_vs_random_as_expeditions() -> None:
    runner = CliRunner()
    r = runner.invoke(app, ["play", "--vs", "random", "--seat", "E", "--seed", "2", "--turn-limit", "4"],
                      input="1\n" * 400)
    assert r.exit_code == 0, r.output
    assert "Game over" in r.output and "Pass the device" not in r.output


@pytest.mark.parametrize(("option", "value", "allowed"), [
    ("--faction", "bogus", "constantinople"), ("--mat", "bogus", "adventurous"), ("--mech", "bogus", "voyager"),
    ("--map", "moon", "jungle"), ("--track", "C", "A"), ("--vs", "alien", "random"), ("--seat", "X", "S or E"),
])
def test_cli_play_rejects_bad_options(option: str, value: str, allowed: str) -> None:
    r = CliRunner().invoke(app, ["play", option, value])
    assert r.exit_code == 2
    assert allowed in r.output


# ---------------------------------------------------------------- structure and first-run experience


def test_labels_module_is_gone_and_render_keeps_its_panels() -> None:
    """Option labels come only from the engine's described options: the CLI has no labelling module."""
    import importlib.util

    from meloch.cli import render, render_map

    assert importlib.util.find_spec("meloch.cli.labels") is None
    assert render.render_map is render_map.render_map and render.render_adjacency is render_map.render_adjacency
    for name in render.__all__:
        assert hasattr(render, name), name


def test_free_actions_are_folded_into_one_entry() -> None:
    # the Scythe seat's end-of-turn decision, where it still holds combat cards to discard
    def at_end_with_cards(b: object, a: object, after: object) -> bool:
        legal = legal_actions(after)  # type: ignore[arg-type]
        return any(x.verb == "end" for x in legal) and any(x.verb == "discard-combat" for x in legal)

    prefix = _random_prefix(Setup(), SEED, at_end_with_cards)
    console = _console()
    session = run_game(Setup(), SEED, actions=prefix, console=console, pass_prompt=False,
                       input_fn=_script(["x", "b", "1", "quit", "y"]))
    assert parse(session.actions[-1]).verb == "end"  # '1' ends the turn; it never discards a card
    text = _out(console)
    assert "x) Free actions" in text and "Free actions (b: back)" in text
    assert text.count("Discard combat card") >= 1


def test_first_screen_explains_the_game_and_the_prompt() -> None:
    console = _console()
    run_game(Setup(), SEED, input_fn=_script(["", "quit"]), console=console)
    text = " ".join(_out(console).split())
    intro = text.split("Pass the device to")[0]
    assert "S plays Scythe, E plays Expeditions" in intro and "E moves first" in intro
    assert "'rules' gives the rules in short, 'explain' the current decision" in intro and "pass the device" in intro
    assert "A decision with a single option is taken for you." in intro
    # the opening token choice has one option: taken, and said under the first screen
    assert "keys above, or: explain, rules" in text
    assert "Forced (E token all)" in text.split("Pass the device to")[1]


def test_resumed_game_says_where_it_resumes(tmp_path) -> None:  # type: ignore[no-untyped-def]
    console = _console()
    session = run_game(Setup(), SEED, input_fn=_script(["1"] * 12 + ["quit"]), console=console, pass_prompt=False)
    console = _console()
    run_game(session=resume(load_game_from(session, tmp_path)), console=console, input_fn=_script(["quit"]),
             pass_prompt=False)
    text = " ".join(_out(console).split())
    assert f"resumes at turn {session.state.turn} after {len(session.actions)} actions" in text
    assert f"seed {SEED}" not in text.lower()  # both seats read this screen: the seed stays hidden until the end


def test_cli_load_never_prints_the_seed(tmp_path) -> None:  # type: ignore[no-untyped-def]
    saved = tmp_path / "a.json"
    runner = CliRunner()
    r = runner.invoke(app, ["play", "--seed", "424242", "--no-pass-prompt"], input="1\n" * 6 + f"save {saved}\nquit\n")
    assert r.exit_code == 0, r.output
    r = runner.invoke(app, ["play", "--load", str(saved), "--no-pass-prompt"], input="quit\n")
    assert r.exit_code == 0, r.output
    assert "424242" not in r.output


def load_game_from(session: Session, tmp_path):  # type: ignore[no-untyped-def]
    from meloch.cli.play import save_game

    path = tmp_path / "g.json"
    save_game(path, session)
    return load_game(path)


def test_every_refusal_says_what_to_type() -> None:
    console = _console()
    run_game(Setup(), SEED, input_fn=_script(["abc", "7", "E bogus", "quit"]), console=console, pass_prompt=False)
    text = " ".join(_out(console).split())
    assert text.count("Type a key shown in front of an option, 'explain', or 'help'.") == 3
    assert "There is no option 7 here." in text


def test_done_and_undone_notices_stay_with_their_seat() -> None:
    console = _console()
    run_game(Setup(), SEED, input_fn=_script(["1", "undo", "1", "1", "quit"]), console=console, pass_prompt=False)
    text = " ".join(_out(console).split())
    assert "Undone: E do move (Take the Move action now)." in text
    assert "Done (E do move): Take the Move action now." in text
    # a hand-over never shows the other seat what was just chosen
    console = _console()
    session = Session(Setup(turn_limit=12), SEED)
    chunks: list[tuple[int, str]] = []
    seen = [0]

    def input_fn(_prompt: str) -> str:
        out = _out(console)
        d = decision(session.state)
        assert d is not None
        chunks.append((d.seat, out[seen[0]:]))
        seen[0] = len(out)
        return keys(_prompt)

    keys = _first_key(console)

    run_game(session=session, input_fn=input_fn, console=console)
    tags = view(session.states[0], None).tags
    for seat, chunk in chunks:
        screen = chunk.split("Pass the device to")[-1]
        assert f"Done ({tags[1 - seat]} " not in screen
        assert f"Forced ({tags[1 - seat]} " not in screen


def test_combat_panel_shows_each_seat_only_its_own_dial() -> None:
    from meloch.cli.render import render_combat

    # a scripted opening (seed 35237): the Scythe character walks onto the Expeditions mech and attacks
    script = ["E token all", "E do move", "E move 1", "E do play", "E play nikte", "E worker hero", "E option 1",
              "E do gather", "S section 2", "S top move", "S move char home-s 1", "S move done", "S fight yes",
              "S dial 3"]
    s = replay(Setup(), 35237, script)
    setter, other, dial = 0, 1, 3
    assert s.combat is not None and not s.combat.revealed

    def text(seat: int) -> str:
        c = Console(file=io.StringIO(), width=200, color_system=None)
        c.print(render_combat(view(s, seat)))
        return _out(c)

    mine, theirs = text(setter), text(other)
    assert "Combat in progress" in mine and "Combat in progress" in theirs
    assert f"yours (secret): dial {dial}" in mine
    assert "dial set" in theirs and "yours (secret): dial not set" in theirs
    assert f"dial {dial}," not in theirs.replace("dial not set", "")


def test_game_over_screen_names_the_winner() -> None:
    from meloch.sim.selfplay import play_random_game

    setup = Setup(turn_limit=300)
    game = next(g for seed in range(1, 40) if (g := play_random_game(setup, seed)).outcome is not None
                and g.outcome.winner is not None)
    last = game.actions[-1]
    console = _console()
    run_game(setup, game.seed, actions=list(game.actions[:-1]), console=console, pass_prompt=False,
             input_fn=_script([last]))
    text = _out(console)
    assert game.outcome is not None and game.outcome.winner is not None
    tags = view(new_game(setup, game.seed), None).tags
    assert "Game over" in text and "Result" in text
    assert re.search(rf"{tags[game.outcome.winner]} \(\w+\) wins: ", text)
    after = text.split("Game over")[1]
    assert "private (only you see this)" not in after  # the end screen is everyone's view


def test_map_has_no_runs_of_blank_rows() -> None:
    from meloch.cli.render_map import render_map

    for side in ("jungle", "desert"):
        lines = render_map(view(new_game(Setup(map_side=side), 1), 0)).plain.split("\n")
        assert lines[-1].strip()
        assert not any(not a.strip() and not b.strip() for a, b in itertools.pairwise(lines))


def test_readme_and_makefile_offer_play_against_the_random_agent() -> None:
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    assert 'make play-terminal ARGS="--vs random"' in (root / "README.md").read_text(encoding="utf-8")
    assert "meloch play $(ARGS)" in (root / "Makefile").read_text(encoding="utf-8")
    r = CliRunner().invoke(app, ["play", "--vs", "random", "--seed", "4", "--turn-limit", "3"], input="1\n" * 300)
    assert r.exit_code == 0, r.output
    assert "You play S (Scythe); the random agent plays the other seat." in r.output
    assert "Game over" in r.output




def test_play_help_lists_every_agent_and_automa_level() -> None:
    assert sorted(AGENT_NAMES) == agent_names()
    out = CliRunner().invoke(app, ["play", "--help"], env={"COLUMNS": "200"}, terminal_width=200).output
    words = set(re.findall(r"[\w:+]+", out))
    missing = [n for n in (*agent_names(), *(f"automa:{i}" for i in range(1, 6))) if n not in words]
    assert not missing, out
