"""A refusal's words, said once for every door: the reason a command, a standings
request or a logged event is refused, players by their names."""

from __future__ import annotations

from collections.abc import Mapping

from pydantic import ValidationError

from orchestrator.core.commands import NotPermitted
from orchestrator.core.errors import Conflict, Forbidden, ServiceError
from orchestrator.core.languages import LANGUAGES
from orchestrator.core.refusals import KnownRefusal
from orchestrator.core.state import EventState
from orchestrator.core.words import validation_words
from playoff_formats.errors import PlayoffError
from playoff_formats.phrase import Phrase, Said, phrase
from playoff_formats.speech import ENGLISH, marked, speaking, tr

__all__ = [
    "APPLY_TOO_OFTEN", "BOARD_KEYS_ONLY", "CHANGES_NOTHING", "DO_TOO_OFTEN", "MAX_LISTED",
    "ONE_CHIEF_TOKEN", "UPLOAD_NOT_STORED", "already_has_playoff", "diagnosis", "no_such",
    "not_built", "not_final", "not_final_words", "not_spoken", "reason", "refusal_of",
    "unfollowable",
]


def not_final(state: EventState) -> str:
    """Why an event with pending games has no final standings yet, in the language in
    force (:func:`not_final_words`)."""
    return not_final_words(state).text({})


def not_final_words(state: EventState) -> Phrase:
    """Why an event with pending games has no final standings yet, said when shown."""
    listed: list[str | Phrase] = []
    for i, p in enumerate(state.pending[:MAX_LISTED]):
        listed.extend(
            (["; "] if i else [])
            + [Said.tr("round {round}: {white}-{black}", round=p.round, white=p.white,
                       black=p.black)]
        )
    more = len(state.pending) - MAX_LISTED
    if more > 0:
        listed.extend(["; ", Said.ntr("and {n} more", "and {n} more", more)])
    return Said.ntr(
        "the standings are not final: {n} game of the event has no result yet ({games}). "
        "Record its result first (POST /api/events/{event}/results); the play-off watch "
        "(GET /api/events/{event}/foresight) shows what they can lead to",
        "the standings are not final: {n} games of the event have no result yet ({games}). "
        "Record their results first (POST /api/events/{event}/results); the play-off watch "
        "(GET /api/events/{event}/foresight) shows what they can lead to",
        len(state.pending), games=phrase(*listed), event=state.id,
    )


def no_such(what: str, id_: str) -> Phrase:
    """404: the log has no event (``what``: "event") or play-off of this id."""
    message = marked("no play-off {id}") if what == "play-off" else marked("no event {id}")
    return Said.tr(message, id=repr(id_))


def already_has_playoff(event_id: str, playoff_id: str) -> Phrase:
    return Said.tr("event {event} already has its play-off {playoff}",
                   event=repr(event_id), playoff=repr(playoff_id))


def not_built(exc: Exception) -> Conflict:
    """A play-off that cannot be built as asked (``exc`` says why)."""
    if isinstance(exc, PlayoffError) and exc.phrase is not None:
        return Conflict(exc.phrase)
    return Conflict(reason(exc))


APPLY_TOO_OFTEN = Said.tr("the event changes too often to apply this now: send it again")
DO_TOO_OFTEN = Said.tr("the event changes too often to do this now: send it again")
"""A command on an event refused after other workers changed it each time it was tried."""
UPLOAD_NOT_STORED = Said.tr("this upload could not be stored: send it again with a new key")
ONE_CHIEF_TOKEN = Said.tr("there is one chief arbiter's token per event")
BOARD_KEYS_ONLY = Said.tr(
    "only a board key is for one match: an arbiter's token or a display key opens the "
    "whole event"
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


def not_spoken(language: str) -> Phrase:
    """A key asked for in a language the service does not speak."""
    return Said.tr("the service does not speak {language}: it speaks {languages}",
                   language=repr(language[:35]), languages=", ".join(LANGUAGES))
