"""``playoff print``: a printout as a PDF file, from the service's log or from the
service itself.

- ``--db FILE``: the SQLite log is opened read-only (nothing is written to it, not
  even a migration, so it is safe while the service runs) and the event and the
  play-off are folded from it by the service's own store and state code; the PDF is
  made here, exactly as the service makes it.
- ``--service URL --token T``: the service's own route,
  ``GET /api/playoffs/{id}/print/{what}.pdf`` (an event's standings:
  ``GET /api/events/{id}/print/standings.pdf``), with the token sent as a header.

``ID`` is a play-off's id, or an event's for its standings. ``--lang`` words the
printout in one of the service's languages (English without it).
"""

from __future__ import annotations

import json
import sqlite3
import urllib.error
import urllib.request
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar
from urllib.parse import quote, urlencode, urlsplit, urlunsplit

from playoff_formats.zones import zone_of

if TYPE_CHECKING:
    from orchestrator.core.state import EventState, PlayoffState
    from orchestrator.core.streams import StreamKind
    from orchestrator.store import StoredEvent

S = TypeVar("S", "PlayoffState", "EventState")

__all__ = ["PrintRefused", "fetch_printout", "language", "printout_from_log"]


class PrintRefused(Exception):
    """The printout cannot be made: the reason in words."""


def language(asked: str | None) -> str | None:
    """The language of ours ``--lang`` names (``es``, ``es-ES``, ``en-XA``); None
    without it; refused, naming the languages there are, when it is none of ours."""
    from orchestrator.core.languages import LANGUAGES, language_code

    if asked is None:
        return None
    code = language_code(asked)
    if code is None:
        raise PrintRefused(
            f"--lang {asked}: not a language the service speaks; it speaks "
            + ", ".join(LANGUAGES)
        )
    return code


def printout_from_log(
    db: Path, ident: str, what: str, paper: str, match: int | None, game: int | None,
    lang: str | None = None,
) -> bytes:
    """The printout of the play-off (or event) ``ident`` as the log at ``db`` holds it,
    worded in the language ``lang`` (English without it)."""
    from orchestrator.core.computations import Computations
    from orchestrator.core.errors import ServiceError
    from orchestrator.core.languages import Catalogs
    from orchestrator.core.state import event_stream, playoff_stream
    from orchestrator.core.streams import event_streams, playoff_streams
    from orchestrator.core.timesource import SystemTime
    from orchestrator.core.watch import Watch
    from orchestrator.printing.documents import printout_html
    from orchestrator.printing.layout import Paper
    from orchestrator.printing.render import PrintingUnavailable, render_pdf
    from orchestrator.printing.sources import Sources
    from orchestrator.settings import Settings
    from orchestrator.store import SqliteEventStore, StoreError
    from playoff_formats.errors import PlayoffError
    from playoff_formats.speech import speaking

    spoken = Catalogs().language(language(lang))
    if not db.is_file():
        raise PrintRefused(f"--db {db}: no such file (the service's SQLite log)")
    try:
        with SqliteEventStore(db, read_only=True) as store:
            state: PlayoffState | None = None
            playoff_events = store.read(playoff_stream(ident))
            if playoff_events:
                state = _folded(playoff_streams(), playoff_events, ident)
                event_id = state.event_id
            elif store.read(event_stream(ident), limit=1):
                event_id = ident
            else:
                known = ", ".join(s.removeprefix("playoff-") for s in store.streams("playoff-"))
                raise PrintRefused(
                    f"the log {db} has no play-off or event {ident!r}"
                    + (f"; its play-offs: {known}" if known else "")
                )
            event: EventState = _folded(
                event_streams(), store.read(event_stream(event_id)), event_id
            )
    except (StoreError, sqlite3.Error, OSError) as exc:
        raise PrintRefused(f"--db {db}: {exc}") from None
    if state is None and what != "standings":
        raise PrintRefused(
            f"{ident} is an event: it prints its standings; the rest is its play-off's "
            "(give the play-off's id)"
        )
    time = SystemTime()
    watch = Watch(Computations())
    sources = Sources(
        event=event, playoff=state, standings=lambda: watch.standings(event),
        now=time.now(), server_ms=time.server_ms(),
        zone=state.zone if state is not None else zone_of(
            getattr(event.event, "time_zone", None), Settings().hall_offset()
        ),
    )
    try:
        with speaking(spoken):
            html = printout_html(what, sources, Paper(paper), match, game)
        return render_pdf(html)
    except PlayoffError as exc:
        raise PrintRefused(exc.words(state.names if state is not None else {})) from None
    except ServiceError as exc:
        raise PrintRefused(exc.reason) from None
    except PrintingUnavailable as exc:
        raise PrintRefused(exc.reason) from None


