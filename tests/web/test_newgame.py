"""The new-game screen's opponents (an agent level, the Automa with Threat), the rules at hand, the
board's zoom and pan, and the replay viewer (also of a downloaded record), all by clicks."""

from __future__ import annotations

import json
import random
import urllib.request
from pathlib import Path
from typing import Any

from tests.web.conftest import ARTIFACTS
from tests.web.test_browser import new_game, play_to_the_end

VIEWBOX = "() => document.querySelector('svg.board').getAttribute('viewBox')"


def engine_refusal(base: str, url: str, typed: str) -> str:
    """What the server answers a move ``typed`` now, over the game's own socket (the engine's words)."""
    from websockets.sync.client import connect

    game, token = url.split("/games/")[1].split("#token=")
    with connect(f"{base.replace('http', 'ws')}/ws/games/{game}?token={token}&since=0", max_size=1 << 24) as c:
        st = json.loads(c.recv(timeout=30))
        c.send(json.dumps({"type": "move", "seq": st["seq"], "msg_id": f"probe-{typed}", "action": typed}))
        while True:
            m = json.loads(c.recv(timeout=30))
            if m["type"] == "refused":
                return str(m["message"])


def choices(base: str) -> dict[str, Any]:
    with urllib.request.urlopen(base + "/api/choices") as r:
        out: dict[str, Any] = json.load(r)
    return out


def test_new_game_offers_the_servers_choices(server: Any, watched: Any) -> None:
    w = watched()
    w.page.goto(server.http + "/")
    ch = choices(server.http)
    w.page.get_by_label("An agent").check()
    offered = w.page.get_by_label("Agent level").locator("option").all_text_contents()
    assert offered == ch["agents"] and {"random", "aggressive", "heuristic", "ismcts:hard"} <= set(offered)
    w.page.get_by_label("The Automa (solo rules)").check()
    levels = w.page.get_by_label("Automa level").locator("option").all_text_contents()
    assert levels == [str(n) for n in ch["automa_levels"]] == ["1", "2", "3", "4", "5"]
    assert w.page.get_by_label("Threat variant").is_visible()
    maps = w.page.get_by_label("Map side").locator("option").all_text_contents()
    assert maps == ["Random", *(m["name"] for m in ch["map_sides"])]
    factions = w.page.get_by_label("Faction").locator("option").all_text_contents()
    assert factions == ["Random", *(f["name"] for f in ch["factions"])]
    # a variant changes the seats' pickers: two Expeditions seats have two mech pickers
    w.page.locator("select[name=variant]").select_option(label="Expeditions vs Expeditions")
    assert w.page.get_by_label("Mech").count() == 2 and w.page.get_by_label("Faction").count() == 0
    assert w.problems == []


def test_agent_level_at_phone_size_with_rules_tips_and_zoom(server: Any, watched: Any) -> None:
    w = watched(375, 667)
    page = w.page
    new_game(w, server.http, "An agent", pick={"Agent level": "heuristic", "You play": "Expeditions"})
    page.locator("svg.board").wait_for()
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "board-375x667.png"), full_page=True)
    # zoom and pan: buttons, keyboard, drag
    full = page.evaluate(VIEWBOX)
    page.get_by_role("button", name="Zoom in").click()
    assert page.get_by_test_id("zoom").text_content() == "125%"
    page.get_by_label("Board: + and − zoom", exact=False).focus()
    page.keyboard.press("+")
    assert page.get_by_test_id("zoom").text_content() == "156%"
    before = page.evaluate(VIEWBOX)
    page.keyboard.press("ArrowRight")
    assert page.evaluate(VIEWBOX) != before
    box = page.locator("svg.board").bounding_box()
    assert box is not None
    before = page.evaluate(VIEWBOX)
    page.mouse.move(box["x"] + 100, box["y"] + 100)
    page.mouse.down()
    page.mouse.move(box["x"] + 160, box["y"] + 140, steps=4)
    page.mouse.up()
    assert page.evaluate(VIEWBOX) != before
    page.get_by_role("button", name="Reset the board view").click()
    assert page.evaluate(VIEWBOX) == full and page.get_by_test_id("zoom").text_content() == "100%"
    # rules at hand: a card's text on hover (title) and on tap (the info line); the rules panel
    tip = page.locator("[data-testid=seat1] button.tip").first
    text = tip.get_attribute("title") or ""
    assert len(text) > 20
    tip.click()
    assert text in (page.get_by_test_id("info").text_content() or "")
    page.get_by_role("button", name="Close the text").click()
    produce = page.locator("[data-testid=seat0] .sections button.tip", has_text="produce").first
    assert "Scythe top action" in (produce.get_attribute("title") or "")  # a mat's action: the glossary
    assert page.locator("g.loc title").first.text_content()
    page.get_by_role("button", name="Rules", exact=True).click()
    rules = page.get_by_test_id("rules")
    rules.locator("summary", has_text="combat").click()
    assert "Power Dial" in (rules.text_content() or "")
    rules.get_by_label("Find a word").fill("vanquish")
    found = rules.locator("dt").all_text_contents()
    assert "vanquish" in found and 1 <= len(found) < 6  # the words whose entry mentions it
    page.get_by_role("button", name="Close rules").click()
    # wrong input in the action box: the engine's own words, and the decision stays
    page.locator("button.option").first.wait_for()
    prompt = page.get_by_test_id("prompt").text_content()
    for typed in ("fly to the moon", "E boast 99"):
        page.get_by_label("Action", exact=True).fill(typed)
        page.get_by_label("Action", exact=True).press("Enter")
        page.get_by_test_id("refusal").wait_for()
        assert page.get_by_test_id("refusal").text_content() == engine_refusal(server.http, page.url, typed)
        assert page.get_by_test_id("prompt").text_content() == prompt
    play_to_the_end(w, random.Random(5))
    assert "turn limit" in (page.get_by_test_id("gameover").text_content() or "")
    assert w.problems == []


