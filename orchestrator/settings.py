"""How the service is run: where its log is, where it listens."""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path

CLIENTS = Path(__file__).resolve().parent.parent / "clients"
"""The pages' static files, installed beside the service (served by path: the
service never imports the clients)."""


@dataclass(frozen=True)
class Settings:
    db_path: Path = Path("playoff.db")
    host: str = "127.0.0.1"
    port: int = 8000
    call_players_minutes: int = 5
    clients_dir: Path = field(default=CLIENTS)
    admin_token: str | None = field(
        default_factory=lambda: os.environ.get("PLAYOFF_ADMIN_TOKEN") or None
    )
    """The administrator's token (``GET /api/admin/quarantine``); None: no such access."""
    snapshot_every_s: float = 60.0
    """How often the folded states that moved on are kept as snapshots (and at a stop)."""
    failed_token_limit: int = 30
    """Failed token attempts from one address within a minute before it is refused (429)."""
    utc_offset: timedelta | None = None
    """The hall's offset from UTC, for times of day in words; None: this machine's."""
    max_upload_bytes: int = 2 * 1024 * 1024
    """The largest body of ``POST /api/events`` (an event file); larger is 413."""
    max_body_bytes: int = 64 * 1024
    """The largest body of any other request (a command...); larger is 413."""

    def hall_offset(self) -> timedelta:
        if self.utc_offset is not None:
            return self.utc_offset
        # The service runs in the hall (or is told otherwise): its zone is the hall's.
        return timedelta(seconds=time.localtime().tm_gmtoff)

    @property
    def base_url(self) -> str:
        return f"http://{self.host}:{self.port}"
