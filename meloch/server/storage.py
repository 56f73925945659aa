"""Storage: games as setup + seed + the append-only log of accepted actions, plus snapshots.

SQLAlchemy 2 Core over SQLite (the embedded default: WAL, ``synchronous=FULL``) or PostgreSQL.
The schema is created and upgraded by Alembic (``meloch/server/migrations``). The log's primary
key ``(game_id, seq)`` is what makes exactly one of two racing moves win, in one process or many;
the unique ``(game_id, seat, msg_id)`` makes a retried message id land on its first entry.
Nothing is ever pickled: the setup is JSON, a snapshot is the engine's own JSON encoding.
"""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError

metadata = sa.MetaData()

games = sa.Table(
    "games", metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("setup", sa.Text, nullable=False),
    sa.Column("content_version", sa.String(32), nullable=False),
    sa.Column("seed", sa.BigInteger, nullable=False),
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("public", sa.Boolean, nullable=False),
    sa.Column("spectator_hash", sa.String(64), nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Index("ix_games_lobby", "public", "status"),
)

seats = sa.Table(
    "seats", metadata,
    sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("kind", sa.String(16), nullable=False),
    sa.Column("agent", sa.String(32)),
    sa.Column("level", sa.Integer, nullable=False),
    sa.Column("agent_seed", sa.BigInteger, nullable=False),
    sa.Column("token_hash", sa.String(64)),
)

actions = sa.Table(
    "actions", metadata,
    sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
    sa.Column("seq", sa.Integer, primary_key=True),
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("kind", sa.String(8), nullable=False),
    sa.Column("action", sa.Text, nullable=False),
    sa.Column("msg_id", sa.String(64)),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.UniqueConstraint("game_id", "seat", "msg_id", name="uq_actions_msg"),
)

snapshots = sa.Table(
    "snapshots", metadata,
    sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
    sa.Column("seq", sa.Integer, primary_key=True),
    sa.Column("state", sa.LargeBinary, nullable=False),
)

NOTIFY_CHANNEL = "meloch_moves"


@dataclass(frozen=True)
class SeatRow:
    seat: int
    kind: str
    """``human`` (invite link), ``open`` (listed in the lobby until joined), ``agent``, ``record``."""
    agent: str | None
    level: int
    agent_seed: int
    token_hash: str | None


@dataclass(frozen=True)
class GameRow:
    id: str
    setup: dict[str, Any]
    content_version: str
    seed: int
    status: str
    """``playing``, ``over`` (seed may be shown) or ``imported`` (a record to watch)."""
    public: bool
    spectator_hash: str
    created_at: float
    seats: tuple[SeatRow, ...]


@dataclass(frozen=True)
class Entry:
    seq: int
    seat: int
    kind: str
    """``move``: ``action`` was applied; ``undo``: the last effective move (``action``) was taken back."""
    action: str
    msg_id: str | None
    created_at: float


@dataclass
class _Append:
    game_id: str
    entry: Entry
    snapshot: bytes | None
    status: str | None
    done: threading.Event = field(default_factory=threading.Event)
    error: Exception | None = None


class Conflict(Exception):
    """The entry's sequence number or message id is taken (another move won, or a retry)."""


def default_url() -> str:
    """The embedded default: one SQLite file in the user's data directory (created on first run)."""
    from platformdirs import user_data_dir

    path = Path(user_data_dir("meloch", appauthor=False)) / "meloch.db"
    path.parent.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{path}"


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=FULL")
    cur.execute("PRAGMA busy_timeout=30000")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute("PRAGMA wal_autocheckpoint=0")  # checkpoints run in Store's own thread, off the move path
    cur.close()


def make_engine(url: str) -> Engine:
    if url.startswith("sqlite"):
        eng = sa.create_engine(url, pool_size=8, max_overflow=8, connect_args={"check_same_thread": False})
        sa.event.listen(eng, "connect", _sqlite_pragmas)
        return eng
    return sa.create_engine(url, pool_size=10, max_overflow=10, pool_pre_ping=True)


def migrate(engine: Engine) -> None:
    """Bring the schema to the newest Alembic revision (several processes may start at once)."""
    from alembic import command
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    with engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            conn.execute(sa.text("SELECT pg_advisory_xact_lock(72170531)"))
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "head")


