"""How the service is run: where its log is, where it listens."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Settings:
    db_path: Path = Path("playoff.db")
    host: str = "127.0.0.1"
    port: int = 8000
    call_players_minutes: int = 5

    @property
    def base_url(self) -> str:
        return f"http://{self.host}:{self.port}"
