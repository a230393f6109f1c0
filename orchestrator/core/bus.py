"""Publish/subscribe between the service and those who follow its play-offs.

After a command's events are durable, the service publishes one
:class:`Published` message: the play-off's new state and the events, each with
its stamp and the derived data that travels on the wire. The websocket hub, the
flag timers and the scheduler subscribe. :class:`InProcessBus` delivers in
order, in this process; a bus between workers that share one log is a
:class:`SharedBus` (:class:`~orchestrator.runtime.redis_bus.RedisBus`): each worker's
commits reach the others through it, and each worker publishes them to its own
subscribers as it does its own.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from orchestrator.core.events import PlayoffEvent, Stamp
from orchestrator.core.state import PlayoffState
from orchestrator.store import AsyncEventLog

if TYPE_CHECKING:
    from orchestrator.core.service import Service

__all__ = ["Bus", "InProcessBus", "Logged", "Published", "SharedBus", "Subscriber"]


@dataclass(frozen=True, slots=True)
class Logged:
    """One logged event: the typed event, its stamp, and what travels beside it."""

    event: PlayoffEvent
    stamp: Stamp
    extras: Mapping[str, Any] = field(default_factory=dict)
    """Derived data for the wire (the clock after the event...): never logged."""

    @property
    def seq(self) -> int:
        return self.stamp.seq

    def wire(self) -> dict[str, Any]:
        """The event as clients get it (``d`` of an ``event`` frame)."""
        return {
            "type": self.event.type,
            "data": self.event.log_data(),
            "at": self.stamp.recorded_at.isoformat(),
            "actor": self.stamp.actor,
            **self.extras,
        }


@dataclass(frozen=True, slots=True)
class Published:
    """What one command changed in one play-off."""

    state: PlayoffState
    events: tuple[Logged, ...]

    @property
    def clock_only(self) -> bool:
        """Only clocks changed: nothing the schedule or the bracket depends on."""
        return all(logged.event.clock_only for logged in self.events)

    @property
    def clocks_alone(self) -> bool:
        """Only clocks changed, and nothing that is listed for everyone to see (an
        adjustment by hand is): the event frames carry all that changed."""
        return all(
            logged.event.clock_only and not logged.event.shown_beyond_its_clock
            for logged in self.events
        )


Subscriber = Callable[[Published], Awaitable[None]]


class Bus(Protocol):
    def subscribe(self, subscriber: Subscriber) -> None: ...

    async def publish(self, message: Published) -> None: ...


@runtime_checkable
class SharedBus(Bus, Protocol):
    """A bus between workers sharing one log, which the app opens, follows and closes."""

    def announcing(self, store: AsyncEventLog) -> AsyncEventLog:
        """``store``, its commits announced to the other workers once durable."""
        ...

    async def open(self) -> None:
        """Connect, before the service loads the log (nothing committed meanwhile is
        then missed)."""
        ...

    def follow(self, service: Service) -> None:
        """From now on, fold what the other workers log into ``service``."""
        ...

    on_board: Callable[[str, str, int, Any], None] | None
    """Told (worker, play-off, match, its word) of a board another worker holds."""

    def share_board(self, playoff_id: str, match: int, news: Any) -> None:
        """Tell the other workers how this one hears a board it holds (never logged)."""
        ...

    async def aclose(self) -> None: ...


class InProcessBus:
    """Delivers each message to every subscriber, in the order they subscribed."""

    def __init__(self) -> None:
        self._subscribers: list[Subscriber] = []

    def subscribe(self, subscriber: Subscriber) -> None:
        self._subscribers.append(subscriber)

    async def publish(self, message: Published) -> None:
        for subscriber in self._subscribers:
            await subscriber(message)