class Store:
    """Blocking storage calls; the service runs them in worker threads, never on the event loop."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine = make_engine(url)
        self.is_postgres = self.engine.dialect.name == "postgresql"
        # SQLite has one writer at a time: appends queue for one writer thread (group commit).
        self._cv = threading.Condition()
        self._queue: list[_Append] = []
        self._writer: threading.Thread | None = None
        self._stop = threading.Event()
        self._checkpointer: threading.Thread | None = None
        if not self.is_postgres:
            self._checkpointer = threading.Thread(target=self._checkpoint_loop, name="meloch-checkpoint", daemon=True)
            self._checkpointer.start()

    def _checkpoint_loop(self) -> None:
        """Copy the WAL into the database file every second (PASSIVE: writers are never blocked).

        With SQLite's automatic checkpoints, the commit that crosses the threshold pays for the
        copy and its fsync; here no acknowledged move waits for one.
        """
        while not self._stop.wait(1.0):
            try:
                with self.engine.connect() as c:
                    c.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")
            except Exception:  # the next round retries; a checkpoint is never needed for correctness
                continue

    def migrate(self) -> None:
        migrate(self.engine)

    def close(self) -> None:
        self._stop.set()
        if self._checkpointer is not None:
            self._checkpointer.join(timeout=5)
        self.engine.dispose()

    # ------------------------------------------------------------ games

    def create_game(self, game: GameRow) -> None:
        with self.engine.begin() as c:
            c.execute(games.insert().values(
                id=game.id, setup=json.dumps(game.setup), content_version=game.content_version, seed=game.seed,
                status=game.status, public=game.public, spectator_hash=game.spectator_hash,
                created_at=game.created_at))
            for s in game.seats:
                c.execute(seats.insert().values(
                    game_id=game.id, seat=s.seat, kind=s.kind, agent=s.agent, level=s.level,
                    agent_seed=s.agent_seed, token_hash=s.token_hash))

    def import_game(self, game: GameRow, moves: list[tuple[int, str]]) -> None:
        """A finished record as a game to watch: its actions become the log in one transaction."""
        self.create_game(game)
        now = time.time()
        with self.engine.begin() as c:
            if moves:
                c.execute(actions.insert(), [
                    {"game_id": game.id, "seq": i + 1, "seat": seat, "kind": "move", "action": a, "msg_id": None,
                     "created_at": now} for i, (seat, a) in enumerate(moves)])

    def game(self, game_id: str) -> GameRow | None:
        with self.engine.connect() as c:
            return self._game(c, game_id)

    def _game(self, c: Connection, game_id: str) -> GameRow | None:
        g = c.execute(games.select().where(games.c.id == game_id)).first()
        if g is None:
            return None
        rows = c.execute(seats.select().where(seats.c.game_id == game_id).order_by(seats.c.seat)).all()
        return GameRow(g.id, json.loads(g.setup), g.content_version, g.seed, g.status, g.public, g.spectator_hash,
                       g.created_at, tuple(SeatRow(r.seat, r.kind, r.agent, r.level, r.agent_seed, r.token_hash)
                                           for r in rows))

    def lobby(self, limit: int = 100) -> list[tuple[GameRow, int]]:
        """Public games still playing with an open seat nobody has joined, with their log length."""
        with self.engine.connect() as c:
            ids = c.execute(
                sa.select(games.c.id).distinct().join(seats, seats.c.game_id == games.c.id)
                .where(games.c.public.is_(True), games.c.status == "playing", seats.c.kind == "open",
                       seats.c.token_hash.is_(None))
                .order_by(games.c.id).limit(limit)).scalars().all()
            out = []
            for gid in ids:
                g = self._game(c, gid)
                if g is not None:
                    out.append((g, self._last_seq(c, gid)))
            return out

    def claim_seat(self, game_id: str, seat: int, token_hash: str) -> bool:
        """Take an open seat (once: the first claim wins)."""
        with self.engine.begin() as c:
            r = c.execute(seats.update().where(
                seats.c.game_id == game_id, seats.c.seat == seat, seats.c.kind == "open",
                seats.c.token_hash.is_(None)).values(token_hash=token_hash))
            return r.rowcount == 1

    def set_agent(self, game_id: str, seat: int, agent: str, level: int) -> None:
        """Hand a seat to an agent (a "zombie" seat): its token stops working."""
        with self.engine.begin() as c:
            c.execute(seats.update().where(seats.c.game_id == game_id, seats.c.seat == seat)
                      .values(kind="agent", agent=agent, level=level, token_hash=None))
            if self.is_postgres:  # the other processes re-read the seats (sequence 0: no new entry)
                c.execute(sa.text("SELECT pg_notify(:ch, :p)"), {"ch": NOTIFY_CHANNEL, "p": f"{game_id}:0"})

    # ------------------------------------------------------------ the log

    def _last_seq(self, c: Connection, game_id: str) -> int:
        return int(c.execute(sa.select(sa.func.coalesce(sa.func.max(actions.c.seq), 0))
                             .where(actions.c.game_id == game_id)).scalar_one())

    def entries(self, game_id: str, after: int = 0) -> list[Entry]:
        with self.engine.connect() as c:
            rows = c.execute(actions.select().where(actions.c.game_id == game_id, actions.c.seq > after)
                             .order_by(actions.c.seq)).all()
        return [Entry(r.seq, r.seat, r.kind, r.action, r.msg_id, r.created_at) for r in rows]

    def entry_by_msg(self, game_id: str, seat: int, msg_id: str) -> Entry | None:
        with self.engine.connect() as c:
            r = c.execute(actions.select().where(actions.c.game_id == game_id, actions.c.seat == seat,
                                                 actions.c.msg_id == msg_id)).first()
        return None if r is None else Entry(r.seq, r.seat, r.kind, r.action, r.msg_id, r.created_at)

    def append(self, game_id: str, entry: Entry, snapshot: bytes | None = None, status: str | None = None) -> None:
        """Commit one log entry (and a snapshot, and a status change) atomically, or raise ``Conflict``.

        Returns only after the commit, so an acknowledgement is never ahead of the disk. On
        PostgreSQL the same transaction notifies the other processes (delivered at commit). On
        SQLite, entries of different games waiting at the same time share one commit (one fsync).
        """
        if self.is_postgres:
            self._append_now([_Append(game_id, entry, snapshot, status)])
            return
        req = _Append(game_id, entry, snapshot, status)
        with self._cv:
            if self._writer is None:
                self._writer = threading.Thread(target=self._write_loop, name="meloch-writer", daemon=True)
                self._writer.start()
            self._queue.append(req)
            self._cv.notify()
        req.done.wait()
        if req.error is not None:
            raise req.error

    def _append_now(self, batch: list[_Append]) -> None:
        """Insert ``batch`` in one transaction; ``Conflict`` (IntegrityError) aborts all of it."""
        try:
            with self.engine.begin() as c:
                for r in batch:
                    e = r.entry
                    c.execute(actions.insert().values(
                        game_id=r.game_id, seq=e.seq, seat=e.seat, kind=e.kind, action=e.action,
                        msg_id=e.msg_id, created_at=e.created_at))
                    if r.snapshot is not None:
                        c.execute(snapshots.insert().values(game_id=r.game_id, seq=e.seq, state=r.snapshot))
                    if r.status is not None:
                        c.execute(games.update().where(games.c.id == r.game_id).values(status=r.status))
                    if self.is_postgres:
                        c.execute(sa.text("SELECT pg_notify(:ch, :p)"),
                                  {"ch": NOTIFY_CHANNEL, "p": f"{r.game_id}:{e.seq}"})
        except IntegrityError:
            raise Conflict("a sequence number or message id is taken") from None

    def _write_loop(self) -> None:
        """SQLite's one writer: commit whatever is waiting together; on a conflict, one by one."""
        while True:
            with self._cv:
                while not self._queue:
                    self._cv.wait()
                batch, self._queue = self._queue[:512], self._queue[512:]
            try:
                self._append_now(batch)
            except Conflict:
                for r in batch:  # find the entries that conflict; the others commit on their own
                    try:
                        self._append_now([r])
                    except Exception as err:
                        r.error = err
            except Exception as err:  # nothing of the batch was committed
                for r in batch:
                    r.error = err
            for r in batch:
                r.done.set()

    def snapshot_seqs(self, game_id: str) -> list[int]:
        with self.engine.connect() as c:
            return list(c.execute(sa.select(snapshots.c.seq).where(snapshots.c.game_id == game_id)
                                  .order_by(snapshots.c.seq)).scalars().all())

    def snapshot(self, game_id: str, seq: int) -> bytes | None:
        with self.engine.connect() as c:
            r = c.execute(sa.select(snapshots.c.state).where(snapshots.c.game_id == game_id,
                                                             snapshots.c.seq == seq)).scalar_one_or_none()
        return None if r is None else bytes(r)

    def agent_games(self) -> list[str]:
        """Games still playing with a seat an agent plays (resumed when the server starts)."""
        with self.engine.connect() as c:
            return list(c.execute(
                sa.select(games.c.id).distinct().join(seats, seats.c.game_id == games.c.id)
                .where(games.c.status == "playing", seats.c.kind == "agent")).scalars().all())

    def game_ids(self) -> list[str]:
        with self.engine.connect() as c:
            return list(c.execute(sa.select(games.c.id).order_by(games.c.id)).scalars().all())
