"""Moves and clocks from DGT e-boards, read by DGT LiveChess, forwarded to the service.

Per e-board (``EBoardWatch``, a pure value): a placement is *settled* once it has
stood unchanged for ``settle_ms`` (a piece lifted and put down elsewhere is one
move, not two positions), or at once when the DGT clock's ``run`` flips, since the
player pressed: the move is made. A placement that only lacks pieces of the last
one sent is a piece in the air, never a move: it is not sent. What goes to the
service (docs/protocol.md, "DGT e-boards (LiveChess)"):

- ``board-position``: each settled placement that differs from the last one sent;
- ``press`` with ``board_clock``: each flip of ``run`` (true to false: White
  pressed; false to true: Black pressed), after the position it belongs to;
- ``board-flag``: once, when the running side's time shows 0;
- ``eboard-status``: each board's state and battery, on a change and every 10 s;
- ``map-eboard``: the boards ``--map`` puts where the service does not have them yet,
  once at the start.

Which board plays which match comes from ``--map`` and then from the service (the
arbiter view's ``eboards``, and the ``eboard-mapped`` events); a board mapped to no
match is listed and not forwarded.

Two clocks: LiveChess stamps frames with the epoch ms of its machine, turned into the
server's time with the offset the websocket client measures (the forwarder runs on
that machine: ``livechess_ms`` is its clock); settling is timed on the forwarder's
own monotonic clock, from when each frame arrived.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
import uuid
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Final

from .client import PlayoffClient
from .clock import wall_ms
from .errors import ClientError, CommandError
from .livechess import DgtClock, EBoard, FeedUpdate, LiveChess, LiveChessError

SETTLE_MS: Final = 300
STATUS_EVERY_MS: Final = 10_000
"""How often each board's state and battery go to the service when nothing changed."""
POLL_MS: Final = 2_000
"""How often LiveChess is asked for its boards (their state and battery, new boards)."""
FIRST_VIEW_S: Final = 5.0
"""How long the ``--map`` waits for the service's first view, to send only what changes."""
GAME_WAIT_S: Final = 3.0
"""How long a press waits to learn which game of its match is in play."""
AGAIN: Final = frozenset({"rate-limited", "unavailable"})
"""The refusals after which the same command goes again (the service applied nothing):
a hall's boards can send more than a connection's commands a second."""
RETRY_FIRST_S: Final = 0.05
RETRY_LAST_S: Final = 2.0


def monotonic_ms() -> int:
    return time.monotonic_ns() // 1_000_000


# ------------------------------------------------------------------ the pure part


@dataclass(frozen=True, slots=True)
class Settled:
    """A placement that stood: the board's position, shown at ``at_ms`` (LiveChess ms)."""

    placement: str
    at_ms: int


@dataclass(frozen=True, slots=True)
class Pressed:
    """``side`` pressed the clock; ``clock`` is the reading just after."""

    side: str
    clock: DgtClock


@dataclass(frozen=True, slots=True)
class Flagged:
    """The running side's time shows 0."""

    side: str
    clock: DgtClock


Sending = Settled | Pressed | Flagged


def _pieces(placement: str) -> dict[int, str]:
    """The squares (0 = a8 ... 63 = h1) and the pieces on them."""
    squares: dict[int, str] = {}
    index = 0
    for char in placement:
        if char == "/":
            continue
        if char.isdigit():
            index += int(char)
        else:
            squares[index] = char
            index += 1
    return squares


def lifted_from(placement: str, before: str) -> bool:
    """``placement`` is ``before`` with pieces taken off and none put down: a hand
    holding a piece, never the end of a legal move (which puts a piece on a square)."""
    now, then = _pieces(placement), _pieces(before)
    return len(now) < len(then) and all(then.get(square) == piece for square, piece in now.items())


