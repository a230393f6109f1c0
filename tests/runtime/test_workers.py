"""Several workers on one PostgreSQL log and one Redis: real servers, real ports.

Each worker is a real app in a thread of this process (tests/support/workers.py), with its
own loop, its own states and its own hub; they share nothing but the log and
Redis. What one logs, the others fold and fan out; one of them, the holder of the
lease, runs the timers.
"""

from __future__ import annotations

import asyncio
import json
import secrets
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest

from clients.python.client import PlayoffClient
from orchestrator.core.errors import NotFound
from orchestrator.core.timesource import ManualTime
from orchestrator.settings import DeploymentError, check_deployment
from tests.support.cli import playoff
from tests.support.pg import pg_database, postgres_server
from tests.support.redis import RedisServer, own_redis, redis_server
from tests.support.server import RunningServer
from tests.support.workers import leading, served_worker
from tests.support.ws import Reader, Setup, events_of, make_playoff, ok, raw_frames, raw_hello

__all__ = ["own_redis", "pg_database", "postgres_server", "redis_server"]  # the fixtures


def channel() -> str:
    return f"test:{secrets.token_hex(4)}"


async def until(check: Callable[[], bool], timeout: float = 10.0, what: str = "") -> None:
    async with asyncio.timeout(timeout):
        while not check():
            await asyncio.sleep(0.02)


def knows(server: RunningServer, playoff_id: str, seq: int = 0) -> Callable[[], bool]:
    def check() -> bool:
        try:
            return server.service.playoff(playoff_id).seq >= seq
        except NotFound:
            return False
    return check


def command(server: RunningServer, token: str, playoff_id: str, key: str, **d: Any) -> Any:
    with httpx.Client(base_url=server.base_url, trust_env=False, timeout=10) as http:
        return ok(http.post(
            f"/api/playoffs/{playoff_id}/commands", json=d,
            headers={"Authorization": f"Bearer {token}", "Idempotency-Key": key},
        ))


def log_of(url: str, playoff_id: str) -> list[tuple[int, str, str | None]]:
    with psycopg.connect(url) as conn:
        rows = conn.execute(
            "SELECT seq, type, command_id FROM events WHERE stream = %s ORDER BY seq",
            (f"playoff-{playoff_id}",),
        ).fetchall()
    return [(int(seq), str(type_), command_id) for seq, type_, command_id in rows]


def press(side: str, move: int) -> dict[str, Any]:
    return {"type": "press", "match": 1, "game": 1, "side": side, "move": move}


async def test_a_display_on_one_worker_sees_every_press_made_on_another(
    pg_database: str, redis_server: RedisServer
) -> None:
    name = channel()
    async with served_worker(pg_database, redis_server.url, name) as a, served_worker(
        pg_database, redis_server.url, name
    ) as b:
        setup = await asyncio.to_thread(make_playoff, a, 1)
        before = setup.seq()
        await until(knows(b, setup.playoff_id, before))
        display = PlayoffClient(b.base_url, setup.playoff_id, setup.displays[0], name="hall")
        await display.connect()
        reader = Reader(display)
        async with setup.client(setup.arbiter, "arbiter") as arbiter:
            acks = [await arbiter.command("start-clock", match=1, game=1)]
            for move in range(1, 11):
                for side in ("white", "black"):
                    acks.append(await arbiter.command(
                        "press", match=1, game=1, side=side, move=move
                    ))
        last = acks[-1].seqs[-1]
        got = await reader.until_seq(last)
        assert got[0].t == "snapshot" and got[0].seq == before
        events = events_of(got)
        assert [m.seq for m in events] == list(range(before + 1, last + 1))
        logged = await asyncio.to_thread(setup.log, before)
        for message, entry in zip(events, logged, strict=True):
            assert (message.d["type"], message.d["data"]) == (entry["type"], entry["data"])
            # The clock beside each event, derived again on the display's worker.
            assert message.d["clock"]["server_ms"] == entry["data"]["at_ms"]
        await display.close()


