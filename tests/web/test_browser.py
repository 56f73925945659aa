"""Whole games in a real browser, by clicks only: what a newcomer does with the mouse.

The test picks which visible option to click (seeded), the page does everything else: the new-game
form, the pass-the-device screen, forced decisions, the game-over screen. Games use a short turn
limit (``turn_limit`` on the new-game form) so they end in seconds, with the "turn limit" reason.
"""

from __future__ import annotations

import random
from typing import Any

from tests.web.conftest import ARTIFACTS, Watched, try_click

TURN_LIMIT = 6
SEQ = "() => document.querySelector('header.status')?.dataset.seq ?? null"
SEQ_MOVED = ("s => { const h = document.querySelector('header.status');"
             " return !h || h.dataset.seq !== s || document.querySelector('[data-testid=gameover]'); }")


def new_game(w: Watched, base: str, opponent: str, turn_limit: int = TURN_LIMIT,
             pick: dict[str, str] | None = None, check: tuple[str, ...] = ()) -> None:
    """Fill the new-game form (``pick``: select label -> option text; ``check``: checkbox labels) and start."""
    page = w.page
    page.goto(base + "/")
    page.get_by_label(opponent).check()
    for label, option in (pick or {}).items():
        page.get_by_label(label).select_option(label=option)
    for label in check:
        page.get_by_label(label).check()
    page.get_by_label("Turn limit").fill(str(turn_limit))
    page.get_by_role("button", name="Start game").click()
    page.wait_for_url("**/games/**")


def play_to_the_end(w: Watched, rng: random.Random, limit: int = 400) -> dict[str, int]:
    """Click options until the game-over screen shows; returns what was clicked, by kind."""
    page = w.page
    clicks = {"option": 0, "board": 0, "pass": 0}
    for _ in range(limit):
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


def test_hot_seat_game_from_new_game_to_winner_screen(server: Any, watched: Any) -> None:
    w = watched()
    new_game(w, server.http, "A friend on this device")
    clicks = play_to_the_end(w, random.Random(3))
    over = w.page.get_by_test_id("gameover").text_content() or ""
    assert "turn limit" in over and clicks["pass"] > 0 and clicks["option"] + clicks["board"] > 5
    ARTIFACTS.mkdir(exist_ok=True)
    w.page.screenshot(path=str(ARTIFACTS / "hotseat-over-1440x900.png"))
    assert w.problems == []
