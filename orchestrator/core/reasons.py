"""A refusal's words, said once for every door: the reason a command, a standings
request or a logged event is refused, players by their names."""

from __future__ import annotations

from collections.abc import Mapping

from pydantic import ValidationError

from orchestrator.core.commands import NotPermitted
from orchestrator.core.errors import Conflict, Forbidden, ServiceError
from orchestrator.core.refusals import KnownRefusal
from orchestrator.core.state import EventState
from orchestrator.core.words import validation_words
from playoff_formats.errors import PlayoffError
from playoff_formats.phrase import Said
from playoff_formats.speech import ENGLISH, speaking, tr

__all__ = [
    "CHANGES_NOTHING", "MAX_LISTED", "diagnosis", "not_final", "reason", "refusal_of",
    "unfollowable",
]


def not_final(state: EventState) -> str:
    """Why an event with pending games has no final standings yet, in words."""
    games = "; ".join(
        f"round {p.round}: {p.white}-{p.black}" for p in state.pending[:MAX_LISTED]
    )
    more = len(state.pending) - MAX_LISTED
    if more > 0:
        games += f"; and {more} more"
    count = len(state.pending)
    return (
        f"the standings are not final: {count} game{'s' if count != 1 else ''} of the event "
        f"{'have' if count != 1 else 'has'} no result yet ({games}). Record "
        f"{'their results' if count != 1 else 'its result'} first "
        f"(POST /api/events/{state.id}/results); the play-off watch (GET "
        f"/api/events/{state.id}/foresight) shows what they can lead to"
    )


MAX_LISTED = 8
"""Pending games named in a refusal, at most."""


def refusal_of(
    exc: PlayoffError | ValidationError, names: Mapping[str, str] | None = None
) -> Forbidden | Conflict:
    """A command's refusal as answered: 403 when its sender's role may not send it,
    409 when the play-off's state does not allow it now; players by their names. Its
    ``reason`` is English; the door says it in its reader's language
    (:meth:`~orchestrator.core.errors.ServiceError.words`)."""
    named = dict(names or {})

    def said() -> str:
        return reason(exc, named)

    with speaking(ENGLISH):
        text = said()
    if isinstance(exc, NotPermitted):
        return Forbidden(text, said=said)
    return Conflict(text, exc.kind if isinstance(exc, KnownRefusal) else None, said=said)


CHANGES_NOTHING = Said.tr("this command changes nothing")
"""A command that decides no event, refused."""


def unfollowable(exc: Exception) -> Conflict:
    """An override refused because the schedule cannot follow it (``exc`` says why)."""

    def said() -> str:
        return tr("the schedule cannot follow this: {why}", why=reason(exc))

    with speaking(ENGLISH):
        return Conflict(said(), said=said)


def diagnosis(exc: Exception) -> str:
    """What went wrong, for the administrator who repairs a log: the field's path in
    the logged data, as the code names it."""
    if isinstance(exc, ValidationError):
        first = exc.errors(include_url=False)[0]
        where = ".".join(str(p) for p in first["loc"])
        return f"{where}: {first['msg']}" if where else str(first["msg"])
    return reason(exc)


def reason(exc: Exception, names: Mapping[str, str] | None = None) -> str:
    if isinstance(exc, ValidationError):
        return validation_words(exc, tagged=True)
    if isinstance(exc, PlayoffError):
        return exc.words(names or {})
    if isinstance(exc, ServiceError):
        return exc.reason
    return str(exc.args[0]) if exc.args else str(exc)
