"""Errors of the service, each with the HTTP status it is answered with."""

from __future__ import annotations


class ServiceError(Exception):
    status = 400

    def __init__(self, reason: str, kind: str | None = None) -> None:
        self.reason = reason
        self.kind = kind
        """A refusal a screen tells apart (:mod:`orchestrator.core.refusals`), answered beside
        the reason."""
        super().__init__(reason)


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
