"""Where the service reads the time: one injectable source, so tests run hours in ms.

The rules never read the clock; the service reads it here and passes it on.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Protocol


class TimeSource(Protocol):
    """Server time: a wall clock for the log and the schedule, a monotonic one for clocks."""

    def now(self) -> datetime:
        """The current UTC time, timezone-aware."""
        ...

    def monotonic_ms(self) -> int:
        """Milliseconds on a clock that never goes back (for chess clocks and flags)."""
        ...

    def server_ms(self) -> int:
        """Server time for clocks: the monotonic clock, set to Unix epoch ms at start-up.

        It never goes back while the process runs, and reads as wall-clock time,
        so clock instants logged by one process mean the same to the next one.
        """
        ...


class SystemTime:
    """The real clocks of this machine."""

    def __init__(self) -> None:
        self._offset = time.time_ns() // 1_000_000 - time.monotonic_ns() // 1_000_000

    def now(self) -> datetime:
        return datetime.now(UTC)

    def monotonic_ms(self) -> int:
        return time.monotonic_ns() // 1_000_000

    def server_ms(self) -> int:
        return self.monotonic_ms() + self._offset


@dataclass
class ManualTime:
    """A time source that moves only when told to: for tests and simulations."""

    wall: datetime = field(default_factory=lambda: datetime(2025, 6, 28, 12, 0, tzinfo=UTC))
    mono: int = 1_000_000

    def now(self) -> datetime:
        return self.wall

    def monotonic_ms(self) -> int:
        return self.mono

    def server_ms(self) -> int:
        return int(self.wall.timestamp() * 1000)

    def advance(self, delta: timedelta | int) -> None:
        """Move both clocks on by ``delta`` (a timedelta, or milliseconds)."""
        ms = delta if isinstance(delta, int) else int(delta.total_seconds() * 1000)
        self.mono += ms
        self.wall += timedelta(milliseconds=ms)
