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
logged at its own instant. A game whose board is heard waits before logging its flag
(:func:`flag_logged_at`): a press stamped before the flag fell still counts when it
arrives after it, so no flag falls from the network's lag. A flag fired twice (a
leader deposed while firing) is logged once: its command id names the clock and the instant.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from orchestrator.core.auth import Actor
from orchestrator.core.bus import Published
from orchestrator.core.commands import FallFlag
from orchestrator.core.errors import Conflict
from orchestrator.core.state import GameKey, PlayoffState
from orchestrator.core.timesource import TimeSource
from playoff_formats.stamps import ALLOWANCES, Allowances

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
    fire_at_ms: int = 0
    """When the flag is logged: its instant, or later while a board's press stamped
    before it may still arrive."""


@dataclass(frozen=True, slots=True)
class BoardHeard:
    """A board of one match, as this worker hears it."""

    online: bool
    """Connected now."""
    heard_ms: int | None
    """When a frame of it last arrived (None: never)."""
    through_ms: int | None = None
    """It has sent every press it stamped before this instant (None: it never said)."""


BoardSeen = Callable[[str, int], BoardHeard]
"""How the board of (play-off, match) is heard."""


def flag_logged_at(
    flag_at_ms: int, now_ms: int, board: BoardHeard, allowances: Allowances = ALLOWANCES,
) -> int:
    """When a flag falling at ``flag_at_ms`` is logged.

    Without a board heard within the outage allowance, at its instant. With a board
    that has said it sent every press stamped before the flag instant (its page says
    so when its own clock shows the flag, and on coming back on line), at its instant
    too: nothing stamped before it is still on its way. Otherwise, with the board
    connected, after the lag allowance: a press stamped before the flag may still be
    on its way; with it heard but offline now, after the outage allowance: it may come
    back with presses it queued (docs/policies.md, "The flag wait")."""
    heard_ms = board.heard_ms
    if heard_ms is None or now_ms - heard_ms > allowances.outage_ms:
        return flag_at_ms
    if board.through_ms is not None and board.through_ms >= flag_at_ms:
        return flag_at_ms
    online = board.online
    if online:
        return flag_at_ms + allowances.lag_ms
    return max(flag_at_ms, heard_ms) + allowances.outage_ms


@dataclass
class FlagTimers:
    service: Service
    time: TimeSource
    lateness_ms: list[int] = field(default_factory=list)
    active: bool = True
    """False: another worker runs the timers; this one arms none."""
    board: BoardSeen | None = None
    """How the boards are heard (the hub's): a game with a board waits its presses."""
    _timers: dict[tuple[str, GameKey], _Timer] = field(default_factory=dict)
    _tasks: set[asyncio.Future[None]] = field(default_factory=set)

    def fire_at(self, playoff_id: str, key: GameKey, flag_at: int) -> int:
        if self.board is None:
            return flag_at
        return flag_logged_at(flag_at, self.time.server_ms(), self.board(playoff_id, key[0]))

    def board_through(self, playoff_id: str, match: int) -> None:
        """A board of ``match`` has sent its presses up to an instant: a flag of its
        game waiting for them falls now if they cannot change it."""
        if not self.active:
            return
        for (timer_playoff, key), timer in list(self._timers.items()):
            if timer_playoff != playoff_id or key[0] != match:
                continue
            fire_at = self.fire_at(playoff_id, key, timer.flag_at_ms)
            if fire_at < timer.fire_at_ms:
                if timer.handle is not None:
                    timer.handle.cancel()
                self._timers[(playoff_id, key)] = _Timer(
                    timer.flag_at_ms, self._arm(playoff_id, key, timer.flag_at_ms, fire_at),
                    fire_at,
                )

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
                fire_at = self.fire_at(state.id, key, flag_at)
                self._timers[(state.id, key)] = _Timer(
                    flag_at, self._arm(state.id, key, flag_at, fire_at), fire_at
                )

    def _arm(
        self, playoff_id: str, key: GameKey, flag_at: int, fire_at: int | None = None
    ) -> asyncio.Handle | None:
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return None
        due = flag_at if fire_at is None else fire_at
        delay = max(0, due - self.time.server_ms()) / 1000
        return loop.call_later(max(0.0, delay - SPIN_S), self._due, playoff_id, key, flag_at, None)

    def _due(self, playoff_id: str, key: GameKey, flag_at: int, since: float | None) -> None:
        """Fire at the instant: until then, look again at the next turn of the loop."""
        timer = self._timers.get((playoff_id, key))
        if timer is None or timer.flag_at_ms != flag_at:
            return
        left_ms = max(flag_at, timer.fire_at_ms) - self.time.server_ms()
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
            timer.handle = self._arm(playoff_id, key, flag_at, timer.fire_at_ms)

    def _spawn(self, playoff_id: str, key: GameKey, flag_at: int) -> None:
        task = asyncio.ensure_future(self._fire(playoff_id, key, flag_at))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _fire(self, playoff_id: str, key: GameKey, flag_at: int) -> None:
        now = self.time.server_ms()
        timer = self._timers.get((playoff_id, key))
        fire_at = max(flag_at, timer.fire_at_ms if timer is not None else flag_at)
        if now < fire_at:  # woken early (timer granularity): wait the rest
            self._timers[(playoff_id, key)] = _Timer(
                flag_at, self._arm(playoff_id, key, flag_at, fire_at), fire_at
            )
            return
        later = self.fire_at(playoff_id, key, flag_at)
        if later > now:  # a board went offline meanwhile: it may come back with presses
            self._timers[(playoff_id, key)] = _Timer(
                flag_at, self._arm(playoff_id, key, flag_at, later), later
            )
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
            if max(timer.flag_at_ms, timer.fire_at_ms) <= now:
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
