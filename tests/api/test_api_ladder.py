"""Play-off formats as data, end to end: the FIDE World Cup 2015 tie-break ladder and
an organiser's own TOML format, through the API and the websocket of a real server
with a real log.

The World Cup mini-match (Anand v Giri, both classical games drawn) goes to two
games at 25+10, two at 10+10, two blitz games at 5+3, each pair after a new
drawing of colours, then an Armageddon (W 5' / B 4', +3 s from move 61) whose
draw counts as a win for Black. Every pair is drawn here, so the Armageddon is
played; the arbiter works over the websocket and a display follows every event.
"""

from __future__ import annotations

import asyncio
from datetime import timedelta
from pathlib import Path
from typing import Any

from clients.python.client import PlayoffClient
from orchestrator.cli.files import read_playoff_format
from orchestrator.core.timesource import ManualTime
from tests.support import DATA
from tests.support.events import ABDU, PRAGG, SINDAROV, uzchess_json
from tests.support.ladder import ANAND, GIRI, JSON, LADDER, create, ok, world_cup_json
from tests.support.server import RunningServer, running_server

FORMATS = DATA / "formats"






def hall(server: RunningServer, token: str, playoff_id: str) -> dict[str, Any]:
    with server.client(token) as http:
        return ok(http.get(f"/api/playoffs/{playoff_id}/view", params={"kind": "hall"}))


def arbiter_view(server: RunningServer, token: str, playoff_id: str) -> dict[str, Any]:
    with server.client(token) as http:
        return ok(http.get(f"/api/playoffs/{playoff_id}/view", params={"kind": "arbiter"}))


def state(server: RunningServer, token: str, playoff_id: str) -> dict[str, Any]:
    with server.client(token) as http:
        return ok(http.get(f"/api/playoffs/{playoff_id}"))


