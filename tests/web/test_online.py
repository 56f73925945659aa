"""Online play by invite link (two browser contexts and a spectator), reload-resume, and combat secrecy."""

from __future__ import annotations

import json
import random
import re
import time
import urllib.request
from typing import Any

from websockets.sync.client import ClientConnection, connect

from tests.web.conftest import Watched, try_click
from tests.web.test_browser import SEQ, SEQ_MOVED, new_game


def seq_of(w: Watched) -> int:
    return int(w.page.evaluate(SEQ) or -1)


def click_any(w: Watched, rng: random.Random) -> None:
    before = str(seq_of(w))
    buttons = w.page.locator("button.option")
    n = buttons.count()
    if n == 0:  # the options went away meanwhile (a forced decision was taken for the player)
        return
    if try_click(buttons.nth(rng.randrange(n))):
        w.page.wait_for_function(SEQ_MOVED, arg=before, timeout=10_000)


def where(*ws: Watched) -> list[dict[str, Any]]:
    """What each page shows: its seq, prompt, options and whether the game is over (a stall's report)."""
    return [w.page.evaluate("() => ({seq: document.querySelector('header.status')?.dataset.seq,"
                            " prompt: document.querySelector('[data-testid=prompt]')?.textContent,"
                            " options: [...document.querySelectorAll('button.option')].map(b => b.textContent),"
                            " over: !!document.querySelector('[data-testid=gameover]')})") for w in ws]


def test_online_game_by_invite_link_with_a_spectator_and_a_reload(server: Any, watched: Any) -> None:
    a, b, spec = watched(), watched(), watched(375, 667)
    new_game(a, server.http, "A friend by invite link")
    invite = a.page.get_by_test_id("invite").input_value()
    spectate = a.page.get_by_test_id("spectate").input_value()
    assert "#token=" in invite and invite != a.page.url
    b.page.goto(invite)
    spec.page.goto(spectate)
    spec.page.get_by_text("Spectator").wait_for()
    rng = random.Random(7)
    reloaded = False
    clicks = 0
    # clicks are bounded by a count, and the game must move within a minute: a fixed number of loop
    # turns (waits included) ran out before the game ended on CI once (stop 57), with nothing said
    # about where it stood
    moved_at, last_seq = time.monotonic(), seq_of(a)
    while clicks < 400:
        a_over = a.page.get_by_test_id("gameover")
        if a_over.count() and a_over.is_visible():
            break
        if seq_of(a) != last_seq:
            moved_at, last_seq = time.monotonic(), seq_of(a)
        assert time.monotonic() - moved_at < 60, f"the game stood still for 60 s after {clicks} clicks: {where(a, b)}"
        for w in (a, b):
            if w.page.locator("button.option").count():
                click_any(w, rng)
                clicks += 1
                break
        else:
            a.page.wait_for_timeout(50)
            continue
        if not reloaded and seq_of(a) >= 20:
            b.page.reload()  # mid-game: the page resumes where it was, from its link alone
            b.page.locator("svg.board").wait_for()
            b.page.wait_for_function("s => Number(document.querySelector('header.status')?.dataset.seq) >= s",
                                     arg=seq_of(a))
            assert seq_of(b) == seq_of(a)
            reloaded = True
    assert reloaded
    for w in (a, b, spec):
        w.page.get_by_test_id("gameover").wait_for()
        assert "turn limit" in (w.page.get_by_test_id("gameover").text_content() or "")
    assert spec.page.locator("button.option").count() == 0
    assert a.problems == [] and b.problems == [] and spec.problems == []


# ------------------------------------------------------------------- combat secrecy


def _state(c: ClientConnection, at_least: int = 0) -> dict[str, Any]:
    while True:
        m: dict[str, Any] = json.loads(c.recv(timeout=30))
        if m["type"] == "state" and m["seq"] >= at_least:
            return m


