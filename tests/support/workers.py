"""Several workers sharing one PostgreSQL log and one Redis, for the tests: each a
real app on a real port, in a thread of this process (:func:`worker`), or the real
``playoff serve`` command as a child process (:func:`worker_process`)."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import IO, Any

import psycopg
import uvicorn

from orchestrator.app import create_app
from orchestrator.core.state import PlayoffState
from orchestrator.core.streams import playoff_streams
from orchestrator.core.timesource import TimeSource
from orchestrator.runtime.redis_bus import RedisBus
from orchestrator.settings import Settings, proxy_options
from orchestrator.store import StoredEvent
from orchestrator.store.postgres import LEADER_LOCK
from tests.support import ROOT
from tests.support.server import RunningServer, _Server, free_port


@contextmanager
def worker(
    store_url: str,
    redis_url: str,
    channel: str,
    time_source: TimeSource | None = None,
    *,
    port: int | None = None,
    leader_poll_s: float = 0.2,
    reconcile_s: float = 5.0,
) -> Iterator[RunningServer]:
    """One worker (an app on its own port and loop) of the log at ``store_url``."""
    port = port or free_port()
    settings = Settings(
        store_url=store_url, port=port, leader_poll_s=leader_poll_s, reconcile_s=reconcile_s
    )
    bus = RedisBus(redis_url, channel=channel, reconnect_s=0.1, reconcile_s=reconcile_s)
    app = create_app(settings, time_source, bus=bus)
    server = _Server(uvicorn.Config(
        app, host="127.0.0.1", port=port, log_level="warning",
        **proxy_options(settings),
    ))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60  # a margin for a loaded machine
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the worker did not start")
        time.sleep(0.01)
    try:
        yield RunningServer(f"http://127.0.0.1:{port}", app, Path("-"), port)
    finally:
        server.stop()
        thread.join(timeout=10)


@asynccontextmanager
async def served_worker(*args: Any, **kwargs: Any) -> AsyncIterator[RunningServer]:
    """:func:`worker`, entered and left off the test's loop."""
    context = worker(*args, **kwargs)
    server = await asyncio.to_thread(context.__enter__)
    try:
        yield server
    finally:
        await asyncio.to_thread(context.__exit__, None, None, None)


def leading(server: RunningServer) -> bool:
    lease = server.app.state.leadership
    return bool(lease is not None and lease.leading)


def leader_pid(store_url: str) -> int | None:
    """The process id of the worker holding the lease, as the database sees it."""
    found = leader_lease(store_url)
    return found[0] if found is not None else None


def leader_lease(store_url: str) -> tuple[int, float] | None:
    """The process id of the worker holding the lease, and when its session last began
    a statement (ms since the epoch): until its first check of the session, a second
    after, the instant it asked for the lock and got it."""
    with psycopg.connect(store_url, autocommit=True) as conn:
        row = conn.execute(
            "SELECT a.application_name, extract(epoch FROM a.query_start) * 1000 "
            "FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid "
            "WHERE l.locktype = 'advisory' AND l.classid = %s AND l.granted "
            "AND a.application_name LIKE 'playoff-leader:%%'",
            (LEADER_LOCK,),
        ).fetchone()
    if row is None:
        return None
    return int(str(row[0]).split(":", 1)[1].split("@", 1)[0]), float(row[1])


def worker_process(
    store_url: str, redis_url: str, port: int, log: IO[bytes]
) -> subprocess.Popen[bytes]:
    """``playoff serve`` on the shared log, as a child process (not waited for)."""
    return subprocess.Popen(
        [
            sys.executable, "-m", "orchestrator.cli", "serve", "--store", store_url,
            "--redis", redis_url, "--host", "127.0.0.1", "--port", str(port),
        ],
        cwd=ROOT, stdout=log, stderr=subprocess.STDOUT,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )


def answers(base_url: str) -> bool:
    """The worker listens: uvicorn opens its port once the app has started."""
    host, port = base_url.removeprefix("http://").rsplit(":", 1)
    try:
        with socket.create_connection((host, int(port)), timeout=1):
            return True
    except OSError:
        return False


def stored_log(url: str, playoff_id: str) -> list[StoredEvent]:
    """A play-off's stream as the shared log holds it, read straight from PostgreSQL."""
    with psycopg.connect(url) as conn:
        rows = conn.execute(
            "SELECT stream, seq, type, data::text, actor, recorded_at, command_id, "
            "command_fingerprint FROM events WHERE stream = %s ORDER BY seq",
            (f"playoff-{playoff_id}",),
        ).fetchall()
    return [
        StoredEvent(stream, seq, type_, json.loads(data), actor, at, cid, fp)
        for stream, seq, type_, data, actor, at, cid, fp in rows
    ]


def fold(log: list[StoredEvent]) -> PlayoffState:
    """The play-off as the log says it is: its events folded from the first."""
    return playoff_streams().fold(None, log)
