"""The two kinds of stream the log holds, said once: how each is named, read and folded.

A main event's stream (``event-{id}``) and a play-off's (``playoff-{id}``) are
written, caught up and loaded the same way; what differs is their prefix, how a
stored event is typed, the fold that gives the next state, and whether what they
log is published to those who follow the play-offs. A :class:`StreamKind` holds
those, and the states this process folded of its streams (its cache).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from orchestrator.core.bus import Logged
from orchestrator.core.events import (
    EventStreamEvent,
    PlayoffEvent,
    Stamp,
    apply_event,
    apply_playoff,
    parse_event_stream_event,
    parse_playoff_event,
)
from orchestrator.core.state import EventState, PlayoffState
from orchestrator.store import StoredEvent
from orchestrator.views import event_extras
from playoff_formats.errors import PlayoffError

__all__ = ["StreamKind", "event_streams", "playoff_streams", "stamp_of"]

S = TypeVar("S", PlayoffState, EventState)
E = TypeVar("E")


def stamp_of(stored: StoredEvent) -> Stamp:
    return Stamp(stored.seq, stored.recorded_at, stored.actor)


@dataclass(slots=True)
class StreamKind(Generic[S, E]):
    """One kind of stream: its prefix, its events' parsing, its fold, and the states
    of its streams as folded here, by id."""

    prefix: str
    state_type: type[S]
    parse: Callable[[str, Mapping[str, Any]], E]
    apply: Callable[[S | None, E, Stamp], S]
    what: str
    """What one stream is, in words ("play-off", "event")."""
    entry: Callable[[E, Stamp, S], Logged] | None = None
    """The event as published, with what travels beside it (from the state just after
    it); None for a kind whose events are not published."""
    states: dict[str, S] = field(default_factory=dict)

    def stream(self, id_: str) -> str:
        return f"{self.prefix}{id_}"

    def id_of(self, stream: str) -> str:
        return stream.removeprefix(self.prefix)

    def holds(self, stream: str) -> bool:
        return stream.startswith(self.prefix)

    def typed(self, stored: StoredEvent) -> tuple[E, Stamp]:
        return self.parse(stored.type, stored.data), stamp_of(stored)

    def fold(self, start: S | None, stored: Sequence[StoredEvent]) -> S:
        """``start`` (None: nothing yet) with ``stored`` folded onto it."""
        state = start
        for e in stored:
            event, stamp = self.typed(e)
            state = self.apply(state, event, stamp)
        if state is None:
            raise PlayoffError(f"no such {self.what}")
        return state

    def fold_logged(
        self, start: S | None, stored: Sequence[StoredEvent]
    ) -> tuple[S, tuple[Logged, ...]]:
        """:meth:`fold`, and the events as published (none if this kind's are not)."""
        state = start
        entries: list[Logged] = []
        for e in stored:
            event, stamp = self.typed(e)
            state = self.apply(state, event, stamp)
            if self.entry is not None:
                entries.append(self.entry(event, stamp, state))
        if state is None:
            raise PlayoffError(f"no such {self.what}")
        return state, tuple(entries)


def _playoff_entry(event: PlayoffEvent, stamp: Stamp, state: PlayoffState) -> Logged:
    return Logged(event, stamp, event_extras(event, state))


def playoff_streams() -> StreamKind[PlayoffState, PlayoffEvent]:
    """The play-offs' streams, with an empty cache."""
    return StreamKind(
        "playoff-", PlayoffState, parse_playoff_event, apply_playoff, "play-off",
        _playoff_entry,
    )


def event_streams() -> StreamKind[EventState, EventStreamEvent]:
    """The main events' streams, with an empty cache."""
    return StreamKind(
        "event-", EventState, parse_event_stream_event, apply_event, "event"
    )
