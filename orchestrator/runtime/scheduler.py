"""Timed transitions of a play-off, fired by APScheduler.

The jobs are derived from the state: from the planned schedule, each game not
yet started gets "players called to the board" a few minutes before its start
and "game due" at its start, and the play-off gets "break over" when the
mandatory break after the main event ends. Each job has an explicit id
(``call:{playoff}:{match}:{game}``...), is registered again at start-up from the
log, and fires by appending a ``transition-fired`` event with the job id as its
command id: a job that already fired (it is in the log) is never registered
again, so a restart loses none and fires none twice.

Time is injected. A job's APScheduler run date is "now on this machine" plus
the delay on the injected clock, so with the system clock they coincide, and
with a manual clock tests fire what is due themselves with :meth:`fire_due`.

Where several workers share one log, only the leader registers jobs (see
:mod:`orchestrator.runtime.leader`); a job run by two workers in a change of leader is
logged once, since its id is the command id.
"""

from __future__ import annotations

import contextlib
import logging
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Literal

from apscheduler.events import EVENT_JOB_SUBMITTED, JobSubmissionEvent
from apscheduler.schedulers.asyncio import AsyncIOScheduler
from apscheduler.triggers.date import DateTrigger

from orchestrator.core.auth import Actor
from orchestrator.core.bus import Published
from orchestrator.core.commands import FireTransition
from orchestrator.core.errors import Conflict
from orchestrator.core.state import PlayoffState
from orchestrator.core.timesource import TimeSource
from orchestrator.settings import Settings
from playoff_formats.errors import PlayoffError

if TYPE_CHECKING:
    from orchestrator.core.service import Service


log = logging.getLogger(__name__)

SCHEDULER = Actor("scheduler")
"""The scheduler's own transitions, logged as its."""


@dataclass(frozen=True)
class Transition:
    """A timed transition: what happens, when, to which game."""

    job: str
    kind: Literal["players-called", "game-due", "break-over"]
    at: datetime
    match: int | None = None
    game: int | None = None

    def data(self) -> dict[str, object]:
        return {
            "job": self.job, "kind": self.kind, "at": self.at.isoformat(),
            "match": self.match, "game": self.game,
        }


def transitions(
    state: PlayoffState, planned: list[tuple[int, int, datetime]], break_over: datetime | None,
    call_minutes: int,
) -> list[Transition]:
    """The transitions still to fire, from the planned starts ``(match, game, start)``."""
    wanted: list[Transition] = []
    if break_over is not None:
        wanted.append(Transition(f"break-over:{state.id}", "break-over", break_over))
    for match, game, start in planned:
        if (match, game) in state.started_at:
            continue
        key = f"{state.id}:{match}:{game}"
        wanted.append(Transition(
            f"call:{key}", "players-called", start - timedelta(minutes=call_minutes), match, game
        ))
        wanted.append(Transition(f"due:{key}", "game-due", start, match, game))
    return sorted((t for t in wanted if t.job not in state.fired), key=lambda t: (t.at, t.job))


