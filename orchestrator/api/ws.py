"""The websocket endpoint: ``/ws/playoffs/{playoff_id}`` (docs/protocol.md)."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any, Protocol

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from pydantic import ValidationError

from orchestrator.commands import parse_command
from orchestrator.errors import ServiceError
from orchestrator.hub import Connection, Hub, ViewKind, encode
from orchestrator.service import Request, Service
from playoff_formats.errors import InputError, PlayoffError
from playoff_formats.io.strict_json import load_json

router = APIRouter()

HELLO_TIMEOUT_S = 5.0
COMMAND_RATE = 20.0
COMMAND_BURST = 40.0
BAD_TOKEN = "this token is not valid"
"""The one answer to every token refused: unknown, missing, or another event's (which
would otherwise tell whoever holds it that it is valid somewhere)."""


class _Transport(Protocol):
    def abort(self) -> None: ...


class _Socket:
    """The hub's handle on one websocket: it sends and closes as the app does, and
    can cut the connection off, which ASGI has no message for."""

    def __init__(self, websocket: WebSocket) -> None:
        # Bound once: the hub sends every frame through them.
        self.send_text = websocket.send_text
        self.close = websocket.close
        self._transport = _transport_of(websocket)

    def abort(self) -> None:
        if self._transport is not None:
            self._transport.abort()


def _transport_of(websocket: WebSocket) -> _Transport | None:
    """The connection's transport. uvicorn's websocket protocols hand the app their
    own ``receive`` and hold it; under a server that does not, a connection is only
    ever closed, never cut off."""
    server = getattr(websocket._receive, "__self__", None)
    transport = getattr(server, "transport", None)
    return transport if callable(getattr(transport, "abort", None)) else None


class _Bucket:
    """A token bucket: ``rate`` commands a second, bursts of ``burst``."""

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


@router.websocket("/ws/playoffs/{playoff_id}")
async def playoff_socket(websocket: WebSocket, playoff_id: str) -> None:
    service: Service = websocket.app.state.service
    hub: Hub = websocket.app.state.hub
    await websocket.accept()
    try:
        hello = json.loads(await asyncio.wait_for(websocket.receive_text(), HELLO_TIMEOUT_S))
    except (TimeoutError, json.JSONDecodeError, KeyError):
        await websocket.close(code=4408, reason="send hello first")
        return
    except WebSocketDisconnect:
        return
    d = hello.get("d") if isinstance(hello, dict) else None
    if not isinstance(hello, dict) or hello.get("t") != "hello" or not isinstance(d, dict):
        await websocket.close(code=4408, reason="send hello first")
        return
    # The token first: nobody without one learns whether a play-off id exists.
    address = websocket.client.host if websocket.client is not None else None
    try:
        state, record = service.authorize_playoff(
            playoff_id, str(d.get("token") or ""), write=False, address=address
        )
    except ServiceError as exc:
        if exc.status == 404:
            await _refuse_hello(websocket, 4404, exc.reason)
        else:
            await _refuse_hello(websocket, 4401, BAD_TOKEN)
        return

    socket = _Socket(websocket)
    connection = Connection(
        hub=hub, socket=socket, playoff_id=playoff_id, role=record.role,
        token_id=record.token_id, name=str(d.get("client") or ""), queue_size=hub.queue_size,
        view=ViewKind.for_role(record.role, d.get("view")),
    )
    hub.join(connection)  # live events are held until the catch-up is queued
    last_seq = d.get("last_seq")
    connection.send(encode("welcome", state.seq, {
        "role": record.role.value, "server_ms": service.time.server_ms(),
        "heartbeat_ms": hub.heartbeat_ms, "max_frame_bytes": 65536,
    }))
    try:
        await _catch_up(service, hub, connection, last_seq)
        await _receive(service, hub, connection, websocket)
    finally:
        hub.leave(connection)
        # The server may have closed it behind frames a peer never reads (a
        # restart's 1012): that peer gets its time to answer, not forever.
        hub.cut_off_later(socket)


async def _refuse_hello(websocket: WebSocket, code: int, reason: str) -> None:
    await websocket.send_text(encode("error", 0, {"code": "forbidden", "reason": reason}))
    await websocket.close(code=code, reason=reason[:120])


async def _catch_up(
    service: Service, hub: Hub, connection: Connection, last_seq: object
) -> None:
    state = service.playoff(connection.playoff_id)
    current = state.seq
    usable = (
        isinstance(last_seq, int) and not isinstance(last_seq, bool)
        and 0 <= last_seq <= current and current - last_seq <= hub.catchup_limit
    )
    if usable:
        assert isinstance(last_seq, int)
        connection.last_seq = last_seq
        upto = current
        frames = hub.recent_frames(connection.playoff_id, last_seq, current)
        if frames is None:  # older than what this process sent: from the log
            missed = await service.log(
                connection.playoff_id, after=last_seq, limit=current - last_seq
            )
            frames = [encode("event", logged.seq, logged.wire()) for logged in missed]
            upto = missed[-1].seq if missed else last_seq
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


def _refuse(
    service: Service, connection: Connection, code: str, reason: str, command_id: str | None = None
) -> None:
    """An error frame: the command or frame is refused and nothing changes."""
    seq = service.playoff(connection.playoff_id).seq
    extra = {"id": command_id} if command_id is not None else {}
    connection.send(encode("error", seq, {"code": code, "reason": reason}, **extra))


async def _receive(
    service: Service, hub: Hub, connection: Connection, websocket: WebSocket
) -> None:
    bucket = _Bucket(COMMAND_RATE, COMMAND_BURST)
    while not connection.closed:
        try:
            message = await websocket.receive()
        except (WebSocketDisconnect, RuntimeError):
            return
        if message["type"] == "websocket.disconnect":
            return
        connection.last_heard = time.monotonic()
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
            connection.send(encode("pong", seq, {"server_ms": service.time.server_ms()}))
            continue
        if kind != "cmd":
            _refuse(service, connection, "bad-frame", f"unknown frame type {kind!r}")
            continue
        command_id = frame.get("id")
        if not isinstance(command_id, str) or not 1 <= len(command_id) <= 64:
            _refuse(service, connection, "bad-command", "a command needs an id of 1-64 characters")
            continue
        if not connection.role.may_write():
            _refuse(service, connection, "read-only", "a display is read-only", command_id)
            continue
        if not bucket.take():
            _refuse(service, connection, "rate-limited", "more than 20 commands a second",
                    command_id)
            continue
        await _command(service, connection, command_id, frame.get("d"))


async def _command(
    service: Service, connection: Connection, command_id: str, body: Any
) -> None:
    playoff_id = connection.playoff_id
    try:
        command = parse_command(body)
    except ValidationError as exc:
        first = exc.errors(include_url=False)[0]
        where = ".".join(str(p) for p in first["loc"])
        _refuse(service, connection, "bad-command", f"{where}: {first['msg']}", command_id)
        return
    try:
        outcome = await service.execute(
            playoff_id, command, actor=f"{connection.role.value}:{connection.token_id}",
            command_id=f"ws:{connection.token_id}:{command_id}",
            fingerprint=Request.of(command_id, "WS", "cmd", body).fingerprint,
        )
    except (ServiceError, PlayoffError) as exc:
        reason = getattr(exc, "reason", None) or (exc.args[0] if exc.args else str(exc))
        _refuse(service, connection, "conflict", str(reason), command_id)
        return
    seq = service.playoff(playoff_id).seq
    connection.send(encode("ack", seq, {"seqs": [e.seq for e in outcome.events]}, id=command_id))


__all__ = ["router"]
