"""One contract, two event logs: SQLite behind the group-commit async face, and
PostgreSQL (a throwaway server, a new database for each test).

Every test here runs against both and must pass the same way: numbering, data and
times kept exactly, atomic batches and cross-stream appends, expected seqs, command
ids and their fingerprints, the secret, snapshots, stream names, several writers at
once. Then the service itself on PostgreSQL: a play-off served, its clock pressed
over the websocket, and a restart on the same database.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import sqlite3
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
import uvicorn
from fastapi import FastAPI

from clients.python.client import PlayoffClient
from orchestrator.app import create_app
from orchestrator.core.timesource import ManualTime
from orchestrator.settings import Settings
from orchestrator.store import (
    AppendRequest,
    AsyncEventLog,
    AsyncEventStore,
    CommandIdReusedError,
    CommandLoggedError,
    ConcurrencyError,
    InvalidEventError,
    NewEvent,
    PostgresEventStore,
    SchemaVersionError,
    Snapshot,
    SqliteEventStore,
    StoreClosedError,
    StoredEvent,
    open_log,
)
from orchestrator.store import postgres as pg_store
from tests.support.events import uzchess_json
from tests.support.pg import pg_database, postgres_server
from tests.support.server import free_port

__all__ = ["pg_database", "postgres_server"]  # the fixtures, from tests/support/pg.py

T0 = datetime(2025, 7, 1, 14, 0, tzinfo=UTC)


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


@dataclass
class Backend:
    """Where one log lives; each :meth:`open` is a new store on it (a worker, a restart)."""

    name: str
    open: Callable[[], AsyncEventLog]
    fail_inserts_of: Callable[[str], None]
    """Make every insert of an event of this type fail inside the transaction."""
    url: str
    """The log's URL, as ``--store`` or the settings name it."""


def _sqlite(path: Path) -> Backend:
    def fail_inserts_of(event_type: str) -> None:
        conn = sqlite3.connect(path)
        conn.execute(
            f"CREATE TRIGGER fail BEFORE INSERT ON events WHEN NEW.type = '{event_type}' "
            "BEGIN SELECT RAISE(ABORT, 'injected failure'); END"
        )
        conn.commit()
        conn.close()

    return Backend(
        "sqlite", lambda: AsyncEventStore(SqliteEventStore(path)), fail_inserts_of,
        f"sqlite:{path}",
    )


def _postgres(url: str) -> Backend:
    def fail_inserts_of(event_type: str) -> None:
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(
                "CREATE FUNCTION fail() RETURNS trigger LANGUAGE plpgsql AS "
                "$$ BEGIN RAISE EXCEPTION 'injected failure'; END $$"
            )
            conn.execute(
                "CREATE TRIGGER fail BEFORE INSERT ON events FOR EACH ROW "
                f"WHEN (NEW.type = '{event_type}') EXECUTE FUNCTION fail()"
            )

    return Backend("postgres", lambda: PostgresEventStore(url), fail_inserts_of, url)


@pytest.fixture(params=["sqlite", "postgres"])
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Backend:
    if request.param == "sqlite":
        return _sqlite(tmp_path / "events.db")
    return _postgres(request.getfixturevalue("pg_database"))


@pytest.fixture
async def log(backend: Backend) -> AsyncIterator[AsyncEventLog]:
    store = backend.open()
    try:
        await store.last_seq("")  # opened (and its schema made) before the test
        yield store
    finally:
        await store.aclose()


async def types_in(log: AsyncEventLog, stream: str) -> list[str]:
    return [e.type for e in await log.read(stream)]


# --------------------------------------------------------------------------- basics


async def test_append_and_read_number_each_stream_from_one(log: AsyncEventLog) -> None:
    a1 = await log.append("po-1", "playoff-created", {"format": "gct"}, actor="ca",
                          recorded_at=at(0))
    b1 = await log.append("po-2", "playoff-created", {}, actor=None, recorded_at=at(1))
    a2 = await log.append("po-1", "clock-pressed", {"side": "white", "move": 1},
                          actor="board-1", recorded_at=at(2))
    assert (a1.seq, b1.seq, a2.seq) == (1, 1, 2)
    assert a2 == StoredEvent("po-1", 2, "clock-pressed", {"side": "white", "move": 1},
                             "board-1", at(2), None, None)
    assert await log.read("po-1") == [a1, a2]
    assert await log.read("po-1", after=1) == [a2]
    assert await log.read("po-1", limit=1) == [a1]
    assert await log.read("po-1", after=1, limit=0) == []
    assert await log.read("po-1", after=2) == []
    assert await log.read("nobody") == []
    assert [await log.last_seq(s) for s in ("po-1", "po-2", "nobody")] == [2, 1, 0]
    with pytest.raises(ValueError, match="limit"):
        await log.read("po-1", limit=-1)


