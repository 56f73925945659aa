"""Real servers in subprocesses: SIGKILLs, races, fuzzing, hidden information, several processes on PostgreSQL.

The small versions of ``meloch bench-server``'s runs (the long ones are in the slow suite).
"""

from __future__ import annotations

import asyncio
import random

import pytest

from meloch.server import bench
from meloch.server.bench import Seat, ServerProc, create_game


def test_sigkill_loses_no_acknowledged_move(sqlite_url: str) -> None:
    d = asyncio.run(bench.durability(sqlite_url, kills=5, games=4, seed=3))
    assert d.acked > 50
    assert d.missing == [] and d.mismatched == []


def test_races_and_fuzz(sqlite_url: str) -> None:
    server = ServerProc(sqlite_url)
    server.start()
    try:
        r = asyncio.run(bench.races([server], pairs=30, seed=5))
        assert r.exactly_one == r.pairs == 30, r.failures
        f = asyncio.run(bench.fuzz(server, count=400, seed=6))
        assert f.failures == [], f.failures[:5]
        assert f.clear_errors == f.messages == 400, (f.clear_errors, f.messages)
        assert f.state_unchanged
        assert server.proc is not None and server.proc.poll() is None
    finally:
        server.stop()


def test_hidden_information_over_a_full_game(sqlite_url: str) -> None:
    server = ServerProc(sqlite_url)
    server.start()
    try:
        h = asyncio.run(bench.hidden(server, seed=11))
    finally:
        server.stop()
    assert h.outcome is not None and h.entries > 50
    assert h.failures == []


@pytest.mark.postgres
def test_two_processes_share_moves_and_races_on_postgres(pg_url: str) -> None:
    a, b = ServerProc(pg_url), ServerProc(pg_url)
    a.start()
    b.start()
    try:
        async def run() -> None:
            g = await create_game(a.http)
            s0 = Seat(a.ws, g["game_id"], g["seats"][0]["token"], random.Random(1))
            s1 = Seat(b.ws, g["game_id"], g["seats"][1]["token"], random.Random(2))
            await s0.open()
            await s1.open()
            for _ in range(6):  # each move is made on one process and pushed by the other
                me, other = (s0, s1) if s0.my_turn() else (s1, s0)
                assert me.state is not None
                target = me.seq + 1
                assert (await me.move(me.state["options"][0]["action"], f"x{me.seq}"))["type"] == "ack"
                while other.seq < target:
                    await asyncio.wait_for(other.until_state(), 10)
            await s0.close()
            await s1.close()
            r = await bench.races([a, b], pairs=10, seed=4)
            assert r.exactly_one == r.pairs == 10, r.failures

        asyncio.run(run())
    finally:
        a.stop()
        b.stop()


@pytest.mark.slow
def test_bench_server_full_runs() -> None:
    """The long runs: 200 games, 50 SIGKILLs, 1,000 races, 10,000 fuzzed messages, a full hidden-info game."""
    lines: list[str] = []
    assert bench.main(games=200, moves=40, kills=50, races=1000, fuzz=10000, hidden=True, db="", seed=1,
                      echo=lines.append), "\n".join(lines)
