"""How a command is written: what it decided, how its id and request are logged, and
what the log answers.

The service writes every command the same way, on either kind of stream
(:meth:`orchestrator.core.service.Service._commit`); these are the values it passes
around while doing so.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Generic, TypeVar

from orchestrator.core.auth import Actor, Role
from orchestrator.core.bus import Logged, Published
from orchestrator.core.errors import KeyReused, LogFull, LogUnavailable
from orchestrator.core.events import EventStreamEvent, PlayoffEvent
from orchestrator.core.state import EventState, PlayoffState
from orchestrator.store import (
    AsyncEventLog,
    StoredEvent,
    StoreFullError,
    StoreUnavailableError,
)

__all__ = [
    "CHIEF",
    "COMMAND_REUSED",
    "KEY_REUSED",
    "Committed",
    "Decided",
    "Logging",
    "Outcome",
    "Request",
    "as_actor",
    "as_decided",
    "log_unreachable",
    "logging_of",
]

S = TypeVar("S", PlayoffState, EventState)


@dataclass(frozen=True, slots=True)
class Outcome:
    """What a command did: the play-off as it now stands and the events it logged
    (the events first logged under its id, when it was a resend)."""

    state: PlayoffState
    events: tuple[Logged, ...]
    stored: tuple[StoredEvent, ...]
    resent: bool = False

    def to_json(self) -> dict[str, object]:
        """The answer to a REST command: the seq now, and each event as logged, with
        what travels beside it (the clock after it...)."""
        return {
            "seq": self.state.seq,
            "events": [
                {**stored.to_json(), **logged.extras}
                for stored, logged in zip(self.stored, self.events, strict=True)
            ],
        }


@dataclass(frozen=True, slots=True)
class Request:
    """An ``Idempotency-Key`` and a fingerprint of the request it came with (method,
    path and body, as a hash): the same key is answered as before only for the same
    request."""

    key: str
    fingerprint: str

    @classmethod
    def of(cls, key: str, method: str, path: str, body: object) -> Request:
        canonical = json.dumps(body, sort_keys=True, separators=(",", ":"), default=str)
        text = f"{method.upper()} {path}\n{canonical}"
        return cls(key=key, fingerprint=hashlib.sha256(text.encode()).hexdigest())

    def command_id(self, scope: str) -> str:
        """The command id the key is logged under, scoped (to a token, or "upload")."""
        return f"key:{scope}:{hashlib.sha256(self.key.encode()).hexdigest()[:32]}"


KEY_REUSED = (
    "this Idempotency-Key was used for another request: send a new key for a new request"
)
COMMAND_REUSED = (
    "this Idempotency-Key (or command id) was used for another request: send a new key "
    "for a new request"
)


@dataclass(frozen=True, slots=True)
class Logging:
    """The id a command is logged under, the fingerprint of the request it came with,
    and what to say when the id comes back with another request."""

    command_id: str
    fingerprint: str | None
    reused: str
    anywhere: bool = False
    """Looked for in every stream (an upload's, before its event's id is known)."""

    async def find(self, store: AsyncEventLog, stream: str) -> list[StoredEvent] | None:
        """The events first logged under the id, if any."""
        if self.anywhere:
            return await store.find_command_anywhere(self.command_id)
        return await store.find_command(stream, self.command_id)

    def check(self, first: StoredEvent) -> None:
        """422 if the id was first logged with another request."""
        if self.fingerprint is not None and first.command_fingerprint not in (
            None, self.fingerprint
        ):
            raise KeyReused(self.reused)


def logging_of(key: Request | None, actor: Actor) -> Logging | None:
    """A key's logging, scoped to the token that sent it."""
    if key is None:
        return None
    return Logging(key.command_id(actor.logged()), key.fingerprint, KEY_REUSED)


def as_actor(actor: Actor | str) -> Actor:
    """An actor, from its logged text if given as that."""
    return actor if isinstance(actor, Actor) else Actor.parse(actor)


CHIEF = Actor(Role.CHIEF.value)
"""Who uploads an event (its chief arbiter, before any token is issued)."""


@dataclass(frozen=True, slots=True)
class Decided(Generic[S]):
    """What a command decided on one stream: its new events and the state after them."""

    events: Sequence[PlayoffEvent | EventStreamEvent]
    after: S
    entries: tuple[Logged, ...] = ()
    """The events as published, with what travels beside them (a play-off's)."""
    created: Published | None = None
    """A play-off created by the command, its first event logged in the same
    transaction (on its own stream)."""


@dataclass(frozen=True, slots=True)
class Committed(Generic[S]):
    """A command as the log has it: the state of its stream here and its events as
    stored; ``decided`` None if it was logged before (a resend)."""

    state: S | None
    stored: tuple[StoredEvent, ...]
    decided: Decided[S] | None


def as_decided(
    stored: Sequence[StoredEvent], seq: int, events: Sequence[PlayoffEvent | EventStreamEvent],
    actor: str, now: datetime,
) -> bool:
    """Whether the log holds, past ``seq``, exactly the events this worker decided
    (types, data and stamps): then its trial state is their fold. Otherwise the
    command id was logged first by another worker, with a decision of its own (an
    instant a millisecond apart is another decision)."""
    return len(stored) == len(events) and all(
        s.seq == seq + n
        and s.type == e.type
        and s.data == e.log_data()
        and s.actor == actor
        and s.recorded_at == now
        for n, (s, e) in enumerate(zip(stored, events, strict=True), start=1)
    )


def log_unreachable(exc: StoreUnavailableError) -> LogUnavailable:
    """Why a write could not be logged now, and what to do, in words an arbiter can
    act on: a full disk (507) or a log out of reach (503)."""
    if isinstance(exc, StoreFullError):
        return LogFull(
            "the server's disk is full: nothing was recorded. Tell the service's "
            "administrator to free space on it, then send the command again (with the "
            "same id or Idempotency-Key: it is logged once)"
        )
    return LogUnavailable(
        "the log cannot be reached at the moment (its database is restarting or out of "
        "reach): nothing was recorded. Send the command again in a few seconds, with the "
        "same id or Idempotency-Key, and it is logged once"
    )
