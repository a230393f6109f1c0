"""The baseline for the fan-out benchmark: a bare ``websockets`` broadcast server.

``python -m bench.bare_server --port P [--send broadcast|each] [--loop uvloop|asyncio]``

It accepts connections on any path, expects ``hello`` as the first frame (within 5 s;
no token check), answers ``welcome``, and for each ``cmd`` frame that comes in
broadcasts one ``event`` frame of the same size and shape as the service's
``clock-pressed`` event (the clock twice, an ISO time, an actor) to every connected
client, then acknowledges the command to its sender (``ack`` with the event's seq,
after the event, as the service does). It answers ``ping`` with ``pong``. Nothing
else: no authorisation, no log, no durability, no per-client queues, none of the
service's work. ``--send broadcast`` uses ``websockets.asyncio.server.broadcast``
(one synchronous write per connection); ``--send each`` awaits ``send()`` on each
connection in turn.

It prints ``{"listening": PORT}`` on stdout once it accepts connections, and stops
on SIGTERM/SIGINT or after ``--life-s`` seconds.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import resource
import signal
import sys
import time
from datetime import UTC, datetime
from typing import Any

from websockets.asyncio.server import ServerConnection, broadcast, serve
from websockets.exceptions import ConnectionClosed

HELLO_TIMEOUT_S = 5.0


def event_frame(seq: int, command: dict[str, Any], actor: str) -> str:
    """A ``clock-pressed`` event frame shaped as the service's (orchestrator.runtime.hub)."""
    now_ms = time.time_ns() // 1_000_000
    side = command.get("side", "white")
    move = command.get("move", 1)
    clock = {
        "match": command.get("match", 1), "game": command.get("game", 1),
        "white_ms": 1_500_000 - 997 * move, "black_ms": 1_500_000 - 1003 * move,
        "running": "black" if side == "white" else "white", "status": "running",
        "server_ms": now_ms,
    }
    data = {"match": clock["match"], "game": clock["game"], "side": side, "move": move,
            "at_ms": now_ms, "clock": clock}
    d = {"type": "clock-pressed", "data": data, "at": datetime.now(UTC).isoformat(),
         "actor": actor, "clock": clock}
    return json.dumps({"t": "event", "seq": seq, "d": d}, separators=(",", ":"))


class Bare:
    def __init__(self, send: str) -> None:
        self.send = send
        self.clients: set[ServerConnection] = set()
        self.seq = 0

    async def handler(self, ws: ServerConnection) -> None:
        try:
            raw = await asyncio.wait_for(ws.recv(), HELLO_TIMEOUT_S)
            hello = json.loads(raw)
        except (TimeoutError, ValueError, ConnectionClosed):
            await ws.close(4408, "send hello first")
            return
        if not isinstance(hello, dict) or hello.get("t") != "hello":
            await ws.close(4408, "send hello first")
            return
        self.clients.add(ws)
        try:
            await ws.send(json.dumps({"t": "welcome", "seq": self.seq, "d": {
                "role": "display", "server_ms": time.time_ns() // 1_000_000,
                "heartbeat_ms": 15000, "max_frame_bytes": 65536,
            }}, separators=(",", ":")))
            async for message in ws:
                frame = json.loads(message)
                kind = frame.get("t") if isinstance(frame, dict) else None
                if kind == "cmd":
                    await self.command(ws, frame)
                elif kind == "ping":
                    await ws.send(json.dumps({"t": "pong", "seq": self.seq, "d": {
                        "server_ms": time.time_ns() // 1_000_000}}, separators=(",", ":")))
        except ConnectionClosed:
            pass
        finally:
            self.clients.discard(ws)

    async def command(self, ws: ServerConnection, frame: dict[str, Any]) -> None:
        self.seq += 1
        d = frame.get("d")
        out = event_frame(self.seq, d if isinstance(d, dict) else {}, "arbiter:bare0000")
        if self.send == "broadcast":
            broadcast(self.clients, out)
        else:
            for client in list(self.clients):
                with contextlib.suppress(ConnectionClosed):
                    await client.send(out)
        await ws.send(json.dumps({"t": "ack", "seq": self.seq, "d": {"seqs": [self.seq]},
                                  "id": frame.get("id")}, separators=(",", ":")))


async def main_async(args: argparse.Namespace) -> int:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    bare = Bare(args.send)
    stop = asyncio.get_running_loop().create_future()
    for sig in (signal.SIGTERM, signal.SIGINT):
        asyncio.get_running_loop().add_signal_handler(sig, stop.cancel)
    async with serve(bare.handler, "127.0.0.1", args.port, max_size=65536, compression=None,
                     backlog=args.backlog):
        sys.stdout.write(json.dumps({"listening": args.port}) + "\n")
        sys.stdout.flush()
        with contextlib.suppress(asyncio.CancelledError, TimeoutError):
            await asyncio.wait_for(stop, args.life_s)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--send", choices=("broadcast", "each"), default="broadcast")
    parser.add_argument("--loop", choices=("uvloop", "asyncio"), default="uvloop")
    parser.add_argument("--backlog", type=int, default=2048, help="as uvicorn's default")
    parser.add_argument("--life-s", type=float, default=900.0)
    args = parser.parse_args(argv)
    if args.loop == "uvloop":
        import uvloop

        return uvloop.run(main_async(args))
    return asyncio.run(main_async(args))


if __name__ == "__main__":
    sys.exit(main())
