"""A bridge extra board's score corrected by the chief arbiter, with a reason, at every
door: refused to anyone else, what it voids said before it is confirmed, listed among
the changes and announced in the hall until the next stanza starts (EBU 143.2.1)."""

from __future__ import annotations

import asyncio
import json
from datetime import timedelta
from pathlib import Path

import httpx

from orchestrator.core.timesource import ManualTime
from tests.support.server import running_server
from tests.support.ws import ws_answer

KNOCKOUT = {
    "name": "Knock-out, round 3", "kind": "team", "regulation": "ebu-143.7",
    "teams": [{"id": "N", "name": "North London"}, {"id": "S", "name": "Surrey"}],
    "matches": [{"round": 1, "home": "N", "away": "S", "venue": "neutral",
                 "boards": [420, -420, 50, -50]}],
}


def _score(client: httpx.Client, url: str, stanza: int, board: int, t1: int, t2: int) -> None:
    for table, score in ((1, t1), (2, t2)):
        response = client.post(f"{url}/board-scores", json={
            "stanza": stanza, "board": board, "table": table, "ns_score": score})
        assert response.status_code == 201, response.text


async def test_the_chief_arbiter_corrects_a_board_score_and_the_hall_is_told(
    tmp_path: Path,
) -> None:
    clock = ManualTime()
    with running_server(tmp_path / "log.db", clock) as server:
        with server.client() as anonymous:
            created = anonymous.post("/api/events", content=json.dumps(KNOCKOUT),
                                     headers={"Content-Type": "application/json"}).json()
        chief_token = created["chief_token"]
        chief = server.client(chief_token)
        # 24 scheduled boards: stanzas of three.
        made = chief.post(f"/api/events/{created['id']}/extra-boards",
                          json={"home": "N", "away": "S", "scheduled": 24})
        playoff = made.json()["id"]
        url = f"/api/playoffs/{playoff}"
        arbiter_token = chief.post(f"/api/events/{created['id']}/tokens",
                                   json={"role": "arbiter"}).json()["token"]
        _score(chief, url, 1, 1, 620, 170)     # +450: 10 IMPs to North London
        _score(chief, url, 1, 2, -600, -150)   # -450: 10 IMPs to Surrey
        _score(chief, url, 1, 3, 0, 10)        # level: stanza 2 opens
        _score(chief, url, 2, 1, 0, 50)        # stanza 2 under way: 2 IMPs to Surrey

        # The entry form says who sits North-South at each table.
        console = chief.get(f"{url}/view", params={"kind": "arbiter"}).json()
        tables = console["extra_boards"]["entry"]["fields"][1]["options"]
        assert [t["label"] for t in tables] == [
            "Table 1: North London North-South", "Table 2: Surrey North-South"]
        assert console["extra_boards"]["tables"] == [
            "Table 1: North London North-South", "Table 2: Surrey North-South"]
        # The schedule speaks of the teams by name, not by id.
        assert any("North London and Surrey is unknown" in w
                   for w in console["schedule"]["warnings"]), console["schedule"]["warnings"]
        form = console["extra_boards"]["correct"]
        assert form["role"] == "chief"
        assert form["fields"][0]["options"][0]["label"] == (
            "Stanza 1, board 1, table 1 (North London NS): +620")

        # Entering a score again is not how a score is corrected.
        again = chief.post(f"{url}/board-scores",
                           json={"stanza": 1, "board": 1, "table": 1, "ns_score": 650})
        assert again.status_code == 409
        # Correcting is the chief arbiter's, at every door.
        correction = {"stanza": 1, "board": 1, "table": 1, "ns_score": 720,
                      "reason": "the travelling slip was misread"}
        with server.client(arbiter_token) as arbiter:
            refused = arbiter.put(f"{url}/board-scores", json=correction)
            assert refused.status_code == 403
            assert refused.json()["detail"].startswith("only the chief arbiter may correct")
        ws_url = server.base_url.replace("http", "ws") + f"/ws/playoffs/{playoff}"
        frame = await ws_answer(ws_url, arbiter_token, type="board-score-correct",
                                 **correction)
        assert frame["t"] == "error" and frame["d"]["code"] == "forbidden"
        # +550 (11 IMPs) decides stanza 1: stanza 2 is no longer played. Said first.
        before = len(chief.get(f"{url}/events").json()["events"])
        unconfirmed = chief.put(f"{url}/board-scores", json=correction)
        assert unconfirmed.status_code == 409
        assert ("this correction voids the scores of stanza 2, no longer played"
                in unconfirmed.json()["detail"])
        assert before == len(chief.get(f"{url}/events").json()["events"])  # nothing logged
        done = chief.put(f"{url}/board-scores", json={**correction, "confirm": True})
        assert done.status_code == 200, done.text
        board = chief.get(url).json()["extra_boards"]
        assert board["winner"] == "N"
        assert len(board["stanzas"]) == 1
        changes = chief.get(url).json()["changes"]
        assert changes[-1]["text"] == (
            "score of stanza 1, board 1, table 1 corrected from NS +620 to NS +720: North "
            "London win the match; voided: the scores of stanza 2, no longer played")
        assert changes[-1]["reason"] == "the travelling slip was misread"
        hall = chief.get(f"{url}/view").json()
        assert hall["correction"] == {
            "title": "Score corrected",
            "text": ("Stanza 1, board 1, table 1: the North-South score is +720 (was +620); "
                     "North London win the match"),
            "items": ["Stanza 2: no longer played"],
        }
        # Corrected back: Surrey's stanza-2 board is not restored (it was voided), the
        # match is level again after stanza 1 and stanza 2 opens afresh.
        back = chief.put(f"{url}/board-scores", json={
            **correction, "ns_score": 620, "reason": "the first reading was right",
            "confirm": True})
        assert back.status_code == 200, back.text
        board = chief.get(url).json()["extra_boards"]
        assert board["winner"] is None and board["current_stanza"] == 2
        assert all(b["table_1"] is None for b in board["stanzas"][1]["boards"])
        hall = chief.get(f"{url}/view").json()
        assert hall["correction"]["items"] == ["North London no longer win the match"]
        # The first score of the next stanza ends the announcement.
        clock.advance(timedelta(minutes=5))
        _score(chief, url, 2, 1, 0, 0)
        assert chief.get(f"{url}/view").json()["correction"] is None
        chief.close()
        await asyncio.sleep(0)
