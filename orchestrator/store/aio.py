"""The async face of the event log, for the FastAPI app: group commit in one writer thread.

Appends from any number of tasks go into a queue. One writer thread takes everything
queued (up to ``max_group`` requests), hands it to the store's
:meth:`~orchestrator.store.base.EventStore.append_group` (one transaction, one
fsync), and only when that returns, i.e. after COMMIT, resolves each caller's future
with its events or its own error. While one group is being committed the next one
gathers, so the commit rate adapts to the load with no timer and no added latency
for a lone appender.

Reads run in a small thread pool of their own so the event loop never blocks on disk.

Cancellation: a task cancelled before the writer picks its request up stores
nothing; once picked up the request is committed regardless (resend it with the
same ``command_id`` to learn its result: it will not be applied twice).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import queue
import threading
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime
from typing import Any, TypeVar

from orchestrator.store.base import (
    AppendRequest,
    AppendUnit,
    AtomicAppend,
    EventStore,
    Leadership,
    NewEvent,
    Snapshot,
    StoreClosedError,
    StoredEvent,
    StoreError,
    StoreUnavailableError,
)

T = TypeVar("T")
_Job = tuple[AppendUnit, "concurrent.futures.Future[list[StoredEvent]]"]


@dataclass
class GroupCommitStats:
    """Counters kept by the writer thread (read them for monitoring and benchmarks)."""

    requests: int = 0
    refused: int = 0
    events: int = 0
    commits: int = 0
    largest_group: int = 0

    @property
    def mean_group(self) -> float:
        return self.requests / self.commits if self.commits else 0.0


class AsyncEventStore:
    """Wraps a sync :class:`EventStore`; owns it (``aclose`` closes it)."""

    def __init__(self, store: EventStore, *, max_group: int = 1024, readers: int = 4) -> None:
        if max_group < 1:
            raise ValueError("max_group must be >= 1")
        self.store = store
        self.stats = GroupCommitStats()
        self._max_group = max_group
        self._queue: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._closed = False
        self._reads = ThreadPoolExecutor(max_workers=readers, thread_name_prefix="store-read")
        self._writer = threading.Thread(
            target=self._run_writer, name="store-writer", daemon=True
        )
        self._writer.start()

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
        return (await self.submit(request))[0]

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
        return await self.submit(request)

    async def append_atomic(self, requests: Sequence[AppendRequest]) -> list[list[StoredEvent]]:
        """Several streams' events in one transaction (all or nothing); each request's
        stored events, in order."""
        stored = await self.submit(AtomicAppend(tuple(requests)))
        split: list[list[StoredEvent]] = []
        at = 0
        for request in requests:
            split.append(stored[at : at + len(request.events)])
            at += len(request.events)
        return split

    async def submit(self, request: AppendUnit) -> list[StoredEvent]:
        """Queue one unit for the next group commit; its events once committed."""
        future: concurrent.futures.Future[list[StoredEvent]] = concurrent.futures.Future()
        with self._lock:
            if self._closed:
                raise StoreClosedError("the event store is closed")
            self._queue.put((request, future))
        return await asyncio.wrap_future(future)

    def _run_writer(self) -> None:
        stop = False
        while not stop:
            job = self._queue.get()
            group: list[_Job] = []
            while True:
                if job is None:
                    stop = True
                    break
                if job[1].set_running_or_notify_cancel():  # False: cancelled, drop it
                    group.append(job)
                if len(group) >= self._max_group:
                    break
                try:
                    job = self._queue.get_nowait()
                except queue.Empty:
                    break
            if group:
                self._commit(group)

    def _commit(self, group: list[_Job]) -> None:
        try:
            results = self.store.append_group([request for request, _ in group])
        except BaseException as exc:  # the COMMIT failed: nothing of the group is stored
            for _, future in group:
                if isinstance(exc, StoreUnavailableError):  # no room, no file: said so
                    error: StoreError = type(exc)(*exc.args)
                else:
                    error = StoreError(f"the group commit failed: {exc!r}")
                error.__cause__ = exc
                future.set_exception(error)
            if not isinstance(exc, Exception):
                raise
            return
        stats = self.stats
        stats.commits += 1
        stats.requests += len(group)
        stats.largest_group = max(stats.largest_group, len(group))
        for (_, future), result in zip(group, results, strict=True):
            if isinstance(result, Exception):
                stats.refused += 1
                future.set_exception(result)
            else:
                stats.events += len(result)
                future.set_result(result)

    # ----------------------------------------------------------------- reads

    async def read(
        self, stream: str, after: int = 0, limit: int | None = None
    ) -> list[StoredEvent]:
        return await self._in_reader(lambda: self.store.read(stream, after, limit))

    async def last_seq(self, stream: str) -> int:
        return await self._in_reader(lambda: self.store.last_seq(stream))

    async def find_command(self, stream: str, command_id: str) -> list[StoredEvent] | None:
        return await self._in_reader(lambda: self.store.find_command(stream, command_id))

    async def find_command_anywhere(self, command_id: str) -> list[StoredEvent] | None:
        return await self._in_reader(lambda: self.store.find_command_anywhere(command_id))

    async def secret(self) -> str:
        return await self._in_reader(self.store.secret)

    async def save_snapshots(self, snapshots: Sequence[Snapshot]) -> None:
        # Off the writer thread's queue: a cache never delays a command's commit
        # for long (the store's write lock orders the two).
        await self._in_reader(lambda: self.store.save_snapshots(snapshots))

    async def integrity(self, max_s: float) -> list[str]:
        return await self._in_reader(lambda: self.store.integrity(max_s))

    async def snapshots(self, prefix: str | None = None) -> dict[str, Snapshot]:
        return await self._in_reader(lambda: self.store.snapshots(prefix))

    async def streams(self, prefix: str | None = None) -> list[str]:
        return await self._in_reader(lambda: self.store.streams(prefix))

    async def _in_reader(self, work: Callable[[], T]) -> T:
        if self._closed:
            raise StoreClosedError("the event store is closed")
        try:
            future = asyncio.get_running_loop().run_in_executor(self._reads, work)
        except RuntimeError:  # the pool was shut down meanwhile
            raise StoreClosedError("the event store is closed") from None
        return await future

    # ----------------------------------------------------------------- closing

    def lease(self, *, poll_s: float = 1.0) -> Leadership | None:
        return self.store.lease(poll_s=poll_s)

    def close(self) -> None:
        """Commit what is queued, stop the threads, close the store (blocking)."""
        with self._lock:
            if not self._closed:
                self._closed = True
                self._queue.put(None)
        self._writer.join()
        self._reads.shutdown(wait=True)
        self.store.close()

    async def aclose(self) -> None:
        await asyncio.to_thread(self.close)

    async def __aenter__(self) -> AsyncEventStore:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()
