"""Bridge extra boards live (EBU 143.2.1): scores at both tables, IMPs, stanzas."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx

from orchestrator.core.timesource import ManualTime
from tests.support.server import running_server

KNOCKOUT = {
    "name": "Knock-out, round 3", "kind": "team", "regulation": "ebu-143.7",
    "teams": [{"id": "N", "name": "North London"}, {"id": "S", "name": "Surrey"}],
    "matches": [{"round": 1, "home": "N", "away": "S", "venue": "neutral",
                 "boards": [420, -420, 50, -50]}],
}


def _setup(server: Any, body: dict[str, Any]) -> tuple[httpx.Client, str]:
    created = server.client().post(
        "/api/events", content=json.dumps(KNOCKOUT), headers={"Content-Type": "application/json"}
    ).json()
    chief = server.client(created["chief_token"])
    made = chief.post(f"/api/events/{created['id']}/extra-boards", json=body)
    assert made.status_code == 201, made.text
    return chief, made.json()["id"]


def _score(client: httpx.Client, playoff: str, stanza: int, board: int, t1: int, t2: int) -> None:
    for table, score in ((1, t1), (2, t2)):
        response = client.post(
            f"/api/playoffs/{playoff}/board-scores",
            json={"stanza": stanza, "board": board, "table": table, "ns_score": score},
        )
        assert response.status_code == 201, response.text


def test_143_2_1_a_tied_16_board_match_plays_two_boards_repeated_while_tied(
    tmp_path: Path,
) -> None:
    with running_server(tmp_path / "log.db", ManualTime()) as server:
        chief, playoff = _setup(server, {"home": "N", "away": "S", "scheduled": 16})
        state = chief.get(f"/api/playoffs/{playoff}").json()
        assert state["kind"] == "extra-boards"
        assert state["extra_boards"]["plan"]["stanzas"] == [2]
        # Stanza 1: +420 / +420 (flat) and 450 / 420 (+30 = 1 IMP each way?) -> level.
        _score(chief, playoff, 1, 1, 420, 420)     # net 0: 0 IMPs
        _score(chief, playoff, 1, 2, -100, -50)    # net -50: 2 IMPs to Surrey
        board = chief.get(f"/api/playoffs/{playoff}").json()["extra_boards"]
        assert board["stanzas"][0]["boards"][1]["imps"] == -2
        assert board["running_total"] == [0, 2]
        assert board["winner"] == "S"
        log = chief.get(f"/api/playoffs/{playoff}/events").json()["events"]
        assert log[-1]["type"] == "stanza-advanced"
        assert log[-1]["data"]["decided"] is True


def test_143_2_1_still_level_after_a_stanza_the_procedure_is_repeated(tmp_path: Path) -> None:
    with running_server(tmp_path / "log.db", ManualTime()) as server:
        # 24 scheduled boards: one eighth is 3 boards a stanza.
        chief, playoff = _setup(server, {"home": "N", "away": "S", "scheduled": 24})
        _score(chief, playoff, 1, 1, 620, 170)     # +450: 10 IMPs to North London
        _score(chief, playoff, 1, 2, -600, -150)   # -450: 10 IMPs to Surrey
        _score(chief, playoff, 1, 3, 0, 10)        # -10: 0 IMPs, a drawn board
        board = chief.get(f"/api/playoffs/{playoff}").json()["extra_boards"]
        assert board["stanzas"][0]["imps"] == [10, 10]
        assert board["winner"] is None
        assert board["current_stanza"] == 2
        assert len(board["stanzas"][1]["boards"]) == 3
        _score(chief, playoff, 2, 1, 100, 0)       # +100: 3 IMPs to North London
        _score(chief, playoff, 2, 2, 0, 0)
        _score(chief, playoff, 2, 3, 0, 0)
        board = chief.get(f"/api/playoffs/{playoff}").json()["extra_boards"]
        assert board["running_total"] == [3, 0]
        assert board["winner"] == "N"


def test_hubert_phillips_bowl_three_stanzas_of_two_with_partner_changes(tmp_path: Path) -> None:
    with running_server(tmp_path / "log.db", ManualTime()) as server:
        chief, playoff = _setup(server, {
            "home": "N", "away": "S", "scheduled": 48, "competition": "hubert-phillips-bowl",
        })
        _score(chief, playoff, 1, 1, 620, 170)     # +10 IMPs after stanza 1 decides nothing
        _score(chief, playoff, 1, 2, 0, 0)
        board = chief.get(f"/api/playoffs/{playoff}").json()["extra_boards"]
        assert board["winner"] is None
        assert board["current_stanza"] == 2
        assert board["stanzas"][0]["partners_change_after"] is True
        # Stanza 2 (partners changed): Surrey gets the 10 IMPs back.
        _score(chief, playoff, 2, 1, 170, 620)
        _score(chief, playoff, 2, 2, 0, 0)
        _score(chief, playoff, 3, 1, 0, 0)
        _score(chief, playoff, 3, 2, 100, 0)       # +100: 3 IMPs to North London
        board = chief.get(f"/api/playoffs/{playoff}").json()["extra_boards"]
        assert board["running_total"] == [13, 10]
        assert board["winner"] == "N"


def test_a_score_for_a_board_not_in_play_is_refused(tmp_path: Path) -> None:
    with running_server(tmp_path / "log.db", ManualTime()) as server:
        chief, playoff = _setup(server, {"home": "N", "away": "S", "scheduled": 16})
        wrong = chief.post(f"/api/playoffs/{playoff}/board-scores",
                           json={"stanza": 2, "board": 1, "table": 1, "ns_score": 100})
        assert wrong.status_code == 409
        assert "stanza 1 is being played" in wrong.json()["detail"]
        odd = chief.post(f"/api/playoffs/{playoff}/board-scores",
                         json={"stanza": 1, "board": 1, "table": 1, "ns_score": 105})
        assert odd.status_code == 409
        logged = chief.get(f"/api/playoffs/{playoff}/events").json()["events"]
        assert [e["type"] for e in logged if e["type"] != "transition-fired"] == [
            "extra-boards-created"
        ]


def test_143_2_1_extra_boards_only_for_a_tied_match_and_only_once(tmp_path: Path) -> None:
    """EBU 143.2.1: extra boards are played when a knock-out match is tied; a pair
    that has them plays on in the same contest, never in a second one."""
    won = {**KNOCKOUT, "matches": [{**KNOCKOUT["matches"][0], "boards": [420, -420, 50, 0]}]}
    with running_server(tmp_path / "log.db", ManualTime()) as server:
        created = server.client().post(
            "/api/events", content=json.dumps(won), headers={"Content-Type": "application/json"}
        ).json()
        chief = server.client(created["chief_token"])
        refused = chief.post(f"/api/events/{created['id']}/extra-boards",
                             json={"home": "N", "away": "S", "scheduled": 16})
        assert refused.status_code == 409
        assert "not tied: North London won it by 2 IMPs" in refused.json()["detail"]
        stranger = chief.post(f"/api/events/{created['id']}/extra-boards",
                              json={"home": "N", "away": "X", "scheduled": 16})
        assert stranger.status_code == 409


def test_143_2_1_a_pair_with_extra_boards_gets_no_second_set_of_them(tmp_path: Path) -> None:
    with running_server(tmp_path / "log.db", ManualTime()) as server:
        created = server.client().post(
            "/api/events", content=json.dumps(KNOCKOUT),
            headers={"Content-Type": "application/json"},
        ).json()
        chief = server.client(created["chief_token"])
        body = {"home": "N", "away": "S", "scheduled": 16}
        assert chief.post(f"/api/events/{created['id']}/extra-boards", json=body).status_code == 201
        again = chief.post(f"/api/events/{created['id']}/extra-boards",
                           json={**body, "home": "S", "away": "N"})
        assert again.status_code == 409
        assert "already have their extra boards" in again.json()["detail"]


def test_stanzas_follow_each_other_with_no_chess_interval(tmp_path: Path) -> None:
    """The next stanza is planned as soon as the last board of the previous one is
    scored: the teams change tables (or partners), with no 5- or 10-minute interval."""
    clock = ManualTime()
    with running_server(tmp_path / "log.db", clock) as server:
        chief, playoff = _setup(server, {"home": "N", "away": "S", "scheduled": 16})
        clock.advance(60_000)
        _score(chief, playoff, 1, 1, 420, 420)
        _score(chief, playoff, 1, 2, 0, 0)
        schedule = chief.get(f"/api/playoffs/{playoff}").json()["schedule"]
        first, second = schedule["games"][0], schedule["games"][1]
        assert first["status"] == "played"
        assert second["start"] == first["end"] == clock.now().isoformat().replace("+00:00", "Z")
        assert not [b for b in schedule["breaks"] if b["kind"] == "interval"]
