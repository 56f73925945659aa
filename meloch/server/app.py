"""The FastAPI application: HTTP for creating, joining, listing and exporting games; a WebSocket per seat.

``create_app(Settings(...))`` builds it; ``meloch serve`` runs it under uvicorn. The API is
documented in ``docs/server.md`` and, for HTTP, in the OpenAPI document at ``/openapi.json``.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import msgspec
from fastapi import FastAPI, Request, WebSocket
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from meloch.server import engine_port as port
from meloch.server.protocol import (
    Created,
    CreateGame,
    Error,
    GameInfo,
    Imported,
    JoinBody,
    Joined,
    LobbyGame,
    Move,
    Ping,
    Pong,
    Record,
    SeatLink,
    Sync,
    Undo,
    ZombieBody,
    client_decoder,
)
from meloch.server.pubsub import PgListener
from meloch.server.service import Conn, GameService, NotFound, Runtime, new_token, token_hash
from meloch.server.storage import NOTIFY_CHANNEL, Store

log = logging.getLogger("meloch.server")

STATIC_DIR = Path(__file__).parent / "static"
"""Where ``npm run build`` in ``web/`` puts the browser client (shipped as package data)."""


def client_page() -> Any:
    page = STATIC_DIR / "index.html"
    if not page.is_file():
        return JSONResponse({"code": "no_client", "message": "The browser client is not built: run `make play` "
                             "(or `cd web && npm ci && npm run build`)."}, status_code=404)
    return FileResponse(page, headers={"cache-control": "no-cache"})


@dataclass
class Settings:
    db_url: str
    allowed_origins: tuple[str, ...] = ()
    """Browser origins allowed to open a WebSocket besides the server's own (``Origin`` == host)."""
    max_message: int = 8192
    """Largest WebSocket text message accepted, in bytes."""
    max_body: int = 1 << 20
    """Largest HTTP request body (an imported record), in bytes."""
    rate: float = 20.0
    """Messages per second a connection may send on average ..."""
    burst: float = 40.0
    """... and at once."""
    agent_delay: float = 0.0
    """Seconds an agent waits before each move (0 in tests and benchmarks)."""
    zombie_after: float = 60.0
    """Seconds a seat must have been without a connection before its opponent may hand it to an agent."""


class ApiError(Exception):
    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


class BodyLimit:
    """Refuse HTTP bodies over ``limit`` bytes with 413, whether or not they announce their length."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app, self.limit = app, limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for k, v in scope.get("headers", []):
            if k == b"content-length" and v.isdigit() and int(v) > self.limit:
                await _too_large(send, self.limit)
                return
        seen = 0

        async def limited() -> Message:
            nonlocal seen
            msg = await receive()
            seen += len(msg.get("body", b""))
            if seen > self.limit:
                raise _BodyTooLarge
            return msg

        try:
            await self.app(scope, limited, send)
        except _BodyTooLarge:
            await _too_large(send, self.limit)


class _BodyTooLarge(Exception):
    pass


async def _too_large(send: Send, limit: int) -> None:
    body = msgspec.json.encode({"code": "too_large", "message": f"the body is over {limit} bytes"})
    await send({"type": "http.response.start", "status": 413,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})


class RateLimit:
    """A token bucket per connection."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst, self.tokens, self.t = rate, burst, burst, time.monotonic()

    def allow(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.t) * self.rate)
        self.t = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


def origin_ok(origin: str | None, host: str | None, allowed: tuple[str, ...]) -> bool:
    """No ``Origin`` (not a browser) passes; a browser's must be the server's own host or listed."""
    if origin is None:
        return True
    if origin in allowed or "*" in allowed:
        return True
    return urlsplit(origin).netloc == (host or "") and urlsplit(origin).scheme in ("http", "https")