class PlayoffScheduler:
    """Keeps APScheduler's jobs equal to the transitions the state calls for."""

    def __init__(self, service: Service, time: TimeSource, settings: Settings) -> None:
        self.service = service
        self.time = time
        self.settings = settings
        self.aps = AsyncIOScheduler(timezone=UTC)
        self._pending: dict[str, dict[str, Transition]] = {}
        # From the moment APScheduler hands a job to its executor until the run ends:
        # registering it again meanwhile (its time moved with "now") would run it twice.
        self._firing: set[str] = set()
        self.active = True
        """False: another worker runs the jobs; this one registers none."""
        self.aps.add_listener(self._on_submitted, EVENT_JOB_SUBMITTED)

    def _on_submitted(self, event: JobSubmissionEvent) -> None:
        self._firing.add(event.job_id)

    def start(self) -> None:
        self.aps.start()
        for state in self.service.playoffs():
            self.sync(state)

    def sync_all(self) -> None:
        for state in self.service.playoffs():
            self.sync(state)

    def activate(self) -> None:
        self.active = True
        self.sync_all()

    def deactivate(self) -> None:
        self.active = False
        for jobs in self._pending.values():
            for job in jobs:
                if self.aps.get_job(job) is not None:
                    self.aps.remove_job(job)
        self._pending.clear()

    def shutdown(self) -> None:
        if self.aps.running:
            self.aps.shutdown(wait=False)

    async def on_published(self, message: Published) -> None:
        # A press moves no game of the schedule: planning on every press would cost
        # milliseconds per move for nothing.
        if message.clock_only:
            return
        self.sync(message.state)

    def wanted(self, state: PlayoffState) -> list[Transition]:
        plan = self.service.plan(state)
        planned = [(g.match, g.game, g.start) for g in plan.games if not g.tentative]
        return transitions(state, planned, plan.break_over, self.settings.call_players_minutes)

    def sync(self, state: PlayoffState) -> None:
        """Register the jobs ``state`` calls for and drop the others of this play-off.

        A play-off whose schedule cannot be planned keeps no jobs (and is logged),
        so that one play-off can never stop the service from starting.
        """
        if not self.active:
            return
        try:
            wanted = {t.job: t for t in self.wanted(state)}
        except (PlayoffError, ValueError):
            log.exception("play-off %s: no schedule, so no timed transitions", state.id)
            wanted = {}
        before = self._pending.get(state.id, {})
        for job in before.keys() - wanted.keys():
            if self.aps.get_job(job) is not None:
                self.aps.remove_job(job)
        for job, transition in wanted.items():
            # Registered already at this instant: leave it. One being run is registered
            # again (if still wanted) when its run ends: now, it would run twice.
            if before.get(job) == transition or job in self._firing:
                continue
            self._register(state.id, transition)
        self._pending[state.id] = wanted

    def _register(self, playoff_id: str, transition: Transition) -> None:
        run_date = datetime.now(UTC) + max(transition.at - self.time.now(), timedelta(0))
        self.aps.add_job(
            # The zone named outright: the machine's own (``TZ``) never matters, and
            # one tzlocal cannot read (a POSIX string such as ``UZT-5``) breaks nothing.
            self._fire, DateTrigger(run_date=run_date, timezone=UTC), id=transition.job,
            replace_existing=True, args=[playoff_id, transition.job],
            misfire_grace_time=None, coalesce=True,
        )

    def jobs(self, playoff_id: str) -> list[Transition]:
        """The transitions registered for a play-off, soonest first."""
        return sorted(self._pending.get(playoff_id, {}).values(), key=lambda t: (t.at, t.job))

    async def _fire(self, playoff_id: str, job: str) -> None:
        """APScheduler's call: re-plan first, since time alone moves the schedule (a game
        running long), then fire only if the transition is still due."""
        self._firing.add(job)
        try:
            self.sync(self.service.playoff(playoff_id))
            transition = self._pending.get(playoff_id, {}).get(job)
            if transition is None or transition.at > self.time.now():
                return  # gone, or moved later: registered again at its new time below
            self._pending[playoff_id].pop(job, None)
            await self._fire_transition(playoff_id, transition)
        finally:
            self._firing.discard(job)
            later = self._pending.get(playoff_id, {}).get(job)
            if later is not None and self.aps.get_job(job) is None:
                self._register(playoff_id, later)

    async def fire_due(self) -> list[Transition]:
        """Fire, in order, every registered transition due by the injected clock's now."""
        fired: list[Transition] = []
        self.sync_all()
        while True:
            now = self.time.now()
            due = [
                t for jobs in self._pending.values() for t in jobs.values() if t.at <= now
            ]
            if not due:
                return fired
            first = min(due, key=lambda t: (t.at, t.job))
            playoff_id = first.job.split(":")[1]
            self._pending[playoff_id].pop(first.job, None)
            if self.aps.get_job(first.job) is not None:
                self.aps.remove_job(first.job)
            await self._fire_transition(playoff_id, first)
            fired.append(first)

    async def _fire_transition(self, playoff_id: str, transition: Transition) -> None:
        with contextlib.suppress(Conflict):  # fired already: a job id is applied once
            await self.service.execute(
                playoff_id,
                FireTransition(
                    job=transition.job, kind=transition.kind, at=transition.at,
                    match=transition.match, game=transition.game,
                ),
                actor=SCHEDULER, command_id=transition.job,
            )
