"""A throwaway Redis server for the tests: ``redis-server`` on a free port of the
loopback, its folder a temporary one, nothing saved, stopped when the tests end.

The server is Debian's ``redis-server`` (``make test`` installs it where it is
missing). Where it is absent the tests that need it are skipped with the reason,
except in CI, where its absence is a broken set-up and fails them.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.support.parts import missing

START_ATTEMPTS = 3


def redis_server_or_skip() -> Path:
    found = shutil.which("redis-server") or (
        "/usr/bin/redis-server" if Path("/usr/bin/redis-server").is_file() else None
    )
    if found is not None:
        return Path(found)
    missing("redis-server", "redis-server", "the tests of several workers")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@dataclass
class RedisServer:
    """A running throwaway server on 127.0.0.1, which a test may stop and start again
    (on the same port, as a restarted Redis would be)."""

    binary: Path
    folder: Path
    port: int = 0
    process: subprocess.Popen[bytes] | None = field(default=None, repr=False)

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        failed = ""
        for _ in range(START_ATTEMPTS):  # a free port can be taken before the server binds
            port = self.port or _free_port()
            log = open(self.folder / "redis.log", "ab")  # noqa: SIM115 (the server's, to the end)
            self.process = subprocess.Popen(
                [
                    str(self.binary), "--port", str(port), "--bind", "127.0.0.1",
                    "--dir", str(self.folder), "--save", "", "--appendonly", "no",
                    "--protected-mode", "no", "--daemonize", "no",
                ],
                stdout=log, stderr=subprocess.STDOUT, cwd=self.folder,
            )
            log.close()
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline and self.process.poll() is None:
                if _answers(port):
                    self.port = port
                    return
                time.sleep(0.02)
            self.stop()
            failed = (self.folder / "redis.log").read_text(errors="replace")[-2000:]
        raise RuntimeError(f"Redis did not start:\n{failed}")

    def stop(self) -> None:
        process, self.process = self.process, None
        if process is not None and process.poll() is None:
            process.kill()
            process.wait(timeout=10)


def _answers(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5) as s:
            s.sendall(b"PING\r\n")
            return s.recv(16).startswith(b"+PONG")
    except OSError:
        return False


def start_redis() -> RedisServer:
    server = RedisServer(redis_server_or_skip(), Path(tempfile.mkdtemp(prefix="playoff-redis-")))
    try:
        server.start()
    except BaseException:
        shutil.rmtree(server.folder, ignore_errors=True)
        raise
    return server


def stop_redis(server: RedisServer) -> None:
    try:
        server.stop()
    finally:
        shutil.rmtree(server.folder, ignore_errors=True)


@pytest.fixture(scope="session")
def redis_server() -> Iterator[RedisServer]:
    server = start_redis()
    try:
        yield server
    finally:
        stop_redis(server)


@pytest.fixture
def own_redis() -> Iterator[RedisServer]:
    """A server of the test's own, which it may stop and start again."""
    server = start_redis()
    try:
        yield server
    finally:
        stop_redis(server)
