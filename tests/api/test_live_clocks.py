"""Whole games with the service as the clock: a manual time source, a real server,
commands through the websocket client (and REST for lots, starts and results).

Match 1 of the UzChess Cup Masters 2025 play-off: Abdusattorov v Sindarov, G/25+5,
and the Armageddon (W 6' / B 5', +3 s from move 61) when level after two games.
Every remaining time is checked to the millisecond.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from clients.python.client import Message, PlayoffClient
from clients.python.errors import CommandError
from orchestrator.api import ws as ws_endpoint
from orchestrator.core.timesource import ManualTime
from tests.support.events import ABDU, PRAGG, SINDAROV
from tests.support.server import RunningServer
from tests.support.ws import Reader, Setup, level_after_two_games, make_playoff, served

G25 = 25 * 60_000
INC = 5_000


@dataclass
class Arbiter:
    """An arbiter's client: each command returns the events it made (from the
    arbiter's own stream, where a command's events come before its ack)."""

    client: PlayoffClient
    reader: Reader

    async def do(self, type: str, **fields: Any) -> list[Message]:
        ack = await self.client.command(type, **fields)
        wanted = set(ack.seqs)
        events = [
            m for m in self.reader.seen
            if m.t == "event" and m.seq in wanted
        ]
        while len(events) < len(wanted):
            message = await self.reader.next()
            if message.t == "event" and message.seq in wanted:
                events.append(message)
        return events

    async def clock(self, type: str, **fields: Any) -> dict[str, Any]:
        """The clock after a one-event command."""
        (event,) = await self.do(type, **fields)
        clock: dict[str, Any] = event.d["clock"]
        return clock

    async def refused(self, type: str, **fields: Any) -> CommandError:
        with pytest.raises(CommandError) as refused:
            await self.client.command(type, **fields)
        return refused.value


async def arbiter_of(setup: Setup) -> Arbiter:
    client = setup.client(setup.arbiter, "arbiter")
    await client.connect()
    return Arbiter(client, Reader(client))


async def fire_due(server: RunningServer) -> int:
    fired: int = await asyncio.to_thread(server.call, server.app.state.flags.fire_due)
    return fired


def game_of(setup: Setup, match: int, game: int) -> dict[str, Any]:
    with setup.server.client(setup.chief) as http:
        state = http.get(f"/api/playoffs/{setup.playoff_id}").json()
    found: dict[str, Any] = state["matches"][match - 1]["games"][game - 1]
    return found


def flag_and_result(log: list[dict[str, Any]]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The last `flag-fell` and the `result-recorded` logged with it (one command, so
    the next seq; the scheduler's own events may come after them)."""
    at = max(n for n, e in enumerate(log) if e["type"] == "flag-fell")
    flag, result = log[at], log[at + 1]
    assert result["type"] == "result-recorded" and result["seq"] == flag["seq"] + 1
    return flag, result


def basic(clock: dict[str, Any]) -> dict[str, Any]:
    """A clock's times, who runs and the instant, without the move counts."""
    keys = ("match", "game", "white_ms", "black_ms", "running", "status", "server_ms")
    return {k: clock[k] for k in keys}


def playoff_of(setup: Setup) -> dict[str, Any]:
    with setup.server.client(setup.chief) as http:
        state: dict[str, Any] = http.get(f"/api/playoffs/{setup.playoff_id}").json()
    return state


# --------------------------------------------------------------------------- G/25+5


