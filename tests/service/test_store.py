"""The event log: SQLite files in tmp_path, killed writers, and the group-commit async face."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import threading
from collections.abc import Iterator, Sequence
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest

from orchestrator.store import (
    SCHEMA_VERSION,
    AppendRequest,
    AsyncEventStore,
    AtomicAppend,
    ConcurrencyError,
    EventStore,
    InvalidEventError,
    NewEvent,
    SchemaVersionError,
    SqliteEventStore,
    StoreClosedError,
    StoredEvent,
    StoreError,
)
from tests.support import ROOT

T0 = datetime(2025, 7, 1, 14, 0, tzinfo=UTC)


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "events.db"


@pytest.fixture
def store(path: Path) -> Iterator[SqliteEventStore]:
    with SqliteEventStore(path) as s:
        yield s


def add_failing_trigger(path: Path, event_type: str = "boom") -> None:
    """Make every insert of an event of ``event_type`` fail inside the transaction."""
    conn = sqlite3.connect(path)
    conn.execute(
        f"CREATE TRIGGER fail BEFORE INSERT ON events WHEN NEW.type = '{event_type}' "
        "BEGIN SELECT RAISE(ABORT, 'injected failure'); END"
    )
    conn.commit()
    conn.close()


# --------------------------------------------------------------------------- basics


def test_is_an_event_store(store: SqliteEventStore) -> None:
    assert isinstance(store, EventStore)


def test_append_and_read_number_each_stream_from_one(store: SqliteEventStore) -> None:
    a1 = store.append("po-1", "playoff-created", {"format": "gct"}, actor="ca", recorded_at=at(0))
    b1 = store.append("po-2", "playoff-created", {}, actor=None, recorded_at=at(1))
    a2 = store.append("po-1", "clock-pressed", {"side": "white", "move": 1},
                      actor="board-1", recorded_at=at(2))
    assert (a1.seq, b1.seq, a2.seq) == (1, 1, 2)
    assert a2 == StoredEvent("po-1", 2, "clock-pressed", {"side": "white", "move": 1},
                             "board-1", at(2), None)
    assert store.read("po-1") == [a1, a2]
    assert store.read("po-1", after=1) == [a2]
    assert store.read("po-1", limit=1) == [a1]
    assert store.read("po-1", after=2) == []
    assert store.read("nobody") == []
    assert (store.last_seq("po-1"), store.last_seq("po-2"), store.last_seq("nobody")) == (2, 1, 0)


def test_streams_sorted_and_by_prefix(store: SqliteEventStore) -> None:
    for name in ["po-b", "ev-1", "po-a", "po-a", "pp", "po"]:
        store.append(name, "x", {}, actor=None, recorded_at=T0)
    assert store.streams() == ["ev-1", "po", "po-a", "po-b", "pp"]
    assert store.streams("po-") == ["po-a", "po-b"]
    assert store.streams("po") == ["po", "po-a", "po-b"]
    assert store.streams("zz") == []


def test_recorded_at_is_kept_in_utc_to_the_microsecond(store: SqliteEventStore) -> None:
    tashkent = timezone(timedelta(hours=5))
    when = datetime(2025, 7, 1, 19, 0, 0, 123456, tzinfo=tashkent)
    event = store.append("po", "x", {}, actor=None, recorded_at=when)
    (read,) = store.read("po")
    assert read.recorded_at == when == event.recorded_at
    assert read.recorded_at.utcoffset() == timedelta(0)
    assert read.recorded_at.microsecond == 123456


def test_data_round_trips_as_json(store: SqliteEventStore) -> None:
    data = {"s": "Ä ♞", "i": 2**40, "f": 0.5, "b": True, "n": None,
            "l": [1, (2, 3)], "o": {"k": []}}
    event = store.append("po", "x", data, actor=None, recorded_at=T0)
    assert event.data == store.read("po")[0].data
    assert event.data["l"] == [1, [2, 3]]
    data["s"] = "changed later by the caller"
    assert store.read("po")[0].data["s"] == "Ä ♞" == event.data["s"]


@pytest.mark.parametrize(
    "data",
    [{"x": float("nan")}, {"x": float("inf")}, {"x": {1, 2}}, {1: "a"}, {"x": {2: "b"}},
     {"x": object()}, {"t": T0}, ["not", "an", "object"], "text"],
)
def test_bad_data_is_refused_and_changes_nothing(store: SqliteEventStore, data: Any) -> None:
    store.append("po", "ok", {}, actor=None, recorded_at=T0)
    with pytest.raises(InvalidEventError):
        store.append("po", "bad", data, actor=None, recorded_at=T0)
    assert [e.type for e in store.read("po")] == ["ok"]


def test_bad_arguments_are_refused(store: SqliteEventStore) -> None:
    with pytest.raises(InvalidEventError, match="timezone"):
        store.append("po", "x", {}, actor=None, recorded_at=datetime(2025, 1, 1))
    with pytest.raises(InvalidEventError, match="stream"):
        store.append("", "x", {}, actor=None, recorded_at=T0)
    with pytest.raises(InvalidEventError, match="type"):
        store.append("po", "", {}, actor=None, recorded_at=T0)
    with pytest.raises(InvalidEventError, match="expected_seq"):
        store.append("po", "x", {}, actor=None, recorded_at=T0, expected_seq=-1)
    with pytest.raises(InvalidEventError, match="no events"):
        store.append_many("po", [], actor=None, recorded_at=T0)
    assert store.streams() == []


def test_a_corrupt_stored_event_is_reported_not_misread(path: Path) -> None:
    with SqliteEventStore(path) as store:
        for i in range(3):
            store.append("po", "x", {"i": i}, actor=None, recorded_at=T0)
    conn = sqlite3.connect(path)
    conn.execute("UPDATE events SET data = '{\"i\": ' WHERE seq = 2")
    conn.commit()
    conn.close()
    with SqliteEventStore(path) as store:
        assert store.read("po", limit=1)[0].data == {"i": 0}
        with pytest.raises(StoreError, match="not JSON"):
            store.read("po")


# --------------------------------------------------------------------------- commands


def test_a_resent_command_is_applied_once(store: SqliteEventStore) -> None:
    first = store.append("po", "clock-pressed", {"move": 7}, actor="board-1",
                         recorded_at=at(0), command_id="cmd-1")
    store.append("po", "clock-pressed", {"move": 8}, actor="board-1", recorded_at=at(1))
    again = store.append("po", "clock-pressed", {"move": 7}, actor="board-1",
                         recorded_at=at(5), command_id="cmd-1", expected_seq=1)
    assert again == first
    assert again.command_id == "cmd-1"
    assert store.last_seq("po") == 2
    # The same command id in another stream is another command.
    other = store.append("po-2", "x", {}, actor=None, recorded_at=T0, command_id="cmd-1")
    assert other.seq == 1


def test_a_resent_batch_returns_the_whole_original_batch(store: SqliteEventStore) -> None:
    batch = [NewEvent("result-recorded", {"game": 1}), NewEvent("winner-advanced", {"to": 2})]
    first = store.append_many("po", batch, actor="ca", recorded_at=T0, command_id="c")
    store.append("po", "later", {}, actor=None, recorded_at=T0)
    again = store.append_many("po", batch, actor="ca", recorded_at=at(9), command_id="c")
    assert again == first
    assert [e.seq for e in first] == [1, 2]
    assert store.last_seq("po") == 3


# --------------------------------------------------------------------------- concurrency


def test_expected_seq_guards_against_lost_updates(store: SqliteEventStore) -> None:
    store.append("po", "created", {}, actor=None, recorded_at=T0, expected_seq=0)
    with pytest.raises(ConcurrencyError) as caught:
        store.append("po", "created", {}, actor=None, recorded_at=T0, expected_seq=0)
    assert (caught.value.stream, caught.value.expected, caught.value.actual) == ("po", 0, 1)
    store.append("po", "paused", {}, actor=None, recorded_at=T0, expected_seq=1)
    with pytest.raises(ConcurrencyError):
        store.append_many("po", [NewEvent("a", {})], actor=None, recorded_at=T0, expected_seq=1)
    assert [e.type for e in store.read("po")] == ["created", "paused"]


def test_threads_appending_at_once_get_gapless_seqs(store: SqliteEventStore) -> None:
    def work(n: int) -> None:
        for i in range(25):
            store.append("po", "x", {"thread": n, "i": i}, actor=None, recorded_at=T0)
            store.read("po", after=max(0, store.last_seq("po") - 3))

    threads = [threading.Thread(target=work, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    events = store.read("po")
    assert [e.seq for e in events] == list(range(1, 201))
    assert len({(e.data["thread"], e.data["i"]) for e in events}) == 200


# --------------------------------------------------------------------------- atomicity


def test_append_many_is_all_or_nothing(path: Path) -> None:
    with SqliteEventStore(path) as store:
        store.append("po", "created", {}, actor=None, recorded_at=T0)
    add_failing_trigger(path)
    with SqliteEventStore(path) as store:
        batch = [NewEvent("a", {}), NewEvent("b", {}), NewEvent("boom", {}), NewEvent("c", {})]
        with pytest.raises(sqlite3.IntegrityError, match="injected failure"):
            store.append_many("po", batch, actor=None, recorded_at=T0)
        with pytest.raises(InvalidEventError):
            store.append_many("po", [NewEvent("a", {}), NewEvent("b", {"x": float("nan")})],
                              actor=None, recorded_at=T0)
        assert [e.type for e in store.read("po")] == ["created"]
        # The store goes on working after a rolled-back append.
        assert store.append("po", "d", {}, actor=None, recorded_at=T0).seq == 2


def test_append_group_refuses_one_request_alone(path: Path) -> None:
    SqliteEventStore(path).close()
    add_failing_trigger(path)
    with SqliteEventStore(path) as store:
        results = store.append_group([
            AppendRequest("po", [NewEvent("a", {})], None, T0),
            AppendRequest("po", [NewEvent("b", {}), NewEvent("boom", {})], None, T0),
            AppendRequest("po", [NewEvent("c", {})], None, T0, expected_seq=5),
            AppendRequest("po", [NewEvent("d", {"x": float("nan")})], None, T0),
            AppendRequest("po", [NewEvent("e", {})], None, T0, expected_seq=1),
        ])
        assert isinstance(results[1], sqlite3.IntegrityError)
        assert isinstance(results[2], ConcurrencyError)
        assert isinstance(results[3], InvalidEventError)
        assert [[e.seq for e in r] for r in results if isinstance(r, list)] == [[1], [2]]
        assert [e.type for e in store.read("po")] == ["a", "e"]


def test_an_atomic_append_stores_every_stream_or_none(path: Path) -> None:
    """A play-off and its link in its event's stream: both, or neither."""
    with SqliteEventStore(path) as store:
        store.append("event-1", "created", {}, actor=None, recorded_at=T0)
        created = AppendRequest("playoff-9", [NewEvent("playoff-created", {})], None, T0, 0)
        linked = AppendRequest("event-1", [NewEvent("playoff-linked", {})], None, T0, 1)
        results = store.append_group([
            AtomicAppend((created, linked)),
            # A second creation raced the first: its link expects the event at seq 1.
            AtomicAppend((
                AppendRequest("playoff-8", [NewEvent("playoff-created", {})], None, T0, 0),
                AppendRequest("event-1", [NewEvent("playoff-linked", {})], None, T0, 1),
            )),
        ])
        assert [(e.stream, e.seq) for e in results[0]] == [("playoff-9", 1), ("event-1", 2)]
        assert isinstance(results[1], ConcurrencyError)
        assert store.read("playoff-8") == []  # nothing of the refused unit
        assert [e.type for e in store.read("event-1")] == ["created", "playoff-linked"]


