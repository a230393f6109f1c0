"""The printouts as PDFs: a play-off's result slips, board cards, standings, bracket
and schedule, placings and prizes; an event's standings.

Any token of the event reads them (they show what the hall's screens show). Each
is laid out for A4 (the default) or US Letter (``?paper=letter``); ``?match=`` and
``?game=`` print one game's slip, ``?match=`` alone one match's slips or card. The
HTML is built from the views here; the PDF is made in the service's pool of
computing processes (shared with the play-off watch, within its limits: one at a
time per token), never in the interpreter that serves the clocks.

A printout is worded in the language ``?lang=`` names, else in the first of the
service's languages the browser accepts (``Accept-Language``), else in English.
"""

from __future__ import annotations

import re
from typing import Annotated, Literal

from fastapi import APIRouter, Query, Request, Response
from fastapi.exceptions import RequestValidationError

from orchestrator.api.deps import ServiceDep, TokenDep
from orchestrator.api.problems import _WITH_TOKEN, StrictJsonRoute, _json_error_responses
from orchestrator.core.auth import Action
from orchestrator.core.errors import Unavailable
from orchestrator.core.languages import Catalogs, accepted
from orchestrator.core.service import Service
from orchestrator.core.state import EventState, PlayoffState
from orchestrator.printing.documents import printout_html
from orchestrator.printing.layout import Paper
from orchestrator.printing.render import PrintingUnavailable, render_pdf
from orchestrator.printing.sources import Sources
from playoff_formats.speech import Language, speaking, tr
from playoff_formats.zones import zone_of

__all__ = ["PdfResponse", "router"]

router = APIRouter(prefix="/api", route_class=StrictJsonRoute)


class PdfResponse(Response):
    media_type = "application/pdf"


What = Literal["slips", "cards", "standings", "bracket", "placings"]
PaperQuery = Annotated[Literal["a4", "letter"], Query(
    description="The paper the PDF is laid out for: A4 (a4) or US Letter (letter)",
)]
MatchQuery = Annotated[int | None, Query(
    ge=1, le=1000, description="One match: its slips (with game, one game's slip) or its card",
)]
GameQuery = Annotated[int | None, Query(
    ge=1, le=1000, description="One game's slip (with match)",
)]
LangQuery = Annotated[Literal["en", "es", "fr", "de", "ru", "en-XA"] | None, Query(
    description="The language the printout is worded in (without it, the first of these "
    "the Accept-Language header accepts, else English); en-XA: every text accented, "
    "longer, in brackets, to find texts left out of the catalogs",
)]

_PDF = {
    "description": "The PDF",
    "content": {PdfResponse.media_type: {"schema": {"type": "string", "format": "binary"}}},
}


def _address(request: Request) -> str | None:
    return request.client.host if request.client is not None else None


def _language(request: Request, lang: str | None) -> Language:
    """The language asked for, else the first of ours the browser accepts, else English."""
    catalogs: Catalogs = request.app.state.catalogs
    return catalogs.language(lang or accepted(request.headers.get("accept-language")))


def _refuse(field: str, value: int, words: str) -> None:
    raise RequestValidationError([{
        "loc": ("query", field), "msg": words, "type": "value_error", "input": value,
    }])


def _sources(service: Service, event: EventState, state: PlayoffState | None) -> Sources:
    # The hall's time of day: the play-off's, else the service's (a play-off's own
    # is the service's when it was created).
    zone = state.zone if state is not None else zone_of(
        getattr(event.event, "time_zone", None), service.utc_offset
    )
    return Sources(
        event=event, playoff=state, standings=lambda: service.standings(event.id),
        now=service.time.now(), server_ms=service.time.server_ms(), zone=zone,
    )


async def _pdf(service: Service, who: str, html: str, name: str) -> PdfResponse:
    try:
        pdf = await service.computations.run(who, render_pdf, html, what="printout")
    except PrintingUnavailable as exc:
        raise Unavailable(exc.reason) from None
    safe = re.sub(r"[^A-Za-z0-9_.-]", "_", name)
    return PdfResponse(pdf, headers={
        "Content-Disposition": f'inline; filename="{safe}"', "Cache-Control": "no-store",
    })


@router.get(
    "/playoffs/{playoff_id}/print/{what}.pdf",
    response_class=PdfResponse,
    summary="A printout of the play-off as a PDF: slips, cards, standings, bracket, placings",
    description=(
        "`slips`: a result slip per game to play whose players are known (two to a page: "
        "the event, stage, match and game, board, players and colours or how they are "
        "settled, time control and increment, the Armageddon's terms, result boxes, "
        "signatures); `cards`: a card per board for the tables; `standings`: the main "
        "event's standings with each tie split explained; `bracket`: the bracket and the "
        "schedule at the hall's time of day; `placings`: the final placings and prizes "
        "(409 until the play-off has its champion). `match` and `game` print one game's "
        "slip; `match` alone, one match's slips or card."
    ),
    responses={200: _PDF, **_json_error_responses(*_WITH_TOKEN)},
)
async def print_playoff(
    playoff_id: str, what: What, request: Request, service: ServiceDep, token: TokenDep,
    paper: PaperQuery = "a4", match: MatchQuery = None, game: GameQuery = None,
    lang: LangQuery = None,
) -> PdfResponse:
    state, record = service.authorize_playoff(
        playoff_id, token, action=Action.READ, address=_address(request)
    )
    with speaking(_language(request, lang)):
        if game is not None and what != "slips":
            _refuse("game", game, tr(
                "one game is printed on a result slip only, not on {printout}", printout=what
            ))
        if game is not None and match is None:
            _refuse("game", game, tr("say the game's match too (match=)"))
        if match is not None and what not in ("slips", "cards"):
            _refuse("match", match, tr(
                "one match is printed on slips or a card only, not on {printout}",
                printout=what,
            ))
        sources = _sources(service, service.event(state.event_id), state)
        html = printout_html(what, sources, Paper(paper), match, game)
    return await _pdf(service, record.token_id, html, f"{what}-{playoff_id}-{paper}.pdf")


@router.get(
    "/events/{event_id}/print/standings.pdf",
    response_class=PdfResponse,
    summary="The event's standings as a PDF, with each tie split explained",
    description="The standings `GET /api/events/{id}/standings` gives, for the wall "
    "(409 while a game is pending: they are not final).",
    responses={200: _PDF, **_json_error_responses(*_WITH_TOKEN)},
)
async def print_event_standings(
    event_id: str, request: Request, service: ServiceDep, token: TokenDep,
    paper: PaperQuery = "a4", lang: LangQuery = None,
) -> PdfResponse:
    record = service.authorize(event_id, token, action=Action.READ, address=_address(request))
    sources = _sources(service, service.event(event_id), None)
    with speaking(_language(request, lang)):
        html = printout_html("standings", sources, Paper(paper))
    return await _pdf(service, record.token_id, html, f"standings-{event_id}-{paper}.pdf")
