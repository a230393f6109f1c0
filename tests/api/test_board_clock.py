"""The board clock over a real server: a board key of match 1, its websocket, and
the arbiter's REST and websocket, with the service's time in the test's hands.

Match 1 of the UzChess Cup Masters 2025 play-off, game 1 at G/25+5.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection

from orchestrator.core.timesource import ManualTime
from orchestrator.views import view_schemas
from orchestrator.views.board import BoardView
from tests.support.board import unworded
from tests.support.events import ABDU, SINDAROV
from tests.support.server import RunningServer
from tests.support.ws import (
    Setup,
    cmd,
    make_playoff,
    ok,
    raw_frames,
    raw_hello,
    served,
    welcome_and_view,
)

G25 = 25 * 60_000
INC = 5_000


def board_key(
    setup: Setup, match: int = 1, token: str | None = None, language: str | None = None
) -> dict[str, Any]:
    body: dict[str, Any] = {"role": "board", "playoff": setup.playoff_id, "match": match}
    if language is not None:
        body["language"] = language
    with setup.server.client(token or setup.arbiter) as http:
        response = http.post(f"/api/events/{setup.event_id}/tokens", json=body)
    assert response.status_code == 201, response.text
    answer: dict[str, Any] = response.json()
    return answer


async def send(ws: ClientConnection, command_id: str, **d: Any) -> list[dict[str, Any]]:
    """The frames up to the one answering ``command_id`` (its ack or error, last)."""
    await ws.send(cmd(command_id, **d))
    return await raw_frames(ws, lambda f: f.get("id") == command_id)


def events(frames: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [f["d"] for f in frames if f["t"] == "event" and f["d"]["type"] == kind]


def command(setup: Setup, token: str, **d: Any) -> Any:
    with setup.server.client(token) as http:
        return http.post(f"/api/playoffs/{setup.playoff_id}/commands", json=d)


async def fire_due(server: RunningServer) -> int:
    import asyncio

    fired: int = await asyncio.to_thread(server.call, server.app.state.flags.fire_due)
    return fired


async def test_a_board_key_is_minted_with_its_link_and_qr_code(tmp_path: Path) -> None:
    async with served(tmp_path / "log.db", ManualTime()) as server:
        setup = make_playoff(server)
        answer = board_key(setup)
        key = answer["token"]
        assert answer["role"] == "board" and answer["match"] == 1
        assert answer["link"] == f"/clock/{setup.playoff_id}#key={key}"
        assert answer["qr_svg"].startswith("<svg")
        # A display key may not mint one; nor may a board key of a match it lacks.
        with server.client(setup.displays[0]) as http:
            refused = http.post(f"/api/events/{setup.event_id}/tokens", json={
                "role": "board", "playoff": setup.playoff_id, "match": 1})
        assert refused.status_code == 403
        with server.client(setup.arbiter) as http:
            refused = http.post(f"/api/events/{setup.event_id}/tokens", json={
                "role": "board", "playoff": setup.playoff_id, "match": 99})
        assert refused.status_code == 409
        assert "has no match 99" in refused.json()["detail"]
        # Over REST it reads its board only.
        with server.client(key) as http:
            view = ok(http.get(f"/api/playoffs/{setup.playoff_id}/view",
                               params={"kind": "board"}))
        assert view["view"] == "board" and view["match"] == 1
        assert view["left"] == "white" and view["status"] == "waiting"
        assert view["allowance"] == {"lag_ms": 1500, "outage_ms": 60000}
        # The view is the documented one (`playoff schema --frames` prints its schema).
        assert BoardView.model_validate(view).model_dump(mode="json") == view
        schema = view_schemas()["board"]
        assert set(view) == set(schema["properties"])
        refused = command(setup, key, type="press", match=1, game=1, side="white")
        assert refused.status_code == 403
        assert "only from its board clock page" in refused.json()["detail"]


async def test_stamped_presses_inconsistent_stamps_and_the_scope_of_a_board_key(
    tmp_path: Path,
) -> None:
    clock = ManualTime()
    async with served(tmp_path / "log.db", clock) as server:
        setup = make_playoff(server)
        key = board_key(setup)["token"]
        ws, welcome = await raw_hello(setup.ws_url, key)
        assert welcome["d"]["role"] == "board"
        first = json.loads(await ws.recv())
        assert first["t"] == "view" and first["d"]["view"] == "board"
        setup.post("/1/games/1/start")
        t0 = clock.server_ms()
        clock.advance(10_000)
        frames = await send(ws, "b-1", type="press", match=1, game=1, side="white", move=1,
                            stamp_ms=t0 + 9_400)
        assert frames[-1]["t"] == "ack"
        (pressed,) = events(frames, "clock-pressed")
        assert pressed["data"]["charged"] == "stamp" and pressed["data"]["why"] is None
        assert pressed["data"]["at_ms"] == t0 + 9_400
        assert pressed["clock"]["white_ms"] == G25 - 9_400 + INC
        # Stamped before the previous press: charged on arrival, and why.
        clock.advance(5_000)
        frames = await send(ws, "b-2", type="press", match=1, game=1, side="black", move=1,
                            stamp_ms=t0 + 9_000)
        (pressed,) = events(frames, "clock-pressed")
        assert pressed["data"]["charged"] == "arrival"
        assert pressed["data"]["why"] == "stamped before the previous press"
        assert pressed["clock"]["black_ms"] == G25 - 5_600 + INC
        # Arrived too long after its stamp.
        clock.advance(4_000)
        frames = await send(ws, "b-3", type="press", match=1, game=1, side="white", move=2,
                            stamp_ms=clock.server_ms() - 2_300)
        (pressed,) = events(frames, "clock-pressed")
        assert pressed["data"]["why"] == "arrived 2.3 s after its stamp: the allowance is 1.5 s"
        assert pressed["clock"]["white_ms"] == G25 - 9_400 + INC - 4_000 + INC
        # In the future.
        clock.advance(1_000)
        frames = await send(ws, "b-4", type="press", match=1, game=1, side="black", move=2,
                            stamp_ms=clock.server_ms() + 200)
        (pressed,) = events(frames, "clock-pressed")
        assert pressed["data"]["why"] == (
            "stamped 0.2 s ahead of the server's time: the allowance is 0.05 s"
        )
        # Its scope: its own match, its own commands.
        frames = await send(ws, "b-5", type="press", match=2, game=1, side="white")
        assert frames[-1]["t"] == "error" and frames[-1]["d"]["code"] == "forbidden"
        assert frames[-1]["d"]["reason"] == "a board key presses only the clock of match 1"
        frames = await send(ws, "b-6", type="adjust", match=1, game=1, side="white",
                            delta_ms=1000, reason="a gift")
        assert frames[-1]["d"]["code"] == "forbidden"
        assert frames[-1]["d"]["reason"].startswith(
            "a board key only presses its board's clock and calls the arbiter"
        )
        await ws.close()


async def test_a_press_stamped_before_the_flag_counts_and_a_flag_waits(tmp_path: Path) -> None:
    clock = ManualTime()
    async with served(tmp_path / "log.db", clock) as server:
        setup = make_playoff(server)
        key = board_key(setup)["token"]
        ws, _ = await raw_hello(setup.ws_url, key)
        setup.post("/1/games/1/start")
        t0 = clock.server_ms()
        left = 1_000
        assert command(setup, setup.arbiter, type="adjust", match=1, game=1, side="white",
                       delta_ms=left - G25, reason="a short test").status_code == 201
        flag_at = t0 + left
        clock.advance(left + 700)  # past the flag, the press stamped 300 ms before it
        assert await fire_due(server) == 0  # the board's press may still be on its way
        frames = await send(ws, "b-1", type="press", match=1, game=1, side="white", move=1,
                            stamp_ms=flag_at - 300)
        (pressed,) = events(frames, "clock-pressed")
        assert pressed["data"]["charged"] == "stamp"
        assert pressed["clock"]["white_ms"] == 300 + INC
        assert not [e for e in setup.log() if e["type"] == "flag-fell"]
        # Black's flag: logged only after the lag allowance, at the flag's instant.
        # Black's clock runs from the stamp: at the arrival it has 1 s less.
        black_left = pressed["clock"]["black_ms"] - 1_000
        assert command(setup, setup.arbiter, type="adjust", match=1, game=1, side="black",
                       delta_ms=1_000 - black_left, reason="a short test").status_code == 201
        black_flag = clock.server_ms() + 1_000
        clock.advance(1_000 + 1_499)
        assert await fire_due(server) == 0
        clock.advance(1)
        assert await fire_due(server) == 1
        flags = [e for e in setup.log() if e["type"] == "flag-fell"]
        assert [(f["data"]["side"], f["data"]["at_ms"]) for f in flags] == [
            ("black", black_flag)
        ]
        await ws.close()


async def test_a_board_that_has_sent_its_presses_through_the_flag_lets_it_fall_at_once(
    tmp_path: Path,
) -> None:
    """A board's ping says up to when it has sent every press (``through_ms``): the
    frames of one connection arrive in order, so past the flag's instant nothing that
    could beat it is still coming, and the flag is logged without the lag's wait."""
    clock = ManualTime()
    async with served(tmp_path / "log.db", clock) as server:
        setup = make_playoff(server)
        key = board_key(setup)["token"]
        ws, _ = await raw_hello(setup.ws_url, key)
        setup.post("/1/games/1/start")
        left = 1_000
        assert command(setup, setup.arbiter, type="adjust", match=1, game=1, side="white",
                       delta_ms=left - G25, reason="a short test").status_code == 201
        flag_at = clock.server_ms() + left
        # Said before the flag: a press may still follow, the flag waits.
        await ws.send(json.dumps({"t": "ping", "id": "p1", "through_ms": flag_at - 10}))
        (pong,) = [f for f in await raw_frames(ws, lambda f: f["t"] == "pong")
                   if f["t"] == "pong"]
        assert pong["id"] == "p1"  # the page times its own round trip with it
        clock.advance(left + 5)
        assert await fire_due(server) == 0
        # Said through the flag's instant: it falls at once, at its instant.
        await ws.send(json.dumps({"t": "ping", "id": "p2", "through_ms": flag_at + 2}))
        frames = await raw_frames(
            ws, lambda f: f["t"] == "event" and f["d"]["type"] == "flag-fell")
        (flag,) = events(frames, "flag-fell")  # no time passed on the service's clock
        assert flag["data"]["side"] == "white" and flag["data"]["at_ms"] == flag_at
        await ws.close()