async def test_the_async_store_appends_atomically(path: Path) -> None:
    async with AsyncEventStore(SqliteEventStore(path)) as aio:
        await aio.append("event-1", "created", {}, actor=None, recorded_at=T0)
        made = await aio.append_atomic([
            AppendRequest("playoff-9", [NewEvent("a", {}), NewEvent("b", {})], None, T0, 0),
            AppendRequest("event-1", [NewEvent("playoff-linked", {})], None, T0, 1),
        ])
        assert [[e.type for e in part] for part in made] == [["a", "b"], ["playoff-linked"]]
        with pytest.raises(ConcurrencyError):
            await aio.append_atomic([
                AppendRequest("playoff-8", [NewEvent("a", {})], None, T0, 0),
                AppendRequest("event-1", [NewEvent("playoff-linked", {})], None, T0, 1),
            ])
        assert await aio.read("playoff-8") == []


# --------------------------------------------------------------------------- restart


def test_reopening_finds_exactly_what_was_acknowledged(path: Path) -> None:
    acknowledged: list[StoredEvent] = []
    with SqliteEventStore(path) as store:
        for i in range(30):
            stream = f"po-{i % 3}"
            with contextlib.suppress(ConcurrencyError):  # refused: must not be stored
                acknowledged.append(store.append(
                    stream, "x", {"i": i}, actor="ca", recorded_at=at(i),
                    expected_seq=None if i % 7 else 0, command_id=f"c{i % 5}",
                ))
        acknowledged += store.append_many(
            "po-9", [NewEvent("a", {"k": [1]}), NewEvent("b", {})], actor=None, recorded_at=T0
        )
    with SqliteEventStore(path) as store:
        found = [e for stream in store.streams() for e in store.read(stream)]
    unique = list({(e.stream, e.seq): e for e in acknowledged}.values())
    assert sorted(found, key=lambda e: (e.stream, e.seq)) == sorted(
        unique, key=lambda e: (e.stream, e.seq)
    )


