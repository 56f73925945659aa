"""The game service: one ``Runtime`` per game in memory, rebuilt from the log, and the move path.

A log entry is a ``move`` (an action applied) or an ``undo`` (the last effective move taken
back; nothing is deleted). ``prev[m]`` is the move whose state move ``m`` was applied to, and
``top[seq]`` the move whose state is current after entry ``seq`` (0: the initial state), so any
past state is a replay along ``prev`` from the nearest cached state (the initial state, a
snapshot, or a recent one). Moves are serialised per game by an ``asyncio.Lock`` in a process and
by the log's primary key between processes: exactly one of two moves naming the same sequence
number is committed.
"""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import hmac
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from meloch.server import engine_port as port
from meloch.server.protocol import Ack, EventBatch, Refused, StateMsg, encoder
from meloch.server.storage import Conflict, Entry, GameRow, SeatRow, Store

log = logging.getLogger("meloch.server")

SNAPSHOT_EVERY = 50
"""A snapshot is stored with every move whose sequence number is a multiple of this."""


def token_hash(token: str) -> str:
    """Tokens carry >= 128 random bits, so one SHA-256 is enough to store them (no stretching)."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(24)  # 192 bits


class NotFound(Exception):
    pass


@dataclass(eq=False)
class Conn:
    """One WebSocket: its seat (None: spectator), its outbound queue and the last entry it was sent."""

    seat: int | None
    sent_seq: int
    queue: asyncio.Queue[bytes | None] = field(default_factory=lambda: asyncio.Queue(maxsize=256))
    closed: bool = False

    def send(self, msg: Any) -> None:
        if self.closed:
            return
        try:
            self.queue.put_nowait(encoder.encode(msg))
        except asyncio.QueueFull:  # a client that does not read: drop it rather than grow without bound
            self.closed = True
            while not self.queue.empty():
                self.queue.get_nowait()
            self.queue.put_nowait(None)


class Runtime:
    """A game in memory: its row, its log and the states needed to serve and extend it."""

    def __init__(self, game: GameRow, entries: list[Entry], snapshot: tuple[int, Any] | None) -> None:
        self.game = game
        self.setup = port.decode_setup(game.setup)
        self.lock = asyncio.Lock()
        self.conns: set[Conn] = set()
        self.entries: list[Entry] = []
        self.prev: dict[int, int] = {}
        self.top: list[int] = [0]
        self.states: dict[int, Any] = {0: port.initial_state(self.setup, game.seed)}
        self.pinned: set[int] = {0}
        self.events: dict[int, tuple[Any, ...]] = {}
        self.msg_index: dict[tuple[int, str], int] = {}
        self.agent_task: asyncio.Task[None] | None = None
        self.replay_turns: list[int] | None = None
        """The turn at each step of a finished game's line (filled by the first replay request)."""
        self.last_seen: dict[int, float] = {s.seat: time.time() for s in game.seats}
        for e in entries:
            self._index(e)
        if snapshot is not None:
            self.states[snapshot[0]] = snapshot[1]
            self.pinned.add(snapshot[0])
        self.state_of(self.top[-1])

    @property
    def seq(self) -> int:
        return len(self.entries)

    @property
    def state(self) -> Any:
        return self.state_of(self.top[-1])

    def _index(self, e: Entry) -> None:
        """Add a committed entry to the log structure (no engine work)."""
        if e.seq != len(self.entries) + 1:
            raise ValueError(f"log entry {e.seq} out of order (have {len(self.entries)})")
        cur = self.top[-1]
        if e.kind == "move":
            self.prev[e.seq] = cur
            self.top.append(e.seq)
        else:
            self.top.append(self.prev[cur])
        self.entries.append(e)
        if e.msg_id is not None:
            self.msg_index[(e.seat, e.msg_id)] = e.seq

    def state_of(self, m: int) -> Any:
        """The state after move entry ``m`` (0: the initial state), replayed from the nearest cached one."""
        chain = []
        while m not in self.states:
            chain.append(m)
            m = self.prev[m]
        st = self.states[m]
        for x in reversed(chain):
            e = self.entries[x - 1]
            st, _ = port.move(st, e.seat, e.action)
            self.states[x] = st
            self.events[x] = st.events
        return st

    def trim(self) -> None:
        """Forget states an undo or a reconnect will not need soon (they replay on demand)."""
        cur = self.top[-1]
        keep = set(self.pinned)
        keep.add(cur)
        if cur:
            keep.add(self.prev[cur])
        if len(self.states) > len(keep) + 8:  # few live objects keep the GC's full collections short
            for k in [k for k in self.states if k not in keep]:
                del self.states[k]

    def line(self) -> list[int]:
        """The move entries that made the current state, first to last (undone moves left out)."""
        chain = []
        m = self.top[-1]
        while m:
            chain.append(m)
            m = self.prev[m]
        return chain[::-1]

    def events_of(self, seq: int) -> tuple[Any, ...]:
        if seq not in self.events:
            e = self.entries[seq - 1]
            if e.kind == "move":
                self.events[seq] = self.state_of(seq).events
            else:
                self.events[seq] = port.undo_event(self.state, e.seat, e.action)
        return self.events[seq]

    def seat_row(self, seat: int) -> SeatRow:
        return self.game.seats[seat]

    def can_undo(self, seat: int) -> bool:
        return self.undo_refusal(seat) is None

    def undo_refusal(self, seat: int) -> str | None:
        cur = self.top[-1]
        if cur == 0:
            return "there is nothing to undo."
        e = self.entries[cur - 1]
        return port.undo_refusal(self.state_of(self.prev[cur]), self.state_of(cur), e.action, seat)

    def state_msg(self, conn: Conn, views: dict[int | str | None, tuple[Any, ...]]) -> StateMsg:
        seat = conn.seat
        if seat not in views:
            st = self.state
            v = port.seat_view(st, seat)
            if "extras" not in views:
                views["extras"] = (port.public_extras(st),)  # the same for every seat
            views[seat] = (v, v["decision"], port.seat_options(st, seat), port.seat_forced(st, seat),
                           seat is not None and self.game.seats[seat].kind != "agent" and self.can_undo(seat))
        view, prompt, options, forced, undo = views[seat]
        extras = views["extras"][0]
        batches = []
        for seq in range(conn.sent_seq + 1, self.seq + 1):
            e = self.entries[seq - 1]
            batches.append(EventBatch(seq, e.seat, e.kind, port.seat_events(self.events_of(seq), seat)))
        conn.sent_seq = self.seq
        return StateMsg(self.game.id, seat, self.seq, self.game.status, view, prompt, options, forced, undo, batches,
                        port.outcome_of(self.state), extras["progress"], extras["meloch_facing"])

    def broadcast(self, force: bool = False) -> None:
        """Send each connection that is behind (or all, ``force``) its seat's state and missed events."""
        views: dict[int | str | None, tuple[Any, ...]] = {}
        for c in list(self.conns):
            if force or c.sent_seq != self.seq:
                c.sent_seq = min(c.sent_seq, self.seq)
                c.send(self.state_msg(c, views))


