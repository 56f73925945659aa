"""Whole games in a real browser, by clicks only: what a newcomer does with the mouse.

The test picks which visible option to click (seeded), the page does everything else: the new-game
form, the pass-the-device screen, forced decisions, the game-over screen. Games use a short turn
limit (``turn_limit`` on the new-game form) so they end in seconds, with the "turn limit" reason.
"""

from __future__ import annotations

import random
import re
import time
from typing import Any

from playwright.sync_api import Error as PlaywrightError

from tests.web.conftest import ARTIFACTS, Watched, try_click

TURN_LIMIT = 6
HOTSEAT_TURNS = 120  # the game ends with a winner long before
SEQ = "() => document.querySelector('header.status')?.dataset.seq ?? null"
SEQ_MOVED = ("s => { const h = document.querySelector('header.status');"
             " return !h || h.dataset.seq !== s || document.querySelector('[data-testid=gameover]'); }")


def new_game(w: Watched, base: str, opponent: str, turn_limit: int = TURN_LIMIT,
             pick: dict[str, str] | None = None, check: tuple[str, ...] = (),
             named: dict[str, str] | None = None) -> None:
    """Fill the new-game form (``pick``: select label -> option text; ``named``: select name -> value;
    ``check``: checkbox labels) and start."""
    page = w.page
    page.goto(base + "/")
    page.get_by_label(opponent).check()
    for label, option in (pick or {}).items():
        page.get_by_label(label).select_option(label=option)
    for name, value in (named or {}).items():
        page.locator(f"select[name={name}]").select_option(value)
    for label in check:
        page.get_by_label(label).check()
    page.get_by_label("Turn limit").fill(str(turn_limit))
    page.get_by_role("button", name="Start game").click()
    page.wait_for_url("**/games/**")


def play_to_the_end(w: Watched, rng: random.Random, limit: int = 400) -> dict[str, int]:
    """Click options until the game-over screen shows; returns what was clicked, by kind."""
    page = w.page
    clicks = {"option": 0, "board": 0, "pass": 0}
    # ``limit`` counts clicks; waiting for the other seat (an agent thinking, slowly on a loaded
    # machine) counts against a deadline instead
    deadline = time.monotonic() + 300
    while sum(clicks.values()) < limit:
        assert time.monotonic() < deadline, f"no game-over screen after 300 s ({clicks})"
        if page.get_by_test_id("gameover").is_visible():
            return clicks
        pass_btn = page.get_by_role("button", name="show my turn")
        if pass_btn.count():
            pass_btn.click()
            clicks["pass"] += 1
            continue
        targets = page.locator("g.loc.target")
        buttons = page.locator("button.option")
        n_t, n_b = targets.count(), buttons.count()
        if n_b == 0:
            page.wait_for_timeout(50)
            continue
        before = page.evaluate(SEQ)
        if before is None:  # the page moved on (pass screen) since it was counted
            continue
        if n_t and rng.random() < 0.5:
            if not try_click(targets.nth(rng.randrange(n_t))):
                continue
            clicks["board"] += 1
            opts = page.locator("button.option")  # a location with several options lists them
            if page.get_by_text("show all").count() and opts.count() and \
                    not try_click(opts.nth(rng.randrange(opts.count()))):
                continue
        else:
            if not try_click(buttons.nth(rng.randrange(n_b))):
                continue
            clicks["option"] += 1
        # the click was taken when the log grows (or the page moved on to a pass or game-over screen)
        page.wait_for_function(SEQ_MOVED, arg=before, timeout=10_000)
    raise AssertionError(f"no game-over screen after {limit} steps")


