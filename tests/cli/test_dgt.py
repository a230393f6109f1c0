"""``playoff-arbiter dgt``: DGT e-boards, read by LiveChess (the stand-in, speaking its
API), forwarded to the real service; a real game replayed on a board comes out of
the service's PGN move for move, with its clocks."""

from __future__ import annotations

import asyncio
import io
import os
import signal
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import chess.pgn

from clients.python.dgt import Forwarder
from orchestrator.core.timesource import ManualTime
from tests.support import DATA, ROOT
from tests.support.arbiter import PROXIES, arbiter
from tests.support.livechess import Clock, livechess_stand_in
from tests.support.ws import Setup, make_playoff, served

GAME = DATA / "fedoseev-bharath-world-rapid-2023.pgn"


async def until(holds: Callable[[], bool], running: asyncio.Task[None] | None = None,
                timeout: float = 20.0) -> None:
    """Wait for ``holds()`` (the margin is for a loaded machine), while the forwarder
    ``running`` still runs."""
    async with asyncio.timeout(timeout):
        while not holds():
            if running is not None and running.done():
                running.result()  # its failure, as it failed
                raise AssertionError("the forwarder stopped")
            await asyncio.sleep(0.005)


async def test_the_boards_listed_with_the_matches_they_play(tmp_path: Path) -> None:
    async with served(tmp_path / "log.db", ManualTime()) as server, livechess_stand_in() as lc:
        setup = await asyncio.to_thread(make_playoff, server)
        lc.board("23946", battery="84%")
        lc.board("7425", battery="3.9V", state="NOTRESPONDING")
        before = await asyncio.to_thread(setup.seq)
        run = await asyncio.to_thread(
            arbiter, "dgt", setup.playoff_id, "--livechess", lc.url, "--map", "23946=1",
            "--list", token=setup.arbiter, server=server.base_url)
        assert run.returncode == 0, run.stderr
        rows = [" ".join(line.replace("│", " ").split()) for line in run.stdout.splitlines()]
        assert "23946 ACTIVE 84% 1" in rows
        assert "7425 NOTRESPONDING 3.9V not mapped: not forwarded" in rows
        assert await asyncio.to_thread(setup.seq) == before  # --list sends nothing
        assert [c["call"] for c in lc.calls] == ["eboards"]


async def test_wrong_options_are_said_and_send_nothing(tmp_path: Path) -> None:
    async with served(tmp_path / "log.db", ManualTime()) as server, livechess_stand_in() as lc:
        setup = await asyncio.to_thread(make_playoff, server)
        before = await asyncio.to_thread(setup.seq)

        async def dgt(*args: str) -> tuple[int, str]:
            run = await asyncio.to_thread(arbiter, "dgt", setup.playoff_id, *args,
                                          token=setup.arbiter, server=server.base_url)
            assert "Traceback" not in run.stderr
            return run.returncode, " ".join(run.stderr.split())

        assert await dgt("--livechess", lc.url, "--map", "23946") == (
            2, "error: --map takes an e-board's serial number and a match, as 23946=1, "
               "not '23946'")
        assert await dgt("--livechess", lc.url, "--map", "23946=final") == (
            2, "error: --map 23946=final: the match is a number from 1 (or 'none'), "
               "not 'final'")
        code, said = await dgt("--livechess", "http://127.0.0.1:1982/api/v1.0")
        assert code == 2
        assert said.startswith("error: --livechess must be a ws:// URL")
        code, said = await dgt("--livechess", "ws://127.0.0.1:9/api/v1.0", "--list")
        assert code == 2
        assert said.startswith("error: cannot reach LiveChess at ws://127.0.0.1:9/api/v1.0")
        assert await asyncio.to_thread(setup.seq) == before