async def test_arbiters_on_two_workers_write_one_playoff_with_no_gap_or_duplicate(
    pg_database: str, redis_server: RedisServer
) -> None:
    name = channel()
    async with served_worker(pg_database, redis_server.url, name) as a, served_worker(
        pg_database, redis_server.url, name
    ) as b:
        setup = await asyncio.to_thread(make_playoff, a, 2)
        await until(knows(b, setup.playoff_id, setup.seq()))
        playoff_id, chief = setup.playoff_id, setup.chief
        await asyncio.to_thread(
            command, a, chief, playoff_id, "start", type="start-clock", match=1, game=1
        )

        def adjust(server: RunningServer, n: int) -> Any:
            # Commands that never refuse each other, sent at once to both workers:
            # each worker in turn writes on a state the other has moved on.
            return command(
                server, chief, playoff_id, f"adjust-{n}", type="adjust", match=1, game=1,
                side="white" if n % 2 else "black", delta_ms=1000 + n, reason=f"adjustment {n}",
            )

        answers = await asyncio.gather(*(
            asyncio.to_thread(adjust, (a, b)[n % 2], n) for n in range(40)
        ))
        # The same keys again, to the other worker: answered as before, logged once.
        again = await asyncio.gather(*(
            asyncio.to_thread(adjust, (b, a)[n % 2], n) for n in range(40)
        ))
        def logged(answer: Any) -> list[tuple[Any, ...]]:
            return [(e["seq"], e["type"], e["data"], e["command_id"]) for e in answer["events"]]

        assert [logged(x) for x in again] == [logged(x) for x in answers]
        log = await asyncio.to_thread(log_of, pg_database, playoff_id)
        assert [seq for seq, _, _ in log] == list(range(1, len(log) + 1))
        ids = [c for _, _, c in log if c is not None]
        assert len(ids) == len(set(ids))
        assert sum(1 for _, t, _ in log if t == "clock-adjusted") == 40
        last = log[-1][0]
        await until(knows(a, playoff_id, last))
        await until(knows(b, playoff_id, last))
        assert a.service.playoff(playoff_id).clocks == b.service.playoff(playoff_id).clocks


async def test_what_was_announced_while_redis_was_down_is_read_from_the_log(
    pg_database: str, own_redis: RedisServer
) -> None:
    name = channel()
    async with served_worker(pg_database, own_redis.url, name) as a, served_worker(
        pg_database, own_redis.url, name
    ) as b:
        setup = await asyncio.to_thread(make_playoff, a, 1)
        before = setup.seq()
        await until(knows(b, setup.playoff_id, before))
        display = PlayoffClient(b.base_url, setup.playoff_id, setup.displays[0], name="hall")
        await display.connect()
        reader = Reader(display)
        await reader.until_seq(before)
        own_redis.stop()
        started = await asyncio.to_thread(
            command, a, setup.chief, setup.playoff_id, "start", type="start-clock",
            match=1, game=1,
        )
        seq = started["seq"]
        await asyncio.sleep(0.3)
        assert b.service.playoff(setup.playoff_id).seq == before  # nothing reached it
        await asyncio.to_thread(own_redis.start)
        got = await reader.until_seq(seq, timeout=10)
        assert [m.seq for m in events_of(got)] == list(range(before + 1, seq + 1))
        # And on it goes through Redis.
        pressed = await asyncio.to_thread(
            command, a, setup.chief, setup.playoff_id, "press-1", **press("white", 1)
        )
        got = await reader.until_seq(pressed["seq"], timeout=10)
        assert [m.seq for m in events_of(got)] == [pressed["seq"]]
        await display.close()


async def test_a_commit_never_announced_is_found_in_the_log(
    pg_database: str, redis_server: RedisServer
) -> None:
    """A worker that dies between its commit and its announcement: the others read
    the log now and then."""
    name = channel()
    async with served_worker(
        pg_database, redis_server.url, name, reconcile_s=0.3
    ) as a, served_worker(pg_database, redis_server.url, name, reconcile_s=0.3) as b:
        setup = await asyncio.to_thread(make_playoff, a, 1)
        await until(knows(b, setup.playoff_id, setup.seq()))
        # Written to the log behind the workers' backs, as a worker that died would.
        started = await asyncio.to_thread(
            command, a, setup.chief, setup.playoff_id, "start", type="start-clock",
            match=1, game=1,
        )
        with psycopg.connect(pg_database, autocommit=True) as conn:
            conn.execute(
                "INSERT INTO events (stream, seq, type, data, actor, recorded_at) "
                "SELECT stream, seq + 1, 'clock-paused', json_build_object("
                "'match', 1, 'game', 1, 'at_ms', (data->>'at_ms')::bigint + 1000), "
                "actor, recorded_at FROM events WHERE stream = %s AND seq = %s",
                (f"playoff-{setup.playoff_id}", started["seq"]),
            )
        await until(knows(b, setup.playoff_id, started["seq"] + 1), timeout=5)
        await until(knows(a, setup.playoff_id, started["seq"] + 1), timeout=5)