async def test_queued_presses_after_an_outage(tmp_path: Path) -> None:
    clock = ManualTime()
    async with served(tmp_path / "log.db", clock) as server:
        setup = make_playoff(server)
        key = board_key(setup)["token"]
        setup.post("/1/games/1/start")
        t0 = clock.server_ms()
        clock.advance(11_000)  # offline from t0 + 500: three presses held
        ws, _ = await raw_hello(setup.ws_url, key)
        presses = [("white", 1, t0 + 1_000), ("black", 1, t0 + 3_000), ("white", 2, t0 + 6_000)]
        charged = []
        for n, (side, move, stamp) in enumerate(presses):
            frames = await send(ws, f"q-{n}", type="press", match=1, game=1, side=side,
                                move=move, stamp_ms=stamp, queued=True)
            (pressed,) = events(frames, "clock-pressed")
            charged.append((pressed["data"]["charged"], pressed["data"]["at_ms"]))
            last = pressed["clock"]
        assert charged == [("stamp", t0 + 1_000), ("stamp", t0 + 3_000), ("stamp", t0 + 6_000)]
        assert last["white_ms"] == G25 - 1_000 + INC - 3_000 + INC
        assert last["black_ms"] == G25 - 2_000 + INC
        # Past the outage allowance: refused, and the consoles alerted.
        clock.advance(61_001)
        frames = await send(ws, "q-9", type="press", match=1, game=1, side="black", move=2,
                            stamp_ms=t0 + 6_500, queued=True, held=2)
        assert frames[-1]["t"] == "error" and frames[-1]["d"]["kind"] == "outage-too-long"
        (alert,) = [e for e in setup.log() if e["type"] == "board-outage"]
        assert alert["data"]["presses"] == 2 and alert["data"]["since_ms"] == t0 + 6_500
        with server.client(setup.arbiter) as http:
            view = ok(http.get(f"/api/playoffs/{setup.playoff_id}/view",
                               params={"kind": "arbiter"}))
        (board,) = view["boards"]
        assert board["outage"] is not None and "holding 2 presses" in board["outage"]
        await ws.close()



