"""``meloch bench-server``: start real servers on loopback and measure them with scripted clients.

Five runs, each usable alone (the tests call them with small numbers):

- ``round_trips``: N concurrent games, both seats scripted, random legal moves; move -> ack
  round trip p50/p99, moves/s, the server's CPU time and peak memory.
- ``durability``: SIGKILL the server at random points during play, restart it, resend the move
  that was in flight (same message id), and check every acknowledged move is in the log and every
  game's stored state (snapshot + log) replays to the same state hash as a replay from scratch.
- ``races``: two connections of the deciding seat send a move on the same sequence number at
  once (on two processes when several are given): exactly one is accepted each time.
- ``fuzz``: malformed messages (wrong types, unknown fields, huge strings, binary frames, bad
  tokens, another game's id, moves for the other seat): each gets one clear error, the server
  stays up and the game does not change.
- ``hidden``: a full game through the server; every message a seat received equals what the
  engine's ``view``/``events_for`` give that seat, byte for byte, and never contains the seed.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import json
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

Echo = Callable[[str], None]
_decode = msgspec.json.Decoder(dict[str, Any]).decode


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class ServerProc:
    """``meloch serve`` in a subprocess on a loopback port (restartable on the same port and database)."""

    def __init__(self, db: str, port: int | None = None, extra: tuple[str, ...] = ()) -> None:
        self.db, self.port, self.extra = db, port or free_port(), extra
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = tempfile.TemporaryFile()  # noqa: SIM115  (the server's output, kept for error messages)

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self, timeout: float = 60.0) -> None:
        cmd = [sys.executable, "-m", "meloch.cli.main", "serve", "--port", str(self.port), "--db", self.db,
               "--agent-delay", "0", "--rate", "1000000", "--burst", "1000000", "--log-level", "warning",
               *self.extra]
        self.proc = subprocess.Popen(cmd, stdout=self.log, stderr=self.log)
        atexit.register(self.kill)  # never leave a server behind, even when the bench is interrupted
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited with {self.proc.returncode}: {self.output()[-2000:]}")
            try:
                with urllib.request.urlopen(self.http + "/healthz", timeout=1) as r:
                    if r.status == 200:
                        return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError(f"the server did not answer within {timeout:.0f} s: {self.output()[-2000:]}")

    def output(self) -> str:
        self.log.seek(0)
        return self.log.read().decode(errors="replace")

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
            self.proc.wait()

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()

    def cpu_seconds(self) -> float:
        assert self.proc is not None
        fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def peak_rss_mb(self) -> float:
        assert self.proc is not None
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
        return 0.0


def http_json(method: str, url: str, body: Any = None, token: str | None = None) -> tuple[int, Any]:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, method=method, headers={"content-type": "application/json"})
    if token:
        req.add_header("authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, json.loads(r.read() or b"null")
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read() or b"null")


async def create_game(base: str, setup: dict[str, Any] | None = None, seats: list[dict[str, Any]] | None = None,
                      ) -> dict[str, Any]:
    body = {"setup": setup or {}, "seats": seats or [{"kind": "human"}, {"kind": "human"}]}
    status, out = await asyncio.to_thread(http_json, "POST", base + "/api/games", body)
    if status != 201:
        raise RuntimeError(f"create failed: {status} {out}")
    result: dict[str, Any] = out
    return result


def pct(xs: list[float], p: float) -> float:
    if not xs:
        return float("nan")
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p / 100 * len(xs)))]


# ---------------------------------------------------------------- a scripted seat


@dataclass
class Seat:
    """One scripted connection: keeps the latest state, answers with random legal moves."""

    ws_base: str
    game: str
    token: str
    rng: random.Random
    state: dict[str, Any] | None = None
    seq: int = 0
    ws: ClientConnection | None = None
    messages: list[str] = field(default_factory=list)
    keep: bool = False
    acked: list[tuple[int, str, str]] = field(default_factory=list)
    """(seq, action, msg_id) of every acknowledged move."""
    latencies: list[float] = field(default_factory=list)
    seen_events: list[int] = field(default_factory=list)

    async def open(self) -> None:
        uri = f"{self.ws_base}/ws/games/{self.game}?token={self.token}&since={self.seq}"
        self.ws = await connect(uri, max_size=1 << 24, ping_interval=None, open_timeout=30)
        await self.until_state()

    async def recv(self) -> dict[str, Any]:
        assert self.ws is not None
        raw = await self.ws.recv()
        text = raw if isinstance(raw, str) else raw.decode()
        if self.keep:
            self.messages.append(text)
        msg: dict[str, Any] = _decode(text)  # msgspec: the clients share the server's 2 cores, keep them light
        if msg["type"] == "state":
            self.state = msg
            self.seq = msg["seq"]
            self.seen_events.extend(b["seq"] for b in msg["events"])
        return msg

    async def until_state(self) -> dict[str, Any]:
        while True:
            m = await self.recv()
            if m["type"] == "state":
                return m

    async def move(self, action: str, msg_id: str, seq: int | None = None) -> dict[str, Any]:
        """Send a move and wait for its ack or refusal (state pushes in between are taken in)."""
        assert self.ws is not None
        t0 = time.perf_counter()
        await self.ws.send(json.dumps({"type": "move", "seq": self.seq if seq is None else seq, "msg_id": msg_id,
                                       "action": action}))
        while True:
            m = await self.recv()
            if m["type"] in ("ack", "refused") and m["msg_id"] == msg_id:
                if m["type"] == "ack":
                    self.latencies.append(time.perf_counter() - t0)
                    self.acked.append((m["seq"], action, msg_id))
                return m
            if m["type"] == "error":
                return m

    def my_turn(self) -> bool:
        return bool(self.state and self.state["options"])

    def over(self) -> bool:
        return bool(self.state and self.state["status"] != "playing")

    async def close(self) -> None:
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await self.ws.close()


async def play_pair(a: Seat, b: Seat, max_seq: int, deadline: float, think: float = 0.0) -> None:
    """Both seats of a game play random legal moves until ``max_seq`` entries or the end.

    ``think``: mean seconds a seat waits before each move (uniform on 0..2*think); 0 plays flat out.
    """

    async def run(me: Seat) -> None:
        n = 0
        while time.monotonic() < deadline:
            if me.over() or me.seq >= max_seq:
                return
            if me.my_turn():
                assert me.state is not None
                action = me.rng.choice(me.state["options"])["action"]
                n += 1
                if think:
                    await asyncio.sleep(me.rng.uniform(0, 2 * think))
                m = await me.move(action, f"{id(me)}-{n}")
                if m["type"] == "refused" and m["code"] != "stale":
                    raise RuntimeError(f"legal move refused: {m}")
                if m["type"] == "ack" and (me.state is None or me.state["seq"] < m["seq"]):
                    await me.until_state()
            else:
                try:
                    await asyncio.wait_for(me.until_state(), timeout=max(0.1, deadline - time.monotonic()))
                except TimeoutError:
                    return

    await asyncio.gather(run(a), run(b))


# ---------------------------------------------------------------- 1. round trips


@dataclass
class RoundTrips:
    think: float
    games: int
    moves: int
    seconds: float
    p50_ms: float
    p99_ms: float
    moves_per_s: float
    cpu_s: float
    cpu_pct: float
    rss_mb: float


async def round_trips(server: ServerProc, games: int, moves: int, seed: int, think: float = 0.0) -> RoundTrips:
    rng = random.Random(seed)
    created = await asyncio.gather(*[create_game(server.http) for _ in range(games)])
    pairs = []
    for g in created:
        pairs.append((Seat(server.ws, g["game_id"], g["seats"][0]["token"], random.Random(rng.random())),
                      Seat(server.ws, g["game_id"], g["seats"][1]["token"], random.Random(rng.random()))))
    sem = asyncio.Semaphore(50)

    async def opened(s: Seat) -> None:
        async with sem:
            await s.open()

    await asyncio.gather(*[opened(s) for p in pairs for s in p])
    cpu0, t0 = server.cpu_seconds(), time.perf_counter()
    await asyncio.gather(*[play_pair(a, b, moves, time.monotonic() + 900, think) for a, b in pairs])
    secs = time.perf_counter() - t0
    cpu = server.cpu_seconds() - cpu0
    lat = [x for p in pairs for s in p for x in s.latencies]
    for p in pairs:
        for s in p:
            await s.close()
    return RoundTrips(think, games, len(lat), secs, pct(lat, 50) * 1000, pct(lat, 99) * 1000, len(lat) / secs, cpu,
                      100 * cpu / secs, server.peak_rss_mb())


# ---------------------------------------------------------------- 2. durability


@dataclass
class Durability:
    kills: int
    games: int
    acked: int
    undos: int
    missing: list[str]
    mismatched: list[str]
    snapshots_checked: int


async def _undo(s: Seat, msg_id: str, seq: int) -> dict[str, Any]:
    assert s.ws is not None
    await s.ws.send(json.dumps({"type": "undo", "seq": seq, "msg_id": msg_id}))
    while True:
        m = await s.recv()
        if m["type"] in ("ack", "refused", "error") and m.get("msg_id", msg_id) == msg_id:
            return m


async def durability(db_url: str, kills: int, games: int, seed: int, echo: Echo | None = None) -> Durability:
    from meloch.server import engine_port as port
    from meloch.server.storage import Store

    rng = random.Random(seed)
    server = ServerProc(db_url)
    server.start()
    created: list[dict[str, Any]] = []
    seats: list[Seat] = []
    undos: list[tuple[str, int, str]] = []
    """(game, seq, msg_id) of every acknowledged undo."""

    async def slot(k: int) -> None:
        """Play game after game (a new one when one ends); survive the server dying at any point."""
        n = 0
        while True:
            try:
                g = await create_game(server.http)
            except (OSError, RuntimeError):
                await asyncio.sleep(0.1)
                continue
            created.append(g)
            pair = [Seat(server.ws, g["game_id"], g["seats"][i]["token"], random.Random(rng.random())) for i in (0, 1)]
            seats.extend(pair)
            target = 0
            pending: tuple[Seat, int, str, str] | None = None
            while True:
                try:
                    for s in pair:
                        if s.ws is None:
                            await s.open()
                    if pending is not None:  # in flight when the server died: resend it, same message id
                        mover, seq, action, mid = pending
                        m = await (mover.move(action, mid, seq=seq) if action else _undo(mover, mid, seq))
                        if m["type"] == "ack" and not action:
                            undos.append((mover.game, m["seq"], mid))
                        target = max(target, m.get("seq", 0) if m["type"] == "ack" else 0)
                        pending = None
                    for s in pair:
                        while s.seq < target:
                            await s.until_state()
                    if any(s.over() for s in pair):
                        break
                    mover = pair[0] if pair[0].my_turn() else pair[1]
                    assert mover.state is not None
                    n += 1
                    mid = f"d{k}-{n}"
                    if mover.state["can_undo"] and mover.rng.random() < 0.15:
                        pending = (mover, mover.seq, "", mid)
                        m = await _undo(mover, mid, mover.seq)
                        if m["type"] == "ack":
                            undos.append((mover.game, m["seq"], mid))
                    else:
                        action = mover.rng.choice(mover.state["options"])["action"]
                        pending = (mover, mover.seq, action, mid)
                        m = await mover.move(action, mid)
                    pending = None
                    target = m["seq"] if m["type"] == "ack" else mover.seq
                except (ConnectionClosed, OSError, InvalidStatus, TimeoutError):
                    for s in pair:
                        await s.close()
                        s.ws = None
                    await asyncio.sleep(0.05)

    def acked() -> int:
        return sum(len(s.acked) for s in seats) + len(undos)

    tasks = [asyncio.create_task(slot(k)) for k in range(games)]
    try:
        for k in range(kills):
            await asyncio.sleep(rng.uniform(0.2, 1.2))
            server.kill()
            if echo:
                echo(f"  kill {k + 1}/{kills}: {acked()} moves acknowledged so far")
            await asyncio.sleep(rng.uniform(0.0, 0.2))
            await asyncio.to_thread(server.start)
            before = acked()
            t_end = time.monotonic() + 20
            while acked() < before + 20 and time.monotonic() < t_end:
                await asyncio.sleep(0.05)  # play has resumed: the next kill lands during play
        await asyncio.sleep(0.5)
    finally:
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for s in seats:
            await s.close()
        server.stop()
    store = Store(db_url)
    missing, mismatched, snaps = [], [], 0
    try:
        for s in seats:
            log = {e.seq: e for e in store.entries(s.game)}
            for seq, action, mid in s.acked:
                e = log.get(seq)
                if e is None or e.msg_id != mid or e.kind != "move" or e.action != action:
                    missing.append(f"{s.game}#{seq} {action} ({mid})")
        for gid, seq, mid in undos:
            found = store.entry_by_msg(gid, 0, mid) or store.entry_by_msg(gid, 1, mid)
            if found is None or found.seq != seq or found.kind != "undo":
                missing.append(f"{gid}#{seq} undo ({mid})")
        for g in created:
            from meloch.server.service import GameService

            svc = GameService(store)
            rt = svc._load(g["game_id"])  # snapshot + log, as the server loads it
            full = _replay_from_scratch(store, g["game_id"])
            if port.state_digest(rt.state) != port.state_digest(full):
                mismatched.append(g["game_id"])
            for seq in store.snapshot_seqs(g["game_id"]):
                data = store.snapshot(g["game_id"], seq)
                assert data is not None
                snaps += 1
                if port.state_digest(port.snapshot_decode(data)) != port.state_digest(rt.state_of(seq)):
                    mismatched.append(f"{g['game_id']} snapshot {seq}")
    finally:
        store.close()
    return Durability(kills, len(created), acked(), len(undos), missing, mismatched, snaps)


def _replay_from_scratch(store: Any, game_id: str) -> Any:
    """The current state from the setup, the seed and the log alone (no snapshot, no server code)."""
    from meloch.server import engine_port as port

    g = store.game(game_id)
    st = port.initial_state(port.decode_setup(g.setup), g.seed)
    stack = [st]
    for e in store.entries(game_id):
        if e.kind == "move":
            stack.append(port.move(stack[-1], e.seat, e.action)[0])
        else:
            stack.pop()
    return stack[-1]


# ---------------------------------------------------------------- 3. races


@dataclass
class Races:
    pairs: int
    exactly_one: int
    failures: list[str]


async def races(servers: list[ServerProc], pairs: int, seed: int) -> Races:
    rng = random.Random(seed)
    done, ok, failures = 0, 0, []
    while done < pairs:
        g = await create_game(servers[0].http)
        conns = {i: [Seat(servers[j % len(servers)].ws, g["game_id"], g["seats"][i]["token"],
                          random.Random(rng.random())) for j in range(2)] for i in (0, 1)}
        for cs in conns.values():
            for c in cs:
                await c.open()
        while done < pairs:
            seat = next((i for i in (0, 1) if conns[i][0].my_turn() or conns[i][1].my_turn()), None)
            if seat is None:
                # wait for some connection to learn of the new state
                if any(c.over() for cs in conns.values() for c in cs):
                    break
                await asyncio.wait([asyncio.ensure_future(c.until_state()) for cs in conns.values() for c in cs],
                                   return_when=asyncio.FIRST_COMPLETED, timeout=5)
                continue
            a, b = conns[seat]
            for c in (a, b):  # both must stand on the same sequence number
                while not c.my_turn() or c.seq != max(a.seq, b.seq):
                    await c.until_state()
            seq = a.seq
            assert a.state is not None and b.state is not None
            ra, rb = await asyncio.gather(a.move(rng.choice(a.state["options"])["action"], f"r{done}a", seq),
                                          b.move(rng.choice(b.state["options"])["action"], f"r{done}b", seq))
            kinds = sorted([ra["type"], rb["type"]])
            stale = [r for r in (ra, rb) if r["type"] == "refused"]
            if kinds == ["ack", "refused"] and stale[0]["code"] == "stale":
                ok += 1
            else:
                failures.append(f"race {done} at seq {seq}: {ra} / {rb}")
            done += 1
            # let every connection catch up to the winner's state
            for cs in conns.values():
                for c in cs:
                    while c.seq < seq + 1:
                        await c.until_state()
        for cs in conns.values():
            for c in cs:
                await c.close()
    return Races(done, ok, failures)


# ---------------------------------------------------------------- 4. fuzz


@dataclass
class Fuzz:
    messages: int
    clear_errors: int
    failures: list[str]
    state_unchanged: bool


def _fuzz_message(rng: random.Random, seq: int, other_seat_action: str) -> str | bytes:
    k = rng.randrange(14)
    junk = "".join(chr(rng.randrange(32, 0x2FF)) for _ in range(rng.randrange(1, 40)))
    if k == 0:
        return junk
    if k == 1:
        return json.dumps([1, 2, 3])
    if k == 2:
        return json.dumps({"type": rng.choice(["move", "undo", "sync", "x", 5, None])})
    if k == 3:
        return json.dumps({"type": "move", "seq": rng.choice(["1", -1, 1.5, None, [], 1 << 70]), "msg_id": "f",
                           "action": "S section 1"})
    if k == 4:
        return json.dumps({"type": "move", "seq": seq, "msg_id": "f", "action": "S section 1", junk: 1})
    if k == 5:
        return json.dumps({"type": "move", "seq": seq, "msg_id": "f", "action": "x" * rng.randrange(201, 7000)})
    if k == 6:
        return "x" * rng.randrange(9000, 60000)
    if k == 7:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 64)))
    if k == 8:
        return json.dumps({"type": "move", "seq": seq, "msg_id": f"f{rng.random()}", "action": junk})
    if k == 9:
        return json.dumps({"type": "move", "seq": seq, "msg_id": f"f{rng.random()}", "action": other_seat_action})
    if k == 10:
        return json.dumps({"type": "move", "seq": seq, "msg_id": "", "action": "S section 1"})
    if k == 11:
        return json.dumps({"type": "sync", "since": junk})
    if k == 12:
        return json.dumps({"type": "undo", "seq": seq, "msg_id": "m" * 65})
    return json.dumps({"type": "move", "seq": seq, "msg_id": f"f{rng.random()}", "action": f"S {junk}"})


async def fuzz(server: ServerProc, count: int, seed: int) -> Fuzz:
    rng = random.Random(seed)
    g = await create_game(server.http)
    other = await create_game(server.http)
    s = Seat(server.ws, g["game_id"], g["seats"][1]["token"], rng)  # the seat that is not deciding at the start
    await s.open()
    assert s.state is not None
    seq0, view0 = s.seq, json.dumps(s.state["view"], sort_keys=True)
    other_action = "S section 1"
    failures: list[str] = []
    clear = 0
    sent = 0
    while sent < count:
        k = rng.randrange(20)
        sent += 1
        if k == 0:  # a wrong token, or a token of another game, on connect
            real = g["seats"][0]["token"]
            wrong = real[:-1] + ("B" if real.endswith("A") else "A")  # never the real token itself
            tok = rng.choice([wrong, other["seats"][0]["token"], "", "x" * 500])
            gid = rng.choice([g["game_id"], other["game_id"] if tok != other["seats"][0]["token"] else g["game_id"],
                              "nope", "a" * 40])
            try:
                async with connect(f"{server.ws}/ws/games/{gid}?token={tok}", open_timeout=10) as ws:
                    m = json.loads(await ws.recv())
                    if m.get("type") == "error" and m.get("code") in ("bad_token", "no_game"):
                        clear += 1
                    else:
                        failures.append(f"bad token accepted: {m.get('type')} for game {gid}")
            except (ConnectionClosed, InvalidStatus) as err:
                failures.append(f"bad token: no clear error ({err})")
            continue
        if k == 1:  # HTTP: malformed bodies and foreign tokens
            choice = rng.randrange(3)
            if choice == 0:
                st, out = await asyncio.to_thread(http_json, "POST", server.http + "/api/games",
                                                  {"seats": [{"kind": "robot"}], "junk": 1})
                good = st == 422
            elif choice == 1:
                st, out = await asyncio.to_thread(http_json, "GET", f"{server.http}/api/games/{g['game_id']}",
                                                  None, other["seats"][0]["token"])
                good = st == 403
            else:
                st, out = await asyncio.to_thread(http_json, "POST", server.http + "/api/games/import",
                                                  {"setup": {"map_side": 7}, "seed": "x", "actions": [1]})
                good = st in (400, 422)
            if good:
                clear += 1
            else:
                failures.append(f"HTTP fuzz {choice}: {st} {out}")
            continue
        msg = _fuzz_message(rng, s.seq, other_action)
        assert s.ws is not None
        await s.ws.send(msg)
        while True:
            m = await s.recv()
            if m["type"] == "state":
                if m["seq"] != seq0:
                    failures.append(f"state changed to seq {m['seq']} after {msg!r:.80}")
                continue
            break
        if m["type"] in ("error", "refused") and m.get("code") and m.get("message"):
            clear += 1
        else:
            failures.append(f"no clear error for {msg!r:.80}: {m}")
    assert s.ws is not None
    await s.ws.send(json.dumps({"type": "sync", "since": s.seq}))
    final = await s.until_state()
    unchanged = final["seq"] == seq0 and json.dumps(final["view"], sort_keys=True) == view0
    await s.close()
    return Fuzz(sent, clear, failures, unchanged)


# ---------------------------------------------------------------- 5. hidden information


@dataclass
class Hidden:
    messages: int
    states: int
    entries: int
    failures: list[str]
    outcome: Any


async def hidden(server: ServerProc, seed: int, setup: dict[str, Any] | None = None) -> Hidden:
    """Play a whole game through the server, then check every message against the engine alone."""
    import msgspec

    from meloch.engine import Setup, apply, decision, events_for, new_game, options, view
    from meloch.server.engine_port import public_extras

    rng = random.Random(seed)
    g = await create_game(server.http, setup)
    a = Seat(server.ws, g["game_id"], g["seats"][0]["token"], random.Random(rng.random()), keep=True)
    b = Seat(server.ws, g["game_id"], g["seats"][1]["token"], random.Random(rng.random()), keep=True)
    spec = Seat(server.ws, g["game_id"], g["spectator_token"], rng, keep=True)
    for s in (a, b, spec):
        await s.open()

    async def watch() -> None:
        while not spec.over():
            await spec.until_state()

    watcher = asyncio.create_task(watch())
    await play_pair(a, b, 1 << 30, time.monotonic() + 1800)
    await asyncio.wait_for(watcher, 60)
    status, rec = await asyncio.to_thread(http_json, "GET", f"{server.http}/api/games/{g['game_id']}/record", None,
                                          g["seats"][0]["token"])
    if status != 200:
        raise RuntimeError(f"record: {status} {rec}")
    for s in (a, b, spec):
        await s.close()
    setup_obj = msgspec.convert(rec["setup"], Setup)
    states = [new_game(setup_obj, rec["seed"])]
    for x in rec["actions"]:
        states.append(apply(states[-1], x))
    enc = msgspec.json.Encoder()
    failures: list[str] = []
    n_states = 0
    secret = str(rec["seed"])
    keys = {"type", "game", "seat", "seq", "status", "view", "decision", "options", "forced", "can_undo", "events",
            "outcome", "progress", "meloch_facing"}
    for who, s in ((0, a), (1, b), (None, spec)):
        for raw in s.messages:
            if secret in raw:
                failures.append(f"seat {who}: a message contains the seed")
            m = json.loads(raw)
            if m["type"] != "state":
                continue
            n_states += 1
            if set(m) != keys:
                failures.append(f"seat {who}: unexpected keys {sorted(set(m) ^ keys)}")
            st = states[m["seq"]]  # no undo in this run: entry n is the n-th action
            if enc.encode(m["view"]) != enc.encode(view(st, who)):
                failures.append(f"seat {who} seq {m['seq']}: view differs from the engine's view for this seat")
            if m["decision"] != m["view"]["decision"]:
                failures.append(f"seat {who} seq {m['seq']}: decision differs from the view's")
            d = decision(st)
            mine = d is not None and d.seat == who
            if enc.encode(m["options"]) != enc.encode(options(st) if mine else []):
                failures.append(f"seat {who} seq {m['seq']}: options differ from the engine's described options")
            if m["forced"] != (mine and d is not None and d.forced):
                failures.append(f"seat {who} seq {m['seq']}: forced differs from the engine's decision")
            # the same public figures for every seat and spectators, as the engine computes them
            extras = public_extras(st)
            if m["progress"] != extras["progress"] or m["meloch_facing"] != extras["meloch_facing"]:
                failures.append(f"seat {who} seq {m['seq']}: progress or Meloch benefits differ from the engine's")
            for batch in m["events"]:
                if enc.encode(batch["events"]) != enc.encode(events_for(states[batch["seq"]].events, who)):
                    failures.append(f"seat {who} entry {batch['seq']}: events differ from events_for")
        if sorted(s.seen_events) != list(range(1, len(rec["actions"]) + 1)):
            failures.append(f"seat {who}: events not received exactly once each")
    return Hidden(sum(len(s.messages) for s in (a, b, spec)), n_states, len(rec["actions"]), failures,
                  rec["outcome"])


# ---------------------------------------------------------------- the command


def main(games: int, moves: int, kills: int, races: int, fuzz: int, hidden: bool, db: str, seed: int,
         echo: Echo, think: tuple[float, ...] = (0.0,), extra: tuple[str, ...] = ()) -> bool:
    return asyncio.run(_main(games, moves, kills, races, fuzz, hidden, db, seed, echo, think, extra))


async def _main(n_games: int, n_moves: int, n_kills: int, n_races: int, n_fuzz: int, do_hidden: bool, db: str,
                seed: int, echo: Echo, think: tuple[float, ...], extra: tuple[str, ...]) -> bool:
    ok = True
    tmp = tempfile.mkdtemp(prefix="meloch-bench-")

    def url(name: str) -> str:
        return db or f"sqlite:///{tmp}/{name}.db"

    echo(f"meloch bench-server ({os.cpu_count()} cores; database {'given' if db else 'SQLite in ' + tmp})")
    for i, th in enumerate(think if n_games else ()):
        server = ServerProc(url(f"rt{i}"), extra=extra)
        server.start()
        try:
            r = await round_trips(server, n_games, n_moves, seed, th)
        finally:
            server.stop()
        pace = f"think {th:g} s/move" if th else "flat out"
        echo(f"round trips ({pace}): {r.games} concurrent games, {r.moves} moves in {r.seconds:.1f} s: move->ack p50 "
             f"{r.p50_ms:.1f} ms, p99 {r.p99_ms:.1f} ms (target <= 100 ms), {r.moves_per_s:.0f} moves/s; "
             f"server CPU {r.cpu_s:.1f} s ({r.cpu_pct:.0f}% of one core), peak RSS {r.rss_mb:.0f} MB")
    if n_kills:
        d = await durability(url("kill"), n_kills, 6, seed, echo)
        good = not d.missing and not d.mismatched
        ok &= good
        echo(f"durability: {d.kills} SIGKILLs, {d.acked} acknowledged entries ({d.undos} undos) in {d.games} games: "
             f"{len(d.missing)} missing, {len(d.mismatched)} replay mismatches, {d.snapshots_checked} snapshots "
             f"checked -> {'ok' if good else 'FAIL'}")
        for x in (d.missing + d.mismatched)[:10]:
            echo(f"  {x}")
    if n_races:
        servers = [ServerProc(url("race"))]
        if db.startswith("postgresql"):
            servers.append(ServerProc(url("race")))
        for s in servers:
            s.start()
        try:
            rr = await races(servers, n_races, seed)
        finally:
            for s in servers:
                s.stop()
        ok &= rr.exactly_one == rr.pairs
        echo(f"races: {rr.pairs} pairs of simultaneous moves on one sequence number ({len(servers)} process(es)): "
             f"exactly one accepted in {rr.exactly_one} -> {'ok' if rr.exactly_one == rr.pairs else 'FAIL'}")
        for x in rr.failures[:10]:
            echo(f"  {x}")
    if n_fuzz:
        server = ServerProc(url("fuzz"))
        server.start()
        try:
            f = await fuzz(server, n_fuzz, seed)
            alive = server.proc is not None and server.proc.poll() is None
        finally:
            server.stop()
        good = f.clear_errors == f.messages and not f.failures and f.state_unchanged and alive
        ok &= good
        echo(f"fuzz: {f.messages} malformed messages: {f.clear_errors} clear errors, server "
             f"{'up' if alive else 'DOWN'}, state {'unchanged' if f.state_unchanged else 'CHANGED'} -> "
             f"{'ok' if good else 'FAIL'}")
        for x in f.failures[:10]:
            echo(f"  {x}")
    if do_hidden:
        server = ServerProc(url("hidden"))
        server.start()
        try:
            h = await hidden(server, seed)
        finally:
            server.stop()
        ok &= not h.failures
        echo(f"hidden information: a full game of {h.entries} actions ({h.outcome}); {h.messages} messages, "
             f"{h.states} states checked byte for byte against view/events_for -> {'ok' if not h.failures else 'FAIL'}")
        for x in h.failures[:10]:
            echo(f"  {x}")
    return ok
