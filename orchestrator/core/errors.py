"""Errors of the service, each with the HTTP status it is answered with."""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping

from playoff_formats.phrase import Phrase


class ServiceError(Exception):
    """A refusal: ``reason`` is its English (what a log or a test reads); the door
    that answers it says it in its reader's language with :meth:`words`."""

    status = 400

    def __init__(
        self, reason: str | Phrase, kind: str | None = None, *,
        names: Mapping[str, str] | None = None, said: Callable[[], str] | None = None,
    ) -> None:
        named = dict(names or {})
        self.reason = reason.english(named) if isinstance(reason, Phrase) else reason
        self.kind = kind
        """A refusal a screen tells apart (:mod:`orchestrator.core.refusals`), answered beside
        the reason."""
        if said is None and isinstance(reason, Phrase):
            said = functools.partial(reason.text, named)
        self._said = said
        super().__init__(self.reason)

    def words(self) -> str:
        """The reason in the language in force (built now, never when raised)."""
        return self._said() if self._said is not None else self.reason


class NotFound(ServiceError):
    status = 404


class Unauthorized(ServiceError):
    """No token, or a token this service never issued."""

    status = 401


class Forbidden(ServiceError):
    """A valid token without the right to do this."""

    status = 403


class Unavailable(ServiceError):
    """Known to the log, but its stream could not be loaded (quarantined at start-up)."""

    status = 503


class LogUnavailable(Unavailable):
    """The log cannot be reached now: nothing was recorded (or, if the commit went
    through and only its answer was lost, a resend with the same id says so)."""

    retry_after_s = 2


class LogFull(LogUnavailable):
    """The disk holding the log is full: nothing was recorded (507 Insufficient
    Storage); once space is freed, the next command succeeds."""

    status = 507
    retry_after_s = 30


class TooManyRequests(ServiceError):
    """Too many failed attempts from one address: wait before trying again."""

    status = 429


class KeyReused(ServiceError):
    """An idempotency key sent again with another request (IETF Idempotency-Key)."""

    status = 422


class Conflict(ServiceError):
    """Not an allowed transition in the current state."""

    status = 409
