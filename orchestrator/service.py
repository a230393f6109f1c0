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
import base64
import hashlib
import hmac
import json
import logging
import secrets
from collections.abc import Callable, Sequence
from contextlib import suppress
from dataclasses import dataclass
from datetime import timedelta

from pydantic import ValidationError

from orchestrator import schedule, snapshots
from orchestrator.access import NOT_VALID, TokenIndex, require_chief
from orchestrator.auth import Role, TokenRecord, digest, new_token
from orchestrator.bus import Bus, InProcessBus, Logged, Published
from orchestrator.commands import CommandBase, Context, apply_command
from orchestrator.creation import PlayoffOptions, extra_boards_created, playoff_created
from orchestrator.errors import Conflict, KeyReused, NotFound, Unauthorized, Unavailable
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
    parse_event_stream_event,
    parse_playoff_event,
)
from orchestrator.state import EventState, PlayoffState, event_stream, playoff_stream
from orchestrator.store import AppendRequest, AsyncEventLog, NewEvent, Snapshot, StoredEvent
from orchestrator.timesource import TimeSource
from orchestrator.views import event_extras
from playoff_formats.errors import PlayoffError
from playoff_formats.model import Event
from playoff_formats.regulations import get_regulation
from playoff_formats.schedule import Plan
from playoff_formats.standings import Standings

__all__ = ["Outcome", "PlayoffOptions", "Request", "Service", "new_id"]


log = logging.getLogger(__name__)


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


