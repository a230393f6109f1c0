"""The PostgreSQL log restarts while an arbiter sends commands over the websocket:
each command is refused with an ``unavailable`` frame that says when to try again,
the connection is kept, and the same command resent with its id once the log is
back is logged once (docs/deploy.md, "When a part fails")."""

from __future__ import annotations

import asyncio
import json
import secrets
from typing import Any

import httpx

from tests.support.pg import start_postgres, stop_postgres
from tests.support.redis import RedisServer, redis_server
from tests.support.workers import served_worker
from tests.support.ws import cmd, make_playoff, raw_frames, raw_hello

__all__ = ["redis_server"]  # the fixture


async def test_a_postgresql_restart_is_a_refusal_frame_and_the_connection_is_kept(
    redis_server: RedisServer,
) -> None:
    pg = await asyncio.to_thread(start_postgres)
    try:
        url = await asyncio.to_thread(pg.create_database)
        async with served_worker(url, redis_server.url, f"test:{secrets.token_hex(4)}") as a:
            setup = await asyncio.to_thread(make_playoff, a, 1)
            ws_url = a.base_url.replace("http", "ws") + f"/ws/playoffs/{setup.playoff_id}"
            ws, _ = await raw_hello(ws_url, setup.arbiter)
            options = (
                f"-p {pg.port} -k {pg.folder} -c listen_addresses=127.0.0.1 "
                "-c max_connections=200"
            )
            await asyncio.to_thread(
                pg.run, "pg_ctl", "stop", "-w", "-m", "fast", "-D", pg.data
            )

            def answer(frame: dict[str, Any]) -> bool:
                return frame.get("id") == "start-1" and frame["t"] in ("ack", "error")

            refusals: list[dict[str, Any]] = []
            for _ in range(2):  # a dead connection, then none to be had
                await ws.send(cmd("start-1", type="start-clock", match=1, game=1))
                frames = await raw_frames(ws, answer, timeout=30)
                refused = frames[-1]
                assert refused["t"] == "error", refused
                assert refused["d"]["code"] == "unavailable"
                assert refused["d"]["retry_after_s"] >= 1
                assert "send the command again" in refused["d"]["reason"].lower()
                refusals.append(refused)
            # REST says the same, with Retry-After.
            with httpx.Client(base_url=a.base_url, trust_env=False, timeout=30) as http:
                response = http.post(
                    f"/api/playoffs/{setup.playoff_id}/commands",
                    json={"type": "start-clock", "match": 1, "game": 1},
                    headers={"Authorization": f"Bearer {setup.arbiter}"},
                )
            assert response.status_code == 503
            assert response.headers["Retry-After"] == "2"
            await asyncio.to_thread(
                pg.run, "pg_ctl", "start", "-w", "-D", pg.data, "-l", pg.folder / "server.log",
                "-o", options,
            )
            # The same connection, the same id: logged once, once the log answers.
            async with asyncio.timeout(60):
                while True:
                    await ws.send(cmd("start-1", type="start-clock", match=1, game=1))
                    frames = await raw_frames(ws, answer, timeout=30)
                    if frames[-1]["t"] == "ack":
                        break
                    assert frames[-1]["d"]["code"] == "unavailable", frames[-1]
                    await asyncio.sleep(0.5)
            ack = frames[-1]
            await ws.send(cmd("start-1", type="start-clock", match=1, game=1))
            again = (await raw_frames(ws, answer))[-1]
            assert again["d"] == ack["d"]
            await ws.send(json.dumps({"t": "ping"}))
            await raw_frames(ws, lambda f: f["t"] == "pong")
            await ws.close()
    finally:
        await asyncio.to_thread(stop_postgres, pg)