WRITER = textwrap.dedent("""
    import asyncio, sys
    from datetime import UTC, datetime
    from orchestrator.store import AsyncEventStore, SqliteEventStore

    path, mode = sys.argv[1], sys.argv[2]
    now = datetime(2025, 7, 1, tzinfo=UTC)
    store = SqliteEventStore(path)
    print("ready", flush=True)
    if mode == "sync":
        i = 0
        while True:
            i += 1
            event = store.append("po", "x", {"i": i}, actor=None, recorded_at=now)
            print(event.seq, flush=True)
    else:
        async def appender(aio, n):
            i = 0
            while True:
                i += 1
                event = await aio.append(f"po-{n % 4}", "x", {"n": n, "i": i},
                                         actor=None, recorded_at=now)
                print(event.stream, event.seq, flush=True)

        async def main():
            aio = AsyncEventStore(store)
            await asyncio.gather(*(appender(aio, n) for n in range(16)))

        asyncio.run(main())
""")


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_killed_writer_loses_no_acknowledged_event(path: Path, mode: str) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    child = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(path), mode],
        stdout=subprocess.PIPE, text=True, env=env, cwd=ROOT,
    )
    assert child.stdout is not None
    try:
        assert child.stdout.readline() == "ready\n"
        lines = [child.stdout.readline() for _ in range(300)]
    finally:
        child.send_signal(signal.SIGKILL)
        rest = child.stdout.read()
        child.wait()
    assert child.returncode == -signal.SIGKILL
    lines += rest.splitlines(keepends=True)
    acked = [tuple(line.split()) for line in lines if line.endswith("\n")]
    assert len(acked) >= 300

    with SqliteEventStore(path) as store:
        stored = {(e.stream, str(e.seq)) for s in store.streams() for e in store.read(s)}
        for stream in store.streams():
            assert [e.seq for e in store.read(stream)] == list(
                range(1, store.last_seq(stream) + 1)
            )
    if mode == "sync":
        acked = [("po", seq) for (seq,) in acked]
    missing = set(acked) - stored
    assert not missing, f"acknowledged but lost: {sorted(missing)[:5]}"


