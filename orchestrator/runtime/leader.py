"""One leader among the workers sharing a log: the one that runs the timers.

The flag timers and the scheduler's jobs run on one worker at a time, the holder
of a lease: a PostgreSQL advisory lock held by a session of its own
(:class:`PostgresLease`). The lock lives exactly as long as that session, so:

- a leader that stops, or is killed, closes its session and frees the lock at
  once; the others try for it every ``poll_s`` and one of them has it within
  that time;
- a leader that cannot reach the database (its check of the session fails or
  takes more than ``timeout_s``) stops its timers at once; the server ends the
  session it can no longer reach after its TCP keepalives give up (about
  ``keepalive_s``), and only then is the lock free for another.

A worker elected first folds everything the log has (its own state may lag what
the others wrote), then arms every timer from that state: a flag that fell while
no leader was up falls at once, and is logged at its own instant, as after a
restart. A timer fired by two workers around a change of leader is logged once:
its command id is derived from what it fires, and the log keeps one command per id.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

log = logging.getLogger(__name__)

LEADER_LOCK = 0x504C4F46
"""The advisory lock's first key ("PLOF", as the schema's lock); the second is the
hash of the log's schema, so that logs in schemas of one database elect apart."""


class Leadership(Protocol):
    """How a worker comes to run the timers, and stops."""

    @property
    def leading(self) -> bool: ...

    async def run(
        self, elected: Callable[[], Awaitable[None]], deposed: Callable[[], None]
    ) -> None:
        """Until cancelled: call ``elected`` each time this worker becomes the leader
        and ``deposed`` each time it stops being it (also when cancelled)."""
        ...


class PostgresLease:
    """The lease as a session-level advisory lock in the log's database."""

    def __init__(
        self,
        url: str,
        *,
        poll_s: float = 1.0,
        timeout_s: float = 2.0,
        keepalive_s: int = 5,
    ) -> None:
        if poll_s <= 0 or timeout_s <= 0 or keepalive_s < 1:
            raise ValueError("poll_s and timeout_s must be > 0, keepalive_s >= 1")
        self._url = url  # may hold a password: never shown
        self.poll_s = poll_s
        self.timeout_s = timeout_s
        self.keepalive_s = keepalive_s
        self._leading = False

    @property
    def leading(self) -> bool:
        return self._leading

    async def run(
        self, elected: Callable[[], Awaitable[None]], deposed: Callable[[], None]
    ) -> None:
        import psycopg

        while True:
            conn: Any = None
            try:
                conn = await self._connect()
                while not await self._try_lock(conn):
                    await asyncio.sleep(self.poll_s)
                self._leading = True
                log.info("this worker is the leader: it runs the flag timers and the jobs")
                await elected()
                while True:
                    await asyncio.sleep(self.poll_s)
                    async with asyncio.timeout(self.timeout_s):
                        await conn.execute("SELECT 1")
            except (psycopg.Error, OSError, TimeoutError) as exc:
                log.warning("leader lease: %s; trying again", _reason(exc))
            except Exception:
                # elected() failed (the log unreadable...): give the lease up, so that
                # a worker that can do the work takes it.
                log.exception("leader lease: taking the lead failed; trying again")
            finally:
                if self._leading:
                    self._leading = False
                    log.info("this worker is no longer the leader")
                    deposed()
                if conn is not None:
                    with contextlib.suppress(Exception):
                        await conn.close()
            await asyncio.sleep(self.poll_s)

    async def _connect(self) -> Any:
        import psycopg

        idle = self.keepalive_s
        conn = await psycopg.AsyncConnection.connect(
            self._url, autocommit=True, connect_timeout=max(2, int(self.timeout_s)),
            keepalives=1, keepalives_idle=idle, keepalives_interval=1, keepalives_count=3,
            # Who leads, for whoever looks (pg_stat_activity beside pg_locks).
            application_name=f"playoff-leader:{os.getpid()}@{socket.gethostname()}"[:63],
        )
        # The server's side too: it frees the lock of a leader it can no longer reach
        # after these, not after the system's two hours.
        await conn.execute(
            "SELECT set_config('tcp_keepalives_idle', %s, false), "
            "set_config('tcp_keepalives_interval', '1', false), "
            "set_config('tcp_keepalives_count', '3', false)",
            (str(idle),),
        )
        return conn

    @staticmethod
    async def _try_lock(conn: object) -> bool:
        import psycopg

        assert isinstance(conn, psycopg.AsyncConnection)
        cursor = await conn.execute(
            "SELECT pg_try_advisory_lock(%s, hashtext(current_schema()))", (LEADER_LOCK,)
        )
        row = await cursor.fetchone()
        return bool(row is not None and row[0])


def _reason(exc: BaseException) -> str:
    if isinstance(exc, TimeoutError):
        return "the database did not answer in time"
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__


__all__ = ["LEADER_LOCK", "Leadership", "PostgresLease"]