@dataclass
class Outcome:
    ack: Ack | None = None
    refused: Refused | None = None
    stale: bool = False


class GameService:
    """All games of this process. Blocking storage calls run in threads (``asyncio.to_thread``)."""

    def __init__(self, store: Store, agent_delay: float = 0.0, zombie_after: float = 60.0) -> None:
        self.store = store
        self.agent_delay = agent_delay
        self.zombie_after = zombie_after
        self.runtimes: dict[str, Runtime] = {}
        self._loading: dict[str, asyncio.Lock] = {}
        self.closing = False
        self.on_commit: Callable[[str], None] | None = None

    # ------------------------------------------------------------ loading

    async def runtime(self, game_id: str) -> Runtime:
        rt = self.runtimes.get(game_id)
        if rt is not None:
            return rt
        lock = self._loading.setdefault(game_id, asyncio.Lock())
        async with lock:
            rt = self.runtimes.get(game_id)
            if rt is None:
                rt = await asyncio.to_thread(self._load, game_id)
                self.runtimes[game_id] = rt
        self.kick_agent(rt)
        return rt

    def _load(self, game_id: str) -> Runtime:
        game = self.store.game(game_id)
        if game is None:
            raise NotFound(game_id)
        if game.content_version != port.content_version():
            raise port.Refusal("content_version", f"game {game_id} was played with content {game.content_version}; "
                               f"this server has {port.content_version()}")
        entries = self.store.entries(game_id)
        snap = None
        # the newest snapshot on the current line of play (an undone one is not)
        seqs = set(self.store.snapshot_seqs(game_id))
        if seqs:
            top = [0]
            prev: dict[int, int] = {}
            for e in entries:
                if e.kind == "move":
                    prev[e.seq] = top[-1]
                    top.append(e.seq)
                else:
                    top.append(prev[top[-1]])
            m = top[-1]
            while m and m not in seqs:
                m = prev[m]
            if m:
                data = self.store.snapshot(game_id, m)
                if data is not None:
                    snap = (m, port.snapshot_decode(data))
        return Runtime(game, entries, snap)

    def forget_if_idle(self, rt: Runtime) -> None:
        """Drop a game nobody watches and no agent plays from memory (it reloads from the log on demand)."""
        if not rt.conns and (rt.agent_task is None or rt.agent_task.done()) and not rt.lock.locked() \
                and self.runtimes.get(rt.game.id) is rt:
            del self.runtimes[rt.game.id]

    async def refresh(self, rt: Runtime) -> None:
        """Read what other processes committed (and seat changes) and push it to this process's sockets."""
        game, new = await asyncio.to_thread(lambda: (self.store.game(rt.game.id), self.store.entries(rt.game.id,
                                                                                                      rt.seq)))
        seats_changed = game is not None and game.seats != rt.game.seats
        if game is not None:
            rt.game = game
        if not new:
            if seats_changed:
                rt.broadcast(force=True)
                self.kick_agent(rt)
            return
        for e in new:
            if e.seq == rt.seq + 1:
                rt._index(e)
        rt.state_of(rt.top[-1])
        rt.trim()
        rt.broadcast()
        self.kick_agent(rt)

    async def on_notice(self, game_id: str) -> None:
        targets = list(self.runtimes.values()) if game_id == "*" else (
            [self.runtimes[game_id]] if game_id in self.runtimes else [])
        for rt in targets:
            async with rt.lock:
                await self.refresh(rt)

    # ------------------------------------------------------------ auth

    @staticmethod
    def authenticate(game: GameRow, token: str) -> tuple[bool, int | None]:
        """(ok, seat): seat None is the spectator. Every hash is compared, in constant time each."""
        h = token_hash(token)
        found: tuple[bool, int | None] = (False, None)
        for s in game.seats:
            if s.token_hash is not None and hmac.compare_digest(s.token_hash, h):
                found = (True, s.seat)
        if hmac.compare_digest(game.spectator_hash, h):
            found = (True, None)
        return found

    # ------------------------------------------------------------ creating

    async def create(self, setup_data: dict[str, Any], seat_specs: list[dict[str, Any]], public: bool,
                     seed: int | None = None) -> tuple[str, list[str | None], str]:
        setup = port.decode_setup(setup_data)
        if len(seat_specs) != port.seat_count(setup):
            raise port.Refusal("bad_seats", f"the setup has {port.seat_count(setup)} seats, not {len(seat_specs)}")
        for s in seat_specs:
            if s["kind"] == "agent" and not port.known_agent(s["agent"]):
                raise port.Refusal("bad_agent", f"unknown agent {s['agent']!r}: use one of "
                                   f"{', '.join(port.AGENT_CHOICES)}")
        # an Automa seat (``automa:N[+threat]``) is played by the rules: it becomes a setup option
        setup = port.with_engine_seats(setup, [s["agent"] if s["kind"] == "agent" else "human" for s in seat_specs])
        seed = secrets.randbits(63) if seed is None else seed
        port.initial_state(setup, seed)  # refuses a setup the engine cannot start
        tokens: list[str | None] = []
        rows = []
        for i, s in enumerate(seat_specs):
            tok = new_token() if s["kind"] == "human" else None
            tokens.append(tok)
            rows.append(SeatRow(i, s["kind"], s["agent"] if s["kind"] == "agent" else None, s.get("level", 1),
                                secrets.randbits(63), token_hash(tok) if tok else None))
        spectator = new_token()
        game = GameRow(secrets.token_urlsafe(12), port.encode_setup(setup), port.content_version(), seed, "playing",
                       public, token_hash(spectator), time.time(), tuple(rows))
        await asyncio.to_thread(self.store.create_game, game)
        await self.runtime(game.id)
        return game.id, tokens, spectator

    async def import_record(self, setup_data: dict[str, Any], seed: int, actions: list[str],
                            content_version: str | None) -> tuple[str, str]:
        if content_version is not None and content_version != port.content_version():
            raise port.Refusal("content_version", f"the record was played with content {content_version}; this "
                               f"server has {port.content_version()}")
        setup = port.decode_setup(setup_data)
        st = port.initial_state(setup, seed)
        moves: list[tuple[int, str]] = []
        for i, a in enumerate(actions):
            seat = port.deciding_seat(st)
            if seat is None:
                raise port.Refusal("bad_record", f"action {i + 1} ({a!r}) comes after the end of the game")
            try:
                st, canon = port.move(st, seat, a)
            except port.Refusal as err:
                raise port.Refusal("bad_record", f"action {i + 1} ({a!r}) does not replay: {err.message}") from None
            moves.append((seat, canon))
        spectator = new_token()
        rows = tuple(SeatRow(i, "record", None, 1, 0, None) for i in range(port.seat_count(setup)))
        game = GameRow(secrets.token_urlsafe(12), port.encode_setup(setup), port.content_version(), seed, "imported",
                       False, token_hash(spectator), time.time(), rows)
        await asyncio.to_thread(self.store.import_game, game, moves)
        return game.id, spectator

    # ------------------------------------------------------------ moves

    async def submit(self, rt: Runtime, seat: int, kind: str, text: str, seq: int, msg_id: str,
                     by_agent: bool = False) -> Outcome:
        """Commit one move or undo for ``seat`` answering ``seq``; acknowledged only once committed."""
        async with rt.lock:
            hit = rt.msg_index.get((seat, msg_id))
            if hit is not None:
                return Outcome(ack=Ack(msg_id, hit))
            if seq != rt.seq:
                await self.refresh(rt)
                hit = rt.msg_index.get((seat, msg_id))
                if hit is not None:
                    return Outcome(ack=Ack(msg_id, hit))
                if seq != rt.seq:
                    return Outcome(refused=Refused(msg_id, "stale", f"the game is at sequence {rt.seq}, not {seq}; "
                                                   "here is the fresh state."), stale=True)
            if rt.game.status != "playing":
                return Outcome(refused=Refused(msg_id, "read_only" if rt.game.status == "imported" else "game_over",
                                               f"game {rt.game.id} is {rt.game.status}: no move is accepted."))
            if not by_agent and rt.seat_row(seat).kind == "agent":
                return Outcome(refused=Refused(msg_id, "seat_is_agent", "this seat was handed to an agent."))
            if kind == "move":
                try:
                    st, canon = port.move(rt.state, seat, text)
                except port.Refusal as err:
                    return Outcome(refused=Refused(msg_id, err.code, err.message))
            else:
                why = rt.undo_refusal(seat)
                if why is not None:
                    return Outcome(refused=Refused(msg_id, "cannot_undo", f"Cannot undo: {why}"))
                cur = rt.top[-1]
                canon = rt.entries[cur - 1].action
                st = rt.state_of(rt.prev[cur])
            entry = Entry(rt.seq + 1, seat, kind, canon, msg_id, time.time())
            snap = port.snapshot_encode(st) if kind == "move" and entry.seq % SNAPSHOT_EVERY == 0 else None
            status = "over" if port.game_over(st) else None
            try:
                await asyncio.to_thread(self.store.append, rt.game.id, entry, snap, status)
            except Conflict:
                await self.refresh(rt)
                hit = rt.msg_index.get((seat, msg_id))
                if hit is not None:
                    return Outcome(ack=Ack(msg_id, hit))
                return Outcome(refused=Refused(msg_id, "stale", f"another move was committed first; the game is at "
                                               f"sequence {rt.seq}."), stale=True)
            rt._index(entry)
            if kind == "move":
                rt.states[entry.seq] = st
                rt.events[entry.seq] = st.events
                if snap is not None:
                    rt.pinned.add(entry.seq)
            if status is not None:
                rt.game = dataclasses.replace(rt.game, status=status)
            rt.trim()
            if self.on_commit is not None:
                self.on_commit(rt.game.id)
            return Outcome(ack=Ack(msg_id, entry.seq))

    def after_change(self, rt: Runtime) -> None:
        rt.broadcast()
        self.kick_agent(rt)

    # ------------------------------------------------------------ agents

    def kick_agent(self, rt: Runtime) -> None:
        """Start the agent loop if an agent seat must decide and none is running for this game."""
        if self.closing or rt.game.status != "playing" or (rt.agent_task is not None and not rt.agent_task.done()):
            return
        seat = port.deciding_seat(rt.state)
        if seat is not None and rt.seat_row(seat).kind == "agent":
            rt.agent_task = asyncio.get_running_loop().create_task(self._agent_loop(rt))

    async def _agent_loop(self, rt: Runtime) -> None:
        try:
            while not self.closing and rt.game.status == "playing":
                st, seq = rt.state, rt.seq
                seat = port.deciding_seat(st)
                if seat is None:
                    return
                row = rt.seat_row(seat)
                if row.kind != "agent" or row.agent is None:
                    return
                if self.agent_delay:
                    await asyncio.sleep(self.agent_delay)
                text = await asyncio.to_thread(port.agent_move, st, seat, row.agent, row.agent_seed ^ seq)
                out = await self.submit(rt, seat, "move", text, seq, f"agent-{seq}", by_agent=True)
                if out.refused is not None and not out.stale:
                    log.error("agent move refused in %s: %s", rt.game.id, out.refused.message)
                    return
                rt.broadcast()
        except Exception:  # never let an agent bring the server down; the log says why
            log.exception("agent loop of %s failed", rt.game.id)

    async def zombie(self, rt: Runtime, by_seat: int, seat: int, agent: str, level: int) -> None:
        """Hand ``seat`` to an agent: by its own player at any time, by the other seat once it has left."""
        if agent not in port.AGENTS:
            raise port.Refusal("bad_agent", f"unknown agent {agent!r}: use one of {', '.join(port.AGENTS)}")
        if not 0 <= seat < len(rt.game.seats):
            raise port.Refusal("bad_seat", f"there is no seat {seat}")
        row = rt.seat_row(seat)
        if row.kind == "agent":
            raise port.Refusal("already_agent", f"seat {seat} is already played by an agent")
        if by_seat != seat:
            connected = any(c.seat == seat for c in rt.conns)
            idle = time.time() - rt.last_seen.get(seat, 0.0)
            if connected or idle < self.zombie_after:
                raise port.Refusal("seat_active", f"seat {seat} has been away {idle:.0f} s; it can be handed to an "
                                   f"agent after {self.zombie_after:.0f} s without a connection")
        async with rt.lock:
            await asyncio.to_thread(self.store.set_agent, rt.game.id, seat, agent, level)
            fresh = await asyncio.to_thread(self.store.game, rt.game.id)
            if fresh is not None:
                rt.game = fresh
        rt.broadcast(force=True)
        self.kick_agent(rt)

