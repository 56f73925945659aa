"""What the browser client reads besides the game socket: new-game choices, content texts, rules, replays."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import msgspec
import pytest
from fastapi.testclient import TestClient

from meloch.agents import agent_names
from meloch.content import load
from meloch.content.schema import Effect
from meloch.engine import Setup, apply, new_game, view
from meloch.guide import GLOSSARY, TOPICS
from meloch.server.app import Settings, create_app
from tests.server.test_server_api import create, move, until, ws_url


def json_of(x: Any) -> Any:
    return msgspec.json.decode(msgspec.json.encode(x))


@pytest.fixture
def client(sqlite_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(Settings(db_url=sqlite_url, rate=1000, burst=1000))) as c:
        yield c


def test_choices_come_from_the_content_and_the_agent_registry(client: TestClient) -> None:
    ch = client.get("/api/choices").json()
    c = load()
    assert [m["id"] for m in ch["map_sides"]] == list(c.maps)
    assert ch["track_sides"] == sorted(c.tracks)
    assert {v["id"] for v in ch["variants"]} == {"standard", "scythe_vs_scythe", "expeditions_vs_expeditions"}
    assert ch["agents"] == agent_names() and "ismcts:hard" in ch["agents"]
    assert ch["automa_levels"] == [1, 2, 3, 4, 5]
    assert {f["id"] for f in ch["factions"]} == set(c.factions) and {m["id"] for m in ch["mats"]} == set(c.mats)
    assert {m["id"] for m in ch["mechs"]} == set(c.mechs)
    # every stars-to-win choice is one the engine's setup accepts for one seat (experience disparity)
    assert ch["stars_to_win"][0] == 4
    for n in ch["stars_to_win"]:
        seats = [{"role": "scythe"}, {"role": "expeditions", "stars_to_win": n}]
        g = client.post("/api/games", json={"setup": {"seats": seats}})
        assert g.status_code == 201, g.text
    both = client.post("/api/games", json={"setup": {"seats": [{"role": "scythe", "stars_to_win": 3},
                                                                {"role": "expeditions", "stars_to_win": 3}]}})
    assert both.status_code == 400 and "experience-disparity" in both.json()["message"]


def test_content_texts_and_rules(client: TestClient) -> None:
    ct = client.get("/api/content").json()
    by_id = {e["id"]: e for e in ct["entries"]}
    c = load()
    for d in c.cards.values():
        assert d.ability_text in by_id[d.id]["text"]
    for fac in c.factions.values():
        assert fac.ability_text in by_id[fac.ability]["text"]
        for mech in fac.mechs:
            assert mech.text in by_id[mech.ability]["text"]
    assert all(m.ability_text in by_id[m.id]["text"] for m in c.mechs.values())
    assert all(x.name in by_id[x.id]["text"] for x in c.meloch_cards)
    assert "map-token" in by_id and {"track-A-1", "track-B-1"} <= by_id.keys()
    assert set(ct["mats"]) == set(c.mats) and len(ct["mats"]["adventurous"]["sections"]) == 4
    assert ct["tracks"]["A"][0]["scythe"]["label"] == c.tracks["A"].categories[0].scythe.label
    r = client.get("/api/rules").json()
    assert r["topics"] == TOPICS and r["glossary"] == dict(sorted(GLOSSARY.items()))


def play_out(client: TestClient, g: dict[str, Any]) -> dict[str, Any]:
    """Seat 0 (human) takes its first option until the game ends; seat 1 is an agent."""
    with client.websocket_connect(ws_url(g, 0)) as w:
        m = until(w, "state")
        i = 0
        while m["outcome"] is None:
            if m["options"]:
                move(w, m, m["options"][-1]["action"], f"m{i}")
                i += 1
            m = until(w, "state")
    return m


def test_replay_steps_and_viewpoints(client: TestClient) -> None:
    g = create(client, ("human", "agent"), setup={"turn_limit": 8})
    gid, tok0, spec = g["game_id"], g["seats"][0]["token"], g["spectator_token"]

    def get(token: str, **params: Any) -> Any:
        return client.get(f"/api/games/{gid}/replay", params=params, headers={"authorization": f"Bearer {token}"})

    early = client.post("/api/games", json={"seats": [{"kind": "human"}, {"kind": "human"}]}).json()
    r = client.get(f"/api/games/{early['game_id']}/replay",
                   headers={"authorization": f"Bearer {early['spectator_token']}"})
    assert r.status_code == 409 and r.json()["code"] == "not_over"
    end = play_out(client, g)
    last = get(tok0).json()
    assert last["step"] == last["steps"] > 0 and last["outcome"] == end["outcome"] and last["seat"] == 0
    assert len(last["turns"]) == last["steps"] + 1 and last["turns"][-1] == end["view"]["turn"]
    rec = client.get(f"/api/games/{gid}/record", headers={"authorization": f"Bearer {spec}"}).json()
    st = new_game(msgspec.convert(rec["setup"], Setup), rec["seed"])
    for k in range(last["steps"] + 1):
        if k in (0, 1, last["steps"] // 2, last["steps"]):
            own, as_spec, spectator = get(tok0, step=k).json(), get(tok0, step=k, viewpoint="spectator").json(), \
                get(spec, step=k).json()
            # each viewpoint sees exactly what the engine shows that seat (or a spectator) at step k
            assert own["view"] == json_of(view(st, 0))
            assert as_spec["view"] == spectator["view"] == json_of(view(st, None))
            assert "hand_combat" in own["view"]["seats"][0] and "hand_combat" not in own["view"]["seats"][1]
            assert all("hand_combat" not in p for p in spectator["view"]["seats"])
            assert (spectator["events"] == []) == (k == 0)
        if k < last["steps"]:
            st = apply(st, rec["actions"][k])
    assert get(tok0, step=last["steps"] + 1).json()["code"] == "bad_step"
    assert get(tok0, step=-1).status_code == 400
    assert get(tok0, viewpoint="seat1").json()["code"] == "bad_viewpoint"
    assert get("nope").status_code == 403
    # an exported record imported back replays the same, from the spectator's seat
    imp = client.post("/api/games/import", json=rec).json()
    r2 = client.get(f"/api/games/{imp['game_id']}/replay", params={"step": 3},
                    headers={"authorization": f"Bearer {imp['spectator_token']}"}).json()
    assert r2["view"] == get(spec, step=3).json()["view"] and r2["seat"] is None



def test_state_carries_track_progress_and_meloch_facing_and_a_seat_gets_hints(client: TestClient) -> None:
    """The Triumph Track's per-seat progress and the Meloch benefits facing each seat come from the
    engine (``goals``, ``visible_meloch``), the same for both seats and a spectator (state messages
    and replay steps); a hint is the heuristic agent's pick among the seat's own options with a reason, none for
    the other seat (``action`` null) and refused to spectators (403)."""
    from meloch.engine import goals
    from meloch.engine.meloch_cards import visible_meloch
    from meloch.guide import effects_text
    from meloch.server.engine_port import _summed

    # like benefits are added up, choices kept apart
    e = [Effect(op="coins", n=1), Effect(op="power", n=1), Effect(op="coins", n=2), Effect(op="worker", arg="any")]
    assert _summed(e) == [Effect(op="coins", n=3), Effect(op="power", n=1), Effect(op="worker", arg="any")]

    g = create(client, setup={"turn_limit": 6})
    gid = g["game_id"]

    def hint(seat: int | None) -> Any:
        tok = g["spectator_token"] if seat is None else g["seats"][seat]["token"]
        return client.get(f"/api/games/{gid}/hint", headers={"authorization": f"Bearer {tok}"})

    with client.websocket_connect(ws_url(g, 0)) as w0, client.websocket_connect(ws_url(g, 1)) as w1, \
            client.websocket_connect(ws_url(g, None)) as ws:
        conns = (w0, w1)
        last = [until(w0, "state"), until(w1, "state")]
        spec = until(ws, "state")
        assert last[0]["progress"] == last[1]["progress"] == spec["progress"]
        assert last[0]["meloch_facing"] == last[1]["meloch_facing"] == spec["meloch_facing"]
        assert len(last[0]["progress"]) == 2 and all(len(p) == len(last[0]["view"]["track"]) for p in spec["progress"])
        assert hint(None).status_code == 403
        i = 0
        while last[0]["outcome"] is None:
            d = 0 if last[0]["options"] else 1
            other = hint(1 - d).json()
            assert other["action"] is None and other["seq"] == last[d]["seq"]
            h = hint(d).json()
            assert h["action"] in {o["action"] for o in last[d]["options"]} and h["agent"] == "heuristic"
            assert h["label"] == next(o["label"] for o in last[d]["options"] if o["action"] == h["action"])
            assert isinstance(h["reason"], str) and h["reason"] and "Traceback" not in h["reason"]
            assert move(conns[d], last[d], h["action"], f"h{i}")["type"] == "ack"
            i += 1
            last = [until(c, "state") for c in conns]
            assert last[0]["progress"] == last[1]["progress"]
    spec_tok = {"authorization": f"Bearer {g['spectator_token']}"}
    rec = client.get(f"/api/games/{gid}/record", headers=spec_tok).json()
    st = new_game(msgspec.convert(rec["setup"], Setup), rec["seed"])
    steps = len(rec["actions"])
    for k in range(steps + 1):
        if k in (0, steps // 2, steps):
            r = client.get(f"/api/games/{gid}/replay", params={"step": k}, headers=spec_tok).json()
            for seat in (0, 1):
                want = [{"column": c, "label": lab, "have": have, "need": need, "open": op}
                        for c, _m, lab, have, need, op in goals(st, seat)]
                assert r["progress"][seat] == want
                facing = effects_text(_summed(visible_meloch(st, seat))) if st.meloch_row else ""
                assert r["meloch_facing"][seat] == facing
        if k < steps:
            st = apply(st, rec["actions"][k])
    assert r["progress"] == last[0]["progress"] and r["meloch_facing"] == last[0]["meloch_facing"]
