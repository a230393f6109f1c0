"""docs/deploy.md followed step by step: the database and its role made with the
documented SQL, the documented environment, and the workers started with the
documented commands under the documented supervisor (``deploy/supervisord.conf``),
which starts each worker again when it is killed, and when it refused to start
because Redis did not answer, once Redis answers.

The only changes to what the page says: the servers are this test's throwaway
PostgreSQL and Redis (their host and port in the URLs), and the folders and ports
are the test's own.
"""

from __future__ import annotations

import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import httpx
import psycopg
import pytest

from tests.support.events import uzchess_json
from tests.support.pg import PostgresServer, postgres_server
from tests.support.redis import RedisServer, own_redis
from tests.support.server import ROOT

__all__ = ["own_redis", "postgres_server"]  # the fixtures

DOC = ROOT / "docs" / "deploy.md"
SUPERVISORCTL = ROOT / ".venv" / "bin" / "supervisorctl"


def documented(step: str) -> str:
    """The fenced block that follows ``<!-- deploy: STEP -->`` in docs/deploy.md."""
    found = re.search(
        rf"<!-- deploy: {re.escape(step)} -->\s*```\w*\n(.*?)```", DOC.read_text(), re.S
    )
    assert found, f"docs/deploy.md has no step {step!r}"
    return found.group(1)


def environment_of(block: str) -> dict[str, str]:
    values: dict[str, str] = {}
    for line in block.splitlines():
        if line.strip() and not line.startswith("#"):
            name, _, value = line.partition("=")
            values[name.strip()] = value.strip()
    return values


def on(url: str, port: int) -> str:
    """``url`` pointed at 127.0.0.1:``port``, its user, password and path kept."""
    parts = urlsplit(url)
    credentials = parts.netloc.rpartition("@")[0]
    netloc = f"{credentials}@127.0.0.1:{port}" if credentials else f"127.0.0.1:{port}"
    return urlunsplit(parts._replace(netloc=netloc))


def free_prefix() -> str:
    """A port prefix whose workers' ports (PREFIX01...PREFIX09) are all free here, below
    the range the system hands out for ephemeral ports (other tests' servers and every
    outgoing connection), so that none of them takes a worker's port meanwhile."""
    for _ in range(200):
        prefix = str(secrets.choice(range(100, 320)))
        ports = [int(f"{prefix}{n:02d}") for n in range(1, 10)]
        if all(_free(port) for port in ports):
            return prefix
    raise RuntimeError("no free ports")


def _free(port: int) -> bool:
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def answers(port: int) -> bool:
    try:
        return httpx.get(
            f"http://127.0.0.1:{port}/openapi.json", timeout=2, trust_env=False
        ).status_code == 200
    except httpx.HTTPError:
        return False


