"""The play-off's games for the rating report: a TRF of one FIDE rating list.

Any token of the event reads it. A play-off with games on more than one list (rapid
games, then blitz games) has a report for each: ``pool`` says which; without it,
such a play-off is answered 422 naming the lists it has.
"""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import PlainTextResponse

from orchestrator.api.deps import ServiceDep, TokenDep
from orchestrator.api.problems import StrictJsonRoute, _json_error_responses
from orchestrator.core.auth import Action
from orchestrator.core.errors import Conflict, ServiceError
from orchestrator.core.ratings import final_places, playoff_rating_reports
from orchestrator.core.service import Service
from orchestrator.core.state import PlayoffState
from playoff_formats.errors import InputError, PlayoffError

__all__ = ["TrfResponse", "router"]

router = APIRouter(prefix="/api", route_class=StrictJsonRoute)


class TrfResponse(PlainTextResponse):
    media_type = "text/plain"


def _query_problem(name: str, reason: str, value: object) -> RequestValidationError:
    return RequestValidationError(
        [{"loc": ("query", name), "msg": reason, "type": "value_error", "input": value}]
    )


@router.get(
    "/playoffs/{playoff_id}/export.trf",
    response_class=TrfResponse,
    summary="The play-off's rated games as a TRF for FIDE's rating report, one list a file",
    description=(
        "The games with a result, as a FIDE Tournament Report File (TRF16, or TRF-2026 "
        "with `trf=2026`): players with their FIDE ids, ratings, federations and titles, "
        "each round's opponent, colour and result, the points and the play-off's final "
        "ranks, and comment lines (`###`) saying what the file is and which games no list "
        "rates (an Armageddon with unequal times). Rapid and blitz games are rated on "
        "lists of their own (docs/policies.md, \"The play-off's games for the rating "
        "report\"): `pool` chooses one where the play-off has both. `stage` keeps one "
        "stage's games (\"Rapid 25+10\", \"Blitz 5+3\")."
    ),
    responses={
        200: {"content": {TrfResponse.media_type: {"schema": {"type": "string"}}}},
        **_json_error_responses(401, 403, 404, 409, 413, 422, 429, 503),
    },
)
async def get_export_trf(
    playoff_id: str,
    request: Request,
    service: ServiceDep,
    token: TokenDep,
    trf: Annotated[Literal["16", "2026"], Query(description="TRF16 or TRF-2026")] = "16",
    pool: Annotated[
        Literal["standard", "rapid", "blitz"] | None,
        Query(description="The rating list, where the play-off's games are on more than one"),
    ] = None,
    stage: Annotated[
        str | None,
        Query(max_length=200, description="One stage's games, by its name (any case)"),
    ] = None,
) -> TrfResponse:
    address = request.client.host if request.client is not None else None
    state, _ = service.authorize_playoff(
        playoff_id, token, action=Action.READ, address=address
    )
    event = service.event(state.event_id).event
    try:
        reports = playoff_rating_reports(state, event, _places(service, state), trf, stage)
    except InputError as exc:
        raise _query_problem("stage", exc.reason, stage) from None
    except PlayoffError as exc:
        raise Conflict(str(exc)) from None
    if not reports:
        raise Conflict(
            "no game of the play-off is for a rating list yet: none has a result"
            + (" in that stage" if stage else "")
            + ", or each was one no list rates"
        )
    chosen = [r for r in reports if pool is None or r.pool.value == pool]
    if len(chosen) != 1:
        lists = " and ".join(r.pool.value for r in reports)
        reason = (
            f"the play-off has no {pool} games for a rating list; it has {lists}"
            if pool is not None
            else f"the play-off has games for the {lists} lists, each reported apart: "
            "choose one with pool"
        )
        raise _query_problem("pool", reason, pool)
    report = chosen[0]
    name = f"playoff-{playoff_id}-{report.pool.value}.trf"
    return TrfResponse(
        report.text,
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )


def _places(service: Service, state: PlayoffState) -> dict[str, int | None]:
    """The play-off players' final places; none where the placings cannot say them (a
    bridge contest, an event whose standings changed): the ranks are then left blank."""
    if state.playoff is None:
        return {}
    try:
        return final_places(service.standings(state.event_id), state)
    except (PlayoffError, ServiceError):
        return {}
