"""The event log in PostgreSQL, for several workers sharing one log (psycopg 3, async),
and the lease that elects their leader.

:class:`PostgresEventStore` is an :class:`~orchestrator.store.base.AsyncEventLog`
itself: a pool of connections, no thread. It keeps the contract of the SQLite store;
how (durability, concurrency, cancellation, the schema) is in docs/runtime.md.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Mapping, Sequence
from contextlib import asynccontextmanager
from datetime import datetime
from typing import Any

import psycopg
from psycopg import errors as pgerrors
from psycopg.rows import TupleRow
from psycopg_pool import AsyncConnectionPool

from orchestrator.store.base import (
    AppendRequest,
    AsyncEventLog,
    CommandIdReusedError,
    CommandLoggedError,
    ConcurrencyError,
    InvalidEventError,
    JsonObject,
    NewEvent,
    SchemaVersionError,
    Snapshot,
    StoreClosedError,
    StoredEvent,
    StoreError,
    StoreUnavailableError,
    check_request,
    decode_json_many,
    encode_json,
    json_object,
    utc_time,
)

_log = logging.getLogger(__name__)

Connection = psycopg.AsyncConnection[TupleRow]

#: The advisory lock held while the schema is checked and migrated ("PLOF", as the
#: SQLite file's application id).
SCHEMA_LOCK = 0x504C4F46

#: Migration ``i`` takes the schema from version ``i`` to ``i + 1``. Append only:
#: never edit a migration that has shipped.
MIGRATIONS: tuple[tuple[str, ...], ...] = (
    (
        # COLLATE "C": streams sort by code point, as in SQLite and Python, and a
        # prefix is one range of the primary key whatever the database's locale.
        # command_events: on the event carrying command_id, how many events that
        # command appended (so a resent append_many returns the whole batch).
        """
        CREATE TABLE events (
            stream text COLLATE "C" NOT NULL,
            seq bigint NOT NULL CHECK (seq >= 1),
            type text NOT NULL,
            data json NOT NULL,
            actor text,
            recorded_at timestamptz NOT NULL,
            command_id text,
            command_events integer CHECK (command_events >= 1),
            command_fingerprint text,
            PRIMARY KEY (stream, seq)
        )
        """,
        """
        CREATE UNIQUE INDEX events_command ON events (stream, command_id)
        WHERE command_id IS NOT NULL
        """,
        "CREATE INDEX events_command_id ON events (command_id) WHERE command_id IS NOT NULL",
        # The service's own secret (to derive what a resent creation answers again):
        # 244 random bits from the server's strong random source, as 64 hex digits.
        "CREATE TABLE meta (name text PRIMARY KEY, value text NOT NULL)",
        """
        INSERT INTO meta (name, value) VALUES ('secret', encode(sha256(convert_to(
            gen_random_uuid()::text || gen_random_uuid()::text, 'UTF8')), 'hex'))
        """,
        # The folded state of a stream up to a seq, so that a restart folds only what
        # came after. A cache: it may be dropped at any time, the events stay.
        """
        CREATE TABLE snapshots (
            stream text COLLATE "C" PRIMARY KEY,
            seq bigint NOT NULL CHECK (seq >= 1),
            version text NOT NULL,
            data bytea NOT NULL
        )
        """,
    ),
)
SCHEMA_VERSION = len(MIGRATIONS)

#: How many times one call is run again after colliding with concurrent writers. Each
#: collision means another writer committed, so this bounds starvation, not progress.
MAX_ATTEMPTS = 1000

_EVENT = "seq, type, data::text, actor, recorded_at, command_id, command_fingerprint"
_EVENT_E = ", ".join(f"e.{column}" for column in _EVENT.split(", "))

# One statement: the stream's last seq, and the events after it unless the stream is
# not at the expected seq. It answers the last seq seen and how many were inserted.
_APPEND = """
WITH last AS (
    SELECT coalesce(max(seq), 0) AS seq FROM events WHERE stream = %(stream)s
), added AS (
    INSERT INTO events (stream, seq, type, data, actor, recorded_at, command_id,
                        command_events, command_fingerprint)
    SELECT %(stream)s, last.seq + e.n, e.type, e.data::json, %(actor)s::text,
           %(recorded_at)s::timestamptz,
           CASE WHEN e.n = 1 THEN %(command_id)s::text END,
           CASE WHEN e.n = 1 AND %(command_id)s::text IS NOT NULL
                THEN cardinality(%(types)s::text[]) END,
           CASE WHEN e.n = 1 AND %(command_id)s::text IS NOT NULL
                THEN %(fingerprint)s::text END
    FROM last, unnest(%(types)s::text[], %(datas)s::text[]) WITH ORDINALITY AS e(type, data, n)
    WHERE %(expected)s::bigint IS NULL OR last.seq = %(expected)s::bigint
    RETURNING 1
)
SELECT last.seq, (SELECT count(*) FROM added) FROM last
"""

_COMMAND = f"""
SELECT {_EVENT_E}
FROM events c JOIN events e ON e.stream = c.stream
    AND e.seq >= c.seq AND e.seq < c.seq + coalesce(c.command_events, 1)