async def test_recorded_at_is_kept_in_utc_to_the_microsecond(log: AsyncEventLog) -> None:
    tashkent = timezone(timedelta(hours=5))
    when = datetime(2025, 7, 1, 19, 0, 0, 123456, tzinfo=tashkent)
    event = await log.append("po", "x", {}, actor=None, recorded_at=when)
    (read,) = await log.read("po")
    assert read.recorded_at == when == event.recorded_at
    assert read.recorded_at.utcoffset() == timedelta(0)
    assert read.recorded_at.microsecond == 123456
    assert (read.recorded_at.year, read.recorded_at.hour) == (2025, 14)


async def test_data_reads_back_as_it_was_given(log: AsyncEventLog) -> None:
    data = {
        "s": "Ä ♞ \"quoted\" \\ \x00 \n", "i": 2**70, "neg": -(2**63), "f": 0.1,
        "big": 1e16, "tiny": 5e-324, "whole": 2.0, "b": True, "n": None,
        "l": [1, (2, 3), []], "o": {"z": 1, "a": {"k": []}}, "": "empty key",
    }
    event = await log.append("po", "x", data, actor=None, recorded_at=T0)
    (read,) = await log.read("po")
    assert read.data == event.data
    assert read.data["l"] == [1, [2, 3], []]
    # Numbers keep their kind: a float stays a float, an int an int.
    assert [type(read.data[k]) for k in ("i", "neg", "big", "tiny", "whole")] == [
        int, int, float, float, float
    ]
    assert (read.data["big"], read.data["tiny"], read.data["i"]) == (1e16, 5e-324, 2**70)
    data["s"] = "changed later by the caller"
    assert (await log.read("po"))[0].data["s"] == event.data["s"] != "changed later"


@pytest.mark.parametrize(
    "data",
    [{"x": float("nan")}, {"x": float("inf")}, {"x": {1, 2}}, {1: "a"}, {"x": {2: "b"}},
     {"x": object()}, {"t": T0}, ["not", "an", "object"], "text"],
)
async def test_bad_data_is_refused_and_changes_nothing(log: AsyncEventLog, data: Any) -> None:
    await log.append("po", "ok", {}, actor=None, recorded_at=T0)
    with pytest.raises(InvalidEventError):
        await log.append("po", "bad", data, actor=None, recorded_at=T0)
    assert await types_in(log, "po") == ["ok"]


async def test_bad_arguments_are_refused(log: AsyncEventLog) -> None:
    with pytest.raises(InvalidEventError, match="timezone"):
        await log.append("po", "x", {}, actor=None, recorded_at=datetime(2025, 1, 1))
    with pytest.raises(InvalidEventError, match="stream"):
        await log.append("", "x", {}, actor=None, recorded_at=T0)
    with pytest.raises(InvalidEventError, match="type"):
        await log.append("po", "", {}, actor=None, recorded_at=T0)
    with pytest.raises(InvalidEventError, match="expected_seq"):
        await log.append("po", "x", {}, actor=None, recorded_at=T0, expected_seq=-1)
    with pytest.raises(InvalidEventError, match="no events"):
        await log.append_many("po", [], actor=None, recorded_at=T0)
    assert await log.streams() == []


async def test_a_store_reopened_reads_what_was_appended(backend: Backend) -> None:
    first = backend.open()
    try:
        made = await first.append_many(
            "po", [NewEvent("a", {"k": [1, 2.5]}), NewEvent("b", {})], actor="ca",
            recorded_at=at(1), command_id="c", fingerprint="f",
        )
    finally:
        await first.aclose()
    again = backend.open()
    try:
        assert await again.read("po") == made
        assert await again.find_command("po", "c") == made
    finally:
        await again.aclose()


async def test_a_closed_store_refuses_calls(backend: Backend) -> None:
    store = backend.open()
    await store.append("po", "x", {}, actor=None, recorded_at=T0)
    await store.aclose()
    await store.aclose()  # idempotent
    with pytest.raises(StoreClosedError):
        await store.append("po", "x", {}, actor=None, recorded_at=T0)
    with pytest.raises(StoreClosedError):
        await store.read("po")


