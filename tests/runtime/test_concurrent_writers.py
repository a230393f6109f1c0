"""Concurrent writers and kill -9: one play-off per event, and nothing acknowledged lost.

A play-off is created and linked to its event in one transaction, with the check
that the event has none yet under the event's lock; every command's events are one
transaction. So however many arbiters ask at once, and whenever the process dies,
the log holds exactly one play-off per event and every command that was answered.
"""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx

from orchestrator.core.timesource import ManualTime
from orchestrator.store import SqliteEventStore
from tests.support.events import uzchess_json
from tests.support.server import kill, running_server, service_process

JSON = {"Content-Type": "application/json"}


def test_eight_concurrent_creations_make_one_play_off(tmp_path: Path) -> None:
    db = tmp_path / "log.db"
    with running_server(db, ManualTime()) as server, server.client() as anonymous:
        created = anonymous.post("/api/events", content=uzchess_json(), headers=JSON).json()
        url = f"/api/events/{created['id']}/playoff"

        def create(_: int) -> int:
            with server.client(created["chief_token"]) as chief:
                return chief.post(url, json={}).status_code

        with ThreadPoolExecutor(8) as pool:
            codes = sorted(pool.map(create, range(8)))
        assert codes == [201] + [409] * 7
    with SqliteEventStore(db) as store:
        assert len(store.streams("playoff-")) == 1
        linked = [e for e in store.read(f"event-{created['id']}") if e.type == "playoff-linked"]
        assert len(linked) == 1


def test_kill_9_during_concurrent_creations_and_commands(tmp_path: Path) -> None:
    """Four events, each asked for its play-off by three clients at once, then lots
    and starts sent in a loop, while the process is killed with SIGKILL: after the
    restart each event has at most one play-off, every play-off stream is linked to
    its event (no orphan), and every acknowledged command is in the log."""
    db = tmp_path / "log.db"
    acknowledged: list[tuple[str, int]] = []  # (stream, seq) answered 2xx
    lock = threading.Lock()
    stop = threading.Event()
    with open(tmp_path / "service.log", "wb") as output, service_process(db, output) as (
        process, base
    ):
        with httpx.Client(base_url=base, trust_env=False, timeout=10) as anonymous:
            events = [
                anonymous.post("/api/events", content=uzchess_json(), headers=JSON).json()
                for _ in range(4)
            ]

        def hammer(event: dict[str, Any]) -> None:
            headers = {"Authorization": f"Bearer {event['chief_token']}"}
            with httpx.Client(base_url=base, trust_env=False, timeout=5,
                              headers=headers) as chief:
                playoff = None
                while not stop.is_set() and playoff is None:
                    try:
                        made = chief.post(f"/api/events/{event['id']}/playoff", json={})
                    except httpx.TransportError:
                        return
                    if made.status_code == 201:
                        playoff = made.json()["id"]
                        with lock:
                            acknowledged.append((f"playoff-{playoff}", 1))
                    elif made.status_code == 409:
                        listed = chief.get(f"/api/events/{event['id']}").json()
                        playoff = listed["playoffs"][0] if listed["playoffs"] else None
                while not stop.is_set() and playoff is not None:
                    try:
                        answer = chief.post(
                            f"/api/playoffs/{playoff}/matches/1/lots",
                            json={"method": "service"},
                        )
                    except httpx.TransportError:
                        return
                    if answer.status_code == 201:
                        with lock:
                            acknowledged.extend(
                                (e["stream"], e["seq"]) for e in answer.json()["events"]
                            )

        threads = [
            threading.Thread(target=hammer, args=(event,))
            for event in events for _ in range(3)
        ]
        for thread in threads:
            thread.start()
        time.sleep(1.5)
        kill(process)
        stop.set()
        for thread in threads:
            thread.join(timeout=10)
    assert acknowledged, "nothing was acknowledged before the kill"
    with SqliteEventStore(db) as store:
        playoffs = store.streams("playoff-")
        links: dict[str, list[str]] = {}
        for event in events:
            logged = store.read(f"event-{event['id']}")
            links[event["id"]] = [
                e.data["playoff_id"] for e in logged if e.type == "playoff-linked"
            ]
        assert all(len(linked) <= 1 for linked in links.values()), links
        linked_streams = {f"playoff-{p}" for ids in links.values() for p in ids}
        assert set(playoffs) == linked_streams  # no orphan, no unlinked play-off
        for stream, seq in acknowledged:
            assert store.last_seq(stream) >= seq, (stream, seq)
    # ... and the service starts again on that log, every stream loaded.
    with running_server(db) as server, server.client() as anyone:
        assert anyone.get("/api/health").json() == {"status": "ok", "quarantined": 0}