@dataclass(frozen=True, slots=True)
class EBoardWatch:
    """What one e-board shows and what of it was sent: every transition returns a new
    value and what to send, in order."""

    settle_ms: int = SETTLE_MS
    seen: str | None = None
    """The placement on the board now."""
    seen_ms: int = 0
    """When it appeared, on LiveChess's clock (the stamp sent with it)."""
    seen_local_ms: int = 0
    """When it reached the forwarder, on its clock (what settling is timed by)."""
    sent: str | None = None
    """The last placement sent."""
    clock: DgtClock | None = None
    flag_sent: str | None = None
    """The side whose flag was sent (once)."""

    @property
    def pending(self) -> bool:
        """A placement on the board that may still have to go."""
        return self.seen is not None and self.seen != self.sent and not (
            self.sent is not None and lifted_from(self.seen, self.sent)
        )

    def due_ms(self) -> int | None:
        """When the placement on the board settles (the forwarder's clock), if pending."""
        return self.seen_local_ms + self.settle_ms if self.pending else None

    def placed(
        self, placement: str, at_ms: int, local_ms: int
    ) -> tuple[EBoardWatch, list[Sending]]:
        """The board shows ``placement`` (a frame stamped ``at_ms``, arrived ``local_ms``)."""
        if placement == self.seen:
            return self, []
        state, out = self.tick(local_ms)  # what stood long enough before it, settled
        return replace(state, seen=placement, seen_ms=at_ms, seen_local_ms=local_ms), out

    def tick(self, local_ms: int) -> tuple[EBoardWatch, list[Sending]]:
        """The forwarder's clock reads ``local_ms``: the placement settles if it stood."""
        due = self.due_ms()
        if due is None or local_ms < due:
            return self, []
        return self._flush()

    def clocked(self, clock: DgtClock) -> tuple[EBoardWatch, list[Sending]]:
        """The DGT clock reads ``clock``: a flip of ``run`` is a press (the position
        on the board goes first, at once); a running side at 0, a flag (once)."""
        before = self.clock
        state, out = replace(self, clock=clock), list[Sending]()
        if before is not None and before.run is not None and clock.run is not None \
                and clock.run != before.run:
            assert before.running is not None
            if self.pending:
                state, out = replace(self, clock=clock)._flush()
            out.append(Pressed(before.running, clock))
        side = clock.running or (before.running if before is not None else None)
        if side is not None and clock.seconds(side) <= 0 and state.flag_sent != side:
            out.append(Flagged(side, clock))
            state = replace(state, flag_sent=side)
        elif state.flag_sent is not None and clock.seconds(state.flag_sent) > 0:
            state = replace(state, flag_sent=None)  # time given back, or a new game
        return state, out

    def _flush(self) -> tuple[EBoardWatch, list[Sending]]:
        assert self.seen is not None
        return replace(self, sent=self.seen), [Settled(self.seen, self.seen_ms)]


def board_clock(clock: DgtClock) -> dict[str, int]:
    """A DGT clock's reading as the service takes it (a press's ``board_clock``)."""
    return {"white_ms": clock.white_s * 1000, "black_ms": clock.black_s * 1000}


class MapError(ValueError):
    """A ``--map`` that does not say SERIAL=MATCH."""


def parse_map(values: Iterable[str]) -> dict[str, int | None]:
    """``--map 23946=1`` (``23946=none`` unmaps): serial to match, in people's words."""
    mapping: dict[str, int | None] = {}
    for value in values:
        serial, sep, match = value.partition("=")
        serial, match = serial.strip(), match.strip()
        if not sep or not serial or not match:
            raise MapError(
                f"--map takes an e-board's serial number and a match, as 23946=1, not {value!r}"
            )
        if match.lower() in ("none", "-"):
            mapping[serial] = None
            continue
        if not match.isdigit() or int(match) < 1:
            raise MapError(
                f"--map {value}: the match is a number from 1 (or 'none'), not {match!r}"
            )
        if serial in mapping and mapping[serial] != int(match):
            raise MapError(f"--map gives board {serial} two matches")
        mapping[serial] = int(match)
    return mapping


# ------------------------------------------------------------------ forwarding


@dataclass
class _Board:
    watch: EBoardWatch
    status: tuple[str | None, str | None, int | None] | None = None
    status_ms: int = 0
    match: int | None = None
    """The match it was last forwarded to (a change starts the board afresh)."""


