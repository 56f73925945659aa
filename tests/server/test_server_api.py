"""The HTTP and WebSocket API in one process (Starlette's TestClient, SQLite)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from meloch.engine import Setup, apply, new_game, view
from meloch.server.app import Settings, create_app


@pytest.fixture
def client(sqlite_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(Settings(db_url=sqlite_url, rate=1000, burst=1000))) as c:
        yield c


def create(c: TestClient, kinds: tuple[str, str] = ("human", "human"), **body: Any) -> dict[str, Any]:
    r = c.post("/api/games", json={"seats": [{"kind": k} for k in kinds], **body})
    assert r.status_code == 201, r.text
    out: dict[str, Any] = r.json()
    return out


def ws_url(g: dict[str, Any], seat: int | None, since: int = 0) -> str:
    tok = g["spectator_token"] if seat is None else g["seats"][seat]["token"]
    return f"/ws/games/{g['game_id']}?token={tok}&since={since}"


def until(ws: Any, kind: str) -> dict[str, Any]:
    while True:
        m: dict[str, Any] = ws.receive_json()
        if m["type"] == kind:
            return m


def deciding(states: dict[int, dict[str, Any]]) -> int:
    return next(s for s, m in states.items() if m["options"])


def move(ws: Any, state: dict[str, Any], action: str, msg_id: str, seq: int | None = None) -> dict[str, Any]:
    ws.send_json({"type": "move", "seq": state["seq"] if seq is None else seq, "msg_id": msg_id, "action": action})
    while True:
        m: dict[str, Any] = ws.receive_json()
        if m["type"] in ("ack", "refused", "error"):
            return m


def test_views_options_and_pushes(client: TestClient) -> None:
    g = create(client)
    with client.websocket_connect(ws_url(g, 0)) as w0, client.websocket_connect(ws_url(g, 1)) as w1, \
            client.websocket_connect(ws_url(g, None)) as ws:
        st = {0: until(w0, "state"), 1: until(w1, "state")}
        spec = until(ws, "state")
        assert spec["seat"] is None and spec["options"] == [] and spec["view"]["seat"] is None
        d = deciding(st)
        other = 1 - d
        assert st[other]["options"] == [] and st[d]["decision"]["seat"] == d
        # options are the engine's described options, not bare notation
        opt = st[d]["options"][0]
        assert set(opt) == {"action", "label", "group", "cost", "gain", "refs", "free"} and opt["label"]
        assert st[other]["forced"] is False and spec["forced"] is False
        # the engine's own view for each seat, nothing added or removed
        assert st[0]["view"]["seats"][0].get("hand_combat") is not None
        assert "hand_combat" not in st[1]["view"]["seats"][0]
        conn = (w0, w1)
        ack = move(conn[d], st[d], st[d]["options"][0]["action"], "a1")
        assert ack == {"type": "ack", "msg_id": "a1", "seq": 1}
        for s, w in ((0, w0), (1, w1), (None, ws)):
            m = until(w, "state")
            assert m["seq"] == 1 and [b["seq"] for b in m["events"]] == [1] and m["seat"] == s
            seen = m["events"][0]["events"]  # typed SeenEvents, each with its text
            assert seen and all(set(e) >= {"kind", "seat", "text", "private"} and e["text"] for e in seen)


def test_retry_is_idempotent_and_stale_moves_are_refused_with_the_fresh_state(client: TestClient) -> None:
    g = create(client)
    with client.websocket_connect(ws_url(g, 0)) as w0, client.websocket_connect(ws_url(g, 1)) as w1:
        st = {0: until(w0, "state"), 1: until(w1, "state")}
        d = deciding(st)
        w = (w0, w1)[d]
        action = st[d]["options"][0]["action"]
        assert move(w, st[d], action, "m1")["type"] == "ack"
        fresh = until(w, "state")
        assert move(w, st[d], action, "m1") == {"type": "ack", "msg_id": "m1", "seq": 1}  # answered from the log
        r = move(w, st[d], action, "m2", seq=0)
        assert r["type"] == "refused" and r["code"] == "stale"
        again = until(w, "state")
        assert again["seq"] == 1 and again["view"] == fresh["view"] and again["events"] == []
        info = client.get(f"/api/games/{g['game_id']}",
                          headers={"authorization": f"Bearer {g['seats'][0]['token']}"}).json()
        assert info["seq"] == 1


def test_refusals_carry_the_engine_code(client: TestClient) -> None:
    g = create(client)
    with client.websocket_connect(ws_url(g, 0)) as w0, client.websocket_connect(ws_url(g, 1)) as w1, \
            client.websocket_connect(ws_url(g, None)) as ws:
        st = {0: until(w0, "state"), 1: until(w1, "state")}
        until(ws, "state")
        d = deciding(st)
        mine, theirs = (w0, w1)[d], (w0, w1)[1 - d]
        tag = st[d]["view"]["tags"][d]
        other_tag = st[d]["view"]["tags"][1 - d]
        assert move(mine, st[d], "nonsense", "x1")["code"] == "bad_notation"
        assert move(mine, st[d], f"{tag} fly 99", "x2")["code"] in ("wrong_decision", "illegal_choice")
        assert move(mine, st[d], f"{other_tag} section 1", "x3")["code"] == "not_your_seat"
        assert move(theirs, st[1 - d], f"{other_tag} section 1", "x4")["code"] == "not_your_turn"
        assert move(ws, st[d], st[d]["options"][0]["action"], "x5")["code"] == "spectator"
        assert move(mine, st[d], st[d]["options"][0]["action"], "x6")["type"] == "ack"


def test_malformed_messages_get_clear_errors_and_change_nothing(sqlite_url: str) -> None:
    with TestClient(create_app(Settings(db_url=sqlite_url, rate=1000, burst=1000, max_message=1000))) as c:
        g = create(c)
        with c.websocket_connect(ws_url(g, 0)) as w:
            first = until(w, "state")
            for bad in ("garbage", "[1]", '{"type": "move"}', '{"type": "fly"}',
                        json.dumps({"type": "move", "seq": 0, "msg_id": "a", "action": "S x", "extra": 1}),
                        json.dumps({"type": "move", "seq": "0", "msg_id": "a", "action": "S x"}),
                        json.dumps({"type": "move", "seq": 0, "msg_id": "a" * 65, "action": "S x"}),
                        "x" * 5000):
                w.send_text(bad)
                m = w.receive_json()
                assert m["type"] == "error" and m["code"] in ("bad_message", "too_large") and m["message"], bad
            w.send_bytes(b"\x00\x01")
            assert w.receive_json()["code"] == "bad_message"
            w.send_json({"type": "sync", "since": 0})
            again = until(w, "state")
            assert again["seq"] == first["seq"] and again["view"] == first["view"]


def test_rate_limit(sqlite_url: str) -> None:
    with TestClient(create_app(Settings(db_url=sqlite_url, rate=0.001, burst=3))) as c:
        g = create(c)
        with c.websocket_connect(ws_url(g, 0)) as w:
            until(w, "state")
            for _ in range(3):
                w.send_json({"type": "ping"})
                assert w.receive_json()["type"] == "pong"
            w.send_json({"type": "ping"})
            assert w.receive_json()["code"] == "rate_limited"


def test_origin_and_tokens_are_checked(client: TestClient) -> None:
    g, other = create(client), create(client)
    with pytest.raises(WebSocketDisconnect), \
            client.websocket_connect(ws_url(g, 0), headers={"origin": "http://evil.example"}) as w:
        w.receive_json()
    with client.websocket_connect(ws_url(g, 0), headers={"origin": "http://testserver"}) as w:
        assert until(w, "state")["seat"] == 0
    for url in (f"/ws/games/{g['game_id']}?token=wrong", f"/ws/games/{g['game_id']}?token={other['seats'][0]['token']}",
                f"/ws/games/nope?token={g['seats'][0]['token']}"):
        with client.websocket_connect(url) as w:
            m = w.receive_json()
            assert m["type"] == "error" and m["code"] in ("bad_token", "no_game")
            with pytest.raises(WebSocketDisconnect):
                w.receive_json()
    r = client.get(f"/api/games/{g['game_id']}", headers={"authorization": f"Bearer {other['seats'][0]['token']}"})
    assert r.status_code == 403 and r.json()["code"] == "bad_token"


def test_reconnect_receives_exactly_what_it_missed(client: TestClient) -> None:
    g = create(client)
    with client.websocket_connect(ws_url(g, 0)) as w0, client.websocket_connect(ws_url(g, 1)) as w1:
        st = {0: until(w0, "state"), 1: until(w1, "state")}
        assert st[0]["seq"] == 0
    seen = 0
    # seat 1 leaves; moves are made by whoever decides (each seat reconnecting briefly to move)
    for i in range(4):
        for s in (0, 1):
            with client.websocket_connect(ws_url(g, s, since=10**6)) as w:
                m = until(w, "state")
                assert m["events"] == []  # 'since' beyond the log: nothing twice
                if m["options"]:
                    assert move(w, m, m["options"][0]["action"], f"k{i}")["type"] == "ack"
                    seen = m["seq"] + 1
    with client.websocket_connect(ws_url(g, 1, since=1)) as w:
        m = until(w, "state")
        assert [b["seq"] for b in m["events"]] == list(range(2, seen + 1))


def _play_until(c: TestClient, g: dict[str, Any], pred: Any, limit: int = 400) -> tuple[Any, Any, dict[int, Any]]:
    w0 = c.websocket_connect(ws_url(g, 0)).__enter__()
    w1 = c.websocket_connect(ws_url(g, 1)).__enter__()
    st = {0: until(w0, "state"), 1: until(w1, "state")}
    for i in range(limit):
        d = deciding(st)
        if pred(st, d):
            return w0, w1, st
        w = (w0, w1)[d]
        assert move(w, st[d], st[d]["options"][-1 if i % 3 else 0]["action"], f"p{i}")["type"] == "ack"
        st = {0: until(w0, "state"), 1: until(w1, "state")}
    raise AssertionError("no position found")


def test_undo_is_a_log_entry_and_only_for_your_own_last_action(client: TestClient) -> None:
    g = create(client)
    w0, w1, st = _play_until(client, g, lambda st, d: st[d]["seq"] > 0 and st[d]["can_undo"])
    try:
        d = deciding(st)
        w = (w0, w1)[d]
        # the opponent cannot undo the deciding seat's action
        (w0, w1)[1 - d].send_json({"type": "undo", "seq": st[d]["seq"], "msg_id": "u0"})
        r = until((w0, w1)[1 - d], "refused")
        assert r["code"] == "cannot_undo"
        before_seq = st[d]["seq"]
        w.send_json({"type": "undo", "seq": before_seq, "msg_id": "u1"})
        assert until(w, "ack")["seq"] == before_seq + 1
        after = until(w, "state")
        assert after["seq"] == before_seq + 1 and after["events"][0]["kind"] == "undo"
        assert after["view"]["step"] == st[d]["view"]["step"] - 1  # the state before the undone action
    finally:
        w0.__exit__(None, None, None)
        w1.__exit__(None, None, None)


def test_lobby_join_and_zombie_seat(client: TestClient) -> None:
    g = create(client, ("human", "open"), public=True)
    lobby = client.get("/api/lobby").json()
    assert [x["game_id"] for x in lobby] == [g["game_id"]] and lobby[0]["open_seats"] == [1]
    j = client.post(f"/api/games/{g['game_id']}/join", json={}).json()
    assert j["seat"] == 1 and len(j["token"]) >= 22
    assert client.get("/api/lobby").json() == []
    assert client.post(f"/api/games/{g['game_id']}/join", json={}).status_code == 409
    g["seats"][1]["token"] = j["token"]
    with client.websocket_connect(ws_url(g, 1)) as w:
        until(w, "state")
        # seat 1 is connected: seat 0 cannot hand it to an agent
        r = client.post(f"/api/games/{g['game_id']}/seats/1/agent", json={},
                        headers={"authorization": f"Bearer {g['seats'][0]['token']}"})
        assert r.status_code == 400 and r.json()["code"] == "seat_active"
    # a player hands their own seat to an agent: the agent plays it from now on
    r = client.post(f"/api/games/{g['game_id']}/seats/1/agent", json={},
                    headers={"authorization": f"Bearer {g['seats'][1]['token']}"})
    assert r.status_code == 200 and r.json()["seats"][1]["kind"] == "agent"
    with client.websocket_connect(ws_url(g, 1)) as w:
        assert w.receive_json()["code"] == "bad_token"
    with client.websocket_connect(ws_url(g, 0)) as w:
        m = until(w, "state")
        movers = {b["seat"] for b in m["events"]}
        for i in range(6):  # whenever seat 0 decides it moves; the agent answers for seat 1
            while not m["options"]:
                m = until(w, "state")
                movers |= {b["seat"] for b in m["events"]}
            assert move(w, m, m["options"][0]["action"], f"z{i}")["type"] == "ack"
            m = until(w, "state")
            movers |= {b["seat"] for b in m["events"]}
        assert 1 in movers


def test_agent_game_record_export_load_and_import(client: TestClient, tmp_path: Path) -> None:
    g = create(client, ("agent", "agent"), setup={"turn_limit": 20})
    with client.websocket_connect(ws_url(g, None)) as w:
        m = until(w, "state")
        while m["status"] == "playing":
            m = until(w, "state")
    assert m["outcome"] is not None
    auth = {"authorization": f"Bearer {g['spectator_token']}"}
    rec = client.get(f"/api/games/{g['game_id']}/record", headers=auth).json()
    assert {"setup", "content_version", "seed", "actions"} <= rec.keys() and len(rec["actions"]) == m["seq"]
    # the engine replays it to the same end; meloch play --load reads it
    st = new_game(msgspec.convert(rec["setup"], Setup), rec["seed"])
    for a in rec["actions"]:
        st = apply(st, a)
    assert msgspec.json.encode(view(st, None)) == msgspec.json.encode(m["view"])
    from meloch.cli.play import load_game, resume

    path = tmp_path / "game.json"
    path.write_text(json.dumps(rec))
    assert len(resume(load_game(path)).actions) == len(rec["actions"])
    imp = client.post("/api/games/import", json=rec)
    assert imp.status_code == 201
    i = imp.json()
    with client.websocket_connect(f"/ws/games/{i['game_id']}?token={i['spectator_token']}") as w:
        m2 = until(w, "state")
        assert m2["status"] == "imported" and m2["seq"] == len(rec["actions"]) and len(m2["events"]) == m2["seq"]
        w.send_json({"type": "move", "seq": m2["seq"], "msg_id": "q", "action": "S section 1"})
        assert until(w, "error")["code"] == "spectator"
    bad = client.post("/api/games/import", json={**rec, "content_version": "0000"})
    assert bad.status_code == 400 and bad.json()["code"] == "content_version"
    bad = client.post("/api/games/import", json={**rec, "actions": [*rec["actions"][:3], "S fly"]})
    assert bad.status_code == 400 and bad.json()["code"] == "bad_record"


def test_record_waits_for_the_end_and_http_limits(sqlite_url: str) -> None:
    with TestClient(create_app(Settings(db_url=sqlite_url, max_body=2000))) as c:
        g = create(c)
        r = c.get(f"/api/games/{g['game_id']}/record", headers={"authorization": f"Bearer {g['spectator_token']}"})
        assert r.status_code == 409 and r.json()["code"] == "not_over"
        r = c.post("/api/games/import", content=b'{"setup": {}, "seed": 1, "actions": ["' + b"x" * 3000 + b'"]}',
                   headers={"content-type": "application/json"})
        assert r.status_code == 413
        r = c.post("/api/games", json={"seats": [{"kind": "robot"}, {"kind": "human"}]})
        assert r.status_code == 422
        r = c.post("/api/games", json={"setup": {"map_side": "moon"}})
        assert r.status_code == 400 and r.json()["code"] == "bad_setup"
        assert "/api/games" in c.get("/openapi.json").json()["paths"]


def test_map_geometry_for_the_browser_board(client: TestClient) -> None:
    m = client.get("/api/maps/jungle").json()
    ids = {x["id"] for x in m["locations"]}
    assert {"home-s", "home-e", "1", "10"} <= ids and all(isinstance(x["x"], float) for x in m["locations"])
    assert any(e["river"] for e in m["edges"]) and all(e["a"] in ids and e["b"] in ids for e in m["edges"])
    bad = client.get("/api/maps/moon")
    assert bad.status_code == 400 and bad.json()["code"] == "not_found"


def test_a_seat_played_by_the_solo_automa(client: TestClient) -> None:
    """``automa:N`` seats the engine's Automa (a setup option, stored with the game); the human plays
    the other seat as usual and the Automa's turns arrive as events."""
    r = client.post("/api/games", json={"seats": [{"kind": "human"}, {"kind": "agent", "agent": "automa:2"}],
                                        "setup": {"turn_limit": 12}})
    assert r.status_code == 201, r.text
    g = r.json()
    with client.websocket_connect(ws_url(g, 0)) as w:
        m = until(w, "state")
        assert m["view"]["automa"] is not None
        texts: list[str] = []
        n = 0
        while m["status"] == "playing" and n < 40:
            if m["options"]:
                w.send_json({"type": "move", "seq": m["seq"], "msg_id": f"m{n}", "action": m["options"][0]["action"]})
                n += 1
            m = until(w, "state")
            texts += [e["text"] for b in m["events"] for e in b["events"]]
    assert any("Automa" in t for t in texts), texts[-10:]
    bad = client.post("/api/games", json={"seats": [{"kind": "human"}, {"kind": "agent", "agent": "automa:9"}]})
    assert bad.status_code == 400 and "automa" in bad.text
