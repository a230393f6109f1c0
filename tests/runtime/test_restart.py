"""Restarts: "nothing is lost when the process dies".

The state is a fold of the log and the scheduled jobs are derived from the state,
so a new process on the same SQLite file serves the same play-off, with the same
jobs, and fires a job that fell due while it was down exactly once. First with
the app in-process on a manual clock, then with the real command
(``python -m orchestrator.cli serve``) killed with SIGKILL, on the system clock.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx

from orchestrator.core.timesource import ManualTime
from tests import support
from tests.support.server import RunningServer, kill, running_server, service_process

DATA = support.DATA / "uzchess-cup-masters-2025.json"
JSON = {"Content-Type": "application/json"}


def ok(response: httpx.Response) -> dict[str, Any]:
    assert response.status_code in (200, 201), response.text
    body: dict[str, Any] = response.json()
    return body


def create(client: httpx.Client, event: bytes) -> tuple[str, str, str]:
    """Upload ``event`` and create its play-off: (event id, chief token, play-off id)."""
    created = ok(client.post("/api/events", content=event, headers=JSON))
    token = created["chief_token"]
    made = ok(
        client.post(
            f"/api/events/{created['id']}/playoff",
            json={"prizes": [100000, 50000, 30000]},
            headers={"Authorization": f"Bearer {token}"},
        )
    )
    return created["id"], token, made["id"]


def snapshot(server: RunningServer, token: str, playoff_id: str) -> dict[str, Any]:
    with server.client(token) as chief:
        url = f"/api/playoffs/{playoff_id}"
        return {
            "view": ok(chief.get(url)),
            "jobs": ok(chief.get(f"{url}/jobs"))["jobs"],
            "log": ok(chief.get(f"{url}/events"))["events"],
            "pgn": chief.get(f"{url}/pgn").text,
        }


def fired_jobs(log: list[dict[str, Any]]) -> list[str]:
    return [e["data"]["job"] for e in log if e["type"] == "transition-fired"]


# --------------------------------------------------------------------------- in-process


def hold_apscheduler(server: RunningServer) -> None:
    """On a manual clock the test fires what is due (``fire_due``): keep APScheduler
    from racing it for a job registered with a time already past."""

    async def pause() -> None:
        server.scheduler.aps.pause()

    server.call(pause)


def test_a_restart_serves_the_same_playoff_and_the_same_jobs(tmp_path: Path) -> None:
    db = tmp_path / "log.db"
    clock = ManualTime()
    with running_server(db, clock) as server, server.client() as anonymous:
        hold_apscheduler(server)
        event_id, token, playoff_id = create(anonymous, DATA.read_bytes())
        base = f"/api/playoffs/{playoff_id}/matches"
        with server.client(token) as chief:
            arbiter_token = ok(
                chief.post(
                    f"/api/events/{event_id}/tokens", json={"role": "arbiter", "label": "deputy"}
                )
            )["token"]
            display_key = ok(
                chief.post(f"/api/events/{event_id}/tokens", json={"role": "display"})
            )["token"]
        with server.client(arbiter_token) as arbiter:
            ok(arbiter.post(f"{base}/1/lots", json={"method": "service"}))
            clock.advance(timedelta(minutes=31))
            assert len(server.call(server.scheduler.fire_due)) == 3
            ok(arbiter.post(f"{base}/1/games/1/start"))
            clock.advance(timedelta(minutes=50))
            ok(arbiter.post(f"{base}/1/games/1/result", json={"result": "1-0"}))
            with server.client(token) as chief:  # an override: the chief arbiter's
                ok(
                    chief.post(
                        f"{base}/1/games/2/move-start",
                        json={"at": "2025-06-28T13:35:00Z", "reason": "a short break asked for"},
                    )
                )
            clock.advance(timedelta(minutes=14))  # at the start the chief arbiter set
            ok(arbiter.post(f"{base}/1/games/2/start"))
            clock.advance(timedelta(minutes=5))
        before = snapshot(server, token, playoff_id)
    assert before["view"]["matches"][0]["games"][1]["started_at"] is not None
    assert before["jobs"], "the final's games should still have their jobs"

    with running_server(db, clock) as server:
        after = snapshot(server, token, playoff_id)
        assert after["view"] == before["view"]
        assert after["log"] == before["log"]
        assert after["pgn"] == before["pgn"]
        assert [j["job"] for j in after["jobs"]] == [j["job"] for j in before["jobs"]]
        assert after["jobs"] == before["jobs"]
        assert all(j["registered"] for j in after["jobs"])
        for job in after["jobs"]:
            assert server.scheduler.aps.get_job(job["job"]) is not None
        # Nothing was due: nothing fires.
        assert server.call(server.scheduler.fire_due) == []
        # The tokens were folded from the log too.
        with server.client(arbiter_token) as arbiter:
            assert arbiter.get(f"/api/playoffs/{playoff_id}").status_code == 200
        with server.client(display_key) as display:
            assert display.get(f"/api/playoffs/{playoff_id}").status_code == 200
            assert (
                display.post(f"{base}/1/games/2/result", json={"result": "1-0"}).status_code == 403
            )
        # And the play-off goes on where it stopped.
        with server.client(arbiter_token) as arbiter:
            ok(arbiter.post(f"{base}/1/games/2/result", json={"result": "1-0"}))
            view = ok(arbiter.get(f"/api/playoffs/{playoff_id}"))
            assert [g["kind"] for g in view["matches"][0]["games"]] == [
                "regular",
                "regular",
                "armageddon",
            ]


def test_a_job_due_while_the_service_was_down_fires_once(tmp_path: Path) -> None:
    db = tmp_path / "log.db"
    clock = ManualTime()
    with running_server(db, clock) as server, server.client() as anonymous:
        _, token, playoff_id = create(anonymous, DATA.read_bytes())
        clock.advance(timedelta(minutes=20))
        assert server.call(server.scheduler.fire_due) == []
        before = snapshot(server, token, playoff_id)
    assert fired_jobs(before["log"]) == []

    # Down from 12:20 to 12:31: the call (12:25), the break (12:30) and game 1 (12:30)
    # fell due meanwhile. The new process fires them itself at start-up.
    clock.advance(timedelta(minutes=11))
    expected = {f"call:{playoff_id}:1:1", f"break-over:{playoff_id}", f"due:{playoff_id}:1:1"}
    with running_server(db, clock) as server:
        deadline = time.monotonic() + 3
        while set(fired_jobs(snapshot(server, token, playoff_id)["log"])) != expected:
            assert time.monotonic() < deadline, snapshot(server, token, playoff_id)["log"]
            time.sleep(0.05)
        assert server.call(server.scheduler.fire_due) == []
        after = snapshot(server, token, playoff_id)
        assert after["log"][: len(before["log"])] == before["log"]
        assert Counter(fired_jobs(after["log"])) == Counter(expected)
        assert expected.isdisjoint(j["job"] for j in after["jobs"])

    # Once more: nothing fires twice across restarts.
    with running_server(db, clock) as server:
        time.sleep(0.3)
        assert server.call(server.scheduler.fire_due) == []
        again = snapshot(server, token, playoff_id)
        assert again["log"] == after["log"]
        assert [j["job"] for j in again["jobs"]] == [j["job"] for j in after["jobs"]]


def test_a_refused_command_does_not_stop_the_service_from_starting(tmp_path: Path) -> None:
    """A command the planner cannot plan must not reach the log: if it does, the
    scheduler fails on it at every start-up and the whole service is down."""
    db = tmp_path / "log.db"
    clock = ManualTime()
    with running_server(db, clock) as server, server.client() as anonymous:
        _, token, playoff_id = create(anonymous, DATA.read_bytes())
        with server.client(token) as chief:
            moved = chief.post(
                f"/api/playoffs/{playoff_id}/matches/99/games/1/move-start",
                json={"at": "2025-06-28T13:00:00Z", "reason": "hall not ready"},
            )
            assert moved.status_code == 409, moved.text
        before = snapshot(server, token, playoff_id)
    with running_server(db, clock) as server:
        assert snapshot(server, token, playoff_id)["view"] == before["view"]


# --------------------------------------------------------------------------- SIGKILL




def wait_for(check: Callable[[], Any], seconds: float) -> Any:
    deadline = time.monotonic() + seconds
    while True:
        value = check()
        if value or time.monotonic() > deadline:
            return value
        time.sleep(0.05)


def event_ending_at(ended: datetime) -> bytes:
    """The UzChess Cup data with end times: round 9 ends at ``ended``."""
    data = json.loads(DATA.read_text())
    last = max(g["round"] for g in data["games"])
    for game in data["games"]:
        game["ended_at"] = (ended - timedelta(hours=last - game["round"])).isoformat()
    return json.dumps(data).encode()


def test_sigkill_loses_nothing_and_a_job_due_meanwhile_fires_once(tmp_path: Path) -> None:
    db = tmp_path / "log.db"
    grace = timedelta(seconds=3)
    with open(tmp_path / "service.log", "wb") as output:

        def read(base: str, token: str, path: str) -> dict[str, Any]:
            with httpx.Client(
                base_url=base,
                trust_env=False,
                timeout=10,
                headers={"Authorization": f"Bearer {token}"},
            ) as client:
                return ok(client.get(path))

        with service_process(db, output) as (first, base):
            # The last main-event game ended 30 minutes minus 3 s ago: the break is
            # over in 3 s. The players of game 1 were due to be called 5 minutes
            # before that, so that job fires at once.
            ended = datetime.now(UTC) - timedelta(minutes=30) + grace
            break_over = ended + timedelta(minutes=30)
            with httpx.Client(base_url=base, trust_env=False, timeout=10) as anonymous:
                event_id, token, playoff_id = create(anonymous, event_ending_at(ended))
            url = f"/api/playoffs/{playoff_id}"
            call_1 = f"call:{playoff_id}:1:1"
            assert wait_for(
                lambda: call_1 in fired_jobs(read(base, token, f"{url}/events")["events"]), 3
            )
            with httpx.Client(
                base_url=base,
                trust_env=False,
                timeout=10,
                headers={"Authorization": f"Bearer {token}"},
            ) as chief:
                ok(chief.post(f"{url}/matches/1/lots", json={"method": "service"}))
                early = {"override": "the players are at the board before the break is over"}
                ok(chief.post(f"{url}/matches/1/games/1/start", json=early))
                ok(chief.post(f"{url}/matches/1/games/1/result", json={"result": "1-0"}))
                arbiter_token = ok(
                    chief.post(f"/api/events/{event_id}/tokens", json={"role": "arbiter"})
                )["token"]
            before = {
                "view": read(base, token, url),
                "log": read(base, token, f"{url}/events")["events"],
                "jobs": read(base, token, f"{url}/jobs")["jobs"],
            }
            assert f"break-over:{playoff_id}" in [j["job"] for j in before["jobs"]]
            assert datetime.now(UTC) < break_over, "too slow: the break was over before the kill"
            kill(first)
            killed_at = datetime.now(UTC)
        assert fired_jobs(before["log"]) == [call_1]

        # Down while the break ends.
        time.sleep(max(0.0, (break_over - datetime.now(UTC)).total_seconds()) + 0.2)

        with service_process(db, output) as (second, base):
            log: list[dict[str, Any]] = []

            def break_over_fired() -> bool:
                log[:] = read(base, token, f"{url}/events")["events"]
                return f"break-over:{playoff_id}" in fired_jobs(log)

            assert wait_for(break_over_fired, 3), log
            time.sleep(0.3)
            after = {
                "view": read(base, token, url),
                "log": read(base, token, f"{url}/events")["events"],
                "jobs": read(base, token, f"{url}/jobs")["jobs"],
            }
            # Everything logged before the kill is there, unchanged.
            assert after["log"][: len(before["log"])] == before["log"]
            new = after["log"][len(before["log"]) :]
            assert [(e["type"], e["data"]["job"]) for e in new] == [
                ("transition-fired", f"break-over:{playoff_id}")
            ]
            assert datetime.fromisoformat(new[0]["recorded_at"]) > killed_at
            for key in ("matches", "draws", "names", "participants", "changes", "champion"):
                assert after["view"][key] == before["view"][key], key
            # The same jobs, less the one that fired, all registered again.
            still = [j for j in before["jobs"] if j["job"] != f"break-over:{playoff_id}"]
            assert after["jobs"] == still
            assert all(j["registered"] for j in after["jobs"])
            assert read(base, arbiter_token, url)["id"] == playoff_id
            kill(second)

        with service_process(db, output) as (third, base):
            time.sleep(0.5)
            again = read(base, token, f"{url}/events")["events"]
            assert again == after["log"], "a job fired twice across restarts"
            counts = Counter(fired_jobs(again))
            assert set(counts.values()) == {1}, counts
            jobs = read(base, token, f"{url}/jobs")["jobs"]
            assert [j["job"] for j in jobs] == [j["job"] for j in after["jobs"]]
            kill(third)
