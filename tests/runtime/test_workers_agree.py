"""Several workers never disagree: a command sent with one key to two workers at once
is logged once and answered once, and every worker's state, clocks and flag timers
are the fold of the log, never a worker's own decision; a worker that is behind the
log never refuses a command the log's own state accepts.

Real workers (tests/support/workers.py) on one PostgreSQL log and one Redis. Each worker has
its own clock, a millisecond apart (as two machines' clocks are), so that two
workers deciding the same command decide it differently: the log alone says which.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import httpx
import psycopg

from orchestrator.core.timesource import ManualTime
from tests.support.events import uzchess_json
from tests.support.pg import pg_database, postgres_server
from tests.support.redis import RedisServer, redis_server
from tests.support.server import RunningServer
from tests.support.workers import fold, served_worker, stored_log
from tests.support.ws import make_playoff

__all__ = ["pg_database", "postgres_server", "redis_server"]  # the fixtures


@dataclass
class Skewed:
    """Another machine's clock: the shared manual clock, ``offset_ms`` ahead."""

    base: ManualTime
    offset_ms: int

    def now(self) -> datetime:
        return self.base.now() + timedelta(milliseconds=self.offset_ms)

    def monotonic_ms(self) -> int:
        return self.base.monotonic_ms() + self.offset_ms

    def server_ms(self) -> int:
        return self.base.server_ms() + self.offset_ms


@asynccontextmanager
async def two_workers(
    store_url: str, redis: RedisServer
) -> AsyncIterator[tuple[RunningServer, RunningServer, ManualTime]]:
    """Two workers of one log, their clocks a millisecond apart; and the first's clock."""
    clock = ManualTime()
    name = f"test:{secrets.token_hex(4)}"
    async with served_worker(store_url, redis.url, name, clock) as a, served_worker(
        store_url, redis.url, name, Skewed(clock, 1)
    ) as b:
        yield a, b, clock


def post(server: RunningServer, token: str, playoff_id: str, key: str, body: Any) -> Any:
    with httpx.Client(base_url=server.base_url, trust_env=False, timeout=20) as http:
        response = http.post(
            f"/api/playoffs/{playoff_id}/commands", json=body,
            headers={"Authorization": f"Bearer {token}", "Idempotency-Key": key},
        )
    return response.status_code, response.json()


async def until(check: Callable[[], bool], timeout: float = 15.0) -> None:
    async with asyncio.timeout(timeout):
        while not check():
            await asyncio.sleep(0.02)


def at(server: RunningServer, playoff_id: str, seq: int) -> Callable[[], bool]:
    def check() -> bool:
        try:
            return server.service.playoff(playoff_id).seq >= seq
        except Exception:
            return False
    return check


def flag_times(server: RunningServer, playoff_id: str) -> dict[Any, int]:
    return {
        key: timer.flag_at_ms
        for (pid, key), timer in server.app.state.flags._timers.items()
        if pid == playoff_id
    }


async def test_each_command_sent_to_two_workers_at_once_is_the_logs_alone(
    pg_database: str, redis_server: RedisServer
) -> None:
    async with two_workers(pg_database, redis_server) as (a, b, clock):
        setup = await asyncio.to_thread(make_playoff, a, 1)
        playoff_id, chief = setup.playoff_id, setup.chief
        await until(at(b, playoff_id, setup.seq()))

        async def both(body: dict[str, Any]) -> None:
            """One key, to both workers at once: one answer, whichever answers."""
            key = secrets.token_hex(16)
            answers = await asyncio.gather(
                asyncio.to_thread(post, a, chief, playoff_id, key, body),
                asyncio.to_thread(post, b, chief, playoff_id, key, body),
            )
            (status_a, answer_a), (status_b, answer_b) = answers
            assert status_a == status_b == 201, answers
            assert answer_a == answer_b, "two answers for one key"
            log = {e.seq: e for e in stored_log(pg_database, playoff_id)}
            for event in answer_a["events"]:
                logged = log[event["seq"]]
                assert (event["type"], event["data"]) == (logged.type, logged.data)

        commands: list[dict[str, Any]] = [
            {"type": "start-clock", "match": 1, "game": 1},
            *(
                {"type": "press", "match": 1, "game": 1, "side": side, "move": move}
                for move in range(1, 5) for side in ("white", "black")
            ),
        ]
        for body in commands:
            await both(body)
            clock.advance(7_003)

        log = stored_log(pg_database, playoff_id)
        truth = fold(log)
        ids = [e.command_id for e in log if e.command_id is not None]
        assert len(ids) == len(set(ids))
        assert sum(1 for e in log if e.type == "clock-pressed") == 8
        for server in (a, b):
            await until(at(server, playoff_id, truth.seq))
            mine = server.service.playoff(playoff_id)
            assert mine.seq == truth.seq
            assert mine.clocks == truth.clocks, "a worker's clock is not the log's"

        # Both workers arm the flag timers from what they hold: the log's instants.
        async def lead(server: RunningServer) -> None:
            server.app.state.flags.activate()

        for server in (a, b):
            await asyncio.to_thread(server.call, lambda server=server: lead(server))
        flag_at = truth.clocks[(1, 1)].flag_at_ms()
        assert flag_at is not None
        assert flag_times(a, playoff_id) == flag_times(b, playoff_id) == {(1, 1): flag_at}

        # White's flag falls, fired by both at once: logged once, at the log's instant.
        clock.advance(flag_at - clock.server_ms() + 10)
        await asyncio.gather(*(
            asyncio.to_thread(server.call, server.app.state.flags.fire_due) for server in (a, b)
        ))
        log = stored_log(pg_database, playoff_id)
        flags = [e for e in log if e.type == "flag-fell"]
        assert len(flags) == 1
        assert flags[0].data["at_ms"] == flag_at
        truth = fold(log)  # and the log folds: no flag before the log's clock allows
        for server in (a, b):
            await until(at(server, playoff_id, truth.seq))
            assert server.service.playoff(playoff_id).clocks == truth.clocks
            assert server.service.quarantined == {}