def create_app(settings: Settings) -> FastAPI:
    state: dict[str, Any] = {}

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = Store(settings.db_url)
        await asyncio.to_thread(store.migrate)
        await asyncio.to_thread(port.warm_up)
        # The content, the code and the app live as long as the process: keep them out of the GC's
        # full collections, which otherwise scan them all (measured: pauses up to 170 ms).
        gc.collect()
        gc.freeze()
        service = GameService(store, agent_delay=settings.agent_delay, zombie_after=settings.zombie_after)
        loop = asyncio.get_running_loop()
        listener = None
        if store.is_postgres:
            tasks: set[asyncio.Task[None]] = set()

            def notice(game_id: str, seq: int) -> None:
                rt = service.runtimes.get(game_id)
                if game_id != "*" and (rt is None or rt.seq >= seq > 0):
                    return  # not in memory here, or this process's own commit
                t = loop.create_task(service.on_notice(game_id))
                tasks.add(t)
                t.add_done_callback(tasks.discard)

            listener = PgListener(settings.db_url, NOTIFY_CHANNEL, loop, notice)
            await asyncio.to_thread(listener.start)
        state["service"] = service

        async def resume_agents() -> None:
            # agents whose turn it was when the server stopped play on without waiting for a visitor
            for gid in await asyncio.to_thread(store.agent_games):
                with contextlib.suppress(Exception):
                    await service.runtime(gid)

        resumer = loop.create_task(resume_agents())
        try:
            yield
        finally:
            service.closing = True
            resumer.cancel()
            for rt in service.runtimes.values():
                if rt.agent_task is not None:
                    rt.agent_task.cancel()
            if listener is not None:
                await asyncio.to_thread(listener.stop)
            store.close()

    app = FastAPI(title="meloch server", version="1", lifespan=lifespan,
                  description="Duel of Meloch games over HTTP and WebSocket; see docs/server.md.")
    app.add_middleware(BodyLimit, limit=settings.max_body)

    def svc() -> GameService:
        s: GameService = state["service"]
        return s

    @app.exception_handler(ApiError)
    async def _api_error(_req: Request, err: ApiError) -> JSONResponse:
        return JSONResponse({"code": err.code, "message": err.message}, status_code=err.status)

    @app.exception_handler(port.Refusal)
    async def _refusal(_req: Request, err: port.Refusal) -> JSONResponse:
        return JSONResponse({"code": err.code, "message": err.message}, status_code=400)

    async def load(game_id: str) -> Runtime:
        if len(game_id) > 32:
            raise ApiError(404, "no_game", "there is no such game")
        try:
            return await svc().runtime(game_id)
        except NotFound:
            raise ApiError(404, "no_game", "there is no such game") from None

    def bearer(request: Request) -> str:
        h = request.headers.get("authorization", "")
        if not h.lower().startswith("bearer "):
            raise ApiError(401, "no_token", "send the seat or spectator token as 'Authorization: Bearer TOKEN'")
        return h[7:].strip()

    def who(rt: Runtime, request: Request) -> int | None:
        ok, seat = GameService.authenticate(rt.game, bearer(request))
        if not ok:
            raise ApiError(403, "bad_token", "this token opens no seat of this game")
        return seat

    def links(request: Request, game_id: str, token: str) -> str:
        return f"{str(request.base_url).rstrip('/')}/games/{game_id}#token={token}"

    @app.get("/api/maps/{side}")
    async def map_side(side: str) -> dict[str, Any]:
        """The public geometry of a map side, for drawing the board."""
        return port.map_geometry(side)

    # The browser client (``web/``, built into ``meloch/server/static``): the page for ``/`` and for
    # every invite link ``/games/{id}``; its hashed assets under ``/assets``.
    if (STATIC_DIR / "index.html").is_file():
        app.mount("/assets", StaticFiles(directory=STATIC_DIR / "assets"), name="assets")

    @app.get("/", include_in_schema=False)
    async def home() -> Any:
        return client_page()

    @app.get("/games/{game_id}", include_in_schema=False)
    async def game_page(game_id: str) -> Any:
        return client_page()

    @app.get("/games/{game_id}/replay", include_in_schema=False)
    async def replay_page(game_id: str) -> Any:
        return client_page()

    @app.get("/api/choices")
    async def choices() -> dict[str, Any]:
        """What a new game may be set up with: sides, variants, components, agents, Automa levels."""
        return port.game_choices()

    @app.get("/api/content")
    async def content() -> dict[str, Any]:
        """The public content's texts (cards, abilities, mats, Triumph boxes, map tokens) for hover texts."""
        return port.content_texts()

    @app.get("/api/rules")
    async def rules() -> dict[str, Any]:
        """The rules panel: topics and glossary (the terminal's ``rules`` texts)."""
        return port.rules_texts()

    @app.get("/healthz")
    async def healthz() -> dict[str, str]:
        return {"status": "ok", "content_version": port.content_version()}

    @app.post("/api/games", response_model=Created, status_code=201)
    async def create_game(body: CreateGame, request: Request) -> Created:
        """Create a game: an invite token per human seat and a spectator token (shown once)."""
        gid, tokens, spectator = await svc().create(body.setup, [s.model_dump() for s in body.seats], body.public)
        seats = [SeatLink(seat=i, kind=s.kind, token=t, link=links(request, gid, t) if t else None)
                 for i, (s, t) in enumerate(zip(body.seats, tokens, strict=True))]
        return Created(game_id=gid, seats=seats, spectator_token=spectator,
                       spectator_link=links(request, gid, spectator))

    @app.get("/api/lobby", response_model=list[LobbyGame])
    async def lobby() -> list[LobbyGame]:
        """Public games waiting for a player."""
        rows = await asyncio.to_thread(svc().store.lobby)
        return [LobbyGame(game_id=g.id, open_seats=[s.seat for s in g.seats if s.kind == "open" and not s.token_hash],
                          roles=[str(x.get("role", "")) for x in g.setup.get("seats", [])], seq=seq,
                          created_at=g.created_at) for g, seq in rows]

    @app.post("/api/games/{game_id}/join", response_model=Joined)
    async def join(game_id: str, body: JoinBody, request: Request) -> Joined:
        """Take an open seat (the first seat free, or the one named): its token is returned once."""
        rt = await load(game_id)
        free = [s.seat for s in rt.game.seats if s.kind == "open" and s.token_hash is None]
        if body.seat is not None:
            free = [s for s in free if s == body.seat]
        for seat in free:
            tok = new_token()
            if await asyncio.to_thread(svc().store.claim_seat, game_id, seat, token_hash(tok)):
                fresh = await asyncio.to_thread(svc().store.game, game_id)
                if fresh is not None:
                    rt.game = fresh
                return Joined(game_id=game_id, seat=seat, token=tok, link=links(request, game_id, tok))
        raise ApiError(409, "no_open_seat", "this game has no open seat left" if body.seat is None
                       else f"seat {body.seat} is not open")

    @app.get("/api/games/{game_id}", response_model=GameInfo)
    async def info(game_id: str, request: Request) -> GameInfo:
        """The game's status as the token's seat may see it (use the WebSocket for the view)."""
        rt = await load(game_id)
        return game_info(rt, who(rt, request))

    def game_info(rt: Runtime, seat: int | None) -> GameInfo:
        return GameInfo(game_id=rt.game.id, status=rt.game.status, seq=rt.seq,
                        seats=[{"seat": s.seat, "kind": s.kind, "agent": s.agent} for s in rt.game.seats],
                        decision=port.prompt_for(rt.state, seat), outcome=port.outcome_of(rt.state))

    @app.post("/api/games/{game_id}/seats/{seat}/agent", response_model=GameInfo)
    async def zombie(game_id: str, seat: int, body: ZombieBody, request: Request) -> GameInfo:
        """Hand a seat to an agent: your own at any time, your opponent's once it has been away a while."""
        rt = await load(game_id)
        by = who(rt, request)
        if by is None:
            raise ApiError(403, "spectator", "a spectator cannot hand a seat to an agent")
        await svc().zombie(rt, by, seat, body.agent, body.level)
        return game_info(rt, None if by == seat else by)

    @app.get("/api/games/{game_id}/hint")
    async def hint(game_id: str, request: Request) -> dict[str, Any]:
        """The option the heuristic agent would pick for the token's seat now (it reads only that
        seat's view): ``{"action", "label", "agent", "seq"}``; ``action`` is null when the seat has no
        decision at ``seq`` (the state moved on: a browser asks again at the new one)."""
        rt = await load(game_id)
        seat = who(rt, request)
        if seat is None:
            raise ApiError(403, "spectator", "a spectator has no decision to be hinted")
        async with rt.lock:
            st, seq = rt.state, rt.seq
            out = await asyncio.to_thread(port.hint, st, seat, seq)
        if out is None:
            return {"action": None, "label": "you have no decision to take now", "agent": None, "seq": seq}
        return {**out, "seq": seq}

    @app.get("/api/games/{game_id}/record")
    async def record(game_id: str, request: Request) -> dict[str, Any]:
        """The finished game as JSON (setup, content version, seed, actions): ``meloch play --load`` reads it."""
        rt = await load(game_id)
        who(rt, request)
        if rt.game.status == "playing":
            raise ApiError(409, "not_over", "the record (with its seed) is available once the game is over")
        return {"setup": rt.game.setup, "content_version": rt.game.content_version, "seed": rt.game.seed,
                "actions": [rt.entries[m - 1].action for m in rt.line()], "outcome": port.outcome_of(rt.state),
                "log": [{"seq": e.seq, "seat": e.seat, "kind": e.kind, "action": e.action, "time": e.created_at}
                        for e in rt.entries]}

    @app.get("/api/games/{game_id}/replay")
    async def replay(game_id: str, request: Request, step: int | None = None, viewpoint: str = "own") -> dict[str, Any]:
        """A finished (or imported) game at ``step`` (0: the start; default the end) as the token may
        see it: a seat's token sees its own seat's view (``viewpoint=spectator``: the spectator's), a
        spectator token the spectator's only. ``turns[k]`` is the turn at step k (for "jump to turn")."""
        rt = await load(game_id)
        seat = who(rt, request)
        if rt.game.status == "playing":
            raise ApiError(409, "not_over", "a replay opens once the game is over")
        if viewpoint not in ("own", "spectator"):
            raise ApiError(400, "bad_viewpoint", "viewpoint is 'own' (the token's seat) or 'spectator'")
        if viewpoint == "spectator":
            seat = None
        line = rt.line()
        k = len(line) if step is None else step
        if not 0 <= k <= len(line):
            raise ApiError(400, "bad_step", f"step must be from 0 to {len(line)}")

        def build() -> dict[str, Any]:
            if rt.replay_turns is None:
                rt.replay_turns = [port.turn_of(rt.state_of(m)) for m in [0, *line]]
            st = rt.state_of(line[k - 1] if k else 0)
            v = port.seat_view(st, seat)
            events = port.seat_events(rt.events_of(line[k - 1]), seat) if k else []
            return {"game_id": rt.game.id, "step": k, "steps": len(line), "seat": seat, "turns": rt.replay_turns,
                    "view": v, "events": events, "outcome": port.outcome_of(st), **port.public_extras(st)}

        async with rt.lock:
            return await asyncio.to_thread(build)

    @app.post("/api/games/import", response_model=Imported, status_code=201)
    async def import_record(body: Record, request: Request) -> Imported:
        """Store a record (from ``/record`` or ``meloch play``'s save) as a game to watch."""
        gid, spectator = await svc().import_record(body.setup, body.seed, body.actions, body.content_version)
        return Imported(game_id=gid, spectator_token=spectator, spectator_link=links(request, gid, spectator))

    @app.websocket("/ws/games/{game_id}")
    async def play(ws: WebSocket, game_id: str) -> None:
        if not origin_ok(ws.headers.get("origin"), ws.headers.get("host"), settings.allowed_origins):
            await ws.close(code=1008)  # before accept: the upgrade is refused with 403
            return
        await ws.accept()
        token = ws.query_params.get("token", "")
        since_text = ws.query_params.get("since", "0")
        try:
            rt = await svc().runtime(game_id) if len(game_id) <= 32 else None
        except NotFound:
            rt = None
        except port.Refusal as err:
            await _fail(ws, err.code, err.message, 4409)
            return
        if rt is None:
            await _fail(ws, "no_game", "there is no such game", 4404)
            return
        ok, seat = GameService.authenticate(rt.game, token)
        if not ok:
            await _fail(ws, "bad_token", "this token opens no seat of this game", 4401)
            return
        if not since_text.isdigit() or len(since_text) > 9:
            await _fail(ws, "bad_since", "'since' must be the last sequence number you saw (0 for all)", 4400)
            return
        conn = Conn(seat, sent_seq=min(int(since_text), rt.seq))
        rt.conns.add(conn)
        if seat is not None:
            rt.last_seen[seat] = time.time()
        writer = asyncio.get_running_loop().create_task(_writer(ws, conn))
        conn.send(rt.state_msg(conn, {}))
        limiter = RateLimit(settings.rate, settings.burst)
        try:
            while not conn.closed:
                msg = await ws.receive()
                if msg["type"] == "websocket.disconnect":
                    break
                if not limiter.allow():
                    conn.send(Error("rate_limited", f"over {settings.rate:g} messages/s; this one was dropped"))
                    continue
                text = msg.get("text")
                if text is None:
                    conn.send(Error("bad_message", "send JSON text frames, not binary ones"))
                    continue
                if len(text) > settings.max_message:
                    conn.send(Error("too_large", f"messages are limited to {settings.max_message} bytes"))
                    continue
                try:
                    m = client_decoder.decode(text)
                except (msgspec.ValidationError, msgspec.DecodeError) as err:
                    conn.send(Error("bad_message", f"{err}"[:300]))
                    continue
                await _handle(svc(), rt, conn, m)
        except Exception as err:  # a broken socket ends this connection only
            if not isinstance(err, RuntimeError):
                log.exception("connection to %s failed", game_id)
        finally:
            rt.conns.discard(conn)
            if seat is not None:
                rt.last_seen[seat] = time.time()
            conn.closed = True
            with contextlib.suppress(asyncio.QueueFull):
                conn.queue.put_nowait(None)
            with contextlib.suppress(Exception):
                await writer
            svc().forget_if_idle(rt)

    return app


