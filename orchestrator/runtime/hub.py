"""Websocket fan-out: every logged event to every client of its play-off, in order.

Each event is encoded once and offered to every connection, which writes it at
once when its socket has room; only a connection whose socket must wait (a slow
display) queues what follows, in a bounded queue, and gets a task that drains it,
so a slow display never delays the others. A connection whose queue is full is
resynced (the events and views it queued replaced by one snapshot; its acks and
errors kept); one that overflows again within ``resync_window_s`` is dropped with
4429 "too slow". A connection dropped or closed lets go of its queue and its
pending send at once, and a socket that cannot take its close frame, or whose peer
does not answer it within ``close_timeout_s``, is cut off. See docs/protocol.md.
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import time
import weakref
from collections import Counter, deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Protocol

from orchestrator.core import schedule
from orchestrator.core.auth import Role
from orchestrator.core.bus import Published
from orchestrator.core.languages import Catalogs
from orchestrator.core.state import PlayoffState
from orchestrator.core.timesource import TimeSource
from orchestrator.runtime.boards import (
    SHARE_EVERY_MS,
    BoardNews,
    Presence,
    RemoteBoards,
    ShareBoard,
    latest,
)
from orchestrator.views import ViewContext, arbiter_view, clock_view, hall_view, playoff_view
from orchestrator.views.board import board_view
from orchestrator.views.context import BoardPresence, EboardPresence
from orchestrator.views.page_words import page_words
from playoff_formats.errors import PlayoffError
from playoff_formats.placings import Awards, final_placings
from playoff_formats.playoff import champion
from playoff_formats.schedule import Plan
from playoff_formats.speech import speaking
from playoff_formats.stamps import ALLOWANCES

if TYPE_CHECKING:
    from orchestrator.core.service import Service

__all__ = ["Connection", "Hub", "Socket", "ViewKind", "encode"]

log = logging.getLogger(__name__)


def encode(t: str, seq: int, d: Any, **extra: Any) -> str:
    return json.dumps({"t": t, "seq": seq, "d": d, **extra}, separators=(",", ":"))


class Socket(Protocol):
    """What the hub needs of a websocket. One may also have ``write(data) -> bool``:
    the frame written at once, without waiting (False: it cannot now, use
    ``send_text``)."""

    async def send_text(self, data: str) -> None: ...

    async def close(self, code: int = 1000, reason: str | None = None) -> None: ...

    def abort(self) -> None:
        """Drop the connection now, whatever it still has to send."""


TOO_MANY_CODE = 1013
"""The close code of a connection refused for the limits: "try again later"."""
TOO_MANY_FOR_TOKEN = (
    "this key already has {limit} connections open: close one of them, or give this "
    "screen a key of its own"
)
TOO_MANY_FROM_ADDRESS = "{limit} connections are already open from this address"
REPLACED_CODE = 4000
REPLACED = "replaced by this client's newer connection"


@dataclass(eq=False, slots=True, weakref_slot=True)
class Connection:
    """One client of one play-off, with its own bounded send queue."""

    hub: Hub
    socket: Socket
    playoff_id: str
    role: Role
    token_id: str
    name: str = ""
    instance: str | None = None
    queue_size: int = 256
    view: ViewKind = field(default_factory=lambda: ViewKind.HALL)
    board_match: int | None = None
    """A board key's match: its connection gets that match's events and board view only."""
    language: str = "en"
    """The language its views are worded in (its key's, or the one its hello asks for)."""
    opened_ms: int | None = None
    """The server instant this connection was opened (a board's presses stamped before
    it were held by the tablet through an outage)."""
    last_seq: int = 0
    view_seq: int = -1
    holding: list[tuple[int, str, bool]] | None = field(default_factory=list)
    closed: bool = False
    last_heard: float = field(default_factory=time.monotonic)
    # Each queued frame with whether a resync may replace it (events, views, the
    # catch-up) or must keep it (acks, errors, pings: nothing else carries them).
    # Made only when a send has to wait: most connections never need one.
    _queue: deque[tuple[str, bool]] | None = None
    _kept: int = 0
    _sending: asyncio.Future[None] | None = None
    _overflowed_at: float | None = None
    _write: Callable[[str], bool] | None = None

    def __post_init__(self) -> None:
        self._write = getattr(self.socket, "write", None)

    @property
    def stalled(self) -> bool:
        """A send is waiting on the socket: it takes no more frames for now."""
        return self._sending is not None

    def offer(self, seq: int, frame: str, match: int | None = None) -> None:
        """Queue an event frame unless it was already sent; never blocks. A board's
        connection passes over the events of other matches (their seq, unsent)."""
        if self.closed or seq <= self.last_seq:
            return
        if self.board_match is not None and match != self.board_match:
            frame = ""
        if self.holding is not None:
            self.holding.append((seq, frame, True))
            return
        if not frame:
            self.last_seq = seq
            return
        if self._queue is not None and len(self._queue) >= self.queue_size:
            self.resync()
            return
        self.last_seq = seq
        self._push(frame)

    def offer_view(self, seq: int, frame: str) -> None:
        """Queue a view frame of ``seq``: after the events up to ``seq``, never before
        them, and not at all when the client already has later events (a fresher
        view follows those)."""
        if self.closed:
            return
        if self.holding is not None:
            self.holding.append((seq, frame, False))
            return
        if seq != self.last_seq:
            return
        if self._queue is not None and len(self._queue) >= self.queue_size:
            self.resync()
            return
        self.view_seq = seq
        self._push(frame)

    def send(self, frame: str, *, replaceable: bool = False) -> None:
        """Queue a frame that is not a live event: an ack, an error, a ping... kept
        through a resync; or, ``replaceable``, one that a snapshot covers (the
        catch-up's events and snapshot)."""
        if self.closed:
            return
        if not replaceable and self._kept >= self.queue_size:
            # A client that sends and never reads would grow its answers unbounded.
            self.hub.drop(self, 4429, "too slow")
            return
        self._push(frame, replaceable)

    def _push(self, frame: str, replaceable: bool = True) -> None:
        """Send now if nothing is in flight, else queue behind what is.

        A socket that can write a frame at once (``write``) takes it with no
        coroutine at all. Otherwise writing to a websocket whose buffer has room
        still completes without waiting, so the send is run eagerly, on the spot:
        no task and no task switch per frame, which is most of the cost of a
        fan-out to thousands of displays. Only a send that has to wait (a slow
        reader) becomes a task, which then drains the queue.
        """
        if self._sending is not None:
            if self._queue is None:
                self._queue = deque()
            self._queue.append((frame, replaceable))
            if not replaceable:
                self._kept += 1
            return
        try:
            if self._write is not None and self._write(frame):
                return
            coroutine = self.socket.send_text(frame)
            waiting_on = coroutine.send(None)
        except StopIteration:
            return
        except Exception:
            self._went_away()
            return
        self._sending = asyncio.ensure_future(self._finish(coroutine, waiting_on))

    async def _finish(self, coroutine: Any, waiting_on: Any) -> None:
        try:
            await _Resume(coroutine, waiting_on)
            queue = self._queue
            while queue and not self.closed:
                frame, replaceable = queue.popleft()
                if not replaceable:
                    self._kept -= 1
                if self._write is None or not self._write(frame):
                    await self.socket.send_text(frame)
        except Exception:
            self._went_away()
        finally:
            self._sending = None
            self._queue = None

    def _went_away(self) -> None:
        """The socket failed: the receiver notices the close and cleans up."""
        self.closed = True
        self._queue = None
        self._kept = 0

    def stop(self) -> None:
        """Send nothing more: let go of the queue and of a send waiting on the socket."""
        self.closed = True
        self._queue = None
        self._kept = 0
        self.holding = None
        sending, self._sending = self._sending, None
        if sending is not None:
            sending.cancel()

    def release(self, upto: int) -> None:
        """After the catch-up up to ``upto``: send what arrived meanwhile, in order."""
        held, self.holding = self.holding or [], None
        self.last_seq = max(self.last_seq, upto)
        for seq, frame, is_event in held:
            if is_event:
                self.offer(seq, frame, self.board_match if frame else None)
            else:
                self.offer_view(seq, frame)

    def resync(self) -> None:
        now = time.monotonic()
        if self._overflowed_at is not None and now - self._overflowed_at < self.hub.resync_window_s:
            self.hub.drop(self, 4429, "too slow")
            return
        self._overflowed_at = now
        # The snapshot covers every event and view queued; the answers to the
        # client's own commands follow it, in their order (their seqs are never
        # above the snapshot's, so no frame claims an event not yet sent).
        kept = [frame for frame, replaceable in self._queue or () if not replaceable]
        if self._queue is not None:
            self._queue.clear()
        self._kept = 0
        state = self.hub.service.playoff(self.playoff_id)
        self.last_seq = state.seq
        if self.board_match is None:  # a board gets its view only
            self._push(self.hub.snapshot_frame(state))
        view = self.hub.view_frame(self)
        if view is not None:
            self.view_seq = state.seq
            self._push(view)
        for frame in kept:
            self._push(frame, replaceable=False)


class _Resume:
    """Await the rest of a coroutine that was started by hand and then had to wait.

    ``waiting_on`` is what it yielded when it first suspended; every later value
    goes to the task awaiting us and every resumption back to the coroutine, as
    ``yield from`` would do.
    """

    def __init__(self, coroutine: Any, waiting_on: Any) -> None:
        self.coroutine = coroutine
        self.waiting_on = waiting_on

    def __await__(self) -> Any:
        waiting_on = self.waiting_on
        while True:
            try:
                sent = yield waiting_on
            except BaseException as exc:
                try:
                    waiting_on = self.coroutine.throw(exc)
                except StopIteration as stop:
                    return stop.value
            else:
                try:
                    waiting_on = self.coroutine.send(sent)
                except StopIteration as stop:
                    return stop.value


class ViewKind(StrEnum):
    """Which view a connection follows."""

    HALL = "hall"
    ARBITER = "arbiter"
    NONE = "none"
    BOARD = "board"

    @property
    def page(self) -> str | None:
        """The page that follows this view (its own words are in ``PAGE_WORDS``)."""
        return {"hall": "display", "arbiter": "console", "board": "clock"}.get(self.value)

    @classmethod
    def for_role(cls, role: Role, asked: object = None) -> ViewKind:
        """The view a client gets: what it asked for if its role allows, else its role's."""
        if role is Role.BOARD:
            return cls.BOARD
        if asked in (cls.HALL.value, cls.NONE.value):
            return cls(str(asked))
        return cls.HALL if role is Role.DISPLAY else cls.ARBITER


VIEW_REFRESH_MS = 5_000
"""How often the views of a watched play-off are recomputed as time passes (the
schedule re-flows with the time: a game running long moves the next ones)."""

VIEW_RESEND_MS = 15_000
"""A view that changed with the time alone is sent again at most this often, unless
an instant it names (a break's end, a game due) has passed."""


@dataclass
class _RoomViews:
    """The views of one play-off as last sent, and when to look at them again."""

    seq: int
    frames: dict[ViewKind, str]
    plan: Plan | None
    plan_json: str
    next_change_ms: int | None
    sent_ms: int
    check_ms: int
    ctx: ViewContext | None = None
    boards: dict[int, str] = field(default_factory=dict)
    spoken: dict[tuple[ViewKind, int | None, str], str] = field(default_factory=dict)
    """The views in languages other than English, each worded once per seq when first
    asked for: (kind, a board's match, language)."""


@dataclass
class Hub:
    service: Service
    time: TimeSource
    queue_size: int = 256
    heartbeat_ms: int = 15_000
    catchup_limit: int = 1000
    resync_window_s: float = 10.0
    close_timeout_s: float = 2.0
    """How long a socket may take its close frame, and its peer answer it, before
    the connection is cut off."""
    max_per_token: int = 100
    """Connections one token may hold at once (docs/policies.md)."""
    max_per_address: int = 300
    """Connections (said hello or not) from one address at once."""
    openings_per_s: float = 10.0
    """New connections one address may open a second, once its burst is spent."""
    openings_burst: int = 50
    """New connections one address may open at once (a hall's screens reconnecting)."""
    on_board_through: Callable[[str, int], None] | None = None
    """Told (play-off, match) when a board says it has sent every press up to an
    instant: a flag waiting for that board's presses may fall now."""
    share_board: ShareBoard | None = None
    """Several workers: how this one tells the others of the boards it holds."""
    remote: RemoteBoards = field(default_factory=RemoteBoards)
    """What the other workers told of the boards they hold."""
    _openings: dict[str, tuple[float, float]] = field(default_factory=dict)
    rooms: dict[str, set[Connection]] = field(default_factory=dict)
    _per_address: Counter[str] = field(default_factory=Counter)
    _per_token: dict[str, list[Connection]] = field(default_factory=dict)
    _views: dict[str, _RoomViews] = field(default_factory=dict)
    _snapshots: dict[str, tuple[int, str]] = field(default_factory=dict)
    _recent: dict[str, deque[tuple[int, str]]] = field(default_factory=dict)
    _since: dict[str, list[str]] = field(default_factory=dict)
    _tasks: set[asyncio.Future[None]] = field(default_factory=set)
    _presence: dict[tuple[str, int], Presence] = field(default_factory=dict)
    _eboards: dict[tuple[str, str], EboardPresence] = field(default_factory=dict)
    catalogs: Catalogs = field(default_factory=Catalogs)
    """The languages the views are worded in."""

    # ------------------------------------------------------------------ board clocks

    def _presence_of(self, connection: Connection) -> Presence | None:
        if connection.board_match is None:
            return None
        return self._presence.setdefault(
            (connection.playoff_id, connection.board_match), Presence()
        )

    def heard(self, connection: Connection) -> None:
        """A frame came from a board's connection: it is online, heard now."""
        presence = self._presence_of(connection)
        if presence is not None:
            presence.last_heard_ms = self.time.server_ms()
            self._share(connection.playoff_id, connection.board_match)

    def board_status(
        self, connection: Connection, battery: float | None, charging: bool | None
    ) -> None:
        """A board told its battery (``board-status``): kept in memory, never logged."""
        presence = self._presence_of(connection)
        if presence is not None:
            presence.battery, presence.charging = battery, charging
            self.heard(connection)

    def board_through(self, connection: Connection, through_ms: int) -> None:
        """A board says it has sent every press it stamped before ``through_ms``: the
        frames of one connection arrive in order, so none of them is still on its way.
        A stamp ahead of the server's time by more than the future allowance is the
        board's offset's error: taken as that far ahead."""
        presence = self._presence_of(connection)
        if presence is None or connection.board_match is None:
            return
        through_ms = min(through_ms, self.time.server_ms() + ALLOWANCES.future_ms)
        if presence.through_ms is not None and through_ms <= presence.through_ms:
            return
        presence.through_ms = through_ms
        self._share(connection.playoff_id, connection.board_match)
        if self.on_board_through is not None:
            self.on_board_through(connection.playoff_id, connection.board_match)

    def eboard_status(
        self, playoff_id: str, serial: str, state: str | None, battery: str | None
    ) -> bool:
        """An e-board's state and battery as its forwarder reports them: kept in memory,
        never logged. True when the consoles should hear of it (a change of state or
        battery, or a board not reported for a while)."""
        now = self.time.server_ms()
        before = self._eboards.get((playoff_id, serial))
        self._eboards[(playoff_id, serial)] = EboardPresence(serial, state, battery, now)
        return before is None or (before.state, before.battery) != (state, battery) or (
            now - before.last_heard_ms > 20_000
        )

    def eboards(self, playoff_id: str) -> tuple[EboardPresence, ...]:
        return tuple(
            presence for (pid, _), presence in sorted(self._eboards.items()) if pid == playoff_id
        )

    def board_left(self, connection: Connection) -> None:
        """A board's connection ended: the other workers hear of it at once."""
        if connection.board_match is not None:
            self._share(connection.playoff_id, connection.board_match)

    def _share(self, playoff_id: str, match: int | None) -> None:
        """Tell the other workers how this one hears the board, when it changed (or
        every :data:`SHARE_EVERY_MS` while it is heard)."""
        if self.share_board is None or match is None:
            return
        presence = self._presence.get((playoff_id, match))
        if presence is None:
            return
        news = BoardNews(
            self._local_online(playoff_id, match), presence.last_heard_ms,
            presence.through_ms, presence.battery, presence.charging,
        )
        before = presence.shared
        if before is not None and (before.online, before.through_ms, before.battery) == (
            news.online, news.through_ms, news.battery
        ) and (news.heard_ms or 0) - (before.heard_ms or 0) < SHARE_EVERY_MS:
            return
        presence.shared = news
        self.share_board(playoff_id, match, news)

    def board_news(self, worker: str, playoff_id: str, match: int, news: BoardNews) -> None:
        """Another worker's word on a board it holds (its connection is there)."""
        if self.remote.told(worker, playoff_id, match, news) and self.on_board_through:
            self.on_board_through(playoff_id, match)

    def board_through_ms(self, playoff_id: str, match: int) -> int | None:
        """The instant up to which a board of ``match`` has sent every press it made,
        as this worker or another heard it."""
        presence = self._presence.get((playoff_id, match))
        return latest(presence.through_ms if presence is not None else None,
                      self.remote.through_ms(playoff_id, match))

    def _local_online(self, playoff_id: str, match: int) -> bool:
        return any(
            c.board_match == match and not c.closed for c in self.rooms.get(playoff_id, ())
        )

    def board_online(self, playoff_id: str, match: int) -> bool:
        """A board of ``match`` is connected, to this worker or (as another says) to it."""
        return self._local_online(playoff_id, match) or self.remote.online(
            playoff_id, match, self.time.server_ms()
        )

    def board_heard_ms(self, playoff_id: str, match: int) -> int | None:
        """When a board of ``match`` was last heard, by this worker or another (None:
        never)."""
        presence = self._presence.get((playoff_id, match))
        return latest(presence.last_heard_ms if presence is not None else None,
                      self.remote.heard_ms(playoff_id, match))

    def presences(self, state: PlayoffState) -> tuple[BoardPresence, ...]:
        """Each match of ``state`` with a board key issued, as heard here or by the
        worker that holds its board."""
        try:
            tokens = self.service.event(state.event_id).tokens
        except Exception:  # the event left aside: no boards to show
            return ()
        matches = sorted({
            t.match for t in tokens
            if t.role is Role.BOARD and t.playoff == state.id and t.match is not None
        })
        rows = []
        for match in matches:
            presence = self._presence.get((state.id, match), Presence())
            heard = presence.last_heard_ms
            battery, charging = presence.battery, presence.charging
            remote = self.remote.last(state.id, match)
            if remote is not None and (heard is None or (remote.heard_ms or 0) > heard):
                heard, battery, charging = remote.heard_ms, remote.battery, remote.charging
            rows.append(BoardPresence(
                match=match, online=self.board_online(state.id, match),
                last_heard_ms=heard, battery=battery, charging=charging,
            ))
        return tuple(rows)

    async def on_published(self, message: Published) -> None:
        """Each event to every client of its play-off, then the new views."""
        state = message.state
        frames = [
            (logged.seq, encode("event", logged.seq, logged.wire())) for logged in message.events
        ]
        recent = self._recent.get(state.id)
        if recent is None:
            recent = self._recent[state.id] = deque(maxlen=self.catchup_limit)
        recent.extend(frames)
        self._since.setdefault(state.id, []).extend(
            logged.event.type for logged in message.events
        )
        room = self.rooms.get(state.id)
        if not room:
            return
        connections = list(room)
        # The events first, to every client: writing them goes out at once, and the
        # views (milliseconds of planning) never hold back what the hall waits for.
        matches = [getattr(logged.event, "match", None) for logged in message.events]
        for connection in connections:
            for (seq, frame), match in zip(frames, matches, strict=True):
                connection.offer(seq, frame, match)
        # A press changes only a clock, which its event frame carries: no new view,
        # but for a client that has none yet.
        fresh = not message.clocks_alone
        if not fresh and all(c.view_seq >= 0 for c in connections):
            return
        views = self.views(state, force=fresh)
        for connection in connections:
            if connection.view is ViewKind.NONE:
                continue
            if fresh or connection.view_seq < 0:
                connection.offer_view(state.seq, self._frame_of(views, connection, state))

    def recent_frames(self, playoff_id: str, after: int, upto: int) -> list[str] | None:
        """The event frames ``after < seq <= upto`` as sent live (with their clocks), if
        this process still holds every one of them; else None (read the log)."""
        recent = self._recent.get(playoff_id)
        if recent is None or not recent or recent[0][0] > after + 1 or recent[-1][0] < upto:
            return None if upto > after else []
        return [frame for seq, frame in recent if after < seq <= upto]

    def view_context(self, state: PlayoffState) -> ViewContext:
        cached = self._views.get(state.id)
        now = self.time.now()
        server_ms = self.time.server_ms()
        try:  # the schedule as of the view's own instant, not a moment later
            plan: Plan | None = schedule.plan(state, now)
            error = None
        except (PlayoffError, ValueError) as exc:
            plan, error = None, str(exc.args[0]) if exc.args else str(exc)
        placings: Awards | None = None
        if state.playoff is not None and champion(state.playoff) is not None:
            standings = self.service.standings(state.event_id)
            placings = final_placings(standings, state.playoff, state.prizes, state.points)
        return ViewContext(
            now=now, server_ms=server_ms, plan=plan, plan_error=error, placings=placings,
            previous_plan=cached.plan if cached is not None else None,
            since=tuple(self._since.get(state.id, ())),
            boards=self.presences(state),
            eboards=self.eboards(state.id),
        )

    def views(self, state: PlayoffState, *, force: bool = False) -> _RoomViews:
        """The views of ``state`` (each computed once and encoded once per seq)."""
        cached = self._views.get(state.id)
        if cached is not None and cached.seq == state.seq and not force:
            return cached
        ctx = self.view_context(state)
        self._since.pop(state.id, None)
        hall = hall_view(state, ctx)
        arbiter = arbiter_view(state, ctx)
        now_ms = ctx.server_ms
        views = _RoomViews(
            seq=state.seq,
            frames={
                ViewKind.HALL: encode("view", state.seq, hall),
                ViewKind.ARBITER: encode("view", state.seq, arbiter),
            },
            plan=ctx.plan,
            plan_json=json.dumps(ctx.schedule_json(), sort_keys=True),
            next_change_ms=_earliest(hall.get("next_change_ms"), arbiter.get("next_change_ms")),
            sent_ms=now_ms,
            check_ms=now_ms + VIEW_REFRESH_MS,
            ctx=ctx,
        )
        self._views[state.id] = views
        return views

    def _frame_of(self, views: _RoomViews, connection: Connection, state: PlayoffState) -> str:
        """The view frame of ``connection``'s kind (a board's, of its match), in its
        language."""
        match = connection.board_match if connection.view is ViewKind.BOARD else None
        if connection.language != "en":
            key = (connection.view, match, connection.language)
            frame = views.spoken.get(key)
            if frame is None:
                ctx = views.ctx or self.view_context(state)
                with speaking(self.catalogs.language(connection.language)):
                    frame = encode("view", state.seq, self._worded(state, ctx, connection.view,
                                                                   match))
                views.spoken[key] = frame
            return frame
        if connection.view is not ViewKind.BOARD or match is None:
            return views.frames[connection.view]
        frame = views.boards.get(match)
        if frame is None:
            ctx = views.ctx or self.view_context(state)
            frame = views.boards[match] = encode("view", state.seq, board_view(state, ctx, match))
        return frame

    @staticmethod
    def _worded(
        state: PlayoffState, ctx: ViewContext, kind: ViewKind, match: int | None
    ) -> dict[str, Any]:
        if kind is ViewKind.BOARD and match is not None:
            return board_view(state, ctx, match)
        return arbiter_view(state, ctx) if kind is ViewKind.ARBITER else hall_view(state, ctx)

    def refresh_boards(self, playoff_id: str) -> None:
        """Send the consoles of ``playoff_id`` the boards as heard now (a board came or
        went, or told its battery): presence is not logged, so no event carries it."""
        room = self.rooms.get(playoff_id)
        if not room:
            return
        state = self.service.playoff(playoff_id)
        fresh = self.views(state, force=True)
        for connection in list(room):
            if connection.view is ViewKind.ARBITER:
                connection.offer_view(state.seq, self._frame_of(fresh, connection, state))

    def refresh_views(self) -> None:
        """Send the views that the time alone has changed (see :data:`VIEW_REFRESH_MS`)."""
        now_ms = self.time.server_ms()
        for playoff_id, room in list(self.rooms.items()):
            cached = self._views.get(playoff_id)
            if not room or cached is None:
                continue
            boundary = cached.next_change_ms is not None and now_ms >= cached.next_change_ms
            if not boundary and now_ms < cached.check_ms:
                continue
            state = self.service.playoff(playoff_id)
            if state.seq != cached.seq:
                continue  # a command is being published: its views follow it
            before = cached.plan_json
            if not boundary and now_ms - cached.sent_ms < VIEW_RESEND_MS:
                cached.check_ms = now_ms + VIEW_REFRESH_MS
                continue
            fresh = self.views(state, force=True)
            if not boundary and fresh.plan_json == before:
                fresh.sent_ms = cached.sent_ms
                continue
            for connection in list(room):
                if connection.view is not ViewKind.NONE:
                    connection.offer_view(state.seq, self._frame_of(fresh, connection, state))

    def snapshot_frame(self, state: PlayoffState) -> str:
        """The whole state (cached per seq) and the clocks as they are now."""
        cached = self._snapshots.get(state.id)
        if cached is None or cached[0] != state.seq:
            ctx = self.views(state)
            view = playoff_view(state, json.loads(ctx.plan_json))
            cached = (state.seq, json.dumps(view, separators=(",", ":")))
            self._snapshots[state.id] = cached
        now = self.time.server_ms()
        clocks = [clock_view(key, clock, now) for key, clock in sorted(state.clocks.items())]
        return (
            f'{{"t":"snapshot","seq":{state.seq},"d":{{"state":{cached[1]},'
            f'"clocks":{json.dumps(clocks, separators=(",", ":"))}}}}}'
        )

    def page_words(self, connection: Connection) -> dict[str, str] | None:
        """The words the page of ``connection`` writes itself, in its language (None in
        English, which the pages are written in)."""
        page = connection.view.page
        if connection.language == "en" or page is None:
            return None
        with speaking(self.catalogs.language(connection.language)):
            return page_words(page)

    def view_frame(self, connection: Connection) -> str | None:
        """The current view for ``connection`` (None if it follows none)."""
        if connection.view is ViewKind.NONE:
            return None
        state = self.service.playoff(connection.playoff_id)
        return self._frame_of(self.views(state), connection, state)

    async def run_heartbeats(self) -> None:
        """One loop for every connection: a ping each interval, a close for a client
        silent for three (far cheaper than a task per connection), and the views
        that time has changed.

        The pings of a round go out a share at each turn of the loop, spread over
        the interval: thousands at once would hold up a press behind them for tens
        of milliseconds. A round holds its connections weakly: one that leaves is
        let go at once."""
        pending: list[weakref.ref[Connection]] = []
        share = 0
        round_began = time.monotonic()
        while True:
            interval = self.heartbeat_ms / 1000
            tick = min(interval, 0.25)
            await asyncio.sleep(tick)
            try:
                self.refresh_views()
            except Exception:  # a view must never stop the heartbeats
                log.exception("refreshing the views failed")
            now = time.monotonic()
            if not pending:
                if now - round_began < interval:
                    continue
                round_began = now
                pending = [weakref.ref(c) for room in self.rooms.values() for c in room]
                share = math.ceil(len(pending) * tick / interval)
            turn, pending = pending[-share:], pending[:-share]
            self._ping(turn, now, interval)

    def _ping(
        self, connections: list[weakref.ref[Connection]], now: float, interval: float
    ) -> None:
        server_ms = {"server_ms": self.time.server_ms()}
        frames: dict[int, str] = {}  # one encoding per seq: most clients share theirs
        for ref in connections:
            connection = ref()
            if connection is None or connection.closed:
                continue
            if now - connection.last_heard > 3 * interval:
                self.drop(connection, 4408, "silent for three heartbeats")
                continue
            # Its own seq: a ping never claims an event it has not sent.
            seq = connection.last_seq
            frame = frames.get(seq)
            if frame is None:
                frame = frames[seq] = encode("ping", seq, server_ms)
            connection.send(frame)

    def may_open(self, address: str | None) -> bool:
        """Whether ``address`` may open another socket now: at most
        :attr:`openings_per_s` a second (bursts of :attr:`openings_burst`). Refused
        before the handshake completes, a flood of connections costs the loop that
        serves the clocks next to nothing."""
        if address is None:
            return True
        now = time.monotonic()
        level, at = self._openings.get(address, (float(self.openings_burst), now))
        level = min(float(self.openings_burst), level + (now - at) * self.openings_per_s)
        if level < 1:
            self._openings[address] = (level, now)
            return False
        self._openings[address] = (level - 1, now)
        if len(self._openings) > 10_000:  # addresses long quiet are full again: forget them
            self._openings = {
                a: (lv, t) for a, (lv, t) in self._openings.items()
                if now - t < self.openings_burst / self.openings_per_s
            }
        return True

    def opened(self, address: str | None) -> str | None:
        """A socket opened from ``address``: counted, or why it is refused (the
        address holds :attr:`max_per_address` already)."""
        if address is None:
            return None
        if self._per_address[address] >= self.max_per_address:
            return TOO_MANY_FROM_ADDRESS.format(limit=self.max_per_address)
        self._per_address[address] += 1
        return None

    def ended(self, address: str | None) -> None:
        """A socket counted by :meth:`opened` has ended."""
        if address is not None:
            self._per_address[address] -= 1
            if self._per_address[address] <= 0:
                del self._per_address[address]

    def admit(self, token_id: str, instance: str | None) -> str | None:
        """Room for one more connection of ``token_id``, or why there is none.

        A client's earlier connection (the same ``instance`` id in its hello) is
        closed as replaced first: a screen that reconnects is never refused for its
        own connection, which the server may not yet have seen die. Past that, a
        token holds at most :attr:`max_per_token`."""
        held = self._per_token.get(token_id, [])
        if instance:
            for older in [c for c in held if c.instance == instance]:
                self.drop(older, REPLACED_CODE, REPLACED)
            held = self._per_token.get(token_id, [])
        if len(held) < self.max_per_token:
            return None
        return TOO_MANY_FOR_TOKEN.format(limit=self.max_per_token)

    def join(self, connection: Connection) -> None:
        self.rooms.setdefault(connection.playoff_id, set()).add(connection)
        self._per_token.setdefault(connection.token_id, []).append(connection)

    def leave(self, connection: Connection) -> None:
        connection.stop()
        room = self.rooms.get(connection.playoff_id)
        if room is not None:
            room.discard(connection)
        held = self._per_token.get(connection.token_id)
        if held is not None and connection in held:
            held.remove(connection)
            if not held:
                del self._per_token[connection.token_id]

    def drop(self, connection: Connection, code: int, reason: str) -> None:
        """Close ``connection`` with ``code``; everything it holds is freed at once."""
        closing = self._shut(connection, code, reason)
        if closing is not None:
            task = asyncio.ensure_future(closing)
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    def _shut(self, connection: Connection, code: int, reason: str) -> Awaitable[None] | None:
        """Leave, and either cut the connection off now or return its closing."""
        stalled = connection.stalled
        self.leave(connection)
        if stalled:
            # A close frame would wait behind the frames the socket has not taken
            # (megabytes, for a display that stopped reading): cut it off now.
            _abort(connection.socket)
            return None
        return _close(connection.socket, code, reason, self.close_timeout_s)

    def cut_off_later(self, socket: Socket) -> None:
        """Cut ``socket`` off ``close_timeout_s`` from now, if it is still open then."""
        asyncio.get_running_loop().call_later(self.close_timeout_s, _abort, socket)

    def count(self, playoff_id: str | None = None) -> int:
        """Connected clients, of one play-off or of all."""
        if playoff_id is not None:
            return len(self.rooms.get(playoff_id, ()))
        return sum(len(room) for room in self.rooms.values())

    async def close_all(self, code: int = 1012, reason: str = "the service is restarting") -> None:
        """Close every connection at once; none waits on another, and none longer
        than ``close_timeout_s``."""
        connections = [c for room in self.rooms.values() for c in room]
        closings = [self._shut(c, code, reason) for c in connections]
        await asyncio.gather(*(closing for closing in closings if closing is not None))



def _earliest(*instants: int | None) -> int | None:
    known = [t for t in instants if t is not None]
    return min(known) if known else None


async def _close(socket: Socket, code: int, reason: str, timeout: float) -> None:
    """Send the close frame; cut the connection off if the socket does not take it
    within ``timeout``, or if the peer has not answered it ``timeout`` later."""
    try:
        async with asyncio.timeout(timeout):
            await socket.close(code=code, reason=reason)
    except Exception:  # not taken in time, or already closed
        _abort(socket)
        return
    asyncio.get_running_loop().call_later(timeout, _abort, socket)


def _abort(socket: Socket) -> None:
    try:
        socket.abort()
    except Exception:  # a transport already gone
        log.debug("aborting a closed socket failed", exc_info=True)
