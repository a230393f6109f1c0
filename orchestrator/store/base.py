"""The event log's interface: stored events, the store protocol, its errors and checks.

Nothing here touches a database: a back-end implements :class:`AsyncEventLog` (SQLite
through :class:`EventStore` and its async face, PostgreSQL directly) and is chosen by
the scheme of the log's URL (:mod:`.registry`); the rest of the service only sees
this module.
"""

from __future__ import annotations

import json
import math
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, NamedTuple, Protocol, runtime_checkable

JsonObject = dict[str, Any]


# --------------------------------------------------------------------------- errors


class StoreError(Exception):
    """Anything the event store refuses or cannot do."""


class ConcurrencyError(StoreError):
    """The stream's last sequence number is not the one the caller expected."""

    def __init__(self, stream: str, expected: int, actual: int) -> None:
        super().__init__(
            f"stream {stream!r} is at seq {actual}, not at the expected seq {expected}"
        )
        self.stream = stream
        self.expected = expected
        self.actual = actual


class CommandIdReusedError(StoreError):
    """A command id already stored for another request (another fingerprint)."""

    def __init__(self, stream: str, command_id: str) -> None:
        super().__init__(f"command id {command_id!r} of {stream!r} was used for another request")
        self.stream = stream
        self.command_id = command_id


class CommandLoggedError(StoreError):
    """A request of an atomic group whose command id is already logged: the group was
    logged before (by this or another writer), so nothing of it is stored again.
    ``earlier`` holds that command's events as first logged."""

    def __init__(self, stream: str, command_id: str, earlier: list[StoredEvent]) -> None:
        super().__init__(f"command id {command_id!r} of {stream!r} is already logged")
        self.stream = stream
        self.command_id = command_id
        self.earlier = earlier


class StoreUnavailableError(StoreError):
    """The log cannot be reached now (its server restarting or out of reach, a
    connection cut). A read read nothing; a write stored nothing, unless its commit
    went through and only the answer was lost: resending it with the same command id
    tells which, and logs it once."""


class StoreFullError(StoreUnavailableError):
    """The disk (or the database's own limit) has no room for the write: nothing of it
    was stored. Once room is made, the same write succeeds."""


class InvalidEventError(StoreError, ValueError):
    """An event that cannot be stored as given (bad stream, type, data or time)."""


class SchemaVersionError(StoreError):
    """The database is not an event log this program can open (e.g. a newer schema)."""


class StoreClosedError(StoreError):
    """The store was closed."""


# --------------------------------------------------------------------------- values


class StoredEvent(NamedTuple):
    """One event of the log, as stored: immutable (do not mutate ``data``).

    ``seq`` is 1-based and gapless within ``stream``. ``recorded_at`` is the server
    time the caller passed in (UTC). ``command_id`` is set on the first event that a
    command appended (the only one, for a single append), and with it
    ``command_fingerprint``: the fingerprint of the request it came with, if any.

    A tuple, not a dataclass: a restart reads every event of the log, and a tuple is
    made several times faster than a frozen dataclass.
    """

    stream: str
    seq: int
    type: str
    data: JsonObject
    actor: str | None
    recorded_at: datetime
    command_id: str | None = None
    command_fingerprint: str | None = None

    def to_json(self) -> JsonObject:
        """A JSON-ready dict (``recorded_at`` as ISO 8601 text)."""
        return {
            "stream": self.stream,
            "seq": self.seq,
            "type": self.type,
            "data": self.data,
            "actor": self.actor,
            "recorded_at": self.recorded_at.isoformat(),
            "command_id": self.command_id,
        }


class Snapshot(NamedTuple):
    """A stream's folded state up to ``seq``, as bytes made by ``version`` of the code
    that folds it: a cache, to be used only by the same version, and only with the
    events after ``seq``."""

    stream: str
    seq: int
    version: str
    data: bytes


class NewEvent(NamedTuple):
    """One event of an :meth:`EventStore.append_many` call."""

    type: str
    data: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class AppendRequest:
    """One command's events for one stream: the unit of :meth:`EventStore.append_group`."""

    stream: str
    events: Sequence[NewEvent]
    actor: str | None
    recorded_at: datetime
    expected_seq: int | None = None
    command_id: str | None = None
    fingerprint: str | None = None
    """What the request was (a hash): a resent ``command_id`` with another fingerprint
    is refused (:class:`CommandIdReusedError`) rather than answered with the events
    of the first."""