WHERE c.stream = %s AND c.command_id = %s
ORDER BY e.seq
"""

_COMMAND_ANYWHERE = f"""
WITH c AS (
    SELECT stream, seq, command_events FROM events WHERE command_id = %s
    ORDER BY stream LIMIT 1
)
SELECT e.stream, {_EVENT_E}
FROM c JOIN events e ON e.stream = c.stream
    AND e.seq >= c.seq AND e.seq < c.seq + coalesce(c.command_events, 1)
ORDER BY e.seq
"""

# A skip scan of the primary key: one index probe per stream, not per event.
_STREAMS = """
WITH RECURSIVE names(name) AS (
    (SELECT stream FROM events WHERE stream >= %(prefix)s ORDER BY stream LIMIT 1)
    UNION ALL
    SELECT (SELECT stream FROM events WHERE stream > names.name ORDER BY stream LIMIT 1)
    FROM names WHERE starts_with(names.name, %(prefix)s)
)
SELECT name FROM names WHERE starts_with(name, %(prefix)s)
"""

_SAVE_SNAPSHOT = """
INSERT INTO snapshots (stream, seq, version, data) VALUES (%s, %s, %s, %s)
ON CONFLICT (stream) DO UPDATE SET seq = excluded.seq, version = excluded.version,
    data = excluded.data
