"""Who may read or write which event: token lookup over the events' logged tokens."""

from __future__ import annotations

from collections.abc import Mapping

from orchestrator.auth import Role, TokenRecord, find_token
from orchestrator.errors import Forbidden, NotFound, Unauthorized
from orchestrator.state import EventState

__all__ = ["authorize", "require_chief"]


def authorize(
    events: Mapping[str, EventState], event_id: str, token: str | None, *, write: bool
) -> TokenRecord:
    """The token's record; 401 if unknown, 403 if for another event or read-only."""
    if not token:
        raise Unauthorized("this needs a token: send 'Authorization: Bearer <token>'")
    state = events.get(event_id)
    if state is None:
        raise NotFound(f"no event {event_id!r}")
    record = find_token(list(state.tokens), token)
    if record is None:
        for other in events.values():
            if other.id != event_id and find_token(list(other.tokens), token):
                raise Forbidden(f"this token is for another event, not {event_id!r}")
        raise Unauthorized("this token is not valid")
    if write and not record.role.may_write():
        raise Forbidden("a display key is read-only")
    return record


def require_chief(record: TokenRecord) -> None:
    if record.role is not Role.CHIEF:
        raise Forbidden("only the chief arbiter may do this")