async def test_a_g25_game_with_presses_then_a_game_lost_on_time(tmp_path: Path) -> None:
    clock = ManualTime()
    async with served(tmp_path / "log.db", clock) as server:
        setup = await asyncio.to_thread(make_playoff, server, 1)
        arbiter = await arbiter_of(setup)
        display = setup.client(setup.displays[0], "hall")
        await display.connect()
        watching = Reader(display)

        # Game 1: Abdusattorov (White) v Sindarov. Exact times after every press.
        started = await arbiter.clock("start-clock", match=1, game=1)
        t0 = clock.server_ms()
        assert started["next_move"] == 1 and started["to_move"] == "white"
        assert basic(started) == {
            "match": 1, "game": 1, "white_ms": G25, "black_ms": G25, "running": "white",
            "status": "running", "server_ms": t0,
        }
        white, black = G25, G25
        thinking = [(12_345, 7_000), (30_000, 61_001), (4_999, 5_000), (120_000, 1)]
        for move, (w, b) in enumerate(thinking, start=1):
            clock.advance(w)
            shown = await arbiter.clock("press", match=1, game=1, side="white", move=move)
            white += INC - w
            assert (shown["white_ms"], shown["black_ms"], shown["running"]) == (
                white, black, "black"
            )
            assert shown["server_ms"] == clock.server_ms()
            clock.advance(b)
            shown = await arbiter.clock("press", match=1, game=1, side="black", move=move)
            black += INC - b
            assert (shown["white_ms"], shown["black_ms"], shown["running"]) == (
                white, black, "white"
            )
        assert (white, black) == (G25 - 167_344 + 20_000, G25 - 73_002 + 20_000)
        # Out of turn, the wrong move number: refused, nothing changes.
        assert (await arbiter.refused(
            "press", match=1, game=1, side="black", move=5
        )).code == "conflict"
        assert (await arbiter.refused(
            "press", match=1, game=1, side="white", move=7
        )).code == "conflict"
        # White resigns after 50 s on move 5: the clock stops with White's time used
        # and no increment.
        clock.advance(50_000)
        (result,) = await arbiter.do("result", match=1, game=1, result="0-1")
        assert result.d["clock"]["status"] == "stopped"
        assert result.d["clock"]["running"] is None
        assert (result.d["clock"]["white_ms"], result.d["clock"]["black_ms"]) == (
            white - 50_000, black
        )

        # Game 2: Sindarov (White) v Abdusattorov; Black's flag falls.
        clock.advance(10 * 60_000)
        await arbiter.do("start-clock", match=1, game=2)
        clock.advance(20_000)
        await arbiter.do("press", match=1, game=2, side="white", move=1)
        pressed_at = clock.server_ms()
        flag_at = pressed_at + G25  # Black thinks for the whole 25 minutes
        clock.advance(G25 - 1)
        assert await fire_due(server) == 0  # 1 ms to go
        clock.advance(1)
        # At the flag instant Black's press is refused: no increment after the flag.
        refused = await arbiter.refused("press", match=1, game=2, side="black", move=1)
        assert refused.code == "conflict"
        assert "flag" in refused.reason
        assert (await arbiter.refused(
            "adjust", match=1, game=2, side="black", delta_ms=60_000, reason="too late"
        )).code == "conflict"
        clock.advance(2_500)  # the timer fires late: the flag fell at its instant
        assert await fire_due(server) == 1
        assert await fire_due(server) == 0

        log = await asyncio.to_thread(setup.log)
        flag, recorded = flag_and_result(log)
        assert flag["type"] == "flag-fell" and flag["actor"] == "server"
        assert flag["data"]["at_ms"] == flag_at
        assert flag["data"]["side"] == "black"
        assert recorded["type"] == "result-recorded"
        assert (recorded["data"]["result"], recorded["data"]["at_ms"]) == ("1-0", flag_at)
        assert [e["type"] for e in log].count("clock-pressed") == 9
        # Both went out as events to the display, with the clock as the flag left it.
        got = await watching.until_seq(recorded["seq"])
        sent = [m for m in got if m.t == "event"][-2:]
        assert [m.d["type"] for m in sent] == ["flag-fell", "result-recorded"]
        assert basic(sent[0].d["clock"]) == {
            "match": 1, "game": 2, "white_ms": G25 - 20_000 + INC, "black_ms": 0,
            "running": None, "status": "flagged", "server_ms": flag_at,
        }
        assert sent[1].d["clock"]["black_ms"] == 0
        # The match is decided, 2-0 for Sindarov, who meets Praggnanandhaa in the final.
        state = await asyncio.to_thread(playoff_of, setup)
        first, final = state["matches"]
        assert [g["result"] for g in first["games"][:2]] == ["0-1", "1-0"]
        assert first["decision"]["winner"] == SINDAROV
        assert set(final["players"]) == {PRAGG, SINDAROV}
        # The game is over: nothing more on its clock.
        assert (await arbiter.refused(
            "press", match=1, game=2, side="black", move=1
        )).code == "conflict"
        await arbiter.client.close()
        await display.close()