async def test_a_press_sent_as_the_link_dropped_and_sent_again_after_it_counts_at_its_stamp(
    tmp_path: Path,
) -> None:
    """A tablet cannot always tell that its link is gone: a press it sent then, unanswered,
    goes again on the next connection as it was (not marked as held). Stamped before
    that connection was opened, it was held through the outage, and is charged at its
    stamp, not on its late arrival."""
    clock = ManualTime()
    async with served(tmp_path / "log.db", clock) as server:
        setup = make_playoff(server)
        key = board_key(setup)["token"]
        setup.post("/1/games/1/start")
        t0 = clock.server_ms()
        clock.advance(9_000)  # the press at t0 + 2 s never arrived; the link is back
        ws, _ = await raw_hello(setup.ws_url, key)
        frames = await send(ws, "b-1", type="press", match=1, game=1, side="white", move=1,
                            stamp_ms=t0 + 2_000, queued=False)
        (pressed,) = events(frames, "clock-pressed")
        assert (pressed["data"]["charged"], pressed["data"]["at_ms"]) == ("stamp", t0 + 2_000)
        assert pressed["clock"]["white_ms"] == G25 - 2_000 + INC
        # A press made on this connection, arriving late for no outage, is still
        # charged on arrival, saying why.
        stamp = clock.server_ms()
        clock.advance(2_000)
        frames = await send(ws, "b-2", type="press", match=1, game=1, side="black", move=1,
                            stamp_ms=stamp, queued=False)
        (late,) = events(frames, "clock-pressed")
        assert late["data"]["charged"] == "arrival"
        assert "after its stamp" in late["data"]["why"]
        await ws.close()