@dataclass(frozen=True, slots=True)
class AtomicAppend:
    """Requests to several streams that are stored together or not at all (a play-off
    created and linked to its event): a unit of :meth:`EventStore.append_group`.

    Each request keeps its own checks (``expected_seq``, ``command_id``); if one
    fails, none of them is stored.
    """

    requests: tuple[AppendRequest, ...]


AppendUnit = AppendRequest | AtomicAppend
"""What :meth:`EventStore.append_group` applies alone: one request, or several at once."""


# --------------------------------------------------------------------------- protocol


class Leadership(Protocol):
    """How a worker comes to run the timers, and stops: the lease a log gives the
    workers that share it (docs/runtime.md)."""

    @property
    def leading(self) -> bool: ...

    async def run(
        self, elected: Callable[[], Awaitable[None]], deposed: Callable[[], None]
    ) -> None:
        """Until cancelled: call ``elected`` each time this worker becomes the leader
        and ``deposed`` each time it stops being it (also when cancelled)."""
        ...


@runtime_checkable
class EventStore(Protocol):
    """A durable, append-only log of events in streams (one per play-off or event).

    Every method that writes is durable when it returns: the events are committed
    (fsynced) or, if it raises, nothing of that call was stored.
    """

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
        """Append one event; its seq is the stream's last seq + 1.

        ``expected_seq``: raise :class:`ConcurrencyError` unless the stream's last seq
        is this (0 for a new stream). ``command_id``: if a command with this id was
        already stored in the stream, return its (first) event and store nothing.
        """
        ...

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
        """Append several events to one stream atomically (all or nothing).

        A resent ``command_id`` returns the whole original batch.
        """
        ...

    def append_group(
        self, requests: Sequence[AppendUnit]
    ) -> list[list[StoredEvent] | Exception]:
        """Group commit: apply each unit alone, commit them all at once.

        The result has one entry per unit: its stored events (for an
        :class:`AtomicAppend`, those of its requests in order), or the exception that
        refused it (that unit alone is rolled back). If the commit itself fails,
        this raises and nothing of the group is stored.
        """
        ...

    def read(self, stream: str, after: int = 0, limit: int | None = None) -> list[StoredEvent]:
        """The stream's events with seq > ``after``, in seq order, at most ``limit``."""
        ...

    def last_seq(self, stream: str) -> int:
        """The stream's last seq; 0 for a stream with no events."""
        ...

    def find_command(self, stream: str, command_id: str) -> list[StoredEvent] | None:
        """The events a command with this id appended to ``stream``, or None."""
        ...

    def find_command_anywhere(self, command_id: str) -> list[StoredEvent] | None:
        """The events a command with this id appended, in whichever stream, or None."""
        ...

    def secret(self) -> str:
        """The log's own secret, made with it (hex), never shown."""
        ...

    def save_snapshots(self, snapshots: Sequence[Snapshot]) -> None:
        """Keep these snapshots (each replacing an older one of its stream)."""
        ...

    def snapshots(self, prefix: str | None = None) -> dict[str, Snapshot]:
        """The snapshots kept, by stream (those starting with ``prefix``)."""
        ...

    def streams(self, prefix: str | None = None) -> list[str]:
        """The names of the streams that have events (starting with ``prefix``), sorted."""
        ...

    def integrity(self, max_s: float) -> list[str]:
        """What a quick check of the file finds damaged, in words (empty: nothing)."""
        ...

    def lease(self, *, poll_s: float = 1.0) -> Leadership | None:
        """The lease that elects one leader among the workers sharing this log, trying
        for it every ``poll_s``; None for a log that serves one process, which runs
        its timers itself."""
        ...

    def close(self) -> None:
        """Release the store; idempotent."""
        ...


class AsyncEventLog(Protocol):
    """The event log as the service sees it: the async face of a store.

    :class:`~orchestrator.store.aio.AsyncEventStore` wraps any :class:`EventStore`
    (SQLite by default); a backend with a native async driver implements this
    directly. Writes are durable when they return, as in :class:`EventStore`.
    """

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
    ) -> StoredEvent: ...

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
    ) -> list[StoredEvent]: ...

    async def append_atomic(self, requests: Sequence[AppendRequest]) -> list[list[StoredEvent]]:
        """Several streams' events in one transaction: each request's stored events, or
        the first refusal raised and nothing stored."""
        ...

    async def read(
        self, stream: str, after: int = 0, limit: int | None = None
    ) -> list[StoredEvent]: ...

    async def last_seq(self, stream: str) -> int: ...

    async def find_command(self, stream: str, command_id: str) -> list[StoredEvent] | None: ...

    async def find_command_anywhere(self, command_id: str) -> list[StoredEvent] | None: ...

    async def secret(self) -> str: ...

    async def save_snapshots(self, snapshots: Sequence[Snapshot]) -> None: ...

    async def snapshots(self, prefix: str | None = None) -> dict[str, Snapshot]: ...

    async def streams(self, prefix: str | None = None) -> list[str]: ...

    async def integrity(self, max_s: float) -> list[str]:
        """What a quick check of the log's storage finds damaged, in words (empty: the
        check found nothing), within about ``max_s`` seconds (a check cut short says
        so). At start-up: a damaged log is reported, never served as if whole."""
        ...

    def lease(self, *, poll_s: float = 1.0) -> Leadership | None:
        """As :meth:`EventStore.lease`."""
        ...

    async def aclose(self) -> None: ...