def test_the_world_cup_ladder_through_the_api_and_the_websocket_to_the_armageddon(
    tmp_path: Path,
) -> None:
    clock = ManualTime()
    with running_server(tmp_path / "log.db", clock) as server:
        playoff_id, chief, arbiter_token, display_key = create(server, world_cup_json())
        made = state(server, chief, playoff_id)
        assert made["format"] == {
            "name": "fide-world-cup-2015", "title": "FIDE World Cup 2015 tie-break games",
        }
        (match,) = made["matches"]
        assert set(match["players"]) == {ANAND, GIRI}
        ladder = match["ladder"]
        assert [(s["name"], s["time_control"], s["games"], s["colours"])
                for s in ladder["stages"]] == [
            (name, control, list(games), "new-drawing") for name, control, games in LADDER
        ]
        assert ladder["decider"] == {
            "kind": "armageddon", "name": "Armageddon", "game": 7,
            "time_control": "W 5' / B 4', +3 s from move 61",
            "increment": "+3 s from move 61", "colours": "toss", "draw_odds": "black",
        }
        # Only the first pair exists until it is played level.
        assert [g["number"] for g in match["games"]] == [1, 2]
        planned = made["schedule"]["games"]
        assert [(g["game"], g["tentative"]) for g in planned] == [
            (1, False), (2, False), (3, True), (4, True), (5, True), (6, True), (7, True),
        ]
        assert [g["time_control"] for g in planned] == [
            "G/25+10", "G/25+10", "G/10+10", "G/10+10", "G/5+3", "G/5+3",
            "W 5' / B 4', +3 s from move 61",
        ]

        async def play() -> tuple[list[Any], list[Any]]:
            base = server.base_url
            async with PlayoffClient(base, playoff_id, display_key, name="hall") as display, \
                    PlayoffClient(base, playoff_id, arbiter_token, name="arbiter") as arbiter:
                seen: list[Any] = []

                async def follow() -> None:
                    async for message in display.messages():
                        seen.append(message)

                reader = asyncio.create_task(follow())
                acks = []
                clock.advance(timedelta(minutes=40))  # the break after the classical games
                for name, control, (first, second) in LADDER:
                    # A new drawing of colours before each pair, by the service: the
                    # console offers it for the pair the match has reached.
                    console = await asyncio.to_thread(
                        arbiter_view, server, arbiter_token, playoff_id
                    )
                    offered = console["matches"][0]["lots"]
                    assert offered["title"] == (
                        "Lots for White in game 1" if first == 1
                        else f"New drawing of colours: White in game {first} ({name})"
                    )
                    drawn = await arbiter.command("lots", match=1, method="service")
                    acks.append(drawn)
                    for number in (first, second):
                        if number == second:
                            clock.advance(timedelta(minutes=10))
                        acks.append(await arbiter.command("start-clock", match=1, game=number))
                        view = await asyncio.to_thread(hall, server, display_key, playoff_id)
                        (live,) = view["live"]
                        assert (live["stage"], live["time_control"]) == (name, control)
                        clock.advance(timedelta(minutes=30))
                        acks.append(await arbiter.command(
                            "result", match=1, game=number, result="1/2-1/2"
                        ))
                    clock.advance(timedelta(minutes=15))
                # Level 3-3: the Armageddon. The toss winner takes Black (draw odds).
                tossed = await arbiter.command(
                    "coin-toss", match=1, method="physical", winner=GIRI
                )
                acks.append(tossed)
                acks.append(await arbiter.command(
                    "armageddon-colours", match=1, white=ANAND, black=GIRI
                ))
                view = await asyncio.to_thread(hall, server, display_key, playoff_id)
                banner = view["armageddon"]
                assert (banner["name"], banner["state"], banner["game"]) == (
                    "Armageddon", "next", 7
                )
                assert (banner["times"], banner["increment"], banner["draw_rule"]) == (
                    "5′ v 4′", "+3 s from move 61", "draw = Black wins"
                )
                acks.append(await arbiter.command("start-clock", match=1, game=7))
                clock.advance(timedelta(minutes=12))
                acks.append(await arbiter.command(
                    "result", match=1, game=7, result="1/2-1/2"
                ))
                last = acks[-1].seqs[-1]
                async with asyncio.timeout(5):
                    while not any(m.t == "event" and (m.seq or 0) >= last for m in seen):
                        await asyncio.sleep(0.02)
                reader.cancel()
                return acks, seen

        _, seen = asyncio.run(play())
        events = [m for m in seen if m.t == "event"]
        seqs = [m.seq for m in events]
        assert seqs == list(range(seqs[0], seqs[-1] + 1))  # every event once, in order
        draws = [m.d for m in events if m.d["type"] == "lots-drawn"]
        assert [d["data"]["game"] for d in draws] == [1, 3, 5]
        assert all(len(d["data"]["draw"]["commitment"]) == 64 for d in draws)
        started = [m.d for m in events if m.d["type"] == "game-started"]
        assert [(s["data"]["game"], s["clock"]["white_ms"], s["clock"]["black_ms"])
                for s in started] == [
            (1, 1_500_000, 1_500_000), (2, 1_500_000, 1_500_000),
            (3, 600_000, 600_000), (4, 600_000, 600_000),
            (5, 300_000, 300_000), (6, 300_000, 300_000),
            (7, 300_000, 240_000),
        ]
        assert started[-1]["armageddon"]["draw_means"] == "black wins"

        final = state(server, chief, playoff_id)
        (match,) = final["matches"]
        assert [(g["number"], g["kind"], g["stage"]) for g in match["games"]] == [
            (1, "regular", "Rapid 25+10"), (2, "regular", "Rapid 25+10"),
            (3, "regular", "Rapid 10+10"), (4, "regular", "Rapid 10+10"),
            (5, "regular", "Blitz 5+3"), (6, "regular", "Blitz 5+3"),
            (7, "armageddon", "Armageddon"),
        ]
        assert final["champion"] == GIRI
        assert match["decision"]["method"] == "armageddon-draw"
        assert match["decision"]["text"] == (
            "Level 3-3 after six games; the Armageddon game was drawn (1/2-1/2), so Black, "
            "Giri, Anish, advances on draw odds (FIDE World Cup 2015)."
        )
        # Each pair's colours alternate from its own drawing.
        games = {g["number"]: g for g in match["games"]}
        for first in (1, 3, 5):
            assert games[first]["white"] == games[first + 1]["black"]
        with server.client(chief) as http:
            pgn = http.get(f"/api/playoffs/{playoff_id}/pgn").text
        assert '[PlayoffStage "Blitz 5+3"]' in pgn
        assert '[Armageddon "A draw means Black wins (FIDE World Cup 2015)"]' in pgn