async def test_one_worker_runs_the_timers_and_another_takes_over_when_it_stops(
    pg_database: str, redis_server: RedisServer
) -> None:
    clock = ManualTime()
    name = channel()
    first = served_worker(pg_database, redis_server.url, name, clock)
    leader = await first.__aenter__()
    try:
        await until(lambda: leading(leader))
        setup = await asyncio.to_thread(make_playoff, leader, 1)
        async with served_worker(pg_database, redis_server.url, name, clock) as other:
            await until(knows(other, setup.playoff_id, setup.seq()))
            await asyncio.sleep(0.5)
            assert leading(leader) and not leading(other)
            # Started on the other worker: the leader arms the flag from what it folds.
            started = await asyncio.to_thread(
                command, other, setup.chief, setup.playoff_id, "start", type="start-clock",
                match=1, game=1,
            )
            after = started["events"][0]["clock"]
            flag_at = after["server_ms"] + after["white_ms"]
            await until(knows(leader, setup.playoff_id, started["seq"]))
            assert leader.app.state.flags._timers and not other.app.state.flags._timers
            assert leader.scheduler.jobs(setup.playoff_id)
            assert not other.scheduler.jobs(setup.playoff_id)
            # The leader stops, and White's flag falls before another leads.
            await first.__aexit__(None, None, None)
            clock.advance(flag_at - clock.server_ms() + 60_000)
            await until(lambda: leading(other), timeout=5)
            fell: list[dict[str, Any]] = []
            await until(lambda: _has_flag(setup, other, fell), timeout=10)
            (flag,) = fell
            assert flag["data"]["at_ms"] == flag_at  # at its own instant, not when logged
            assert flag["data"]["side"] == "white"
            assert other.scheduler.jobs(setup.playoff_id)
    finally:
        await first.__aexit__(None, None, None)


def _has_flag(setup: Setup, server: RunningServer, into: list[dict[str, Any]]) -> bool:
    with server.client(setup.chief) as http:
        log = ok(http.get(f"/api/playoffs/{setup.playoff_id}/events"))["events"]
    into[:] = [e for e in log if e["type"] == "flag-fell"]
    return bool(into)


async def test_the_leader_waits_for_a_board_held_by_another_worker(
    pg_database: str, redis_server: RedisServer
) -> None:
    """A board clock connected to a worker that does not run the timers: the leader
    hears of it through Redis, so a press stamped before the flag still counts when it
    arrives after, and the flag falls at once when the board says it has sent every
    press through the flag's instant (docs/policies.md, "The flag wait")."""
    clock = ManualTime()
    name = channel()
    async with served_worker(pg_database, redis_server.url, name, clock) as leader:
        await until(lambda: leading(leader))
        setup = await asyncio.to_thread(make_playoff, leader, 1)
        async with served_worker(pg_database, redis_server.url, name, clock) as other:
            await until(knows(other, setup.playoff_id, setup.seq()))
            with other.client(setup.arbiter) as http:
                key = ok(http.post(f"/api/events/{setup.event_id}/tokens", json={
                    "role": "board", "playoff": setup.playoff_id, "match": 1}))["token"]
            board_url = f"ws://127.0.0.1:{other.port}/ws/playoffs/{setup.playoff_id}"
            board, _ = await raw_hello(board_url, key)
            hub = leader.app.state.hub
            await until(lambda: hub.board_online(setup.playoff_id, 1), what="the board heard")
            started = await asyncio.to_thread(
                command, other, setup.chief, setup.playoff_id, "start", type="start-clock",
                match=1, game=1,
            )
            white = started["events"][0]["clock"]["white_ms"]
            adjusted = await asyncio.to_thread(
                command, other, setup.arbiter, setup.playoff_id, "short", type="adjust",
                match=1, game=1, side="white", delta_ms=1_000 - white, reason="a short test",
            )
            after = adjusted["events"][0]["clock"]
            flag_at = after["server_ms"] + after["white_ms"]
            await until(knows(leader, setup.playoff_id, adjusted["seq"]))
            clock.advance(flag_at - clock.server_ms() + 400)
            fired = await asyncio.to_thread(leader.call, leader.app.state.flags.fire_due)
            assert fired == 0  # the board's press may be on its way to the other worker
            await board.send(json.dumps({"t": "cmd", "id": "b-1", "d": {
                "type": "press", "match": 1, "game": 1, "side": "white", "move": 1,
                "stamp_ms": flag_at - 100}}))
            frames = await raw_frames(board, lambda f: f.get("id") == "b-1")
            assert frames[-1]["t"] == "ack", frames[-1]
            (pressed,) = [f["d"] for f in frames
                          if f["t"] == "event" and f["d"]["type"] == "clock-pressed"]
            assert pressed["data"]["charged"] == "stamp"
            # Black's flag: the board says it sent every press through it, on the other
            # worker; the leader logs the flag at once, at its instant.
            ran = clock.server_ms() - pressed["clock"]["server_ms"]
            black = pressed["clock"]["black_ms"] - ran
            adjusted = await asyncio.to_thread(
                command, other, setup.arbiter, setup.playoff_id, "short-b", type="adjust",
                match=1, game=1, side="black", delta_ms=1_000 - black, reason="a short test",
            )
            after = adjusted["events"][0]["clock"]
            black_flag = after["server_ms"] + after["black_ms"]
            await until(knows(leader, setup.playoff_id, adjusted["seq"]))
            clock.advance(black_flag - clock.server_ms() + 5)
            await board.send(json.dumps({"t": "ping", "id": "p1", "through_ms": black_flag + 1}))
            fell: list[dict[str, Any]] = []
            await until(lambda: _has_flag(setup, leader, fell), timeout=10)
            (flag,) = fell
            assert flag["data"]["side"] == "black" and flag["data"]["at_ms"] == black_flag
            await board.close()