# --------------------------------------------------------------------------- schema


def test_a_new_file_gets_the_current_schema(path: Path) -> None:
    SqliteEventStore(path).close()
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    conn.close()
    SqliteEventStore(path).close()  # reopening migrates nothing and fails nothing


def test_a_newer_schema_is_refused_and_left_alone(path: Path) -> None:
    with SqliteEventStore(path) as store:
        store.append("po", "x", {}, actor=None, recorded_at=T0)
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    conn.execute("PRAGMA journal_mode = DELETE")
    conn.close()
    with pytest.raises(SchemaVersionError, match="newer than this program"):
        SqliteEventStore(path)
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    assert conn.execute("SELECT count(*) FROM events").fetchone()[0] == 1
    conn.close()


def test_a_file_that_is_not_an_event_log_is_refused(tmp_path: Path) -> None:
    text = tmp_path / "notes.txt"
    text.write_text("not a database at all, just some words " * 50)
    with pytest.raises(SchemaVersionError, match="not an SQLite event log"):
        SqliteEventStore(text)
    other = tmp_path / "other.db"
    conn = sqlite3.connect(other)
    conn.execute("CREATE TABLE t (x)")
    conn.commit()
    conn.close()
    with pytest.raises(SchemaVersionError, match="not a play-off event log"):
        SqliteEventStore(other)


