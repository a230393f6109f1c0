"""How the service is run: where its log is, where it listens."""

from __future__ import annotations

from dataclasses import dataclass, field
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

    @property
    def base_url(self) -> str:
        return f"http://{self.host}:{self.port}"
