"""A damaged SQLite log at start-up: the service checks the file (``PRAGMA
quick_check``), says so through the health check and the administrator's list,
never serves a damaged play-off as if whole, and drops a damaged snapshot to fold
the log instead of stopping with a traceback."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import httpx

from orchestrator.core.timesource import ManualTime
from tests.support.server import running_server
from tests.support.ws import make_playoff

ADMIN = "administrator-token-0123456789"


def played(db: Path) -> dict[str, object]:
    """A log with a play-off and some commands, stopped and checkpointed: the
    play-offs' clocks as they were."""
    with running_server(db, ManualTime(), settings={"admin_token": ADMIN}) as server:
        setup = make_playoff(server, 1)
        with server.client(setup.chief) as http:
            for body in (
                {"type": "start-clock", "match": 1, "game": 1},
                *({"type": "press", "match": 1, "game": 1, "side": side}
                  for _ in range(20) for side in ("white", "black")),
            ):
                assert http.post(
                    f"/api/playoffs/{setup.playoff_id}/commands", json=body
                ).status_code == 201
        states = {p.id: p.clocks for p in server.service.playoffs()}
    with sqlite3.connect(db) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return states


def overwrite_page(db: Path, page: int) -> None:
    with sqlite3.connect(db) as conn:
        size = conn.execute("PRAGMA page_size").fetchone()[0]
    with open(db, "r+b") as out:
        out.seek((page - 1) * size)
        out.write(b"\xa5" * size)


def root_page(db: Path, table: str) -> int:
    with sqlite3.connect(db) as conn:
        return int(conn.execute(
            "SELECT rootpage FROM sqlite_master WHERE type = 'table' AND name = ?", (table,)
        ).fetchone()[0])


def test_a_damaged_page_is_reported_and_no_damaged_play_off_is_served_whole(
    tmp_path: Path,
) -> None:
    db = tmp_path / "log.db"
    before = played(db)
    with sqlite3.connect(db) as conn:
        pages = conn.execute("PRAGMA page_count").fetchone()[0]
    overwrite_page(db, pages)  # the last page: the newest rows or their index
    with running_server(db, ManualTime(), settings={"admin_token": ADMIN}) as server:
        with server.client() as anyone:
            health = anyone.get("/api/health").json()
            assert health["status"] == "degraded" and health["damaged"] is True
            listed = anyone.get(
                "/api/admin/quarantine", headers={"Authorization": f"Bearer {ADMIN}"}
            ).json()
            assert listed["damage"], listed
        for playoff_id, clocks in before.items():
            stream = f"playoff-{playoff_id}"
            if stream in server.service.quarantined:
                continue  # left aside: answered 503 with the reason
            # Served only if every event of it was read: the state of the whole log.
            assert server.service.playoff(playoff_id).clocks == clocks


def test_a_damaged_snapshot_is_dropped_and_the_log_folded_instead(tmp_path: Path) -> None:
    db = tmp_path / "log.db"
    before = played(db)
    with sqlite3.connect(db) as conn:
        kept = conn.execute("SELECT count(*) FROM snapshots").fetchone()[0]
    assert kept  # a stop keeps them
    overwrite_page(db, root_page(db, "snapshots"))
    with running_server(db, ManualTime()) as server:
        for playoff_id, clocks in before.items():
            assert server.service.playoff(playoff_id).clocks == clocks
        assert server.service.quarantined == {}
        health = httpx.get(f"{server.base_url}/api/health", trust_env=False).json()
        assert health["status"] == "degraded" and health["damaged"] is True