async def test_timers_fired_by_two_workers_at_once_are_logged_once(
    pg_database: str, redis_server: RedisServer
) -> None:
    """Two leaders for a moment (one deposed while firing, one elected): each flag and
    each job is logged once, by whichever of them comes first."""
    clock = ManualTime()
    name = channel()
    async with served_worker(pg_database, redis_server.url, name, clock) as a, served_worker(
        pg_database, redis_server.url, name, clock
    ) as b:
        setup = await asyncio.to_thread(make_playoff, a, 1)
        started = await asyncio.to_thread(
            command, a, setup.chief, setup.playoff_id, "start", type="start-clock",
            match=1, game=1,
        )
        await until(knows(b, setup.playoff_id, started["seq"]))

        async def lead(server: RunningServer) -> None:
            server.app.state.flags.activate()
            server.scheduler.activate()

        for server in (a, b):
            await asyncio.to_thread(server.call, lambda server=server: lead(server))
        clock.advance(3 * 3_600_000)  # past the flag and past every job of the day
        flags = await asyncio.gather(*(
            asyncio.to_thread(server.call, server.app.state.flags.fire_due) for server in (a, b)
        ))
        jobs = await asyncio.gather(*(
            asyncio.to_thread(server.call, server.scheduler.fire_due) for server in (a, b)
        ))
        assert flags == [1, 1]  # each fired it
        log = await asyncio.to_thread(log_of, pg_database, setup.playoff_id)
        assert sum(1 for _, t, _ in log if t == "flag-fell") == 1
        fired = [c for _, t, c in log if t == "transition-fired"]
        assert fired and len(fired) == len(set(fired))  # each job once, whoever ran it
        assert {t.job for done in jobs for t in done} <= set(fired)


async def test_a_leader_that_loses_its_session_stops_its_timers_and_one_leads_again(
    pg_database: str, redis_server: RedisServer
) -> None:
    name = channel()
    async with served_worker(pg_database, redis_server.url, name) as a, served_worker(
        pg_database, redis_server.url, name
    ) as b:
        await until(lambda: leading(a) or leading(b))
        first = a if leading(a) else b
        with psycopg.connect(pg_database, autocommit=True) as conn:
            conn.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE application_name LIKE 'playoff-leader:%%'"
            )
        await until(lambda: not first.app.state.flags.active, timeout=5)
        await until(lambda: leading(a) != leading(b), timeout=5)
        await asyncio.sleep(0.5)
        assert leading(a) != leading(b)
        for server in (a, b):
            assert server.app.state.flags.active == leading(server)
            assert server.scheduler.active == leading(server)


def test_serve_refuses_what_cannot_work_in_words() -> None:
    cases = [
        (("postgresql://x/y", None, Path("a.db")), "two logs"),
        (("mysql://x/y", None, None), "PostgreSQL URL"),
        ((None, "redis://localhost", None), "--redis is for several workers"),
        (("postgresql://x/y", "http://r", None), "Redis URL"),
        (("postgresql://nobody@127.0.0.1:1/none", None, None), "PostgreSQL does not answer"),
    ]
    for (store, redis_url, db), words in cases:
        with pytest.raises(DeploymentError, match=words):
            check_deployment(store, redis_url, db)


def test_the_serve_command_says_what_to_fix(tmp_path: Any) -> None:
    for args, words in (
        (["--redis", "redis://127.0.0.1:6379/0", "--db", str(tmp_path / "a.db")],
         "--redis is for several workers, which share one log"),
        (["--store", "sqlite:///a.db"], "--store takes a PostgreSQL URL"),
    ):
        run = playoff("serve", *args, "--port", "8123")
        assert run.returncode == 2
        assert words in " ".join(run.stderr.split())
        assert not (tmp_path / "a.db").exists()


def test_serve_refuses_a_redis_that_does_not_answer(postgres_server: Any) -> None:
    with pytest.raises(DeploymentError, match="Redis does not answer"):
        check_deployment(postgres_server.url(), "redis://127.0.0.1:1/0", None)