async def forwarding(
    setup: Setup, url: str, time: ManualTime, lines: list[str], **options: Any
) -> tuple[Forwarder, asyncio.Task[None]]:
    forwarder = Forwarder(
        setup.server.base_url, setup.playoff_id, setup.arbiter, url,
        say=lines.append, livechess_ms=time.server_ms, **options)
    return forwarder, asyncio.create_task(forwarder.run())


def sent(forwarder: Forwarder, type_: str) -> list[dict[str, Any]]:
    """The commands of ``type_`` the forwarder sent and the service took."""
    return [c for c in forwarder.sent if c["type"] == type_ and "refused" not in c]


def refused(forwarder: Forwarder, type_: str) -> list[str]:
    return [c["refused"] for c in forwarder.sent if c["type"] == type_ and "refused" in c]


async def stop(task: asyncio.Task[None]) -> None:
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)
    if not task.cancelled():
        task.result()  # how it failed, if it failed before it was stopped


async def test_a_real_game_replayed_on_an_eboard_is_the_services_pgn(tmp_path: Path) -> None:
    time = ManualTime()
    async with served(tmp_path / "log.db", time) as server, \
            livechess_stand_in(time.server_ms) as lc:
        setup = await asyncio.to_thread(make_playoff, server)
        lc.board("23946", clock=Clock(900, 900))
        lc.board("7425")
        await asyncio.to_thread(setup.post, "/1/games/1/start")
        lines: list[str] = []
        forwarder, task = await forwarding(setup, lc.url, time, lines, mapping={"23946": 1})
        try:
            # The board as it stands (the game's position: nothing to log) and both
            # boards' status.
            await until(lambda: len(sent(forwarder, "eboard-status")) == 2
                        and len(sent(forwarder, "board-position")) == 1, task)
            assert sent(forwarder, "map-eboard")[0]["match"] == 1
            assert sent(forwarder, "board-position")[0]["seqs"] == []
            assert "board 7425: not mapped to a match, not forwarded (map it with --map " \
                   "7425=MATCH)" in lines

            async def pressed(ply: int) -> None:  # the next move once this press is in
                await until(lambda: len(sent(forwarder, "press")) == ply, task)

            source = await lc.replay("23946", GAME, time, between=pressed)
            await asyncio.to_thread(setup.post, "/1/games/1/result", {"result": "1/2-1/2"})
            with server.client(setup.arbiter) as http:
                answer = await asyncio.to_thread(http.get, f"/api/playoffs/{setup.playoff_id}/pgn")
            assert answer.status_code == 200, answer.text
        finally:
            await stop(task)
            print("\n".join(lines))  # what the arbiter read, shown if the test fails

    games = []
    text = io.StringIO(answer.text)
    while (found := chess.pgn.read_game(text)) is not None:
        games.append(found)
    played = next(g for g in games if list(g.mainline()))
    theirs, ours = list(source.mainline()), list(played.mainline())
    assert [n.move for n in ours] == [n.move for n in theirs]
    assert len(ours) == 160
    for ply, (mine, real) in enumerate(zip(ours, theirs, strict=True), start=1):
        assert mine.clock() is not None, ply
        assert abs((mine.clock() or 0) - (real.clock() or 0)) <= 1, ply
    assert played.headers["Result"] == "1/2-1/2"
    assert played.end().board().fen() == "8/8/1k6/8/2K5/8/8/8 w - - 0 81"
    # One line for each move the service made of a position sent.
    assert "match 1, game 1: 1. d4" in lines
    assert "match 1, game 1: 80... Kxb6" in lines
    assert not [line for line in lines if line.startswith("refused")]


def after(*sans: str) -> str:
    board = chess.Board()
    for san in sans:
        board.push_san(san)
    return board.board_fen()


