"""The websocket endpoint: ``/ws/playoffs/{playoff_id}`` (docs/protocol.md)."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import struct
import time
from collections.abc import Awaitable
from typing import Any

from fastapi import APIRouter
from pydantic import ValidationError
from starlette.routing import Match, WebSocketRoute
from starlette.types import ASGIApp, Receive, Scope, Send
from websockets.protocol import State

from orchestrator.api.boardkeys import board_key_answer
from orchestrator.core.access import not_for_a_hall_screen
from orchestrator.core.auth import ACTION_WORDS, Action, Actor, Role, not_permitted
from orchestrator.core.commands import (
    BoardStatus,
    Command,
    EboardStatus,
    IssueBoardKey,
    PressClock,
    parse_command,
)
from orchestrator.core.errors import Forbidden, LogUnavailable, ServiceError
from orchestrator.core.languages import language_code
from orchestrator.core.refusals import KnownRefusal
from orchestrator.core.service import Request, Service
from orchestrator.core.state import playoff_stream
from orchestrator.core.words import validation_words
from orchestrator.runtime.hub import TOO_MANY_CODE, Connection, Hub, ViewKind, encode
from orchestrator.store import ConcurrencyError, StoreError
from playoff_formats.errors import InputError, PlayoffError
from playoff_formats.io.strict_json import load_json
from playoff_formats.phrase import Phrase, Said
from playoff_formats.speech import speaking

try:
    from uvicorn.protocols.websockets.websockets_sansio_impl import (
        WebSocketsSansIOProtocol as _SansIO,
    )
except ImportError:  # another server, or another uvicorn: every frame through ASGI
    _SansIO = type("_SansIO", (), {})  # type: ignore[assignment,misc]

router = APIRouter()

HELLO_TIMEOUT_S = 5.0
COMMAND_RATE = 20.0
COMMAND_BURST = 40.0
BAD_TOKEN = "this token is not valid"
"""The one answer to every token that is not valid: unknown or missing. (A valid
token for another play-off is told what it opens: close code 4404.)"""
HALL_SCREEN_CODE = 4403
"""The close code of a hall screen opened with a key that can send commands."""


class _Socket:
    """The hub's handle on one websocket: it sends and closes through ASGI, writes
    frames straight to the transport when it can, and can cut the connection off,
    which ASGI has no message for."""

    __slots__ = ("_protocol", "_send", "_transport")

    def __init__(self, send: Send, receive: Receive) -> None:
        self._send = send
        # uvicorn's websocket protocols hand the app their own ``receive`` and hold
        # the connection's transport; under another server a connection is only ever
        # closed, never cut off, and every frame goes through ASGI.
        server = getattr(receive, "__self__", None)
        transport = getattr(server, "transport", None)
        self._transport = transport if callable(getattr(transport, "abort", None)) else None
        # Compressed frames differ from one connection to the next: those go through
        # ASGI. The extensions are settled by the handshake, before this is made.
        plain = isinstance(server, _SansIO) and not server.conn.extensions
        self._protocol = server if plain else None

    async def send_text(self, data: str) -> None:
        await self._send({"type": "websocket.send", "text": data})

    def write(self, data: str) -> bool:
        """Write ``data`` as one text frame now, if the connection is open and its
        buffer has room; False: send it with :meth:`send_text`.

        A server's frame is not masked, and without an extension it is the same
        bytes on every connection: it is built once (:func:`wire`) and written, which
        spares each display of a fan-out the ASGI message, the framing and the
        encoding, most of the cost of a send after the system call itself.
        """
        protocol = self._protocol
        if (
            protocol is None or not protocol.writable.is_set() or protocol.close_sent
            or protocol.disconnected or protocol.conn.state is not State.OPEN
            or protocol.transport.is_closing()
        ):
            return False
        protocol.transport.write(wire(data))
        return True

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        await self._send({"type": "websocket.close", "code": code, "reason": reason or ""})

    def abort(self) -> None:
        if self._transport is not None:
            self._transport.abort()


@functools.lru_cache(maxsize=8)
def wire(data: str) -> bytes:
    """``data`` as one unmasked, uncompressed websocket text frame (RFC 6455 5.2).

    A fan-out writes the same frames (a command's events, a view of each kind) to
    every connection in turn: the last few are kept, so each is encoded once. Few:
    a snapshot, made for one connection, takes a place too.
    """
    payload = data.encode()
    size = len(payload)
    if size < 126:
        return bytes((0x81, size)) + payload
    if size < 1 << 16:
        return struct.pack("!BBH", 0x81, 126, size) + payload
    return struct.pack("!BBQ", 0x81, 127, size) + payload


class _Bucket:
    """A token bucket: ``rate`` commands a second, bursts of ``burst``."""

    __slots__ = ("at", "burst", "level", "rate")

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst, self.level, self.at = rate, burst, burst, time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.level = min(self.burst, self.level + (now - self.at) * self.rate)
        self.at = now
        if self.level < 1:
            return False
        self.level -= 1
        return True


class _Disconnected(Exception):
    """The client went away."""


async def _receive_text(receive: Receive) -> str | None:
    """The next message's text (None: a binary message); _Disconnected at the end."""
    message = await receive()
    if message["type"] == "websocket.disconnect":
        raise _Disconnected
    text: str | None = message.get("text")
    return text


PATH = "/ws/playoffs/{playoff_id}"


class PlayoffSocket:
    """``/ws/playoffs/{playoff_id}`` as a bare ASGI app.

    A display's connection lasts for hours and there may be thousands: it is
    served without a framework's request objects, dependency stacks and exception
    wrappers, which would otherwise stay alive with every connection.
    """

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        connect = await receive()
        if connect["type"] != "websocket.connect":
            return
        hub: Hub = scope["app"].state.hub
        client = scope.get("client")
        address = client[0] if client else None
        if not hub.may_open(address):
            # Too many new connections from this address: refused in the handshake
            # (HTTP 403), before anything of it is kept.
            await send({"type": "websocket.close", "code": TOO_MANY_CODE})
            return
        await send({"type": "websocket.accept"})
        scope["origin"] = _origin(scope)  # a board key's link is absolute: kept before
        _shed_handshake(scope, receive)
        refusal = hub.opened(address)
        if refusal is not None:  # past the limit for one address: said, and closed
            await _refuse_hello(send, TOO_MANY_CODE, refusal, code_word="rate-limited")
            return
        try:
            await self._serve(scope, receive, send, hub, address)
        finally:
            hub.ended(address)

    async def _serve(
        self, scope: Scope, receive: Receive, send: Send, hub: Hub, address: str | None
    ) -> None:
        service: Service = scope["app"].state.service
        playoff_id = str(scope["path_params"]["playoff_id"])
        hello = await _hello(send, receive)
        if hello is None:
            return
        # The token first: nobody without one learns whether a play-off id exists.
        try:
            state, record = service.authorize_playoff(
                playoff_id, str(hello.get("token") or ""), action=Action.READ,
                address=address,
            )
        except ServiceError as exc:
            if exc.status == 404:  # a valid token, told what it opens
                await _refuse_hello(send, 4404, exc.reason)
            elif exc.status == 429:
                # Too many failed attempts from this address: said as it is, never
                # as a token that is not valid.
                await _refuse_hello(send, 4429, exc.reason, code_word="rate-limited")
            elif exc.status == 503:
                await _refuse_hello(send, 1011, exc.reason, code_word="unavailable")
            elif exc.status == 403:  # a valid key that opens no websocket (a broadcast key)
                await _refuse_hello(send, 4403, exc.reason)
            else:
                await _refuse_hello(send, 4401, BAD_TOKEN)
            return
        if hello.get("screen") == "hall":
            # Said in the screen's language: the one it asks for, else its key's.
            spoken = language_code(str(hello.get("language") or "")) or record.language
            with speaking(hub.catalogs.language(spoken)):
                refusal = not_for_a_hall_screen(record.role, state.event_id, playoff_id)
            if refusal is not None:  # a token that commands, in a public screen's address
                await _refuse_hello(send, HALL_SCREEN_CODE, refusal)
                return

        instance = hello.get("instance")
        instance = instance[:64] if isinstance(instance, str) and instance else None
        refusal = hub.admit(record.token_id, instance)
        if refusal is not None:  # the key's connections are at their limit
            await _refuse_hello(send, TOO_MANY_CODE, refusal, code_word="rate-limited")
            return
        socket = _Socket(send, receive)
        connection = Connection(
            hub=hub, socket=socket, playoff_id=playoff_id, role=record.role,
            token_id=record.token_id, name=str(hello.get("client") or ""), instance=instance,
            queue_size=hub.queue_size, view=ViewKind.for_role(record.role, hello.get("view")),
            board_match=record.match if record.role is Role.BOARD else None,
            opened_ms=service.time.server_ms(),
            language=language_code(str(hello.get("language") or ""))
            or record.language or "en",
        )
        origin = str(scope.get("origin") or "")
        last_seq = hello.get("last_seq")
        hub.join(connection)  # live events are held until the catch-up is queued
        connection.send(encode("welcome", state.seq, {
            "role": connection.role.value, "server_ms": service.time.server_ms(),
            "heartbeat_ms": hub.heartbeat_ms, "max_frame_bytes": 65536,
            "language": connection.language, "words": hub.page_words(connection),
        }))
        # This frame lasts as long as the connection: it keeps no hello, and no
        # state of the play-off that later commands have replaced.
        del hello, record, state
        if connection.board_match is not None:
            hub.heard(connection)
        try:
            await _catch_up(service, hub, connection, last_seq)
            if connection.board_match is not None:
                hub.refresh_boards(playoff_id)  # the consoles see it online
            await _receive(service, hub, connection, receive, origin)
        finally:
            hub.leave(connection)
            if connection.board_match is not None:
                hub.board_left(connection)
                hub.refresh_boards(playoff_id)
            # The server may have closed it behind frames a peer never reads (a
            # restart's 1012): that peer gets its time to answer, not forever.
            hub.cut_off_later(socket)


class WebSockets:
    """ASGI middleware: the play-off websockets go to :class:`PlayoffSocket` ahead
    of the app's middleware and routing, whose frames would otherwise be held, with
    their locals, for as long as each connection lasts; everything else goes on.

    Not a coroutine function itself: it hands on the awaitable of the one it
    chooses, and so holds no frame of its own."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.route = WebSocketRoute(PATH, PlayoffSocket())

    def __call__(self, scope: Scope, receive: Receive, send: Send) -> Awaitable[None]:
        if scope["type"] == "websocket":
            match, child = self.route.matches(scope)
            if match is Match.FULL:
                scope.update(child)
                return self.route.app(scope, receive, send)
        return self.app(scope, receive, send)


def _shed_handshake(scope: Scope, receive: Receive) -> None:
    """Let go of the handshake's request and response, which the server keeps and
    nothing reads once the connection is open (a few KiB a connection)."""
    scope["headers"] = []
    server = getattr(receive, "__self__", None)
    if isinstance(server, _SansIO) and server.handshake_complete:
        for name in ("request", "response"):
            if name in vars(server):
                delattr(server, name)


async def _hello(send: Send, receive: Receive) -> dict[str, Any] | None:
    """The ``d`` of the client's ``hello``; None: the connection was closed."""
    try:
        text = await asyncio.wait_for(_receive_text(receive), HELLO_TIMEOUT_S)
        hello = json.loads(text) if text is not None else None
    except (TimeoutError, json.JSONDecodeError):
        hello = None
    except _Disconnected:
        return None
    d = hello.get("d") if isinstance(hello, dict) else None
    if not isinstance(hello, dict) or hello.get("t") != "hello" or not isinstance(d, dict):
        await send({"type": "websocket.close", "code": 4408, "reason": "send hello first"})
        return None
    return d


async def _refuse_hello(
    send: Send, code: int, reason: str, *, code_word: str = "forbidden"
) -> None:
    error = encode("error", 0, {"code": code_word, "reason": reason})
    await send({"type": "websocket.send", "text": error})
    await send({"type": "websocket.close", "code": code, "reason": close_reason(reason)})


def close_reason(reason: str) -> str:
    """``reason`` cut to what a close frame holds (123 bytes of UTF-8, never half a
    character); the error frame before it has it whole."""
    cut = reason.encode("utf-8")[:123]
    return cut.decode("utf-8", "ignore")


async def _catch_up(
    service: Service, hub: Hub, connection: Connection, last_seq: object
) -> None:
    state = service.playoff(connection.playoff_id)
    if connection.board_match is not None:
        # A board gets its view only, which says all it shows; then its match's events.
        connection.release(state.seq)
        view = hub.view_frame(connection)
        if view is not None:
            connection.offer_view(state.seq, view)
        return
    if isinstance(last_seq, int) and last_seq > state.seq:
        # Seen on another worker sharing the log, not yet folded here: the log first.
        # (If the log is out of reach, the state held here comes as a snapshot.)
        with contextlib.suppress(StoreError):
            await service.catch_up(playoff_stream(connection.playoff_id))
        state = service.playoff(connection.playoff_id)
    current = state.seq
    usable = (
        isinstance(last_seq, int) and not isinstance(last_seq, bool)
        and 0 <= last_seq <= current and current - last_seq <= hub.catchup_limit
    )
    frames: list[str] | None = None
    if usable:
        assert isinstance(last_seq, int)
        upto = current
        frames = hub.recent_frames(connection.playoff_id, last_seq, current)
        if frames is None:  # older than what this process sent: from the log
            try:
                missed = await service.log(
                    connection.playoff_id, after=last_seq, limit=current - last_seq
                )
            except StoreError:
                missed = None  # the log out of reach: the state held here instead
            if missed is not None:
                frames = [encode("event", logged.seq, logged.wire()) for logged in missed]
                upto = missed[-1].seq if missed else last_seq
    if frames is not None:
        assert isinstance(last_seq, int)
        connection.last_seq = last_seq
        for frame in frames:
            connection.send(frame, replaceable=True)
    else:
        state = service.playoff(connection.playoff_id)
        connection.send(hub.snapshot_frame(state), replaceable=True)
        upto = state.seq
    connection.release(upto)
    # The view as of the catch-up: the clocks as they stand now, and all the rest.
    view = hub.view_frame(connection)
    if view is not None:
        connection.offer_view(service.playoff(connection.playoff_id).seq, view)


Refusal = str | Phrase | ServiceError | PlayoffError
"""A refusal as raised: its sentence is built at this door, in the connection's
language."""


def _refuse(
    service: Service, connection: Connection, code: str, reason: Refusal,
    command_id: str | None = None, *, retry_after_s: int | None = None, kind: str | None = None,
) -> None:
    """An error frame: the command or frame is refused and nothing changes."""
    seq = service.playoff(connection.playoff_id).seq
    extra = {"id": command_id} if command_id is not None else {}
    d: dict[str, Any] = {"code": code, "reason": said(connection, reason)}
    if retry_after_s is not None:
        d["retry_after_s"] = retry_after_s
    if kind is not None:
        d["kind"] = kind
    connection.send(encode("error", seq, d, **extra))


def said(connection: Connection, reason: Refusal) -> str:
    """``reason`` in the language of ``connection`` (its hello's, or its key's)."""
    if isinstance(reason, str):
        return reason
    with speaking(connection.hub.catalogs.language(connection.language)):
        if isinstance(reason, ServiceError):
            return reason.words()
        if isinstance(reason, PlayoffError):
            return reason.words({})
        return reason.text({})


TOO_BUSY = Said.tr(
    "other commands to this play-off kept arriving first: nothing was changed; send it "
    "again"
)
TOO_MANY = Said.tr("more than {rate} commands a second", rate=int(COMMAND_RATE))


async def _receive(
    service: Service, hub: Hub, connection: Connection, receive: Receive, origin: str = ""
) -> None:
    bucket = _Bucket(COMMAND_RATE, COMMAND_BURST)
    while not connection.closed:
        try:
            message = await receive()
        except RuntimeError:
            return
        if message["type"] == "websocket.disconnect":
            return
        connection.last_heard = time.monotonic()
        if connection.board_match is not None:
            hub.heard(connection)
        text = message.get("text")
        if text is None:
            _refuse(service, connection, "bad-frame", "a binary frame: frames are JSON text")
            continue
        try:  # read as strictly as a REST body: no NaN, no duplicate keys, bounded
            frame = load_json(text)
        except InputError as exc:
            _refuse(service, connection, "bad-frame", exc.describe())
            continue
        if not isinstance(frame, dict) or not isinstance(frame.get("t"), str):
            _refuse(service, connection, "bad-frame", 'a frame is an object with "t"')
            continue
        kind = frame["t"]
        if kind == "pong":
            continue
        if kind == "ping":
            seq = service.playoff(connection.playoff_id).seq
            through = frame.get("through_ms")
            if connection.board_match is not None and type(through) is int and through >= 0:
                hub.board_through(connection, through)
            ping_id = frame.get("id")
            # The ping's own id comes back: the page times the round trip it made.
            echo = {"id": ping_id} if isinstance(ping_id, str) and len(ping_id) <= 32 else {}
            connection.send(encode("pong", seq, {"server_ms": service.time.server_ms()}, **echo))
            continue
        if kind != "cmd":
            _refuse(service, connection, "bad-frame", f"unknown frame type {kind!r}")
            continue
        command_id = frame.get("id")
        if not isinstance(command_id, str) or not 1 <= len(command_id) <= 64:
            _refuse(service, connection, "bad-command", "a command needs an id of 1-64 characters")
            continue
        if not (connection.role.may(Action.COMMAND) or connection.role.may(Action.PRESS)):
            _refuse(service, connection, "read-only",
                    not_permitted(connection.role, ACTION_WORDS[Action.COMMAND]), command_id)
            continue
        if not bucket.take():
            _refuse(service, connection, "rate-limited", TOO_MANY, command_id)
            continue
        body = frame.get("d")
        kind = body.get("type") if isinstance(body, dict) else None
        if kind == "board-status":
            _board_status(service, hub, connection, command_id, body)
        elif kind == "eboard-status":
            _eboard_status(service, hub, connection, command_id, body)
        elif kind == "issue-board-key":
            await _issue_board_key(service, connection, command_id, body, origin)
        else:
            await _command(service, connection, command_id, body)


def _board_status(
    service: Service, hub: Hub, connection: Connection, command_id: str, body: Any
) -> None:
    """A board's battery, every few seconds: kept in memory for the consoles, never
    logged; answered with an ack."""
    try:
        status = BoardStatus.model_validate(body)
        status.check(connection.role, connection.board_match)
    except ValidationError as exc:
        _refuse(service, connection, "bad-command", validation_words(exc, tagged=True),
                command_id)
        return
    except PlayoffError as exc:
        _refuse(service, connection, "forbidden", exc, command_id)
        return
    hub.board_status(connection, status.battery, status.charging)
    hub.refresh_boards(connection.playoff_id)
    seq = service.playoff(connection.playoff_id).seq
    connection.send(encode("ack", seq, {"seqs": []}, id=command_id))


def _eboard_status(
    service: Service, hub: Hub, connection: Connection, command_id: str, body: Any
) -> None:
    """An e-board's state and battery from its forwarder: kept in memory for the
    consoles, never logged; answered with an ack."""
    try:
        status = EboardStatus.model_validate(body)
        status.check(connection.role)
    except ValidationError as exc:
        _refuse(service, connection, "bad-command", validation_words(exc, tagged=True),
                command_id)
        return
    except PlayoffError as exc:
        _refuse(service, connection, "forbidden", exc, command_id)
        return
    if hub.eboard_status(connection.playoff_id, status.serial, status.state, status.battery):
        hub.refresh_boards(connection.playoff_id)
    seq = service.playoff(connection.playoff_id).seq
    connection.send(encode("ack", seq, {"seqs": []}, id=command_id))


async def _issue_board_key(
    service: Service, connection: Connection, command_id: str, body: Any, origin: str
) -> None:
    """The console mints a board key for a match: answered with the key, its link and
    its QR code (as ``POST /api/events/{id}/tokens`` answers)."""
    try:
        request = IssueBoardKey.model_validate(body)
    except ValidationError as exc:
        _refuse(service, connection, "bad-command", validation_words(exc, tagged=True),
                command_id)
        return
    if not connection.role.may(Action.ISSUE_BOARD_KEYS):
        _refuse(service, connection, "forbidden",
                not_permitted(connection.role, ACTION_WORDS[Action.ISSUE_BOARD_KEYS]),
                command_id)
        return
    state = service.playoff(connection.playoff_id)
    try:
        key = await service.issue_token(
            state.event_id, Role.BOARD, "", Actor(connection.role.value, connection.token_id),
            playoff=state.id, match=request.match,
        )
    except ServiceError as exc:
        _refuse(service, connection, "conflict", exc, command_id)
        return
    answer = board_key_answer(key, state.id, request.match, origin)
    connection.send(encode("ack", service.playoff(state.id).seq, {"seqs": [], **answer},
                           id=command_id))
    service_hub = connection.hub
    service_hub.refresh_boards(state.id)


def _held_through_an_outage(command: Command, connection: Connection) -> Command:
    """A press stamped before the connection carrying it was opened was held by the
    tablet while it had no link, whatever the tablet marked it: it is judged by the
    outage allowance, not the lag allowance (a press sent just as the link dropped,
    sent again on the next connection, is such a press). The request's fingerprint is
    of what the tablet sent, so a press sent again keeps its id."""
    if (
        isinstance(command, PressClock)
        and command.stamp_ms is not None
        and not command.queued
        and connection.opened_ms is not None
        and command.stamp_ms < connection.opened_ms
    ):
        return command.model_copy(update={"queued": True})
    return command


def _origin(scope: Scope) -> str:
    """The service's address as the client reached it (``http://host:port``)."""
    headers = dict(scope.get("headers") or [])
    host = headers.get(b"host", b"").decode("latin-1") or "localhost"
    secure = scope.get("scheme") in ("wss", "https")
    return f"{'https' if secure else 'http'}://{host}"


async def _command(
    service: Service, connection: Connection, command_id: str, body: Any
) -> None:
    playoff_id = connection.playoff_id
    try:
        command = parse_command(body)
    except ValidationError as exc:
        _refuse(service, connection, "bad-command", validation_words(exc, tagged=True),
                command_id)
        return
    command = _held_through_an_outage(command, connection)
    try:
        outcome = await service.execute(
            playoff_id, command,
            actor=Actor(connection.role.value, connection.token_id, connection.board_match),
            command_id=f"ws:{connection.token_id}:{command_id}",
            fingerprint=Request.of(command_id, "WS", "cmd", body).fingerprint,
        )
    except LogUnavailable as exc:
        # The log out of reach (its database restarting): refused, the connection kept.
        _refuse(service, connection, "unavailable", exc, command_id,
                retry_after_s=exc.retry_after_s)
        return
    except ConcurrencyError:
        _refuse(service, connection, "conflict", TOO_BUSY, command_id)
        return
    except Forbidden as exc:  # the command's own rule of who may send it
        _refuse(service, connection, "forbidden", exc, command_id)
        return
    except (ServiceError, PlayoffError) as exc:
        kind = exc.kind if isinstance(exc, ServiceError | KnownRefusal) else None
        _refuse(service, connection, "conflict", exc, command_id, kind=kind)
        return
    seq = service.playoff(playoff_id).seq
    connection.send(encode("ack", seq, {"seqs": [e.seq for e in outcome.events]}, id=command_id))


# Served by WebSockets where the app has it, by the router elsewhere.
router.routes.append(WebSocketRoute(PATH, PlayoffSocket()))

__all__ = ["PlayoffSocket", "WebSockets", "router", "wire"]
