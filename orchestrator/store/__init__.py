"""The durable event log: every change to a play-off is an event appended here.

- :mod:`.base`: :class:`StoredEvent`, the :class:`EventStore` protocol, the errors.
- :mod:`.sqlite`: :class:`SqliteEventStore`, the embedded backend (one file, WAL).
- :mod:`.aio`: :class:`AsyncEventStore`, the async face with group commit.

A PostgreSQL backend implements :class:`EventStore` and nothing else changes.
"""

from orchestrator.store.aio import AsyncEventStore, GroupCommitStats
from orchestrator.store.base import (
    AppendRequest,
    AppendUnit,
    AsyncEventLog,
    AtomicAppend,
    CommandIdReusedError,
    ConcurrencyError,
    EventStore,
    InvalidEventError,
    JsonObject,
    NewEvent,
    SchemaVersionError,
    Snapshot,
    StoreClosedError,
    StoredEvent,
    StoreError,
)
from orchestrator.store.sqlite import SCHEMA_VERSION, SqliteEventStore

__all__ = [
    "SCHEMA_VERSION",
    "AppendRequest",
    "AppendUnit",
    "AsyncEventLog",
    "AsyncEventStore",
    "AtomicAppend",
    "CommandIdReusedError",
    "ConcurrencyError",
    "EventStore",
    "GroupCommitStats",
    "InvalidEventError",
    "JsonObject",
    "NewEvent",
    "SchemaVersionError",
    "Snapshot",
    "SqliteEventStore",
    "StoreClosedError",
    "StoreError",
    "StoredEvent",
]
