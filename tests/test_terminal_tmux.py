"""``meloch play`` in a real terminal: a detached tmux session of 80x24 runs the program, the test
types keys with ``send-keys`` and reads the screen with ``capture-pane`` after every step.

What it proves: a full game reaches the end screen; every screen fits (the program clears the pane and
draws from the top, and its first line, the header, is still on the top row with the prompt below it;
with ``scroll-on-clear`` off and the scrollback cleared before each step, the newest header in
scrollback plus pane is the pane's top row, so nothing of that screen went into ``history_size``);
bad input typed at the prompt (random bytes, a 5,000-digit number, a 40,000-character paste) gets a clean
message and leaves the game as it was; ``quit`` asks when the game is unsaved. tmux is a test
prerequisite (``make test`` installs Debian's ``tmux``); a missing tmux fails these tests, never
skips them.
"""

from __future__ import annotations

import os
import random
import re
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

WIDTH, HEIGHT = 80, 24
STEP_TIMEOUT = 20.0
"""Seconds one step may take to show its next prompt (a loaded 2-core machine; typically ~0.1 s)."""
PROMPT = re.compile(r"^[SE][12]?>$")
PROMPT_AFTER_PASTE = re.compile(r"(?:^|x)[SE][12]?>$")
"""A prompt at the end of a line of pasted x's: the tty hands a full line (4095 characters) to the game
before the paste has ended, so the rest of the paste is echoed where the cursor is and the next prompt
can follow it on the same line (how it failed under load: the pane's last line read "xxxS>")."""
HEADER = re.compile(r"^Turn \d+ \| ")
KEY = re.compile(r"^([0-9]+|[a-z])\) ")
REPO = Path(__file__).resolve().parent.parent
PASTE = 40_000
"""Characters pasted at once: ten times what the tty takes in a line, 100 times the game's limit, and
500 lines of echo, within tmux's default history-limit of 2,000 (a million still echoed after 20 s
under load; 200,000 scrolled the refusal out of the pane on CI)."""


class Tmux:
    """One detached tmux server (its own socket) running one command in an 80x24 pane."""

    def __init__(self, tmp: Path, args: list[str]) -> None:
        exe = shutil.which("tmux")
        assert exe is not None, "tmux is not installed: install Debian's 'tmux' package (make test does)"
        self.exe, self.socket = exe, f"meloch-test-{uuid.uuid4().hex[:8]}"
        env = {**os.environ, "MELOCH_DATA_DIR": str(tmp / "data"), "TMUX_TMPDIR": str(tmp)}
        env.pop("TMUX", None)
        self.env = env
        cmd = " ".join([sys.executable, "-m", "meloch.cli.main", "play", *args])
        self.tmux("-f", "/dev/null", "new-session", "-d", "-s", "g", "-x", str(WIDTH), "-y", str(HEIGHT),
                  "-c", str(REPO), cmd, ";", "set", "-g", "remain-on-exit", "on", ";",
                  "set", "-g", "scroll-on-clear", "off")
        self.last = ""

    def tmux(self, *args: str) -> str:
        out = subprocess.run([self.exe, "-L", self.socket, *args], env=self.env, capture_output=True, text=True,
                             timeout=30, check=True)
        return out.stdout

    def lines(self) -> list[str]:
        return self.tmux("capture-pane", "-p", "-t", "g").rstrip("\n").split("\n")

    def value(self, fmt: str) -> str:
        return self.tmux("display", "-p", "-t", "g", fmt).strip()

    def dead(self) -> bool:
        return self.value("#{pane_dead}") == "1"

    def wait(self, what: str = "prompt") -> list[str]:
        """The screen once a new prompt is shown (or the program has ended)."""
        deadline = time.monotonic() + STEP_TIMEOUT
        while time.monotonic() < deadline:
            lines = self.lines()
            text = "\n".join(lines)
            filled = [x for x in lines if x.strip()]
            last = filled[-1].strip() if filled else ""
            ready = self.dead() or (filled and (PROMPT.match(last) or PROMPT_AFTER_PASTE.search(last)
                                                or last.endswith("(y/N)")))
            if ready and text != self.last:
                time.sleep(0.03)  # the prompt is written last; let the pane settle, then read it again
                again = self.lines()
                if again == lines:
                    self.last = text
                    return lines
            time.sleep(0.03)
        raise AssertionError(f"no new {what} within {STEP_TIMEOUT} s; the screen:\n" + "\n".join(self.lines()))

    def settle(self) -> list[str]:
        """The screen once the pane has stopped changing for a second with a prompt at the bottom (after
        a paste, which the game may answer in pieces, each with its own prompt, while the echo goes on)."""
        deadline = time.monotonic() + 3 * STEP_TIMEOUT
        previous: list[str] = []
        while time.monotonic() < deadline:
            time.sleep(1.0)
            lines = self.lines()
            filled = [x.strip() for x in lines if x.strip()]
            if lines == previous and filled and (PROMPT.match(filled[-1]) or PROMPT_AFTER_PASTE.search(filled[-1])):
                self.last = "\n".join(lines)
                return lines
            previous = lines
        raise AssertionError(f"the pane did not settle within {3 * STEP_TIMEOUT} s:\n" + "\n".join(self.lines()))

    def send(self, keys: str, what: str = "prompt") -> list[str]:
        """Type ``keys`` and Enter, with the scrollback cleared first; the next screen."""
        self.tmux("clear-history", "-t", "g")
        self.tmux("send-keys", "-t", "g", "-l", keys)
        self.tmux("send-keys", "-t", "g", "Enter")
        return self.wait(what)

    def close(self) -> None:
        subprocess.run([self.exe, "-L", self.socket, "kill-server"], env=self.env, capture_output=True, timeout=30)


