"""A flood, from a process of its own (so that its clients' work is not the measured
server's, nor the measuring test's): clients asking for the play-off watch again and
again with a new draw rate each time, and websockets opened on one display key from
several addresses, saying hello and never reading.

    python -m tests.support.flood_clients BASE_URL PLAYOFF_ID DISPLAY_KEY EVENT_ID SECONDS TOKEN...

Prints one JSON line: the foresight answers' statuses and the websockets' outcomes.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidStatus, WebSocketException

SOCKETS = 1_500
WAVE = 30
WAVE_S = 0.1
ADDRESSES = [f"127.0.0.{n}" for n in range(2, 12)]


async def ask_foresight(
    base: str, event_id: str, token: str, n: int, until: float, answers: list[int]
) -> None:
    async with httpx.AsyncClient(base_url=base, trust_env=False, timeout=120) as http:
        k = 0
        while time.monotonic() < until:
            k += 1
            rate = 0.2 + (n * 97 + k) % 50 / 100 + 0.000001 * k
            try:
                answer = await http.get(
                    f"/api/events/{event_id}/foresight", params={"draw_rate": rate},
                    headers={"Authorization": f"Bearer {token}"},
                )
            except httpx.HTTPError:  # waited in the line of an event's computations
                answers.append(0)
                continue
            answers.append(answer.status_code)
            if answer.status_code != 200:
                await asyncio.sleep(0.2)


async def open_sockets(
    base: str, playoff_id: str, key: str, outcomes: dict[str, int], held: list[ClientConnection]
) -> None:
    url = base.replace("http", "ws") + f"/ws/playoffs/{playoff_id}"

    def count(kind: str) -> None:
        outcomes[kind] = outcomes.get(kind, 0) + 1

    async def one(address: str) -> None:
        try:
            ws = await connect(url, local_addr=(address, 0), max_size=None, proxy=None,
                               open_timeout=30, max_queue=1)
        except InvalidStatus:
            count("refused in the handshake")
            return
        except (OSError, WebSocketException, TimeoutError):
            count("not opened")
            return
        held.append(ws)
        await ws.send(json.dumps({"t": "hello", "d": {"token": key}}))
        try:
            first = json.loads(await asyncio.wait_for(ws.recv(), 30))
        except (ConnectionClosed, TimeoutError):
            count("closed")
            return
        count(first["t"] if first["t"] == "welcome" else first["d"]["code"])

    waves: list[asyncio.Task[None]] = []
    for start in range(0, SOCKETS, WAVE):  # a steady stream: WAVE every WAVE_S
        waves.append(asyncio.create_task(_wave(one, start)))
        await asyncio.sleep(WAVE_S)
    await asyncio.gather(*waves)


async def _wave(one: Any, start: int) -> None:
    await asyncio.gather(*(one(ADDRESSES[n % len(ADDRESSES)]) for n in range(start, start + WAVE)))


async def main(argv: list[str]) -> dict[str, Any]:
    base, playoff_id, key, event_id, seconds, *tokens = argv
    until = time.monotonic() + float(seconds)
    answers: list[int] = []
    outcomes: dict[str, int] = {}
    held: list[ClientConnection] = []
    asking = [
        asyncio.create_task(ask_foresight(base, event_id, token, n, until, answers))
        for n, token in enumerate(tokens)
    ]
    print(json.dumps({"started": True}), flush=True)
    await open_sockets(base, playoff_id, key, outcomes, held)
    await asyncio.gather(*asking)
    for ws in held:
        ws.transport.abort()
    return {"foresight": answers, "sockets": outcomes}


if __name__ == "__main__":
    print(json.dumps(asyncio.run(main(sys.argv[1:]))), flush=True)
