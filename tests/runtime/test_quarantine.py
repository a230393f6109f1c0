"""One bad stream never stops the service: it is left aside at start-up, and said so.

A log may hold a stream that this version cannot fold (written by a faulty version,
or edited by hand), or a play-off whose schedule crashes the planner (a date in year
9999, once accepted). Such a stream is quarantined: the service starts with every
other stream, the quarantined ids answer 503 with the reason, and the administrator
sees the list.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from orchestrator.core.events import PlayoffCreated
from orchestrator.core.timesource import ManualTime
from orchestrator.store import NewEvent, SqliteEventStore
from tests.support.events import uzchess_json
from tests.support.server import running_server

NOON = datetime(2025, 6, 28, 12, 0, tzinfo=UTC)


def _healthy(server_db: Path, clock: ManualTime) -> tuple[str, str, str]:
    """An event with its play-off, made through the service: (event, token, play-off)."""
    with running_server(server_db, clock) as server, server.client() as anonymous:
        created = anonymous.post(
            "/api/events", content=uzchess_json(), headers={"Content-Type": "application/json"}
        ).json()
        with server.client(created["chief_token"]) as chief:
            playoff = chief.post(f"/api/events/{created['id']}/playoff").json()["id"]
    return created["id"], created["chief_token"], playoff


def test_a_stream_that_cannot_be_folded_is_left_aside_and_the_rest_starts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "log.db"
    clock = ManualTime()
    event_id, token, playoff_id = _healthy(db, clock)
    with SqliteEventStore(db) as store:
        # A play-off whose second event is not an allowed transition (no such match).
        good = store.read(f"playoff-{playoff_id}")[0]
        store.append("playoff-bad1", good.type, {**good.data, "id": "bad1"},
                     actor="chief:chief", recorded_at=NOON)
        store.append("playoff-bad1", "lots-drawn",
                     {"match": 99, "white": "a", "black": "b", "draw": {}},
                     actor="chief:chief", recorded_at=NOON)
        # A play-off whose schedule overflows the planner (year 9999), as an older
        # version could log it.
        created = PlayoffCreated.model_validate({**good.data, "id": "bad2"})
        far = created.model_copy(update={"not_before": datetime(9999, 12, 31, 23, 0, tzinfo=UTC)})
        store.append("playoff-bad2", far.type, far.log_data(), actor="chief:chief",
                     recorded_at=NOON)
        # Both linked to the healthy event, so that its chief arbiter asks for them.
        for bad in ("bad1", "bad2"):
            store.append(f"event-{event_id}", "playoff-linked", {"playoff_id": bad},
                         actor="chief:chief", recorded_at=NOON)
        # An event stream that does not parse at all.
        store.append_many("event-bad3", [NewEvent("token-issued", {"nonsense": 1})],
                          actor="chief", recorded_at=NOON)
    monkeypatch.setenv("PLAYOFF_ADMIN_TOKEN", "let-me-see")
    with running_server(db, clock) as server:
        with server.client(token) as chief:
            # The rest of the service runs.
            assert chief.get(f"/api/playoffs/{playoff_id}").status_code == 200
            assert chief.get(f"/api/events/{event_id}").status_code == 200
            for stream_id in ("bad1", "bad2"):
                answer = chief.get(f"/api/playoffs/{stream_id}")
                assert answer.status_code == 503
                assert "could not be loaded" in answer.json()["detail"]
            # An event that could not be loaded has no token either: nobody reaches it,
            # and a token of another event is told what it opens, as for any id.
            answer = chief.get("/api/events/bad3")
            assert answer.status_code == 404
            assert answer.json()["detail"].startswith(
                f"this key is for UzChess Cup Masters 2025 (event {event_id}), not for event "
                "'bad3'")
        with server.client() as anyone:
            assert anyone.get("/api/health").json() == {"status": "degraded", "quarantined": 3}
            assert anyone.get("/api/admin/quarantine").status_code == 401
        with server.client("let-me-see") as admin:
            listed = admin.get("/api/admin/quarantine").json()["quarantined"]
        assert [q["stream"] for q in listed] == ["event-bad3", "playoff-bad1", "playoff-bad2"]
        assert [q["reason"] for q in listed] == [
            "ValidationError: token-issued.token_id: Field required",
            "TransitionError: there is no match 99",
            "OverflowError: date value out of range",
        ]


def test_without_an_administrators_token_the_list_is_off(tmp_path: Path) -> None:
    with running_server(tmp_path / "log.db", ManualTime()) as server, server.client() as anyone:
        assert anyone.get("/api/health").json() == {"status": "ok", "quarantined": 0}
        # No token is a 401 first (it needs one); with one, the route is off: 404.
        assert anyone.get("/api/admin/quarantine").status_code == 401
        off = anyone.get("/api/admin/quarantine", headers={"Authorization": "Bearer x"})
        assert off.status_code == 404
        assert "PLAYOFF_ADMIN_TOKEN" in off.json()["detail"]


def test_a_creation_the_schedule_cannot_follow_logs_nothing(tmp_path: Path) -> None:
    """A play-off is planned before it is logged: one the planner cannot place is
    refused, and the log holds neither it nor its link."""
    db = tmp_path / "log.db"
    with running_server(db, ManualTime()) as server, server.client() as anonymous:
        created = anonymous.post(
            "/api/events", content=uzchess_json(), headers={"Content-Type": "application/json"}
        ).json()
        with server.client(created["chief_token"]) as chief:
            refused = chief.post(f"/api/events/{created['id']}/playoff",
                                 json={"not_before": "9999-12-31T23:00:00Z"})
            assert refused.status_code in (409, 422), refused.text
            assert chief.get(f"/api/events/{created['id']}").json()["playoffs"] == []
    with SqliteEventStore(db) as store:
        assert store.streams("playoff-") == []
        assert [e.type for e in store.read(f"event-{created['id']}")] == ["event-created"]