async def test_the_arbiter_maps_the_boards_and_the_dgt_clock_flags(tmp_path: Path) -> None:
    time = ManualTime()
    async with served(tmp_path / "log.db", time) as server, \
            livechess_stand_in(time.server_ms) as lc:
        setup = await asyncio.to_thread(make_playoff, server)
        lc.board("23946", clock=Clock(300, 300))
        lc.board("7425", battery="61%")
        lines: list[str] = []
        forwarder, task = await forwarding(setup, lc.url, time, lines)
        playoff = f"/api/playoffs/{setup.playoff_id}"

        def arbiter_view() -> dict[str, Any]:
            with server.client(setup.arbiter) as http:
                view: dict[str, Any] = http.get(f"{playoff}/view?kind=arbiter").json()
            return view

        def command(**body: Any) -> None:
            with server.client(setup.arbiter) as http:
                answer = http.post(f"{playoff}/commands", json=body)
            assert answer.status_code == 201, answer.text

        try:
            await until(lambda: len(sent(forwarder, "eboard-status")) == 2, task)
            for serial in ("23946", "7425"):
                assert f"board {serial}: not mapped to a match, not forwarded (map it with " \
                       f"--map {serial}=MATCH)" in lines
            eboards = {e["serial"]: e for e in (await asyncio.to_thread(arbiter_view))["eboards"]}
            assert eboards["7425"]["battery"] == "61%"
            assert eboards["23946"]["state"] == "ACTIVE"
            assert eboards["23946"]["heard"] and eboards["23946"]["match"] is None

            # The arbiter puts a board on match 1 from the console: it is forwarded. No
            # game is being played yet: the board's position is refused, said once
            # however often the pieces are set up.
            await asyncio.to_thread(command, type="map-eboard", serial="23946", match=1)
            await until(lambda: "board 23946: forwarded to match 1" in lines, task)
            await until(lambda: len(refused(forwarder, "board-position")) == 1, task)
            await lc.play("23946", after("e4"))
            await until(lambda: len(refused(forwarder, "board-position")) == 2, task)
            await lc.play("23946", chess.STARTING_BOARD_FEN)
            await until(lambda: len(refused(forwarder, "board-position")) == 3, task)
            no_game = ("refused (board-position, board 23946, match 1): match 1 has no game "
                       "being played: the board's moves wait for it")
            assert lines.count(no_game) == 1, lines

            # The game: 1. e4, pressed; then Black's time runs out on the DGT clock.
            await asyncio.to_thread(setup.post, "/1/games/1/start")
            await lc.play("23946", Clock(300, 300, True))
            time.advance(4000)
            await lc.play("23946", "rnbqkbnr/pppppppp/8/8/8/8/PPPP1PPP/RNBQKBNR", after("e4"))
            time.advance(100)
            await lc.play("23946", Clock(296, 300, False))
            await until(lambda: "match 1, game 1: 1. e4" in lines, task)
            time.advance(299_000)
            await lc.play("23946", Clock(296, 1, False))
            time.advance(1000)
            flag_at = time.server_ms()
            await lc.play("23946", Clock(296, 0, False))
            await until(lambda: len(sent(forwarder, "board-flag")) == 1, task)
            logged = setup.log(after=sent(forwarder, "board-flag")[0]["seqs"][0] - 1)
            assert [(e["type"], e["data"].get("side"), e["data"].get("result"))
                    for e in logged[:2]] == [("flag-fell", "black", None),
                                             ("result-recorded", None, "1-0")]
            assert logged[0]["data"]["board"] is True
            assert logged[0]["data"]["at_ms"] == flag_at
            pressed = sent(forwarder, "press")
            assert [(p["side"], p["board_clock"]) for p in pressed] == [
                ("white", {"white_ms": 296_000, "black_ms": 300_000})]

            # Another board put on match 1 takes the first one off it.
            await asyncio.to_thread(command, type="map-eboard", serial="7425", match=1)
            await until(lambda: "board 7425: forwarded to match 1" in lines, task)
            await until(lambda: lines.count(
                "board 23946: not mapped to a match, not forwarded (map it with --map "
                "23946=MATCH)") == 2, task)
            # A battery running down reaches the console with the next status.
            lc.board("7425", battery="60%")
            await until(lambda: any(s.get("battery") == "60%"
                                    for s in sent(forwarder, "eboard-status")), task)
            eboards = {e["serial"]: e for e in (await asyncio.to_thread(arbiter_view))["eboards"]}
            assert (eboards["7425"]["match"], eboards["7425"]["battery"]) == (1, "60%")
            assert eboards["23946"]["match"] is None
        finally:
            await stop(task)
            print("\n".join(lines))