async def test_a_press_one_millisecond_before_the_flag_gets_its_increment(
    tmp_path: Path,
) -> None:
    clock = ManualTime()
    async with served(tmp_path / "log.db", clock) as server:
        setup = await asyncio.to_thread(make_playoff, server, 0)
        arbiter = await arbiter_of(setup)
        await arbiter.do("start-clock", match=1, game=1)
        clock.advance(G25 - 1)
        shown = await arbiter.clock("press", match=1, game=1, side="white", move=1)
        assert shown["white_ms"] == 1 + INC
        # The timer moved: White's flag now falls 5001 ms after Black's press.
        clock.advance(1_000)
        await arbiter.do("press", match=1, game=1, side="black", move=1)
        clock.advance(1 + INC - 1)
        assert await fire_due(server) == 0
        clock.advance(1)
        assert await fire_due(server) == 1
        flag, result = flag_and_result(await asyncio.to_thread(setup.log))
        assert result["data"]["result"] == "0-1"
        assert flag["data"]["at_ms"] == clock.server_ms()
        await arbiter.client.close()


# --------------------------------------------------------------------------- pause, adjust


async def test_no_time_runs_while_a_clock_is_paused(tmp_path: Path) -> None:
    clock = ManualTime()
    async with served(tmp_path / "log.db", clock) as server:
        setup = await asyncio.to_thread(make_playoff, server, 0)
        arbiter = await arbiter_of(setup)
        await arbiter.do("start-clock", match=1, game=1)
        clock.advance(10_000)
        await arbiter.do("press", match=1, game=1, side="white", move=1)
        black_from = clock.server_ms()
        clock.advance(40_000)
        paused = await arbiter.clock("pause", match=1, game=1)
        assert basic(paused) == {
            "match": 1, "game": 1, "white_ms": G25 - 10_000 + INC, "black_ms": G25 - 40_000,
            "running": None, "status": "paused", "server_ms": clock.server_ms(),
        }
        clock.advance(5 * 60_000)  # a five-minute stoppage
        assert (await arbiter.refused(
            "press", match=1, game=1, side="black", move=1
        )).code == "conflict"
        assert (await arbiter.refused("pause", match=1, game=1)).code == "conflict"
        resumed = await arbiter.clock("resume", match=1, game=1)
        assert (resumed["white_ms"], resumed["black_ms"], resumed["running"]) == (
            G25 - 10_000 + INC, G25 - 40_000, "black"
        )
        assert resumed["status"] == "running"
        # The flag falls five minutes later than it would have without the pause.
        unpaused_flag = black_from + G25
        clock.advance(unpaused_flag - clock.server_ms() + 1)
        assert await fire_due(server) == 0
        clock.advance(5 * 60_000)
        assert await fire_due(server) == 1
        flag, _ = flag_and_result(await asyncio.to_thread(setup.log))
        assert flag["data"]["at_ms"] == unpaused_flag + 5 * 60_000
        await arbiter.client.close()