def play_by_hints(w: Watched, limit: int = 3000) -> dict[str, int]:
    """Both seats on this device: for each decision the page's **Hint** asks the server's heuristic
    agent (it sees only the deciding seat's view) which option to take, and the test clicks it: on the
    mat, track or card it names when the page offers that target (a ``choose`` button titled with the
    option), else its button (the Power Dial's number during a combat). Returns the clicks by kind."""
    page = w.page
    clicks = {"option": 0, "target": 0, "dial": 0, "pass": 0}
    for _ in range(limit):
        if page.get_by_test_id("gameover").is_visible():
            return clicks
        pass_btn = page.get_by_role("button", name="show my turn")
        if pass_btn.count():
            # the previous seat's secrets are gone from the page: no board, mat or hand behind it
            assert page.locator(".game").count() == 0 and page.locator("[data-testid=seat0]").count() == 0
            pass_btn.click()
            clicks["pass"] += 1
            continue
        if not page.locator("button.option").count():
            page.wait_for_timeout(50)
            continue
        before = page.evaluate(SEQ)
        if before is None or not try_click(page.get_by_role("button", name="Hint", exact=True)):
            continue
        hint = page.get_by_test_id("hint")
        try:
            hint.wait_for(timeout=10_000)
        except PlaywrightError:
            continue  # the decision changed meanwhile (a forced one was taken)
        action, label = hint.get_attribute("data-action"), hint.locator("strong").text_content()
        assert (hint.get_by_test_id("hint-reason").text_content() or "").startswith(": ")  # why, in a line
        refs = page.locator("button.pickref")
        titles: list[str] = refs.evaluate_all("bs => bs.map(b => b.title)")
        at = next((i for i, t in enumerate(titles) if t == label or t.startswith(f"{label} (")), None)
        if at is not None and try_click(refs.nth(at)):
            clicks["target"] += 1
            listed = page.locator(f"button.option[data-action={css_str(action)}]")
            page.wait_for_function("s => { const h = document.querySelector('header.status');"
                                   " return !h || h.dataset.seq !== s || document.querySelector('.optbar')"
                                   "?.textContent.includes('show all'); }", arg=before, timeout=10_000)
            if page.evaluate(SEQ) == before and listed.count():  # it costs or gains something: listed first
                try_click(listed.first)
        else:
            dial = page.locator(f"[data-testid=dial] button[data-action={css_str(action)}]")
            btn = dial if dial.count() else page.locator(f"button.option[data-action={css_str(action)}]")
            if not try_click(btn.first):
                continue
            clicks["dial" if dial.count() else "option"] += 1
        page.wait_for_function(SEQ_MOVED, arg=before, timeout=10_000)
    raise AssertionError(f"no game-over screen after {limit} steps")


def css_str(s: str | None) -> str:
    return '"' + (s or "").replace("\\", "\\\\").replace('"', '\\"') + '"'


def test_hot_seat_game_from_new_game_to_winner_screen(server: Any, watched: Any) -> None:
    """A whole hot-seat game, both seats played by clicking what the heuristic agent suggests, to the
    winner screen (the Expeditions seat under the experience-disparity handicap, 2 stars to win, so
    the game is short); on the way: the Triumph Track's progress and the Meloch row's benefits."""
    w = watched()
    page = w.page
    new_game(w, server.http, "A friend on this device", turn_limit=HOTSEAT_TURNS, named={"stars1": "2"})
    assert "E wins with 2 stars" in (page.locator(".track h2").text_content() or "")
    page.locator("[data-testid=progress-0-1]").wait_for()
    first = page.get_by_test_id("progress-0-1").text_content() or ""
    assert re.search(r"\d+/\d+", first), first  # each seat's progress toward each box
    assert re.search(r"\d+/\d+", page.get_by_test_id("progress-1-1").text_content() or "")
    clicks = play_by_hints(w)
    over = page.get_by_test_id("gameover").text_content() or ""
    assert ("E wins" in over and "2 stars" in over) or ("S wins" in over and "4 stars" in over), over
    assert clicks["pass"] > 0 and clicks["target"] > 0 and clicks["option"] > 5, clicks
    assert "Facing" in (page.get_by_test_id("meloch-facing").text_content() or "")
    # the log filtered by kind: only star lines, one per star placed
    page.get_by_label("Filter log by kind").select_option("star")
    kinds = page.locator(".log li").evaluate_all("ls => ls.map(l => l.dataset.kind)")
    assert kinds and set(kinds) == {"star"}
    seat0 = page.get_by_label("Filter log by seat").locator("option[value='0']").text_content() or ""
    page.get_by_label("Filter log by seat").select_option(label=seat0)  # by its name, as a player reads it
    assert seat0.strip() and page.locator(".log li").count() <= len(kinds)
    assert all(c == "seat0" for c in page.locator(".log li").evaluate_all("ls => ls.map(l => l.className)"))
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "hotseat-over-1440x900.png"))
    assert w.problems == []