@dataclass(frozen=True, slots=True)
class Request:
    """An ``Idempotency-Key`` and a fingerprint of the request it came with (method,
    path and body, as a hash): the same key is answered as before only for the same
    request."""

    key: str
    fingerprint: str

    @classmethod
    def of(cls, key: str, method: str, path: str, body: object) -> Request:
        canonical = json.dumps(body, sort_keys=True, separators=(",", ":"), default=str)
        text = f"{method.upper()} {path}\n{canonical}"
        return cls(key=key, fingerprint=hashlib.sha256(text.encode()).hexdigest())

    def command_id(self, scope: str) -> str:
        """The command id the key is logged under, scoped (to a token, or "upload")."""
        return f"key:{scope}:{hashlib.sha256(self.key.encode()).hexdigest()[:32]}"

    def check(self, first: StoredEvent) -> None:
        """422 if the key was first used with another request."""
        if first.command_fingerprint not in (None, self.fingerprint):
            raise KeyReused(
                "this Idempotency-Key was used for another request: send a new key for a "
                "new request"
            )


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
        self.tokens = TokenIndex()
        self.quarantined: dict[str, str] = {}
        self._snapshot_seq: dict[str, int] = {}
        """Streams left aside at start-up because they cannot be loaded: why, by stream."""

    # ------------------------------------------------------------------ start-up

    async def load(self) -> None:
        """Rebuild every state from the log (at start-up).

        One stream that cannot be folded, or a play-off whose schedule crashes the
        planner, never stops the service: it is quarantined (logged, listed in
        :attr:`quarantined`, its id answering 503 with the reason) and the rest
        starts. A play-off the planner refuses (a ``PlayoffError``) is served with
        that reason as its schedule.
        """
        kept = await self.store.snapshots()
        for stream in await self.store.streams("event-"):
            try:
                event_state = await self._fold(stream, kept.get(stream), EventState)
            except Exception as exc:
                self._quarantine(stream, exc)
                continue
            assert isinstance(event_state, EventState)
            self._set_event(event_state)
        for stream in await self.store.streams("playoff-"):
            try:
                playoff = await self._fold(stream, kept.get(stream), PlayoffState)
                assert isinstance(playoff, PlayoffState)
                if not self._snapshot_seq.get(stream):
                    # Folded from the first event: a play-off an older version let in
                    # may crash the planner. One from a snapshot was planned before.
                    with suppress(PlayoffError, ValueError):
                        schedule.plan(playoff, self.time.now())
            except Exception as exc:
                self._quarantine(stream, exc)
                continue
            self._playoffs[playoff.id] = playoff

    async def _fold(
        self,
        stream: str,
        snapshot: Snapshot | None,
        kind: type[PlayoffState] | type[EventState],
    ) -> PlayoffState | EventState:
        """A stream's state: its snapshot, if this code made it, and the events after;
        else (or if that fails) every event from the first."""
        start: PlayoffState | EventState | None = None
        if snapshot is not None and snapshot.version == snapshots.VERSION:
            try:
                start = snapshots.load(snapshot.data, kind)
                if start.seq != snapshot.seq:
                    raise ValueError(f"it says seq {snapshot.seq}, its state {start.seq}")
            except Exception as exc:
                log.warning("%s: snapshot not used (%s); folding the whole log", stream, exc)
                start = None
        if start is not None:
            try:
                state = self._fold_onto(start, await self.store.read(stream, after=start.seq))
                self._snapshot_seq[stream] = start.seq
                return state
            except Exception as exc:
                log.warning("%s: the events after the snapshot do not fold onto it (%s); "
                            "folding the whole log", stream, exc)
        self._snapshot_seq[stream] = 0
        return self._fold_onto(None, await self.store.read(stream), kind)

    @staticmethod
    def _fold_onto(
        start: PlayoffState | EventState | None,
        stored: Sequence[StoredEvent],
        kind: type[PlayoffState] | type[EventState] | None = None,
    ) -> PlayoffState | EventState:
        if isinstance(start, EventState) or (start is None and kind is EventState):
            event_state = start if isinstance(start, EventState) else None
            for e in stored:
                event_state = apply_event(
                    event_state, parse_event_stream_event(e.type, e.data), stamp_of(e)
                )
            if event_state is None:
                raise PlayoffError("no such event")
            return event_state
        playoff = start if isinstance(start, PlayoffState) else None
        for e in stored:
            playoff = apply_playoff(playoff, parse_playoff_event(e.type, e.data), stamp_of(e))
        if playoff is None:
            raise PlayoffError("no such play-off")
        return playoff

    async def save_snapshots(self, min_new_events: int = 1) -> int:
        """Keep a snapshot of every state with at least ``min_new_events`` events past
        its last snapshot; how many were kept. A cache for the next start: it never
        changes what the log says."""
        due: list[tuple[str, PlayoffState | EventState]] = []
        for event_state in self._events.values():
            due.append((event_stream(event_state.id), event_state))
        for playoff in self._playoffs.values():
            due.append((playoff_stream(playoff.id), playoff))
        due = [
            (stream, state) for stream, state in due
            if state.seq - self._snapshot_seq.get(stream, 0) >= max(1, min_new_events)
        ]
        if not due:
            return 0
        made = await asyncio.to_thread(
            lambda: [
                Snapshot(stream, state.seq, snapshots.VERSION, snapshots.dump(state))
                for stream, state in due
            ]
        )
        await self.store.save_snapshots(made)
        for snapshot in made:
            self._snapshot_seq[snapshot.stream] = snapshot.seq
        return len(made)

    def _set_event(self, state: EventState) -> None:
        self._events[state.id] = state
        for record in state.tokens:
            self.tokens.add(state.id, record)

    def _quarantine(self, stream: str, exc: Exception) -> None:
        reason = f"{type(exc).__name__}: {_reason(exc)}"[:500]
        log.error("%s cannot be loaded and is left aside: %s", stream, reason)
        self.quarantined[stream] = reason

    # ------------------------------------------------------------------ reading

    def event(self, event_id: str) -> EventState:
        try:
            return self._events[event_id]
        except KeyError:
            self._unavailable(event_stream(event_id))
            raise NotFound(f"no event {event_id!r}") from None

    def playoff(self, playoff_id: str) -> PlayoffState:
        try:
            return self._playoffs[playoff_id]
        except KeyError:
            self._unavailable(playoff_stream(playoff_id))
            raise NotFound(f"no play-off {playoff_id!r}") from None

    def _unavailable(self, stream: str) -> None:
        reason = self.quarantined.get(stream)
        if reason is not None:
            raise Unavailable(
                f"{stream} is in the log but could not be loaded ({reason}); the rest of "
                "the service runs: tell the service's administrator"
            )

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

    def authorize(
        self, event_id: str, token: str | None, *, write: bool, address: str | None = None
    ) -> TokenRecord:
        """The token's record for ``event_id``: 401 if missing, unknown or for another
        event (the same answer), 403 if read-only and ``write``, 429 after too many
        failures from ``address``. The token is checked before the event is looked
        up, so nobody without a token learns whether an id exists."""
        _, record = self.tokens.authorize(event_id, token, write=write, address=address)
        self.event(event_id)
        return record

    def authorize_playoff(
        self, playoff_id: str, token: str | None, *, write: bool, address: str | None = None
    ) -> tuple[PlayoffState, TokenRecord]:
        """A play-off and the token's record for its event, the token checked first."""
        event_id, record = self.tokens.authorize(None, token, write=write, address=address)
        state = self._playoffs.get(playoff_id)
        if state is None or state.event_id != event_id:
            if playoff_id in self._events[event_id].playoffs:
                self.playoff(playoff_id)  # linked but left aside at start-up: 503
            # Unknown, or another event's: the same answer as a wrong token, or the
            # answer would tell that the token is valid somewhere.
            self.tokens.attempts.failed(address)
            raise Unauthorized(NOT_VALID)
        return state, record

    def require_chief(self, record: TokenRecord) -> None:
        require_chief(record)

    # ------------------------------------------------------------------ events

    async def create_event(
        self, event: Event, *, key: Request | None = None
    ) -> tuple[EventState, str]:
        """Store an uploaded event; its id and the chief arbiter's token.

        With an idempotency ``key``, the same upload sent again is answered as the
        first was (the same event, the same token: derived from the key and the log's
        secret, so that no token is kept in the clear); the key sent with another
        upload is refused (422).
        """
        command_id = key.command_id("upload") if key is not None else None
        async with self._lock(f"upload:{command_id}"):
            if key is not None and command_id is not None:
                earlier = await self.store.find_command_anywhere(command_id)
                if earlier is not None:
                    key.check(earlier[0])
                    event_id = earlier[0].stream.removeprefix("event-")
                    return self.event(event_id), await self._derived_token(earlier[0])
            event_id = self._ids()
            token = new_token() if key is None else await self._derived(
                f"event-{event_id}", 1, command_id
            )
            created = EventCreated(
                id=event_id,
                event_json=event.model_dump_json(exclude_none=True),
                chief=TokenData(
                    token_id="chief", role=Role.CHIEF, label="chief arbiter",
                    digest=digest(token),
                ),
            )
            await self._append_event(event_id, None, [created], "chief", key, command_id)
        return self.event(event_id), token

    async def issue_token(
        self, event_id: str, role: Role, label: str, actor: str, *, key: Request | None = None
    ) -> str:
        """A new arbiter token or display key (the same again for a resent ``key``)."""
        if role is Role.CHIEF:
            raise Conflict("there is one chief arbiter's token per event")
        stream = event_stream(event_id)
        command_id = key.command_id(actor) if key is not None else None
        async with self._lock(f"key:{stream}:{command_id}"):
            if key is not None and command_id is not None:
                earlier = await self.store.find_command(stream, command_id)
                if earlier is not None:
                    key.check(earlier[0])
                    return await self._derived_token(earlier[0])
            state = self.event(event_id)
            token = new_token() if key is None else await self._derived(
                stream, state.seq + 1, command_id
            )
            issued = TokenIssued(
                token_id=self._ids(), role=role, label=label, digest=digest(token)
            )
            await self._append_event(event_id, state, [issued], actor, key, command_id)
        return token

    async def _derived(self, stream: str, seq: int, command_id: str | None) -> str:
        """A token the same request can be answered with again: HMAC of the log's secret
        over where it was logged and under which command id (only its hash is kept)."""
        secret = bytes.fromhex(await self.store.secret())
        message = f"token\0{stream}\0{seq}\0{command_id}".encode()
        mac = hmac.new(secret, message, hashlib.sha256).digest()
        return base64.urlsafe_b64encode(mac[:24]).decode().rstrip("=")

    async def _derived_token(self, logged: StoredEvent) -> str:
        return await self._derived(logged.stream, logged.seq, logged.command_id)

    async def _append_event(
        self,
        event_id: str,
        state: EventState | None,
        events: Sequence[EventStreamEvent],
        actor: str,
        key: Request | None = None,
        command_id: str | None = None,
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
                recorded_at=now, expected_seq=seq, command_id=command_id,
                fingerprint=key.fingerprint if key is not None else None,
            )
            assert state is not None
            self._set_event(state)

    # ------------------------------------------------------------------ play-offs

    async def create_playoff(
        self, event_id: str, options: PlayoffOptions, actor: str, *, key: Request | None = None
    ) -> PlayoffState:
        """Build the play-off the event's regulation requires, seeded by its tiebreaks."""
        standings = self.standings(event_id)

        def build(state: EventState) -> PlayoffEvent:
            # Checked under the event's lock, in the transaction's light: one play-off
            # per event, however many ask at once.
            if state.playoffs:
                raise Conflict(
                    f"event {event_id!r} already has its play-off {state.playoffs[0]!r}"
                )
            return playoff_created(
                self._ids(), event_id, state.event, standings, options, self.time.now(),
                self._seeds, self.utc_offset,
            )

        return await self._create(event_id, build, actor, key)

    async def create_extra_boards(
        self,
        event_id: str,
        home: str,
        away: str,
        scheduled: int,
        competition: str | None,
        stage_boards: int | None,
        actor: str,
        *,
        key: Request | None = None,
    ) -> PlayoffState:
        """Extra boards for a tied bridge knock-out match (EBU 143.2.1)."""

        def build(state: EventState) -> PlayoffEvent:
            existing = [
                (extra.home, extra.away)
                for playoff_id in state.playoffs
                if playoff_id in self._playoffs
                and (extra := self._playoffs[playoff_id].extra) is not None
            ]
            return extra_boards_created(
                self._ids(), event_id, state.event, home, away, scheduled, competition,
                stage_boards, self.time.now(), self.utc_offset, existing,
            )

        return await self._create(event_id, build, actor, key)

    async def _create(
        self,
        event_id: str,
        build: Callable[[EventState], PlayoffEvent],
        actor: str,
        key: Request | None = None,
    ) -> PlayoffState:
        """A play-off created and linked to its event in one transaction.

        Everything is checked before anything is logged: the creation, the link, and
        that the play-off can be planned (a date out of range, say, is refused here,
        never found at the next start).
        """
        stream = event_stream(event_id)
        command_id = key.command_id(actor) if key is not None else None
        async with self._lock(stream):
            if key is not None and command_id is not None:
                earlier = await self.store.find_command(stream, command_id)
                if earlier is not None:  # the same creation sent again: the same answer
                    key.check(earlier[0])
                    return self.playoff(str(earlier[0].data["playoff_id"]))
            event_state = self.event(event_id)
            now = self.time.now()
            try:
                created = build(event_state)
                stamp = Stamp(1, now, actor)
                state = apply_playoff(None, created, stamp)
                schedule.plan(state, now)
            except (PlayoffError, ValueError, OverflowError) as exc:
                raise Conflict(_reason(exc)) from None
            linked = PlayoffLinked(playoff_id=state.id)
            linked_state = apply_event(
                event_state, linked, Stamp(event_state.seq + 1, now, actor)
            )
            await self.store.append_atomic([
                AppendRequest(
                    playoff_stream(state.id), (NewEvent(created.type, created.log_data()),),
                    actor, now, expected_seq=0,
                ),
                AppendRequest(
                    stream, (NewEvent(linked.type, linked.log_data()),), actor, now,
                    expected_seq=event_state.seq, command_id=command_id,
                    fingerprint=key.fingerprint if key is not None else None,
                ),
            ])
            self._playoffs[state.id] = state
            self._events[event_id] = linked_state
        await self.bus.publish(Published(state, (Logged(created, stamp),)))
        return state

    async def execute(
        self,
        playoff_id: str,
        command: CommandBase,
        actor: str,
        command_id: str | None = None,
        fingerprint: str | None = None,
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
                    if fingerprint is not None and earlier[0].command_fingerprint not in (
                        None, fingerprint
                    ):
                        raise KeyReused(
                            "this Idempotency-Key (or command id) was used for another "
                            "request: send a new key for a new request"
                        )
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
                fingerprint=fingerprint,
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

