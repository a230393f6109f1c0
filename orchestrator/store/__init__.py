"""The durable event log: every change to a play-off is an event appended here.

- :mod:`.base`: :class:`StoredEvent`, the :class:`EventStore` protocol, the errors.
- :mod:`.sqlite`: :class:`SqliteEventStore`, the embedded backend (one file, WAL).
- :mod:`.aio`: :class:`AsyncEventStore`, the async face with group commit.
- :mod:`.postgres`: :class:`PostgresEventStore`, an :class:`AsyncEventLog` in
  PostgreSQL, for several workers sharing one log, and their leader's lease.
- :mod:`.registry`: the back-end of a log's URL, by its scheme (:func:`open_log`).
"""

from typing import TYPE_CHECKING

from orchestrator.store.aio import AsyncEventStore, GroupCommitStats
from orchestrator.store.base import (
    AppendRequest,
    AppendUnit,
    AsyncEventLog,
    AtomicAppend,
    CommandIdReusedError,
    CommandLoggedError,
    ConcurrencyError,
    EventStore,
    InvalidEventError,
    JsonObject,
    Leadership,
    NewEvent,
    SchemaVersionError,
    Snapshot,
    StoreClosedError,
    StoredEvent,
    StoreError,
    StoreFullError,
    StoreUnavailableError,
)
from orchestrator.store.registry import open_log
from orchestrator.store.sqlite import SCHEMA_VERSION, SqliteEventStore

if TYPE_CHECKING:
    from orchestrator.store.postgres import PostgresEventStore


def __getattr__(name: str) -> object:
    # Loaded when asked for: the driver takes a tenth of a second to import, which a
    # service on SQLite, and every one of its start-ups, need not pay.
    if name == "PostgresEventStore":
        from orchestrator.store.postgres import PostgresEventStore

        return PostgresEventStore
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "SCHEMA_VERSION",
    "AppendRequest",
    "AppendUnit",
    "AsyncEventLog",
    "AsyncEventStore",
    "AtomicAppend",
    "CommandIdReusedError",
    "CommandLoggedError",
    "ConcurrencyError",
    "EventStore",
    "GroupCommitStats",
    "InvalidEventError",
    "JsonObject",
    "Leadership",
    "NewEvent",
    "PostgresEventStore",
    "SchemaVersionError",
    "Snapshot",
    "SqliteEventStore",
    "StoreClosedError",
    "StoreError",
    "StoreFullError",
    "StoreUnavailableError",
    "StoredEvent",
    "open_log",
]