def wait_for(check: Callable[[], bool], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {timeout} s: {what}")
        time.sleep(0.1)


class Supervised:
    """The supervisord the documented commands started, and its workers."""

    def __init__(self, env: dict[str, str], conf: Path) -> None:
        self.env = env
        self.conf = conf
        self.run_dir = Path(env["PLAYOFF_RUN"])

    def ctl(self, *args: str) -> str:
        done = subprocess.run(
            [str(SUPERVISORCTL), "-c", str(self.conf), *args], env=self.env,
            capture_output=True, text=True, timeout=60, check=False,
        )
        return done.stdout + done.stderr

    def port(self, n: int) -> int:
        return int(f"{self.env['PLAYOFF_PORT_PREFIX']}{n:02d}")

    def pid(self, n: int) -> int:
        text = self.ctl("pid", f"playoff:playoff-{n}").strip()
        return int(text) if text.isdigit() else 0

    def log(self, n: int) -> str:
        path = self.run_dir / f"playoff-{n}.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def stop(self) -> None:
        self.ctl("shutdown")
        pidfile = self.run_dir / "supervisord.pid"
        deadline = time.monotonic() + 30
        while pidfile.exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        if pidfile.exists():  # it did not stop: end it and its workers
            pid = int(pidfile.read_text().strip() or 0)
            for n in range(1, int(self.env["PLAYOFF_WORKERS"]) + 1):
                worker = self.pid(n)
                if worker:
                    os.kill(worker, signal.SIGKILL)
            if pid:
                os.kill(pid, signal.SIGKILL)


@pytest.fixture
def database(postgres_server: PostgresServer) -> Iterator[PostgresServer]:
    """Step 1 on the throwaway server, as its superuser; undone afterwards."""
    sql = documented("database")
    with psycopg.connect(postgres_server.url(), autocommit=True) as conn:
        conn.execute("DROP DATABASE IF EXISTS playoff WITH (FORCE)")
        conn.execute("DROP ROLE IF EXISTS playoff")
        for statement in filter(str.strip, sql.split(";")):
            conn.execute(statement)  # type: ignore[call-overload]
    try:
        yield postgres_server
    finally:
        with psycopg.connect(postgres_server.url(), autocommit=True) as conn:
            conn.execute("DROP DATABASE IF EXISTS playoff WITH (FORCE)")
            conn.execute("DROP ROLE IF EXISTS playoff")


@pytest.mark.xdist_group("deploy")
def test_the_documented_deployment_runs_and_restarts_its_workers(
    database: PostgresServer, own_redis: RedisServer, tmp_path: Path
) -> None:
    if not SUPERVISORCTL.exists():
        pytest.fail("supervisor is not installed in .venv: `make test` installs it")
    # Step 4: the documented environment file, pointed at this test's servers.
    documented_env = environment_of(documented("environment"))
    password = re.search(r"PASSWORD '([^']+)'", documented("database"))
    assert password, "the database step sets the role's password"
    store = urlsplit(documented_env["PLAYOFF_STORE"])
    # The steps agree with each other: the URL names the role and database made.
    assert (store.username, store.password, store.path) == (
        "playoff", password.group(1), "/playoff"
    )
    env_values = {
        **documented_env,
        "PLAYOFF_HOME": str(ROOT),
        "PLAYOFF_RUN": str(tmp_path / "run"),
        "PLAYOFF_STORE": on(documented_env["PLAYOFF_STORE"], database.port),
        "PLAYOFF_REDIS": on(documented_env["PLAYOFF_REDIS"], own_redis.port),
        "PLAYOFF_HOST": "127.0.0.1",
        "PLAYOFF_PORT_PREFIX": free_prefix(),
    }
    env_file = tmp_path / "playoff.env"
    env_file.write_text("".join(f"{k}={v}\n" for k, v in env_values.items()))
    env_file.chmod(0o600)
    # Step 5, as written but for the file's place.
    script = documented("start").replace("/etc/playoff/playoff.env", str(env_file))
    shell_env = {k: v for k, v in os.environ.items() if not k.startswith("PLAYOFF_")}
    started = subprocess.run(
        ["bash", "-euc", script], env=shell_env, capture_output=True, text=True, timeout=60,
        check=False,
    )
    assert started.returncode == 0, started.stdout + started.stderr
    supervised = Supervised({**shell_env, **env_values}, ROOT / "deploy" / "supervisord.conf")
    workers = range(1, int(env_values["PLAYOFF_WORKERS"]) + 1)
    try:
        for n in workers:
            wait_for(lambda n=n: answers(supervised.port(n)), 90, f"worker {n} answers")
        wait_for(lambda: supervised.ctl("status").count("RUNNING") == len(workers), 90,
                 "supervisord reports every worker running")
        # The password is nowhere on a command line.
        for n in workers:
            cmdline = Path(f"/proc/{supervised.pid(n)}/cmdline").read_bytes()
            assert password.group(1).encode() not in cmdline

        def url(n: int) -> str:
            return f"http://127.0.0.1:{supervised.port(n)}"

        # A play-off made on one worker, a command on another, seen on a third.
        organiser = env_values["PLAYOFF_UPLOAD_TOKEN"]  # as documented: uploads need it
        refused = httpx.post(
            f"{url(1)}/api/events", content=uzchess_json().encode(),
            headers={"Content-Type": "application/json"}, trust_env=False, timeout=30,
        )
        assert refused.status_code == 401
        created = httpx.post(
            f"{url(1)}/api/events", content=uzchess_json().encode(),
            headers={"Content-Type": "application/json", "Authorization": f"Bearer {organiser}"},
            trust_env=False, timeout=30,
        ).json()
        chief = {"Authorization": f"Bearer {created['chief_token']}"}
        playoff = httpx.post(
            f"{url(1)}/api/events/{created['id']}/playoff", json={}, headers=chief,
            trust_env=False, timeout=30,
        ).json()["id"]

        def seq_on(n: int) -> int:
            try:
                response = httpx.get(
                    f"{url(n)}/api/playoffs/{playoff}", headers=chief, trust_env=False,
                    timeout=5,
                )
            except httpx.HTTPError:
                return -1
            return int(response.json()["seq"]) if response.status_code == 200 else -1

        def command(n: int, body: dict[str, object]) -> int:
            response = httpx.post(
                f"{url(n)}/api/playoffs/{playoff}/commands", json=body,
                headers={**chief, "Idempotency-Key": secrets.token_hex(16)},
                trust_env=False, timeout=30,
            )
            assert response.status_code == 201, response.text
            return int(response.json()["seq"])

        seq = command(2, {"type": "lots", "match": 1, "method": "service"})
        wait_for(lambda: seq_on(3) >= seq, 15, "worker 3 folds worker 2's command")

        # A worker killed: supervisord starts it again, and it has the log's state.
        killed = supervised.pid(2)
        os.kill(killed, signal.SIGKILL)
        wait_for(lambda: supervised.pid(2) not in (0, killed), 30, "worker 2 started again")
        wait_for(lambda: answers(supervised.port(2)), 90, "worker 2 answers again")
        seq = command(2, {"type": "start-clock", "match": 1, "game": 1})
        wait_for(lambda: seq_on(1) >= seq and seq_on(3) >= seq, 15, "the others fold it")

        # A worker that cannot start while Redis is down exits, saying so, and is
        # started again until Redis answers.
        own_redis.stop()
        killed = supervised.pid(3)
        os.kill(killed, signal.SIGKILL)
        wait_for(lambda: "Redis does not answer" in supervised.log(3), 60,
                 "worker 3 says why it cannot start")
        assert not answers(supervised.port(3))
        own_redis.start()
        wait_for(lambda: answers(supervised.port(3)), 120, "worker 3 answers once Redis is back")
        assert seq_on(3) >= seq
    finally:
        supervised.stop()
        shutil.rmtree(tmp_path / "run", ignore_errors=True)
    assert not any(answers(supervised.port(n)) for n in workers)
