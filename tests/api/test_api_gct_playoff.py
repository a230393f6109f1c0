"""A whole GCT 2015 play-off through the API, against the real server and a real log.

UzChess Cup Masters 2025: Praggnanandhaa, Abdusattorov and Sindarov tied on 5½.
Reg. 7: seeds 2 and 3 play first (Abdusattorov v Sindarov), level after two
games, so an Armageddon decides it; then the winner plays seed 1 (reg. 6).
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from orchestrator.core.timesource import ManualTime
from tests import support
from tests.support.events import ABDU, PRAGG, SINDAROV
from tests.support.server import running_server

DATA = support.DATA / "uzchess-cup-masters-2025.json"


def test_three_player_playoff_with_an_armageddon_then_placings(tmp_path: Path) -> None:
    clock = ManualTime()
    with running_server(tmp_path / "log.db", clock) as server:
        anonymous = server.client()
        created = anonymous.post(
            "/api/events", content=DATA.read_bytes(), headers={"Content-Type": "application/json"}
        )
        assert created.status_code == 201, created.text
        event_id, chief_token = created.json()["id"], created.json()["chief_token"]
        chief = server.client(chief_token)

        standings = chief.get(f"/api/events/{event_id}/standings").json()
        assert [r["id"] for r in standings["standings"][:3]] == [PRAGG, ABDU, SINDAROV]

        made = chief.post(
            f"/api/events/{event_id}/playoff",
            json={"prizes": [100000, 50000, 30000], "points": [13, 10, 8]},
        )
        assert made.status_code == 201, made.text
        playoff_id = made.json()["id"]
        first, final = made.json()["matches"]
        assert set(first["players"]) == {ABDU, SINDAROV}
        assert final["players"] == [PRAGG, None]
        # The break: the demo data has no end times, so the play-off may start
        # 30 minutes after it was created (reg. 5).
        schedule = made.json()["schedule"]
        assert schedule["games"][0]["start"].startswith(
            (clock.now() + timedelta(minutes=30)).isoformat()[:16]
        )

        arbiter_token = chief.post(
            f"/api/events/{event_id}/tokens", json={"role": "arbiter", "label": "deputy"}
        ).json()["token"]
        arbiter = server.client(arbiter_token)
        base = f"/api/playoffs/{playoff_id}/matches"

        lots = arbiter.post(f"{base}/1/lots", json={"method": "service"})
        assert lots.status_code == 201, lots.text
        draw = lots.json()["events"][0]["data"]
        white, black = draw["white"], draw["black"]
        assert {white, black} == {ABDU, SINDAROV}
        assert len(draw["draw"]["commitment"]) == 64

        clock.advance(timedelta(minutes=30))
        assert arbiter.post(f"{base}/1/games/1/start").status_code == 201
        clock.advance(timedelta(minutes=50))
        assert arbiter.post(f"{base}/1/games/1/result", json={"result": "1-0"}).status_code == 201
        clock.advance(timedelta(minutes=10))
        arbiter.post(f"{base}/1/games/2/start")
        clock.advance(timedelta(minutes=45))
        assert arbiter.post(f"{base}/1/games/2/result", json={"result": "1-0"}).status_code == 201
        # 1-1: the Armageddon (reg. 10). The coin toss winner chooses colours.
        state = arbiter.get(f"/api/playoffs/{playoff_id}").json()
        assert [g["kind"] for g in state["matches"][0]["games"]] == [
            "regular", "regular", "armageddon"
        ]
        toss = arbiter.post(
            f"{base}/1/coin-toss", json={"method": "service", "caller": SINDAROV, "call": "heads"}
        )
        assert toss.status_code == 201, toss.text
        winner = toss.json()["events"][0]["data"]["winner"]
        loser = ABDU if winner == SINDAROV else SINDAROV
        # The winner of the toss takes Black (draw odds).
        assert arbiter.post(
            f"{base}/1/armageddon-colours", json={"white": loser, "black": winner}
        ).status_code == 201
        clock.advance(timedelta(minutes=10))
        arbiter.post(f"{base}/1/games/3/start")
        clock.advance(timedelta(minutes=11))
        # A drawn Armageddon: the game stays 1/2-1/2, Black advances (reg. 10 b).
        assert arbiter.post(
            f"{base}/1/games/3/result", json={"result": "1/2-1/2"}
        ).status_code == 201
        state = arbiter.get(f"/api/playoffs/{playoff_id}").json()
        decided = state["matches"][0]
        assert decided["games"][2]["result"] == "1/2-1/2"
        assert decided["decision"]["winner"] == winner
        assert decided["decision"]["method"] == "armageddon-draw"
        assert set(state["matches"][1]["players"]) == {PRAGG, winner}

        # The final (reg. 6): Praggnanandhaa wins 1½-½.
        arbiter.post(f"{base}/2/lots", json={"method": "physical", "white": PRAGG})
        clock.advance(timedelta(minutes=10))
        arbiter.post(f"{base}/2/games/1/start")
        clock.advance(timedelta(minutes=40))
        arbiter.post(f"{base}/2/games/1/result", json={"result": "1-0"})
        clock.advance(timedelta(minutes=10))
        arbiter.post(f"{base}/2/games/2/start")
        clock.advance(timedelta(minutes=40))
        arbiter.post(f"{base}/2/games/2/result", json={"result": "1/2-1/2"})

        state = arbiter.get(f"/api/playoffs/{playoff_id}").json()
        assert state["champion"] == PRAGG
        placings = arbiter.get(f"/api/playoffs/{playoff_id}/placings").json()
        players = {p["id"]: p for p in placings["players"]}
        assert (players[PRAGG]["place"], players[PRAGG]["money"]) == (1, 100000)
        assert players[PRAGG]["points"] == 13
        # Abdusattorov (seed 2) and Sindarov share places 2-3: 40000 each (reg. 1);
        # the points follow the tiebreaks, undivided.
        assert players[ABDU]["money"] == players[SINDAROV]["money"] == 40000
        assert (players[ABDU]["points"], players[SINDAROV]["points"]) == (10, 8)

        pgn = arbiter.get(f"/api/playoffs/{playoff_id}/pgn")
        assert pgn.status_code == 200
        assert pgn.text.count("[Event ") == 5
        assert '[Armageddon "A draw means Black wins (GCT 2015 reg. 10 b)"]' in pgn.text
        assert '[TimeControl "1500+5"]' in pgn.text

        log = arbiter.get(f"/api/playoffs/{playoff_id}/events", params={"after": 0}).json()
        types = [e["type"] for e in log["events"]]
        assert types[0] == "playoff-created"
        assert "coin-tossed" in types and "armageddon-colours-chosen" in types
        assert all(e["actor"] for e in log["events"])