# --------------------------------------------------------------------------- checks


def check_request(request: AppendRequest) -> None:
    """Refuse (:class:`InvalidEventError`) a request that no backend should store."""
    _check_name("stream", request.stream)
    if not request.events:
        raise InvalidEventError("no events to append")
    for event in request.events:
        _check_name("event type", event.type)
    _check_optional_name("actor", request.actor)
    _check_optional_name("command_id", request.command_id)
    seq = request.expected_seq
    if seq is not None and (isinstance(seq, bool) or not isinstance(seq, int) or seq < 0):
        raise InvalidEventError(f"expected_seq must be an int >= 0 or None, not {seq!r}")


def _check_name(what: str, value: object) -> None:
    if not isinstance(value, str) or not value:
        raise InvalidEventError(f"{what} must be a non-empty string, not {value!r}")


def _check_optional_name(what: str, value: object) -> None:
    if value is not None:
        _check_name(what, value)


def utc_time(value: object) -> datetime:
    """``value`` as an aware UTC datetime; a naive or non-datetime value is refused."""
    if not isinstance(value, datetime):
        raise InvalidEventError(f"recorded_at must be a datetime, not {value!r}")
    if value.tzinfo is None or value.utcoffset() is None:
        raise InvalidEventError(f"recorded_at must be timezone-aware (UTC), not {value!r}")
    return value.astimezone(UTC)


def json_object(data: object) -> JsonObject:
    """A plain copy of ``data`` that survives a JSON round trip unchanged.

    Mappings with string keys, lists and tuples (stored as lists), strings, ints,
    finite floats, booleans and None; anything else is an :class:`InvalidEventError`
    naming where it is (``data.a[2]``).
    """
    if not isinstance(data, Mapping):
        raise InvalidEventError(
            f"event data must be a JSON object (a mapping), not {data.__class__.__name__}"
        )
    try:
        value = _plain(data, "data")
    except RecursionError:
        raise InvalidEventError("event data is nested too deeply") from None
    assert isinstance(value, dict)
    return value


def _plain(value: object, path: str) -> Any:
    if value is None or value is True or value is False:
        return value
    if isinstance(value, str):
        return str.__str__(value)
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise InvalidEventError(f"{path}: {value} is not a JSON number")
        return float(value)
    if isinstance(value, Mapping):
        out: JsonObject = {}
        for key, item in value.items():
            if not isinstance(key, str):
                raise InvalidEventError(f"{path}: key {key!r} is not a string")
            out[str.__str__(key)] = _plain(item, f"{path}.{key}")
        return out
    if isinstance(value, list | tuple):
        return [_plain(item, f"{path}[{i}]") for i, item in enumerate(value)]
    raise InvalidEventError(f"{path}: {value.__class__.__name__} is not JSON ({value!r})")


def encode_json(data: JsonObject) -> str:
    """Compact JSON text of a value made by :func:`json_object`."""
    return json.dumps(data, ensure_ascii=False, allow_nan=False, separators=(",", ":"))


def decode_json(text: str) -> JsonObject:
    try:
        value = json.loads(text)
    except ValueError as exc:
        raise StoreError(f"stored event data is not JSON ({exc}): {text[:80]!r}") from None
    if not isinstance(value, dict):
        raise StoreError(f"stored event data is not a JSON object: {text[:80]!r}")
    return value


def decode_json_many(texts: Sequence[str]) -> list[JsonObject]:
    """:func:`decode_json` of each text, in one parse (3x faster for a long stream)."""
    if len(texts) > 1:
        try:
            values = json.loads("[" + ",".join(texts) + "]")
        except ValueError:
            values = None
        if (
            isinstance(values, list)
            and len(values) == len(texts)
            and set(map(type, values)) <= {dict}
        ):
            return values
    return [decode_json(text) for text in texts]  # one at a time, to name the bad one
