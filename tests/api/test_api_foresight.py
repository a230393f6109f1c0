"""The play-off watch over the API, on a real server with a real SQLite log.

The UzChess Cup Masters 2025 is uploaded as it stood before its last round (round
9 pending, ``"*"``); its round-9 results are then recorded one by one, and after
each the served foresight is the pure one on the games still pending, until,
with every result in, it is the finished event's standings, and the play-off can
be built. Every refusal changes nothing: the event's seq and pending games stay.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest

from orchestrator.core.timesource import ManualTime
from playoff_formats.foresight import OutcomeModel, foresee, parse_event_with_pending
from playoff_formats.model import IndividualEvent
from playoff_formats.regulations import get_regulation
from tests.support.foresight import before_round_9, finished, round_9
from tests.support.server import RunningServer, running_server

JSON = {"Content-Type": "application/json"}
START = datetime(2025, 6, 28, 12, 0, tzinfo=UTC)








@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    db = tmp_path_factory.mktemp("foresight") / "log.db"
    with running_server(db, ManualTime(START)) as running:
        yield running


def ok(response: httpx.Response) -> dict[str, Any]:
    assert response.status_code in (200, 201), response.text
    body: dict[str, Any] = response.json()
    return body


def upload(server: RunningServer, data: dict[str, Any]) -> tuple[str, str]:
    with server.client() as anonymous:
        made = ok(anonymous.post("/api/events", content=json.dumps(data), headers=JSON))
    return made["id"], made["chief_token"]


def expected(data: dict[str, Any], draw_rate: float = 0.55) -> dict[str, Any]:
    """The pure foresight of the document, as the API must serve it."""
    event, pending = parse_event_with_pending(json.dumps(data))
    return foresee(
        event, pending, get_regulation(event.regulation), OutcomeModel(draw_rate=draw_rate)
    ).to_json()


def refused(response: httpx.Response, status: int, words: str) -> str:
    assert response.status_code == status, response.text
    detail = response.json()["detail"]
    text = detail if isinstance(detail, str) else json.dumps(detail)
    assert words in text, text
    return text


def test_an_event_with_pending_games_is_stored_with_them(server: RunningServer) -> None:
    event_id, token = upload(server, before_round_9())
    with server.client(token) as chief:
        event = ok(chief.get(f"/api/events/{event_id}"))
    assert event["pending"] == [
        {"round": 9, "white": g["white"], "black": g["black"]} for g in round_9()
    ]
    assert event["seq"] == 1 and event["hall_foresight"] is False


def test_results_recorded_one_by_one_until_the_standings_are_final(
    server: RunningServer,
) -> None:
    event_id, token = upload(server, before_round_9())
    document = before_round_9()
    with server.client(token) as chief:
        # Not final: neither the standings nor a play-off.
        refused(chief.get(f"/api/events/{event_id}/standings"), 409,
                "the standings are not final: 5 games")
        refused(chief.post(f"/api/events/{event_id}/playoff", json={}), 409,
                "the standings are not final")
        assert ok(chief.get(f"/api/events/{event_id}"))["playoffs"] == []

        served = ok(chief.get(f"/api/events/{event_id}/foresight"))
        assert served == expected(document)
        assert served["outcomes"] == 243 and served["exact"] is True
        assert "Davidson" in served["model"]
        rapid = ok(chief.get(f"/api/events/{event_id}/foresight",
                             params={"time_control": "rapid"}))
        assert rapid == expected(document, 0.40)
        assert ok(chief.get(f"/api/events/{event_id}/foresight",
                            params={"draw_rate": 0.3})) == expected(document, 0.3)

        for n, game in enumerate(round_9(), start=1):
            body = {k: game[k] for k in ("round", "white", "black", "result")}
            after = ok(chief.post(f"/api/events/{event_id}/results", json=body))
            assert after["seq"] == 1 + n
            assert len(after["pending"]) == 5 - n
            for played in document["games"]:
                if played["round"] == 9 and played["white"] == game["white"]:
                    played["result"] = game["result"]
            served = ok(chief.get(f"/api/events/{event_id}/foresight"))
            assert served["outcomes"] == 3 ** (5 - n)
            assert served == expected(document)

        # Every result in: the foresight is the finished event's standings.
        standings = ok(chief.get(f"/api/events/{event_id}/standings"))
        assert served["outcomes"] == 1 and served["pending"] == []
        in_playoff = {p["id"] for p in served["players"] if p["in_playoff"]}
        assert in_playoff == set(standings["playoff"]) and served["playoff_outcomes"] == 1
        with server.client() as anonymous:
            whole = ok(anonymous.post("/api/events", content=json.dumps(finished()),
                                      headers=JSON))
        with server.client(whole["chief_token"]) as other:
            alike = ok(other.get(f"/api/events/{whole['id']}/standings"))
        assert standings["standings"] == alike["standings"]
        assert standings["playoff"] == alike["playoff"]

        # And the play-off is built, its players' break running from their last game.
        playoff = ok(chief.post(f"/api/events/{event_id}/playoff", json={}))
        assert set(playoff["names"]) == set(standings["playoff"])


def test_a_result_records_when_the_game_ended(server: RunningServer) -> None:
    event_id, token = upload(server, before_round_9())
    game = round_9()[0]
    ended = (START - timedelta(minutes=5)).isoformat()
    with server.client(token) as chief:
        body = {k: game[k] for k in ("round", "white", "black", "result")}
        refused(
            chief.post(f"/api/events/{event_id}/results",
                       json={**body, "ended_at": (START + timedelta(hours=1)).isoformat()}),
            409, "is in the future",
        )
        ok(chief.post(f"/api/events/{event_id}/results", json={**body, "ended_at": ended}))
    stored = server.service.event(event_id).event
    assert isinstance(stored, IndividualEvent)
    last = stored.games[-1]
    assert last.ended_at is not None and last.ended_at.isoformat() == ended


def test_refusals_change_nothing(server: RunningServer) -> None:
    event_id, token = upload(server, before_round_9())
    game = round_9()[0]
    body = {k: game[k] for k in ("round", "white", "black", "result")}
    path = f"/api/events/{event_id}/results"
    with server.client(token) as chief:
        before = ok(chief.get(f"/api/events/{event_id}"))
        refused(chief.post(path, json={**body, "round": 8}), 409, "not a pending game")
        refused(chief.post(path, json={**body, "white": game["black"], "black": game["white"]}),
                409, "has White")
        refused(chief.post(path, json={**body, "white": "nobody"}), 409,
                "not a pending game of the event")
        refused(chief.post(path, json={**body, "result": "*"}), 422, "result")
        refused(chief.post(path, json={**body, "colour": "white"}), 422, "colour")
        refused(chief.post(path, json={"round": 9}), 422, "white")
        refused(chief.post(path, content=b"{\"round\": 9,", headers=JSON), 422, "JSON")
        with server.client() as anonymous:
            refused(anonymous.post(path, json=body), 401, "token")
        arbiter = ok(chief.post(f"/api/events/{event_id}/tokens",
                                json={"role": "arbiter", "label": "board 1"}))["token"]
        display = ok(chief.post(f"/api/events/{event_id}/tokens",
                                json={"role": "display", "label": "hall"}))["token"]
        with server.client(display) as hall:
            refused(hall.post(path, json=body), 403, "read-only")
            refused(hall.get(f"/api/events/{event_id}/view"), 403, "hall")
        other_id, other_token = upload(server, before_round_9())
        with server.client(other_token) as other:
            refused(other.post(path, json=body), 404,
                    f"this key is for UzChess Cup Masters 2025 (event {other_id}), not for "
                    f"event {event_id!r}")
        after = ok(chief.get(f"/api/events/{event_id}"))
        assert after["seq"] == before["seq"] + 2  # the two tokens, and nothing else
        assert after["pending"] == before["pending"]

        # An arbiter may record a result, once.
        with server.client(arbiter) as board:
            ok(board.post(path, json=body))
            refused(board.post(path, json=body), 409, "already recorded")
            refused(board.put(f"/api/events/{event_id}/hall-foresight", json={"on": True}),
                    403, "chief arbiter")
        assert len(ok(chief.get(f"/api/events/{event_id}"))["pending"]) == 4


def test_the_hall_shows_the_watch_only_when_the_chief_switches_it_on(
    server: RunningServer,
) -> None:
    event_id, token = upload(server, before_round_9())
    with server.client(token) as chief:
        display = ok(chief.post(f"/api/events/{event_id}/tokens",
                                json={"role": "display", "label": "hall"}))["token"]
        with server.client(display) as hall:
            view = ok(hall.get(f"/api/events/{event_id}/view", params={"kind": "hall"}))
            assert view["line"] is None
            switched = ok(chief.put(f"/api/events/{event_id}/hall-foresight",
                                    json={"on": True}))
            assert switched["hall_foresight"] is True
            refused(chief.put(f"/api/events/{event_id}/hall-foresight", json={"on": True}),
                    409, "already shown")
            line = ok(hall.get(f"/api/events/{event_id}/view", params={"kind": "hall"}))["line"]
            # For spectators, one plain sentence: the counts and the model are the
            # console's.
            assert line == ("A play-off for first is possible: it depends on the games "
                            "still in play.")
            ok(chief.put(f"/api/events/{event_id}/hall-foresight", json={"on": False}))
            assert ok(hall.get(f"/api/events/{event_id}/view",
                               params={"kind": "hall"}))["line"] is None


def test_the_console_view_offers_each_result_and_words_the_watch(
    server: RunningServer,
) -> None:
    event_id, token = upload(server, before_round_9())
    with server.client(token) as chief:
        view = ok(chief.get(f"/api/events/{event_id}/view"))
        assert view["view"] == "event" and not view["final"]
        assert len(view["pending"]) == 5
        control = view["pending"][0]["results"][0]
        assert control["request"]["method"] == "POST"
        assert control["request"]["path"] == f"/api/events/{event_id}/results"
        watch = view["watch"]
        assert watch["outcomes"] == 243 and "Davidson" in watch["model"]
        assert watch["headline"].startswith("A play-off for first is needed in ")
        assert watch["players"] and all("of 243 outcomes" in p["first_alone_text"]
                                        for p in watch["players"])
        assert view["hall"]["request"]["body"] == {"on": True}
        # Waiting for a change: answered as soon as a result is recorded.
        sent = control["request"]
        ok(chief.post(sent["path"], json=sent["body"]))
        later = ok(chief.get(f"/api/events/{event_id}/view",
                             params={"after": view["seq"], "wait": 5}))
        assert later["seq"] == view["seq"] + 1 and len(later["pending"]) == 4
        assert later["watch"]["outcomes"] == 81


def test_pending_games_survive_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "log.db"
    with running_server(db, ManualTime(START)) as first:
        event_id, token = upload(first, before_round_9())
        game = round_9()[0]
        with first.client(token) as chief:
            ok(chief.post(f"/api/events/{event_id}/results",
                          json={k: game[k] for k in ("round", "white", "black", "result")}))
            ok(chief.put(f"/api/events/{event_id}/hall-foresight", json={"on": True}))
            before = ok(chief.get(f"/api/events/{event_id}/foresight"))
    with running_server(db, ManualTime(START)) as second, second.client(token) as chief:
        event = ok(chief.get(f"/api/events/{event_id}"))
        assert len(event["pending"]) == 4 and event["hall_foresight"] is True
        assert ok(chief.get(f"/api/events/{event_id}/foresight")) == before


def test_a_trf_with_pending_games_is_accepted(server: RunningServer) -> None:
    from tests.support.foresight import DE_TRF

    with server.client() as anonymous:
        made = ok(anonymous.post("/api/events", content=DE_TRF.encode(),
                                 headers={"Content-Type": "text/plain"}))
    with server.client(made["chief_token"]) as chief:
        event = ok(chief.get(f"/api/events/{made['id']}"))
        assert [(g["round"], g["white"], g["black"]) for g in event["pending"]] == [
            (5, "1", "7"), (5, "5", "2"), (5, "8", "3"), (5, "4", "6")]
        assert ok(chief.get(f"/api/events/{made['id']}/foresight"))["outcomes"] == 81


def test_a_finished_event_is_refused_as_before_where_it_is_wrong(
    server: RunningServer,
) -> None:
    data = before_round_9()
    data["games"][-1]["white"] = "nobody"
    with server.client() as anonymous:
        refused(anonymous.post("/api/events", content=json.dumps(data), headers=JSON),
                422, "nobody")
        team = {"name": "T", "kind": "team", "regulation": "county1980",
                "teams": [{"id": "A", "name": "A"}, {"id": "B", "name": "B"}],
                "matches": [{"round": 1, "home": "A", "away": "B", "venue": "home",
                             "boards": ["*", "1-0"]}]}
        refused(anonymous.post("/api/events", content=json.dumps(team), headers=JSON),
                422, "boards")


def test_a_result_sent_again_with_its_key_is_applied_once(server: RunningServer) -> None:
    event_id, token = upload(server, before_round_9())
    game = round_9()[0]
    body = {k: game[k] for k in ("round", "white", "black", "result")}
    path = f"/api/events/{event_id}/results"
    with server.client(token) as chief:
        first = ok(chief.post(path, json=body, headers={"Idempotency-Key": "r9-1"}))
        again = ok(chief.post(path, json=body, headers={"Idempotency-Key": "r9-1"}))
        assert again["seq"] == first["seq"] and len(again["pending"]) == 4
        other = "1/2-1/2" if body["result"] != "1/2-1/2" else "1-0"
        refused(chief.post(path, json={**body, "result": other},
                           headers={"Idempotency-Key": "r9-1"}), 422, "another request")


def test_a_finished_event_is_logged_as_before(server: RunningServer) -> None:
    from orchestrator.core.state import event_stream

    event_id, _ = upload(server, finished())
    logged = server.call(lambda: server.service.store.read(event_stream(event_id)))
    assert logged[0].type == "event-created" and "pending" not in logged[0].data
    pending_id, _ = upload(server, before_round_9())
    logged = server.call(lambda: server.service.store.read(event_stream(pending_id)))
    assert len(logged[0].data["pending"]) == 5


def test_the_arbiters_own_chances_for_a_game_replace_the_model(server: RunningServer) -> None:
    event_id, token = upload(server, before_round_9())
    game = round_9()[0]
    chances = f"{game['white']}-{game['black']}=1/0/0"
    with server.client(token) as chief:
        found = ok(chief.get(f"/api/events/{event_id}/foresight", params={"chances": chances}))
        # White certain to win that game: the pure foresight under the same chances.
        event, pending = parse_event_with_pending(json.dumps(before_round_9()))
        model = OutcomeModel(by_hand={(game["white"], game["black"]): (1.0, 0.0, 0.0)})
        assert found == foresee(event, pending, get_regulation(event.regulation),
                                model).to_json()
        assert "set by hand" in found["model"]
        refused(chief.get(f"/api/events/{event_id}/foresight",
                          params={"chances": f"{game['black']}-{game['white']}=1/0/0"}),
                409, "is not a pending game")
        refused(chief.get(f"/api/events/{event_id}/foresight", params={"chances": "a-b=0.5"}),
                409, "WHITE-BLACK=W/D/B")
        refused(chief.get(f"/api/events/{event_id}/foresight",
                          params={"chances": f"{game['white']}-{game['black']}=0.5/0.5/0.5"}),
                409, "add up to 1")