# --------------------------------------------------------------------------- atomicity


async def test_append_many_is_all_or_nothing(backend: Backend, log: AsyncEventLog) -> None:
    await log.append("po", "created", {}, actor=None, recorded_at=T0)
    backend.fail_inserts_of("boom")
    batch = [NewEvent("a", {}), NewEvent("b", {}), NewEvent("boom", {}), NewEvent("c", {})]
    with pytest.raises(Exception, match="injected failure"):
        await log.append_many("po", batch, actor=None, recorded_at=T0)
    with pytest.raises(InvalidEventError):
        await log.append_many("po", [NewEvent("a", {}), NewEvent("b", {"x": float("nan")})],
                              actor=None, recorded_at=T0)
    assert await types_in(log, "po") == ["created"]
    # The store goes on working after a rolled-back append.
    assert (await log.append("po", "d", {}, actor=None, recorded_at=T0)).seq == 2
    stored = await log.append_many("po", [NewEvent("e", {}), NewEvent("f", {})], actor="x",
                                   recorded_at=at(3))
    assert [(e.seq, e.type, e.actor, e.recorded_at) for e in stored] == [
        (3, "e", "x", at(3)), (4, "f", "x", at(3))
    ]
    assert await log.read("po", after=2) == stored


async def test_an_atomic_append_stores_every_stream_or_none(
    backend: Backend, log: AsyncEventLog
) -> None:
    """A play-off and its link in its event's stream: both, or neither."""
    await log.append("event-1", "created", {}, actor=None, recorded_at=T0)
    made = await log.append_atomic([
        AppendRequest("playoff-9", [NewEvent("a", {}), NewEvent("b", {})], "ca", at(1), 0),
        AppendRequest("event-1", [NewEvent("playoff-linked", {"id": 9})], "ca", at(1), 1),
    ])
    assert [[(e.stream, e.seq, e.type) for e in part] for part in made] == [
        [("playoff-9", 1, "a"), ("playoff-9", 2, "b")], [("event-1", 2, "playoff-linked")]
    ]
    assert await log.read("playoff-9") == made[0]
    assert await log.read("event-1", after=1) == made[1]

    # A second creation raced the first: its link expects the event at seq 1.
    with pytest.raises(ConcurrencyError) as caught:
        await log.append_atomic([
            AppendRequest("playoff-8", [NewEvent("a", {})], None, T0, 0),
            AppendRequest("event-1", [NewEvent("playoff-linked", {})], None, T0, 1),
        ])
    assert (caught.value.stream, caught.value.expected, caught.value.actual) == (
        "event-1", 1, 2
    )
    with pytest.raises(InvalidEventError):
        await log.append_atomic([
            AppendRequest("playoff-7", [NewEvent("a", {})], None, T0, 0),
            AppendRequest("event-1", [NewEvent("x", {"bad": float("nan")})], None, T0),
        ])
    backend.fail_inserts_of("boom")
    with pytest.raises(Exception, match="injected failure"):
        await log.append_atomic([
            AppendRequest("playoff-6", [NewEvent("a", {})], None, T0, 0),
            AppendRequest("event-1", [NewEvent("boom", {})], None, T0, 2),
        ])
    assert await log.streams("playoff-") == ["playoff-9"]
    assert await types_in(log, "event-1") == ["created", "playoff-linked"]
    assert await log.append_atomic([]) == []


async def test_an_atomic_append_raises_the_refusal_of_its_earliest_request(
    log: AsyncEventLog,
) -> None:
    await log.append("z", "x", {}, actor=None, recorded_at=T0)
    await log.append("a", "x", {}, actor=None, recorded_at=T0, command_id="c")
    await log.append_many("a", [NewEvent("y", {})], actor=None, recorded_at=T0,
                          command_id="k", fingerprint="f1")
    with pytest.raises(ConcurrencyError) as caught:
        await log.append_atomic([
            AppendRequest("z", [NewEvent("x", {})], None, T0, expected_seq=0),
            AppendRequest("a", [NewEvent("x", {})], None, T0, command_id="k", fingerprint="f2"),
        ])
    assert caught.value.stream == "z"
    with pytest.raises(CommandIdReusedError):
        await log.append_atomic([
            AppendRequest("a", [NewEvent("x", {})], None, T0, command_id="k", fingerprint="f2"),
            AppendRequest("z", [NewEvent("x", {})], None, T0, expected_seq=0),
        ])
    assert [await log.last_seq(s) for s in ("a", "z")] == [2, 1]


