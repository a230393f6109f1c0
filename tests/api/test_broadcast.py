"""The broadcast feed over a real server: a broadcast key polls
``/api/playoffs/{id}/broadcast.pgn?key=`` as a platform does, and reads nothing else.

The UzChess Cup Masters 2025 play-off (GCT), its players with their FIDE ids and
titles, one of them named with a quote and a backslash (which the PGN standard
escapes, section 7, and python-chess neither writes nor reads: decoded here).
"""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any

import chess.pgn
import httpx

from orchestrator.core.timesource import ManualTime
from tests.support.events import ABDU, uzchess_json
from tests.support.server import RunningServer
from tests.support.ws import Setup, ok, raw_hello, served

G25 = 25 * 60_000
TRICKY = 'Abdusattorov, Nodirbek "Nodir" \\ Jr'


def _event() -> str:
    data = json.loads(uzchess_json())
    for player in data["players"]:
        if player["id"] == "14204118":
            player.update(name=TRICKY, fide_id="14204118", title="GM")
        if player["id"] == "14205483":
            player.update(fide_id="14205483", title="GM")
    return json.dumps(data)


def setup_with_broadcast_key(server: RunningServer) -> tuple[Setup, str, dict[str, Any]]:
    with server.client() as anonymous:
        created = ok(anonymous.post(
            "/api/events", content=_event().encode(),
            headers={"Content-Type": "application/json"},
        ))
    event_id, chief = created["id"], created["chief_token"]
    with server.client(chief) as http:
        playoff_id = ok(http.post(f"/api/events/{event_id}/playoff", json={}))["id"]
        arbiter = ok(http.post(f"/api/events/{event_id}/tokens", json={"role": "arbiter"}))[
            "token"]
        minted = http.post(f"/api/events/{event_id}/tokens", json={"role": "broadcast"})
    assert minted.status_code == 201, minted.text
    answer: dict[str, Any] = minted.json()
    setup = Setup(server, event_id, chief, arbiter, playoff_id, [])
    setup.post("/1/lots", {"method": "physical", "white": ABDU})
    return setup, answer["token"], answer


def unescape(value: str) -> str:
    """A tag value as the PGN standard writes it (section 7), decoded."""
    return re.sub(r"\\([\\\"])", r"\1", value)


def games_of(text: str) -> list[chess.pgn.Game]:
    found = []
    stream = io.StringIO(text)
    while (game := chess.pgn.read_game(stream)) is not None:
        assert not game.errors, game.errors
        found.append(game)
    return found


def feed(server: RunningServer, link: str, **headers: str) -> httpx.Response:
    with httpx.Client(base_url=server.base_url, trust_env=False, timeout=10) as http:
        return http.get(link, headers=headers)


async def test_a_broadcast_key_reads_the_feed_and_nothing_else(tmp_path: Path) -> None:
    async with served(tmp_path / "log.db", ManualTime()) as server:
        setup, key, answer = setup_with_broadcast_key(server)
        (only,) = answer["feeds"]
        assert only["playoff"] == setup.playoff_id
        assert only["link"] == f"/api/playoffs/{setup.playoff_id}/broadcast.pgn?key={key}"
        got = feed(server, only["link"])
        assert got.status_code == 200
        assert got.headers["content-type"].startswith("application/x-chess-pgn")
        assert got.text == ""  # no game started yet
        # The key reads nothing else, in words; nor does it open a websocket.
        with server.client(key) as http:
            refused = http.get(f"/api/playoffs/{setup.playoff_id}/view")
        assert refused.status_code == 403
        assert "a broadcast key only reads the broadcast feed" in refused.json()["detail"]
        refused = setup.server.client(key).__enter__().post(
            f"/api/playoffs/{setup.playoff_id}/commands",
            json={"type": "start-clock", "match": 1, "game": 1},
        )
        assert refused.status_code == 403
        try:
            ws, _ = await raw_hello(setup.ws_url, key)
        except AssertionError as exc:  # an error frame, not a welcome
            assert "broadcast" in str(exc)
        else:
            await ws.close()
            raise AssertionError("a broadcast key opened a websocket")
        # An arbiter's token reads the feed too; a wrong key is refused.
        with server.client(setup.arbiter) as http:
            assert http.get(f"/api/playoffs/{setup.playoff_id}/broadcast.pgn").status_code == 200
        assert feed(server, only["link"].replace(key, "nope")).status_code == 401


async def test_the_feed_tags_a_game_and_its_clocks_while_it_is_played(tmp_path: Path) -> None:
    clock = ManualTime()
    async with served(tmp_path / "log.db", clock) as server:
        setup, _, answer = setup_with_broadcast_key(server)
        link = answer["feeds"][0]["link"]
        setup.post("/1/games/1/start")
        started_ms = clock.server_ms()
        first = feed(server, link)
        (game,) = games_of(first.text)
        tags = game.headers
        assert unescape(tags["White"]) == TRICKY
        assert '\\"Nodir\\" \\\\ Jr' in first.text  # escaped as the standard writes it
        assert tags["Black"] == "Sindarov, Javokhir"
        assert tags["Event"] == "UzChess Cup Masters 2025, play-off"
        # The main event had 9 rounds: the play-off is round 10, stage 1, match 1, game 1.
        assert tags["Round"] == "10.1.1.1" and tags["Board"] == "1"
        assert tags["Result"] == "*"
        assert (tags["WhiteFideId"], tags["WhiteTitle"], tags["WhiteElo"]) == (
            "14204118", "GM", "2767")
        assert (tags["BlackFideId"], tags["BlackTitle"]) == ("14205483", "GM")
        assert tags["TimeControl"] == "1500+5"  # G/25+5, GCT 2015 reg. 6.1
        assert (tags["WhiteClock"], tags["BlackClock"]) == ("0:25:00", "0:25:00")
        assert tags["ReferenceTime"] == "W/" + _iso(started_ms)
        etag = first.headers["ETag"]
        assert feed(server, link, **{"If-None-Match": etag}).status_code == 304
        # White presses after 7.4 s: Black's clock runs, from the press.
        clock.advance(7_400)
        with server.client(setup.arbiter) as http:
            ok(http.post(f"/api/playoffs/{setup.playoff_id}/commands", json={
                "type": "press", "match": 1, "game": 1, "side": "white"}))
        second = feed(server, link, **{"If-None-Match": etag})
        assert second.status_code == 200 and second.headers["ETag"] != etag
        (game,) = games_of(second.text)
        assert game.headers["WhiteClock"] == "0:24:57"  # 25:00 - 7.4 + 5, cut: 24:57.6
        assert game.headers["BlackClock"] == "0:25:00"
        assert game.headers["ReferenceTime"] == "B/" + _iso(started_ms + 7_400)


def _iso(ms: int) -> str:
    from datetime import UTC, datetime

    moment = datetime.fromtimestamp(ms / 1000, UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


async def test_the_armageddon_terms_are_tagged(tmp_path: Path) -> None:
    from orchestrator.core.broadcast import pgn_time_control
    from playoff_formats.timecontrol import TimeControl

    control = TimeControl.parse("W 6' / B 5', +3 s from move 61")  # GCT 2015 reg. 10 a
    value, extra = pgn_time_control(control)
    assert value == "?"
    assert extra == {"WhiteTimeControl": "60/360:0+3", "BlackTimeControl": "60/300:0+3"}
    assert pgn_time_control(TimeControl.parse("G/25+5")) == ("1500+5", {})
