"""The real app on a real port, with a real SQLite file, for end-to-end tests."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, TypeVar

import httpx
import uvicorn
from fastapi import FastAPI

from orchestrator.app import create_app
from orchestrator.core.service import Service
from orchestrator.core.timesource import TimeSource
from orchestrator.runtime.scheduler import PlayoffScheduler
from orchestrator.settings import Settings, proxy_options
from tests.support import ROOT

T = TypeVar("T")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@dataclass
class RunningServer:
    base_url: str
    app: FastAPI
    db: Path
    port: int

    def client(self, token: str | None = None) -> httpx.Client:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return httpx.Client(base_url=self.base_url, headers=headers, trust_env=False, timeout=10)

    @property
    def service(self) -> Service:
        service: Service = self.app.state.service
        return service

    @property
    def scheduler(self) -> PlayoffScheduler:
        scheduler: PlayoffScheduler = self.app.state.scheduler
        return scheduler

    def call(self, work: Callable[[], Awaitable[T]]) -> T:
        """Run a coroutine on the server's own event loop and wait for it."""
        loop: asyncio.AbstractEventLoop = self.app.state.loop
        return asyncio.run_coroutine_threadsafe(_wrap(work), loop).result(timeout=10)


async def _wrap(work: Callable[[], Awaitable[T]]) -> T:
    return await work()


class _Server(uvicorn.Server):
    """uvicorn's server, which stops as soon as it is asked to: its own loop looks
    only every 0.1 s, and the suite starts and stops a few hundred servers."""

    def __init__(self, config: uvicorn.Config) -> None:
        super().__init__(config)
        self._asked = asyncio.Event()
        self._loop: asyncio.AbstractEventLoop | None = None

    async def main_loop(self) -> None:
        self._loop = asyncio.get_running_loop()
        counter = 0
        should_exit = await self.on_tick(counter)
        while not should_exit:
            counter = (counter + 1) % 864000
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._asked.wait(), 0.1)
            should_exit = await self.on_tick(counter)

    def stop(self) -> None:
        self.should_exit = True
        loop = self._loop
        if loop is not None:
            with contextlib.suppress(RuntimeError):  # its loop closed already
                loop.call_soon_threadsafe(self._asked.set)
                # Views held for a change (the event console's) are answered now:
                # uvicorn waits for every request before it stops.
                service = getattr(self.config.app.state, "service", None)
                if service is not None:
                    loop.call_soon_threadsafe(service.release_held)


@contextmanager
def running_server(
    db: Path, time_source: TimeSource | None = None, port: int | None = None, *,
    settings: dict[str, Any] | None = None, **kwargs: Any,
) -> Iterator[RunningServer]:
    """The app on a real port, served by uvicorn with the options ``playoff serve``
    gives it (forwarded headers believed only from the proxies ``settings`` names)."""
    port = port or free_port()
    made = Settings(db_path=db, port=port, **(settings or {}))
    app = create_app(made, time_source, **kwargs)
    config = uvicorn.Config(
        app, host="127.0.0.1", port=port, log_level="warning", ws_max_size=65536,
        **proxy_options(made),
    )
    server = _Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the server did not start")
        time.sleep(0.01)
    try:
        yield RunningServer(f"http://127.0.0.1:{port}", app, db, port)
    finally:
        server.stop()
        thread.join(timeout=10)




@contextmanager
def service_process(
    db: Path, log: IO[bytes], port: int | None = None, env: dict[str, str] | None = None,
) -> Iterator[tuple[subprocess.Popen[bytes], str]]:
    """``playoff serve`` (the real command) as a child process, answering: the process
    and its base URL; killed on the way out if it is still there. ``env``: variables
    to set for it (the machine's ``TZ``...)."""
    port = port or free_port()
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "orchestrator.cli",
            "serve",
            "--db",
            str(db),
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
        ],
        cwd=ROOT,
        stdout=log,
        stderr=subprocess.STDOUT,
        env={**os.environ, "PYTHONUNBUFFERED": "1", **(env or {})},
    )
    base = f"http://127.0.0.1:{port}"
    try:
        # A margin for a loaded machine: starting is not what these tests measure.
        deadline = time.monotonic() + 60
        while True:
            assert process.poll() is None, f"the service exited with {process.returncode}"
            try:
                httpx.get(f"{base}/openapi.json", trust_env=False, timeout=1)
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline, "the service did not answer in 60 s"
                time.sleep(0.05)
        yield process, base
    finally:
        if process.poll() is None:
            process.kill()
        process.wait(timeout=10)


def kill(process: subprocess.Popen[bytes]) -> None:
    os.kill(process.pid, signal.SIGKILL)
    assert process.wait(timeout=10) == -signal.SIGKILL