async def test_an_atomic_append_keeps_the_order_of_one_streams_requests(
    log: AsyncEventLog,
) -> None:
    made = await log.append_atomic([
        AppendRequest("b", [NewEvent("b1", {})], None, T0, expected_seq=0),
        AppendRequest("a", [NewEvent("a1", {})], None, T0),
        AppendRequest("b", [NewEvent("b2", {}), NewEvent("b3", {})], None, T0, expected_seq=1),
        AppendRequest("a", [NewEvent("a2", {})], None, T0, command_id="c"),
    ])
    assert [[(e.stream, e.seq, e.type) for e in part] for part in made] == [
        [("b", 1, "b1")], [("a", 1, "a1")], [("b", 2, "b2"), ("b", 3, "b3")], [("a", 2, "a2")]
    ]
    # A group one of whose requests has its command id stored was logged before
    # (by this writer or another, sent both the same command): nothing of it is
    # stored again, and the refusal carries that command's events as first logged.
    with pytest.raises(CommandLoggedError) as caught:
        await log.append_atomic([
            AppendRequest("a", [NewEvent("a2", {})], None, at(5), command_id="c"),
            AppendRequest("b", [NewEvent("b4", {})], None, at(5), expected_seq=3),
        ])
    assert caught.value.earlier == made[3]
    assert [await log.last_seq(s) for s in ("a", "b")] == [2, 3]
    # Alone, the same request is answered with its events, and nothing is stored.
    assert await log.append_many("a", [NewEvent("a2", {})], actor=None, recorded_at=at(5),
                                 command_id="c") == made[3]


# --------------------------------------------------------------------------- commands


async def test_expected_seq_guards_against_lost_updates(log: AsyncEventLog) -> None:
    await log.append("po", "created", {}, actor=None, recorded_at=T0, expected_seq=0)
    with pytest.raises(ConcurrencyError) as caught:
        await log.append("po", "created", {}, actor=None, recorded_at=T0, expected_seq=0)
    assert (caught.value.stream, caught.value.expected, caught.value.actual) == ("po", 0, 1)
    await log.append("po", "paused", {}, actor=None, recorded_at=T0, expected_seq=1)
    with pytest.raises(ConcurrencyError) as caught:
        await log.append_many("po", [NewEvent("a", {})], actor=None, recorded_at=T0,
                              expected_seq=5)
    assert (caught.value.expected, caught.value.actual) == (5, 2)
    assert await types_in(log, "po") == ["created", "paused"]


async def test_a_resent_command_is_applied_once(log: AsyncEventLog) -> None:
    first = await log.append("po", "clock-pressed", {"move": 7}, actor="board-1",
                             recorded_at=at(0), command_id="cmd-1")
    assert first.command_id == "cmd-1"
    await log.append("po", "clock-pressed", {"move": 8}, actor="board-1", recorded_at=at(1))
    again = await log.append("po", "clock-pressed", {"move": 7}, actor="board-1",
                             recorded_at=at(5), command_id="cmd-1", expected_seq=1)
    assert again == first
    assert await log.last_seq("po") == 2
    # The same command id in another stream is another command.
    other = await log.append("po-2", "x", {}, actor=None, recorded_at=T0, command_id="cmd-1")
    assert other.seq == 1


async def test_a_resent_batch_returns_the_whole_original_batch(log: AsyncEventLog) -> None:
    batch = [NewEvent("result-recorded", {"game": 1}), NewEvent("winner-advanced", {"to": 2})]
    first = await log.append_many("po", batch, actor="ca", recorded_at=T0, command_id="c",
                                  fingerprint="f1")
    assert [(e.seq, e.command_id, e.command_fingerprint) for e in first] == [
        (1, "c", "f1"), (2, None, None)
    ]
    await log.append("po", "later", {}, actor=None, recorded_at=T0)
    for fingerprint in ("f1", None):
        again = await log.append_many("po", batch, actor="ca", recorded_at=at(9),
                                      command_id="c", fingerprint=fingerprint)
        assert again == first
    with pytest.raises(CommandIdReusedError) as caught:
        await log.append_many("po", batch, actor="ca", recorded_at=at(9), command_id="c",
                              fingerprint="f2")
    assert (caught.value.stream, caught.value.command_id) == ("po", "c")
    # Stored without a fingerprint: any request with the id gets its events.
    plain = await log.append("po", "x", {}, actor=None, recorded_at=T0, command_id="d")
    assert plain.command_fingerprint is None
    assert await log.append_many("po", [NewEvent("x", {})], actor=None, recorded_at=T0,
                                 command_id="d", fingerprint="any") == [plain]
    assert await log.last_seq("po") == 4


