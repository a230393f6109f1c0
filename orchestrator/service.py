"""The play-off service: commands in, durable events out, state kept as their fold.

A command (:mod:`orchestrator.commands`) decides its events from the state; the
service applies them to a copy of the state (the same ``apply`` that rebuilds the
state at start-up), so a command that is not an allowed transition is refused
before anything is logged. The events are then appended in one transaction, and
only once the log has them durably is the command acknowledged: the state folded
while checking becomes the current state (a command is folded once), and one
:class:`~orchestrator.bus.Published` message goes out on the bus.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import timedelta

from pydantic import ValidationError

from orchestrator import schedule
from orchestrator.access import authorize, require_chief
from orchestrator.auth import Role, TokenRecord, digest, new_token
from orchestrator.bus import Bus, InProcessBus, Logged, Published
from orchestrator.commands import CommandBase, Context, apply_command
from orchestrator.creation import PlayoffOptions, extra_boards_created, playoff_created
from orchestrator.errors import Conflict, NotFound
from orchestrator.events import (
    EventCreated,
    EventStreamEvent,
    PlayoffEvent,
    PlayoffLinked,
    Stamp,
    TokenData,
    TokenIssued,
    apply_event,
    apply_playoff,
    fold_event,
    fold_playoff,
    parse_event_stream_event,
    parse_playoff_event,
)
from orchestrator.state import EventState, PlayoffState, event_stream, playoff_stream
from orchestrator.store import AsyncEventLog, NewEvent, StoredEvent
from orchestrator.timesource import TimeSource
from orchestrator.views import event_extras
from playoff_formats.errors import PlayoffError
from playoff_formats.model import Event
from playoff_formats.regulations import get_regulation
from playoff_formats.schedule import Plan
from playoff_formats.standings import Standings

__all__ = ["Outcome", "PlayoffOptions", "Service", "new_id"]


def new_id() -> str:
    return secrets.token_hex(4)


@dataclass(frozen=True, slots=True)
class Outcome:
    """What a command did: the play-off as it now stands and the events it logged
    (the events first logged under its id, when it was a resend)."""

    state: PlayoffState
    events: tuple[Logged, ...]
    stored: tuple[StoredEvent, ...]
    resent: bool = False

    def to_json(self) -> dict[str, object]:
        """The answer to a REST command: the seq now, and each event as logged, with
        what travels beside it (the clock after it...)."""
        return {
            "seq": self.state.seq,
            "events": [
                {**stored.to_json(), **logged.extras}
                for stored, logged in zip(self.stored, self.events, strict=True)
            ],
        }


def stamp_of(stored: StoredEvent) -> Stamp:
    return Stamp(stored.seq, stored.recorded_at, stored.actor)


def typed(stored: StoredEvent) -> Logged:
    """A stored event of a play-off's stream as a typed, logged event."""
    return Logged(parse_playoff_event(stored.type, stored.data), stamp_of(stored))