def test_a_closed_store_refuses_work(path: Path) -> None:
    store = SqliteEventStore(path)
    store.close()
    store.close()
    with pytest.raises(StoreClosedError):
        store.append("po", "x", {}, actor=None, recorded_at=T0)
    with pytest.raises(StoreClosedError):
        store.read("po")


# --------------------------------------------------------------------------- async


async def test_group_commit_under_concurrent_appenders(path: Path) -> None:
    streams = ["po-1", "po-2", "po-3"]

    async with AsyncEventStore(SqliteEventStore(path)) as aio:
        async def appender(n: int) -> list[StoredEvent]:
            return [
                await aio.append(streams[(n + i) % 3], "x", {"n": n, "i": i},
                                 actor=f"task-{n}", recorded_at=at(i))
                for i in range(10)
            ]

        acked = [e for events in await asyncio.gather(*(appender(n) for n in range(64)))
                 for e in events]
        stats = aio.stats
        assert stats.requests == stats.events == 640
        assert stats.commits < stats.requests  # appends arriving together shared commits
        for stream in streams:
            events = await aio.read(stream)
            assert [e.seq for e in events] == list(range(1, len(events) + 1))
            assert await aio.last_seq(stream) == len(events)
        assert await aio.streams() == streams
        by_key = {(e.stream, e.seq): e for e in acked}
        assert len(by_key) == 640
    with SqliteEventStore(path) as store:
        assert {(e.stream, e.seq): e for s in streams for e in store.read(s)} == by_key