async def test_commands_are_found_by_id(log: AsyncEventLog) -> None:
    assert await log.find_command("po", "c") is None
    assert await log.find_command_anywhere("c") is None
    batch = await log.append_many("po-b", [NewEvent("a", {}), NewEvent("b", {})], actor="ca",
                                  recorded_at=T0, command_id="c", fingerprint="f")
    await log.append("po-b", "later", {}, actor=None, recorded_at=T0)
    lone = await log.append("po-a", "x", {"n": 1}, actor=None, recorded_at=T0, command_id="c")
    assert await log.find_command("po-b", "c") == batch
    assert await log.find_command("po-a", "c") == [lone]
    assert await log.find_command("po-c", "c") is None
    # In whichever stream: the first stream by name that has it.
    assert await log.find_command_anywhere("c") == [lone]
    assert await log.find_command_anywhere("nothing") is None


# --------------------------------------------------------------------------- secret


async def test_the_secret_is_made_with_the_log_and_kept(backend: Backend) -> None:
    store = backend.open()
    try:
        secret = await store.secret()
        assert len(bytes.fromhex(secret)) == 32
        assert await store.secret() == secret
    finally:
        await store.aclose()
    store = backend.open()
    try:
        assert await store.secret() == secret
    finally:
        await store.aclose()


# --------------------------------------------------------------------------- snapshots


async def test_snapshots_keep_the_latest_of_each_stream(log: AsyncEventLog) -> None:
    assert await log.snapshots() == {}
    await log.save_snapshots([])
    a5 = Snapshot("playoff-a", 5, "v1", b"\x00state\xff")
    await log.save_snapshots([a5, Snapshot("event-1", 2, "v1", b"e")])
    assert await log.snapshots() == {"playoff-a": a5, "event-1": Snapshot("event-1", 2, "v1", b"e")}
    # An older snapshot never replaces a newer one; the same seq or a later one does.
    await log.save_snapshots([Snapshot("playoff-a", 4, "v1", b"old")])
    assert (await log.snapshots())["playoff-a"] == a5
    a5v2 = Snapshot("playoff-a", 5, "v2", b"same seq, newer code")
    await log.save_snapshots([a5v2])
    assert (await log.snapshots())["playoff-a"] == a5v2
    # Within one call, each in turn.
    await log.save_snapshots([
        Snapshot("playoff-a", 9, "v2", b"9"), Snapshot("playoff-a", 7, "v2", b"7"),
        Snapshot("playoff-b", 1, "v2", b""),
    ])
    assert await log.snapshots("playoff-") == {
        "playoff-a": Snapshot("playoff-a", 9, "v2", b"9"),
        "playoff-b": Snapshot("playoff-b", 1, "v2", b""),
    }
    assert list(await log.snapshots("event-")) == ["event-1"]
    assert await log.snapshots("nothing") == {}


# --------------------------------------------------------------------------- streams


async def test_streams_sorted_by_code_point_and_by_prefix(log: AsyncEventLog) -> None:
    names = ["po-b", "ev-1", "po-a", "po-a", "pp", "po", "po_x", "po%", "Po", "poé", "po-ä",
             "po\U0001f600", "po-A"]
    for name in names:
        await log.append(name, "x", {}, actor=None, recorded_at=T0)
    assert await log.streams() == sorted(set(names))
    assert await log.streams("po-") == ["po-A", "po-a", "po-b", "po-ä"]
    assert await log.streams("po") == sorted({n for n in names if n.startswith("po")})
    assert await log.streams("po%") == ["po%"]
    assert await log.streams("po_") == ["po_x"]
    assert await log.streams("zz") == []
    assert await log.streams("") == await log.streams()


# --------------------------------------------------------------------------- concurrency