def _post(url: str, body: Any) -> Any:
    req = urllib.request.Request(url, json.dumps(body).encode(), {"content-type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.loads(r.read())


def game_at_combat(server: Any, rng: random.Random) -> tuple[str, list[str], int, dict[str, Any]] | None:
    """A game played over the API (fight whenever offered, else random) up to a Power Dial decision:
    (game, tokens, the seat that dials first, its state message); None if the game ended first."""
    g = _post(server.http + "/api/games", {"setup": {"turn_limit": 300}})
    tokens = [s["token"] for s in g["seats"]]
    with connect(f"{server.ws}/ws/games/{g['game_id']}?token={tokens[0]}&since=0", max_size=1 << 24) as c0, \
            connect(f"{server.ws}/ws/games/{g['game_id']}?token={tokens[1]}&since=0", max_size=1 << 24) as c1:
        conns = (c0, c1)
        last = [_state(c) for c in conns]
        for i in range(3000):
            if last[0]["outcome"] is not None:
                return None
            d = 0 if last[0]["options"] else 1
            st = last[d]
            them = st["view"]["seats"][1 - d]
            # the other seat must have a dial to choose too: with no power and no card its dial is
            # forced, the reveal follows the first commit at once and the cards are rightly public
            # and it must not have committed already (an attacker with no card to tuck dials unwatched
            # here; the seat now asked would then be the second, and its commit the reveal)
            if (st["decision"]["kind"] == "c_dial" and st["view"]["seats"][d].get("hand_combat")
                    and (them["power"] > 0 or them["combat_cards"] > 0)
                    and not st["view"]["combat"]["committed"][1 - d]):
                return g["game_id"], tokens, d, st
            acts = [o["action"] for o in st["options"] if not o["free"]] or [o["action"] for o in st["options"]]
            fight = [x for x in acts if x.split()[1:3] in (["fight", "yes"], ["vanquish", "attack"])]
            action = fight[0] if fight else rng.choice(acts)
            conns[d].send(json.dumps({"type": "move", "seq": st["seq"], "msg_id": f"d{i}", "action": action}))
            last = [_state(c, st["seq"] + 1) for c in conns]
    return None


def test_combat_secrecy_dial_and_tucked_cards_never_reach_the_other_seat_before_the_reveal(
        server: Any, watched: Any) -> None:
    rng = random.Random(1)
    found = None
    for _ in range(12):
        found = game_at_combat(server, rng)
        if found:
            break
    assert found, "no combat with two real dials in 12 games"
    game, tokens, first, st = found
    other = 1 - first
    secret_cards = [c for c in (st["view"]["seats"][first].get("hand_combat") or [])]
    pages = {}
    frames: dict[int, list[str]] = {first: [], other: []}
    for seat in (first, other):
        w = watched()
        w.page.on("websocket", lambda ws, s=seat: ws.on("framereceived", lambda f: frames[s].append(str(f))))
        w.page.goto(f"{server.http}/games/{game}#token={tokens[seat]}")
        w.page.locator("svg.board").wait_for()
        pages[seat] = w
    me, them = pages[first], pages[other]
    # (a card may have been public once, in a discard pile before a reshuffle: the history the other
    # page loaded may name it; everything sent from the first seat's commitment on must not)
    since_commit = len(frames[other])
    # the secret Power Dial as a dial of numbers, each with its label
    picker = me.page.get_by_test_id("dial")
    picker.wait_for()
    dials = picker.locator("button.option[data-action*=' dial ']")
    dial = dials.count() - 1
    assert dial >= 1 and (dials.nth(dial).text_content() or "").strip() == str(dial)
    before = str(seq_of(me))
    dials.nth(dial).click()  # the highest dial
    me.page.wait_for_function(SEQ_MOVED, arg=before, timeout=10_000)
    tucked: list[str] = []
    # then tuck cards while offered (the tuck options name the card), then finish: until this seat has
    # no option left. Each click waits for its move to land before the page is read again (a loaded
    # machine answers slowly; a stale page would click an old option), and a deadline, not a count of
    # clicks, bounds the loop (a seat may tuck up to one card per character and mech, plus extras).
    deadline = time.monotonic() + 60
    while me.page.locator("button.option").count():
        assert time.monotonic() < deadline, "the first seat's commitment did not finish in 60 s"
        tucks = me.page.locator("button.option[data-action*=' tuck ']:not([data-action$=' done'])")
        is_tuck = tucks.count() > 0
        pick = tucks.first if is_tuck else me.page.locator("button.option").first
        label = pick.text_content() or ""
        before = str(seq_of(me))
        if try_click(pick):
            if is_tuck:
                tucked += [c for c in secret_cards if c in label]
            me.page.wait_for_function(SEQ_MOVED, arg=before, timeout=10_000)
    # the first seat waits for the opponent, which now decides its own dial: nothing of the first
    # seat's choice has reached it
    me.page.get_by_test_id("combat-waiting").wait_for()
    them.page.locator("button.option[data-action*=' dial ']").first.wait_for()
    first_line = them.page.locator(f".combat li[data-seat='{first}']").text_content() or ""
    assert "committed" in first_line and "dial" not in first_line and "cards" not in first_line
    dom = them.page.locator(".game").evaluate(
        "e => { const c = e.cloneNode(true); c.querySelector('.log')?.remove(); return c.outerHTML; }")
    for f in frames[other][since_commit:]:
        m = json.loads(f)
        if m.get("type") == "state" and m["view"]["combat"]:
            c = m["view"]["combat"]
            assert c.get(f"dial_{first}") is None and c.get(f"cards_{first}") is None
    assert tucked, "the first seat tucked no card: the check below would prove little"
    for card in secret_cards:
        # "Fury (3) #1" is a prefix of another instance's "Fury (3) #12": match the whole id only
        pat = re.compile(re.escape(card) + r"(?!\d)")
        if any(pat.search(f) for f in frames[other][:since_commit]):
            continue  # known to the other seat before the commit (e.g. its own peek at the deck top)
        hit = pat.search(dom)
        at = hit.start() if hit else -1
        assert at < 0, f"{card!r} in the other seat's page: ...{dom[max(0, at - 300):at + 100]}"
        for f in frames[other][since_commit:]:
            hit = pat.search(f)
            assert hit is None, f"{card!r} reached the other seat: ...{f[max(0, hit.start() - 400):hit.end() + 100]}"
    assert len(frames[other]) > since_commit  # the other seat was told of each step, without the secrets
    n_before_reveal = len(frames[other])
    them.page.locator("button.option[data-action*=' dial ']").first.click()
    # finish the second seat's commitment (no tuck) and whatever the combat asks next of either seat,
    # then the reveal shows both totals on both pages
    deadline = time.monotonic() + 30  # (a deadline, not a count of polls: a loaded machine is slow)
    while time.monotonic() < deadline:
        if them.page.get_by_test_id("reveal").count() and me.page.get_by_test_id("reveal").count():
            break
        for w in (them, me):
            done = w.page.locator("button.option:not([data-free]):not([data-action*=' tuck '])")
            if not done.count():
                done = w.page.locator("button.option:not([data-free])")
            if done.count():
                before = str(seq_of(w))
                if try_click(done.first):
                    w.page.wait_for_function(SEQ_MOVED, arg=before, timeout=10_000)
                break
        else:
            them.page.wait_for_timeout(100)
    for w in (me, them):
        state = w.page.evaluate("() => [document.querySelector('[data-testid=prompt]')?.textContent,"
                                " document.querySelector('.log ol')?.textContent?.slice(0, 400)]")
        assert w.page.get_by_test_id("reveal").count(), f"no reveal shown: {state}"
        text = w.page.get_by_test_id("reveal").text_content() or ""
        assert text.count("dial") == 2 and " wins" in text
        assert all(card.split(" #")[0].rsplit(" (", 1)[0] in text for card in tucked)
        # each card's effect, from the content's text of that card
        effects = w.page.get_by_test_id("reveal").locator(".effects li").all_text_contents()
        assert len(effects) >= len(tucked) and all(len(e) > len(e.split(":")[0]) + 5 for e in effects), effects
    assert any(card in f for f in frames[other][n_before_reveal:] for card in tucked)  # sent only now
    assert me.problems == [] and them.problems == []


# ------------------------------------------------------------------- links that open nothing


def test_a_link_to_no_game_or_with_a_wrong_token_says_so_and_stops_reconnecting(server: Any, watched: Any) -> None:
    a, stranger = watched(), watched()
    new_game(a, server.http, "A friend by invite link")
    game = a.page.url.split("/games/")[1].split("#")[0]
    a.page.locator("svg.board").wait_for()
    seq = seq_of(a)
    for url, why in ((f"{server.http}/games/{'0' * 12}#token=abc", "there is no such game"),
                     (f"{server.http}/games/{game}#token=not-a-seat", "this token opens no seat of this game")):
        page = stranger.ctx.new_page()
        sockets: list[Any] = []

        def opened(ws: Any, sockets: list[Any] = sockets) -> None:
            sockets.append(ws)

        page.on("websocket", opened)
        page.goto(url)
        refusal = page.get_by_test_id("refusal")
        refusal.wait_for(timeout=10_000)
        assert why in (refusal.text_content() or "")
        assert page.get_by_role("link", name="New game").is_visible()
        assert page.get_by_text("Connecting").count() == 0
        page.wait_for_timeout(2_500)  # the client reconnects after 1 s on any other close
        assert len(sockets) == 1, [s.url for s in sockets]
        page.close()
    assert a.page.locator("svg.board").is_visible() and seq_of(a) == seq  # the real game is untouched
    assert stranger.problems == []
