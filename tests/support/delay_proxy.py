"""A loopback TCP proxy that delays each direction, for latency that Chromium's own
network emulation does not give: DevTools delays HTTP but not websocket messages.

Every chunk read on one side is written on the other after a fixed one-way delay
plus a jitter drawn uniformly in ``[-jitter, +jitter]``, and never before the chunk
read ahead of it: a websocket is a byte stream, and reordering its bytes would break
it. So a chunk whose draw would overtake the one before leaves right behind it, as
on a real link where one late segment holds back those after it (the jitter only
ever adds to the delay of what follows it, never takes from it).

An outage cuts the link, in one of two ways:

- ``hold``: the connections stay open but nothing crosses until the outage ends, then
  what was held is delivered in order (a stalled link; neither side notices unless it
  listens for silence);
- ``drop``: every open connection is cut at once and new ones are cut as soon as
  they are accepted, until the outage ends (a device out of reach: both sides see
  the connection fail, and reconnect when they can).

``DelayProxy`` runs on the caller's event loop (``async with DelayProxy(...)``);
``running_proxy(...)`` runs one on a thread of its own, for synchronous callers such
as the page tests. Its controls (``set_delay``, ``start_outage``, ``end_outage``) may be
called from any thread.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Literal

OutageMode = Literal["hold", "drop"]
CHUNK = 65536


@dataclass(frozen=True)
class Link:
    """One direction's delay: a one-way delay and the jitter around it, in ms."""

    one_way_ms: float = 0.0
    jitter_ms: float = 0.0

    def __post_init__(self) -> None:
        if self.one_way_ms < 0 or self.jitter_ms < 0:
            raise ValueError("a delay and its jitter are zero or more")
        if self.jitter_ms > self.one_way_ms:
            raise ValueError("the jitter is at most the delay: no chunk arrives before it left")

    @classmethod
    def round_trip(cls, rtt_ms: float, jitter_ms: float = 0.0) -> Link:
        """Half the round trip each way, with ``jitter_ms`` each way."""
        return cls(rtt_ms / 2, jitter_ms)