def test_a_stage_is_drawn_only_once_reached_and_a_bad_format_changes_nothing(
    tmp_path: Path,
) -> None:
    clock = ManualTime()
    with running_server(tmp_path / "log.db", clock) as server:
        with server.client() as anonymous:
            created = ok(anonymous.post(
                "/api/events", content=world_cup_json().encode(), headers=JSON
            ))
        event_id, chief = created["id"], created["chief_token"]
        with server.client(chief) as http:
            refused = http.post(f"/api/events/{event_id}/playoff", json={"format": {
                "name": "club", "title": "Club", "matches": [{"name": "m", "stages": [
                    {"name": "Blitz", "games": 2, "time_control": "G/ten"}
                ]}], "knockouts": [{"players_from": 2, "name": "KO", "plays": "m"}],
            }})
            assert refused.status_code == 422, refused.text
            (problem,) = refused.json()["detail"]
            assert problem["loc"] == [
                "body", "format", "matches", 0, "stages", 0, "time_control"
            ]
            assert "'G/ten' is not a time control" in problem["msg"]
            unknown = http.post(f"/api/events/{event_id}/playoff", json={"format": "fide"})
            assert unknown.status_code == 422
            assert "no built-in play-off format 'fide'" in unknown.text
            assert ok(http.get(f"/api/events/{event_id}"))["playoffs"] == []
            playoff_id = ok(http.post(f"/api/events/{event_id}/playoff", json={}))["id"]
            base = f"/api/playoffs/{playoff_id}/matches/1"
            early = http.post(f"{base}/lots", json={"method": "physical", "white": ANAND,
                                                   "game": 3})
            assert early.status_code == 409
            assert "no game 3 yet" in early.json()["detail"]
            odd = http.post(f"{base}/lots", json={"method": "physical", "white": ANAND,
                                                 "game": 2})
            assert odd.status_code == 409
            assert "lots are drawn for game 1, game 3, game 5 only" in odd.json()["detail"]
            # A new pair owes the players its break: 10 minutes, not the 5 between games.
            ok(http.post(f"{base}/lots", json={"method": "physical", "white": ANAND}))
            clock.advance(timedelta(minutes=40))
            for number in (1, 2):
                ok(http.post(f"{base}/games/{number}/start"))
                clock.advance(timedelta(minutes=30))
                ok(http.post(f"{base}/games/{number}/result", json={"result": "1/2-1/2"}))
                clock.advance(timedelta(minutes=6))
            ok(http.post(f"{base}/lots", json={"method": "physical", "white": GIRI}))
            early = http.post(f"{base}/games/3/start")
            assert early.status_code == 409
            assert "not less than 10 minutes between a player's games" in early.text
            clock.advance(timedelta(minutes=4))
            ok(http.post(f"{base}/games/3/start"))


def test_an_organisers_own_toml_format_runs_end_to_end(tmp_path: Path) -> None:
    """UzChess Cup Masters 2025 (three players tied) played off in the club's own
    format: a seeded knock-out, seed 1 with a first-round bye; two games G/10+5, then
    an Armageddon 5'/4' +2 s a move from move 1."""
    own = read_playoff_format(str(FORMATS / "club-blitz.toml"))
    clock = ManualTime()
    with running_server(tmp_path / "log.db", clock) as server:
        playoff_id, chief, arbiter_token, display_key = create(
            server, uzchess_json(ended_at=None), format=own.model_dump(mode="json")
        )
        made = state(server, chief, playoff_id)
        assert made["format"]["name"] == "club-blitz-2026"
        bye, semi, _ = made["matches"]
        assert bye["bye"] and bye["players"] == [PRAGG, None]
        assert set(semi["players"]) == {ABDU, SINDAROV}
        assert semi["ladder"]["summary"] == (
            "2 games G/10+5, then Armageddon W 5' / B 4', +2 s (draw: Black wins)"
        )
        # The format's own break: 15 minutes after the main event.
        assert made["schedule"]["games"][0]["start"].startswith(
            (clock.now() + timedelta(minutes=15)).isoformat()[:16]
        )

        async def play() -> list[Any]:
            async with PlayoffClient(
                server.base_url, playoff_id, display_key, name="hall"
            ) as display, PlayoffClient(
                server.base_url, playoff_id, arbiter_token, name="arbiter"
            ) as arbiter:
                seen: list[Any] = []

                async def follow() -> None:
                    async for message in display.messages():
                        seen.append(message)

                reader = asyncio.create_task(follow())
                clock.advance(timedelta(minutes=15))
                await arbiter.command("lots", match=2, method="physical", white=ABDU)
                for number, result in ((1, "1-0"), (2, "1-0")):
                    await arbiter.command("start-clock", match=2, game=number)
                    clock.advance(timedelta(minutes=20))
                    await arbiter.command("result", match=2, game=number, result=result)
                    clock.advance(timedelta(minutes=5))
                await arbiter.command("coin-toss", match=2, method="physical", winner=SINDAROV)
                await arbiter.command(
                    "armageddon-colours", match=2, white=ABDU, black=SINDAROV
                )
                view = await asyncio.to_thread(hall, server, display_key, playoff_id)
                assert view["armageddon"]["increment"] == "+2 s"
                assert view["armageddon"]["times"] == "5′ v 4′"
                started = await arbiter.command("start-clock", match=2, game=3)
                clock.advance(timedelta(minutes=10))
                await arbiter.command("result", match=2, game=3, result="1-0")
                clock.advance(timedelta(minutes=5))
                await arbiter.command("lots", match=3, method="physical", white=PRAGG)
                for number in (1, 2):
                    await arbiter.command("start-clock", match=3, game=number)
                    clock.advance(timedelta(minutes=20))
                    last = await arbiter.command("result", match=3, game=number, result="1-0"
                                                 if number == 1 else "1/2-1/2")
                    clock.advance(timedelta(minutes=5))
                async with asyncio.timeout(5):
                    while not any(
                        m.t == "event" and (m.seq or 0) >= last.seqs[-1] for m in seen
                    ):
                        await asyncio.sleep(0.02)
                reader.cancel()
                assert started.seqs
                return seen

        seen = asyncio.run(play())
        events = [m for m in seen if m.t == "event"]
        armageddon = next(
            m.d for m in events if m.d["type"] == "game-started" and m.d["data"]["game"] == 3
        )
        assert armageddon["clock"]["white_ms"] == 300_000
        assert armageddon["clock"]["black_ms"] == 240_000
        done = state(server, chief, playoff_id)
        assert done["matches"][1]["decision"]["method"] == "armageddon-win"
        assert done["matches"][1]["decision"]["winner"] == ABDU
        assert done["champion"] == PRAGG


