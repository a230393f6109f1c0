"""The bus between workers that share one event log: Redis pub/sub.

Every commit a worker makes to the log is announced on one Redis channel, with
the events as they were stored (:meth:`RedisBus.announcing` wraps the log). Every
other worker folds them into its own states (:meth:`Service.catch_up`) and
publishes them to its own subscribers (the hub, the flag timers, the scheduler)
exactly as it does its own commands', so a display on any worker sees every
command in seq order. Views and clocks are derived again on each worker from the
same events: only the log's own data travels.

Redis pub/sub delivers at most once, and nothing here trusts it for more:

- an announcement that does not follow on from a worker's state of its stream (one
  was lost, or two workers' announcements crossed) makes that worker read the
  stream's missing events from the log;
- a subscription that was dropped (Redis restarted, or cut a subscriber that read
  too slowly) is made again, and the worker then reads every stream's new events
  from the log before it goes on;
- an announcement that could not be sent is followed, once Redis answers again, by
  a notice naming its streams, which the others read from the log;
- now and then (``reconcile_s``) a worker reads what the log has past its states,
  for a commit whose worker died before it could announce it.

The log decides everything; Redis only saves the other workers a read.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

import redis.asyncio as aioredis
from redis.exceptions import RedisError

from orchestrator.core.bus import InProcessBus
from orchestrator.runtime.boards import BoardNews
from orchestrator.store import (
    AppendRequest,
    AsyncEventLog,
    Leadership,
    NewEvent,
    Snapshot,
    StoredEvent,
    StoreError,
)

if TYPE_CHECKING:
    from orchestrator.core.service import Service

__all__ = ["CHANNEL", "AnnouncingLog", "RedisBus"]

log = logging.getLogger(__name__)

CHANNEL = "playoff:log"
"""The channel every commit is announced on (one for the whole log)."""

MAX_UNSENT = 10_000
"""Announcements queued while Redis does not answer; past this, the oldest are
dropped (their streams are then named in a notice)."""


class RedisBus(InProcessBus):
    """A :class:`~orchestrator.core.bus.Bus` for several workers: this process's
    subscribers get what it publishes, as with :class:`InProcessBus`, and what the
    other workers log reaches them through Redis.

    Use: :meth:`announcing` around the log the service writes to, :meth:`open`
    before the service loads the log (so nothing committed meanwhile is missed),
    :meth:`follow` once it has, :meth:`aclose` at the end.
    """

    def __init__(
        self,
        url: str,
        *,
        channel: str = CHANNEL,
        worker: str | None = None,
        reconnect_s: float = 0.5,
        reconcile_s: float = 5.0,
    ) -> None:
        super().__init__()
        if reconnect_s <= 0 or reconcile_s <= 0:
            raise ValueError("reconnect_s and reconcile_s must be > 0")
        self._url = url  # may hold a password: never shown
        self.channel = channel
        self.worker = worker or secrets.token_hex(6)
        self.reconnect_s = reconnect_s
        self.reconcile_s = reconcile_s
        self.announced = 0
        self.received = 0
        self.read_from_log = 0
        """Times a gap or a lost subscription sent this worker to the log."""
        self._client: aioredis.Redis | None = None
        self._pubsub: Any = None
        self._outbox: asyncio.Queue[tuple[str, bytes]] | None = None
        self._unsent: set[str] = set()
        self._tasks: list[asyncio.Task[None]] = []
        self._service: Service | None = None
        self.on_board: Callable[[str, str, int, BoardNews], None] | None = None
        """Told (worker, play-off, match, news) of a board another worker holds."""

    # ----------------------------------------------------------------- announcing

    def announcing(self, store: AsyncEventLog) -> AnnouncingLog:
        """``store``, announcing each of its commits on this bus."""
        return AnnouncingLog(store, self)

    def announce(self, stored: Sequence[StoredEvent]) -> None:
        """Queue one commit's events for the channel (in commit order); never waits."""
        if not stored or self._outbox is None:
            return
        payload = json.dumps(
            {"w": self.worker, "e": [_event(e) for e in stored]},
            ensure_ascii=False, separators=(",", ":"),
        ).encode()
        if self._outbox.qsize() >= MAX_UNSENT:
            streams, _ = self._outbox.get_nowait()
            self._unsent.update(streams.split("\0"))
        self._outbox.put_nowait(("\0".join(sorted({e.stream for e in stored})), payload))

    def share_board(self, playoff_id: str, match: int, news: BoardNews) -> None:
        """Queue this worker's word on a board it holds for the other workers (behind
        the commits already queued: a board's presses reach the others before its word
        that it sent them). Never logged, never waits; lost with Redis down, when the
        others' word on it goes stale (:data:`~orchestrator.runtime.boards.FRESH_MS`)."""
        if self._outbox is None:
            return
        payload = json.dumps({"w": self.worker, "b": [
            playoff_id, match, news.online, news.heard_ms, news.through_ms, news.battery,
            news.charging,
        ]}, separators=(",", ":")).encode()
        if self._outbox.qsize() < MAX_UNSENT:
            self._outbox.put_nowait(("", payload))

    async def _send(self) -> None:
        """One task sends every announcement, in order: the channel gets a worker's
        commits in the order the log took them."""
        assert self._outbox is not None and self._client is not None
        outbox, client = self._outbox, self._client
        while True:
            batch: list[tuple[str, bytes]] = []
            if self._unsent and outbox.empty():
                # The notice goes out once Redis answers, whether more commits come or not.
                await asyncio.sleep(self.reconnect_s)
            else:
                batch.append(await outbox.get())
            while not outbox.empty() and len(batch) < 256:
                batch.append(outbox.get_nowait())
            try:
                if self._unsent:
                    notice = {"w": self.worker, "s": sorted(self._unsent)}
                    await client.publish(self.channel, json.dumps(notice).encode())
                    self._unsent.clear()
                if batch:
                    async with client.pipeline(transaction=False) as pipe:
                        for _, payload in batch:
                            pipe.publish(self.channel, payload)
                        await pipe.execute()
                self.announced += sum(1 for streams, _ in batch if streams)
            except (RedisError, OSError) as exc:
                log.warning("announcements not sent (%s): their streams will be named "
                            "once Redis answers", exc)
                for streams, _ in batch:
                    if streams:  # a board's word is not a commit: nothing to name
                        self._unsent.update(streams.split("\0"))
                await asyncio.sleep(self.reconnect_s)

    # ----------------------------------------------------------------- following

    async def open(self) -> None:
        """Connect, subscribe, and start announcing. Before the service loads: what
        is committed from here on is either in what it loads or received."""
        self._client = aioredis.Redis.from_url(
            self._url, socket_keepalive=True, socket_connect_timeout=5,
            health_check_interval=5,
        )
        self._outbox = asyncio.Queue()
        self._pubsub = await self._subscribe()
        self._tasks.append(asyncio.create_task(self._send(), name="redis-announce"))

    def follow(self, service: Service) -> None:
        """Fold into ``service`` what the other workers log, from now on."""
        self._service = service
        self._tasks.append(asyncio.create_task(self._listen(service), name="redis-follow"))
        self._tasks.append(asyncio.create_task(self._reconcile(service), name="log-reconcile"))

    async def _subscribe(self) -> Any:
        assert self._client is not None
        pubsub = self._client.pubsub()
        await pubsub.subscribe(self.channel)
        # Its confirmation is read here: every later one means a subscription made
        # again, after which what was missed is read from the log.
        async with asyncio.timeout(10):
            while await pubsub.get_message(timeout=1) is None:
                pass
        return pubsub

    async def _listen(self, service: Service) -> None:
        while True:
            try:
                if self._pubsub is None:
                    self._pubsub = await self._subscribe()
                    await self._read_log(service)
                while True:
                    message = await self._pubsub.get_message(timeout=1.0)
                    if message is None:
                        continue
                    if message["type"] == "subscribe":  # the client subscribed again
                        await self._read_log(service)
                    elif message["type"] == "message":
                        await self._received(service, message["data"])
            except asyncio.CancelledError:
                raise
            except (RedisError, OSError) as exc:
                log.warning("the subscription to %s was lost (%s); subscribing again",
                            self.channel, exc)
            except Exception:
                log.exception("following the other workers failed; subscribing again")
            pubsub, self._pubsub = self._pubsub, None
            if pubsub is not None:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()
            await asyncio.sleep(self.reconnect_s)

    async def _received(self, service: Service, data: bytes) -> None:
        message = json.loads(data)
        if message.get("w") == self.worker:
            return  # this worker's own commit: its state has it already
        if "b" in message:
            self._board(str(message.get("w")), message["b"])
            return
        self.received += 1
        by_stream: dict[str, list[StoredEvent]] = {}
        for row in message.get("e", ()):
            stored = _stored(row)
            by_stream.setdefault(stored.stream, []).append(stored)
        if "s" in message:  # a notice: another worker's announcements were lost
            self.read_from_log += 1
            by_stream = {str(stream): [] for stream in message["s"]}
        for stream, events in by_stream.items():
            try:
                await service.catch_up(stream, events)
            except (StoreError, OSError):
                raise
            except Exception:  # one play-off that does not fold never stops the others
                log.exception("%s: the announced events do not fold", stream)

    def _board(self, worker: str, row: list[Any]) -> None:
        if self.on_board is None:
            return
        try:
            playoff_id, match, online, heard, through, battery, charging = row
            news = BoardNews(bool(online), _instant(heard), _instant(through),
                             float(battery) if battery is not None else None,
                             bool(charging) if charging is not None else None)
            self.on_board(worker, str(playoff_id), int(match), news)
        except (TypeError, ValueError):
            log.warning("a board's word from worker %s could not be read: %r", worker, row)

    async def _read_log(self, service: Service) -> None:
        self.read_from_log += 1
        await service.catch_up_all()

    async def _reconcile(self, service: Service) -> None:
        while True:
            await asyncio.sleep(self.reconcile_s)
            try:
                await service.catch_up_all()
            except Exception:  # the log unreachable for now: the next round tries again
                log.exception("reading the log's new events failed")

    async def aclose(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(BaseException):
                await task
        self._tasks.clear()
        pubsub, self._pubsub = self._pubsub, None
        if pubsub is not None:
            with contextlib.suppress(Exception):
                await pubsub.aclose()
        client, self._client = self._client, None
        if client is not None:
            with contextlib.suppress(Exception):
                await client.aclose()


def _instant(value: Any) -> int | None:
    return None if value is None else int(value)


def _event(e: StoredEvent) -> list[Any]:
    return [e.stream, e.seq, e.type, e.data, e.actor, e.recorded_at.isoformat(), e.command_id]


def _stored(row: list[Any]) -> StoredEvent:
    stream, seq, type_, data, actor, at, command_id = row
    return StoredEvent(
        str(stream), int(seq), str(type_), dict(data), actor, datetime.fromisoformat(at),
        command_id,
    )


class AnnouncingLog:
    """An event log whose commits are announced on a :class:`RedisBus` once durable."""

    def __init__(self, store: AsyncEventLog, bus: RedisBus) -> None:
        self.store = store
        self.bus = bus

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
        stored = await self.store.append(
            stream, type, data, actor=actor, recorded_at=recorded_at,
            expected_seq=expected_seq, command_id=command_id,
        )
        self.bus.announce([stored])
        return stored

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
        stored = await self.store.append_many(
            stream, events, actor=actor, recorded_at=recorded_at, expected_seq=expected_seq,
            command_id=command_id, fingerprint=fingerprint,
        )
        self.bus.announce(stored)
        return stored

    async def append_atomic(self, requests: Sequence[AppendRequest]) -> list[list[StoredEvent]]:
        stored = await self.store.append_atomic(requests)
        self.bus.announce([e for events in stored for e in events])
        return stored

    async def read(
        self, stream: str, after: int = 0, limit: int | None = None
    ) -> list[StoredEvent]:
        return await self.store.read(stream, after, limit)

    async def last_seq(self, stream: str) -> int:
        return await self.store.last_seq(stream)

    async def find_command(self, stream: str, command_id: str) -> list[StoredEvent] | None:
        return await self.store.find_command(stream, command_id)

    async def find_command_anywhere(self, command_id: str) -> list[StoredEvent] | None:
        return await self.store.find_command_anywhere(command_id)

    async def secret(self) -> str:
        return await self.store.secret()

    async def save_snapshots(self, snapshots: Sequence[Snapshot]) -> None:
        await self.store.save_snapshots(snapshots)

    async def snapshots(self, prefix: str | None = None) -> dict[str, Snapshot]:
        return await self.store.snapshots(prefix)

    async def streams(self, prefix: str | None = None) -> list[str]:
        return await self.store.streams(prefix)

    async def integrity(self, max_s: float) -> list[str]:
        return await self.store.integrity(max_s)

    def lease(self, *, poll_s: float = 1.0) -> Leadership | None:
        return self.store.lease(poll_s=poll_s)

    async def aclose(self) -> None:
        await self.store.aclose()
