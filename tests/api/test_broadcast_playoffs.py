"""The broadcast feed of whole play-offs over a real server, as a broadcast platform
polls it: every game numbered and tagged, parsed by python-chess with no error; and
every press seen by a poller within a second.

- The GCT 2015 play-off of the UzChess Cup Masters 2025 (three players: seeds 2 v 3,
  then the final), played to its end.
- The FIDE World Cup 2015 tie-break ladder (Anand v Giri, round 4): rapid, rapid,
  blitz, then the Armageddon.
"""

from __future__ import annotations

import io
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import chess.pgn
import httpx
import pytest

from tests.support.display import JSON, Playoff, SkippableTime, chess_playoff, ok
from tests.support.events import PRAGG
from tests.support.ladder import ANAND, GIRI, world_cup_json
from tests.support.server import RunningServer, running_server

POLL_S = 0.1
SEEN_WITHIN_S = 1.0


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    db: Path = tmp_path_factory.mktemp("broadcast") / "log.db"
    with running_server(db, SkippableTime()) as running:
        yield running


def feed_of(playoff: Playoff) -> str:
    with playoff.server.client(playoff.token) as http:
        made = ok(http.post(f"/api/events/{event_of(playoff)}/tokens",
                            json={"role": "broadcast", "label": "lichess"}))
    (feed,) = [f for f in made["feeds"] if f["playoff"] == playoff.id]
    link: str = feed["link"]
    return playoff.server.base_url + link


def event_of(playoff: Playoff) -> str:
    with playoff.server.client(playoff.token) as http:
        event_id: str = ok(http.get(f"/api/playoffs/{playoff.id}"))["event_id"]
    return event_id


def games(text: str) -> list[chess.pgn.Game]:
    found = []
    stream = io.StringIO(text)
    while (game := chess.pgn.read_game(stream)) is not None:
        assert not game.errors, game.errors
        found.append(game)
    return found


def play(playoff: Playoff, match: int, number: int, result: str) -> None:
    playoff.rest(40)
    playoff.game(match, number, "start")
    playoff.game(match, number, "result", {"result": result})


def test_a_whole_gct_playoff_is_numbered_and_tagged(server: RunningServer) -> None:
    playoff = chess_playoff(server)
    url = feed_of(playoff)
    play(playoff, 1, 1, "1-0")        # Abdusattorov beats Sindarov...
    play(playoff, 1, 2, "1/2-1/2")    # ...and goes through to the final
    playoff.post("/matches/2/lots", {"method": "physical", "white": PRAGG})
    play(playoff, 2, 1, "1/2-1/2")
    play(playoff, 2, 2, "0-1")
    found = games(httpx.get(url, trust_env=False, timeout=10).text)
    tags = [(g.headers["Round"], g.headers["Board"], g.headers["White"], g.headers["Black"],
             g.headers["Result"]) for g in found]
    # The main event had 9 rounds: the play-off is round 10; then stage, match
    # (the final is match 2, played after match 1), game; Board in play order.
    assert tags == [
        ("10.1.1.1", "1", "Abdusattorov, Nodirbek", "Sindarov, Javokhir", "1-0"),
        ("10.1.1.2", "2", "Sindarov, Javokhir", "Abdusattorov, Nodirbek", "1/2-1/2"),
        ("10.1.2.1", "3", "Praggnanandhaa R", "Abdusattorov, Nodirbek", "1/2-1/2"),
        ("10.1.2.2", "4", "Abdusattorov, Nodirbek", "Praggnanandhaa R", "0-1"),
    ]
    assert all(g.headers["TimeControl"] == "1500+5" for g in found)  # reg. 6.1: G/25+5
    assert all(g.headers["Event"] == "UzChess Cup Masters 2025, play-off" for g in found)
    assert [g.headers["WhiteElo"] for g in found[:2]] == ["2767", "2710"]


def test_the_world_cup_ladder_and_its_armageddon_are_tagged(server: RunningServer) -> None:
    with server.client() as anonymous:
        created = ok(anonymous.post("/api/events", content=world_cup_json().encode(),
                                    headers=JSON))
    token = created["chief_token"]
    with server.client(token) as chief:
        made = ok(chief.post(f"/api/events/{created['id']}/playoff", json={}))
    playoff = Playoff(server, made["id"], token, "")
    url = feed_of(playoff)
    for first, white in ((1, ANAND), (3, GIRI), (5, ANAND)):
        playoff.post("/matches/1/lots", {"method": "physical", "white": white})
        play(playoff, 1, first, "1/2-1/2")
        play(playoff, 1, first + 1, "1/2-1/2")
    playoff.post("/matches/1/coin-toss", {"method": "physical", "winner": GIRI})
    playoff.post("/matches/1/armageddon-colours", {"white": ANAND, "black": GIRI})
    playoff.rest(15)
    playoff.game(1, 7, "start")
    found = games(httpx.get(url, trust_env=False, timeout=10).text)
    assert [g.headers["Round"] for g in found] == [f"3.1.1.{n}" for n in range(1, 8)]
    assert [g.headers["Board"] for g in found] == [str(n) for n in range(1, 8)]
    assert [g.headers["TimeControl"] for g in found] == [
        "1500+10", "1500+10", "600+10", "600+10", "300+3", "300+3", "?"]
    assert [g.headers.get("PlayoffStage") for g in found[:6]] == [
        "Rapid 25+10", "Rapid 25+10", "Rapid 10+10", "Rapid 10+10", "Blitz 5+3", "Blitz 5+3"]
    armageddon = found[6]
    assert armageddon.headers["Result"] == "*"
    assert armageddon.headers["WhiteTimeControl"] == "60/300:0+3"  # 5 min, +3 s from move 61
    assert armageddon.headers["BlackTimeControl"] == "60/240:0+3"  # 4 min
    assert armageddon.headers["Armageddon"].startswith("A draw means Black wins")
    assert (armageddon.headers["WhiteClock"], armageddon.headers["BlackClock"]) == (
        "0:05:00", "0:04:00")
    assert armageddon.headers["ReferenceTime"].startswith("W/")
    assert armageddon.comment == "Time control: W 5' / B 4', +3 s from move 61"


def test_a_poller_sees_each_press_within_a_second(server: RunningServer) -> None:
    playoff = chess_playoff(server)
    url = feed_of(playoff)
    playoff.game(1, 1, "start")
    seen: list[tuple[float, str]] = []  # (when, the running side's tag) at each change
    stop = threading.Event()

    def poll() -> None:
        etag = None
        with httpx.Client(trust_env=False, timeout=10) as http:
            while not stop.is_set():
                answer = http.get(url, headers={"If-None-Match": etag} if etag else {})
                if answer.status_code == 200:
                    etag = answer.headers["ETag"]
                    (game,) = games(answer.text)
                    seen.append((time.monotonic(), game.headers["ReferenceTime"][:2]))
                else:
                    assert answer.status_code == 304
                time.sleep(POLL_S)

    poller = threading.Thread(target=poll)
    poller.start()
    pressed: list[tuple[float, str]] = []
    try:
        time.sleep(0.3)
        for n in range(6):
            side = "white" if n % 2 == 0 else "black"
            playoff.command("press", match=1, game=1, side=side)
            pressed.append((time.monotonic(), "B/" if side == "white" else "W/"))
            time.sleep(0.4)
        time.sleep(SEEN_WITHIN_S)
    finally:
        stop.set()
        poller.join(timeout=10)
    for at, running in pressed:
        later = [when for when, side in seen if when >= at - 0.05 and side == running]
        assert later, f"the press at {at} was never seen"
        assert later[0] - at <= SEEN_WITHIN_S
