"""A throwaway PostgreSQL server for the tests: ``initdb`` in a temporary folder, a
free port on the loopback, stopped and removed when the session ends.

The server is Debian's ``postgresql`` (``make test`` installs it where it is
missing). PostgreSQL refuses to run as root: as root, the server runs as the
``postgres`` system user that Debian's package creates. Where PostgreSQL is absent
the tests that need it are skipped with the reason, except in CI, where its absence
is a broken set-up and fails them.
"""

from __future__ import annotations

import itertools
import os
import pwd
import re
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.support.parts import missing

DEBIAN_ROOT = Path("/usr/lib/postgresql")
SYSTEM_USER = "postgres"
SUPERUSER = "postgres"
START_ATTEMPTS = 3
_names = itertools.count(1)


def postgres_bindir_or_skip() -> Path:
    """The folder with ``initdb``, ``pg_ctl`` and ``postgres`` (the newest Debian one)."""
    found = _bindir()
    if found is not None:
        return found
    missing("PostgreSQL", "postgresql", "the PostgreSQL tests")


def _bindir() -> Path | None:
    def version(path: Path) -> tuple[int, ...]:
        return tuple(int(n) for n in re.findall(r"\d+", path.parent.name)) or (0,)

    tools = ("initdb", "pg_ctl", "postgres")
    debian = sorted(DEBIAN_ROOT.glob("*/bin"), key=version, reverse=True)
    for folder in debian:
        if all((folder / tool).is_file() for tool in tools):
            return folder
    on_path = [shutil.which(tool) for tool in tools]
    if all(on_path):
        return Path(str(on_path[0])).parent
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@dataclass
class PostgresServer:
    """A running throwaway server, reached over TCP on 127.0.0.1 (trust auth)."""

    bindir: Path
    folder: Path
    port: int
    user: pwd.struct_passwd | None
    """The system user the server runs as, when the tests run as root."""

    @property
    def data(self) -> Path:
        return self.folder / "data"

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://{SUPERUSER}@127.0.0.1:{self.port}/{database}"

    def run(self, *args: str | Path, check: bool = True) -> subprocess.CompletedProcess[str]:
        """One of the server's programs, as the user the server runs as."""
        command = [str(self.bindir / str(args[0])), *map(str, args[1:])]
        return _run(command, self.user, self.folder, check=check)

    def create_database(self, name: str | None = None) -> str:
        """A new empty database; its URL."""
        import psycopg
        from psycopg import sql

        name = name or f"test_{os.getpid()}_{next(_names)}"
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
        return self.url(name)

    def drop_database(self, url: str) -> None:
        import psycopg
        from psycopg import sql

        name = url.rsplit("/", 1)[1]
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(
                sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
            )


def _run(
    command: Sequence[str], user: pwd.struct_passwd | None, cwd: Path, *, check: bool = True
) -> subprocess.CompletedProcess[str]:
    as_user: dict[str, Any] = {}
    env = {**os.environ, "LC_ALL": "C"}
    if user is not None:
        as_user = {"user": user.pw_uid, "group": user.pw_gid, "extra_groups": []}
        env |= {"HOME": str(cwd), "USER": user.pw_name, "LOGNAME": user.pw_name}
    done = subprocess.run(
        command, cwd=cwd, env=env, capture_output=True, text=True, check=False, **as_user
    )
    if check and done.returncode != 0:
        raise RuntimeError(
            f"{' '.join(command)} exited with {done.returncode}:\n{done.stdout}{done.stderr}"
        )
    return done


def start_postgres() -> PostgresServer:
    """``initdb`` a new cluster in a temporary folder and start it on a free port."""
    bindir = postgres_bindir_or_skip()
    user = None
    if os.geteuid() == 0:
        try:
            user = pwd.getpwnam(SYSTEM_USER)
        except KeyError:
            pytest.fail(
                f"the '{SYSTEM_USER}' system user is missing: PostgreSQL refuses to run as "
                "root ('apt-get install postgresql' creates the user)"
            )
    # Not under pytest's own temporary folder: that one is private to the user running
    # the tests, and the server's user must reach its data folder.
    folder = Path(tempfile.mkdtemp(prefix="playoff-pg-"))
    if user is not None:
        os.chown(folder, user.pw_uid, user.pw_gid)
    server = PostgresServer(bindir, folder, 0, user)
    try:
        server.run(
            "initdb", "-D", server.data, "-U", SUPERUSER, "--auth=trust", "--encoding=UTF8",
            "--no-locale", "--no-sync",
        )
        failed = ""
        for _ in range(START_ATTEMPTS):  # a free port can be taken before the server binds it
            server.port = _free_port()
            options = (
                f"-p {server.port} -k {folder} -c listen_addresses=127.0.0.1 "
                "-c max_connections=200"
            )
            started = server.run(
                "pg_ctl", "start", "-w", "-t", "60", "-D", server.data,
                "-l", folder / "server.log", "-o", options, check=False,
            )
            if started.returncode == 0:
                return server
            failed = started.stdout + started.stderr
        log = (folder / "server.log").read_text(errors="replace")[-2000:]
        raise RuntimeError(f"PostgreSQL did not start:\n{failed}\n{log}")
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise


def stop_postgres(server: PostgresServer) -> None:
    try:
        server.run("pg_ctl", "stop", "-w", "-m", "fast", "-D", server.data, check=False)
    finally:
        shutil.rmtree(server.folder, ignore_errors=True)


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    server = start_postgres()
    try:
        yield server
    finally:
        stop_postgres(server)


@pytest.fixture(scope="session")
def postgres_url(postgres_server: PostgresServer) -> str:
    """The URL of the throwaway server's ``postgres`` database."""
    return postgres_server.url()


@pytest.fixture
def pg_database(postgres_server: PostgresServer) -> Iterator[str]:
    """The URL of a new, empty database of the throwaway server, dropped afterwards."""
    url = postgres_server.create_database()
    try:
        yield url
    finally:
        postgres_server.drop_database(url)
