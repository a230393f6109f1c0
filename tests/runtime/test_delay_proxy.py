"""The loopback proxy that puts latency between a page and the service: a real echo
server behind it, real sockets in front."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator

import pytest

from tests.support.delay_proxy import DelayProxy, Link, running_proxy


async def _echo(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    with contextlib.suppress(ConnectionError):
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()
    writer.close()


@contextlib.asynccontextmanager
async def echo_server() -> AsyncIterator[int]:
    server = await asyncio.start_server(_echo, "127.0.0.1", 0)
    try:
        yield server.sockets[0].getsockname()[1]
    finally:
        server.close()


async def _round_trip(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> float:
    began = time.perf_counter()
    writer.write(b"x")
    await writer.drain()
    assert await reader.readexactly(1) == b"x"
    return (time.perf_counter() - began) * 1000


async def test_each_round_trip_takes_the_delay_both_ways_within_the_jitter() -> None:
    link = Link(one_way_ms=40, jitter_ms=15)
    async with echo_server() as port, DelayProxy("127.0.0.1", port, link, seed=7) as proxy:
        reader, writer = await asyncio.open_connection("127.0.0.1", proxy.port)
        trips = [await _round_trip(reader, writer) for _ in range(25)]
        writer.close()
    # Two draws in 40 ± 15 ms: never less. More only by what a busy machine adds to
    # the loop and the echo: the median stays within the jitter, any one trip may not.
    assert min(trips) >= 2 * (40 - 15) - 1, trips
    assert sorted(trips)[len(trips) // 2] <= 2 * (40 + 15) + 15, trips
    # The jitter is real: the trips are not all the same.
    assert max(trips) - min(trips) > 10, trips


async def test_no_delay_is_a_plain_loopback_hop() -> None:
    async with echo_server() as port, DelayProxy("127.0.0.1", port) as proxy:
        reader, writer = await asyncio.open_connection("127.0.0.1", proxy.port)
        trips = sorted([await _round_trip(reader, writer) for _ in range(20)])
        writer.close()
    assert trips[len(trips) // 2] < 5, trips


async def test_bytes_keep_their_order_under_jitter() -> None:
    """Many small writes, each its own chunk with its own draw: the stream that
    comes back is the stream sent, byte for byte."""
    link = Link(one_way_ms=20, jitter_ms=20)
    sent = b"".join(f"{i:05d};".encode() for i in range(400))
    async with echo_server() as port, DelayProxy("127.0.0.1", port, link, seed=3) as proxy:
        reader, writer = await asyncio.open_connection("127.0.0.1", proxy.port)
        for i in range(400):
            writer.write(f"{i:05d};".encode())
            await writer.drain()
            if i % 20 == 0:
                await asyncio.sleep(0.003)  # apart in time: separate chunks, separate draws
        got = await asyncio.wait_for(reader.readexactly(len(sent)), 10)
        writer.close()
    assert got == sent


async def test_a_held_link_delivers_nothing_until_the_outage_ends_then_everything() -> None:
    async with echo_server() as port, DelayProxy("127.0.0.1", port) as proxy:
        reader, writer = await asyncio.open_connection("127.0.0.1", proxy.port)
        proxy.start_outage("hold")
        writer.write(b"during")
        await writer.drain()
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(reader.readexactly(6), 0.3)
        proxy.end_outage()
        assert await asyncio.wait_for(reader.readexactly(6), 2) == b"during"
        writer.close()


async def test_a_dropped_link_cuts_open_connections_and_refuses_new_ones_until_it_ends() -> None:
    async with echo_server() as port, DelayProxy("127.0.0.1", port) as proxy:
        reader, writer = await asyncio.open_connection("127.0.0.1", proxy.port)
        assert await _round_trip(reader, writer) < 1000
        proxy.start_outage("drop")
        await asyncio.sleep(0.05)
        with pytest.raises((ConnectionError, asyncio.IncompleteReadError)):
            writer.write(b"y")
            await writer.drain()
            await asyncio.wait_for(reader.readexactly(1), 2)
        # A new connection during the outage is cut at once.
        reader2, writer2 = await asyncio.open_connection("127.0.0.1", proxy.port)
        with pytest.raises((ConnectionError, asyncio.IncompleteReadError)):
            writer2.write(b"z")
            await writer2.drain()
            await asyncio.wait_for(reader2.readexactly(1), 2)
        proxy.end_outage()
        reader3, writer3 = await asyncio.open_connection("127.0.0.1", proxy.port)
        assert await _round_trip(reader3, writer3) < 1000
        writer3.close()
        assert proxy.cut == 2


def test_a_proxy_on_its_own_thread_serves_synchronous_callers() -> None:
    import socket

    async def serve_echo(ready: asyncio.Future[int], stop: asyncio.Event) -> None:
        async with echo_server() as port:
            ready.set_result(port)
            await stop.wait()

    loop = asyncio.new_event_loop()
    ready: asyncio.Future[int] = loop.create_future()
    stop = asyncio.Event()
    import threading

    thread = threading.Thread(target=loop.run_until_complete, args=(serve_echo(ready, stop),))
    thread.start()
    try:
        while not ready.done():
            time.sleep(0.01)
        with running_proxy("127.0.0.1", ready.result(), Link(30, 0)) as proxy, \
                socket.create_connection(("127.0.0.1", proxy.port), timeout=5) as sock:
            began = time.perf_counter()
            sock.sendall(b"ping")
            assert sock.recv(4) == b"ping"
            elapsed_ms = (time.perf_counter() - began) * 1000
        assert 59 <= elapsed_ms < 120, elapsed_ms
    finally:
        loop.call_soon_threadsafe(stop.set)
        thread.join(10)
        loop.close()