class Service:
    """Events and play-offs, their tokens, and the commands that change them."""

    def __init__(
        self,
        store: AsyncEventLog,
        time: TimeSource,
        *,
        bus: Bus | None = None,
        ids: Callable[[], str] = new_id,
        seeds: Callable[[], bytes] = lambda: secrets.token_bytes(32),
        utc_offset: timedelta = timedelta(0),
    ) -> None:
        self.store = store
        self.time = time
        self.bus: Bus = bus if bus is not None else InProcessBus()
        self._ids = ids
        self._seeds = seeds
        self.utc_offset = utc_offset
        """The hall's offset from UTC, given to the play-offs created here."""
        self._events: dict[str, EventState] = {}
        self._playoffs: dict[str, PlayoffState] = {}
        self._standings: dict[str, Standings] = {}
        self._locks: dict[str, asyncio.Lock] = {}

    # ------------------------------------------------------------------ start-up

    async def load(self) -> None:
        """Rebuild every state from the log (at start-up)."""
        for stream in await self.store.streams("event-"):
            stored = await self.store.read(stream)
            event_state = fold_event(
                (parse_event_stream_event(e.type, e.data), stamp_of(e)) for e in stored
            )
            self._events[event_state.id] = event_state
        for stream in await self.store.streams("playoff-"):
            stored = await self.store.read(stream)
            playoff = fold_playoff(
                (parse_playoff_event(e.type, e.data), stamp_of(e)) for e in stored
            )
            self._playoffs[playoff.id] = playoff

    # ------------------------------------------------------------------ reading

    def event(self, event_id: str) -> EventState:
        try:
            return self._events[event_id]
        except KeyError:
            raise NotFound(f"no event {event_id!r}") from None

    def playoff(self, playoff_id: str) -> PlayoffState:
        try:
            return self._playoffs[playoff_id]
        except KeyError:
            raise NotFound(f"no play-off {playoff_id!r}") from None

    def playoffs(self) -> list[PlayoffState]:
        return list(self._playoffs.values())

    def plan(self, state: PlayoffState) -> Plan:
        """The schedule as it stands: planned from the state and the time now."""
        return schedule.plan(state, self.time.now())

    def schedule_of(self, state: PlayoffState) -> dict[str, object]:
        """The schedule as JSON, or why it cannot be planned."""
        try:
            return self.plan(state).model_dump(mode="json")
        except (PlayoffError, ValueError) as exc:
            return {"error": _reason(exc)}

    def standings(self, event_id: str) -> Standings:
        """The main event's standings under its regulation (computed once per event)."""
        cached = self._standings.get(event_id)
        if cached is None:
            event = self.event(event_id).event
            cached = get_regulation(event.regulation).standings(event)
            self._standings[event_id] = cached
        return cached

    async def log(self, playoff_id: str, after: int = 0, limit: int | None = None) -> list[Logged]:
        """The play-off's logged events after ``after``, typed."""
        stored = await self.store.read(playoff_stream(playoff_id), after=after, limit=limit)
        return [typed(e) for e in stored]

    # ------------------------------------------------------------------ access

    def authorize(self, event_id: str, token: str | None, *, write: bool) -> TokenRecord:
        """The token's record; 401 if unknown, 403 if for another event or read-only."""
        self.event(event_id)
        return authorize(self._events, event_id, token, write=write)

    def require_chief(self, record: TokenRecord) -> None:
        require_chief(record)

    # ------------------------------------------------------------------ events

    async def create_event(self, event: Event) -> tuple[EventState, str]:
        """Store an uploaded event; its id and the chief arbiter's token."""
        event_id = self._ids()
        token = new_token()
        created = EventCreated(
            id=event_id,
            event_json=event.model_dump_json(exclude_none=True),
            chief=TokenData(
                token_id="chief", role=Role.CHIEF, label="chief arbiter", digest=digest(token)
            ),
        )
        await self._append_event(event_id, None, [created], actor="chief")
        return self.event(event_id), token

    async def issue_token(self, event_id: str, role: Role, label: str, actor: str) -> str:
        if role is Role.CHIEF:
            raise Conflict("there is one chief arbiter's token per event")
        token = new_token()
        issued = TokenIssued(token_id=self._ids(), role=role, label=label, digest=digest(token))
        await self._append_event(event_id, self.event(event_id), [issued], actor)
        return token

    async def _append_event(
        self,
        event_id: str,
        state: EventState | None,
        events: Sequence[EventStreamEvent],
        actor: str,
    ) -> None:
        stream = event_stream(event_id)
        async with self._lock(stream):
            if state is not None:
                state = self.event(event_id)
            seq = state.seq if state is not None else 0
            now = self.time.now()
            for n, event in enumerate(events, start=seq + 1):
                state = apply_event(state, event, Stamp(n, now, actor))
            await self.store.append_many(
                stream, [NewEvent(e.type, e.log_data()) for e in events], actor=actor,
                recorded_at=now, expected_seq=seq,
            )
            assert state is not None
            self._events[event_id] = state

    # ------------------------------------------------------------------ play-offs

    async def create_playoff(
        self, event_id: str, options: PlayoffOptions, actor: str
    ) -> PlayoffState:
        """Build the play-off the event's regulation requires, seeded by its tiebreaks."""
        state = self.event(event_id)
        if state.playoffs:
            raise Conflict(f"event {event_id!r} already has its play-off {state.playoffs[0]!r}")
        playoff_id = self._ids()
        try:
            created = playoff_created(
                playoff_id, event_id, state.event, self.standings(event_id), options,
                self.time.now(), self._seeds, self.utc_offset,
            )
        except PlayoffError as exc:
            raise Conflict(_reason(exc)) from None
        return await self._create(event_id, created, actor)

    async def create_extra_boards(
        self,
        event_id: str,
        home: str,
        away: str,
        scheduled: int,
        competition: str | None,
        stage_boards: int | None,
        actor: str,
    ) -> PlayoffState:
        """Extra boards for a tied bridge knock-out match (EBU 143.2.1)."""
        state = self.event(event_id)
        existing = [
            (extra.home, extra.away)
            for playoff_id in state.playoffs
            if (extra := self._playoffs[playoff_id].extra) is not None
        ]
        try:
            created = extra_boards_created(
                self._ids(), event_id, state.event, home, away, scheduled, competition,
                stage_boards, self.time.now(), self.utc_offset, existing,
            )
        except PlayoffError as exc:
            raise Conflict(_reason(exc)) from None
        return await self._create(event_id, created, actor)

    async def _create(self, event_id: str, created: PlayoffEvent, actor: str) -> PlayoffState:
        now = self.time.now()
        stamp = Stamp(1, now, actor)
        state = apply_playoff(None, created, stamp)
        await self.store.append(
            playoff_stream(state.id), created.type, created.log_data(), actor=actor,
            recorded_at=now, expected_seq=0,
        )
        self._playoffs[state.id] = state
        await self._append_event(
            event_id, self.event(event_id), [PlayoffLinked(playoff_id=state.id)], actor
        )
        await self.bus.publish(Published(state, (Logged(created, stamp),)))
        return state

    async def execute(
        self,
        playoff_id: str,
        command: CommandBase,
        actor: str,
        command_id: str | None = None,
    ) -> Outcome:
        """Decide ``command``'s events, check them on the state, log them, publish them.

        :class:`~orchestrator.errors.Conflict` (and nothing logged) when the command
        is not an allowed transition now. A command id already logged returns the
        events it logged then, unchanged.
        """
        stream = playoff_stream(playoff_id)
        async with self._lock(stream):
            state = self.playoff(playoff_id)
            if command_id is not None:
                earlier = await self.store.find_command(stream, command_id)
                if earlier is not None:
                    return Outcome(
                        state, tuple(typed(e) for e in earlier), tuple(earlier), resent=True
                    )
            now = self.time.now()
            ctx = Context(
                now=now,
                server_ms=self.time.server_ms(),
                new_seed=self._seeds,
                planned_start=lambda s, match, game: schedule.planned_start(s, match, game, now),
                role=actor.split(":", 1)[0],
            )
            try:
                applied = apply_command(state, command, ctx, actor)
            except (PlayoffError, ValidationError) as exc:
                raise Conflict(_reason(exc)) from None
            if not applied:
                raise Conflict("this command changes nothing")
            trial = applied[-1].after
            events = [a.event for a in applied]
            # What travels beside each event comes from the state just after it.
            logged = [Logged(a.event, a.stamp, event_extras(a.event, a.after)) for a in applied]
            if any(e.schedule_override for e in events):
                try:  # an override the schedule cannot follow is refused before it is logged
                    schedule.plan(trial, now)
                except (PlayoffError, ValueError) as exc:
                    raise Conflict(f"the schedule cannot follow this: {_reason(exc)}") from None
            stored = await self.store.append_many(
                stream, [NewEvent(e.type, e.log_data()) for e in events], actor=actor,
                recorded_at=now, expected_seq=state.seq, command_id=command_id,
            )
            self._playoffs[playoff_id] = trial
        await self.bus.publish(Published(trial, tuple(logged)))
        return Outcome(trial, tuple(logged), tuple(stored))

    def _lock(self, stream: str) -> asyncio.Lock:
        return self._locks.setdefault(stream, asyncio.Lock())


def _reason(exc: Exception) -> str:
    if isinstance(exc, ValidationError):
        first = exc.errors(include_url=False)[0]
        where = ".".join(str(p) for p in first["loc"])
        return f"{where}: {first['msg']}" if where else str(first["msg"])
    reason = getattr(exc, "reason", None)
    if isinstance(reason, str):
        return reason
    return str(exc.args[0]) if exc.args else str(exc)