async def test_a_worker_behind_the_log_decides_again_before_it_refuses(
    pg_database: str, redis_server: RedisServer
) -> None:
    """Worker B hears nothing from Redis (another channel): each command it gets was
    decided on a state the log has left behind. It refuses none that the log's own
    state accepts, and refuses what the log's state refuses."""
    clock = ManualTime()
    async with served_worker(
        pg_database, redis_server.url, f"test:{secrets.token_hex(4)}", clock, reconcile_s=600
    ) as a:
        setup = await asyncio.to_thread(make_playoff, a, 1)
        playoff_id, chief = setup.playoff_id, setup.chief
        # b reads the log at its start, then hears no more of a's commits.
        async with served_worker(
            pg_database, redis_server.url, f"test:{secrets.token_hex(4)}", clock,
            reconcile_s=600,
        ) as b:
            await behind_worker(a, b, chief, playoff_id, clock, pg_database)


async def behind_worker(
    a: RunningServer, b: RunningServer, chief: str, playoff_id: str, clock: ManualTime,
    pg_database: str,
) -> None:
    assert b.service.playoff(playoff_id).seq == a.service.playoff(playoff_id).seq

    def send(server: RunningServer, body: dict[str, Any]) -> tuple[int, Any]:
        return post(server, chief, playoff_id, secrets.token_hex(16), body)

    started = await asyncio.to_thread(send, a, {"type": "start-clock", "match": 1, "game": 1})
    assert started[0] == 201
    behind = b.service.playoff(playoff_id).seq
    assert behind < started[1]["seq"]  # b has not heard of the start
    # Valid on the log's state (White's clock runs), invalid on b's.
    for server, side, move in [(b, "white", 1), (a, "black", 1), (b, "white", 2)]:
        clock.advance(3_000)
        status, answer = await asyncio.to_thread(
            send, server, {"type": "press", "match": 1, "game": 1, "side": side, "move": move}
        )
        assert status == 201, answer
    # Refused on the log's own state, with the log's reason: it is Black's turn.
    status, answer = await asyncio.to_thread(
        send, a, {"type": "press", "match": 1, "game": 1, "side": "white", "move": 3}
    )
    assert status == 409
    clock.advance(1_000)
    status_b, answer_b = await asyncio.to_thread(
        send, b, {"type": "press", "match": 1, "game": 1, "side": "white", "move": 3}
    )
    assert (status_b, answer_b) == (status, answer)
    truth = fold(stored_log(pg_database, playoff_id))
    for server in (a, b):
        assert server.service.playoff(playoff_id).clocks == truth.clocks


async def test_an_upload_and_a_token_sent_to_two_workers_at_once_are_made_once(
    pg_database: str, redis_server: RedisServer
) -> None:
    async with two_workers(pg_database, redis_server) as (a, b, _):
        key = secrets.token_urlsafe(16)

        def upload(server: RunningServer) -> tuple[int, Any]:
            with httpx.Client(base_url=server.base_url, trust_env=False, timeout=20) as http:
                answer = http.post("/api/events", content=uzchess_json(), headers={
                    "Content-Type": "application/json", "Idempotency-Key": key,
                })
            return answer.status_code, answer.json()

        (status_a, made_a), (status_b, made_b) = await asyncio.gather(
            asyncio.to_thread(upload, a), asyncio.to_thread(upload, b)
        )
        assert status_a == status_b == 201, (made_a, made_b)
        assert made_a == made_b  # one event, one chief arbiter's token
        with psycopg.connect(pg_database) as conn:
            streams = conn.execute(
                "SELECT count(DISTINCT stream) FROM events WHERE stream LIKE 'event-%'"
            ).fetchone()
        assert streams == (1,)
        chief, event_id = made_a["chief_token"], made_a["id"]
        token_key = secrets.token_hex(16)

        def issue(server: RunningServer) -> tuple[int, Any]:
            with httpx.Client(base_url=server.base_url, trust_env=False, timeout=20) as http:
                answer = http.post(
                    f"/api/events/{event_id}/tokens", json={"role": "display", "label": "hall"},
                    headers={"Authorization": f"Bearer {chief}", "Idempotency-Key": token_key},
                )
            return answer.status_code, answer.json()

        (status_a, key_a), (status_b, key_b) = await asyncio.gather(
            asyncio.to_thread(issue, a), asyncio.to_thread(issue, b)
        )
        assert status_a == status_b == 201, (key_a, key_b)
        assert key_a == key_b
        # The key opens the event on both workers at once.
        for server in (a, b):
            with httpx.Client(base_url=server.base_url, trust_env=False, timeout=20) as http:
                assert http.get(f"/api/events/{event_id}", headers={
                    "Authorization": f"Bearer {key_a['token']}",
                }).status_code == 200
