"""Helpers shared by tests."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx
from typer.testing import CliRunner

from clients.python.cli import app
from orchestrator.core.timesource import ManualTime
from tests.support.cli import Run
from tests.support.server import RunningServer, running_server

PROXIES = ("http_proxy", "https_proxy", "all_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY")


def arbiter(*args: str, token: str, server: str) -> Run:
    """``playoff-arbiter`` run in this process, the token in its environment variable
    and no proxy between it and the server."""
    env: dict[str, str | None] = {
        "PLAYOFF_TOKEN": token, "PLAYOFF_SERVER": None, "COLUMNS": "200",
        **dict.fromkeys(PROXIES),
    }
    result = CliRunner().invoke(app, [*args, "--server", server], env=env)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception  # a traceback, which the real command would print
    return Run([*args], result.exit_code, result.stdout, result.stderr)


@dataclass
class Playoff:
    server: RunningServer
    id: str
    token: str

    def run(self, *args: str, token: str | None = None) -> Run:
        return arbiter(*args, token=self.token if token is None else token,
                       server=self.server.base_url)

    @property
    def chief(self) -> httpx.Client:
        return self.server.client(self.token)

    def seq(self) -> int:
        seq: int = self.chief.get(f"/api/playoffs/{self.id}").json()["seq"]
        return seq

    def logged(self, run: Run, type_: str) -> int:
        """The seq a command's readable line names, checked against the log."""
        assert run.returncode == 0, run.stderr
        # The first line; a drawing of lots says on the next who has White.
        said = re.match(r"logged: seq (\d+) \(([a-z-]+)\)\n", run.stdout)
        assert said is not None, run.stdout
        seq = int(said.group(1))
        assert said.group(2) == type_
        log = self.chief.get(f"/api/playoffs/{self.id}/events?after={seq - 1}&limit=1").json()
        assert log["events"][0]["type"] == type_
        return seq

    def game(self, match: int, number: int) -> dict[str, Any]:
        view = self.chief.get(f"/api/playoffs/{self.id}").json()
        found = next(m for m in view["matches"] if m["id"] == match)
        game: dict[str, Any] = next(g for g in found["games"] if g["number"] == number)
        return game


@contextmanager
def playoff_of(tmp_path: Path, event_json: str) -> Iterator[Playoff]:
    clock = ManualTime()
    with running_server(tmp_path / "log.db", clock) as server:
        hold_apscheduler(server)
        made = server.client().post(
            "/api/events", content=event_json, headers={"Content-Type": "application/json"}
        ).json()
        token = made["chief_token"]
        created = server.client(token).post(f"/api/events/{made['id']}/playoff")
        assert created.status_code == 201, created.text
        # What is due at once (calling the players) is logged before the test begins,
        # so that what the test sends is all that changes the log.
        server.call(server.scheduler.fire_due)
        yield Playoff(server, created.json()["id"], token)


def hold_apscheduler(server: RunningServer) -> None:
    """The clock is manual: what falls due is fired by the test (``fire_due``), never
    by APScheduler racing it."""

    async def pause() -> None:
        server.scheduler.aps.pause()

    server.call(pause)


def two_way_tie() -> str:
    """Two players tied for first, so a play-off of one match."""
    ended = (ManualTime().now() - timedelta(hours=1)).isoformat()
    players = [{"id": p, "name": f"Player {p}"} for p in "ABCD"]
    games = [
        ("A", "B", "1/2-1/2", 1), ("C", "D", "1/2-1/2", 1),
        ("A", "C", "1-0", 2), ("B", "D", "1-0", 2),
        ("D", "A", "0-1", 3), ("C", "B", "0-1", 3),
    ]
    return json.dumps({
        "name": "Club final", "kind": "individual", "regulation": "gct2015",
        "players": players,
        "games": [{"round": r, "white": w, "black": b, "result": res, "ended_at": ended}
                  for w, b, res, r in games],
    })