async def test_the_command_forwards_until_ctrl_c(tmp_path: Path) -> None:
    """The real ``playoff-arbiter dgt`` in a process of its own, on the wall clock."""
    async with served(tmp_path / "log.db") as server, livechess_stand_in() as lc:
        setup = await asyncio.to_thread(make_playoff, server)
        await asyncio.to_thread(setup.post, "/1/games/1/start")
        lc.board("23946", clock=Clock(900, 900))
        env = {**{k: v for k, v in os.environ.items() if k not in PROXIES},
               "PLAYOFF_TOKEN": setup.arbiter, "COLUMNS": "120"}
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "clients.python.cli", "dgt", setup.playoff_id,
            "--livechess", lc.url, "--server", server.base_url, "--map", "23946=1",
            cwd=ROOT, env=env, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
        assert process.stdout is not None
        seen: list[str] = []

        async def line(wanted: str) -> None:
            async with asyncio.timeout(30):
                while wanted not in seen:
                    raw = await process.stdout.readline()  # type: ignore[union-attr]
                    assert raw, f"the command ended: {seen}"
                    seen.append(raw.decode().rstrip())

        try:
            await line("board 23946: forwarded to match 1")
            await lc.play("23946", Clock(900, 900, True))
            await lc.play("23946", "rnbqkbnr/pppppppp/8/8/8/8/PPPP1PPP/RNBQKBNR", after("e4"))
            await lc.play("23946", Clock(906, 900, False))
            await line("match 1, game 1: 1. e4")
            process.send_signal(signal.SIGINT)
            out, err = await asyncio.wait_for(process.communicate(), 30)
        finally:
            if process.returncode is None:
                process.kill()
                await process.wait()
        assert process.returncode == 0, err.decode()
        assert out.decode().splitlines()[-1] == "stopped"
        table = [" ".join(row.replace("│", " ").split()) for row in seen]
        assert "23946 ACTIVE 84% 1" in table
        assert "Traceback" not in err.decode()
        logged = await asyncio.to_thread(setup.log)
        pressed = [e["data"] for e in logged if e["type"] == "clock-pressed"]
        assert [(p["side"], p["board_clock"]) for p in pressed] == [
            ("white", {"white_ms": 906_000, "black_ms": 900_000})]
        assert pressed[0]["charged"] == "stamp"
        assert [e["data"]["san"] for e in logged if e["type"] == "move-made"] == ["e4"]


async def test_a_map_to_a_match_the_playoff_does_not_play_is_refused(tmp_path: Path) -> None:
    time = ManualTime()
    async with served(tmp_path / "log.db", time) as server, \
            livechess_stand_in(time.server_ms) as lc:
        setup = await asyncio.to_thread(make_playoff, server)
        lc.board("23946")
        lines: list[str] = []
        forwarder, task = await forwarding(setup, lc.url, time, lines, mapping={"23946": 9})
        try:
            await until(lambda: len(sent(forwarder, "eboard-status")) == 1, task)
        finally:
            await stop(task)
            print("\n".join(lines))
        assert [line for line in lines if line.startswith("refused")] == [
            "refused (map-eboard, board 23946, match 9): there is no match 9"]
        assert "board 23946: not mapped to a match, not forwarded (map it with --map " \
               "23946=MATCH)" in lines
        assert sent(forwarder, "board-position") == []