async def test_time_given_and_taken_with_a_reason(tmp_path: Path) -> None:
    clock = ManualTime()
    async with served(tmp_path / "log.db", clock) as server:
        setup = await asyncio.to_thread(make_playoff, server, 0)
        arbiter = await arbiter_of(setup)
        await arbiter.do("start-clock", match=1, game=1)
        clock.advance(30_000)
        await arbiter.do("press", match=1, game=1, side="white", move=1)
        clock.advance(20_000)
        # White made an illegal move: two minutes to Black (FIDE A.4.4), while Black's
        # clock runs; then a minute taken from White, whose clock is not running.
        (given,) = await arbiter.do(
            "adjust", match=1, game=1, side="black", delta_ms=120_000,
            reason="illegal move by White: 2 minutes to Black",
        )
        assert given.d["data"]["reason"] == "illegal move by White: 2 minutes to Black"
        assert (given.d["clock"]["white_ms"], given.d["clock"]["black_ms"]) == (
            G25 - 30_000 + INC, G25 - 20_000 + 120_000
        )
        assert given.d["clock"]["running"] == "black"
        (taken,) = await arbiter.do(
            "adjust", match=1, game=1, side="white", delta_ms=-60_000,
            reason="clock set wrongly at the start",
        )
        assert taken.d["clock"]["white_ms"] == G25 - 30_000 + INC - 60_000
        # No reason, or more than White has: refused, nothing logged.
        assert (await arbiter.refused(
            "adjust", match=1, game=1, side="white", delta_ms=1_000
        )).code == "bad-command"
        assert (await arbiter.refused(
            "adjust", match=1, game=1, side="white", delta_ms=-G25, reason="too much"
        )).code == "conflict"
        assert (await arbiter.refused(
            "adjust", match=1, game=1, side="white", delta_ms=0, reason="nothing"
        )).code == "conflict"
        # Logged, and shown in the play-off's changes with who, how much and why.
        changes = (await asyncio.to_thread(playoff_of, setup))["changes"]
        adjusted = [c for c in changes if c["type"] == "clock-adjusted"]
        assert [(c["seq"], c["side"], c["delta_ms"], c["reason"]) for c in adjusted] == [
            (given.seq, "black", 120_000, "illegal move by White: 2 minutes to Black"),
            (taken.seq, "white", -60_000, "clock set wrongly at the start"),
        ]
        log = await asyncio.to_thread(setup.log)
        assert [e["type"] for e in log].count("clock-adjusted") == 2
        assert all(e["actor"].startswith("arbiter:") for e in log if e["type"] == "clock-adjusted")
        # The flag timer moved with the two minutes given.
        black_flag = clock.server_ms() + G25 - 20_000 + 120_000
        clock.advance(G25 - 20_000 + 1)
        assert await fire_due(server) == 0
        clock.advance(black_flag - clock.server_ms())
        assert await fire_due(server) == 1
        flag, _ = flag_and_result(await asyncio.to_thread(setup.log))
        assert flag["data"]["at_ms"] == black_flag
        await arbiter.client.close()


# --------------------------------------------------------------------------- Armageddon


