"""Asyncio client of the play-off websocket protocol v1 (see docs/protocol.md).

One `PlayoffClient` follows one play-off over `ws(s)://HOST/ws/playoffs/{id}`:

- it sends `hello` (token, `last_seq`, client name) as the first frame, since the
  token never goes in the URL, and waits for `welcome`;
- it hands every later server frame to `messages()`, checking that `event` frames
  come gapless (`seq` = last + 1) and answering `ping` with `pong` by itself;
- it matches `ack`/`error` frames to `command()` calls by command id;
- when the connection drops it reconnects with `last_seq`, so the server sends
  exactly the missed events (or a `snapshot`), and resends the commands still
  waiting for an answer with the same ids (the server applies an id once).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import uuid
from collections import deque
from collections.abc import AsyncIterator, Callable, Mapping
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any, Final, Literal, Self, TypeGuard
from urllib.parse import quote, urlsplit, urlunsplit

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from .clock import display_remaining_ms, wall_ms
from .errors import (
    AuthError,
    ClientClosed,
    ClientError,
    CommandError,
    ConnectError,
    Disconnected,
    NotFound,
    ProtocolViolation,
)

#: Close codes (protocol v1, "Close codes") after which the client never reconnects.
CLOSE_BAD_TOKEN: Final = 4401
CLOSE_NO_PLAYOFF: Final = 4404
#: The close code the client uses when the server breaks the protocol (a gap...).
CLOSE_PROTOCOL_ERROR: Final = 1002

#: Reconnection delays: doubling from the first to the last, each jittered to 50-100 %.
BACKOFF_FIRST_S: Final = 0.1
BACKOFF_MAX_S: Final = 2.0
#: A connection that stayed up this long resets the backoff to its first delay.
STABLE_CONNECTION_S: Final = 5.0
#: Command ids are 1-64 characters.
MAX_COMMAND_ID_LENGTH: Final = 64
#: Frames from the server may be larger than the 64 KiB the server accepts (snapshots).
MAX_INCOMING_FRAME_BYTES: Final = 16 * 1024 * 1024
#: The server is taken as gone after this many heartbeats without a frame.
SILENT_HEARTBEATS: Final = 3
#: The server's offset is the largest of this many recent one-way samples.
OFFSET_SAMPLES: Final = 4
CLOSE_TIMEOUT_S: Final = 2.0

_PONG: Final = '{"t":"pong"}'


@dataclass(frozen=True, slots=True)
class Message:
    """One server frame (`t`, `seq`, `d`, and `id` for `ack`/`error` of a command).

    `t == "reconnected"` is a local marker, never sent by the server: the
    connection dropped and a new one was welcomed; the missed events (or a
    snapshot) follow. Its `seq` is the last seq seen before it, and `d` holds
    the `code` and `reason` of the close that ended the previous connection.
    """

    t: str
    seq: int | None = None
    d: dict[str, Any] = field(default_factory=dict)
    id: str | None = None


@dataclass(frozen=True, slots=True)
class Ack:
    """The server's `ack` of a command: its events are durable, with these seqs.

    Resending an id already applied gets the same seqs and no new event."""

    id: str
    seqs: list[int]


@dataclass(slots=True)
class _Pending:
    """A command sent (or to send) and not answered yet, with everyone awaiting it."""

    raw: str
    waiters: list[asyncio.Future[Ack]] = field(default_factory=list)


def websocket_url(base_url: str, playoff_id: str) -> str:
    """`ws(s)://HOST[:PORT][/prefix]/ws/playoffs/{playoff_id}` from an `http(s)://` base URL.

    `ws://` and `wss://` base URLs are taken as they are. A base URL with a query or
    a fragment is refused: nothing but the path identifies the play-off, and the
    token goes in `hello`, never in the URL.
    """
    parts = urlsplit(base_url)
    schemes = {"http": "ws", "https": "wss", "ws": "ws", "wss": "wss"}
    scheme = schemes.get(parts.scheme.lower())
    if scheme is None or not parts.netloc:
        raise ValueError(f"base_url must be an http(s):// or ws(s):// URL, not {base_url!r}")
    if parts.query or parts.fragment:
        raise ValueError("base_url must not have a query or a fragment")
    if not playoff_id:
        raise ValueError("playoff_id must not be empty")
    path = f"{parts.path.rstrip('/')}/ws/playoffs/{quote(playoff_id, safe='')}"
    return urlunsplit((scheme, parts.netloc, path, "", ""))


def _dumps(frame: Mapping[str, Any]) -> str:
    return json.dumps(frame, separators=(",", ":"), ensure_ascii=False)


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def parse_frame(raw: str | bytes) -> Message:
    """A server frame as a `Message`; `ProtocolViolation` if it is not a v1 envelope
    (a JSON object in a text frame, with a string `t`, an integer `seq` if any,
    an object `d` if any and a string `id` if any)."""
    if not isinstance(raw, str):
        raise ProtocolViolation("binary frame (frames are JSON text)")
    try:
        obj = json.loads(raw)
    except ValueError as exc:
        raise ProtocolViolation(f"frame is not JSON: {exc}") from exc
    if not isinstance(obj, dict):
        raise ProtocolViolation("frame is not a JSON object")
    t = obj.get("t")
    seq = obj.get("seq")
    d = obj.get("d")
    id_ = obj.get("id")
    if not isinstance(t, str) or not t:
        raise ProtocolViolation("frame without a type 't'")
    if seq is not None and not _is_int(seq):
        raise ProtocolViolation(f"{t} frame with a non-integer seq {seq!r}")
    if d is None:
        d = {}
    if not isinstance(d, dict):
        raise ProtocolViolation(f"{t} frame whose 'd' is not an object")
    if id_ is not None and not isinstance(id_, str):
        raise ProtocolViolation(f"{t} frame whose 'id' is not a string")
    return Message(t=t, seq=seq, d=d, id=id_)


def _close_of(exc: ConnectionClosed) -> tuple[int, str]:
    """The close code and reason the server sent (1006 when none came)."""
    if exc.rcvd is not None:
        return exc.rcvd.code, exc.rcvd.reason
    return 1006, "connection lost"


def _terminal(code: int, reason: str) -> ClientError | None:
    """The error to stop with for a close code that forbids reconnecting."""
    if code == CLOSE_BAD_TOKEN:
        return AuthError(reason or "bad or missing token")
    if code == CLOSE_NO_PLAYOFF:
        return NotFound(reason or "no such play-off")
    return None


def _abort(ws: ClientConnection) -> None:
    """Drop a connection at once, without a close handshake."""
    transport = getattr(ws, "transport", None)
    if transport is not None:
        transport.abort()


# What a connection attempt or a live connection may fail with, short of a
# close code that forbids reconnecting: worth another attempt.
_TRANSIENT: Final = (OSError, InvalidHandshake, ConnectionClosed, ProtocolViolation, Disconnected)


class PlayoffClient:
    """A client of one play-off's websocket stream (protocol v1).

    Use it as `async with PlayoffClient(base_url, playoff_id, token) as client:`.
    Entering opens the connection, sends `hello` and waits for `welcome`
    (within `open_timeout` seconds); it raises `AuthError` (close 4401, bad
    token), `NotFound` (close 4404, not this token's play-off) or `ConnectError`
    (anything else). The first connection is not retried.

    After that, with `reconnect=True`, any lost connection (any close but
    4401/4404, a silent server, or a protocol violation such as a gap in
    `seq`) is reopened with backoff (0.1 s doubling to 2 s, jittered) and
    `hello` carries `last_seq = client.seq`, so nothing is missed nor seen
    twice. With `reconnect=False` the client stops instead: `messages()` and
    the commands awaiting an answer raise `Disconnected` (or `ProtocolViolation`).

    `now_ms` is the local clock (milliseconds) that `server_offset_ms` is
    measured against; the default is the wall clock.

    `view`: which view the server computes for this client and sends as `view`
    frames (docs/protocol.md): none by default (a script follows the events), the
    hall display's, or the arbiter console's.
    """

    def __init__(
        self,
        base_url: str,
        playoff_id: str,
        token: str,
        *,
        name: str = "python-client",
        last_seq: int | None = None,
        view: Literal["none", "hall", "arbiter"] = "none",
        reconnect: bool = True,
        open_timeout: float | None = 5.0,
        now_ms: Callable[[], int] = wall_ms,
    ) -> None:
        if last_seq is not None and (not _is_int(last_seq) or last_seq < 0):
            raise ValueError("last_seq must be a non-negative integer or None")
        self.url: Final = websocket_url(base_url, playoff_id)
        self.playoff_id: Final = playoff_id
        self.name: Final = name
        self.view: Final = view
        self.instance: Final = uuid.uuid4().hex
        """This client's own id, the same in every hello: a reconnection replaces the
        connection the server may still hold for it, never another client's."""
        self._token = token
        self._reconnect = reconnect
        self._open_timeout = open_timeout
        self._now_ms = now_ms
        self._seq: int | None = last_seq
        self._role: str | None = None
        self._state: dict[str, Any] | None = None
        self._heartbeat_ms: int | None = None
        self._max_frame_bytes: int | None = None
        self._offsets: deque[int] = deque(maxlen=OFFSET_SAMPLES)
        self._inbox: asyncio.Queue[Message | None] = asyncio.Queue()
        self._pending: dict[str, _Pending] = {}
        self._conn: ClientConnection | None = None
        self._live = False
        self._welcomed = False
        self._runner: asyncio.Task[None] | None = None
        self._closed = False
        self._finished = False
        self._failure: BaseException | None = None
        self._attempt = 0
        self._rng = random.Random()

    # -- what the client knows -------------------------------------------------

    @property
    def seq(self) -> int | None:
        """The seq of the last `event` or `snapshot` received (or `last_seq` given)."""
        return self._seq

    @property
    def role(self) -> str | None:
        """`chief`, `arbiter` or `display`, from the last `welcome`."""
        return self._role

    @property
    def state(self) -> dict[str, Any] | None:
        """The `d` of the last `snapshot` received, if any (events are not folded in)."""
        return self._state

    @property
    def server_offset_ms(self) -> int:
        """Server ms − local ms (0 until measured).

        Each `welcome` and `ping` gives a sample `server_ms − local ms on receipt`,
        which falls short of the true offset by the frame's transit time; the
        offset is the largest of the last few samples since the last `welcome`."""
        return max(self._offsets) if self._offsets else 0

    @property
    def heartbeat_ms(self) -> int | None:
        """The server's ping interval, from `welcome`."""
        return self._heartbeat_ms

    @property
    def max_frame_bytes(self) -> int | None:
        """The largest frame the server accepts, from `welcome`."""
        return self._max_frame_bytes

    @property
    def connected(self) -> bool:
        """True while a welcomed connection is up (False while reconnecting)."""
        return self._welcomed

    def server_now_ms(self) -> int:
        """The server's time now, as estimated from the local clock and the offset."""
        return self._now_ms() + self.server_offset_ms

    def remaining_ms(self, clock: Mapping[str, Any], side: str) -> int:
        """`display_remaining_ms` for `side` now, with this client's clock and offset."""
        return display_remaining_ms(clock, side, self._now_ms(), self.server_offset_ms)

    # -- opening and closing ---------------------------------------------------

    async def __aenter__(self) -> Self:
        await self.connect()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    async def connect(self) -> None:
        """Open the first connection (`hello`, then `welcome`) and start following.

        Raises `AuthError`, `NotFound` or `ConnectError`; not retried."""
        if self._runner is not None or self._closed:
            raise RuntimeError("a PlayoffClient connects once")
        try:
            ws = await self._open()
        except (AuthError, NotFound):
            raise
        except (*_TRANSIENT, TimeoutError) as exc:
            raise ConnectError(f"cannot open {self.url}: {exc}") from exc
        self._runner = asyncio.create_task(self._run(ws), name=f"playoff-client {self.url}")

    async def close(self) -> None:
        """Close the connection (code 1000) and stop: `messages()` ends after the
        frames already received, and pending commands raise `ClientClosed`."""
        if self._closed:
            return
        self._closed = True
        runner, self._runner = self._runner, None
        conn = self._conn
        if runner is not None and runner is not asyncio.current_task() and not runner.done():
            runner.cancel()
            await asyncio.wait([runner])
        self._live = self._welcomed = False
        if conn is not None:
            await conn.close()
        self._conn = None
        self._finish(None)

    # -- reading ---------------------------------------------------------------

    async def messages(self) -> AsyncIterator[Message]:
        """Every server frame after `welcome`, in order, as `Message`s.

        That is `snapshot`, `event`, `ack`, `error`, `ping` and any other type,
        plus the local `reconnected` marker after each reconnection. Events are
        gapless: one whose seq is not the last seq + 1 is never yielded, the
        connection is resumed instead. Pings are answered by the client whether or
        not anybody iterates. Frames are buffered until read (one reader at a time).

        Ends after `close()`; raises `AuthError`/`NotFound` when a reconnection is
        refused, and `Disconnected`/`ProtocolViolation` when the connection is
        lost with `reconnect=False`."""
        if self._runner is None and not self._finished:
            raise RuntimeError("not connected: use 'async with PlayoffClient(...)'")
        while True:
            message = await self._inbox.get()
            if message is None:
                self._inbox.put_nowait(None)  # any later reader ends as well
                if self._failure is not None:
                    raise self._failure
                return
            yield message

    # -- commands --------------------------------------------------------------

    async def command(
        self,
        type: str,
        *,
        id: str | None = None,
        timeout: float | None = 5.0,
        **fields: Any,
    ) -> Ack:
        """Send `{"t": "cmd", "id": id, "d": {"type": type, **fields}}` and await its answer.

        `id` defaults to a fresh uuid4 hex. Returns the `ack` with that id (its
        events are durable) or raises `CommandError` for the `error` with that id
        (nothing changed). A command still unanswered when the connection drops
        is resent with the same id after reconnecting; calling `command` again
        with an id already applied gets the same ack. Concurrent calls with the
        same id share one frame and one answer.

        Raises `TimeoutError` after `timeout` seconds (reconnections included):
        the command may or may not have been applied, so resend it with the same
        id to find out. A frame larger than the server's `max_frame_bytes` is
        refused here with `CommandError("too-large")` instead of having the server
        close the connection (1009)."""
        if self._closed or self._finished:
            raise self._failure if self._failure is not None else ClientClosed("client closed")
        if self._runner is None:
            raise RuntimeError("not connected: use 'async with PlayoffClient(...)'")
        command_id = uuid.uuid4().hex if id is None else id
        if not 1 <= len(command_id) <= MAX_COMMAND_ID_LENGTH:
            raise ValueError(f"a command id has 1-{MAX_COMMAND_ID_LENGTH} characters")
        raw = _dumps({"t": "cmd", "id": command_id, "d": {"type": type, **fields}})
        limit = self._max_frame_bytes
        if limit is not None and len(raw.encode("utf-8")) > limit:
            raise CommandError("too-large", f"the frame exceeds {limit} bytes", command_id)

        waiter: asyncio.Future[Ack] = asyncio.get_running_loop().create_future()
        pending = self._pending.get(command_id)
        if pending is None:
            pending = _Pending(raw, [waiter])
            self._pending[command_id] = pending
            if self._live and self._conn is not None:
                # On a lost connection, the reader reconnects and resends it.
                with contextlib.suppress(ConnectionClosed):
                    await self._conn.send(raw)
        else:
            pending.waiters.append(waiter)
        try:
            async with asyncio.timeout(timeout):
                return await waiter
        finally:
            if waiter in pending.waiters:
                pending.waiters.remove(waiter)
            if not pending.waiters and self._pending.get(command_id) is pending:
                del self._pending[command_id]

    # -- the connection's life -------------------------------------------------

    async def _open(self) -> ClientConnection:
        """One attempt: websocket handshake, `hello` first, then read up to `welcome`."""
        ws: ClientConnection | None = None
        try:
            async with asyncio.timeout(self._open_timeout):
                ws = await connect(
                    self.url,
                    open_timeout=None,
                    close_timeout=CLOSE_TIMEOUT_S,
                    max_size=MAX_INCOMING_FRAME_BYTES,
                )
                self._conn = ws
                hello = {
                    "token": self._token, "last_seq": self._seq, "client": self.name,
                    "view": self.view, "instance": self.instance,
                }
                await ws.send(_dumps({"t": "hello", "d": hello}))
                await self._await_welcome(ws)
                self._welcomed = True
        except BaseException:
            if ws is not None:
                _abort(ws)
                if self._conn is ws:
                    self._conn = None
            raise
        return ws

    async def _await_welcome(self, ws: ClientConnection) -> None:
        refusal = ""
        while True:
            try:
                raw = await ws.recv()
            except ConnectionClosed as exc:
                code, reason = _close_of(exc)
                terminal = _terminal(code, refusal or reason)
                if terminal is not None:
                    raise terminal from None
                raise Disconnected(code, reason or refusal) from None
            received_ms = self._now_ms()
            message = parse_frame(raw)
            if message.t == "welcome":
                self._on_welcome(message, received_ms)
                return
            if message.t == "error":  # a refusal: the close (4401/4404) follows
                refusal = str(message.d.get("reason") or message.d.get("code") or "")
            elif message.t == "ping":
                await ws.send(_PONG)
            else:
                raise ProtocolViolation(f"expected welcome, got {message.t!r}")

    def _on_welcome(self, message: Message, received_ms: int) -> None:
        d = message.d
        role = d.get("role")
        self._role = role if isinstance(role, str) else None
        heartbeat = d.get("heartbeat_ms")
        self._heartbeat_ms = heartbeat if _is_int(heartbeat) and heartbeat > 0 else None
        limit = d.get("max_frame_bytes")
        self._max_frame_bytes = limit if _is_int(limit) and limit > 0 else None
        self._offsets.clear()  # perhaps another server process: measure afresh
        self._sample_offset(d, received_ms)

    def _sample_offset(self, d: Mapping[str, Any], received_ms: int) -> None:
        server_ms = d.get("server_ms")
        if _is_int(server_ms):
            self._offsets.append(server_ms - received_ms)

    async def _run(self, ws: ClientConnection) -> None:
        """Follow the play-off: read, and reconnect when the connection is lost."""
        loop = asyncio.get_running_loop()
        try:
            while True:
                opened_at = loop.time()
                lost = await self._session(ws)
                if self._closed:
                    return
                if not self._reconnect:
                    self._finish(lost)
                    return
                if loop.time() - opened_at >= STABLE_CONNECTION_S:
                    self._attempt = 0
                ws = await self._reopen()
                code = lost.code if isinstance(lost, Disconnected) else CLOSE_PROTOCOL_ERROR
                reason = lost.reason if isinstance(lost, Disconnected) else str(lost)
                self._inbox.put_nowait(
                    Message(t="reconnected", seq=self._seq, d={"code": code, "reason": reason})
                )
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # AuthError, NotFound, or a bug: the caller must see it
            self._finish(exc)

    async def _reopen(self) -> ClientConnection:
        while True:
            delay = min(BACKOFF_MAX_S, BACKOFF_FIRST_S * 2 ** min(self._attempt, 16))
            self._attempt += 1
            await asyncio.sleep(delay * self._rng.uniform(0.5, 1.0))
            try:
                return await self._open()
            except (*_TRANSIENT, TimeoutError):
                continue

    async def _session(self, ws: ClientConnection) -> Disconnected | ProtocolViolation:
        """Read one welcomed connection until it is lost; say how it was lost.

        Raises `AuthError`/`NotFound` for a close that forbids reconnecting."""
        self._live = True
        resend = [pending.raw for pending in self._pending.values()]
        silence: float | None = None
        try:
            for raw in resend:
                await ws.send(raw)
            while True:
                silence = (
                    SILENT_HEARTBEATS * self._heartbeat_ms / 1000 if self._heartbeat_ms else None
                )
                async with asyncio.timeout(silence):
                    raw_frame = await ws.recv()
                received_ms = self._now_ms()
                await self._dispatch(ws, parse_frame(raw_frame), received_ms)
        except ConnectionClosed as exc:
            code, reason = _close_of(exc)
            terminal = _terminal(code, reason)
            if terminal is not None:
                raise terminal from None
            return Disconnected(code, reason)
        except ProtocolViolation as exc:
            await self._drop(ws, CLOSE_PROTOCOL_ERROR, str(exc))
            return exc
        except TimeoutError:
            _abort(ws)
            return Disconnected(1006, f"no frame from the server for {silence} s")
        finally:
            self._live = self._welcomed = False
            if self._conn is ws:
                self._conn = None

    async def _drop(self, ws: ClientConnection, code: int, reason: str) -> None:
        try:
            await ws.close(code, reason.encode("utf-8")[:120].decode("utf-8", "ignore"))
        except Exception:
            _abort(ws)

    async def _dispatch(self, ws: ClientConnection, message: Message, received_ms: int) -> None:
        t = message.t
        if t == "event":
            expected = (self._seq or 0) + 1
            if message.seq != expected:
                raise ProtocolViolation(
                    f"event seq {message.seq} where {expected} was due (a gap or a repeat)"
                )
            self._seq = message.seq
        elif t == "snapshot":
            if message.seq is None:
                raise ProtocolViolation("snapshot without seq")
            self._seq = message.seq
            self._state = message.d
        elif t == "ping":
            await ws.send(_PONG)
            self._sample_offset(message.d, received_ms)
        elif t in ("ack", "error") and message.id is not None:
            self._answer(message)
        self._inbox.put_nowait(message)

    def _answer(self, message: Message) -> None:
        """Settle the command that `message` (an `ack` or `error`) answers, if pending."""
        assert message.id is not None
        pending = self._pending.pop(message.id, None)
        if pending is None:
            return
        outcome: Ack | ClientError
        if message.t == "ack":
            seqs = message.d.get("seqs")
            if isinstance(seqs, list) and all(_is_int(s) for s in seqs):
                outcome = Ack(id=message.id, seqs=list(seqs))
            else:
                outcome = ProtocolViolation(f"ack of {message.id} without a list of seqs")
        else:
            code = message.d.get("code")
            reason = message.d.get("reason")
            outcome = CommandError(
                code if isinstance(code, str) else "unknown",
                reason if isinstance(reason, str) else "",
                message.id,
            )
        for waiter in pending.waiters:
            if waiter.done():
                continue
            if isinstance(outcome, Ack):
                waiter.set_result(outcome)
            else:
                waiter.set_exception(outcome)

    def _finish(self, failure: BaseException | None) -> None:
        """Stop for good: fail the pending commands and end `messages()`."""
        if self._finished:
            return
        self._finished = True
        self._failure = failure
        pending, self._pending = self._pending, {}
        error = failure if failure is not None else ClientClosed("client closed")
        for entry in pending.values():
            for waiter in entry.waiters:
                if not waiter.done():
                    waiter.set_exception(error)
        self._inbox.put_nowait(None)
