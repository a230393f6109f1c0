"""How the service is run: where its log is, where it listens."""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any

CLIENTS = Path(__file__).resolve().parent.parent / "clients"
"""The pages' static files, installed beside the service (served by path: the
service never imports the clients)."""


@dataclass(frozen=True)
class Settings:
    db_path: Path = Path("playoff.db")
    """The SQLite event log, for one process (the default)."""
    store_url: str | None = None
    """A PostgreSQL event log (``postgresql://...``) in place of ``db_path``: one log
    that several workers can share."""
    redis_url: str | None = None
    """Redis (``redis://...``) through which workers sharing the PostgreSQL log follow
    each other's commits; one of them, elected, runs the timers. None: one process."""
    leader_poll_s: float = 1.0
    """How often a worker that is not the leader tries for the lead (so, about how long
    the timers wait for a new leader after one dies)."""
    reconcile_s: float = 5.0
    """How often a worker reads the shared log's new events, for commits it was never
    told of (their worker died between the commit and the announcement)."""
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
    upload_token: str | None = field(
        default_factory=lambda: os.environ.get("PLAYOFF_UPLOAD_TOKEN") or None
    )
    """The organiser's credential: with it set, ``POST /api/events`` needs it as a
    bearer token (401 otherwise). None: anyone who reaches the service may upload."""
    forwarded_allow_ips: str | None = field(
        default_factory=lambda: os.environ.get("PLAYOFF_FORWARDED_ALLOW_IPS") or None
    )
    """The proxies whose ``X-Forwarded-For`` and ``X-Forwarded-Proto`` are believed
    (addresses or networks, comma-separated; ``*`` for any). None: no proxy is
    trusted, and a client is known by the address it connects from."""
    max_connections_per_token: int = 100
    """Websockets one token (a display key...) may hold at once; past it a new one is
    refused (close code 1013), but a client's reconnection replaces its own earlier
    connection (the same ``instance`` in its hello)."""
    max_connections_per_address: int = 300
    """Websockets open from one address at once (with or without a hello)."""
    openings_per_s: float = 10.0
    """Websockets one address may open a second, in bursts of five seconds' worth."""
    foresight_workers: int = 1
    """Processes that compute the play-off watch (off the service's interpreter)."""
    failed_token_limit: int = 30
    """Failed token attempts from one address within a minute before it is refused (429)."""
    utc_offset: timedelta | None = None
    """The hall's fixed offset from UTC, for a play-off whose event names no time zone
    (nor its chief arbiter, nor its regulation); None: this machine's."""
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


def proxy_options(settings: Settings) -> dict[str, Any]:
    """uvicorn's options for forwarded headers: off unless the operator names the
    proxies (uvicorn would otherwise believe any client on this machine)."""
    trusted = settings.forwarded_allow_ips
    return {"proxy_headers": bool(trusted), "forwarded_allow_ips": trusted or ""}


LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1")


def open_uploads_warning(settings: Settings) -> str | None:
    """What to say when anyone on the network may create events, or None."""
    if settings.upload_token or settings.host in LOOPBACK_HOSTS or settings.host.startswith(
        "127."
    ):
        return None
    return (
        f"warning: listening on {settings.host} with no organiser's credential: anyone "
        "who reaches this machine can upload an event and gets its chief arbiter's token. "
        "Set PLAYOFF_UPLOAD_TOKEN to a long random value to require it for uploads."
    )


class DeploymentError(ValueError):
    """A log or a bus given that the service cannot use, in words that say what to fix."""


def check_deployment(store_url: str | None, redis_url: str | None, db: Path | None) -> None:
    """Refuse, before anything starts, a combination that cannot work, a URL of the
    wrong kind, or a server that does not answer. No message shows a URL: it may
    hold a password."""
    if store_url is not None and db is not None:
        raise DeploymentError("--db and --store name two logs: give one of them")
    if store_url is not None and not store_url.startswith(("postgresql://", "postgres://")):
        raise DeploymentError(
            "--store takes a PostgreSQL URL (postgresql://user@host:5432/database)"
        )
    if redis_url is not None and store_url is None:
        raise DeploymentError(
            "--redis is for several workers, which share one log: give it with "
            "--store postgresql://... (a SQLite file serves one process)"
        )
    if redis_url is not None and not redis_url.startswith(("redis://", "rediss://", "unix://")):
        raise DeploymentError("--redis takes a Redis URL (redis://host:6379/0)")
    if store_url is not None:
        import psycopg

        try:
            psycopg.connect(store_url, connect_timeout=5).close()
        except psycopg.Error as exc:
            reason = _first_line(exc)
            raise DeploymentError(f"--store: PostgreSQL does not answer: {reason}") from None
    if redis_url is not None:
        import redis
        from redis.exceptions import RedisError

        try:
            client = redis.Redis.from_url(redis_url, socket_connect_timeout=5)
            client.ping()
            client.close()
        except (RedisError, ValueError) as exc:
            raise DeploymentError(f"--redis: Redis does not answer: {_first_line(exc)}") from None


def _first_line(exc: BaseException) -> str:
    lines = str(exc).strip().splitlines()
    return lines[0] if lines else type(exc).__name__