WHERE excluded.seq >= snapshots.seq
"""

# Errors after which a call is run again from the start: a concurrent writer took the
# seq or the command id (the call's own checks then say what a serialised call would
# have met), or the server chose this transaction to break a deadlock.
_RETRY = (pgerrors.UniqueViolation, pgerrors.DeadlockDetected, pgerrors.SerializationFailure)


class _Prepared:
    """A request checked and encoded before any connection is taken."""

    __slots__ = ("datas", "events", "recorded_at", "request", "types")

    def __init__(self, request: AppendRequest) -> None:
        check_request(request)
        for what, name in (
            ("stream", request.stream), ("actor", request.actor),
            ("command_id", request.command_id), ("fingerprint", request.fingerprint),
            *(("event type", event.type) for event in request.events),
        ):
            if name is not None and "\x00" in name:
                raise InvalidEventError(f"{what} must not contain NUL characters: {name!r}")
        self.request = request
        self.recorded_at = utc_time(request.recorded_at)
        self.events: list[tuple[str, JsonObject]] = []
        self.types: list[str] = []
        self.datas: list[str] = []
        for event in request.events:
            data = json_object(event.data)
            self.events.append((event.type, data))
            self.types.append(event.type)
            self.datas.append(encode_json(data))

    def params(self) -> dict[str, Any]:
        request = self.request
        return {
            "stream": request.stream,
            "actor": request.actor,
            "recorded_at": self.recorded_at,
            "command_id": request.command_id,
            "fingerprint": request.fingerprint,
            "types": self.types,
            "datas": self.datas,
            "expected": request.expected_seq,
        }


class PostgresEventStore:
    """An :class:`~orchestrator.store.base.AsyncEventLog` in the PostgreSQL database at
    ``url`` (a libpq URL or ``key=value`` string).

    Making one does no I/O: it connects, and creates or migrates the schema, on its
    first use (or :meth:`open`), in the event loop that uses it; its connections belong
    to that loop. :meth:`aclose` closes them.
    """

    def __init__(
        self,
        url: str,
        *,
        min_connections: int = 1,
        max_connections: int = 10,
        timeout: float = 30.0,
    ) -> None:
        if not 1 <= min_connections <= max_connections:
            raise ValueError("need 1 <= min_connections <= max_connections")
        self._url = url  # may hold a password: never shown
        self._min = min_connections
        self._max = max_connections
        self._timeout = timeout
        self._pool: AsyncConnectionPool[Connection] | None = None
        self._opening: asyncio.Lock | None = None
        self._closed = False
        self._secret: str | None = None
        self._writing = _StreamLocks()

    # ----------------------------------------------------------------- connections

    async def open(self) -> None:
        """Connect and bring the schema up to date; idempotent."""
        await self._ready()

    async def _ready(self) -> AsyncConnectionPool[Connection]:
        if self._closed:
            raise StoreClosedError("the event store is closed")
        if self._pool is not None:
            return self._pool
        if self._opening is None:
            self._opening = asyncio.Lock()
        async with self._opening:
            if self._pool is None:
                # One connection of its own first: a wrong URL or a refused schema is
                # reported as it is, not as a pool that timed out.
                conn = await psycopg.AsyncConnection.connect(self._url, autocommit=True)
                try:
                    await _configure(conn)
                    await _open_schema(conn)
                finally:
                    await conn.close()
                pool: AsyncConnectionPool[Connection] = AsyncConnectionPool(
                    self._url,
                    min_size=self._min,
                    max_size=self._max,
                    kwargs={"autocommit": True},
                    configure=_configure,
                    timeout=self._timeout,
                    open=False,
                    name="event-log",
                )
                await pool.open(wait=True, timeout=self._timeout)
                if self._closed:  # closed while opening
                    await pool.close()
                    raise StoreClosedError("the event store is closed")
                self._pool = pool
        return self._pool

    @asynccontextmanager
    async def _connection(self) -> AsyncIterator[Connection]:
        try:
            pool = await self._ready()
            async with pool.connection() as conn:
                yield conn
        except _RETRY:
            raise  # a collision with another writer: the caller tries again
        except psycopg.OperationalError as exc:
            # The server restarting (AdminShutdown), a connection cut, no connection
            # to be had in time: the log is out of reach, not the request wrong.
            raise StoreUnavailableError(
                f"the PostgreSQL log cannot be reached ({type(exc).__name__})"
            ) from exc

    async def aclose(self) -> None:
        """Close the connections; idempotent. Later calls raise StoreClosedError."""
        self._closed = True
        pool, self._pool = self._pool, None
        if pool is not None:
            await pool.close()

    def lease(self, *, poll_s: float = 1.0) -> PostgresLease:
        """The lease that elects one leader among the workers sharing this log."""
        return PostgresLease(self._url, poll_s=poll_s)

    async def __aenter__(self) -> PostgresEventStore:
        await self.open()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    # ----------------------------------------------------------------- writes

    async def append(
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
        return (await self._write([_Prepared(request)]))[0][0]

    async def append_many(
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
        return (await self._write([_Prepared(request)]))[0]

    async def append_atomic(self, requests: Sequence[AppendRequest]) -> list[list[StoredEvent]]:
        """Several streams' events in one transaction: each request's stored events, or
        the first refusal raised and nothing stored."""
        prepared = [_Prepared(request) for request in requests]
        if not prepared:
            return []
        return await self._write(prepared)

    async def _write(self, prepared: list[_Prepared]) -> list[list[StoredEvent]]:
        # Writers of one stream in this process queue here rather than collide in
        # the database; collisions are left to writers in other processes.
        async with self._writing.hold(p.request.stream for p in prepared):
            attempt = 1
            while True:
                try:
                    async with self._connection() as conn:
                        if len(prepared) == 1:
                            # Its lookup only reads, its insert is one statement: no
                            # transaction of its own is needed around them.
                            return [await _apply(conn, prepared[0])]
                        async with conn.transaction():
                            return await _apply_all(conn, prepared)
                except _RETRY:
                    if attempt == MAX_ATTEMPTS:
                        raise
                    attempt += 1
                except UnicodeEncodeError as exc:
                    raise InvalidEventError(f"event data is not valid Unicode ({exc})") from None

    # ----------------------------------------------------------------- reads

    async def read(
        self, stream: str, after: int = 0, limit: int | None = None
    ) -> list[StoredEvent]:
        if limit is not None and limit < 0:
            raise ValueError(f"limit must be >= 0 or None, not {limit}")
        if "\x00" in stream:
            return []
        async with self._connection() as conn:
            cursor = await conn.execute(
                f"SELECT {_EVENT} FROM events WHERE stream = %s AND seq > %s "
                "ORDER BY seq LIMIT %s",
                (stream, after, limit),
                binary=True,
            )
            return _events(stream, await cursor.fetchall())

    async def last_seq(self, stream: str) -> int:
        if "\x00" in stream:
            return 0
        async with self._connection() as conn:
            return await _last_seq(conn, stream)

    async def find_command(self, stream: str, command_id: str) -> list[StoredEvent] | None:
        if "\x00" in stream + command_id:
            return None
        async with self._connection() as conn:
            return await _find_command(conn, stream, command_id)

    async def find_command_anywhere(self, command_id: str) -> list[StoredEvent] | None:
        if "\x00" in command_id:
            return None
        async with self._connection() as conn:
            cursor = await conn.execute(_COMMAND_ANYWHERE, (command_id,), binary=True)
            rows = await cursor.fetchall()
        if not rows:
            return None
        return _events(rows[0][0], [row[1:] for row in rows])

    async def secret(self) -> str:
        if self._secret is None:
            async with self._connection() as conn:
                cursor = await conn.execute("SELECT value FROM meta WHERE name = 'secret'")
                row = await cursor.fetchone()
            if row is None:
                raise StoreError("the log has no secret (its meta table was emptied)")
            self._secret = str(row[0])
        return self._secret

    async def save_snapshots(self, snapshots: Sequence[Snapshot]) -> None:
        if not snapshots:
            return
        async with self._connection() as conn, conn.transaction():
            await conn.cursor().executemany(
                _SAVE_SNAPSHOT, [(s.stream, s.seq, s.version, s.data) for s in snapshots]
            )

    async def integrity(self, max_s: float) -> list[str]:
        """Nothing to check from here: PostgreSQL guards its own pages (data checksums,
        its own recovery); a damaged page fails the reads that touch it."""
        return []

    async def snapshots(self, prefix: str | None = None) -> dict[str, Snapshot]:
        if prefix and "\x00" in prefix:
            return {}
        async with self._connection() as conn:
            cursor = await conn.execute(
                "SELECT stream, seq, version, data FROM snapshots "
                "WHERE starts_with(stream, %s) ORDER BY stream",
                (prefix or "",),
                binary=True,
            )
            rows = await cursor.fetchall()
        return {
            stream: Snapshot(stream, seq, version, bytes(data))
            for stream, seq, version, data in rows
        }

    async def streams(self, prefix: str | None = None) -> list[str]:
        if prefix and "\x00" in prefix:
            return []
        async with self._connection() as conn:
            cursor = await conn.execute(_STREAMS, {"prefix": prefix or ""})
            return [name for (name,) in await cursor.fetchall()]


class _StreamLocks:
    """One lock per stream being written, taken in the order of the names (so that
    two calls never wait for each other crosswise), dropped when nobody holds it."""

    def __init__(self) -> None:
        self._locks: dict[str, tuple[asyncio.Lock, list[int]]] = {}

    @asynccontextmanager
    async def hold(self, streams: Iterable[str]) -> AsyncIterator[None]:
        entries = [
            (name, self._locks.setdefault(name, (asyncio.Lock(), [0])))
            for name in sorted(set(streams))
        ]
        for _, (_, users) in entries:
            users[0] += 1
        taken: list[asyncio.Lock] = []
        try:
            for _, (lock, _) in entries:
                await lock.acquire()
                taken.append(lock)
            yield
        finally:
            for lock in reversed(taken):
                lock.release()
            for name, (_, users) in entries:
                users[0] -= 1
                if not users[0]:
                    del self._locks[name]


# --------------------------------------------------------------------------- sessions


async def _configure(conn: Connection) -> None:
    # Timestamps come back in UTC, and a commit is durable when it returns even where
    # the server's or the role's default says otherwise.
    await conn.execute(
        "SELECT set_config('TimeZone', 'UTC', false), "
        "CASE WHEN current_setting('synchronous_commit') = 'off' "
        "THEN set_config('synchronous_commit', 'on', false) END"
    )


async def _open_schema(conn: Connection) -> None:
    async with conn.transaction():
        await conn.execute("SELECT pg_advisory_xact_lock(%s, 0)", (SCHEMA_LOCK,))
        cursor = await conn.execute(
            "SELECT to_regclass('playoff_schema') IS NOT NULL, "
            "to_regclass('events') IS NOT NULL, current_schema()"
        )
        row = await cursor.fetchone()
        assert row is not None
        has_version, has_events, schema = row
        where = f"schema {schema!r} of {conn.info.dbname!r}"
        version = 0
        if has_version:
            cursor = await conn.execute("SELECT version FROM playoff_schema")
            found = await cursor.fetchone()
            version = int(found[0]) if found is not None else 0
        elif has_events:
            raise SchemaVersionError(f"{where} has an events table, but not a play-off event log")
        if version > SCHEMA_VERSION:
            raise SchemaVersionError(
                f"{where}: event log schema version {version} is newer than this program's "
                f"({SCHEMA_VERSION}); upgrade the program to open it"
            )
        if version == SCHEMA_VERSION:
            return
        if not has_version:
            await conn.execute(
                "CREATE TABLE playoff_schema (only_row boolean PRIMARY KEY DEFAULT true "
                "CHECK (only_row), version integer NOT NULL)"
            )
        for target in range(version + 1, SCHEMA_VERSION + 1):
            for statement in MIGRATIONS[target - 1]:
                await conn.execute(statement)
        await conn.execute(
            "INSERT INTO playoff_schema (version) VALUES (%(v)s) "
            "ON CONFLICT (only_row) DO UPDATE SET version = %(v)s",
            {"v": SCHEMA_VERSION},
        )


# --------------------------------------------------------------------------- statements


async def _apply_all(conn: Connection, prepared: list[_Prepared]) -> list[list[StoredEvent]]:
    """Every request in one transaction (the caller's), or the first refusal.

    The streams are written in the order of their names, so that two calls that
    write the same streams never wait for each other crosswise; a stream's requests
    keep their order, and the refusal raised is that of the earliest request, as if
    they had been applied one by one as given.
    """
    stored: list[list[StoredEvent]] = [[] for _ in prepared]
    refused: dict[int, StoreError] = {}
    order = sorted(range(len(prepared)), key=lambda i: prepared[i].request.stream)
    for i in order:
        if refused and i > min(refused):
            continue  # cannot change which refusal is raised
        try:
            stored[i] = await _apply(conn, prepared[i], atomic=len(prepared) > 1)
        except (ConcurrencyError, CommandIdReusedError, CommandLoggedError) as exc:
            refused[i] = exc
    if refused:
        raise refused[min(refused)]
    return stored


async def _apply(
    conn: Connection, prepared: _Prepared, *, atomic: bool = False
) -> list[StoredEvent]:
    request = prepared.request
    stream, command_id = request.stream, request.command_id
    if command_id is not None:
        earlier = await _find_command(conn, stream, command_id)
        if earlier is not None:
            fingerprint = earlier[0].command_fingerprint
            if (
                request.fingerprint is not None and fingerprint is not None
                and request.fingerprint != fingerprint
            ):
                raise CommandIdReusedError(stream, command_id)
            if atomic:
                # The group was logged before: none of it is stored again.
                raise CommandLoggedError(stream, command_id, earlier)
            return earlier
    cursor = await conn.execute(_APPEND, prepared.params())
    row = await cursor.fetchone()
    assert row is not None
    last, added = int(row[0]), int(row[1])
    if added == 0:
        assert request.expected_seq is not None
        raise ConcurrencyError(stream, request.expected_seq, last)
    return [
        StoredEvent(
            stream, last + n, type_, data, request.actor, prepared.recorded_at,
            command_id if n == 1 else None, request.fingerprint if n == 1 and command_id else None,
        )
        for n, (type_, data) in enumerate(prepared.events, start=1)
    ]


async def _find_command(
    conn: Connection, stream: str, command_id: str
) -> list[StoredEvent] | None:
    cursor = await conn.execute(_COMMAND, (stream, command_id), binary=True)
    rows = await cursor.fetchall()
    return _events(stream, rows) if rows else None


async def _last_seq(conn: Connection, stream: str) -> int:
    cursor = await conn.execute(
        "SELECT coalesce(max(seq), 0) FROM events WHERE stream = %s", (stream,)
    )
    row = await cursor.fetchone()
    return 0 if row is None else int(row[0])


def _events(stream: str, rows: Sequence[tuple[Any, ...]]) -> list[StoredEvent]:
    datas = decode_json_many([row[2] for row in rows])
    return [
        StoredEvent(stream, seq, t, data, a, r, c, f)
        for (seq, t, _, a, r, c, f), data in zip(rows, datas, strict=True)
    ]


# --------------------------------------------------------------------------- lease

LEADER_LOCK = 0x504C4F46
"""The advisory lock's first key ("PLOF", as the schema's lock); the second is the
hash of the log's schema, so that logs in schemas of one database elect apart."""


