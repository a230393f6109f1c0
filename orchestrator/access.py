"""Who may read or write which event: tokens looked up by their hash.

Every refusal of a token says the same, whether the token is unknown or valid for
another event, and a missing or wrong token is refused before anything is looked
up: nothing tells whether an id exists to someone without a token of its event.
Failed attempts are counted per address; past a limit they are refused outright
for a while (429), so that tokens cannot be guessed at speed. A valid token is never
refused by that limit: the limit slows guessing, and must not let a stranger lock
out the arbiters and screens that share an address (behind a proxy, all of them).
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import NoReturn

from orchestrator.auth import ACTION_WORDS, Action, TokenRecord, digest, not_permitted
from orchestrator.errors import Forbidden, TooManyRequests, Unauthorized

__all__ = ["NOT_VALID", "FailedAttempts", "TokenIndex"]

NOT_VALID = "this token is not valid"
NO_TOKEN = "this needs a token: send 'Authorization: Bearer <token>'"


@dataclass
class FailedAttempts:
    """At most ``limit`` failed attempts per address within ``window_s`` seconds."""

    limit: int = 30
    window_s: float = 60.0
    clock: Callable[[], float] = time.monotonic
    _failures: dict[str, deque[float]] = field(default_factory=dict)

    def check(self, address: str | None) -> None:
        """429 while ``address`` is past its limit."""
        if address is None:
            return
        recent = self._recent(address)
        if len(recent) >= self.limit:
            raise TooManyRequests(
                f"too many failed attempts from this address: wait {self.window_s:g} s"
            )

    def failed(self, address: str | None) -> None:
        if address is not None:
            self._recent(address).append(self.clock())

    def refuse(self, address: str | None, reason: str) -> NoReturn:
        """A failed attempt from ``address``: counted, and refused with ``reason``
        (401), or as too many (429) once the address is past its limit."""
        self.check(address)
        self.failed(address)
        raise Unauthorized(reason)

    def _recent(self, address: str) -> deque[float]:
        now = self.clock()
        recent = self._failures.setdefault(address, deque())
        while recent and now - recent[0] > self.window_s:
            recent.popleft()
        if not recent:
            self._failures.pop(address, None)
            recent = self._failures.setdefault(address, deque())
        return recent


@dataclass
class TokenIndex:
    """Every event's tokens, by the hash of the token (never the token itself)."""

    attempts: FailedAttempts = field(default_factory=FailedAttempts)
    _by_digest: dict[str, tuple[str, TokenRecord]] = field(default_factory=dict)

    def add(self, event_id: str, record: TokenRecord) -> None:
        self._by_digest[record.digest] = (event_id, record)

    def authorize(
        self, event_id: str | None, token: str | None, *, action: Action,
        address: str | None = None, what: str | None = None,
    ) -> tuple[str, TokenRecord]:
        """The token's event and record. 401 if missing, unknown, or for another event
        than ``event_id`` (when given); 403 if its role may not do ``action``
        (:data:`~orchestrator.auth.PERMISSIONS`; ``what`` says it in words); 429 when
        the address has failed too often with tokens that are not valid."""
        found = self._by_digest.get(digest(token)) if token else None
        if found is None or (event_id is not None and found[0] != event_id):
            # Only a failure is limited: a valid token is never refused for what
            # others sent from the same address (behind a proxy, every client's).
            self.attempts.refuse(address, NOT_VALID if token else NO_TOKEN)
        assert found is not None
        role = found[1].role
        if not role.may(action):
            raise Forbidden(not_permitted(role, what or ACTION_WORDS[action]))
        return found