@pytest.fixture
def tmux_factory(tmp_path: Path) -> Iterator[type[Tmux]]:
    started: list[Tmux] = []

    class Started(Tmux):
        def __init__(self, args: list[str]) -> None:  # type: ignore[override]
            super().__init__(tmp_path, args)
            started.append(self)

    yield Started  # type: ignore[misc]
    for t in started:
        t.close()


def assert_fits(t: Tmux, lines: list[str]) -> None:
    """The decision screen fits 80x24: header on the top row, prompt at the bottom of the text, nothing
    scrolled away."""
    assert len(lines) <= HEIGHT and all(len(x) <= WIDTH for x in lines)
    assert HEADER.match(lines[0]), "the header is not on the top row:\n" + "\n".join(lines)
    assert PROMPT.match([x for x in lines if x.strip()][-1].strip())
    # the scrollback (cleared before the keys were typed) may hold lines printed between two screens (the
    # typed Enter, the agent's "thinking" line); the newest screen's header must be the pane's top row
    everything = t.tmux("capture-pane", "-p", "-S", "-", "-t", "g").rstrip("\n").split("\n")
    last_header = max(i for i, x in enumerate(everything) if HEADER.match(x))
    assert last_header == int(t.value("#{history_size}")), "the screen scrolled off the pane:\n" + "\n".join(lines)


def shows(lines: list[str], text: str) -> bool:
    """``text`` is on the screen, wherever the terminal wrapped it (a refusal printed after a long
    echoed paste starts mid-line and breaks mid-word at the pane's edge)."""
    return "".join(text.split()) in "".join("".join(lines).split())


def keys_of(lines: list[str]) -> list[str]:
    return [m.group(1) for x in lines if (m := KEY.match(x))]


def test_full_game_vs_agent_fits_80x24_and_survives_bad_input(tmux_factory: type[Tmux]) -> None:
    t = tmux_factory(["--vs", "random", "--seed", "5", "--turn-limit", "24", "--no-autosave"])
    screen = t.wait()
    assert_fits(t, screen)
    before = screen[0]

    # bad input at the prompt: each gets one clean line, the same decision stays, nothing crashes
    rng = random.Random(7)
    junk = bytes(rng.choice([*range(0x21, 0x7F), *range(0x80, 0x100)]) for _ in range(40))
    t.tmux("send-keys", "-t", "g", "-H", *(f"{b:02x}" for b in junk))
    after = t.send("")
    assert shows(after, "cannot be typed or read"), after
    # a paste before any other over-long line, so a refusal found after it is the paste's
    big = Path(t.env["TMUX_TMPDIR"]) / "big.txt"
    big.write_text("x" * PASTE)
    t.tmux("clear-history", "-t", "g")
    t.tmux("load-buffer", "-b", "big", str(big))
    t.tmux("paste-buffer", "-b", "big", "-d", "-t", "g")
    t.tmux("send-keys", "-t", "g", "Enter")
    after = t.settle()
    # the tty may hand the game the paste in pieces (a full 4095-character line before the paste ends),
    # each refused, and the last piece can be short and refused otherwise; the echo scrolls the first
    # refusal off the pane, so it is looked for in the scrollback too (all of it: PASTE is < history-limit)
    everything = t.tmux("capture-pane", "-p", "-S", "-", "-t", "g").rstrip("\n").split("\n")
    assert shows(everything, "That line is too long"), after
    assert not any("Traceback" in x or "Error" in x for x in everything)
    assert not t.dead()
    after = t.send("9" * 5000)
    assert shows(after, "That line is too long"), after  # the tty passes at most 4095 of them

    # the game goes on from the same decision: play it to the end, a random shown key at each prompt
    screen = t.send("show")
    assert_fits(t, screen)
    assert screen[0] == before
    steps = 0
    while not t.dead():
        keys = keys_of(screen)
        assert keys, "no option keys on the screen:\n" + "\n".join(screen)
        screen = t.send(rng.choice(keys))
        steps += 1
        if t.dead():
            break
        assert_fits(t, screen)
        assert steps < 2_000
    everything = t.tmux("capture-pane", "-p", "-S", "-", "-t", "g").rstrip("\n").split("\n")
    start = max(i for i, x in enumerate(everything) if "Game over" in x)
    stop = max(i for i, x in enumerate(everything) if "Play again with" in x)
    end = everything[start:stop + 2]
    text = "\n".join(end)
    assert len(end) <= HEIGHT, text  # the end screen (drawn on a cleared pane) fits 80x24
    assert "Result" in text and "turn limit" in text and "Play again with" in text, text
    assert steps > 10


def test_quit_asks_when_the_game_is_unsaved(tmux_factory: type[Tmux]) -> None:
    t = tmux_factory(["--vs", "random", "--seed", "5", "--no-autosave"])
    screen = t.wait()
    screen = t.send(keys_of(screen)[0])
    assert_fits(t, screen)
    asked = t.send("quit", "question")
    assert asked[-1].strip().endswith("Leave anyway? (y/N)") or any("Leave anyway? (y/N)" in x for x in asked)
    stay = t.send("n")
    assert any("Staying in the game." in x for x in stay) and not t.dead()
    t.send("quit", "question")
    t.send("y", "end")
    assert t.dead()
    assert any("You left the game." in x for x in t.lines())
