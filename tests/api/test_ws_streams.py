"""The websocket protocol v1 end to end (docs/protocol.md): a real server on a port,
real websockets, the Python client library (and raw `websockets` where the client
library would refuse to misbehave).

UzChess Cup Masters 2025: match 1 is Abdusattorov v Sindarov, G/25+5, an
Armageddon (W 6' / B 5', +3 s from move 61) when level after two games.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import socket
import time
import weakref
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from clients.python.client import PlayoffClient
from clients.python.errors import AuthError, CommandError, NotFound
from orchestrator.api import ws as ws_endpoint
from orchestrator.core.commands import PressClock
from orchestrator.core.timesource import ManualTime
from playoff_formats.model import Colour
from tests import support
from tests.support.events import ABDU, PRAGG, SINDAROV
from tests.support.server import RunningServer
from tests.support.ws import (
    Reader,
    cmd,
    events_of,
    level_after_two_games,
    make_playoff,
    ok,
    press,
    raw_frames,
    raw_hello,
    served,
)

DATA = support.DATA / "uzchess-cup-masters-2025.json"
CLOCK_TYPES = {
    "game-started", "clock-pressed", "clock-paused", "clock-resumed", "clock-adjusted",
    "flag-fell", "result-recorded",
}


# --------------------------------------------------------------------------- helpers


















async def close_code(ws: ClientConnection, timeout: float = 5.0) -> int | None:
    """Read until the server closes; the close code it sent."""
    async with asyncio.timeout(timeout):
        try:
            while True:
                await ws.recv()
        except ConnectionClosed as exc:
            return exc.rcvd.code if exc.rcvd is not None else None








# --------------------------------------------------------------------------- fan-out


async def test_three_displays_see_every_event_in_order_with_its_clock(tmp_path: Path) -> None:
    clock = ManualTime()
    async with served(tmp_path / "log.db", clock) as server:
        setup = await asyncio.to_thread(make_playoff, server, 3)
        before = await asyncio.to_thread(setup.seq)
        displays = [setup.client(key, f"hall-{n}") for n, key in enumerate(setup.displays)]
        for display in displays:
            await display.connect()
        readers = [Reader(d) for d in displays]
        async with setup.client(setup.arbiter, "arbiter") as arbiter:
            assert arbiter.role == "arbiter"
            assert all(d.role == "display" for d in displays)
            arbiter_reader = Reader(arbiter)
            acks = [await arbiter.command("start-clock", match=1, game=1)]
            for move in range(1, 11):
                for side in ("white", "black"):
                    clock.advance(1_500)
                    acks.append(
                        await arbiter.command("press", match=1, game=1, side=side, move=move)
                    )
            last = acks[-1].seqs[-1]
            assert [a.seqs for a in acks] == [[before + n] for n in range(1, 22)]

            log = await asyncio.to_thread(setup.log, before)
            assert [e["seq"] for e in log] == list(range(before + 1, last + 1))
            for reader in readers:
                got = await reader.until_seq(last)
                assert got[0].t == "snapshot" and got[0].seq == before
                assert all(m.t in ("snapshot", "event", "ping") for m in got)
                events = events_of(got)
                # Every event once, in order, gapless: seq strictly +1.
                assert [m.seq for m in events] == list(range(before + 1, last + 1))
                for message, logged in zip(events, log, strict=True):
                    assert message.d["type"] == logged["type"]
                    assert message.d["data"] == logged["data"]
                    assert message.d["actor"] == logged["actor"]
                    assert message.d["type"] in CLOCK_TYPES
                    # The clock as it is after the change, at the event's instant (on
                    # the wire only: the log holds the facts).
                    shown = message.d["clock"]
                    assert "clock" not in logged["data"]
                    assert (shown["match"], shown["game"]) == (1, 1)
                    assert shown["server_ms"] == logged["data"]["at_ms"]
                    assert shown["status"] == "running"
                    assert shown["running"] in ("white", "black")
                # The clock of the last press: Black ran 1.5 s and got +5 s.
                final = events[-1].d["clock"]
                assert final["running"] == "white"
                assert final["white_ms"] == 1_500_000 + 10 * (5_000 - 1_500)
                assert final["black_ms"] == 1_500_000 + 10 * (5_000 - 1_500)

            # The arbiter's own stream: each command's events come before its ack,
            # and no frame's seq is ahead of the last event sent on that connection.
            got = await arbiter_reader.until_seq(last)
            while sum(m.t == "ack" for m in arbiter_reader.seen) < len(acks):
                await arbiter_reader.next()
            seen_event = before
            for message in arbiter_reader.seen:
                if message.t in ("event", "snapshot"):
                    seen_event = message.seq or 0
                elif message.t == "ack":
                    assert max(message.d["seqs"]) <= seen_event
                    assert (message.seq or 0) <= seen_event
        for display in displays:
            await display.close()


# --------------------------------------------------------------------------- resuming


async def test_a_display_resumes_with_last_seq_and_gets_exactly_what_it_missed(
    tmp_path: Path,
) -> None:
    clock = ManualTime()
    async with served(tmp_path / "log.db", clock) as server:
        setup = await asyncio.to_thread(make_playoff, server, 1)
        key = setup.displays[0]
        async with setup.client(setup.arbiter, "arbiter") as arbiter:
            await arbiter.command("start-clock", match=1, game=1)
            display = setup.client(key, "hall", reconnect=False)
            await display.connect()
            reader = Reader(display)
            first = await reader.next()
            assert first.t == "snapshot"
            await arbiter.command("press", match=1, game=1, side="white", move=1)
            await reader.until_seq((first.seq or 0) + 1)
            left_at = display.seq
            assert left_at == (first.seq or 0) + 1
            await display.close()

            # Made while the display was away.
            for move in range(1, 4):
                clock.advance(2_000)
                await arbiter.command("press", match=1, game=1, side="black", move=move)
                clock.advance(2_000)
                await arbiter.command("press", match=1, game=1, side="white", move=move + 1)
            current = await asyncio.to_thread(setup.seq)
            assert current == left_at + 6

            back = setup.client(key, "hall", last_seq=left_at, reconnect=False)
            async with back:
                back_reader = Reader(back)
                got = await back_reader.until_seq(current)
                assert [m.t for m in got] == ["event"] * 6  # no snapshot, nothing else
                assert [m.seq for m in got] == list(range(left_at + 1, current + 1))
                log = await asyncio.to_thread(setup.log, left_at)
                assert [m.d["data"] for m in got] == [e["data"] for e in log]
                # ... and then live events continue, none twice.
                clock.advance(2_000)
                await arbiter.command("press", match=1, game=1, side="black", move=4)
                live = await back_reader.next()
                assert (live.t, live.seq) == ("event", current + 1)

            # Up to date already: nothing to catch up, no snapshot.
            current += 1
            async with setup.client(key, "hall", last_seq=current, reconnect=False) as fresh:
                fresh_reader = Reader(fresh)
                clock.advance(2_000)
                await arbiter.command("press", match=1, game=1, side="white", move=5)
                assert [(m.t, m.seq) for m in [await fresh_reader.next()]] == [
                    ("event", current + 1)
                ]
            current += 1

            # A last_seq ahead of the log: a fresh snapshot.
            async with setup.client(key, "hall", last_seq=current + 5, reconnect=False) as ahead:
                got = [await Reader(ahead).next()]
                assert (got[0].t, got[0].seq) == ("snapshot", current)
                assert ahead.seq == current
                assert [c["match"] for c in got[0].d["clocks"]] == [1]


async def test_a_display_too_far_behind_gets_a_snapshot(tmp_path: Path) -> None:
    """More than 1000 events behind: a snapshot; exactly 1000 behind: the 1000 events."""
    clock = ManualTime()
    async with served(tmp_path / "log.db", clock) as server:
        setup = await asyncio.to_thread(make_playoff, server, 1)
        async with setup.client(setup.arbiter, "arbiter") as arbiter:
            await arbiter.command("start-clock", match=1, game=1)
        # 1001 presses (through the service: the websocket limits an arbiter to 20
        # commands a second).
        service = server.service

        async def presses() -> None:
            for n in range(1001):
                side = Colour.WHITE if n % 2 == 0 else Colour.BLACK
                command = PressClock(match=1, game=1, side=side, move=n // 2 + 1)
                await service.execute(setup.playoff_id, command, actor="test")

        await asyncio.to_thread(server.call, presses)
        current = await asyncio.to_thread(setup.seq)
        key = setup.displays[0]
        far = current - 1001
        async with setup.client(key, "hall", last_seq=far, reconnect=False) as behind:
            got = await Reader(behind).next()
            assert (got.t, got.seq) == ("snapshot", current)
        async with setup.client(key, "hall", last_seq=far + 1, reconnect=False) as catching:
            got_all = await Reader(catching).until_seq(current)
            assert [m.t for m in got_all] == ["event"] * 1000
            assert [m.seq for m in got_all] == list(range(far + 2, current + 1))


# --------------------------------------------------------------------------- refusals


async def test_a_display_is_read_only_and_nothing_is_logged(tmp_path: Path) -> None:
    async with served(tmp_path / "log.db", ManualTime()) as server:
        setup = await asyncio.to_thread(make_playoff, server, 1)
        before = await asyncio.to_thread(setup.log)
        async with setup.client(setup.displays[0], "hall") as display:
            for command in (
                {"type": "start-clock", "match": 1, "game": 1},
                {"type": "result", "match": 1, "game": 1, "result": "1-0"},
                {"type": "not-a-command"},
            ):
                with pytest.raises(CommandError) as refused:
                    await display.command(**command)
                assert refused.value.code == "read-only"
            assert display.connected
        # Raw: the error frame carries the id and the current seq.
        ws, welcome = await raw_hello(setup.ws_url, setup.displays[0])
        await ws.send(cmd("c-1", type="start-clock", match=1, game=1))
        frames = await raw_frames(ws, lambda f: f["t"] == "error")
        error = frames[-1]
        assert (error["id"], error["d"]["code"], error["seq"]) == (
            "c-1", "read-only", welcome["seq"]
        )
        await ws.close()
        assert await asyncio.to_thread(setup.log) == before


async def test_malformed_frames_get_bad_frame_and_the_connection_survives(
    tmp_path: Path,
) -> None:
    async with served(tmp_path / "log.db", ManualTime()) as server:
        setup = await asyncio.to_thread(make_playoff, server, 0)
        ws, welcome = await raw_hello(setup.ws_url, setup.arbiter)
        assert welcome["d"]["max_frame_bytes"] == 65536
        await raw_frames(ws, lambda f: f["t"] == "snapshot")
        for bad in ("this is not JSON", "[1, 2, 3]", '"hello"', "null", '{"t": "teleport"}',
                    '{"d": {}}', '{"t": 5}'):
            await ws.send(bad)
            frame = (await raw_frames(ws, lambda f: f["t"] == "error"))[-1]
            assert frame["d"]["code"] == "bad-frame", (bad, frame)
        # A command with a bad field is a bad command, not a bad frame.
        await ws.send(cmd("c-0", type="start-clock", match=0, game=1))
        frame = (await raw_frames(ws, lambda f: f["t"] == "error"))[-1]
        assert (frame["id"], frame["d"]["code"]) == ("c-0", "bad-command")
        # Still connected: a command works.
        await ws.send(cmd("c-1", type="start-clock", match=1, game=1))
        frames = await raw_frames(ws, lambda f: f["t"] in ("ack", "error"))
        assert frames[-1]["t"] == "ack", frames
        assert frames[-1]["id"] == "c-1"
        assert [f["d"]["type"] for f in frames if f["t"] == "event"] == ["game-started"]
        # A frame over 64 KiB closes the connection with 1009.
        await ws.send(cmd("c-2", type="adjust", match=1, game=1, side="white",
                          delta_ms=1000, reason="x" * 70_000))
        assert await close_code(ws) == 1009
        log = await asyncio.to_thread(setup.log)
        assert [e["type"] for e in log].count("clock-adjusted") == 0
        # ... and exactly 64 KiB is accepted.
        ws, _ = await raw_hello(setup.ws_url, setup.arbiter)
        bare = cmd("c-3", type="adjust", match=1, game=1, side="white", delta_ms=1000,
                   reason="")
        room = 65536 - len(bare.encode())
        # Six bytes a character ("\u00e9" in the frame): a reason of a few thousand
        # characters, well within a reason's length, fills the frame exactly.
        padding = "é" * (room // 6) + "x" * (room % 6)
        frame_text = cmd("c-3", type="adjust", match=1, game=1, side="white", delta_ms=1000,
                         reason=padding)
        assert len(frame_text.encode()) == 65536
        await ws.send(frame_text)
        frames = await raw_frames(ws, lambda f: f["t"] in ("ack", "error"))
        assert frames[-1]["t"] == "ack", frames[-1]
        await ws.close()


async def test_a_binary_frame_is_a_bad_frame_and_the_connection_survives(
    tmp_path: Path,
) -> None:
    """BUG: a binary frame after `hello` crashes the handler (Starlette's
    `receive_text` raises KeyError 'text', which `_receive` does not catch): the
    connection is dropped without a close frame (1006) instead of a `bad-frame`
    error (frames are JSON text; "not JSON ... gets bad-frame and the connection
    stays open")."""
    async with served(tmp_path / "log.db", ManualTime()) as server:
        setup = await asyncio.to_thread(make_playoff, server, 0)
        ws, _ = await raw_hello(setup.ws_url, setup.arbiter)
        await raw_frames(ws, lambda f: f["t"] == "snapshot")
        await ws.send(b'{"t": "ping"}')
        try:
            frame = (await raw_frames(ws, lambda f: f["t"] in ("error", "pong")))[-1]
        except ConnectionClosed as exc:
            pytest.fail(f"the connection was closed: {exc}")
        assert (frame["t"], frame["d"]["code"]) == ("error", "bad-frame")
        await ws.send(cmd("c-1", type="start-clock", match=1, game=1))
        frames = await raw_frames(ws, lambda f: f["t"] in ("ack", "error"))
        assert frames[-1]["t"] == "ack"
        await ws.close()


async def test_a_toss_before_both_players_are_known_is_refused(tmp_path: Path) -> None:
    """An Armageddon coin toss for a match whose opponent is not known yet (the final,
    waiting for match 1) is a `conflict` / 409, as for the lots of such a match (it
    once dropped the websocket and answered 500)."""
    async with served(tmp_path / "log.db", ManualTime()) as server:
        setup = await asyncio.to_thread(make_playoff, server, 0)
        ws, _ = await raw_hello(setup.ws_url, setup.arbiter)
        await raw_frames(ws, lambda f: f["t"] == "snapshot")
        await ws.send(cmd("t-1", type="coin-toss", match=2, caller=PRAGG, call="heads"))
        try:
            frame = (await raw_frames(ws, lambda f: f["t"] in ("ack", "error")))[-1]
        except ConnectionClosed as exc:
            pytest.fail(f"the connection was closed: {exc}")
        assert (frame["id"], frame["d"]["code"]) == ("t-1", "conflict")
        await ws.close()

        def rest() -> int:
            with server.client(setup.arbiter) as http:
                code: int = http.post(
                    f"{setup.base}/2/coin-toss",
                    json={"method": "service", "caller": PRAGG, "call": "heads"},
                ).status_code
            return code

        assert await asyncio.to_thread(rest) == 409


async def test_a_replayed_command_id_is_applied_once(tmp_path: Path) -> None:
    clock = ManualTime()
    async with served(tmp_path / "log.db", clock) as server:
        setup = await asyncio.to_thread(make_playoff, server, 0)
        async with setup.client(setup.arbiter, "arbiter") as arbiter:
            # Refused ids are judged afresh: a pause before the start is refused...
            with pytest.raises(CommandError) as refused:
                await arbiter.command("pause", id="p-1", match=1, game=1)
            assert refused.value.code == "conflict"
            start = await arbiter.command("start-clock", id="s-1", match=1, game=1)
            again = await arbiter.command("start-clock", id="s-1", match=1, game=1)
            assert again.seqs == start.seqs
            clock.advance(3_000)
            pressed_at = clock.server_ms()
            first = await arbiter.command("press", id="w-1", match=1, game=1, side="white",
                                          move=1)
            clock.advance(3_000)
            second = await arbiter.command("press", id="w-1", match=1, game=1, side="white",
                                           move=1)
            assert second.seqs == first.seqs
            # ... and the same id resent later, once it is allowed, is applied.
            paused = await arbiter.command("pause", id="p-1", match=1, game=1)
            assert paused.seqs == [first.seqs[0] + 1]

        # The same id on another connection with the same token: the same ack.
        ws, _ = await raw_hello(setup.ws_url, setup.arbiter)
        await ws.send(cmd("w-1", **press("white", 1)))
        frames = await raw_frames(ws, lambda f: f["t"] in ("ack", "error"))
        assert (frames[-1]["t"], frames[-1]["d"]["seqs"]) == ("ack", first.seqs)
        # Two copies at once, while the first is being made durable: one event.
        await ws.send(cmd("r-1", type="resume", match=1, game=1))
        await ws.send(cmd("r-1", type="resume", match=1, game=1))
        frames = await raw_frames(
            ws, lambda f: f.get("id") == "r-1" and f["t"] in ("ack", "error")
        )
        frames += await raw_frames(
            ws, lambda f: f.get("id") == "r-1" and f["t"] in ("ack", "error")
        )
        answers = [f for f in frames if f.get("id") == "r-1"]
        assert [a["t"] for a in answers] == ["ack", "ack"], answers
        assert answers[0]["d"]["seqs"] == answers[1]["d"]["seqs"]
        assert sum(f["t"] == "event" for f in frames) == 1
        await ws.close()

        log = await asyncio.to_thread(setup.log)
        types = [e["type"] for e in log]
        assert types.count("game-started") == 1
        assert types.count("clock-pressed") == 1
        assert types.count("clock-paused") == 1
        assert types.count("clock-resumed") == 1
        # The press logged is the first one, at its instant (not the replay's).
        pressed = next(e for e in log if e["type"] == "clock-pressed")
        assert pressed["seq"] == first.seqs[0]
        assert pressed["data"]["at_ms"] == pressed_at


# --------------------------------------------------------------------------- hello


async def test_the_token_goes_in_the_first_message_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with served(tmp_path / "log.db", ManualTime()) as server:
        setup = await asyncio.to_thread(make_playoff, server, 1, False)
        # A wrong token: an error frame, then close 4401.
        ws = await connect(setup.ws_url)
        await ws.send(json.dumps({"t": "hello", "d": {"token": "not-a-token"}}))
        error = json.loads(await asyncio.wait_for(ws.recv(), 5))
        assert error["t"] == "error" and error["d"]["code"] == "forbidden"
        assert await close_code(ws) == 4401
        # No token at all: 4401 too.
        ws = await connect(setup.ws_url)
        await ws.send(json.dumps({"t": "hello", "d": {}}))
        assert await close_code(ws) == 4401
        # The client library stops with AuthError (it never reconnects on 4401).
        with pytest.raises(AuthError):
            await setup.client("not-a-token", "hall").connect()
        # No such play-off for a valid token: it is told what it opens (4404), never
        # that it is not valid, which would have its holder retype a good token.
        with pytest.raises(NotFound) as wrong:
            await PlayoffClient(server.base_url, "nope", setup.displays[0]).connect()
        assert wrong.value.reason.startswith("this key is for UzChess Cup Masters 2025 (event ")
        assert f"its play-off is {setup.playoff_id} (" in wrong.value.reason
        # A token in the URL is not a hello.
        monkeypatch.setattr(ws_endpoint, "HELLO_TIMEOUT_S", 0.3)
        began = time.monotonic()
        ws = await connect(f"{setup.ws_url}?token={setup.displays[0]}")
        assert await close_code(ws) == 4408
        assert time.monotonic() - began < 3
        # Silence: 4408 once the hello timeout is over.
        ws = await connect(setup.ws_url)
        assert await close_code(ws) == 4408
        # A first frame that is not a hello: 4408.
        ws = await connect(setup.ws_url)
        await ws.send(cmd("c-1", type="start-clock", match=1, game=1))
        assert await close_code(ws) == 4408
        # The right token in hello: welcome.
        ws, welcome = await raw_hello(setup.ws_url, setup.displays[0])
        assert welcome["d"]["role"] == "display"
        await ws.close()


async def test_a_token_of_another_event_is_told_what_it_opens(tmp_path: Path) -> None:
    """A token that is not valid, or none, is refused in the same words; a valid token
    of another event is told what it opens (close 4404), in the same words as for a
    play-off id that does not exist: it tells nothing of the play-off it asked for."""
    async with served(tmp_path / "log.db", ManualTime()) as server:
        setup = await asyncio.to_thread(make_playoff, server, 1, False)
        other = await asyncio.to_thread(make_playoff, server, 1, False)

        async def answer(url: str, token: str | None) -> tuple[Any, int, str]:
            ws = await connect(url)
            await ws.send(json.dumps({"t": "hello", "d": {"token": token}}))
            error = json.loads(await asyncio.wait_for(ws.recv(), 5))
            with pytest.raises(ConnectionClosed) as closed:
                await asyncio.wait_for(ws.recv(), 5)
            assert closed.value.rcvd is not None
            return error, closed.value.rcvd.code, closed.value.rcvd.reason

        refused = "this token is not valid"
        for token in ("not-a-token", None):
            assert await answer(setup.ws_url, token) == (
                {"t": "error", "seq": 0, "d": {"code": "forbidden", "reason": refused}},
                4401, refused,
            )
        unknown_url = setup.ws_url.rsplit("/", 1)[0] + "/no-such"
        for token in (other.chief, other.arbiter, other.displays[0]):
            error, code, reason = await answer(setup.ws_url, token)
            opens = (
                f"this key is for UzChess Cup Masters 2025 (event {other.event_id}), not for "
                f"play-off {{!r}}: its play-off is {other.playoff_id} ("
            )
            assert code == 4404
            assert error["d"]["reason"].startswith(opens.format(setup.playoff_id))
            assert reason == error["d"]["reason"].encode()[:123].decode("utf-8", "ignore")
            none_error, none_code, _ = await answer(unknown_url, token)
            assert none_code == 4404
            assert none_error["d"]["reason"] == error["d"]["reason"].replace(
                repr(setup.playoff_id), "'no-such'"
            )


async def test_the_default_hello_timeout_is_five_seconds() -> None:
    assert ws_endpoint.HELLO_TIMEOUT_S == 5.0


async def test_a_client_silent_for_three_heartbeats_is_closed_with_4408(tmp_path: Path) -> None:
    async with served(tmp_path / "log.db", ManualTime()) as server:
        setup = await asyncio.to_thread(make_playoff, server, 2, False)
        server.app.state.hub.heartbeat_ms = 200  # for the connections made from now on
        began = time.monotonic()
        silent, welcome = await raw_hello(setup.ws_url, setup.displays[0])
        assert welcome["d"]["heartbeat_ms"] == 200
        async with setup.client(setup.displays[1], "answers-pings") as answering:
            assert await close_code(silent) == 4408  # it reads the pings, never answers
            assert 0.6 <= time.monotonic() - began < 3
            reader = Reader(answering)
            pings = [await reader.next() for _ in range(4)]
            assert [m.t for m in pings] == ["snapshot", "ping", "ping", "ping"]
            assert answering.connected  # the client library answers with pong


# --------------------------------------------------------------------------- rate limit


@pytest.mark.parametrize("rate", [None, 0.5], ids=["20-a-second", "half-a-second"])
async def test_commands_beyond_the_rate_limit_are_refused_and_not_applied(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, rate: float | None
) -> None:
    """60 commands at once: the burst of 40 is applied, then only what the rate
    refills while they are handled; the rest get `rate-limited` and are not applied.
    The bucket is read when a command is handled, so on a slow machine the real
    rate (20 a second) lets more through; a rate of 0.5 checks the refusals anywhere."""
    if rate is not None:
        monkeypatch.setattr(ws_endpoint, "COMMAND_RATE", rate)
    per_second = rate if rate is not None else ws_endpoint.COMMAND_RATE
    async with served(tmp_path / "log.db", ManualTime()) as server:
        setup = await asyncio.to_thread(make_playoff, server, 0)
        async with setup.client(setup.arbiter, "arbiter") as arbiter:
            await arbiter.command("start-clock", match=1, game=1)
            await arbiter.command("pause", match=1, game=1)
        ws, _ = await raw_hello(setup.ws_url, setup.arbiter)
        await raw_frames(ws, lambda f: f["t"] == "snapshot")
        ids = [f"a-{n}" for n in range(60)]
        began = time.monotonic()
        for command_id in ids:  # sent at once, not waiting for answers
            await ws.send(cmd(command_id, type="adjust", match=1, game=1, side="white",
                              delta_ms=1000, reason="rate limit test"))
        answers: dict[str, dict[str, Any]] = {}
        async with asyncio.timeout(20):
            while len(answers) < len(ids):
                frame = json.loads(await ws.recv())
                if frame["t"] in ("ack", "error"):
                    answers[frame["id"]] = frame
        elapsed = time.monotonic() - began
        acked = [i for i in ids if answers[i]["t"] == "ack"]
        limited = [i for i in ids if answers[i]["t"] == "error"]
        assert all(answers[i]["d"]["code"] == "rate-limited" for i in limited)
        assert 40 <= len(acked) <= 40 + per_second * elapsed + 1, (len(acked), elapsed)
        if rate is not None:
            assert len(limited) >= 15
        assert limited or elapsed >= 0.95, "60 commands in under a second exceed the burst"
        # Still connected.
        await ws.send(json.dumps({"t": "ping"}))
        assert (await raw_frames(ws, lambda f: f["t"] == "pong"))[-1]["t"] == "pong"
        await ws.close()

        log = await asyncio.to_thread(setup.log)
        adjusted = [e for e in log if e["type"] == "clock-adjusted"]
        assert len(adjusted) == len(acked)
        token_id = adjusted[0]["actor"].split(":")[1]
        assert {e["command_id"] for e in adjusted} == {f"ws:{token_id}:{i}" for i in acked}
        with setup.server.client(setup.chief) as http:
            clocks = ok(http.get(f"/api/playoffs/{setup.playoff_id}/view"))["clocks"]
        assert clocks["1:1"]["white_ms"] == 1_500_000 + 1000 * len(acked)


# --------------------------------------------------------------------------- restart


async def test_clients_reconnect_and_resume_after_a_restart(tmp_path: Path) -> None:
    clock = ManualTime()
    db = tmp_path / "log.db"
    async with served(db, clock) as server:
        setup = await asyncio.to_thread(make_playoff, server, 2)
        port = server.port
        arbiter = setup.client(setup.arbiter, "arbiter")
        displays = [setup.client(key, f"hall-{n}") for n, key in enumerate(setup.displays)]
        for client in (arbiter, *displays):
            await client.connect()
        readers = [Reader(d) for d in displays]
        await arbiter.command("start-clock", match=1, game=1)
        clock.advance(4_000)
        await arbiter.command("press", match=1, game=1, side="white", move=1)
        before_restart = arbiter.seq
        assert before_restart is not None
        for reader in readers:
            await reader.until_seq(before_restart)

    # The server is gone; a command sent now waits for the reconnection.
    clock.advance(4_000)
    pending = asyncio.create_task(
        arbiter.command("press", id="during", match=1, game=1, side="black", move=1,
                        timeout=15)
    )
    await asyncio.sleep(0.2)
    assert not arbiter.connected
    async with served(db, clock, port=port) as again:
        setup.server = again
        ack = await pending
        assert ack.seqs == [before_restart + 1]
        clock.advance(4_000)
        after = await arbiter.command("press", match=1, game=1, side="white", move=2)
        assert after.seqs == [before_restart + 2]
        # Sent again with the same id after the restart: applied once.
        assert (await arbiter.command(
            "press", id="during", match=1, game=1, side="black", move=1
        )).seqs == ack.seqs
        for reader in readers:
            got = await reader.until_seq(before_restart + 2, timeout=10)
            kinds = [m.t for m in got if m.t != "ping"]
            assert kinds == ["reconnected", "event", "event"], kinds
            assert got[0].d["code"] == 1012
            assert [m.seq for m in events_of(got)] == [before_restart + 1, before_restart + 2]
            assert [m.d["type"] for m in events_of(got)] == ["clock-pressed"] * 2
            assert reader.client.connected
        log = await asyncio.to_thread(setup.log)
        assert [e["type"] for e in log].count("clock-pressed") == 3
        for client in (arbiter, *displays):
            await client.close()


# --------------------------------------------------------------------------- slow clients


async def slow_socket(url: str, token: str) -> ClientConnection:
    """A websocket that says hello and then reads (almost) nothing: a tiny receive
    buffer, and the library stops reading from the socket after one frame."""
    raw = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    raw.setblocking(False)
    host, port = url.removeprefix("ws://").split("/")[0].split(":")
    await asyncio.get_running_loop().sock_connect(raw, (host, int(port)))
    ws = await connect(url, sock=raw, max_size=None, max_queue=1, compression=None)
    await ws.send(json.dumps({"t": "hello", "d": {"token": token, "client": "slow"}}))
    return ws


async def connection_named(server: RunningServer, name: str) -> weakref.ref[Any]:
    """A weak reference to the server's connection of the client ``name``."""

    async def find() -> weakref.ref[Any]:
        hub = server.app.state.hub
        found = [c for room in hub.rooms.values() for c in room if c.name == name]
        assert len(found) == 1, found
        return weakref.ref(found[0])

    return await asyncio.to_thread(server.call, find)


async def released(server: RunningServer, connection: weakref.ref[Any]) -> bool:
    """Whether the server let go of ``connection`` (its task, queue and pending
    send), within a second."""

    async def gone() -> bool:
        gc.collect()
        return connection() is None

    for _ in range(50):
        if await asyncio.to_thread(server.call, gone):
            return True
        await asyncio.sleep(0.02)
    return False


@pytest.mark.parametrize("window_s", [10.0, 0.0], ids=["dropped-4429", "resynced"])
async def test_a_slow_display_delays_nobody_and_is_resynced_or_dropped(
    tmp_path: Path, window_s: float
) -> None:
    """A display that reads nothing: the others get everything at once, and the slow
    one is resynced (its queue replaced by a snapshot) and, when it overflows again
    within `resync_window_s` (10 s), dropped ("too slow", 4429): its socket takes no
    more frames, so no close frame could reach it, and the server cuts it off and
    lets go of it at once, not when (if ever) it reads again. With a window of 0
    it is only ever resynced: every snapshot is followed by the events after it."""
    async with served(tmp_path / "log.db", ManualTime()) as server:
        setup = await asyncio.to_thread(make_playoff, server, 3)
        hub = server.app.state.hub
        hub.resync_window_s = window_s
        # Three connections of the arbiter (each has its own rate limit).
        arbiters = [setup.client(setup.arbiter, f"arbiter-{n}") for n in range(3)]
        fast = [setup.client(key, f"hall-{n}") for n, key in enumerate(setup.displays[:2])]
        for client in (*arbiters, *fast):
            await client.connect()
        await arbiters[0].command("start-clock", match=1, game=1)
        paused = await arbiters[0].command("pause", match=1, game=1)
        hub.queue_size = 4  # for the connections made from now on: the slow one
        slow = await slow_socket(setup.ws_url, setup.displays[2])

        async def in_room() -> int:
            count: int = hub.count(setup.playoff_id)
            return count

        async with asyncio.timeout(5):
            while await asyncio.to_thread(server.call, in_room) < 6:
                await asyncio.sleep(0.01)
        slow_connection = await connection_named(server, "slow")

        readers = [Reader(c) for c in fast]
        # 90 commands of ~60 KB each: ~5.4 MB for each display, more than the slow
        # one's socket buffers hold (the kernel's send buffer grows to 4 MB).
        commands = 90
        target = paused.seqs[-1] + commands
        received: dict[int, dict[int, float]] = {n: {} for n in range(len(fast))}

        async def follow(n: int, reader: Reader) -> None:
            while max(received[n], default=0) < target:
                message = await reader.next(timeout=20)
                if message.t == "event" and message.seq is not None:
                    received[n][message.seq] = time.monotonic()

        followers = [asyncio.create_task(follow(n, r)) for n, r in enumerate(readers)]
        acked_at: dict[int, float] = {}
        for n in range(commands):
            ack = await arbiters[n % 3].command(
                "adjust", match=1, game=1, side="white" if n % 2 else "black",
                delta_ms=1_000, reason=f"{n} " + "z" * 60_000,
            )
            acked_at[ack.seqs[0]] = time.monotonic()
        assert max(acked_at) == target
        async with asyncio.timeout(10):
            await asyncio.gather(*followers)
        for n in received:
            # Everything, and promptly (the slow one reads nothing all along).
            assert set(acked_at) <= set(received[n]), n
            lag = max(received[n][seq] - acked_at[seq] for seq in acked_at)
            assert lag < 3.0, (n, lag)
        # ... and were never resynced: their only snapshot is the first one.
        assert [sum(m.t == "snapshot" for m in r.seen) for r in readers] == [1, 1]
        assert not any(m.t == "reconnected" for r in readers for m in r.seen)
        if window_s:  # before the slow one reads anything more
            assert await asyncio.to_thread(server.call, in_room) == 5
            assert await released(server, slow_connection)

        # The slow one was dropped with 4429, or resynced (a later snapshot).
        frames: list[dict[str, Any]] = []
        code: int | None = None
        try:
            async with asyncio.timeout(10):
                while not frames or frames[-1].get("seq") != target:
                    frames.append(json.loads(await slow.recv()))
        except ConnectionClosed as exc:
            code = exc.rcvd.code if exc.rcvd is not None else None
        kinds = [(f["t"], f.get("seq")) for f in frames if f["t"] != "event"]
        assert kinds[:2] == [("welcome", paused.seqs[-1]), ("snapshot", paused.seqs[-1])]
        seqs = [f["seq"] for f in frames if f["t"] == "event"]
        if window_s:
            assert code is None, code  # cut off: no close frame
            # It got the events its socket took before it stalled, in order, then the end.
            assert seqs == list(range(paused.seqs[-1] + 1, paused.seqs[-1] + 1 + len(seqs)))
            assert len(seqs) < commands
        else:
            assert code is None, code
            resyncs = [f for f in frames[2:] if f["t"] == "snapshot"]
            assert resyncs, kinds
            # After each snapshot, live events continue at its seq + 1, gapless.
            last = paused.seqs[-1]
            for frame in frames[2:]:
                if frame["t"] == "snapshot":
                    assert frame["seq"] > last
                    last = frame["seq"]
                elif frame["t"] == "event":
                    assert frame["seq"] == last + 1
                    last = frame["seq"]
            assert last == target
            assert resyncs[-1]["d"]["state"]["seq"] == resyncs[-1]["seq"]
            assert await asyncio.to_thread(server.call, in_room) == 6
        for client in (*arbiters, *fast):
            await client.close()
        # Cut, not closed: a client reading one frame at a time would wait out the
        # whole close timeout (10 s) for a close frame queued behind the next frames.
        slow.transport.abort()


async def test_a_resync_keeps_the_answers_to_an_arbiters_commands(tmp_path: Path) -> None:
    """An arbiter's connection that stops reading while it sends commands: its
    resyncs replace the events and views it has not read with a snapshot, never the
    `ack` or `error` of a command; each answer comes once, after its events (or a
    snapshot holding them)."""
    async with served(tmp_path / "log.db", ManualTime()) as server:
        setup = await asyncio.to_thread(make_playoff, server, 0)
        hub = server.app.state.hub
        hub.resync_window_s = 0.0  # only ever resynced, never dropped
        arbiters = [setup.client(setup.arbiter, f"arbiter-{n}") for n in range(3)]
        for client in arbiters:
            await client.connect()
        await arbiters[0].command("start-clock", match=1, game=1)
        await arbiters[0].command("pause", match=1, game=1)
        hub.queue_size = 4  # for the connections made from now on: the slow one
        slow = await slow_socket(setup.ws_url, setup.arbiter)

        async def in_room() -> int:
            count: int = hub.count(setup.playoff_id)
            return count

        async with asyncio.timeout(5):
            while await asyncio.to_thread(server.call, in_room) < 4:
                await asyncio.sleep(0.01)
        # Its own commands, among 90 of ~60 KB each by the others (more than its
        # socket buffers hold): an accepted one, a refused one, an accepted one.
        own = {
            30: ("s-1", {"type": "adjust", "match": 1, "game": 1, "side": "white",
                         "delta_ms": 1, "reason": "slow"}),
            60: ("s-2", {"type": "press", "match": 1, "game": 9, "side": "white"}),
            85: ("s-3", {"type": "adjust", "match": 1, "game": 1, "side": "black",
                         "delta_ms": 1, "reason": "slow"}),
        }
        for n in range(90):
            if n in own:
                command_id, payload = own[n]
                await slow.send(cmd(command_id, **payload))
            await arbiters[n % 3].command(
                "adjust", match=1, game=1, side="white" if n % 2 else "black",
                delta_ms=1_000, reason=f"{n} " + "z" * 60_000,
            )
        last = await asyncio.to_thread(setup.seq)
        frames: list[dict[str, Any]] = []
        async with asyncio.timeout(20):
            while not any(f["t"] in ("event", "snapshot") and f["seq"] == last for f in frames):
                frames.append(json.loads(await slow.recv()))
        with contextlib.suppress(TimeoutError):  # and whatever follows
            while True:
                frames.append(json.loads(await asyncio.wait_for(slow.recv(), 1)))
        answers: dict[str, list[int]] = {}
        for index, frame in enumerate(frames):
            if frame["t"] in ("ack", "error") and "id" in frame:
                answers.setdefault(frame["id"], []).append(index)
        assert sorted(answers) == ["s-1", "s-2", "s-3"]
        assert all(len(at) == 1 for at in answers.values()), answers
        resyncs = [f for f in frames[2:] if f["t"] == "snapshot"]
        assert resyncs, "the slow arbiter was never resynced"
        got = {command_id: frames[at[0]] for command_id, at in answers.items()}
        assert [got[i]["t"] for i in ("s-1", "s-2", "s-3")] == ["ack", "error", "ack"]
        assert got["s-2"]["d"]["code"] == "conflict"
        for command_id in ("s-1", "s-3"):
            # Its events came before it, as events or in a snapshot.
            before = frames[: answers[command_id][0]]
            seen = max(f["seq"] for f in before if f["t"] in ("event", "snapshot"))
            assert max(got[command_id]["d"]["seqs"]) <= seen, command_id
        for frame in frames:  # no frame claims an event not sent before it
            if frame["t"] in ("ack", "error", "ping"):
                index = frames.index(frame)
                seen = max(f["seq"] for f in frames[:index] if f["t"] in ("event", "snapshot"))
                assert frame["seq"] <= seen, frame
        for client in arbiters:
            await client.close()
        # Cut, not closed: a client reading one frame at a time would wait out the
        # whole close timeout (10 s) for a close frame queued behind the next frames.
        slow.transport.abort()


# --------------------------------------------------------------------------- Armageddon




async def test_the_armageddon_start_carries_the_colours_and_the_rule(tmp_path: Path) -> None:
    clock = ManualTime()
    async with served(tmp_path / "log.db", clock) as server:
        setup = await asyncio.to_thread(make_playoff, server, 1)
        async with setup.client(setup.displays[0], "hall") as display:
            reader = Reader(display)
            await reader.next()  # the first snapshot
            await asyncio.to_thread(level_after_two_games, setup, clock)
            async with setup.client(setup.arbiter, "arbiter") as arbiter:
                ack = await arbiter.command("start-clock", match=1, game=3)
            got = events_of(await reader.until_seq(ack.seqs[-1]))
        rule = {
            "white": ABDU, "black": SINDAROV, "white_ms": 360_000, "black_ms": 300_000,
            "increment": "+3 s from move 61", "draw_means": "black wins",
        }
        chosen = next(m for m in got if m.d["type"] == "armageddon-colours-chosen")
        assert chosen.d["armageddon"].items() >= rule.items()
        started = got[-1]
        assert started.d["type"] == "game-started"
        assert (started.d["data"]["match"], started.d["data"]["game"]) == (1, 3)
        armageddon = started.d["armageddon"]
        assert armageddon.items() >= rule.items()
        assert "+3 s from move 61" in armageddon["time_control"]
        assert started.d["clock"]["white_ms"] == 360_000
        assert started.d["clock"]["black_ms"] == 300_000
        assert started.d["clock"]["running"] == "white"
        # A display joining now gets it in the snapshot, with the running clock.
        async with setup.client(setup.displays[0], "late") as late:
            snapshot = await Reader(late).next()
            assert snapshot.t == "snapshot"
            game3 = snapshot.d["state"]["matches"][0]["games"][2]
            assert game3["armageddon"].items() >= rule.items()
            assert [(c["match"], c["game"], c["running"]) for c in snapshot.d["clocks"]] == [
                (1, 1, None), (1, 2, None), (1, 3, "white")
            ]