async def test_a_log_named_by_its_url_reads_what_was_written_to_it(backend: Backend) -> None:
    store = backend.open()
    await store.append("playoff-u", "created", {"n": 1}, actor="a1", recorded_at=at(0))
    await store.aclose()
    named = open_log(backend.url, wait_s=5.0)
    try:
        assert [(e.type, e.data) for e in await named.read("playoff-u")] == [
            ("created", {"n": 1})
        ]
    finally:
        await named.aclose()


def test_a_url_no_back_end_knows_is_refused_without_being_shown() -> None:
    with pytest.raises(ValueError) as refused:
        open_log("mysql://organiser:hunter2@db.example/playoffs", wait_s=5.0)
    assert "'mysql:'" in str(refused.value)
    assert "postgresql:" in str(refused.value) and "sqlite:" in str(refused.value)
    assert "hunter2" not in str(refused.value)


async def test_a_log_shared_by_workers_elects_one_leader_at_a_time(backend: Backend) -> None:
    first, second = backend.open(), backend.open()
    try:
        leases = [first.lease(poll_s=0.05), second.lease(poll_s=0.05)]
        if backend.name == "sqlite":
            # A file serves one process: there is no one to elect it against.
            assert leases == [None, None]
            return
        assert leases[0] is not None and leases[1] is not None
        elected: list[int] = []
        deposed: list[int] = []

        def follow(n: int) -> Any:
            async def on_elected() -> None:
                elected.append(n)

            return on_elected, lambda: deposed.append(n)

        runs = [asyncio.create_task(lease.run(*follow(n))) for n, lease in enumerate(leases)]
        async with asyncio.timeout(10):
            while not elected:
                await asyncio.sleep(0.01)
        await asyncio.sleep(0.3)  # several polls: nobody else is elected meanwhile
        leader = elected[0]
        assert elected == [leader]
        runs[leader].cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await runs[leader]
        async with asyncio.timeout(10):
            while len(elected) < 2:
                await asyncio.sleep(0.01)
        assert elected == [leader, 1 - leader] and deposed == [leader]
        runs[1 - leader].cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await runs[1 - leader]
    finally:
        await first.aclose()
        await second.aclose()


async def test_concurrent_appenders_to_one_stream_get_gapless_seqs(backend: Backend) -> None:
    """Two workers (two stores on one log), eight tasks each, no expected seq: every
    event stored once, numbered 1..n without a gap."""
    workers = [backend.open(), backend.open()]
    try:
        async def appender(worker: AsyncEventLog, n: int) -> list[StoredEvent]:
            mine = []
            for i in range(20):
                mine.append(await worker.append("po", "x", {"task": n, "i": i}, actor=None,
                                                recorded_at=T0))
            return mine

        acked = await asyncio.gather(
            *(appender(workers[n % 2], n) for n in range(16))
        )
        events = await workers[0].read("po")
        assert [e.seq for e in events] == list(range(1, 321))
        assert len({(e.data["task"], e.data["i"]) for e in events}) == 320
        assert sorted(itertools.chain(*acked), key=lambda e: e.seq) == events
        for mine in acked:  # each task's appends in the order it made them
            assert [e.data["i"] for e in mine] == list(range(20))
            assert [e.seq for e in mine] == sorted(e.seq for e in mine)
    finally:
        for worker in workers:
            await worker.aclose()


async def test_concurrent_appenders_at_one_expected_seq_one_wins(backend: Backend) -> None:
    workers = [backend.open(), backend.open()]
    try:
        for seq in range(8):
            results = await asyncio.gather(
                *(
                    workers[n % 2].append("po", "x", {"n": n}, actor=None, recorded_at=T0,
                                          expected_seq=seq)
                    for n in range(8)
                ),
                return_exceptions=True,
            )
            won = [r for r in results if isinstance(r, StoredEvent)]
            lost = [r for r in results if isinstance(r, ConcurrencyError)]
            assert len(won) == 1 and won[0].seq == seq + 1, results
            assert len(lost) == 7, results
            assert {(e.expected, e.actual) for e in lost} == {(seq, seq + 1)}
        assert [e.seq for e in await workers[1].read("po")] == list(range(1, 9))
    finally:
        for worker in workers:
            await worker.aclose()


async def test_a_command_resent_while_it_commits_is_stored_once(backend: Backend) -> None:
    workers = [backend.open(), backend.open()]
    try:
        results = await asyncio.gather(*(
            workers[n % 2].append_many(
                "po", [NewEvent("a", {}), NewEvent("b", {})], actor=None, recorded_at=T0,
                command_id="same", fingerprint="f",
            )
            for n in range(10)
        ))
        assert all(r == results[0] for r in results)
        assert [e.seq for e in results[0]] == [1, 2]
        assert await workers[0].last_seq("po") == 2
    finally:
        for worker in workers:
            await worker.aclose()


