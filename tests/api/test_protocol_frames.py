"""The typed contract of the log and the wire: every frame the server sends follows
the frame models, the schemas name every event and command, and one set of command
models serves the websocket, ``POST /commands`` and the per-verb REST routes alike."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import connect

from orchestrator.core.commands import client_commands
from orchestrator.core.events import _FIELDS, ClockPressed, DeadlineSet, GameStarted, StartMoved
from orchestrator.core.protocol import EventFrame, ViewFrame, parse_server_frame
from orchestrator.core.timesource import ManualTime
from tests import support
from tests.support import ROOT
from tests.support.events import ABDU, uzchess_json
from tests.support.server import running_server

DATA = support.DATA / "uzchess-cup-masters-2025.json"


def _ok(response: httpx.Response) -> dict[str, Any]:
    assert response.status_code in (200, 201), response.text
    body: dict[str, Any] = response.json()
    return body


def test_what_each_kind_of_event_means_is_said_by_its_class() -> None:
    assert ClockPressed.clock_only and not ClockPressed.schedule_override
    assert not GameStarted.clock_only  # a start moves the schedule
    assert StartMoved.schedule_override and StartMoved.arbiter_change
    assert DeadlineSet.schedule_override and not DeadlineSet.clock_only


def test_the_schemas_name_every_logged_event_and_every_command() -> None:
    def schema(*flags: str) -> dict[str, Any]:
        done = subprocess.run(
            [sys.executable, "-m", "orchestrator.cli", "schema", *flags],
            capture_output=True, text=True, check=True, cwd=ROOT,
        )
        parsed: dict[str, Any] = json.loads(done.stdout)
        return parsed

    events = schema("--events")
    logged = set(events["playoff_stream"]["discriminator"]["mapping"])
    assert logged == set(_FIELDS)
    assert set(events["event_stream"]["discriminator"]["mapping"]) == {
        "event-created", "token-issued", "playoff-linked", "game-result-recorded",
        "hall-foresight-set",
    }
    frames = schema("--frames")
    commands = {cls.model_fields["type"].default for cls in client_commands()}
    assert commands <= set(json.dumps(frames["client_to_server"]).split('"'))
    sent = set(frames["server_to_client"]["discriminator"]["mapping"])
    assert sent == {"welcome", "event", "snapshot", "view", "ack", "error", "ping", "pong"}
    assert set(frames["views"]) == {"hall", "arbiter", "board"}


def test_every_frame_the_server_sends_follows_the_contract(tmp_path: Path) -> None:
    clock = ManualTime()

    async def run(base: str, port: int, playoff_id: str, arbiter: str) -> list[str]:
        url = f"ws://127.0.0.1:{port}/ws/playoffs/{playoff_id}"
        texts: list[str] = []
        async with connect(url) as ws:
            await ws.send(json.dumps({"t": "hello", "d": {"token": arbiter}}))
            commands: list[dict[str, Any]] = [
                {"type": "start-clock", "match": 1, "game": 1},
                {"type": "press", "match": 1, "game": 1, "side": "white"},
                {"type": "press", "match": 1, "game": 1, "side": "black", "move": 1},
                {"type": "pause", "match": 1, "game": 1},
                {"type": "pause", "match": 1, "game": 1},  # refused: already paused
                {"type": "resume", "match": 1, "game": 1},
                {"type": "result", "match": 1, "game": 1, "result": "1-0"},
                {"type": "move-start", "match": 1, "game": 2,
                 "at": "2025-06-28T16:00:00+00:00", "reason": "a photo call"},
                {"type": "nonsense"},
            ]
            for n, command in enumerate(commands):
                await ws.send(json.dumps({"t": "cmd", "id": f"c{n}", "d": command}))
                while True:
                    text = await asyncio.wait_for(ws.recv(), 5)
                    assert isinstance(text, str)
                    texts.append(text)
                    frame = json.loads(text)
                    if frame["t"] in ("ack", "error") and frame.get("id") == f"c{n}":
                        break
            await ws.send(json.dumps({"t": "ping"}))
            texts.append(str(await asyncio.wait_for(ws.recv(), 5)))
        return texts

    with running_server(tmp_path / "log.db", clock) as server, server.client() as anonymous:
        created = _ok(anonymous.post(
            "/api/events", content=uzchess_json().encode(),
            headers={"Content-Type": "application/json"},
        ))
        with server.client(created["chief_token"]) as chief:
            playoff_id = _ok(chief.post(f"/api/events/{created['id']}/playoff"))["id"]
            arbiter = _ok(chief.post(
                f"/api/events/{created['id']}/tokens", json={"role": "arbiter"}
            ))["token"]
            _ok(chief.post(f"/api/playoffs/{playoff_id}/matches/1/lots",
                           json={"method": "physical", "white": ABDU}))
        texts = asyncio.run(run(server.base_url, server.port, playoff_id, arbiter))
    frames = [parse_server_frame(text) for text in texts]
    kinds = [frame.t for frame in frames]
    assert kinds[0] == "welcome"
    assert {"snapshot", "view", "event", "ack", "error", "pong"} <= set(kinds)
    # The press without a move number is White's move 1; Black's press echoes its own.
    presses = [f for f in frames if isinstance(f, EventFrame) and f.d.type == "clock-pressed"]
    assert [(p.d.data["side"], p.d.data["move"]) for p in presses] == [
        ("white", 1), ("black", 1)
    ]
    assert all(p.d.clock is not None for p in presses)
    # A view follows the start, the result and the moved start, but no press.
    views = [f for f in frames if isinstance(f, ViewFrame)]
    assert all(v.d["view"] == "arbiter" for v in views)
    view_seqs = [v.seq for v in views]
    assert all(p.seq not in view_seqs for p in presses)


@pytest.mark.parametrize(
    ("route", "body", "field"),
    [
        ("/matches/1/games/1/result", {"result": "2-0"}, ["body", "result"]),
        ("/matches/x/games/1/result", {"result": "1-0"}, ["path", "match"]),
        ("/matches/1/games/1/result", {"result": "1-0", "game": 2}, ["body", "game"]),
        ("/commands", {"type": "result", "match": 1, "game": 1}, ["body", "result", "result"]),
    ],
)
def test_a_bad_command_body_is_refused_with_its_field_at_every_door(
    tmp_path: Path, route: str, body: dict[str, Any], field: list[str]
) -> None:
    with running_server(tmp_path / "log.db", ManualTime()) as server, server.client() as anon:
        created = _ok(anon.post(
            "/api/events", content=uzchess_json(None).encode(),
            headers={"Content-Type": "application/json"},
        ))
        with server.client(created["chief_token"]) as chief:
            playoff_id = _ok(chief.post(f"/api/events/{created['id']}/playoff"))["id"]
            before = _ok(chief.get(f"/api/playoffs/{playoff_id}"))["seq"]
            refused = chief.post(f"/api/playoffs/{playoff_id}{route}", json=body)
            assert refused.status_code == 422, refused.text
            assert refused.json()["detail"][0]["loc"] == field
            assert _ok(chief.get(f"/api/playoffs/{playoff_id}"))["seq"] == before