@dataclass
class Forwarder:
    """Forwards LiveChess's e-boards to one play-off until cancelled.

    ``say`` gets a line for each move the service made of a position sent, for each
    board mapped or not forwarded, and for each refusal, in the service's words."""

    server: str
    playoff_id: str
    token: str
    livechess_url: str
    mapping: dict[str, int | None] = field(default_factory=dict)
    settle_ms: int = SETTLE_MS
    say: Callable[[str], None] = print
    livechess_ms: Callable[[], int] = wall_ms
    local_ms: Callable[[], int] = monotonic_ms
    sent: list[dict[str, Any]] = field(default_factory=list)
    """The last commands answered, in order: type, fields, and the seqs logged or the
    service's refusal."""

    def __post_init__(self) -> None:
        self._given = dict(self.mapping)
        self._boards: dict[str, _Board] = {}
        self._in_play: dict[int, int] = {}
        self._learnt = asyncio.Event()
        self._viewed = asyncio.Event()
        self._service: dict[str, int | None] = {}  # where the service has the boards
        self._wake = asyncio.Event()
        self._playoff: PlayoffClient | None = None
        self._ours: set[int] = set()  # the seqs the positions sent were logged at
        self._said: dict[int, str] = {}  # a line for each such event, by seq
        self._refusals: dict[tuple[str, str], str] = {}  # the last said, by command and board

    async def run(self) -> None:
        """Forward until cancelled; LiveChess lost is reconnected (after a pause)."""
        async with PlayoffClient(
            self.server, self.playoff_id, self.token, name="playoff-arbiter dgt",
            view="arbiter", now_ms=self.livechess_ms,
        ) as playoff:
            self._playoff = playoff
            follower = asyncio.create_task(self._follow(playoff), name="dgt follow")
            try:
                await self._map_given()
                pause = 1.0
                while True:
                    try:
                        async with LiveChess(self.livechess_url,
                                             received_ms=self.local_ms) as live:
                            pause = 1.0
                            await self._forward(live)
                    except LiveChessError as exc:
                        if not self._boards:
                            raise  # never reached: the address is wrong, say so
                        self.say(f"{exc}: trying again in {pause:g} s")
                        await asyncio.sleep(pause)
                        pause = min(pause * 2, 10.0)
            finally:
                follower.cancel()
                await asyncio.gather(follower, return_exceptions=True)

    async def _map_given(self) -> None:
        """``--map``: each board the service does not have on that match yet is put
        there (after the first view, which says where the service has them)."""
        if not self._given:
            return
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(FIRST_VIEW_S):
                await self._viewed.wait()
        for serial, match in self._given.items():
            if self._service.get(serial) != match:
                self.mapping[serial] = match
                await self._send("map-eboard", serial, serial=serial, match=match)
                if "refused" in self.sent[-1]:  # said: the board stays where it was
                    self.mapping[serial] = self._service.get(serial)

    # -- the main loop ---------------------------------------------------------

    async def _forward(self, live: LiveChess) -> None:
        """Follow one connection to LiveChess until it is lost."""
        subscribed: set[str] = set()
        await self._poll(live, subscribed)
        next_poll = self.local_ms() + POLL_MS
        waiting: asyncio.Task[FeedUpdate] | None = None
        woken: asyncio.Task[bool] | None = None
        try:
            while True:
                if self._wake.is_set():
                    self._wake.clear()
                    await self._follow_mapping(live)
                update = live.pending_update()
                if update is None:
                    now = self.local_ms()
                    due = min([next_poll, *self._due()])
                    if due > now:
                        waiting = waiting or asyncio.create_task(live.next_update())
                        woken = woken or asyncio.create_task(self._wake.wait())
                        await asyncio.wait({waiting, woken}, timeout=(due - now) / 1000,
                                           return_when=asyncio.FIRST_COMPLETED)
                        if waiting.done():
                            update, waiting = waiting.result(), None
                        if woken.done():
                            woken = None
                if update is not None:
                    await self._on_update(update)
                    continue  # what has arrived first; the clock after
                await self._tick()
                if self.local_ms() >= next_poll:
                    await self._poll(live, subscribed)
                    next_poll = self.local_ms() + POLL_MS
        finally:
            for task in (waiting, woken):
                if task is not None:
                    task.cancel()

    def _due(self) -> list[int]:
        return [due for serial, board in self._boards.items()
                if self.mapping.get(serial) is not None
                and (due := board.watch.due_ms()) is not None]

    async def _on_update(self, update: FeedUpdate) -> None:
        serial = update.board.serial
        board = self._boards.get(serial)
        if board is None or self.mapping.get(serial) is None:
            return
        # What stood on the board until this frame arrived settled then.
        watch, out = board.watch.tick(update.received_ms)
        if update.placement_changed and update.board.placement is not None:
            watch, more = watch.placed(update.board.placement, update.board.time_ms,
                                       update.received_ms)
            out += more
        if update.clock_changed and update.board.clock is not None:
            watch, more = watch.clocked(update.board.clock)
            out += more
        board.watch = watch
        for sending in out:
            await self._send_out(serial, sending)

    async def _tick(self) -> None:
        now = self.local_ms()
        for serial, board in self._boards.items():
            if self.mapping.get(serial) is None:
                continue
            board.watch, out = board.watch.tick(now)
            for sending in out:
                await self._send_out(serial, sending)

    async def _poll(self, live: LiveChess, subscribed: set[str]) -> None:
        """LiveChess's boards now: each one followed, and its status sent on a change
        and every ``STATUS_EVERY_MS``."""
        for found in await live.eboards():
            if found.serial in subscribed:
                continue
            await live.subscribe(found.serial)
            subscribed.add(found.serial)
            if found.serial not in self._boards:
                self._boards[found.serial] = _Board(EBoardWatch(self.settle_ms))
        await self._follow_mapping(live)

    async def _statuses(self, live: LiveChess) -> None:
        now = self.local_ms()
        for serial, board in self._boards.items():
            known = live.board(serial) or EBoard(serial)
            status = (known.state, known.battery, self.mapping.get(serial))
            if status != board.status or now - board.status_ms >= STATUS_EVERY_MS:
                board.status, board.status_ms = status, now
                await self._send("eboard-status", serial, serial=serial, state=known.state,
                                 battery=known.battery)

    async def _follow_mapping(self, live: LiveChess) -> None:
        """A board given another match (or none) starts afresh: the position it shows
        goes out once it settles, so the service hears where the game stands."""
        for serial, board in self._boards.items():
            match = self.mapping.get(serial)
            if match == board.match and board.status is not None:
                continue  # told already
            board.match, board.watch = match, EBoardWatch(self.settle_ms)
            known = live.board(serial)
            if match is not None and known is not None:
                now = self.local_ms()
                if known.clock is not None:
                    board.watch, _ = board.watch.clocked(known.clock)
                if known.placement is not None:
                    board.watch, _ = board.watch.placed(known.placement, known.time_ms, now)
            self._tell_mapping(serial)
        await self._statuses(live)

    def _tell_mapping(self, serial: str) -> None:
        match = self.mapping.get(serial)
        if match is None:
            self.say(f"board {serial}: not mapped to a match, not forwarded "
                     f"(map it with --map {serial}=MATCH)")
        else:
            self.say(f"board {serial}: forwarded to match {match}")

    # -- sending ---------------------------------------------------------------

    async def _send_out(self, serial: str, sending: Sending) -> None:
        match = self.mapping.get(serial)
        if match is None:
            return
        playoff = self._playoff
        assert playoff is not None
        offset = playoff.server_offset_ms
        if isinstance(sending, Settled):
            await self._send(
                "board-position", serial, match=match, game=None,
                placement=sending.placement, stamp_ms=sending.at_ms + offset, serial=serial,
            )
        elif isinstance(sending, Pressed):
            game = await self._game_in_play(match)
            if game is None:
                self._refused("press", serial, match, f"match {match} has no game being "
                              "played: the DGT clock's press is not sent")
                return
            await self._send(
                "press", serial, match=match, game=game, side=sending.side,
                stamp_ms=sending.clock.time_ms + offset, board_clock=board_clock(sending.clock),
            )
        else:
            await self._send("board-flag", serial, match=match, game=None, side=sending.side,
                             stamp_ms=sending.clock.time_ms + offset)

    async def _game_in_play(self, match: int) -> int | None:
        """The game of ``match`` on the board now, as the service's views say."""
        loop = asyncio.get_running_loop()
        until = loop.time() + GAME_WAIT_S
        while match not in self._in_play and loop.time() < until:
            self._learnt.clear()
            try:
                async with asyncio.timeout(until - loop.time()):
                    await self._learnt.wait()
            except TimeoutError:
                break
        return self._in_play.get(match)

    async def _send(self, type_: str, serial: str, /, **fields: Any) -> list[int]:
        """One command, sent until the service answers (a resend with the same id is
        applied once); a refusal said in the service's words."""
        playoff = self._playoff
        assert playoff is not None
        command_id = uuid.uuid4().hex
        told = False
        pause = RETRY_FIRST_S
        while True:
            try:
                ack = await playoff.command(type_, id=command_id, timeout=10.0, **fields)
            except CommandError as exc:
                if exc.code in AGAIN:  # nothing was applied: the same command, a little later
                    await asyncio.sleep(pause)
                    pause = min(pause * 2, RETRY_LAST_S)
                    continue
                self._refused(type_, serial, fields.get("match"), exc.reason)
                self._answered({"type": type_, **fields, "refused": exc.reason})
                return []
            except TimeoutError:
                if not told:
                    self.say("the service does not answer: still trying")
                    told = True
                continue
            self._refusals.pop((type_, serial), None)
            if type_ == "board-position":
                self._ours.update(ack.seqs)
                for seq in ack.seqs:
                    if seq in self._said:
                        self.say(self._said.pop(seq))
            self._answered({"type": type_, **fields, "seqs": list(ack.seqs)})
            return list(ack.seqs)

    def _answered(self, command: dict[str, Any]) -> None:
        self.sent.append(command)
        del self.sent[:-1000]

    def _refused(self, type_: str, serial: str, match: Any, reason: str) -> None:
        """A refusal, said once while the same command of the board is refused alike
        (a board moved about between games is refused each time it settles)."""
        if self._refusals.get((type_, serial)) == reason:
            return
        self._refusals[(type_, serial)] = reason
        where = f", match {match}" if match else ""
        self.say(f"refused ({type_}, board {serial}{where}): {reason}")

    # -- what the service says -------------------------------------------------

    async def _follow(self, playoff: PlayoffClient) -> None:
        """The service's views and events: which board plays which match, which game
        is in play; a line for each move it made of the positions sent."""
        try:
            async for message in playoff.messages():
                if message.t == "view":
                    self._learn_view(message.d)
                elif message.t == "event" and message.seq is not None:
                    self._learn_event(message.d, message.seq)
        except ClientError as exc:
            self.say(f"lost the service: {exc}")

    def _learn_view(self, view: Mapping[str, Any]) -> None:
        for match in view.get("matches") or []:
            playing = [g["number"] for g in match.get("games") or []
                       if g.get("state") == "in play"]
            if playing:
                self._in_play[match["id"]] = playing[0]
            else:
                self._in_play.pop(match["id"], None)
        self._learnt.set()
        self._viewed.set()
        eboards = view.get("eboards")
        if isinstance(eboards, list):
            self._remap({str(e["serial"]): e.get("match") for e in eboards
                         if isinstance(e, dict) and "serial" in e})

    def _learn_event(self, event: Mapping[str, Any], seq: int) -> None:
        kind, data = event.get("type"), event.get("data") or {}
        if kind == "eboard-mapped":
            self._remap({str(data.get("serial")): data.get("match")})
            return
        line = move_line(kind, data)
        if line is None:
            return
        if seq in self._ours:
            self.say(line)
        else:  # the acknowledgement is still on its way
            self._said[seq] = line
            for old in [s for s in self._said if s < seq - 1000]:
                del self._said[old]

    def _remap(self, changes: Mapping[str, Any]) -> None:
        for serial, match in changes.items():
            value = match if isinstance(match, int) and not isinstance(match, bool) else None
            self._service[serial] = value
            if self.mapping.get(serial) != value:
                self.mapping[serial] = value
                self._wake.set()


def move_line(kind: Any, data: Mapping[str, Any]) -> str | None:
    """What to say of an event the service logged of a position: the move read, the
    last move taken back, or that the board shows what no legal move reaches."""
    where = f"match {data.get('match')}, game {data.get('game')}"
    ply = data.get("ply")
    number, black = divmod(ply - 1, 2) if isinstance(ply, int) and ply > 0 else (0, 0)
    if kind == "move-made":
        return f"{where}: {number + 1}{'...' if black else '.'} {data.get('san')}"
    if kind == "move-taken-back":
        return f"{where}: {'Black' if black else 'White'}'s move {number + 1} taken back"
    if kind == "position-unread":
        if data.get("placement") is None:
            return f"{where}: the e-board shows the game's position again"
        return (f"{where}: the e-board shows a position no legal move reaches; the moves "
                "stand as read: check the board")
    return None