async def test_concurrent_atomic_appends_crosswise_all_land(backend: Backend) -> None:
    """Calls that write the same two streams in opposite orders neither deadlock nor
    lose an event."""
    workers = [backend.open(), backend.open()]
    try:
        def pair(n: int) -> list[AppendRequest]:
            first, second = ("left", "right") if n % 2 else ("right", "left")
            return [AppendRequest(first, [NewEvent("x", {"n": n})], None, T0),
                    AppendRequest(second, [NewEvent("x", {"n": n})], None, T0)]

        await asyncio.gather(*(workers[n % 2].append_atomic(pair(n)) for n in range(24)))
        for stream in ("left", "right"):
            events = await workers[0].read(stream)
            assert [e.seq for e in events] == list(range(1, 25))
            assert sorted(e.data["n"] for e in events) == list(range(24))
    finally:
        for worker in workers:
            await worker.aclose()


# --------------------------------------------------------------------------- PostgreSQL


async def test_postgres_schema_is_made_once_by_workers_starting_together(
    pg_database: str,
) -> None:
    stores = [PostgresEventStore(pg_database) for _ in range(6)]
    try:
        await asyncio.gather(*(store.open() for store in stores))
        secrets = {await store.secret() for store in stores}
        assert len(secrets) == 1
    finally:
        for store in stores:
            await store.aclose()
    with psycopg.connect(pg_database) as conn:
        row = conn.execute("SELECT version FROM playoff_schema").fetchone()
        assert row == (pg_store.SCHEMA_VERSION,)


async def test_postgres_refuses_a_newer_schema_and_leaves_it_alone(
    pg_database: str,
) -> None:
    async with PostgresEventStore(pg_database) as store:
        await store.append("po", "x", {}, actor=None, recorded_at=T0)
    with psycopg.connect(pg_database, autocommit=True) as conn:
        conn.execute("UPDATE playoff_schema SET version = version + 1")
    store = PostgresEventStore(pg_database)
    with pytest.raises(SchemaVersionError, match="newer than this program"):
        await store.open()
    await store.aclose()
    with psycopg.connect(pg_database) as conn:
        assert conn.execute("SELECT count(*) FROM events").fetchone() == (1,)
        assert conn.execute("SELECT version FROM playoff_schema").fetchone() == (
            pg_store.SCHEMA_VERSION + 1,
        )


async def test_postgres_refuses_a_database_with_another_events_table(
    pg_database: str,
) -> None:
    with psycopg.connect(pg_database, autocommit=True) as conn:
        conn.execute("CREATE TABLE events (id int)")
    store = PostgresEventStore(pg_database)
    with pytest.raises(SchemaVersionError, match="not a play-off event log"):
        await store.open()
    await store.aclose()


async def test_postgres_keeps_separate_logs_in_schemas_of_one_database(
    pg_database: str,
) -> None:
    with psycopg.connect(pg_database, autocommit=True) as conn:
        conn.execute("CREATE SCHEMA hall_a")
        conn.execute("CREATE SCHEMA hall_b")
    a = PostgresEventStore(f"{pg_database}?options=-csearch_path%3Dhall_a")
    b = PostgresEventStore(f"{pg_database}?options=-csearch_path%3Dhall_b")
    try:
        await a.append("po", "in-a", {}, actor=None, recorded_at=T0)
        await b.append("po", "in-b", {}, actor=None, recorded_at=T0)
        assert await types_in(a, "po") == ["in-a"]
        assert await types_in(b, "po") == ["in-b"]
        assert await a.secret() != await b.secret()
    finally:
        await a.aclose()
        await b.aclose()


async def test_postgres_refuses_names_it_cannot_store(pg_database: str) -> None:
    async with PostgresEventStore(pg_database) as store:
        with pytest.raises(InvalidEventError, match="NUL"):
            await store.append("po\x00", "x", {}, actor=None, recorded_at=T0)
        with pytest.raises(InvalidEventError, match="Unicode"):
            await store.append("po", "x", {"s": "\ud800"}, actor=None, recorded_at=T0)
        assert await store.read("po\x00") == []
        assert await store.streams() == []


