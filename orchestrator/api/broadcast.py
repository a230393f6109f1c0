"""The broadcast feed: the play-off's games as PGN, for a broadcast platform to poll.

A platform polls a URL and cannot send headers, so the feed takes its key in the
query (``?key=``): a broadcast key, which reads this feed and nothing else (unlike a
board key's link, whose key stays after ``#`` because it can press clocks). An
arbiter's token in an ``Authorization`` header reads it too. Each answer carries an
``ETag`` (the play-off's last event) and ``Last-Modified``: a poll that finds nothing
new is a 304 with no body.
"""

from __future__ import annotations

from email.utils import format_datetime
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request, Response

from orchestrator.api.bodies import PgnResponse
from orchestrator.api.deps import ServiceDep
from orchestrator.api.problems import StrictJsonRoute, _json_error_responses
from orchestrator.core.auth import Action
from orchestrator.core.broadcast import broadcast_pgn
from orchestrator.core.service import Service

__all__ = ["broadcast_feeds", "router"]

router = APIRouter(prefix="/api", route_class=StrictJsonRoute)


def feed_link(playoff_id: str, key: str) -> str:
    return f"/api/playoffs/{playoff_id}/broadcast.pgn?key={key}"


def broadcast_feeds(service: Service, event_id: str, key: str) -> list[dict[str, Any]]:
    """The feed of each play-off of the event, as a broadcast key opens it."""
    feeds = []
    for playoff_id in service.event(event_id).playoffs:
        state = service.playoff(playoff_id)
        title = state.playoff.name if state.playoff is not None else "Extra boards"
        feeds.append({"playoff": playoff_id, "title": title,
                      "link": feed_link(playoff_id, key)})
    return feeds


def _matches(etag: str, header: str | None) -> bool:
    """``If-None-Match`` names ``etag`` (weak or strong, one of a list, or ``*``)."""
    if not header:
        return False
    wanted = [tag.strip().removeprefix("W/") for tag in header.split(",")]
    return "*" in wanted or etag in wanted


@router.get(
    "/playoffs/{playoff_id}/broadcast.pgn",
    response_class=PgnResponse,
    summary="The broadcast feed: every game of the play-off as PGN, clocks and moves",
    description=(
        "Every game started or decided, in play order, for a broadcast platform to "
        "poll (lichess reads it as a broadcast round's source URL). Tags as "
        "docs/protocol.md, \"The broadcast feed\", describes: `Round` "
        "`{main event's rounds + 1}.{stage}.{match}.{game}`, `Board` the play order, "
        "`WhiteClock`/`BlackClock`/`ReferenceTime` while a game runs without moves, "
        "moves with `[%clk]`. `If-None-Match` with the last `ETag`: 304 when nothing "
        "changed."
    ),
    responses={
        200: {"content": {PgnResponse.media_type: {"schema": {"type": "string"}}}},
        304: {"description": "Nothing changed since the ETag sent"},
        **_json_error_responses(401, 403, 404, 413, 422, 429, 503),
    },
)
async def get_broadcast(
    playoff_id: str,
    request: Request,
    service: ServiceDep,
    key: Annotated[str | None, Query(
        max_length=256,
        description="A broadcast key (or send an arbiter's token as a bearer token)",
    )] = None,
) -> Response:
    token = key
    if not token:
        scheme, _, bearer = request.headers.get("Authorization", "").partition(" ")
        token = bearer.strip() if scheme.lower() == "bearer" else None
    address = request.client.host if request.client is not None else None
    state, _ = service.authorize_playoff(
        playoff_id, token, action=Action.BROADCAST, address=address
    )
    etag = f'"{state.id}-{state.seq}"'
    headers = {"ETag": etag, "Cache-Control": "no-cache"}
    if state.updated_at is not None:
        headers["Last-Modified"] = format_datetime(state.updated_at, usegmt=True)
    if _matches(etag, request.headers.get("If-None-Match")):
        return Response(status_code=304, headers=headers)
    event = service.event(state.event_id).event
    return PgnResponse(broadcast_pgn(state, event), headers=headers)