def _folded(kind: StreamKind[S, Any], stored: Sequence[StoredEvent], ident: str) -> S:
    """A stream folded as the service folds it; one it cannot fold, refused in words."""
    from orchestrator.core.reasons import diagnosis

    try:
        return kind.fold(None, stored)
    except Exception as exc:  # as the service leaves such a stream aside at start-up
        raise PrintRefused(
            f"{kind.what} {ident} is in the log but cannot be read ({type(exc).__name__}: "
            f"{diagnosis(exc)}); the service leaves it aside too"
        ) from None


def fetch_printout(
    service: str, token: str, ident: str, what: str, paper: str, match: int | None,
    game: int | None, lang: str | None = None,
) -> bytes:
    """The printout as the service at ``service`` makes it, read with ``token``, in the
    language ``lang`` (English without it)."""
    parts = urlsplit(service)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise PrintRefused(f"--service must be an http(s):// URL, not {service!r}")
    base = urlunsplit((parts.scheme, parts.netloc, parts.path.rstrip("/"), "", ""))
    query: dict[str, object] = {"paper": paper}
    asked = {"lang": code} if (code := language(lang)) is not None else {}
    query.update(asked)
    if match is not None:
        query["match"] = match
    if game is not None:
        query["game"] = game
    path = f"/api/playoffs/{quote(ident, safe='')}/print/{what}.pdf"
    request = _request(f"{base}{path}?{urlencode(query)}", token)
    try:
        return _read(request)
    except urllib.error.HTTPError as exc:
        detail = _detail(exc)
        if exc.code != 404 or what != "standings":
            raise PrintRefused(detail) from None
    # Not a play-off of the token's event: an event's own standings, then.
    event = _request(
        f"{base}/api/events/{quote(ident, safe='')}/print/standings.pdf?"
        f"{urlencode({'paper': paper, **asked})}", token,
    )
    try:
        return _read(event)
    except urllib.error.HTTPError as exc:
        raise PrintRefused(detail if exc.code == 404 else _detail(exc)) from None


def _request(url: str, token: str) -> urllib.request.Request:
    return urllib.request.Request(
        url, headers={"Authorization": f"Bearer {token}", "Accept": "application/pdf"}
    )


def _read(request: urllib.request.Request) -> bytes:
    try:
        with urllib.request.urlopen(request, timeout=120) as response:
            body: bytes = response.read()
            return body
    except urllib.error.HTTPError:
        raise
    except OSError as exc:  # refused connections, time-outs, unknown hosts
        reason = getattr(exc, "reason", exc)
        raise PrintRefused(f"cannot reach {request.full_url.split('/api/')[0]}: {reason}") from None


def _detail(exc: urllib.error.HTTPError) -> str:
    """The service's reason for refusing, as it words it."""
    try:
        detail = json.loads(exc.read().decode("utf-8")).get("detail", exc.reason)
    except (ValueError, AttributeError):
        detail = exc.reason
    if isinstance(detail, list):  # a 422: each field and what is wrong with it
        detail = "; ".join(str(d.get("message") or d.get("msg")) for d in detail)
    return str(detail)