async def test_group_commit_refuses_requests_one_by_one(path: Path) -> None:
    async with AsyncEventStore(SqliteEventStore(path)) as aio:
        results = await asyncio.gather(
            *(aio.append("po", "created", {"n": n}, actor=None, recorded_at=T0, expected_seq=0)
              for n in range(10)),
            *(aio.append("po-2", "x", {"bad": float("nan")}, actor=None, recorded_at=T0)
              for _ in range(3)),
            *(aio.append_many("po-3", [NewEvent("a", {}), NewEvent("b", {})], actor=None,
                              recorded_at=T0, command_id="same") for _ in range(10)),
            return_exceptions=True,
        )
        created, bad, same = results[:10], results[10:13], results[13:]
        assert sum(isinstance(r, StoredEvent) for r in created) == 1
        assert sum(isinstance(r, ConcurrencyError) for r in created) == 9
        assert all(isinstance(r, InvalidEventError) for r in bad)
        assert all(r == same[0] for r in same)
        assert await aio.last_seq("po") == 1
        assert await aio.last_seq("po-2") == 0
        assert await aio.last_seq("po-3") == 2


async def test_closing_commits_what_was_queued(path: Path) -> None:
    aio = AsyncEventStore(SqliteEventStore(path))
    tasks = [asyncio.create_task(aio.append("po", "x", {"i": i}, actor=None, recorded_at=T0))
             for i in range(50)]
    await asyncio.sleep(0)  # every task has queued its request
    await aio.aclose()
    events = await asyncio.gather(*tasks)
    assert sorted(e.seq for e in events) == list(range(1, 51))
    with pytest.raises(StoreClosedError):
        await aio.append("po", "x", {}, actor=None, recorded_at=T0)
    with pytest.raises(StoreClosedError):
        await aio.read("po")
    with SqliteEventStore(path) as store:
        assert store.last_seq("po") == 50


class _FailingCommit(SqliteEventStore):
    def append_group(
        self, requests: Sequence[AppendRequest]
    ) -> list[list[StoredEvent] | Exception]:
        raise sqlite3.OperationalError("disk I/O error")


async def test_a_failed_commit_fails_every_caller_of_the_group(path: Path) -> None:
    async with AsyncEventStore(_FailingCommit(path)) as aio:
        results = await asyncio.gather(
            *(aio.append("po", "x", {}, actor=None, recorded_at=T0) for _ in range(5)),
            return_exceptions=True,
        )
        assert all(isinstance(r, StoreError) for r in results)
        assert isinstance(results[0], StoreError)
        assert isinstance(results[0].__cause__, sqlite3.OperationalError)
        assert await aio.last_seq("po") == 0


class _GatedCommit(SqliteEventStore):
    """Holds every group commit until the test opens the gate."""

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self.entered = threading.Event()
        self.gate = threading.Event()

    def append_group(
        self, requests: Sequence[AppendRequest]
    ) -> list[list[StoredEvent] | Exception]:
        self.entered.set()
        self.gate.wait(10)
        return super().append_group(requests)


async def test_a_request_cancelled_while_queued_is_not_stored(path: Path) -> None:
    store = _GatedCommit(path)
    async with AsyncEventStore(store) as aio:
        first = asyncio.create_task(aio.append("po", "a", {}, actor=None, recorded_at=T0))
        await asyncio.to_thread(store.entered.wait, 10)  # the writer holds "a"
        second = asyncio.create_task(aio.append("po", "b", {}, actor=None, recorded_at=T0))
        await asyncio.sleep(0)  # "b" is queued
        second.cancel()
        await asyncio.sleep(0.01)
        store.gate.set()
        assert (await first).seq == 1
        with pytest.raises(asyncio.CancelledError):
            await second
        assert (await aio.append("po", "c", {}, actor=None, recorded_at=T0)).seq == 2
        assert [e.type for e in await aio.read("po")] == ["a", "c"]


def test_find_command_returns_the_whole_batch(tmp_path: Path) -> None:
    with SqliteEventStore(tmp_path / "log.db") as store:
        store.append("s", "a", {}, actor=None, recorded_at=T0)
        batch = store.append_many(
            "s", [NewEvent("b", {}), NewEvent("c", {})], actor=None, recorded_at=T0,
            command_id="cmd-1",
        )
        assert store.find_command("s", "cmd-1") == batch
        assert store.find_command("s", "cmd-2") is None
        assert store.find_command("other", "cmd-1") is None