async def test_the_armageddon_increment_comes_on_completing_move_61(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # 120 presses in a few hundred ms: beyond the websocket's 20 commands a second.
    monkeypatch.setattr(ws_endpoint, "COMMAND_RATE", 10_000.0)
    monkeypatch.setattr(ws_endpoint, "COMMAND_BURST", 10_000.0)
    clock = ManualTime()
    async with served(tmp_path / "log.db", clock) as server:
        setup = await asyncio.to_thread(make_playoff, server, 0)
        await asyncio.to_thread(level_after_two_games, setup, clock)
        arbiter = await arbiter_of(setup)
        started = await arbiter.clock("start-clock", match=1, game=3)
        assert (started["white_ms"], started["black_ms"]) == (360_000, 300_000)
        white, black = 360_000, 300_000
        for move in range(1, 63):
            clock.advance(1_000)
            shown = await arbiter.clock("press", match=1, game=3, side="white", move=move)
            white += -1_000 + (3_000 if move >= 61 else 0)
            assert shown["white_ms"] == white, move
            clock.advance(1_000)
            shown = await arbiter.clock("press", match=1, game=3, side="black", move=move)
            black += -1_000 + (3_000 if move >= 61 else 0)
            assert shown["black_ms"] == black, move
            if move == 60:
                assert (white, black) == (300_000, 240_000)  # no increment for move 60
            if move == 61:
                assert (white, black) == (302_000, 242_000)  # the first +3 s
        assert (white, black) == (304_000, 244_000)
        # A draw: Black (Sindarov, the toss winner) wins the match (reg. 10 b).
        clock.advance(1_000)
        (result,) = await arbiter.do("result", match=1, game=3, result="1/2-1/2")
        assert result.d["clock"]["white_ms"] == white - 1_000
        state = await asyncio.to_thread(playoff_of, setup)
        first = state["matches"][0]
        assert first["games"][2]["white"] == ABDU
        assert first["decision"]["winner"] == SINDAROV
        assert first["decision"]["method"] == "armageddon-draw"
        await arbiter.client.close()


# --------------------------------------------------------------------------- restart


async def test_a_running_clock_runs_through_a_restart_and_its_flag_is_armed_again(
    tmp_path: Path,
) -> None:
    clock = ManualTime()
    db = tmp_path / "log.db"
    async with served(db, clock) as server:
        setup = await asyncio.to_thread(make_playoff, server, 1)
        arbiter = await arbiter_of(setup)
        await arbiter.do("start-clock", match=1, game=1)
        clock.advance(15_000)
        await arbiter.do("press", match=1, game=1, side="white", move=1)
        clock.advance(45_000)
        black_from = clock.server_ms() - 45_000
        await arbiter.client.close()
        port = server.port

    clock.advance(2 * 60_000)  # two minutes of downtime
    async with served(db, clock, port=port) as again:
        setup.server = again
        async with setup.client(setup.displays[0], "hall") as display:
            snapshot = await Reader(display).next()
        assert snapshot.t == "snapshot"
        (shown,) = snapshot.d["clocks"]
        # The clock ran through the downtime: Black's 45 s and the 2 minutes.
        assert basic(shown) == {
            "match": 1, "game": 1, "white_ms": G25 - 15_000 + INC,
            "black_ms": G25 - 45_000 - 2 * 60_000, "running": "black", "status": "running",
            "server_ms": clock.server_ms(),
        }
        # The new process armed Black's flag again.
        flag_at = black_from + G25
        clock.advance(flag_at - clock.server_ms() - 1)
        assert await fire_due(again) == 0
        clock.advance(1)
        assert await fire_due(again) == 1
        flag, result = flag_and_result(await asyncio.to_thread(setup.log))
        assert flag["data"]["at_ms"] == flag_at
        assert result["data"]["result"] == "1-0"
        assert (await asyncio.to_thread(game_of, setup, 1, 1))["result"] == "1-0"


async def test_a_flag_that_fell_during_the_downtime_is_logged_at_its_instant(
    tmp_path: Path,
) -> None:
    clock = ManualTime()
    db = tmp_path / "log.db"
    async with served(db, clock) as server:
        setup = await asyncio.to_thread(make_playoff, server, 0)
        arbiter = await arbiter_of(setup)
        await arbiter.do("start-clock", match=1, game=1)
        flag_at = clock.server_ms() + G25
        await arbiter.client.close()

    clock.advance(G25 + 60_000)  # White's flag fell a minute before the restart
    async with served(db, clock) as again:
        setup.server = again
        # The timer is armed at start-up, already due: it fires by itself.
        async with asyncio.timeout(5):
            while not any(e["type"] == "flag-fell" for e in await asyncio.to_thread(setup.log)):
                await asyncio.sleep(0.02)
        flag, result = flag_and_result(await asyncio.to_thread(setup.log))
        assert (flag["data"]["at_ms"], flag["data"]["side"]) == (flag_at, "white")
        assert result["data"]["result"] == "0-1"
        assert await fire_due(again) == 0


# --------------------------------------------------------------------------- bugs found


async def test_lots_cannot_be_drawn_again_once_game_one_has_started(tmp_path: Path) -> None:
    """BUG: the lots for game 1 may be drawn again while game 1 is being played (its
    clock running); the colours of the game in progress then change under its clock.
    `set_game_one_colours` says "lots may be drawn again before play", but only a
    result stops a new draw."""
    clock = ManualTime()
    async with served(tmp_path / "log.db", clock) as server:
        setup = await asyncio.to_thread(make_playoff, server, 0)
        arbiter = await arbiter_of(setup)
        await arbiter.do("start-clock", match=1, game=1)
        clock.advance(30_000)
        await arbiter.do("press", match=1, game=1, side="white", move=1)
        refused = await arbiter.refused("lots", match=1)
        assert refused.code == "conflict"

        def physical_lots() -> int:
            with setup.server.client(setup.arbiter) as http:
                code: int = http.post(
                    f"{setup.base}/1/lots", json={"method": "physical", "white": SINDAROV}
                ).status_code
            return code

        assert await asyncio.to_thread(physical_lots) == 409
        game = await asyncio.to_thread(game_of, setup, 1, 1)
        assert (game["white"], game["black"]) == (ABDU, SINDAROV)
        await arbiter.client.close()


async def test_correcting_an_earlier_result_does_not_restart_the_game_in_progress(
    tmp_path: Path,
) -> None:
    """BUG: a correction (PUT .../result) drops the start of every game without a
    result, also of games it does not void: the game in progress loses its start,
    and starting it again replaces its running clock with a fresh one."""
    clock = ManualTime()
    async with served(tmp_path / "log.db", clock) as server:
        setup = await asyncio.to_thread(make_playoff, server, 0)
        arbiter = await arbiter_of(setup)
        # Game 1: Black's flag falls, 1-0 by the server; game 2 starts.
        await arbiter.do("start-clock", match=1, game=1)
        clock.advance(10_000)
        await arbiter.do("press", match=1, game=1, side="white", move=1)
        clock.advance(G25)
        assert await fire_due(server) == 1
        clock.advance(5 * 60_000)
        await arbiter.do("start-clock", match=1, game=2)
        game2_started = (await asyncio.to_thread(game_of, setup, 1, 2))["started_at"]
        clock.advance(60_000)
        shown = await arbiter.clock("press", match=1, game=2, side="white", move=1)
        assert shown["white_ms"] == G25 - 60_000 + INC
        # The arbiter corrects game 1: White had only a king, so a draw (FIDE 6.9).
        clock.advance(20_000)

        def correct() -> int:
            with setup.server.client(setup.arbiter) as http:
                code: int = http.put(
                    f"{setup.base}/1/games/1/result",
                    json={"result": "1/2-1/2", "reason": "White could not mate (6.9)"},
                ).status_code
            return code

        assert await asyncio.to_thread(correct) == 200
        game2 = await asyncio.to_thread(game_of, setup, 1, 2)
        assert game2["started_at"] == game2_started
        # Game 2 is still going on: its clock is not started afresh.
        refused = await arbiter.refused("start-clock", match=1, game=2)
        assert refused.code == "conflict"
        async with setup.client(setup.chief, "check") as check:
            snapshot = await Reader(check).next()
        (game2_clock,) = [c for c in snapshot.d["clocks"] if c["game"] == 2]
        assert (game2_clock["white_ms"], game2_clock["black_ms"]) == (
            G25 - 60_000 + INC, G25 - 20_000
        )
        await arbiter.client.close()


async def test_a_voided_armageddon_leaves_no_clock_running(tmp_path: Path) -> None:
    """A correction that voids a game in progress (here the Armageddon, when a
    corrected result decides the match) says so and needs a confirmation; then the
    voided game's clock stops for good: no snapshot shows it running (it once did,
    and displays counted it down for a game that no longer exists)."""
    clock = ManualTime()
    async with served(tmp_path / "log.db", clock) as server:
        setup = await asyncio.to_thread(make_playoff, server, 0)
        await asyncio.to_thread(level_after_two_games, setup, clock)
        arbiter = await arbiter_of(setup)
        await arbiter.do("start-clock", match=1, game=3)
        clock.advance(10_000)

        def correct(confirm: bool) -> httpx.Response:
            with setup.server.client(setup.arbiter) as http:
                return http.put(
                    f"{setup.base}/1/games/2/result",
                    json={"result": "1/2-1/2", "reason": "wrong result on the scoresheet",
                          "confirm": confirm},
                )

        unconfirmed = await asyncio.to_thread(correct, False)
        assert unconfirmed.status_code == 409
        assert "voids match 1, game 3" in unconfirmed.json()["detail"]
        assert "under way" in unconfirmed.json()["detail"]
        confirmed = await asyncio.to_thread(correct, True)
        assert confirmed.status_code == 200, confirmed.text
        logged = confirmed.json()["events"][0]["data"]
        assert [(v["match"], v["game"], v["result"]) for v in logged["voided"]] == [(1, 3, None)]
        state = await asyncio.to_thread(playoff_of, setup)
        assert state["matches"][0]["decision"]["winner"] == ABDU
        assert len(state["matches"][0]["games"]) == 2  # the Armageddon is void
        async with setup.client(setup.chief, "check") as check:
            snapshot = await Reader(check).next()
        running = [(c["match"], c["game"]) for c in snapshot.d["clocks"] if c["running"]]
        assert running == []
        # ... and no flag timer is left for it.
        clock.advance(10 * 60_000)
        assert await fire_due(server) == 0
        await arbiter.client.close()
