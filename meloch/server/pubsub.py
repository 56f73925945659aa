"""Telling other server processes that a game moved: PostgreSQL LISTEN/NOTIFY.

``Store.append`` sends ``NOTIFY meloch_moves, '<game>:<seq>'`` in the move's own transaction, so
the notice goes out exactly when the move is committed. Each process holds one listening
connection in a thread and hands every notice to the event loop; the service then reads the new
log entries from the database (the notice carries no state, so a lost or duplicated notice only
delays or repeats an idempotent refresh). SQLite serves one process, which needs no notices.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable

log = logging.getLogger("meloch.server")


class PgListener:
    """A daemon thread that LISTENs on ``channel`` and calls ``on_notice(game_id, seq)`` on the loop."""

    def __init__(self, url: str, channel: str, loop: asyncio.AbstractEventLoop,
                 on_notice: Callable[[str, int], None]) -> None:
        self.dsn = url.replace("postgresql+psycopg://", "postgresql://", 1)
        self.channel = channel
        self.loop = loop
        self.on_notice = on_notice
        self._stop = threading.Event()
        self.ready = threading.Event()
        self._thread = threading.Thread(target=self._run, name="meloch-listen", daemon=True)

    def start(self) -> None:
        self._thread.start()
        if not self.ready.wait(10):
            raise RuntimeError("could not LISTEN on PostgreSQL within 10 s")

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)

    def _run(self) -> None:
        import psycopg

        while not self._stop.is_set():
            try:
                with psycopg.connect(self.dsn, autocommit=True) as conn:
                    conn.execute(f"LISTEN {self.channel}")
                    self.ready.set()
                    # After a reconnect every game may have missed notices: refresh them all.
                    self.loop.call_soon_threadsafe(self.on_notice, "*", 0)
                    while not self._stop.is_set():
                        for n in conn.notifies(timeout=0.5):
                            game_id, _, seq = n.payload.partition(":")
                            self.loop.call_soon_threadsafe(self.on_notice, game_id,
                                                           int(seq) if seq.isdigit() else 0)
            except Exception as err:  # the database went away: retry, the service keeps running
                if self._stop.is_set():
                    break
                log.warning("LISTEN connection lost (%s); reconnecting", err)
                self._stop.wait(1.0)