class PostgresLease:
    """The lease as a session-level advisory lock in the log's database, held by a
    session of its own: it lives exactly as long as that session (docs/runtime.md)."""

    def __init__(
        self,
        url: str,
        *,
        poll_s: float = 1.0,
        timeout_s: float = 2.0,
        keepalive_s: int = 5,
    ) -> None:
        if poll_s <= 0 or timeout_s <= 0 or keepalive_s < 1:
            raise ValueError("poll_s and timeout_s must be > 0, keepalive_s >= 1")
        self._url = url  # may hold a password: never shown
        self.poll_s = poll_s
        self.timeout_s = timeout_s
        self.keepalive_s = keepalive_s
        self._leading = False

    @property
    def leading(self) -> bool:
        return self._leading

    async def run(
        self, elected: Callable[[], Awaitable[None]], deposed: Callable[[], None]
    ) -> None:
        while True:
            conn: Any = None
            try:
                conn = await self._connect()
                while not await self._try_lock(conn):
                    await asyncio.sleep(self.poll_s)
                self._leading = True
                _log.info("this worker is the leader: it runs the flag timers and the jobs")
                await elected()
                while True:
                    await asyncio.sleep(self.poll_s)
                    async with asyncio.timeout(self.timeout_s):
                        await conn.execute("SELECT 1")
            except (psycopg.Error, OSError, TimeoutError) as exc:
                _log.warning("leader lease: %s; trying again", _reason(exc))
            except Exception:
                # elected() failed (the log unreadable...): give the lease up, so that
                # a worker that can do the work takes it.
                _log.exception("leader lease: taking the lead failed; trying again")
            finally:
                if self._leading:
                    self._leading = False
                    _log.info("this worker is no longer the leader")
                    deposed()
                if conn is not None:
                    with contextlib.suppress(Exception):
                        await conn.close()
            await asyncio.sleep(self.poll_s)

    async def _connect(self) -> Any:
        idle = self.keepalive_s
        conn = await psycopg.AsyncConnection.connect(
            self._url, autocommit=True, connect_timeout=max(2, int(self.timeout_s)),
            keepalives=1, keepalives_idle=idle, keepalives_interval=1, keepalives_count=3,
            # Who leads, for whoever looks (pg_stat_activity beside pg_locks).
            application_name=f"playoff-leader:{os.getpid()}@{socket.gethostname()}"[:63],
        )
        # The server's side too: it frees the lock of a leader it can no longer reach
        # after these, not after the system's two hours.
        await conn.execute(
            "SELECT set_config('tcp_keepalives_idle', %s, false), "
            "set_config('tcp_keepalives_interval', '1', false), "
            "set_config('tcp_keepalives_count', '3', false)",
            (str(idle),),
        )
        return conn

    @staticmethod
    async def _try_lock(conn: object) -> bool:
        assert isinstance(conn, psycopg.AsyncConnection)
        cursor = await conn.execute(
            "SELECT pg_try_advisory_lock(%s, hashtext(current_schema()))", (LEADER_LOCK,)
        )
        row = await cursor.fetchone()
        return bool(row is not None and row[0])


def _reason(exc: BaseException) -> str:
    if isinstance(exc, TimeoutError):
        return "the database did not answer in time"
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__


def open_log(url: str, *, wait_s: float) -> AsyncEventLog:
    """The log in the PostgreSQL database a ``postgresql:`` URL names. A command waits
    at most ``wait_s`` for a connection while the database is out of reach, then is
    refused as unavailable: an arbiter is never kept waiting."""
    return PostgresEventStore(url, timeout=wait_s)