async def _fail(ws: WebSocket, code: str, message: str, close: int) -> None:
    await ws.send_text(msgspec.json.encode(Error(code, message)).decode())
    await ws.close(code=close)


async def _writer(ws: WebSocket, conn: Conn) -> None:
    try:
        while True:
            data = await conn.queue.get()
            if data is None:
                break
            await ws.send_text(data.decode())
    except Exception:
        conn.closed = True
    with contextlib.suppress(Exception):
        await ws.close()


async def _handle(service: GameService, rt: Runtime, conn: Conn, m: Any) -> None:
    if isinstance(m, Ping):
        conn.send(Pong())
    elif isinstance(m, Sync):
        conn.sent_seq = min(m.since, rt.seq)
        conn.send(rt.state_msg(conn, {}))
    elif isinstance(m, Move | Undo):
        if conn.seat is None:
            conn.send(Error("spectator", "a spectator cannot move"))
            return
        text = m.action if isinstance(m, Move) else ""
        out = await service.submit(rt, conn.seat, "move" if isinstance(m, Move) else "undo", text, m.seq, m.msg_id)
        if out.ack is not None:
            conn.send(out.ack)
            service.after_change(rt)
        elif out.refused is not None:
            conn.send(out.refused)
            if out.stale:
                conn.send(rt.state_msg(conn, {}))
