"""N read-only hall displays in one process, for the fan-out benchmark (bench/fanout.py).

``python -m bench.displays --url ws://127.0.0.1:P/ws/playoffs/ID --key KEY --n 1000``

Each display is a raw websocket connection made with the ``websockets`` library's
Sans-I/O protocol on an ``asyncio.Protocol``: no task per connection, no queue, so
the displays cost as little CPU as a Python client can and the time recorded for a
frame (``time.time_ns()``, the same clock as the arbiter's on this machine) is the
moment its bytes come off the socket. No compression is offered (neither server
then compresses), unless ``--compress``: permessage-deflate, as browsers offer it.
Each display sends ``hello`` with the key, answers the protocol's ``ping`` with
``pong``, and records ``(seq, arrival ns)`` of every ``event`` frame, checking that
seqs follow each other without a gap from the seq of its ``welcome`` or
``snapshot``, and of every ``view`` frame. A display makes one HTTP request, its
websocket handshake, and no other: the process has no HTTP client; the handshakes
made are counted (a reconnection would show), and reported with what was recorded.

It speaks JSON lines with the bench process: it prints one line when the displays
are connected (``{"ready": ...}``), then reads commands on stdin:

- ``{"cmd": "collect", "until_seq": S, "timeout_s": T, "out": PATH}``: wait until
  every open display has seen event ``S`` (or ``T`` seconds), write what was
  recorded to ``PATH`` (pickle) and forget it; answers ``{"collected": ...}``.
- ``{"cmd": "quit"}`` (or the end of stdin): close every connection and exit.

Every wait is bounded; the process exits by itself after ``--life-s`` seconds.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import pickle
import resource
import sys
import time
from array import array
from collections import Counter
from typing import Any

from websockets.client import ClientProtocol
from websockets.extensions.permessage_deflate import ClientPerMessageDeflateFactory
from websockets.frames import Frame, Opcode
from websockets.http11 import Response
from websockets.protocol import State
from websockets.uri import parse_uri

EVENT_PREFIX = b'{"t":"event","seq":'
VIEW_PREFIX = b'{"t":"view","seq":'
PONG = '{"t":"pong"}'


def raise_fd_limit(wanted: int) -> int:
    """Raise the soft limit on open files towards ``wanted`` (up to the hard limit)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if target > soft:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


class Display(asyncio.Protocol):
    """One display: a websocket client driven by hand, recording event arrivals."""

    def __init__(
        self, uri: str, hello: str, loop: asyncio.AbstractEventLoop, compress: bool = False
    ) -> None:
        extensions = [ClientPerMessageDeflateFactory()] if compress else None
        self.ws = ClientProtocol(parse_uri(uri), max_size=None, extensions=extensions)
        self.hello = hello
        self.transport: asyncio.Transport | None = None
        self.welcomed: asyncio.Future[int] = loop.create_future()
        self.lost: asyncio.Future[None] = loop.create_future()
        self.seqs = array("q")
        self.times = array("q")
        self.view_seqs = array("q")
        self.view_times = array("q")
        self.view_bytes = 0
        self.http_requests = 0
        self.last_seq = -1  # from welcome / snapshot
        self.order_errors = 0
        self.snapshots = 0  # after the first: resyncs
        self.event_bytes = 0
        self.close_code: int | None = None
        self._fragments: list[bytes] = []

    # -- asyncio.Protocol ------------------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]  # uvloop's is no subclass
        self.ws.send_request(self.ws.connect())
        self.http_requests += 1
        self._flush()

    def data_received(self, data: bytes) -> None:
        now = time.time_ns()
        self.ws.receive_data(data)
        for event in self.ws.events_received():
            if isinstance(event, Frame):
                self._frame(event, now)
            elif isinstance(event, Response):
                if self.ws.state is State.OPEN:
                    self.ws.send_text(self.hello.encode())
                elif not self.welcomed.done():
                    self.welcomed.set_exception(
                        ConnectionError(f"handshake refused: HTTP {event.status_code}")
                    )
        self._flush()

    def eof_received(self) -> bool | None:
        self.ws.receive_eof()
        self._flush()
        return None

    def connection_lost(self, exc: Exception | None) -> None:
        if self.close_code is None:
            self.close_code = self.ws.close_code or 1006
        if not self.welcomed.done():
            reason = self.ws.close_reason or (str(exc) if exc else "closed")
            self.welcomed.set_exception(
                ConnectionError(f"closed before welcome: {self.close_code} {reason}")
            )
        if not self.lost.done():
            self.lost.set_result(None)

    # -- frames --------------------------------------------------------------------

    def _frame(self, frame: Frame, now: int) -> None:
        if frame.opcode is Opcode.TEXT or frame.opcode is Opcode.CONT:
            if not frame.fin:
                self._fragments.append(bytes(frame.data))
                return
            data = frame.data
            if self._fragments:
                data = b"".join([*self._fragments, data])
                self._fragments = []
            self._message(bytes(data), now)
        elif frame.opcode is Opcode.CLOSE:
            self.close_code = self.ws.close_code

    def _message(self, data: bytes, now: int) -> None:
        if data.startswith(EVENT_PREFIX):  # the hot path: no JSON parsing
            seq = int(data[19 : data.index(b",", 19)])
            if seq != self.last_seq + 1:
                self.order_errors += 1
            self.last_seq = seq
            self.seqs.append(seq)
            self.times.append(now)
            self.event_bytes += len(data)
            return
        if data.startswith(VIEW_PREFIX):  # large, and only its seq matters here
            self.view_seqs.append(int(data[18 : data.index(b",", 18)]))
            self.view_times.append(now)
            self.view_bytes += len(data)
            return
        message = json.loads(data)
        kind = message.get("t")
        if kind == "welcome":
            self.last_seq = int(message.get("seq") or 0)
            if not self.welcomed.done():
                self.welcomed.set_result(self.last_seq)
        elif kind == "snapshot":
            self.snapshots += 1
            self.last_seq = int(message["seq"])
        elif kind == "ping":
            self.ws.send_text(PONG.encode())
        elif kind == "event":  # an event frame in another key order
            seq = int(message["seq"])
            if seq != self.last_seq + 1:
                self.order_errors += 1
            self.last_seq = seq
            self.seqs.append(seq)
            self.times.append(now)
            self.event_bytes += len(data)

    def _flush(self) -> None:
        if self.transport is None or self.transport.is_closing():
            return
        for chunk in self.ws.data_to_send():
            if chunk:
                self.transport.write(chunk)
            else:  # SEND_EOF
                self.transport.close()
                return

    def close(self) -> None:
        if self.transport is not None and not self.transport.is_closing():
            self.transport.abort()

    def take(self) -> dict[str, Any]:
        """What was recorded since the last take, and forget it."""
        taken = {
            "seqs": self.seqs, "times": self.times, "order_errors": self.order_errors,
            "resyncs": max(0, self.snapshots - 1), "event_bytes": self.event_bytes,
            "closed": self.close_code if self.lost.done() else None,
            "view_seqs": self.view_seqs, "view_times": self.view_times,
            "view_bytes": self.view_bytes, "http_requests": self.http_requests,
        }
        self.seqs, self.times = array("q"), array("q")
        self.view_seqs, self.view_times = array("q"), array("q")
        self.order_errors = 0
        self.event_bytes = self.view_bytes = self.http_requests = 0
        return taken


