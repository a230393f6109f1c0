"""The play-off service: commands in, durable events out, state kept as their fold.

A command (:mod:`orchestrator.core.commands`) decides its events from the state; the
service applies them to a copy of the state (the same ``apply`` that rebuilds the
state at start-up), so a command that is not an allowed transition is refused
before anything is logged. The events are then appended in one transaction, and
only once the log has them durably is the command acknowledged: the state folded
while checking becomes the current state (a command is folded once), and one
:class:`~orchestrator.core.bus.Published` message goes out on the bus.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import logging
import secrets
from collections.abc import Awaitable, Callable, Sequence
from contextlib import suppress
from datetime import datetime, timedelta
from typing import Any, TypeVar

from pydantic import ValidationError

from orchestrator.core import reasons, schedule, snapshots
from orchestrator.core.access import (
    KeyScope,
    PlayoffKnownAs,
    TokenIndex,
    board_key_label,
    not_this_keys,
)
from orchestrator.core.auth import Action, Actor, Role, TokenRecord, digest, new_token
from orchestrator.core.bus import Bus, InProcessBus, Logged, Published
from orchestrator.core.commands import (
    CommandBase,
    Context,
    EventCommandBase,
    OutageRefused,
    apply_command,
    apply_event_command,
)
from orchestrator.core.computations import Computations
from orchestrator.core.creation import PlayoffOptions, extra_boards_created, playoff_created
from orchestrator.core.errors import (
    Conflict,
    LogUnavailable,
    NotFound,
    Unavailable,
)
from orchestrator.core.events import (
    EventCreated,
    PendingGameData,
    PlayoffEvent,
    PlayoffLinked,
    Stamp,
    TokenData,
    TokenIssued,
    apply_event,
    apply_playoff,
    parse_playoff_event,
)
from orchestrator.core.languages import LANGUAGES
from orchestrator.core.reasons import (
    CHANGES_NOTHING,
    diagnosis,
    reason,
    refusal_of,
    unfollowable,
)
from orchestrator.core.state import EventState, PlayoffState, event_stream, playoff_stream
from orchestrator.core.streams import StreamKind, event_streams, playoff_streams, stamp_of
from orchestrator.core.timesource import TimeSource
from orchestrator.core.watch import Watch
from orchestrator.core.writing import (
    CHIEF,
    COMMAND_REUSED,
    KEY_REUSED,
    Committed,
    Decided,
    Logging,
    Outcome,
    Request,
    as_actor,
    as_decided,
    log_unreachable,
    logging_of,
)
from orchestrator.store import (
    AppendRequest,
    AsyncEventLog,
    CommandLoggedError,
    ConcurrencyError,
    NewEvent,
    Snapshot,
    StoredEvent,
    StoreError,
    StoreUnavailableError,
)
from orchestrator.views import event_extras
from playoff_formats.errors import PlayoffError
from playoff_formats.foresight import (
    Foresight,
    PendingGame,
)
from playoff_formats.model import Event
from playoff_formats.phrase import Phrase
from playoff_formats.regulations import get_regulation, playoff_format, regulation_time_zone
from playoff_formats.schedule import Plan, PlanError
from playoff_formats.schedule.reasons import ProblemKind
from playoff_formats.standings import Standings
from playoff_formats.tiebreaks.words import short_name

S = TypeVar("S", PlayoffState, EventState)
R = TypeVar("R")

__all__ = ["Outcome", "PlayoffOptions", "Request", "Service", "new_id"]


log = logging.getLogger(__name__)


def new_id() -> str:
    return secrets.token_hex(4)


def typed(stored: StoredEvent) -> Logged:
    """A stored event of a play-off's stream as a typed, logged event."""
    return Logged(parse_playoff_event(stored.type, stored.data), stamp_of(stored))



