"""Refusals a screen tells apart carry their kind beside the reason, at every door.

Two consoles pressing the same clock at the same moment send the same press: the
first counts, the second is refused as ``already-pressed`` (over the websocket, and
over REST for a console whose link is down), with the same sentence. A start
inside the interval a player is owed is ``too-early``, with the time left. The
error frames keep to the protocol's contract.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from orchestrator.core.protocol import parse_server_frame
from orchestrator.core.timesource import ManualTime
from tests.support.ws import cmd, make_playoff, press, raw_frames, raw_hello, served

ALREADY = "White's clock was already pressed after move 1 (match 1, game 1): the press counts once"


async def _answer(url: str, token: str, command_id: str, payload: dict[str, Any]) -> dict[str, Any]:
    ws, _ = await raw_hello(url, token)
    try:
        await ws.send(cmd(command_id, **payload))
        frame = (await raw_frames(ws, lambda f: f.get("id") == command_id))[-1]
    finally:
        await ws.close()
    parse_server_frame(json.dumps(frame))  # the frame as the protocol describes it
    return frame


async def test_two_consoles_pressing_the_same_clock_at_once_press_it_once(
    tmp_path: Path,
) -> None:
    clock = ManualTime()
    async with served(tmp_path / "log.db", clock) as server:
        setup = await asyncio.to_thread(make_playoff, server, 0)
        await asyncio.to_thread(setup.post, "/1/games/1/start")
        url = setup.ws_url
        first, second = await asyncio.gather(
            _answer(url, setup.chief, "chief-press", press("white", 1)),
            _answer(url, setup.arbiter, "deputy-press", press("white", 1)),
        )
        answers = sorted((first, second), key=lambda f: f["t"])
        assert [f["t"] for f in answers] == ["ack", "error"], answers
        refused = answers[1]["d"]
        assert refused == {"code": "conflict", "kind": "already-pressed", "reason": ALREADY}
        presses = [e for e in await asyncio.to_thread(setup.log) if e["type"] == "clock-pressed"]
        assert [(e["data"]["side"], e["data"]["move"]) for e in presses] == [("white", 1)]

        # The same press again over REST: the same refusal, its kind beside the reason.
        with server.client(setup.arbiter) as http:
            again = http.post(f"/api/playoffs/{setup.playoff_id}/commands",
                              json=press("white", 1))
        assert again.status_code == 409, again.text
        assert again.json() == {"detail": ALREADY, "kind": "already-pressed"}

        # Any other refusal has no kind: Black's second move is not due yet.
        early = await _answer(url, setup.arbiter, "black-2", press("black", 2))
        assert early["t"] == "error" and "kind" not in early["d"], early
        assert early["d"]["reason"] == (
            "cannot press black's clock after move 2: black's next move is move 1")


async def test_a_start_inside_the_interval_is_too_early_with_the_time_left(
    tmp_path: Path,
) -> None:
    clock = ManualTime()
    async with served(tmp_path / "log.db", clock) as server:
        setup = await asyncio.to_thread(make_playoff, server, 0)
        await asyncio.to_thread(setup.post, "/1/games/1/start")
        clock.advance(30 * 60_000)
        await asyncio.to_thread(setup.post, "/1/games/1/result", {"result": "1-0"})
        clock.advance(60_000)
        with server.client(setup.arbiter) as http:
            refused = http.post(f"{setup.base}/1/games/2/start")
        assert refused.status_code == 409, refused.text
        body = refused.json()
        assert body["kind"] == "too-early"
        assert body["detail"].startswith("too early for match 1, game 2: not less than 5 minutes")
        assert "(4 minutes from now)" in body["detail"]
        frame = await _answer(setup.ws_url, setup.arbiter, "start-2",
                              {"type": "start-clock", "match": 1, "game": 2})
        assert frame["d"] == {"code": "conflict", "kind": "too-early", "reason": body["detail"]}
