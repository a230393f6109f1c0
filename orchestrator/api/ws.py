"""The websocket endpoint: ``/ws/playoffs/{playoff_id}`` (docs/protocol.md)."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from pydantic import ValidationError

from orchestrator.commands import parse_command
from orchestrator.errors import ServiceError
from orchestrator.hub import Connection, Hub, ViewKind, encode
from orchestrator.service import Service
from playoff_formats.errors import PlayoffError

router = APIRouter()

HELLO_TIMEOUT_S = 5.0
COMMAND_RATE = 20.0
COMMAND_BURST = 40.0


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
    try:
        state = service.playoff(playoff_id)
        record = service.authorize(state.event_id, str(d.get("token") or ""), write=False)
    except ServiceError as exc:
        code = 4404 if exc.status == 404 else 4401
        await websocket.send_text(encode("error", 0, {"code": "forbidden", "reason": exc.reason}))
        await websocket.close(code=code, reason=exc.reason[:120])
        return

    connection = Connection(
        hub=hub, socket=websocket, playoff_id=playoff_id, role=record.role,
        token_id=record.token_id, name=str(d.get("client") or ""), queue_size=hub.queue_size,
        view=ViewKind.for_role(record.role, d.get("view")),
    )
    hub.join(connection)  # live events are held until the catch-up is queued
    last_seq = d.get("last_seq")
    connection.send(encode("welcome", state.seq, {
        "role": record.role.value, "server_ms": service.time.server_ms(),
        "heartbeat_ms": hub.heartbeat_ms, "max_frame_bytes": 65536,
    }))
    await _catch_up(service, hub, connection, last_seq)
    try:
        await _receive(service, hub, connection, websocket)
    finally:
        hub.leave(connection)


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
            connection.send(frame)
    else:
        state = service.playoff(connection.playoff_id)
        connection.send(hub.snapshot_frame(state))
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
        try:
            frame = json.loads(text)
        except json.JSONDecodeError as exc:
            _refuse(service, connection, "bad-frame", f"not JSON: {exc.msg}")
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
        )
    except (ServiceError, PlayoffError) as exc:
        reason = getattr(exc, "reason", None) or (exc.args[0] if exc.args else str(exc))
        _refuse(service, connection, "conflict", str(reason), command_id)
        return
    seq = service.playoff(playoff_id).seq
    connection.send(encode("ack", seq, {"seqs": [e.seq for e in outcome.events]}, id=command_id))


__all__ = ["router"]