async def open_displays(
    url: str, key: str, n: int, batch: int, timeout_s: float, compress: bool = False
) -> tuple[list[Display], Counter[str], float]:
    """Open ``n`` displays, ``batch`` at a time (each batch welcomed before the next)."""
    loop = asyncio.get_running_loop()
    uri = parse_uri(url)
    displays: list[Display] = []
    errors: Counter[str] = Counter()
    start = time.monotonic()

    async def one(i: int) -> Display | None:
        hello = json.dumps({"t": "hello", "d": {"token": key, "last_seq": None,
                                                "client": f"bench-{i}"}})
        display = Display(url, hello, loop, compress)
        try:
            await asyncio.wait_for(
                loop.create_connection(lambda: display, uri.host, uri.port), timeout_s
            )
            await asyncio.wait_for(asyncio.shield(display.welcomed), timeout_s)
        except (OSError, TimeoutError, ConnectionError) as exc:
            errors[f"{type(exc).__name__}: {exc}"[:160]] += 1
            display.close()
            return None
        return display

    for first in range(0, n, batch):
        if time.monotonic() - start > 20 * timeout_s:  # bounded in time as a whole
            errors["gave up: connecting took too long"] += n - first
            break
        made = await asyncio.gather(*(one(i) for i in range(first, min(n, first + batch))))
        displays.extend(d for d in made if d is not None)
    return displays, errors, time.monotonic() - start


async def collect(
    displays: list[Display], until_seq: int, timeout_s: float, out: str
) -> dict[str, Any]:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        behind = [d for d in displays if not d.lost.done() and d.last_seq < until_seq]
        if not behind:
            break
        await asyncio.sleep(0.05)
    taken = [d.take() for d in displays]
    with open(out, "wb") as f:
        pickle.dump(taken, f, protocol=pickle.HIGHEST_PROTOCOL)
    return {
        "collected": True,
        "caught_up": sum(1 for d in displays if d.last_seq >= until_seq),
        "open": sum(1 for d in displays if not d.lost.done()),
        "waited_s": round(timeout_s - max(0.0, deadline - time.monotonic()), 3),
    }


async def _read_line(reader: asyncio.StreamReader, timeout_s: float) -> dict[str, Any] | None:
    try:
        line = await asyncio.wait_for(reader.readline(), timeout_s)
    except TimeoutError:
        return None
    if not line:
        return None
    result: dict[str, Any] = json.loads(line)
    return result


def _say(message: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


async def main_async(args: argparse.Namespace) -> int:
    limit = raise_fd_limit(args.n + 1024)
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    displays, errors, took = await open_displays(
        args.url, args.key, args.n, args.batch, args.connect_timeout_s, args.compress
    )
    _say({"ready": True, "connected": len(displays), "failed": args.n - len(displays),
          "errors": dict(errors.most_common(5)), "connect_s": round(took, 3),
          "fd_limit": limit})
    life_end = time.monotonic() + args.life_s
    try:
        while time.monotonic() < life_end:
            command = await _read_line(reader, max(0.1, life_end - time.monotonic()))
            if command is None or command.get("cmd") == "quit":
                break
            if command.get("cmd") == "collect":
                _say(await collect(displays, int(command["until_seq"]),
                                   float(command["timeout_s"]), str(command["out"])))
    finally:
        for display in displays:
            display.close()
        await asyncio.sleep(0.1)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--url", required=True)
    parser.add_argument("--key", required=True)
    parser.add_argument("--n", type=int, required=True)
    parser.add_argument("--batch", type=int, default=100)
    parser.add_argument("--connect-timeout-s", type=float, default=10.0)
    parser.add_argument("--life-s", type=float, default=900.0)
    parser.add_argument("--loop", choices=("uvloop", "asyncio"), default="uvloop")
    parser.add_argument("--compress", action="store_true",
                        help="offer permessage-deflate, as browsers do")
    args = parser.parse_args(argv)
    if args.loop == "uvloop":
        import uvloop

        return uvloop.run(main_async(args))
    return asyncio.run(main_async(args))


if __name__ == "__main__":
    sys.exit(main())
