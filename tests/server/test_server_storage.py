"""The storage layer against SQLite and PostgreSQL: schema by Alembic, the append-only log's guarantees."""

from __future__ import annotations

import time

import pytest

from meloch.server.storage import Conflict, Entry, GameRow, SeatRow, Store


def _game(gid: str = "g1", public: bool = False) -> GameRow:
    return GameRow(gid, {"map_side": "jungle"}, "cv", 123456789012345, "playing", public, "spec",
                   time.time(), (SeatRow(0, "human", None, 1, 7, "h0"), SeatRow(1, "open", None, 1, 8, None)))


@pytest.fixture
def store(db_url: str) -> Store:
    s = Store(db_url)
    s.migrate()
    s.migrate()  # a second start finds the schema current
    yield s
    s.close()


def test_game_round_trip(store: Store) -> None:
    store.create_game(_game())
    g = store.game("g1")
    assert g is not None and g.seed == 123456789012345 and g.setup == {"map_side": "jungle"}
    assert [s.kind for s in g.seats] == ["human", "open"] and g.seats[0].token_hash == "h0"
    assert store.game("nope") is None


def test_log_is_append_only_and_one_move_wins_a_sequence_number(store: Store) -> None:
    store.create_game(_game())
    store.append("g1", Entry(1, 0, "move", "S section 1", "m1", 1.0))
    with pytest.raises(Conflict):
        store.append("g1", Entry(1, 1, "move", "E move 3", "m2", 1.0))
    with pytest.raises(Conflict):  # a retried message id cannot make a second entry
        store.append("g1", Entry(2, 0, "move", "S section 2", "m1", 1.0))
    store.append("g1", Entry(2, 0, "undo", "S section 1", "m3", 2.0), status="playing")
    entries = store.entries("g1")
    assert [(e.seq, e.kind, e.action) for e in entries] == [(1, "move", "S section 1"), (2, "undo", "S section 1")]
    assert store.entries("g1", after=1)[0].seq == 2
    found = store.entry_by_msg("g1", 0, "m1")
    assert found is not None and found.seq == 1


def test_snapshots_and_status(store: Store) -> None:
    store.create_game(_game())
    store.append("g1", Entry(1, 0, "move", "S section 1", None, 1.0), snapshot=b'{"x":1}', status="over")
    assert store.snapshot_seqs("g1") == [1] and store.snapshot("g1", 1) == b'{"x":1}'
    g = store.game("g1")
    assert g is not None and g.status == "over"


def test_lobby_and_claiming_an_open_seat_once(store: Store) -> None:
    store.create_game(_game("g1", public=True))
    store.create_game(_game("g2", public=False))
    assert [g.id for g, _ in store.lobby()] == ["g1"]
    assert store.claim_seat("g1", 1, "t1") is True
    assert store.claim_seat("g1", 1, "t2") is False
    assert store.claim_seat("g1", 0, "t3") is False  # not an open seat
    assert store.lobby() == []
    store.set_agent("g1", 0, "random", 2)
    g = store.game("g1")
    assert g is not None and g.seats[0].kind == "agent" and g.seats[0].token_hash is None