async def test_postgres_commits_are_synchronous(pg_database: str) -> None:
    with psycopg.connect(pg_database, autocommit=True) as conn:
        conn.execute(f"ALTER DATABASE {conn.info.dbname} SET synchronous_commit = off")
    async with PostgresEventStore(pg_database) as store:
        pool = store._pool
        assert pool is not None
        async with pool.connection() as conn:
            cursor = await conn.execute("SHOW synchronous_commit")
            assert await cursor.fetchone() == ("on",)


# --------------------------------------------------------------------------- the service


@asynccontextmanager
async def serving(app: FastAPI) -> AsyncIterator[str]:
    """The app on a free port, in this test's own event loop (where its store's
    connections live); its base URL."""
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(
        app, host="127.0.0.1", port=port, log_level="warning", ws_max_size=65536
    ))
    task = asyncio.create_task(server.serve())
    while not server.started:
        if task.done():
            task.result()
            raise RuntimeError("the server did not start")
        await asyncio.sleep(0.01)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        await task


def ok(response: httpx.Response) -> dict[str, Any]:
    assert response.status_code in (200, 201), response.text
    body: dict[str, Any] = response.json()
    return body


async def test_the_service_serves_a_playoff_on_postgres_and_restarts_on_it(
    pg_database: str,
    tmp_path: Path,
) -> None:
    clock = ManualTime()
    settings = Settings(db_path=tmp_path / "never-used.db")
    abdusattorov = "14204118"

    store = PostgresEventStore(pg_database)
    try:
        async with serving(create_app(settings, clock, store=store)) as base, httpx.AsyncClient(
            base_url=base, trust_env=False, timeout=10
        ) as http:
            created = ok(await http.post(
                "/api/events", content=uzchess_json().encode(),
                headers={"Content-Type": "application/json"},
            ))
            chief = {"Authorization": f"Bearer {created['chief_token']}"}
            playoff_id = ok(await http.post(
                f"/api/events/{created['id']}/playoff", json={}, headers=chief
            ))["id"]
            arbiter = ok(await http.post(
                f"/api/events/{created['id']}/tokens",
                json={"role": "arbiter", "label": "deputy"}, headers=chief,
            ))["token"]
            ok(await http.post(
                f"/api/playoffs/{playoff_id}/matches/1/lots",
                json={"method": "physical", "white": abdusattorov}, headers=chief,
            ))
            async with PlayoffClient(base, playoff_id, arbiter, name="arbiter") as client:
                started = await client.command("start-clock", match=1, game=1)
                clock.advance(12_345)
                white = await client.command("press", match=1, game=1, side="white", move=1)
                clock.advance(7_000)
                black = await client.command("press", match=1, game=1, side="black", move=1)
                # A command resent with its id is answered again, not applied again.
                again = await client.command(
                    "press", match=1, game=1, side="black", move=1, id=black.id
                )
            assert [started.seqs[-1] + 1, white.seqs[-1] + 1] == [white.seqs[0], black.seqs[0]]
            assert again.seqs == black.seqs
            url = f"/api/playoffs/{playoff_id}"
            before = ok(await http.get(url, headers=chief))
            log = ok(await http.get(f"{url}/events", headers=chief))["events"]
            game = before["matches"][0]["games"][0]
            assert game["started_at"] is not None
            assert before["seq"] == black.seqs[-1] == log[-1]["seq"]
            assert [e["type"] for e in log].count("clock-pressed") == 2
        kept = await store.snapshots()
        assert kept[f"playoff-{playoff_id}"].seq == before["seq"]  # saved at the stop
    finally:
        await store.aclose()

    # A new process on the same database: the same play-off, and it goes on.
    store = PostgresEventStore(pg_database)
    try:
        async with serving(create_app(settings, clock, store=store)) as base, httpx.AsyncClient(
            base_url=base, trust_env=False, timeout=10
        ) as http:
            assert ok(await http.get(url, headers=chief)) == before
            assert ok(await http.get(f"{url}/events", headers=chief))["events"] == log
            async with PlayoffClient(base, playoff_id, arbiter, name="arbiter") as client:
                clock.advance(3_000)
                pressed = await client.command("press", match=1, game=1, side="white", move=2)
            assert pressed.seqs == [before["seq"] + 1]
        assert len(await store.read(f"playoff-{playoff_id}")) == before["seq"] + 1
    finally:
        await store.aclose()