def test_automa_game_then_its_replay_and_its_record(server: Any, watched: Any, tmp_path: Path) -> None:
    w = watched()
    page = w.page
    new_game(w, server.http, "The Automa (solo rules)", pick={"Automa level": "3"}, check=("Threat variant",))
    page.locator("button.option").first.wait_for()
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "board-1440x900.png"))
    play_to_the_end(w, random.Random(11))
    assert "turn limit" in (page.get_by_test_id("gameover").text_content() or "")
    assert page.locator(".log li.seat1").count() > 0  # the Automa played its seat
    with page.expect_download() as dl:
        page.get_by_role("button", name="Download the record").click()
    record = tmp_path / "record.json"
    dl.value.save_as(record)
    assert json.loads(record.read_text())["setup"]["automa"]["threat"] is True
    # the replay: from the end, to the start, step, jump to a turn, the spectator's view
    page.get_by_role("link", name="Watch the replay").click()
    page.wait_for_url("**/replay#token=*")
    step = page.get_by_test_id("replay-step")
    step.wait_for()
    n = int((step.text_content() or "").split(" of ")[1])
    assert n > 5 and step.text_content() == f"Step {n} of {n}"
    page.get_by_role("button", name="To the start").click()
    page.get_by_text(f"Step 0 of {n}").wait_for()
    page.get_by_role("button", name="Step forward").click()
    page.get_by_text(f"Step 1 of {n}").wait_for()
    page.get_by_role("button", name="Step forward").click()
    page.get_by_text(f"Step 2 of {n}").wait_for()
    page.get_by_role("button", name="Step back").click()
    page.get_by_text(f"Step 1 of {n}").wait_for()
    assert page.get_by_test_id("replay-events").locator("li").count() > 0
    page.get_by_label("Jump to turn").fill("3")
    page.get_by_role("button", name="Go").click()
    page.wait_for_function("() => !document.querySelector('header').textContent.includes('Step 1 of')")
    # the first step at or after turn 3 (an Automa turn may pass within one step)
    head = page.locator("header").text_content() or ""
    turn = int(head.split("turn ")[1].split("Step")[0])
    at = int(head.split("Step ")[1].split(" of")[0])
    assert 3 <= turn <= 4 and 1 < at < n
    assert page.get_by_text("Your combat cards").count() == 1  # the seat's own view shows its own cards
    page.get_by_label("View as").select_option(label="a spectator")
    page.get_by_text("Spectator's view").wait_for()
    assert page.get_by_text("Your combat cards").count() == 0
    assert f"turn {turn}" in (page.locator("header").text_content() or "")
    assert w.problems == []
    # the downloaded record, opened from the home page, replays from the spectator's seat
    w2 = watched(375, 667)
    w2.page.goto(server.http + "/")
    w2.page.get_by_label("Record file").set_input_files(str(record))
    w2.page.wait_for_url("**/replay#token=*")
    w2.page.get_by_text(f"Step {n} of {n}").wait_for()
    assert w2.page.get_by_text("Spectator's view").count() == 1 and w2.page.get_by_label("View as").count() == 0
    assert w2.problems == []