def test_a_format_decided_by_lot_and_one_by_sudden_death(tmp_path: Path) -> None:
    """A level match whose decider is a drawing of lots: the toss's winner advances. A
    match decided by sudden death: a drawn game brings another, colours reversed."""
    def own(decider: dict[str, Any]) -> dict[str, Any]:
        return {
            "name": "club", "title": "Club play-off",
            "matches": [{"name": "m", "stages": [
                {"name": "Rapid", "games": 2, "time_control": "G/15+5"}
            ], "decider": decider}],
            "knockouts": [{"players_from": 2, "name": "Club ({n} players)", "plays": "m"}],
        }

    clock = ManualTime()
    with running_server(tmp_path / "log.db", clock) as server:
        for decider in ({"kind": "lot"}, {"kind": "sudden-death", "time_control": "G/3+2"}):
            playoff_id, chief, _, _ = create(
                server, uzchess_json(), format=own(decider)
            )
            with server.client(chief) as http:
                base = f"/api/playoffs/{playoff_id}/matches/2"
                ok(http.post(f"{base}/lots", json={"method": "physical", "white": ABDU}))
                for number in (1, 2):
                    ok(http.post(f"{base}/games/{number}/start"))
                    clock.advance(timedelta(minutes=40))
                    ok(http.post(f"{base}/games/{number}/result", json={"result": "1-0"}))
                    clock.advance(timedelta(minutes=10))
                if decider["kind"] == "lot":
                    toss = ok(http.post(
                        f"{base}/coin-toss", json={"method": "physical", "winner": SINDAROV}
                    ))
                    assert toss["events"][0]["type"] == "coin-tossed"
                    match = state(server, chief, playoff_id)["matches"][1]
                    assert match["decision"]["method"] == "lot"
                    assert match["decision"]["winner"] == SINDAROV
                    assert [g["number"] for g in match["games"]] == [1, 2]
                    continue
                ok(http.post(f"{base}/lots", json={"method": "physical", "white": SINDAROV}))
                ok(http.post(f"{base}/games/3/start"))
                clock.advance(timedelta(minutes=10))
                ok(http.post(f"{base}/games/3/result", json={"result": "1/2-1/2"}))
                clock.advance(timedelta(minutes=10))
                match = state(server, chief, playoff_id)["matches"][1]
                fourth = match["games"][3]
                assert (fourth["number"], fourth["kind"], fourth["white"]) == (
                    4, "sudden-death", ABDU
                )
                ok(http.post(f"{base}/games/4/start"))
                clock.advance(timedelta(minutes=10))
                ok(http.post(f"{base}/games/4/result", json={"result": "0-1"}))
                match = state(server, chief, playoff_id)["matches"][1]
                assert match["decision"]["method"] == "sudden-death-win"
                assert match["decision"]["winner"] == SINDAROV
