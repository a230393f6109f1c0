"""Timed transitions of a play-off: break over, players called, game due.

With a manual clock and the real server, hours of play take milliseconds: the
tests move the clock and fire what is due with ``scheduler.fire_due``. The last
tests use the system clock and let APScheduler fire a job by itself.

UzChess Cup Masters 2025 (tests/data): seeds 2 and 3 (Abdusattorov, Sindarov) play
match 1, G/25+5 (planned 60 minutes a game), then the final against seed 1. With
no end times in the data, the main event is taken to end when the play-off is
created (12:00 on the manual clock), so the break is over at 12:30.
"""

from __future__ import annotations

import json
import logging
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest

from orchestrator.core.timesource import ManualTime
from orchestrator.runtime.scheduler import Transition, transitions
from tests import support
from tests.support.events import uzchess_json
from tests.support.server import RunningServer, running_server

DATA = support.DATA / "uzchess-cup-masters-2025.json"
NOON = datetime(2025, 6, 28, 12, 0, tzinfo=UTC)


def at(hour: int, minute: int) -> datetime:
    return NOON.replace(hour=hour, minute=minute)


@dataclass
class Run:
    server: RunningServer
    clock: ManualTime
    chief: httpx.Client
    playoff_id: str

    @property
    def url(self) -> str:
        return f"/api/playoffs/{self.playoff_id}"

    def post(self, path: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
        response = self.chief.post(f"{self.url}{path}", json=body)
        assert response.status_code == 201, response.text
        data: dict[str, Any] = response.json()
        return data

    def jobs(self) -> dict[str, dict[str, Any]]:
        listed = self.chief.get(f"{self.url}/jobs").json()["jobs"]
        return {job["job"]: job for job in listed}

    def job(self, kind: str, match: int | None = None, game: int | None = None) -> str:
        if kind == "break-over":
            return f"break-over:{self.playoff_id}"
        return f"{kind}:{self.playoff_id}:{match}:{game}"

    def fire_due(self) -> list[str]:
        fired: list[Transition] = self.server.call(self.server.scheduler.fire_due)
        return [t.job for t in fired]

    def advance_to(self, moment: datetime) -> None:
        assert moment >= self.clock.now()
        self.clock.advance(moment - self.clock.now())

    def fired(self) -> list[str]:
        """The job ids of the ``transition-fired`` events of the log, in order."""
        log = self.chief.get(f"{self.url}/events").json()["events"]
        jobs = []
        for event in log:
            if event["type"] == "transition-fired":
                assert event["command_id"] == event["data"]["job"]
                assert event["actor"] == "scheduler"
                jobs.append(event["data"]["job"])
        return jobs


def hold_apscheduler(server: RunningServer) -> None:
    """Keep APScheduler from running jobs itself: on a manual clock the test fires
    what is due with ``fire_due``, and a job registered with a time already past
    would otherwise race it (either may fire it; it fires once all the same)."""

    async def pause() -> None:
        server.scheduler.aps.pause()

    server.call(pause)


@contextmanager
def playoff_run(tmp_path: Path) -> Iterator[Run]:
    clock = ManualTime()
    assert clock.now() == NOON
    with running_server(tmp_path / "log.db", clock) as server, server.client() as anonymous:
        hold_apscheduler(server)
        created = anonymous.post(
            "/api/events", content=uzchess_json(None).encode(),
            headers={"Content-Type": "application/json"},
        )
        assert created.status_code == 201, created.text
        event_id = created.json()["id"]
        with server.client(created.json()["chief_token"]) as chief:
            made = chief.post(f"/api/events/{event_id}/playoff", json={})
            assert made.status_code == 201, made.text
            yield Run(server, clock, chief, made.json()["id"])


def test_the_jobs_of_a_new_playoff(tmp_path: Path) -> None:
    with playoff_run(tmp_path) as run:
        jobs = run.jobs()
        expected = {
            run.job("break-over"): ("break-over", at(12, 30)),
            run.job("call", 1, 1): ("players-called", at(12, 25)),
            run.job("due", 1, 1): ("game-due", at(12, 30)),
            run.job("call", 1, 2): ("players-called", at(13, 35)),
            run.job("due", 1, 2): ("game-due", at(13, 40)),
        }
        for job, (kind, when) in expected.items():
            assert jobs[job]["kind"] == kind
            assert datetime.fromisoformat(jobs[job]["at"]) == when, job
        assert all(job["registered"] for job in jobs.values())
        # The Armageddon is tentative: no job for it until the match is level.
        assert run.job("due", 1, 3) not in jobs
        # Listed soonest first; each one is an APScheduler job.
        times = [datetime.fromisoformat(j["at"]) for j in jobs.values()]
        assert times == sorted(times)
        for job in jobs:
            assert run.server.scheduler.aps.get_job(job) is not None
        assert run.fired() == []


def test_each_transition_fires_once_when_it_is_due(tmp_path: Path) -> None:
    with playoff_run(tmp_path) as run:
        run.clock.advance(timedelta(minutes=29))
        # 12:29: the players of game 1 were called at 12:25; nothing due at 12:30 fires.
        assert run.fire_due() == [run.job("call", 1, 1)]
        assert run.fire_due() == []
        jobs = run.jobs()
        assert run.job("call", 1, 1) not in jobs
        assert run.job("break-over") in jobs and run.job("due", 1, 1) in jobs

        run.clock.advance(timedelta(minutes=2))
        # 12:31: the break is over and game 1 is due.
        assert run.fire_due() == [run.job("break-over"), run.job("due", 1, 1)]
        assert run.fire_due() == []
        assert run.fired() == [run.job("call", 1, 1), run.job("break-over"), run.job("due", 1, 1)]

        run.post("/matches/1/lots", {"method": "service"})
        run.post("/matches/1/games/1/start")
        jobs = run.jobs()
        # Game 1 started at 12:31: game 2 at 12:31 + 60 + 10 minutes.
        assert datetime.fromisoformat(jobs[run.job("call", 1, 2)]["at"]) == at(13, 36)
        assert datetime.fromisoformat(jobs[run.job("due", 1, 2)]["at"]) == at(13, 41)

        run.advance_to(at(13, 30))
        run.post("/matches/1/games/1/result", {"result": "1-0"})
        # Game 1 ended a minute early: game 2 moves a minute earlier.
        jobs = run.jobs()
        assert datetime.fromisoformat(jobs[run.job("call", 1, 2)]["at"]) == at(13, 35)
        assert datetime.fromisoformat(jobs[run.job("due", 1, 2)]["at"]) == at(13, 40)
        run.advance_to(at(13, 35))
        assert run.fire_due() == [run.job("call", 1, 2)]
        run.advance_to(at(13, 40))
        assert run.fire_due() == [run.job("due", 1, 2)]
        assert run.fire_due() == []

        counts = Counter(run.fired())
        assert set(counts.values()) == {1}, counts
        assert len(counts) == 5


def test_a_game_that_runs_long_moves_the_jobs_of_the_next_game(tmp_path: Path) -> None:
    with playoff_run(tmp_path) as run:
        run.post("/matches/1/lots", {"method": "service"})
        run.advance_to(at(12, 30))
        run.fire_due()
        run.post("/matches/1/games/1/start")
        before = run.jobs()
        assert datetime.fromisoformat(before[run.job("call", 1, 2)]["at"]) == at(13, 35)
        assert datetime.fromisoformat(before[run.job("due", 1, 2)]["at"]) == at(13, 40)
        final = datetime.fromisoformat(before[run.job("due", 2, 1)]["at"])

        # Game 1 was planned to end at 13:30; it ends at 13:50.
        run.advance_to(at(13, 50))
        run.post("/matches/1/games/1/result", {"result": "1/2-1/2"})
        after = run.jobs()
        assert datetime.fromisoformat(after[run.job("call", 1, 2)]["at"]) == at(13, 55)
        assert datetime.fromisoformat(after[run.job("due", 1, 2)]["at"]) == at(14, 0)
        assert datetime.fromisoformat(after[run.job("due", 2, 1)]["at"]) == final + timedelta(
            minutes=20
        )
        assert all(job["registered"] for job in after.values())
        for job in (run.job("call", 1, 2), run.job("due", 1, 2)):
            aps = run.server.scheduler.aps.get_job(job)
            assert aps is not None
            # Registered on APScheduler 5 or 10 minutes ahead (run dates are real time).
            ahead = aps.next_run_time - datetime.now(UTC)
            assert timedelta(minutes=4) < ahead <= timedelta(minutes=10), (job, ahead)

        # Nothing of game 2 was due at its old times: it fires at the new ones, once.
        assert run.fire_due() == []
        run.advance_to(at(13, 55))
        assert run.fire_due() == [run.job("call", 1, 2)]
        run.advance_to(at(14, 0))
        assert run.fire_due() == [run.job("due", 1, 2)]
        assert run.fire_due() == []
        assert Counter(run.fired())[run.job("call", 1, 2)] == 1


def test_a_game_running_long_holds_back_the_call_for_the_next_game(tmp_path: Path) -> None:
    """No event arrives while game 1 runs past its estimate, but the plan moves on.

    At 13:45 game 1 (started 12:30, estimated to end 13:30) is still being played:
    the planner expects it to end at 13:50 (now + 5 minutes) and game 2 at 14:00.
    Calling the players of game 2 to the board, or declaring game 2 due, while they
    are still playing game 1 is wrong, and since a fired job never fires again,
    game 2 would get no call and no "due" at its real start.
    """
    with playoff_run(tmp_path) as run:
        run.post("/matches/1/lots", {"method": "service"})
        run.advance_to(at(12, 30))
        run.fire_due()
        run.post("/matches/1/games/1/start")
        run.advance_to(at(13, 45))
        planned = run.chief.get(run.url).json()["schedule"]["games"]
        game_2 = next(g for g in planned if (g["match"], g["game"]) == (1, 2))
        assert datetime.fromisoformat(game_2["start"]) == at(14, 0)

        fired = run.fire_due()
        assert run.job("call", 1, 2) not in fired, (
            "players called to game 2 at 13:45 while game 1 is still being played "
            "(the plan puts game 2 at 14:00, its call at 13:55)"
        )
        assert run.job("due", 1, 2) not in fired
        # Game 1 ends at 13:50: game 2 is called at 13:55 and due at 14:00, once each.
        run.advance_to(at(13, 50))
        run.post("/matches/1/games/1/result", {"result": "1-0"})
        assert run.fire_due() == []
        run.advance_to(at(13, 55))
        assert run.fire_due() == [run.job("call", 1, 2)]
        run.advance_to(at(14, 0))
        assert run.fire_due() == [run.job("due", 1, 2)]
        assert set(Counter(run.fired()).values()) == {1}


def test_a_fired_job_never_fires_again_after_a_resync(tmp_path: Path) -> None:
    with playoff_run(tmp_path) as run:
        run.advance_to(at(12, 31))
        assert len(run.fire_due()) == 3
        fired = set(run.fired())
        scheduler = run.server.scheduler
        state = run.server.service.playoff(run.playoff_id)
        assert state.fired == fired

        async def resync() -> None:
            scheduler.sync(run.server.service.playoff(run.playoff_id))

        # The game never started: the plan keeps game 1 due "now", but the job is spent.
        for minutes in (1, 10, 60):
            run.clock.advance(timedelta(minutes=minutes))
            run.server.call(resync)
            assert fired.isdisjoint(run.jobs())
            assert fired.isdisjoint(j.id for j in scheduler.aps.get_jobs())
            assert run.fire_due() == []
        # Any logged event re-syncs too.
        run.post("/deadline", {"deadline": "2025-06-28T23:00:00Z", "reason": "hall closes"})
        assert fired.isdisjoint(run.jobs())
        assert run.fire_due() == []
        assert sorted(run.fired()) == sorted(fired)


def test_transitions_leave_out_started_games_and_fired_jobs(tmp_path: Path) -> None:
    with playoff_run(tmp_path) as run:
        run.post("/matches/1/lots", {"method": "service"})
        # Inside the break: the chief arbiter starts it early, with a reason.
        run.post("/matches/1/games/1/start", {"override": "both players asked to begin"})
        state = run.server.service.playoff(run.playoff_id)
        planned = [(1, 1, at(12, 30)), (1, 2, at(13, 40)), (2, 1, at(15, 0))]
        wanted = transitions(state, planned, at(12, 30), call_minutes=7)
        p = run.playoff_id
        assert [(t.job, t.at) for t in wanted] == [
            (f"break-over:{p}", at(12, 30)),
            (f"call:{p}:1:2", at(13, 33)),
            (f"due:{p}:1:2", at(13, 40)),
            (f"call:{p}:2:1", at(14, 53)),
            (f"due:{p}:2:1", at(15, 0)),
        ]
        spent = replace(state, fired=frozenset({f"call:{p}:1:2"}))
        assert f"call:{p}:1:2" not in [t.job for t in transitions(spent, planned, None, 5)]
        assert f"break-over:{p}" not in [t.job for t in transitions(spent, planned, None, 5)]


# --------------------------------------------------------------------------- system clock


def event_ending_at(ended: datetime) -> bytes:
    """The UzChess Cup data with end times: round 9 ends at ``ended``, each round an hour
    before the next."""
    data = json.loads(DATA.read_text())
    last = max(g["round"] for g in data["games"])
    for game in data["games"]:
        end = ended - timedelta(hours=last - game["round"])
        game["ended_at"] = end.isoformat()
    return json.dumps(data).encode()


def wait_for(check: Any, seconds: float) -> Any:
    deadline = time.monotonic() + seconds
    while True:
        value = check()
        if value or time.monotonic() > deadline:
            return value
        time.sleep(0.05)


def test_apscheduler_fires_a_due_job_by_itself_on_the_system_clock(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger="apscheduler")
    with running_server(tmp_path / "log.db") as server, server.client() as anonymous:
        # The last game ended 29 min 59.3 s ago: the break is over in 0.7 s.
        ended = datetime.now(UTC) - timedelta(minutes=30) + timedelta(milliseconds=700)
        created = anonymous.post(
            "/api/events",
            content=event_ending_at(ended),
            headers={"Content-Type": "application/json"},
        )
        assert created.status_code == 201, created.text
        event_id = created.json()["id"]
        with server.client(created.json()["chief_token"]) as chief:
            made = chief.post(f"/api/events/{event_id}/playoff", json={})
            assert made.status_code == 201, made.text
            playoff_id = made.json()["id"]
            url = f"/api/playoffs/{playoff_id}"
            schedule = made.json()["schedule"]
            assert datetime.fromisoformat(schedule["break_over"]) == ended + timedelta(minutes=30)

            def fired() -> list[str]:
                log = chief.get(f"{url}/events").json()["events"]
                return [e["data"]["job"] for e in log if e["type"] == "transition-fired"]

            break_over = f"break-over:{playoff_id}"
            listed = chief.get(f"{url}/jobs").json()["jobs"]
            if break_over not in fired():
                job = next(j for j in listed if j["job"] == break_over)
                # Waiting in the scheduler, or fired between the two reads (a loaded
                # machine can take the 0.7 s between them).
                assert job["registered"] or wait_for(lambda: break_over in fired(), 3), job
            assert wait_for(lambda: break_over in fired(), 3), fired()
            fired_at = datetime.now(UTC)
            assert fired_at >= ended + timedelta(minutes=30)
            # Game 1 was called 5 minutes before the break was over, so at once, and
            # is due when the break is over.
            assert wait_for(lambda: f"due:{playoff_id}:1:1" in fired(), 2), fired()
            assert f"call:{playoff_id}:1:1" in fired()
            time.sleep(0.3)
            counts = Counter(fired())
            assert set(counts.values()) == {1}, counts
            assert len(counts) == 3, counts
    # A job firing re-plans the schedule; it is not registered again meanwhile (that
    # ran it again and again, each run skipped with a warning, until the first ended).
    assert [r.getMessage() for r in caplog.records if "skipped" in r.getMessage()] == []