class DelayProxy:
    """Listens on ``host:port`` (a free port unless given) and forwards every
    connection to ``target_host:target_port``, each direction delayed by ``link``."""

    def __init__(
        self, target_host: str, target_port: int, link: Link | None = None, *,
        host: str = "127.0.0.1", port: int = 0, seed: int | None = None,
    ) -> None:
        self.target = (target_host, target_port)
        self.link = link or Link()
        self.host, self.port = host, port
        self._random = random.Random(seed)
        self._server: asyncio.Server | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._flowing = asyncio.Event()
        self._flowing.set()
        self._outage: OutageMode | None = None
        self._links: set[tuple[asyncio.WriteTransport, asyncio.WriteTransport]] = set()
        self._handlers: set[asyncio.Task[object]] = set()
        self.accepted = 0
        """Connections accepted, cut ones included."""
        self.cut = 0
        """Connections cut by a ``drop`` outage (open ones, and those refused during it)."""

    # ------------------------------------------------------------------ lifecycle

    async def start(self) -> DelayProxy:
        self._loop = asyncio.get_running_loop()
        self._flowing = asyncio.Event()
        if self._outage != "hold":
            self._flowing.set()
        self._server = await asyncio.start_server(self._accept, self.host, self.port)
        self.port = self._server.sockets[0].getsockname()[1]
        return self

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()
        for pair in list(self._links):
            for transport in pair:
                transport.abort()
        if self._handlers:
            # Cut, each connection's handler ends on its own, soon.
            await asyncio.wait(list(self._handlers), timeout=5)
        if self._server is not None:
            with contextlib.suppress(Exception):
                await self._server.wait_closed()

    async def __aenter__(self) -> DelayProxy:
        return await self.start()

    async def __aexit__(self, *_: object) -> None:
        await self.close()

    @property
    def address(self) -> str:
        """``host:port`` to connect to, in place of the target's."""
        return f"{self.host}:{self.port}"

    # ------------------------------------------------------------------ controls

    def _on_loop(self, work: object) -> None:
        assert callable(work)
        loop = self._loop
        if loop is None:
            work()
            return
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is loop:
            work()
        else:
            loop.call_soon_threadsafe(work)

    def set_delay(self, link: Link) -> None:
        """The delay from now on; chunks already on their way keep theirs."""
        self.link = link

    def start_outage(self, mode: OutageMode = "drop") -> None:
        def begin() -> None:
            self._outage = mode
            if mode == "hold":
                self._flowing.clear()
            else:
                self._flowing.set()
                for pair in list(self._links):
                    self.cut += 1
                    for transport in pair:
                        transport.abort()
                self._links.clear()

        self._on_loop(begin)

    def end_outage(self) -> None:
        def end() -> None:
            self._outage = None
            self._flowing.set()

        self._on_loop(end)

    @property
    def in_outage(self) -> OutageMode | None:
        return self._outage

    # ------------------------------------------------------------------ forwarding

    def _draw_ms(self) -> float:
        link = self.link
        if link.jitter_ms == 0:
            return link.one_way_ms
        return link.one_way_ms + self._random.uniform(-link.jitter_ms, link.jitter_ms)

    async def _accept(
        self, client_reader: asyncio.StreamReader, client_writer: asyncio.StreamWriter
    ) -> None:
        self.accepted += 1
        handler = asyncio.current_task()
        if handler is not None:
            self._handlers.add(handler)
            handler.add_done_callback(self._handlers.discard)
        if self._outage == "drop":
            self.cut += 1
            client_writer.transport.abort()
            return
        try:
            server_reader, server_writer = await asyncio.open_connection(*self.target)
        except OSError:
            client_writer.transport.abort()
            return
        pair = (client_writer.transport, server_writer.transport)
        self._links.add(pair)
        try:
            await asyncio.gather(
                self._pipe(client_reader, server_writer),
                self._pipe(server_reader, client_writer),
                return_exceptions=True,
            )
        finally:
            self._links.discard(pair)
            for transport in pair:
                transport.abort()

    async def _pipe(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """One direction: a reader that stamps each chunk with the time it is due, and
        a writer that lets it out then, in the order read."""
        loop = asyncio.get_running_loop()
        queue: asyncio.Queue[tuple[float, bytes]] = asyncio.Queue()

        async def read() -> None:
            last_due = 0.0
            try:
                while True:
                    data = await reader.read(CHUNK)
                    due = max(loop.time() + self._draw_ms() / 1000, last_due)
                    last_due = due
                    queue.put_nowait((due, data))
                    if not data:
                        return
            except (ConnectionError, OSError):
                queue.put_nowait((last_due, b""))

        async def write() -> None:
            while True:
                due, data = await queue.get()
                wait = due - loop.time()
                if wait > 0:
                    await asyncio.sleep(wait)
                await self._flowing.wait()
                if not data:
                    with contextlib.suppress(OSError, RuntimeError):
                        if writer.can_write_eof():
                            writer.write_eof()
                    return
                writer.write(data)
                await writer.drain()

        reading = asyncio.create_task(read())
        try:
            await write()
        except (ConnectionError, OSError):
            pass
        finally:
            reading.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await reading


@contextmanager
def running_proxy(
    target_host: str, target_port: int, link: Link | None = None, *, seed: int | None = None,
) -> Iterator[DelayProxy]:
    """A ``DelayProxy`` on a thread and event loop of its own, listening once this
    yields; stopped on the way out."""
    proxy = DelayProxy(target_host, target_port, link, seed=seed)
    loop = asyncio.new_event_loop()
    started = threading.Event()
    failure: list[BaseException] = []

    def serve() -> None:
        asyncio.set_event_loop(loop)

        async def begin() -> None:
            try:
                await proxy.start()
            except BaseException as exc:
                failure.append(exc)
            finally:
                started.set()

        loop.run_until_complete(begin())
        if not failure:
            loop.run_forever()
        loop.run_until_complete(proxy.close())
        loop.close()

    thread = threading.Thread(target=serve, name="delay-proxy", daemon=True)
    thread.start()
    started.wait(10)
    if failure:
        thread.join(10)
        raise failure[0]
    try:
        yield proxy
    finally:
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)
