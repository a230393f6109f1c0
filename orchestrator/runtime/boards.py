"""Board clocks as the workers hear them.

A board's connection is held by one worker; the flag timers run on the leader. For
the leader to wait for a board's presses before a flag (and no longer than it must),
each worker shares what it hears of its boards (connected or not, when last heard,
up to when every press was sent) over the bus between workers, and each keeps what
the others shared. Nothing here is logged: it is how the network is now, not a fact
of the play-off.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

__all__ = [
    "FRESH_MS", "SHARE_EVERY_MS", "BoardNews", "Presence", "RemoteBoards", "ShareBoard", "latest",
]

SHARE_EVERY_MS = 1_000
"""A worker shares that it still hears a board at most this often (a board's page
pings every second); a change of connection or of ``through_ms`` goes at once."""

FRESH_MS = 5_000
"""Another worker's word that a board is connected holds this long without news: a
worker that stops sharing (stopped, cut off from Redis) no longer vouches for it, and
the board counts as heard but off line (its flags wait the outage allowance)."""


@dataclass(slots=True)
class Presence:
    """What a board's connection last told this worker."""

    last_heard_ms: int | None = None
    through_ms: int | None = None
    """Every press the board stamped before this instant has arrived."""
    battery: float | None = None
    charging: bool | None = None
    shared: BoardNews | None = None
    """What this worker last shared of it."""


@dataclass(frozen=True, slots=True)
class BoardNews:
    """One worker's word on one board: what travels between workers."""

    online: bool
    heard_ms: int | None
    through_ms: int | None
    battery: float | None = None
    charging: bool | None = None


ShareBoard = Callable[[str, int, BoardNews], None]
"""Share (play-off, match)'s news with the other workers."""


@dataclass
class RemoteBoards:
    """What the other workers shared of their boards, by worker."""

    _news: dict[tuple[str, int], dict[str, BoardNews]] = field(default_factory=dict)

    def told(self, worker: str, playoff_id: str, match: int, news: BoardNews) -> bool:
        """Keep ``worker``'s news; True when it moves ``through_ms`` on."""
        by_worker = self._news.setdefault((playoff_id, match), {})
        before = by_worker.get(worker)
        by_worker[worker] = news
        return news.through_ms is not None and (
            before is None or before.through_ms is None or news.through_ms > before.through_ms
        )

    def online(self, playoff_id: str, match: int, now_ms: int) -> bool:
        return any(
            news.online and news.heard_ms is not None and now_ms - news.heard_ms <= FRESH_MS
            for news in self._news.get((playoff_id, match), {}).values()
        )

    def heard_ms(self, playoff_id: str, match: int) -> int | None:
        return _latest(n.heard_ms for n in self._news.get((playoff_id, match), {}).values())

    def through_ms(self, playoff_id: str, match: int) -> int | None:
        return _latest(n.through_ms for n in self._news.get((playoff_id, match), {}).values())

    def last(self, playoff_id: str, match: int) -> BoardNews | None:
        """The news of the worker that heard the board last."""
        told = [n for n in self._news.get((playoff_id, match), {}).values()
                if n.heard_ms is not None]
        return max(told, key=lambda n: n.heard_ms or 0) if told else None


def _latest(instants: Iterable[int | None]) -> int | None:
    known = [t for t in instants if t is not None]
    return max(known) if known else None


def latest(*instants: int | None) -> int | None:
    """The latest of the instants known (None: none is)."""
    return _latest(instants)