class _Unchanged(Exception):
    """A command that repeats what is known (:attr:`CommandBase.repeats`): answered
    with no event, nothing logged."""

    def __init__(self, state: PlayoffState) -> None:
        super().__init__("nothing new")
        self.state = state

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
        computations: Computations | None = None,
    ) -> None:
        self.store = store
        self.computations = computations if computations is not None else Computations()
        self.time = time
        self.bus: Bus = bus if bus is not None else InProcessBus()
        self._ids = ids
        self._seeds = seeds
        self.utc_offset = utc_offset
        """The hall's offset from UTC, given to the play-offs created here."""
        self.event_streams = event_streams()
        self.playoff_streams = playoff_streams()
        self._events = self.event_streams.states
        self._playoffs = self.playoff_streams.states
        self.watch = Watch(self.computations)
        self._event_changes: dict[str, asyncio.Event] = {}
        self._locks: dict[str, asyncio.Lock] = {}
        self.tokens = TokenIndex()
        self.quarantined: dict[str, str] = {}
        """Streams left aside at start-up because they cannot be loaded: why, by stream."""
        self._snapshot_seq: dict[str, int] = {}
        self._recent: dict[str, dict[int, Logged]] = {}
        self._background: set[asyncio.Future[None]] = set()
        self.log_trouble: str | None = None
        self.log_damage: list[str] = []
        """What the start-up check of the log's file found damaged (empty: nothing)."""
        """Why the last write to the log failed (a full disk...), until one succeeds."""

    # ------------------------------------------------------------------ start-up

    async def load(self) -> None:
        """Rebuild every state from the log (at start-up).

        One stream that cannot be folded, or a play-off whose schedule crashes the
        planner, never stops the service: it is quarantined (logged, listed in
        :attr:`quarantined`, its id answering 503 with the reason) and the rest
        starts. A play-off the planner refuses (a ``PlayoffError``) is served with
        that reason as its schedule.
        """
        self.log_damage = await self.store.integrity(QUICK_CHECK_S)
        if self.log_damage:
            log.error("the log's file is damaged: %s", "; ".join(self.log_damage))
        try:
            kept = await self.store.snapshots()
        except StoreError as exc:  # a cache: dropped, and the log folded instead
            log.warning("snapshots not used (%s): folding the whole log", exc)
            kept = {}
        for stream in await self.store.streams(self.event_streams.prefix):
            try:
                event_state = await self._fold(stream, kept.get(stream), self.event_streams)
            except Exception as exc:
                self._quarantine(stream, exc)
                continue
            self._set_event(event_state)
            if event_state.pending:
                self._warm_computations()
        for stream in await self.store.streams(self.playoff_streams.prefix):
            try:
                playoff = await self._fold(stream, kept.get(stream), self.playoff_streams)
                if not self._snapshot_seq.get(stream):
                    # Folded from the first event: a play-off an older version let in
                    # may crash the planner. One from a snapshot was planned before.
                    try:
                        schedule.plan(playoff, self.time.now())
                    except PlanError as exc:
                        # A plan beyond the calendar is the crash an older version
                        # let in: the stream is set aside, saying what overflowed.
                        if exc.problem.kind is ProblemKind.BEYOND_THE_CALENDAR:
                            raise exc.__cause__ or exc from None
                    except (PlayoffError, ValueError):
                        pass  # the schedule says why when it is asked for
            except Exception as exc:
                self._quarantine(stream, exc)
                continue
            self._playoffs[playoff.id] = playoff

    async def _fold(self, stream: str, snapshot: Snapshot | None, kind: StreamKind[S, Any]) -> S:
        """A stream's state: its snapshot, if this code made it, and the events after;
        else (or if that fails) every event from the first."""
        start: S | None = None
        if snapshot is not None and snapshot.version == snapshots.VERSION:
            try:
                start = snapshots.load(snapshot.data, kind.state_type)
                if start.seq != snapshot.seq:
                    raise ValueError(f"it says seq {snapshot.seq}, its state {start.seq}")
            except Exception as exc:
                log.warning("%s: snapshot not used (%s); folding the whole log", stream, exc)
                start = None
        if start is not None:
            try:
                state = kind.fold(start, await self.store.read(stream, after=start.seq))
                self._snapshot_seq[stream] = start.seq
                return state
            except Exception as exc:
                log.warning("%s: the events after the snapshot do not fold onto it (%s); "
                            "folding the whole log", stream, exc)
        self._snapshot_seq[stream] = 0
        return kind.fold(None, await self.store.read(stream))

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

    def _settle(self, kind: StreamKind[S, Any], state: S, entries: Sequence[Logged]) -> None:
        """``state`` is now the state of its stream here; ``entries`` its new events
        as published, kept to answer a resent command."""
        if isinstance(state, EventState):
            self._set_event(state)
        else:
            kind.states[state.id] = state
        if entries:
            self._remember(kind.stream(state.id), entries)

    def _set_event(self, state: EventState) -> None:
        self._events[state.id] = state
        for record in state.tokens:
            self.tokens.add(state.id, record)
        changed = self._event_changes.pop(state.id, None)
        if changed is not None:
            changed.set()  # wakes whoever waits for the event to change

    def _quarantine(self, stream: str, exc: Exception) -> None:
        reason = f"{type(exc).__name__}: {diagnosis(exc)}"[:500]
        log.error("%s cannot be loaded and is left aside: %s", stream, reason)
        self.quarantined[stream] = reason

    # ------------------------------------------------------------------ reading

    def event(self, event_id: str) -> EventState:
        return self._current(self.event_streams, event_id)

    def playoff(self, playoff_id: str) -> PlayoffState:
        return self._current(self.playoff_streams, playoff_id)

    def _current(self, kind: StreamKind[S, Any], id_: str) -> S:
        """A stream's state as folded here: 404 if the log has no such stream, 503 if
        it was left aside at start-up."""
        try:
            return kind.states[id_]
        except KeyError:
            self._unavailable(kind.stream(id_))
            raise NotFound(reasons.no_such(kind.what, id_)) from None

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
            return self.plan(state).as_json()
        except (PlayoffError, ValueError) as exc:
            return {"error": reason(exc)}

    def standings(self, event_id: str) -> Standings:
        """The main event's standings (:meth:`Watch.standings`)."""
        return self.watch.standings(self.event(event_id))

    async def foresight(
        self, event_id: str, draw_rate: float | None = None, time_control: str = "classical",
        chances: Sequence[str] = (), *, who: str | None = None,
    ) -> Foresight:
        """The play-off watch of the event (:meth:`Watch.foresight`)."""
        return await self.watch.foresight(
            self.event(event_id), draw_rate, time_control, chances, who=who
        )

    def release_held(self) -> None:
        """Answer every request held for an event to change now, with the event as it
        is: a stopping server need not wait out their holds."""
        for changed in self._event_changes.values():
            changed.set()
        self._event_changes.clear()

    async def event_changed(self, event_id: str, after: int, timeout_s: float) -> EventState:
        """The event once its seq is past ``after``, or as it is after ``timeout_s``."""
        state = self.event(event_id)
        if state.seq > after or timeout_s <= 0:
            return state
        changed = self._event_changes.setdefault(event_id, asyncio.Event())
        with suppress(TimeoutError):
            await asyncio.wait_for(changed.wait(), timeout_s)
        return self.event(event_id)

    async def log(self, playoff_id: str, after: int = 0, limit: int | None = None) -> list[Logged]:
        """The play-off's logged events after ``after``, typed."""
        stored = await self.store.read(playoff_stream(playoff_id), after=after, limit=limit)
        return [typed(e) for e in stored]

    # ------------------------------------------------------------------ access

    def authorize(
        self, event_id: str, token: str | None, *, action: Action, address: str | None = None,
        what: str | None = None,
    ) -> TokenRecord:
        """The token's record for ``event_id``: 401 if missing or unknown, 429 after too
        many failures from ``address``; 404 saying what the token opens if ``event_id``
        is not its event (another's, or none); 403 if its role may not do ``action``.
        The token is checked before the event is looked up, so nobody without a token
        learns whether an id exists."""
        own, record = self.tokens.identify(token, address=address)
        if own != event_id:
            raise NotFound(not_this_keys(self.key_scope(own), event_id, "event"))
        self.tokens.permit(record, action, what)
        self.event(event_id)
        return record

    def authorize_playoff(
        self, playoff_id: str, token: str | None, *, action: Action, address: str | None = None,
        what: str | None = None,
    ) -> tuple[PlayoffState, TokenRecord]:
        """A play-off and the token's record for its event, the token checked first
        (as :meth:`authorize`)."""
        event_id, record = self.tokens.identify(token, address=address)
        state = self._playoffs.get(playoff_id)
        if state is None or state.event_id != event_id:
            if playoff_id in self._events[event_id].playoffs:
                self.playoff(playoff_id)  # linked but left aside at start-up: 503
            # Another event's or none: the same answer, what the token opens.
            raise NotFound(not_this_keys(self.key_scope(event_id), playoff_id, "play-off"))
        self.tokens.permit(record, action, what)
        return state, record

    def key_scope(self, event_id: str) -> KeyScope:
        """What a token of ``event_id`` opens, as people know it: the event's name and
        id, and its play-offs with who plays them."""
        event = self._events[event_id]
        known = []
        for playoff_id in event.playoffs:
            state = self._playoffs.get(playoff_id)
            if state is None:  # left aside at start-up: its id alone
                known.append(PlayoffKnownAs(playoff_id))
            elif state.extra is not None:
                teams = (state.extra.home, state.extra.away)
                known.append(PlayoffKnownAs(
                    playoff_id, tuple(state.names.get(t, t) for t in teams), extra_boards=True
                ))
            else:
                seeds = sorted(state.chess.participants, key=lambda p: p.seed)
                known.append(PlayoffKnownAs(
                    playoff_id, tuple(short_name(state.names.get(p.id, p.id)) for p in seeds)
                ))
        return KeyScope(event.event.name, event_id, tuple(known))

    # ------------------------------------------------------------------ writing

    async def _commit(
        self,
        kind: StreamKind[S, Any],
        id_: str,
        actor: Actor,
        decide: Callable[[S | None, datetime], Awaitable[Decided[S]]],
        *,
        logging: Logging | None = None,
        new: bool = False,
    ) -> Committed[S]:
        """The one way anything is written to the log, for both kinds of stream.

        Under the stream's lock: a command id already logged is answered from the
        log (the key sent with another request refused); otherwise ``decide`` gives
        the events and the state after them from the state as it stands (``new``: a
        stream not yet written, decided from nothing). A refusal is raised only on
        the state at the log's head. The events are appended in one transaction and
        become the state here only if the log holds exactly them: otherwise another
        worker logged the same command id first, and :class:`ConcurrencyError` says
        to fold the log and look again.
        """
        stream = kind.stream(id_)
        async with self._lock(stream):
            state = None if new else self._current(kind, id_)
            if logging is not None:
                earlier = await logging.find(self.store, stream)
                if earlier is not None:
                    logging.check(earlier[0])
                    known = kind.states.get(kind.id_of(earlier[0].stream))
                    known_seq = known.seq if known is not None else 0
                    if earlier[-1].seq > known_seq:
                        # Logged by another worker, not yet folded here: fold it first,
                        # so that the answer never runs ahead of this worker's state.
                        raise ConcurrencyError(earlier[0].stream, known_seq, earlier[-1].seq)
                    return Committed(known, tuple(earlier), None)
            seq = state.seq if state is not None else 0
            now = self.time.now()
            try:
                decided = await decide(state, now)
            except Conflict:
                await self._at_head(stream, seq)  # refused only at the log's head
                raise
            who = actor.logged()
            own = AppendRequest(
                stream, tuple(NewEvent(e.type, e.log_data()) for e in decided.events), who,
                now, expected_seq=seq,
                command_id=logging.command_id if logging is not None else None,
                fingerprint=logging.fingerprint if logging is not None else None,
            )
            try:
                if decided.created is None:
                    stored = await self.store.append_many(
                        own.stream, own.events, actor=who, recorded_at=now,
                        expected_seq=seq, command_id=own.command_id,
                        fingerprint=own.fingerprint,
                    )
                else:  # a play-off's first event, logged with its link, or neither
                    first = decided.created.events[0].event
                    stored = (await self.store.append_atomic([
                        AppendRequest(
                            playoff_stream(decided.created.state.id),
                            (NewEvent(first.type, first.log_data()),), who, now,
                            expected_seq=0,
                        ),
                        own,
                    ]))[1]
            except StoreUnavailableError as exc:
                raise self._unavailable_log(exc) from None
            self.log_trouble = None
            if not as_decided(stored, seq, decided.events, who, now):
                # Its id was logged meanwhile by another worker, with that worker's
                # decision: the log's events are the answer, folded from the log.
                raise ConcurrencyError(stream, seq, stored[-1].seq)
            if decided.created is not None:
                self._playoffs[decided.created.state.id] = decided.created.state
            self._settle(kind, decided.after, decided.entries)
        if decided.entries:
            assert isinstance(decided.after, PlayoffState)
            await self.bus.publish(Published(decided.after, decided.entries))
        if decided.created is not None:
            await self.bus.publish(decided.created)
        return Committed(decided.after, tuple(stored), decided)

    async def _retrying(
        self, attempt: Callable[[], Awaitable[R]], too_often: Phrase | None, *,
        reads_refused: bool = True,
    ) -> R:
        """``attempt``, decided again after folding what another worker sharing the log
        wrote first, at most :data:`CATCH_UP_ATTEMPTS` times; then refused with
        ``too_often`` (None: one last attempt, whatever it raises). A log out of reach
        is refused as a write that was not recorded (``reads_refused``: even when it
        was only being read)."""
        try:
            for _ in range(CATCH_UP_ATTEMPTS):
                try:
                    return await attempt()
                except (ConcurrencyError, CommandLoggedError) as exc:
                    await self.catch_up(exc.stream)
            if too_often is None:
                return await attempt()
        except StoreUnavailableError as exc:
            if not reads_refused:
                raise
            raise self._unavailable_log(exc) from None
        raise Conflict(too_often)

    # ------------------------------------------------------------------ events

    async def create_event(
        self, event: Event, *, key: Request | None = None, pending: Sequence[PendingGame] = ()
    ) -> tuple[EventState, str]:
        """Store an uploaded event; its id and the chief arbiter's token. ``event``
        holds the finished games, ``pending`` those still to be played.

        With an idempotency ``key``, the same upload sent again is answered as the
        first was (the same event, the same token: derived from the key and the log's
        secret, so that no token is kept in the clear); the key sent with another
        upload is refused (422).
        """
        command_id = key.command_id("upload") if key is not None else None
        logging = (
            Logging(command_id, key.fingerprint, KEY_REUSED, anywhere=True)
            if key is not None and command_id is not None else None
        )
        # With a key, the event's id comes from it: two workers sent the same upload
        # at once write the same stream, and the log keeps one.
        event_id = self._ids() if command_id is None else await self._derived_id(command_id)
        tokens: list[str] = []

        async def decide(_: EventState | None, now: datetime) -> Decided[EventState]:
            token = new_token() if key is None else await self._derived(
                event_stream(event_id), 1, command_id
            )
            tokens.append(token)
            created = EventCreated(
                id=event_id,
                event_json=event.model_dump_json(exclude_none=True),
                pending=tuple(
                    PendingGameData(round=p.round, white=p.white, black=p.black)
                    for p in pending
                ),
                chief=TokenData(
                    token_id="chief", role=Role.CHIEF, label="chief arbiter",
                    digest=digest(token),
                ),
            )
            return Decided((created,), apply_event(None, created, Stamp(1, now, CHIEF.logged())))

        # The same upload sent to another worker at the same moment, which logged it
        # first under the same id: its event is the answer.
        committed = await self._retrying(
            lambda: self._commit(
                self.event_streams, event_id, CHIEF, decide, logging=logging, new=True
            ),
            reasons.UPLOAD_NOT_STORED,
            reads_refused=False,
        )
        if committed.decided is None:
            first = committed.stored[0]
            return self.event(self.event_streams.id_of(first.stream)), await self._derived_token(
                first
            )
        if pending:
            self._warm_computations()
        return self.event(event_id), tokens[-1]

    def _warm_computations(self) -> None:
        """Start the watch's processes in the background (an event has games pending)."""
        task = asyncio.ensure_future(self.computations.warm())
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def execute_event(
        self, event_id: str, command: EventCommandBase, actor: Actor | str, *,
        key: Request | None = None,
    ) -> EventState:
        """A command on the main event: decided and applied on its state, then logged in
        one transaction, or refused (409) with nothing logged. A resent ``key`` is
        answered with the event as it stands, the command applied once."""
        who = as_actor(actor)

        async def decide(state: EventState | None, now: datetime) -> Decided[EventState]:
            assert state is not None
            ctx = Context(
                now=now, server_ms=self.time.server_ms(), new_seed=self._seeds,
                planned_start=lambda s, match, game: None, role=who.role,
            )
            try:
                events, after = apply_event_command(state, command, ctx, who.logged())
            except (PlayoffError, ValidationError) as exc:
                raise refusal_of(exc) from None
            if not events:
                raise Conflict(CHANGES_NOTHING)
            return Decided(tuple(events), after)

        committed = await self._retrying(
            lambda: self._commit(
                self.event_streams, event_id, who, decide, logging=logging_of(key, who)
            ),
            reasons.APPLY_TOO_OFTEN,
        )
        assert committed.state is not None
        return committed.state

    async def issue_token(
        self, event_id: str, role: Role, label: str, actor: Actor | str, *,
        key: Request | None = None, playoff: str | None = None, match: int | None = None,
        language: str | None = None,
    ) -> str:
        """A new arbiter token, display key or board key (the same again for a resent
        ``key``); a board key is for one ``match`` of one ``playoff``. ``language``: the
        one its screens open in."""
        if role is Role.CHIEF:
            raise Conflict(reasons.ONE_CHIEF_TOKEN)
        if language is not None and language not in LANGUAGES:  # every door, not only REST's
            raise Conflict(reasons.not_spoken(language))
        if role is Role.BOARD:
            # Its match, or 409.
            scoped = board_key_label(self.event(event_id), playoff, match, self.playoff)
            label = label or scoped
        elif playoff is not None or match is not None:
            raise Conflict(reasons.BOARD_KEYS_ONLY)
        who = as_actor(actor)
        logging = logging_of(key, who)
        tokens: list[str] = []

        async def decide(state: EventState | None, now: datetime) -> Decided[EventState]:
            assert state is not None
            stream = event_stream(event_id)
            token = new_token() if logging is None else await self._derived(
                stream, state.seq + 1, logging.command_id
            )
            tokens.append(token)
            issued = TokenIssued(
                token_id=self._ids(), role=role, label=label, digest=digest(token),
                playoff=playoff, match=match, language=language,
            )
            after = apply_event(state, issued, Stamp(state.seq + 1, now, who.logged()))
            return Decided((issued,), after)

        committed = await self._retrying(
            lambda: self._commit(self.event_streams, event_id, who, decide, logging=logging),
            reasons.DO_TOO_OFTEN,
            reads_refused=False,
        )
        if committed.decided is None:
            return await self._derived_token(committed.stored[0])
        return tokens[-1]

    async def _derived(self, stream: str, seq: int, command_id: str | None) -> str:
        """A token the same request can be answered with again: HMAC of the log's secret
        over where it was logged and under which command id (only its hash is kept)."""
        secret = bytes.fromhex(await self.store.secret())
        message = f"token\0{stream}\0{seq}\0{command_id}".encode()
        mac = hmac.new(secret, message, hashlib.sha256).digest()
        return base64.urlsafe_b64encode(mac[:24]).decode().rstrip("=")

    async def _derived_id(self, command_id: str) -> str:
        """An uploaded event's id, from its key's command id and the log's secret."""
        secret = bytes.fromhex(await self.store.secret())
        mac = hmac.new(secret, f"event-id\0{command_id}".encode(), hashlib.sha256)
        return mac.hexdigest()[:16]

    async def _derived_token(self, logged: StoredEvent) -> str:
        return await self._derived(logged.stream, logged.seq, logged.command_id)

    # ------------------------------------------------------------------ play-offs

    async def create_playoff(
        self, event_id: str, options: PlayoffOptions, actor: Actor | str, *,
        key: Request | None = None,
    ) -> PlayoffState:
        """Build the play-off the event's regulation requires, seeded by its tiebreaks."""
        standings = self.standings(event_id)  # refused while a game is pending
        regulation = get_regulation(self.event(event_id).event.regulation)

        def build(state: EventState) -> PlayoffEvent:
            # Checked under the event's lock, in the transaction's light: one play-off
            # per event, however many ask at once.
            if state.playoffs:
                raise Conflict(reasons.already_has_playoff(event_id, state.playoffs[0]))
            if state.pending:  # a result may have been undone meanwhile: never stale
                raise Conflict(reasons.not_final_words(state))
            return playoff_created(
                self._ids(), event_id, state.event, standings, options, self.time.now(),
                self._seeds, self.utc_offset, playoff_format(regulation, standings),
                regulation_time_zone(regulation),
            )

        return await self._create(event_id, build, as_actor(actor), key)

    async def create_extra_boards(
        self,
        event_id: str,
        home: str,
        away: str,
        scheduled: int,
        competition: str | None,
        stage_boards: int | None,
        actor: Actor | str,
        *,
        key: Request | None = None,
        time_zone: str | None = None,
    ) -> PlayoffState:
        """Extra boards for a tied bridge knock-out match (EBU 143.2.1), in the time zone
        the chief arbiter names (``time_zone``), else the event's or its regulation's."""

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
                time_zone, regulation_time_zone(get_regulation(state.event.regulation)),
            )

        return await self._create(event_id, build, as_actor(actor), key)

    async def _create(
        self,
        event_id: str,
        build: Callable[[EventState], PlayoffEvent],
        actor: Actor,
        key: Request | None = None,
    ) -> PlayoffState:
        """A play-off created and linked to its event in one transaction.

        Everything is checked before anything is logged: the creation, the link, and
        that the play-off can be planned (a date out of range, say, is refused here,
        never found at the next start).
        """
        who = actor.logged()

        async def decide(event_state: EventState | None, now: datetime) -> Decided[EventState]:
            assert event_state is not None
            try:
                created = build(event_state)
                stamp = Stamp(1, now, who)
                state = apply_playoff(None, created, stamp)
                schedule.plan(state, now)
            except (PlayoffError, ValueError) as exc:
                raise reasons.not_built(exc) from None
            linked = PlayoffLinked(playoff_id=state.id)
            linked_state = apply_event(event_state, linked, Stamp(event_state.seq + 1, now, who))
            return Decided(
                (linked,), linked_state, created=Published(state, (Logged(created, stamp),))
            )

        # Another worker may write to the event first, or make this very creation
        # (sent to both): the log is folded, and looked at again.
        committed = await self._retrying(
            lambda: self._commit(
                self.event_streams, event_id, actor, decide, logging=logging_of(key, actor)
            ),
            reasons.DO_TOO_OFTEN,
        )
        if committed.decided is None:  # the same creation sent again: the same answer
            playoff_id = str(committed.stored[0].data["playoff_id"])
            if playoff_id not in self._playoffs:
                await self.catch_up(playoff_stream(playoff_id))
            return self.playoff(playoff_id)
        assert committed.decided.created is not None
        return committed.decided.created.state

    async def execute(
        self,
        playoff_id: str,
        command: CommandBase,
        actor: Actor | str,
        command_id: str | None = None,
        fingerprint: str | None = None,
    ) -> Outcome:
        """Decide ``command``'s events, check them on the state, log them, publish them.

        :class:`~orchestrator.core.errors.Conflict` (and nothing logged) when the command
        is not an allowed transition on the play-off as the log has it. A command id
        already logged returns the events it logged then, unchanged.

        Where several workers share the log, what the log holds is the truth: a
        command is refused only on the state at the log's head (a worker behind
        folds what it missed and decides again), and one whose id another worker
        logged meanwhile is answered with that worker's events, folded here, never
        with this worker's own decision.
        """
        who = as_actor(actor)
        logging = (
            Logging(command_id, fingerprint, COMMAND_REUSED) if command_id is not None else None
        )

        async def decide(state: PlayoffState | None, now: datetime) -> Decided[PlayoffState]:
            assert state is not None
            ctx = Context(
                now=now,
                server_ms=self.time.server_ms(),
                new_seed=self._seeds,
                planned_start=lambda s, match, game: schedule.planned_start(s, match, game, now),
                role=who.role,
                board_match=who.match,
            )
            try:
                applied = apply_command(state, command, ctx, who.logged())
            except OutageRefused as exc:
                alerts.extend(a for a in (exc.alert_command(),) if a is not None)
                raise refusal_of(exc, state.names) from None
            except (PlayoffError, ValidationError) as exc:
                raise refusal_of(exc, state.names) from None
            if not applied:
                if command.repeats:
                    raise _Unchanged(state)
                raise Conflict(CHANGES_NOTHING)
            trial = applied[-1].after
            events = tuple(a.event for a in applied)
            if any(e.schedule_override for e in events):
                try:  # an override the schedule cannot follow is refused before it is logged
                    schedule.plan(trial, now)
                except (PlayoffError, ValueError) as exc:
                    raise unfollowable(exc) from None
            # What travels beside each event comes from the state just after it.
            logged = tuple(
                Logged(a.event, a.stamp, event_extras(a.event, a.after)) for a in applied
            )
            return Decided(events, trial, logged)

        # Another worker sharing the log may write to the play-off first: what it wrote
        # is folded, and the command decided again on the play-off as it now stands.
        alerts: list[CommandBase] = []
        try:
            committed = await self._retrying(
                lambda: self._commit(
                    self.playoff_streams, playoff_id, who, decide, logging=logging
                ),
                None,
            )
        except _Unchanged as unchanged:  # nothing new, nothing logged: answered so
            return Outcome(unchanged.state, (), ())
        except Conflict:
            # A refusal the consoles must hear of (a board back from too long an
            # outage): its alert is logged, and the command still refused.
            for alert in alerts[-1:]:
                await self.execute(
                    playoff_id, alert, who,
                    command_id=f"{command_id}:alert" if command_id is not None else None,
                )
            raise
        if committed.decided is None:
            assert committed.state is not None
            return Outcome(
                committed.state,
                await self._as_logged(playoff_stream(playoff_id), committed.stored),
                committed.stored, resent=True,
            )
        return Outcome(committed.decided.after, committed.decided.entries, committed.stored)

    async def _at_head(self, stream: str, seq: int) -> None:
        """Raise :class:`ConcurrencyError` if the log holds events of ``stream`` past
        ``seq``: a refusal decided on a state behind the log's is decided again."""
        head = await self.store.last_seq(stream)
        if head != seq:
            raise ConcurrencyError(stream, seq, head)

    def _remember(self, stream: str, logged: Sequence[Logged]) -> None:
        """Keep the last events folded here, with what travels beside them, to answer
        a resent command as its first answer was."""
        recent = self._recent.setdefault(stream, {})
        for entry in logged:
            recent[entry.seq] = entry
        while len(recent) > RECENT_EVENTS:
            del recent[next(iter(recent))]

    async def _as_logged(
        self, stream: str, stored: Sequence[StoredEvent]
    ) -> tuple[Logged, ...]:
        """Stored events of a play-off as logged, with what travels beside them (from
        the recent events folded here, else by folding the log up to them)."""
        recent = self._recent.get(stream, {})
        found = [recent.get(e.seq) for e in stored]
        if all(entry is not None for entry in found):
            return tuple(entry for entry in found if entry is not None)
        wanted = {e.seq for e in stored}
        _, entries = self.playoff_streams.fold_logged(
            None, await self.store.read(stream, limit=max(wanted))
        )
        return tuple(entry for entry in entries if entry.seq in wanted)

    def _unavailable_log(self, exc: StoreUnavailableError) -> LogUnavailable:
        """The refusal for a write the log could not take; the health check says so
        until a write succeeds again."""
        refusal = log_unreachable(exc)
        self.log_trouble = refusal.reason.split(":", 1)[0]
        return refusal

    def _lock(self, stream: str) -> asyncio.Lock:
        return self._locks.setdefault(stream, asyncio.Lock())

    # ------------------------------------------------------------------ several workers

    async def catch_up(self, stream: str, logged: Sequence[StoredEvent] = ()) -> bool:
        """Fold what the log has past this process's state of ``stream``: what other
        workers sharing the log wrote. ``logged`` is what one of them announced; if it
        does not follow on from the state (an announcement was missed), the log is
        read. A play-off's new events are published on this process's bus, in seq
        order, as its own commands' are. True if the state moved on."""
        async with self._lock(stream):
            if stream in self.quarantined:
                return False
            if self.playoff_streams.holds(stream):
                return await self._catch_up(self.playoff_streams, stream, logged)
            if self.event_streams.holds(stream):
                return await self._catch_up(self.event_streams, stream, logged)
            return False

    async def catch_up_all(self) -> None:
        """:meth:`catch_up` every stream of the log, the events (and their tokens) first.
        A stream that does not fold is logged and left as it was: the others go on."""
        for prefix in (self.event_streams.prefix, self.playoff_streams.prefix):
            for stream in await self.store.streams(prefix):
                try:
                    await self.catch_up(stream)
                except (StoreError, OSError):
                    raise  # the log itself is out of reach: no stream can be read
                except Exception:
                    log.exception("%s: the events past this worker's state do not fold", stream)

    async def _missed(
        self, stream: str, seq: int, logged: Sequence[StoredEvent]
    ) -> Sequence[StoredEvent]:
        new = [e for e in logged if e.seq > seq]
        if logged and not new:
            return ()
        if new and new[0].seq == seq + 1 and new[-1].seq == seq + len(new):
            return new
        return await self.store.read(stream, after=seq)

    async def _catch_up(
        self, kind: StreamKind[S, Any], stream: str, logged: Sequence[StoredEvent]
    ) -> bool:
        state = kind.states.get(kind.id_of(stream))
        missed = await self._missed(stream, state.seq if state is not None else 0, logged)
        if not missed:
            return False
        state, entries = kind.fold_logged(state, missed)
        self._settle(kind, state, entries)
        if entries:
            assert isinstance(state, PlayoffState)
            await self.bus.publish(Published(state, entries))
        return True


QUICK_CHECK_S = 10.0
"""How long the start-up check of the log's file may take (a check cut short reports
nothing it did not find)."""

RECENT_EVENTS = 256
"""Events of each play-off kept with what travels beside them, for resent commands."""


CATCH_UP_ATTEMPTS = 10
"""How often a command is decided again after another worker wrote to its play-off
first. Each retry means another command was logged: this bounds starvation only."""
