"""Who wrote each event, as the log keeps it: the role and the token's id, in the same
text as ever (``role:token_id``, or the role alone), whichever door the command came
through, and a resent command logged once, under its first sender."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from orchestrator.core.timesource import ManualTime
from orchestrator.store import SqliteEventStore
from tests.support.events import uzchess_json
from tests.support.server import running_server

NOON = datetime(2025, 6, 28, 12, 0, tzinfo=UTC)


def test_the_log_names_each_writer_by_role_and_token_as_before(tmp_path: Path) -> None:
    db = tmp_path / "log.db"
    clock = ManualTime(wall=NOON)
    with running_server(db, clock) as server, server.client() as anonymous:
        created = anonymous.post(
            "/api/events", content=uzchess_json(NOON),
            headers={"Content-Type": "application/json"},
        ).json()
        event_id = created["id"]
        with server.client(created["chief_token"]) as chief:
            playoff = chief.post(f"/api/events/{event_id}/playoff").json()["id"]
            token = chief.post(
                f"/api/events/{event_id}/tokens", json={"role": "arbiter", "label": "board 1"}
            ).json()["token"]
            arbiter_id = next(
                t.token_id for t in server.service.event(event_id).tokens if t.label == "board 1"
            )
            with server.client(token) as arbiter:
                lots = f"/api/playoffs/{playoff}/matches/1/lots"
                headers = {"Idempotency-Key": "lots-1"}
                first = arbiter.post(lots, json={"method": "service"}, headers=headers)
                again = arbiter.post(lots, json={"method": "service"}, headers=headers)
                assert first.status_code == 201, first.text
                assert again.json() == first.json()  # answered from the log
            clock.advance(timedelta(minutes=45))
            started = chief.post(f"/api/playoffs/{playoff}/matches/1/games/1/start")
            assert started.status_code == 201, started.text
    with SqliteEventStore(db) as store:
        event_log = [(e.type, e.actor) for e in store.read(f"event-{event_id}")]
        playoff_log = [(e.type, e.actor) for e in store.read(f"playoff-{playoff}")]
    assert event_log == [
        ("event-created", "chief"),
        ("playoff-linked", "chief:chief"),
        ("token-issued", "chief"),
    ]
    assert playoff_log == [
        ("playoff-created", "chief:chief"),
        ("lots-drawn", f"arbiter:{arbiter_id}"),
        ("game-started", "chief:chief"),
    ]