UNNAMED = """() => [...document.querySelectorAll('button, select, input, a[href], [role=button]')].filter(e => {
  const name = (e.getAttribute('aria-label') || e.textContent || e.getAttribute('title') || '').trim();
  const labelled = e.labels && e.labels.length > 0;
  return !name && !labelled && e.type !== 'hidden';
}).map(e => e.outerHTML.slice(0, 120))"""


def focus_in_options(page: Any, moves: int) -> None:
    """Wait for the focus to be in the options; on a timeout, say where it is and what the log last
    showed (this wait is where a lost focus shows)."""
    try:
        page.wait_for_function("() => !!document.activeElement?.closest('#options')", timeout=10_000)
    except PlaywrightError as e:
        where = page.evaluate("() => { const a = document.activeElement;"
                              " return a ? `${a.tagName}#${a.id}.${a.className}` : null; }")
        log = page.locator(".log li").all_text_contents()[-6:]
        raise AssertionError(f"after {moves} moves the focus is on {where}, not in the options;"
                             f" the log ends {log}") from e


def test_keyboard_play_focus_order_and_labels(server: Any, watched: Any) -> None:
    """The new-game form and a game against an agent with the keyboard alone: Tab reaches the form's
    controls in reading order and the Start button; in the game the first Tab is "Skip to your
    options", Tab then Enter takes an option, and focus comes back to the options after each move;
    the first choice is undone (Undo) and the decision comes back. Every control has a name a screen
    reader can read."""
    w = watched()
    page = w.page
    page.goto(server.http + "/")
    page.get_by_role("button", name="Start game").wait_for()
    assert page.evaluate(UNNAMED) == []
    order: list[str] = []
    for _ in range(60):
        page.keyboard.press("Tab")
        order.append(page.evaluate("() => document.activeElement.textContent.trim() || document.activeElement.name"))
        if order[-1] == "Start game":
            break
    assert order[0] == "Rules" and order[1] == "opp" and order[-1] == "Start game", order
    page.get_by_label("Turn limit").fill(str(TURN_LIMIT))  # (typing a number: still the keyboard)
    page.get_by_role("button", name="Start game").focus()
    page.keyboard.press("Enter")
    page.wait_for_url("**/games/**")
    moves = 0
    # waits for the agent's turn count against a deadline, not a number of polls (a loaded machine
    # thinks slowly: a count of polls flaked on CI in test_online, stop 57)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if page.get_by_test_id("gameover").is_visible() or moves >= 8:
            break
        if not page.locator("button.option").count():
            page.wait_for_timeout(50)
            continue
        before = page.evaluate(SEQ)
        if moves == 0:
            page.keyboard.press("Tab")
            assert page.evaluate("() => document.activeElement.textContent") == "Skip to your options"
            page.keyboard.press("Enter")
        # (focus returns once the new decision is drawn: waited for, a loaded machine draws late)
        focus_in_options(page, moves)
        page.keyboard.press("Tab")  # Hint
        if page.evaluate("() => document.activeElement.textContent") == "Hint":
            page.keyboard.press("Tab")
        assert page.evaluate("() => document.activeElement.classList.contains('option')")
        prompt = page.get_by_test_id("prompt").text_content()
        page.keyboard.press("Enter")
        page.wait_for_function(SEQ_MOVED, arg=before, timeout=10_000)
        moves += 1
        if moves == 1:
            # undo where the engine allows it: the first choice of the turn (a section) is taken back
            undo = page.get_by_role("button", name="Undo")
            undo.wait_for(timeout=10_000)
            undone = page.evaluate(SEQ)
            undo.click()
            page.wait_for_function(SEQ_MOVED, arg=undone, timeout=10_000)
            assert page.get_by_test_id("prompt").text_content() == prompt
            assert page.locator(".log li[data-kind=undo]").count() == 1
            page.locator("#options").focus()
        # focus returns to the options once it is this seat's turn again
        page.wait_for_function("() => !document.querySelector('#options') || document.activeElement.id === 'options'"
                               " || !!document.querySelector('[data-testid=gameover]')", timeout=10_000)
    assert moves >= 5
    assert page.evaluate(UNNAMED) == []
    assert w.problems == []
