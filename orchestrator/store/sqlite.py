"""The event log in one SQLite file (WAL mode, ``synchronous=FULL``).

Durability: every write is one transaction (``BEGIN IMMEDIATE`` ... ``COMMIT``), and
with WAL and ``synchronous=FULL`` the COMMIT returns only after the WAL is fsynced, so
an event a method returned survives a killed process or a power cut. A write that
fails (constraint, bad data, a trigger, I/O) is rolled back whole.

Threads: the store is safe to share between threads. Writes go through one connection
under a lock (one writer at a time, in this process; ``BEGIN IMMEDIATE`` and the busy
timeout serialise writers in other processes). Reads take a connection from a small
pool, so they run in parallel with each other and with a write (WAL readers see the
last committed state and never block the writer).

Schema: ``PRAGMA user_version`` is the number of :data:`MIGRATIONS` applied; opening a
file applies the missing ones in one transaction, and refuses a file from a newer
program (:class:`SchemaVersionError`) without changing it.

Read-only (``read_only=True``, for a command that only reads the log, as ``playoff
print`` does): every connection is opened with ``mode=ro``, so nothing is ever written
to the file, not even a migration: a log of another schema version is refused.
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from datetime import datetime
from pathlib import Path
from typing import Any

from orchestrator.store.base import (
    AppendRequest,
    AppendUnit,
    AsyncEventLog,
    AtomicAppend,
    CommandIdReusedError,
    CommandLoggedError,
    ConcurrencyError,
    JsonObject,
    NewEvent,
    SchemaVersionError,
    Snapshot,
    StoreClosedError,
    StoredEvent,
    StoreError,
    StoreFullError,
    StoreUnavailableError,
    check_request,
    decode_json_many,
    encode_json,
    json_object,
    utc_time,
)

#: Identifies the file as a play-off event log (``PRAGMA application_id``): "PLOF".
APPLICATION_ID = 0x504C4F46

#: Migration ``i`` takes the schema from version ``i`` to ``i + 1``. Append only:
#: never edit a migration that has shipped.
MIGRATIONS: tuple[tuple[str, ...], ...] = (
    (
        # command_events: on the event carrying command_id, how many events that
        # command appended (so a resent append_many returns the whole batch).
        """
        CREATE TABLE events (
            stream TEXT NOT NULL,
            seq INTEGER NOT NULL CHECK (seq >= 1),
            type TEXT NOT NULL,
            data TEXT NOT NULL,
            actor TEXT,
            recorded_at TEXT NOT NULL,
            command_id TEXT,
            command_events INTEGER CHECK (command_events >= 1),
            PRIMARY KEY (stream, seq)
        ) WITHOUT ROWID
        """,
        """
        CREATE UNIQUE INDEX events_command ON events (stream, command_id)
        WHERE command_id IS NOT NULL
        """,
        f"PRAGMA application_id = {APPLICATION_ID}",
    ),
    (
        # A fingerprint of the request a command id was first used for, so that the
        # same id sent with another request is told apart (an Idempotency-Key reused).
        "ALTER TABLE events ADD COLUMN command_fingerprint TEXT",
        # Commands are also found by their id alone (a creation: its stream is new).
        "CREATE INDEX events_command_id ON events (command_id) WHERE command_id IS NOT NULL",
        # The service's own secret (to derive what a resent creation answers again).
        "CREATE TABLE meta (name TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID",
        "INSERT INTO meta (name, value) VALUES ('secret', lower(hex(randomblob(32))))",
    ),
    (
        # The folded state of a stream up to a seq, so that a restart folds only what
        # came after. A cache: it may be dropped at any time, the events stay.
        """
        CREATE TABLE snapshots (
            stream TEXT PRIMARY KEY,
            seq INTEGER NOT NULL CHECK (seq >= 1),
            version TEXT NOT NULL,
            data BLOB NOT NULL
        ) WITHOUT ROWID
        """,
    ),
)
SCHEMA_VERSION = len(MIGRATIONS)

_COLUMNS = "stream, seq, type, data, actor, recorded_at, command_id, command_fingerprint"
_STREAMS = """
WITH RECURSIVE names(name) AS (
    SELECT min(stream) FROM events WHERE stream >= ?
    UNION ALL
    SELECT (SELECT min(stream) FROM events WHERE stream > names.name)
    FROM names WHERE names.name IS NOT NULL
)
SELECT name FROM names WHERE name IS NOT NULL
"""
_INSERT = (
    "INSERT INTO events (stream, seq, type, data, actor, recorded_at, command_id, "
    "command_events, command_fingerprint) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
)


class _Prepared:
    """A request checked and encoded outside the transaction."""

    __slots__ = ("recorded_at", "recorded_text", "request", "rows")

    def __init__(self, request: AppendRequest) -> None:
        check_request(request)
        self.request = request
        self.recorded_at = utc_time(request.recorded_at)
        self.recorded_text = self.recorded_at.isoformat(timespec="microseconds")
        self.rows: list[tuple[str, JsonObject, str]] = []
        for event in request.events:
            data = json_object(event.data)
            self.rows.append((event.type, data, encode_json(data)))


class SqliteEventStore:
    """An :class:`~orchestrator.store.base.EventStore` in the SQLite file at ``path``."""

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        busy_timeout: float = 10.0,
        max_idle_readers: int = 4,
        read_only: bool = False,
    ) -> None:
        if str(path) in ("", ":memory:"):
            raise ValueError("SqliteEventStore needs a file path (WAL needs a file)")
        self.path = Path(path)
        self._read_only = read_only
        """Opened for reading only (``mode=ro``): the file is never written, nor
        migrated; a log of another schema version is refused."""
        self._busy_timeout = busy_timeout
        self._max_idle = max_idle_readers
        self._write_lock = threading.Lock()
        self._pool_lock = threading.Lock()
        self._idle: list[sqlite3.Connection] = []
        self._closed = False
        try:
            self._writer = self._connect()
        except sqlite3.OperationalError:
            raise  # cannot open the file at all: the message says why
        except sqlite3.DatabaseError as exc:
            raise SchemaVersionError(f"{self.path}: not an SQLite event log ({exc})") from exc
        try:
            self._open_schema(self._writer)
        except BaseException:
            self._writer.close()
            raise

    # ----------------------------------------------------------------- connections

    def _connect(self, *, read_only: bool = False) -> sqlite3.Connection:
        # isolation_level=None: no implicit transactions, we say BEGIN/COMMIT ourselves.
        # check_same_thread=False: a connection is used by one thread at a time (the
        # write lock, the reader pool) but not always the thread that opened it.
        target: str | Path = self.path
        if self._read_only:
            target = f"{self.path.resolve().as_uri()}?mode=ro"
        conn = sqlite3.connect(
            target,
            timeout=self._busy_timeout,
            isolation_level=None,
            check_same_thread=False,
            uri=self._read_only,
        )
        try:
            conn.execute("PRAGMA synchronous = FULL")
            if read_only:
                conn.execute("PRAGMA query_only = ON")
        except BaseException:
            conn.close()
            raise
        return conn

    def _open_schema(self, conn: sqlite3.Connection) -> None:
        where = f"{self.path}"
        try:
            conn.execute("BEGIN")  # one snapshot, should another process be migrating
            try:
                version = conn.execute("PRAGMA user_version").fetchone()[0]
                app_id = conn.execute("PRAGMA application_id").fetchone()[0]
                tables = conn.execute("SELECT count(*) FROM sqlite_schema").fetchone()[0]
            finally:
                _rollback(conn)
        except sqlite3.OperationalError:
            raise
        except sqlite3.DatabaseError as exc:
            raise SchemaVersionError(f"{where}: not an SQLite event log ({exc})") from exc
        if app_id not in (0, APPLICATION_ID) or (version == 0 and tables > 0):
            raise SchemaVersionError(f"{where}: an SQLite file, but not a play-off event log")
        if version > SCHEMA_VERSION:
            raise SchemaVersionError(
                f"{where}: event log schema version {version} is newer than this program's "
                f"({SCHEMA_VERSION}); upgrade the program to open it"
            )
        if self._read_only:
            if version != SCHEMA_VERSION:
                raise SchemaVersionError(
                    f"{where}: event log schema version {version}, not this program's "
                    f"({SCHEMA_VERSION}): it cannot be read without being brought up to date "
                    "(serve it once with this program)"
                )
            return
        mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
        if str(mode).lower() != "wal":
            raise StoreError(f"{where}: cannot switch to WAL mode (journal_mode is {mode})")
        if version < SCHEMA_VERSION:
            self._migrate(conn)

    def _migrate(self, conn: sqlite3.Connection) -> None:
        conn.execute("BEGIN IMMEDIATE")
        try:
            # Read again under the write lock: another process may have migrated.
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                raise SchemaVersionError(
                    f"{self.path}: event log schema version {version} is newer than this "
                    f"program's ({SCHEMA_VERSION}); upgrade the program to open it"
                )
            for target in range(version + 1, SCHEMA_VERSION + 1):
                for statement in MIGRATIONS[target - 1]:
                    conn.execute(statement)
                conn.execute(f"PRAGMA user_version = {target}")
            conn.execute("COMMIT")
        except BaseException:
            _rollback(conn)
            raise

    @contextmanager
    def _reader(self) -> Iterator[sqlite3.Connection]:
        with self._pool_lock:
            if self._closed:
                raise StoreClosedError("the event store is closed")
            conn = self._idle.pop() if self._idle else None
        if conn is None:
            conn = self._connect(read_only=True)
        keep: sqlite3.Connection | None = conn
        try:
            yield conn
        finally:
            with self._pool_lock:
                if not self._closed and len(self._idle) < self._max_idle:
                    self._idle.append(conn)
                    keep = None
            if keep is not None:
                keep.close()

    def close(self) -> None:
        with self._write_lock, self._pool_lock:
            if self._closed:
                return
            self._closed = True
            idle, self._idle = self._idle, []
        for conn in idle:
            conn.close()
        self._writer.close()

    def lease(self, *, poll_s: float = 1.0) -> None:
        """None: a SQLite file serves one process, which runs its timers itself."""
        return None

    def __enter__(self) -> SqliteEventStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ----------------------------------------------------------------- writes

    def append(
        self,
        stream: str,
        type: str,
        data: Mapping[str, Any],
        *,
        actor: str | None,
        recorded_at: datetime,
        expected_seq: int | None = None,
        command_id: str | None = None,
    ) -> StoredEvent:
        request = AppendRequest(
            stream, (NewEvent(type, data),), actor, recorded_at, expected_seq, command_id
        )
        return self._write(_Prepared(request))[0]

    def append_many(
        self,
        stream: str,
        events: Sequence[NewEvent],
        *,
        actor: str | None,
        recorded_at: datetime,
        expected_seq: int | None = None,
        command_id: str | None = None,
        fingerprint: str | None = None,
    ) -> list[StoredEvent]:
        request = AppendRequest(
            stream, tuple(events), actor, recorded_at, expected_seq, command_id, fingerprint
        )
        return self._write(_Prepared(request))

    def _write(self, prepared: _Prepared) -> list[StoredEvent]:
        with self._write_lock:
            conn = self._open_writer()
            try:
                conn.execute("BEGIN IMMEDIATE")
                stored = self._apply(conn, prepared)
                conn.execute("COMMIT")
            except sqlite3.Error as exc:
                _rollback(conn)
                raise storage_error(exc) from exc
            except BaseException:
                _rollback(conn)
                raise
            return stored

    def append_group(
        self, requests: Sequence[AppendUnit]
    ) -> list[list[StoredEvent] | Exception]:
        results: list[list[StoredEvent] | Exception] = []
        prepared: list[list[_Prepared] | None] = []
        for unit in requests:
            try:
                parts = unit.requests if isinstance(unit, AtomicAppend) else (unit,)
                prepared.append([_Prepared(request) for request in parts])
                results.append([])
            except Exception as exc:
                prepared.append(None)
                results.append(exc)
        if all(p is None for p in prepared):
            return results
        with self._write_lock:
            conn = self._open_writer()
            try:
                conn.execute("BEGIN IMMEDIATE")
                for i, item in enumerate(prepared):
                    if item is None:
                        continue
                    conn.execute("SAVEPOINT request")
                    try:
                        atomic = len(item) > 1
                        results[i] = [
                            e for part in item for e in self._apply(conn, part, atomic=atomic)
                        ]
                    except Exception as exc:
                        if not conn.in_transaction:
                            # SQLite rolled the whole transaction back (I/O error, full
                            # disk...): the requests before this one are gone too.
                            raise
                        conn.execute("ROLLBACK TO request")
                        results[i] = (
                            storage_error(exc) if isinstance(exc, sqlite3.Error) else exc
                        )
                    conn.execute("RELEASE request")
                conn.execute("COMMIT")
            except sqlite3.Error as exc:
                _rollback(conn)
                raise storage_error(exc) from exc
            except BaseException:
                _rollback(conn)
                raise
        return results

    def _open_writer(self) -> sqlite3.Connection:
        if self._closed:
            raise StoreClosedError("the event store is closed")
        return self._writer

    def _apply(
        self, conn: sqlite3.Connection, prepared: _Prepared, *, atomic: bool = False
    ) -> list[StoredEvent]:
        request = prepared.request
        stream, command_id = request.stream, request.command_id
        if command_id is not None:
            row = conn.execute(
                "SELECT seq, command_events, command_fingerprint FROM events "
                "WHERE stream = ? AND command_id = ?",
                (stream, command_id),
            ).fetchone()
            if row is not None:
                first, count, fingerprint = row[0], row[1] or 1, row[2]
                if (
                    request.fingerprint is not None and fingerprint is not None
                    and request.fingerprint != fingerprint
                ):
                    raise CommandIdReusedError(stream, command_id)
                earlier = _read(conn, stream, first - 1, count)
                if atomic:
                    # The group was logged before: none of it is stored again.
                    raise CommandLoggedError(stream, command_id, earlier)
                return earlier
        last = _last_seq(conn, stream)
        if request.expected_seq is not None and request.expected_seq != last:
            raise ConcurrencyError(stream, request.expected_seq, last)
        stored: list[StoredEvent] = []
        rows = []
        for i, (type_, data, text) in enumerate(prepared.rows):
            seq = last + 1 + i
            cid = command_id if i == 0 else None
            count = len(prepared.rows) if cid is not None else None
            fingerprint = request.fingerprint if cid is not None else None
            rows.append((
                stream, seq, type_, text, request.actor, prepared.recorded_text, cid, count,
                fingerprint,
            ))
            stored.append(StoredEvent(
                stream, seq, type_, data, request.actor, prepared.recorded_at, cid, fingerprint
            ))
        conn.executemany(_INSERT, rows)
        return stored

    # ----------------------------------------------------------------- reads

    def read(self, stream: str, after: int = 0, limit: int | None = None) -> list[StoredEvent]:
        if limit is not None and limit < 0:
            raise ValueError(f"limit must be >= 0 or None, not {limit}")
        with self._reader() as conn:
            return _read(conn, stream, after, limit)

    def last_seq(self, stream: str) -> int:
        with self._reader() as conn:
            return _last_seq(conn, stream)

    def find_command(self, stream: str, command_id: str) -> list[StoredEvent] | None:
        with self._reader() as conn:
            row = conn.execute(
                "SELECT seq, command_events FROM events WHERE stream = ? AND command_id = ?",
                (stream, command_id),
            ).fetchone()
            if row is None:
                return None
            return _read(conn, stream, row[0] - 1, row[1] or 1)

    def find_command_anywhere(self, command_id: str) -> list[StoredEvent] | None:
        with self._reader() as conn:
            row = conn.execute(
                "SELECT stream, seq, command_events FROM events WHERE command_id = ? "
                "ORDER BY stream LIMIT 1",
                (command_id,),
            ).fetchone()
            if row is None:
                return None
            return _read(conn, row[0], row[1] - 1, row[2] or 1)

    def save_snapshots(self, snapshots: Sequence[Snapshot]) -> None:
        if not snapshots:
            return
        with self._write_lock:
            conn = self._open_writer()
            conn.execute("BEGIN IMMEDIATE")
            try:
                conn.executemany(
                    "INSERT INTO snapshots (stream, seq, version, data) VALUES (?, ?, ?, ?) "
                    "ON CONFLICT (stream) DO UPDATE SET seq = excluded.seq, "
                    "version = excluded.version, data = excluded.data "
                    "WHERE excluded.seq >= snapshots.seq",
                    [(s.stream, s.seq, s.version, s.data) for s in snapshots],
                )
                conn.execute("COMMIT")
            except BaseException:
                _rollback(conn)
                raise

    def snapshots(self, prefix: str | None = None) -> dict[str, Snapshot]:
        prefix = prefix or ""
        try:
            with self._reader() as conn:
                rows = conn.execute(
                    "SELECT stream, seq, version, data FROM snapshots WHERE stream >= ? "
                    "ORDER BY stream",
                    (prefix,),
                ).fetchall()
        except sqlite3.DatabaseError as exc:  # a damaged page: a cache is not worth it
            raise StoreError(f"the snapshots cannot be read ({exc})") from exc
        return {
            stream: Snapshot(stream, seq, version, bytes(data))
            for stream, seq, version, data in rows
            if stream.startswith(prefix)
        }

    def integrity(self, max_s: float) -> list[str]:
        """``PRAGMA quick_check``, interrupted after ``max_s`` seconds (a large log on a
        slow disk must not hold the start-up for long)."""
        deadline = time.monotonic() + max_s
        cut = False

        def past_deadline() -> int:
            nonlocal cut
            cut = time.monotonic() > deadline
            return 1 if cut else 0

        with self._reader() as conn:
            conn.set_progress_handler(past_deadline, 10_000)
            try:
                rows = conn.execute("PRAGMA quick_check").fetchall()
            except sqlite3.DatabaseError as exc:
                if cut:
                    return []  # not checked to the end in time: nothing found so far
                return [f"the log's file cannot be checked: {exc}"]
            finally:
                conn.set_progress_handler(None, 0)
        found = [str(row[0]) for row in rows]
        return [] if found == ["ok"] else found[:QUICK_CHECK_LINES]

    def secret(self) -> str:
        with self._reader() as conn:
            row = conn.execute("SELECT value FROM meta WHERE name = 'secret'").fetchone()
        if row is None:
            raise StoreError(f"{self.path}: the log has no secret (schema too old)")
        return str(row[0])

    def streams(self, prefix: str | None = None) -> list[str]:
        # A skip scan of the primary key: one index probe per stream, not per event.
        prefix = prefix or ""
        found: list[str] = []
        with self._reader() as conn:
            for (name,) in conn.execute(_STREAMS, (prefix,)):
                if not name.startswith(prefix):
                    break
                found.append(name)
        return found


class ReadOnlyLog:
    """The log in the SQLite file at ``path``, read without writing to it: no
    migration, no lock, nothing created (a command that only reads a log, such as
    ``playoff export-trf``, reads a service's log while it runs). A file that is not
    a log of this program's schema is refused (:class:`SchemaVersionError`)."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        if not self.path.is_file():
            raise StoreError(f"{self.path}: no such file")
        try:
            self._conn = sqlite3.connect(
                f"{self.path.resolve().as_uri()}?mode=ro", uri=True, check_same_thread=False
            )
        except sqlite3.Error as exc:
            raise StoreError(f"{self.path}: cannot be opened ({exc})") from exc
        try:
            version = self._conn.execute("PRAGMA user_version").fetchone()[0]
            app_id = self._conn.execute("PRAGMA application_id").fetchone()[0]
        except sqlite3.DatabaseError as exc:
            self._conn.close()
            raise SchemaVersionError(f"{self.path}: not an SQLite event log ({exc})") from exc
        if app_id != APPLICATION_ID or version == 0:
            self._conn.close()
            raise SchemaVersionError(f"{self.path}: not a play-off event log")
        if version != SCHEMA_VERSION:
            self._conn.close()
            newer = version > SCHEMA_VERSION
            raise SchemaVersionError(
                f"{self.path}: event log schema version {version} is "
                + ("newer than this program's: upgrade the program to read it" if newer else
                   f"older than this program's ({SCHEMA_VERSION}): serve it once with this "
                   "program (playoff serve --db) to bring it up to date")
            )

    def read(self, stream: str) -> list[StoredEvent]:
        """Every event of ``stream``, in order."""
        return _read(self._conn, stream, 0, None)

    def streams(self, prefix: str = "") -> list[str]:
        """The streams whose names start with ``prefix``."""
        found: list[str] = []
        for (name,) in self._conn.execute(_STREAMS, (prefix,)):
            if not name.startswith(prefix):
                break
            found.append(name)
        return found

    def close(self) -> None:
        self._conn.close()

    def __enter__(self) -> ReadOnlyLog:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _last_seq(conn: sqlite3.Connection, stream: str) -> int:
    row = conn.execute(
        "SELECT seq FROM events WHERE stream = ? ORDER BY seq DESC LIMIT 1", (stream,)
    ).fetchone()
    return 0 if row is None else int(row[0])


def _read(
    conn: sqlite3.Connection, stream: str, after: int, limit: int | None
) -> list[StoredEvent]:
    rows = conn.execute(
        f"SELECT {_COLUMNS} FROM events WHERE stream = ? AND seq > ? ORDER BY seq LIMIT ?",
        (stream, after, -1 if limit is None else limit),
    ).fetchall()
    datas = decode_json_many([row[3] for row in rows])
    # A restart reads every event: the tuples are made directly, without the
    # named tuple's keyword-handling constructor, and times parsed by the C parser.
    new, parse_time = tuple.__new__, datetime.fromisoformat
    return [
        new(StoredEvent, (s, seq, t, data, a, parse_time(r), c, f))
        for (s, seq, t, _, a, r, c, f), data in zip(rows, datas, strict=True)
    ]


QUICK_CHECK_LINES = 20
"""The problems of a damaged log reported, at most (SQLite may list thousands)."""


def storage_error(exc: sqlite3.Error) -> Exception:
    """A write's SQLite error as the store's: no room (the disk full, SQLITE_FULL) or
    the file out of reach (an I/O error) are :class:`StoreFullError` and
    :class:`StoreUnavailableError`, said in words; anything else as it is."""
    code = getattr(exc, "sqlite_errorcode", None)
    primary = code & 0xFF if isinstance(code, int) else None
    if primary == sqlite3.SQLITE_FULL or "disk is full" in str(exc):
        return StoreFullError("the disk holding the log is full: nothing was recorded")
    if primary in (sqlite3.SQLITE_IOERR, sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_READONLY):
        return StoreUnavailableError(f"the log's file cannot be written ({exc})")
    return exc


def _rollback(conn: sqlite3.Connection) -> None:
    if conn.in_transaction:
        with suppress(sqlite3.Error):
            conn.execute("ROLLBACK")


def open_log(url: str, *, wait_s: float) -> AsyncEventLog:
    """The log in the SQLite file a ``sqlite:`` URL names (``sqlite:playoff.db``,
    ``sqlite:///var/lib/playoff.db``), with its async face. A file has no connection
    to wait for: ``wait_s`` is not used."""
    from orchestrator.store.aio import AsyncEventStore

    path = url.removeprefix("sqlite:")
    if path.startswith("//"):
        path = path[2:]
    return AsyncEventStore(SqliteEventStore(path))