async def test_call_arbiter_sides_penalty_and_presence(tmp_path: Path) -> None:
    clock = ManualTime()
    async with served(tmp_path / "log.db", clock) as server:
        setup = make_playoff(server)
        key = board_key(setup)["token"]
        ws, _ = await raw_hello(setup.ws_url, key)
        await ws.recv()  # its view
        setup.post("/1/games/1/start")
        t0 = clock.server_ms()
        clock.advance(4_000)
        frames = await send(ws, "s-1", type="board-status", match=1, battery=0.62,
                            charging=False)
        assert frames[-1]["t"] == "ack"
        with server.client(setup.arbiter) as http:
            view = ok(http.get(f"/api/playoffs/{setup.playoff_id}/view",
                               params={"kind": "arbiter"}))
        (board,) = view["boards"]
        assert board["online"] is True and board["battery"] == 0.62
        assert board["charging"] is False and board["last_heard_ms"] == t0 + 4_000
        assert [k["match"] for k in view["board_keys"]][:1] == [1]
        # The call: the clock stops at the stamp; only an arbiter resumes.
        frames = await send(ws, "c-1", type="call-arbiter", match=1, stamp_ms=t0 + 3_800)
        (called,) = events(frames, "arbiter-called")
        assert called["data"]["at_ms"] == t0 + 3_800
        assert called["clock"]["status"] == "paused"
        assert called["clock"]["white_ms"] == G25 - 3_800
        frames = await send(ws, "c-2", type="resume", match=1, game=1)
        assert frames[-1]["d"]["code"] == "forbidden"
        assert frames[-1]["d"]["reason"] == "only an arbiter resumes the clocks after a call"
        with server.client(setup.arbiter) as http:
            view = ok(http.get(f"/api/playoffs/{setup.playoff_id}/view",
                               params={"kind": "arbiter"}))
        assert view["boards"][0]["status"] == "called"
        assert view["boards"][0]["alert"].startswith("The arbiter is called to the board of")
        assert command(setup, setup.arbiter, type="resume", match=1, game=1).status_code == 201
        # Sides, and the Laws' penalty (G/25+5 is rapid: two minutes).
        assert command(setup, setup.arbiter, type="board-sides", match=1,
                       left="black").status_code == 201
        answer = command(setup, setup.arbiter, type="penalty", match=1, game=1,
                         offender="white", reason="castled through check")
        assert answer.status_code == 201, answer.text
        with server.client(key) as http:
            board_view = ok(http.get(f"/api/playoffs/{setup.playoff_id}/view",
                                     params={"kind": "board"}))
        assert board_view["left"] == "black"
        assert board_view["clock"]["black_ms"] == G25 + 120_000
        with server.client(setup.arbiter) as http:
            view = ok(http.get(f"/api/playoffs/{setup.playoff_id}/view",
                               params={"kind": "arbiter"}))
        texts = json.dumps(view["changes"])
        assert "illegal move" in texts and "7.5.5" in texts
        await ws.close()


