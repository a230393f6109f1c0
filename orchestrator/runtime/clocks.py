"""Running clocks: one flag timer per running clock, and the flags the server decides.

There is no ticking loop. Each running clock has one timer, set at the exact
instant its flag falls (``Clock.flag_at_ms``), moved whenever the clock changes
(every press, pause, adjustment). When it fires, the server's own command
:class:`~orchestrator.core.commands.FallFlag` checks the clock is still the one it was
set for, then logs ``flag-fell`` at that instant and the result it implies.

The timer is an ``asyncio`` timer, on the loop's monotonic clock, set a little
before the instant (:data:`SPIN_S`); from there the loop turns until the instant.
Its lateness (how long after the flag instant it fired) is kept for the benchmarks.

Where several workers share one log, only the leader's timers are armed
(:mod:`orchestrator.runtime.leader`): the others are inactive, and a worker elected arms
every timer from the state as the log has it, a flag already past falling at once,
logged at its own instant. A flag fired twice (a leader deposed while firing) is
logged once: its command id names the clock and the instant.
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from orchestrator.core.auth import Actor
from orchestrator.core.bus import Published
from orchestrator.core.commands import FallFlag
from orchestrator.core.errors import Conflict
from orchestrator.core.state import GameKey, PlayoffState
from orchestrator.core.timesource import TimeSource

if TYPE_CHECKING:
    from orchestrator.core.service import Service

log = logging.getLogger(__name__)

SERVER = Actor("server")
"""The service's own flag falls, logged as the server's."""

SPIN_S = 0.002
"""How long before its instant a flag's timer wakes. The loop's timers count whole
milliseconds on a time read once per turn of the loop, so a timer set at the instant
fires a millisecond or two after it, more after a long callback; from this margin on
the loop turns without sleeping (all else still runs) and the flag falls on its
millisecond."""


@dataclass
class _Timer:
    flag_at_ms: int
    handle: asyncio.Handle | None


@dataclass
class FlagTimers:
    service: Service
    time: TimeSource
    lateness_ms: list[int] = field(default_factory=list)
    active: bool = True
    """False: another worker runs the timers; this one arms none."""
    _timers: dict[tuple[str, GameKey], _Timer] = field(default_factory=dict)
    _tasks: set[asyncio.Future[None]] = field(default_factory=set)

    async def on_published(self, message: Published) -> None:
        self.sync(message.state)

    def sync_all(self) -> None:
        for state in self.service.playoffs():
            self.sync(state)

    def activate(self) -> None:
        self.active = True
        self.sync_all()

    def deactivate(self) -> None:
        self.active = False
        self.cancel_all()

    def sync(self, state: PlayoffState) -> None:
        """One timer per running clock of ``state``, at its flag instant."""
        if not self.active:
            return
        wanted: dict[GameKey, int] = {}
        for key, clock in state.clocks.items():
            flag_at = clock.flag_at_ms()
            if flag_at is not None:
                wanted[key] = flag_at
        for (playoff_id, key), timer in list(self._timers.items()):
            if playoff_id == state.id and wanted.get(key) != timer.flag_at_ms:
                if timer.handle is not None:
                    timer.handle.cancel()
                del self._timers[(playoff_id, key)]
        for key, flag_at in wanted.items():
            if (state.id, key) not in self._timers:
                self._timers[(state.id, key)] = _Timer(flag_at, self._arm(state.id, key, flag_at))

    def _arm(self, playoff_id: str, key: GameKey, flag_at: int) -> asyncio.Handle | None:
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return None
        delay = max(0, flag_at - self.time.server_ms()) / 1000
        return loop.call_later(max(0.0, delay - SPIN_S), self._due, playoff_id, key, flag_at, None)

    def _due(self, playoff_id: str, key: GameKey, flag_at: int, since: float | None) -> None:
        """Fire at the instant: until then, look again at the next turn of the loop."""
        timer = self._timers.get((playoff_id, key))
        if timer is None or timer.flag_at_ms != flag_at:
            return
        left_ms = flag_at - self.time.server_ms()
        if left_ms <= 0:
            timer.handle = None
            self._spawn(playoff_id, key, flag_at)
            return
        now = time.monotonic()
        since = now if since is None else since
        if left_ms <= 1000 * SPIN_S + 1 and now - since < 2 * SPIN_S:
            timer.handle = asyncio.get_running_loop().call_soon(
                self._due, playoff_id, key, flag_at, since
            )
        else:  # woken far too early, or a clock that moves unlike this one (a test's)
            timer.handle = self._arm(playoff_id, key, flag_at)

    def _spawn(self, playoff_id: str, key: GameKey, flag_at: int) -> None:
        task = asyncio.ensure_future(self._fire(playoff_id, key, flag_at))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _fire(self, playoff_id: str, key: GameKey, flag_at: int) -> None:
        now = self.time.server_ms()
        if now < flag_at:  # woken early (timer granularity): wait the rest
            self._timers[(playoff_id, key)] = _Timer(flag_at, self._arm(playoff_id, key, flag_at))
            return
        state = self.service.playoff(playoff_id)
        clock = state.clocks.get(key)
        if clock is None or clock.flag_at_ms() != flag_at or clock.running is None:
            return
        self.lateness_ms.append(now - flag_at)
        self._timers.pop((playoff_id, key), None)
        try:
            await self.service.execute(
                playoff_id, FallFlag(match=key[0], game=key[1], flag_at_ms=flag_at),
                actor=SERVER, command_id=f"flag:{playoff_id}:{key[0]}:{key[1]}:{flag_at}",
            )
        except Conflict as exc:  # the arbiter was quicker (a result, a pause): say so
            log.info("flag of %s %s not logged: %s", playoff_id, key, exc.reason)

    async def fire_due(self) -> int:
        """Fire every flag due by the injected clock now (for tests with a manual clock)."""
        fired = 0
        now = self.time.server_ms()
        for (playoff_id, key), timer in list(self._timers.items()):
            if timer.flag_at_ms <= now:
                if timer.handle is not None:
                    timer.handle.cancel()
                await self._fire(playoff_id, key, timer.flag_at_ms)
                fired += 1
        return fired

    def cancel_all(self) -> None:
        for timer in self._timers.values():
            if timer.handle is not None:
                timer.handle.cancel()
        self._timers.clear()