async def board_in(
    setup: Setup, key: str, language: str | None = None
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The welcome and the first view of a board that asks for ``language`` (or none)."""
    hello: dict[str, Any] = {"token": key, "last_seq": None, "view": "board"}
    if language is not None:
        hello["language"] = language
    return await welcome_and_view(setup, hello)


async def test_a_board_speaks_its_keys_language_or_the_one_its_hello_asks_for(
    tmp_path: Path,
) -> None:
    clock = ManualTime()
    async with served(tmp_path / "log.db", clock) as server:
        setup = make_playoff(server)
        # In English, as ever: the words the players read across the board.
        welcome, view = await board_in(setup, board_key(setup)["token"])
        assert welcome["language"] == "en"
        assert view["game_name"] == "Game 1" and view["increment"] == "+5 s"
        assert view["waits"] == "the arbiter to start the game"
        assert view["title"].endswith(" · Abdusattorov v Sindarov")
        # A key minted in the pseudo-language: every text of the view is in brackets,
        # the names and figures as they are.
        pseudo = board_key(setup, language="en-XA")["token"]
        welcome, view = await board_in(setup, pseudo)
        assert welcome["language"] == "en-XA"
        assert unworded(view) == {}
        assert view["game_name"].startswith("[Ĝåmé 1")
        assert view["increment"].startswith("[+5 š")
        assert "Abdusattorov" in view["title"] and "Sindarov" in view["title"]
        assert "reg." not in view["title"]  # the rule's citation left out, in any language
        assert "[" not in view["players"]["white"]["name"]
        # The hello asks for it (the page's ?lang=): it wins over the key's.
        welcome, view = await board_in(setup, board_key(setup)["token"], "en-XA")
        assert welcome["language"] == "en-XA" and unworded(view) == {}
        welcome, view = await board_in(setup, pseudo, "en")
        assert view["game_name"] == "Game 1"
        # The Armageddon: its draw odds and its increment from move 61, worded.
        for game in (1, 2):  # each won by White well inside the time: no flag shown
            setup.post(f"/1/games/{game}/start")
            clock.advance(60_000)
            setup.post(f"/1/games/{game}/result", {"result": "1-0"})
            clock.advance(10 * 60_000)
        setup.post("/1/coin-toss", {"method": "physical", "winner": SINDAROV})
        setup.post("/1/armageddon-colours", {"white": ABDU, "black": SINDAROV})
        welcome, view = await board_in(setup, pseudo)
        assert view["draw_means"].startswith("[ÐŔÅŴ = BĻÅÇĶ ŴÎÑŠ")
        assert view["increment"].startswith("[+3 š fŕöm mövé 61")
        # The decider's name is a built-in format's: said in the board's language too.
        assert unworded(view) == {}
        assert view["game_name"].startswith("[Åŕmåĝéddöñ")
        welcome, view = await board_in(setup, board_key(setup)["token"])
        assert view["draw_means"] == "DRAW = BLACK WINS"
        assert view["increment"] == "+3 s from move 61"
