"""REST routes of the service.

Reads of a play-off are public only with a token of its event (any role); every
write needs an arbiter's or the chief arbiter's token of that event and is
logged with who made it. Bad bodies get 422 with the field; a missing or unknown
token 401, a token of another event or of the wrong role 403; a command that is
not an allowed transition 409 with the reason.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Body, Query, Request
from fastapi.responses import JSONResponse, PlainTextResponse
from pydantic import AwareDatetime, BaseModel, ConfigDict, Field

from orchestrator.api.deps import ServiceDep, TokenDep
from orchestrator.auth import Role
from orchestrator.errors import Conflict
from orchestrator.pgn import playoff_pgn
from orchestrator.service import PlayoffOptions, Service, physical
from orchestrator.state import PlayoffState, playoff_stream
from orchestrator.store import NewEvent
from orchestrator.views import playoff_view
from playoff_formats.errors import InputError
from playoff_formats.io.json_event import parse_event
from playoff_formats.io.trf import parse_trf
from playoff_formats.lots import CoinFace
from playoff_formats.model import Event, Result
from playoff_formats.placings import final_placings
from playoff_formats.timecontrol import TimeControl

router = APIRouter(prefix="/api")


class Body_(BaseModel):
    model_config = ConfigDict(extra="forbid")


class TokenRequest(Body_):
    role: Literal["arbiter", "display"]
    label: str = Field(default="", max_length=100)


class PlayoffRequest(Body_):
    prizes: list[Annotated[float, Field(ge=0)]] = Field(default_factory=list)
    points: list[Annotated[float, Field(ge=0)]] = Field(default_factory=list)
    deadline: AwareDatetime | None = None
    not_before: AwareDatetime | None = None
    generic: bool = False


class LotsRequest(Body_):
    method: Literal["service", "physical"] = "service"
    white: str | None = Field(default=None, description="Physical draw: who got White")
    conducted_by: str | None = None


class CoinTossRequest(Body_):
    method: Literal["service", "physical"] = "service"
    caller: str | None = Field(default=None, description="Who called the coin")
    call: CoinFace | None = None
    winner: str | None = Field(default=None, description="Physical toss: who won it")
    conducted_by: str | None = None


class ColoursRequest(Body_):
    white: str
    black: str


class ResultRequest(Body_):
    result: Result


class CorrectionRequest(Body_):
    result: Result
    reason: str = Field(min_length=3)


class MoveStartRequest(Body_):
    at: AwareDatetime
    reason: str = Field(min_length=3)


class PostponeRequest(Body_):
    minutes: int = Field(gt=0, le=24 * 60)
    reason: str = Field(min_length=3)


class TimeControlRequest(Body_):
    time_control: str = Field(description='e.g. "G/15+5"')
    match: int | None = Field(default=None, description="One match, or every match not begun")
    reason: str = Field(min_length=3)


class ExtraBoardsRequest(Body_):
    home: str
    away: str
    scheduled: int = Field(ge=1, description="Boards scheduled in the match")
    competition: str | None = Field(default=None, description="hubert-phillips-bowl")
    stage_boards: int | None = Field(default=None, ge=1)


class BoardScoreRequest(Body_):
    stanza: int = Field(ge=1)
    board: int = Field(ge=1)
    table: Literal[1, 2]
    ns_score: int = Field(description="The North-South score at that table, signed")


class DeadlineRequest(Body_):
    deadline: AwareDatetime | None
    reason: str = Field(min_length=3)


async def _run(
    service: Service,
    playoff_id: str,
    token: str | None,
    events: list[NewEvent],
    request: Request,
) -> dict[str, Any]:
    state = service.playoff(playoff_id)
    record = service.authorize(state.event_id, token, write=True)
    key = request.headers.get("Idempotency-Key")
    # Keys are scoped to the token that sent them, apart from the scheduler's job ids.
    command_id = f"rest:{record.token_id}:{key}" if key else None
    stored = await service.command(
        playoff_id, events, actor=f"{record.role.value}:{record.token_id}",
        command_id=command_id,
    )
    state = service.playoff(playoff_id)
    return {"seq": state.seq, "events": [e.to_json() for e in stored]}


def _writer(service: Service, playoff_id: str, token: str | None) -> PlayoffState:
    state = service.playoff(playoff_id)
    service.authorize(state.event_id, token, write=True)
    return state


def _reader(service: Service, playoff_id: str, token: str | None) -> PlayoffState:
    state = service.playoff(playoff_id)
    service.authorize(state.event_id, token, write=False)
    return state


# --------------------------------------------------------------------------- events


@router.post(
    "/events",
    status_code=201,
    summary="Upload a finished event (JSON event format, or FIDE TRF as text/plain)",
    openapi_extra={
        "requestBody": {
            "required": True,
            "content": {
                "application/json": {"schema": {"type": "object"}},
                "text/plain": {"schema": {"type": "string"}},
            },
        }
    },
)
async def create_event(request: Request, service: ServiceDep) -> dict[str, str]:
    raw = await request.body()
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputError(f"the body is not UTF-8 text (byte {exc.start})") from None
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    event: Event
    if kind == "text/plain":
        event = parse_trf(text, "body")
    elif kind in ("application/json", ""):
        event = parse_event(text, "body")
    else:
        raise InputError(f"send application/json or text/plain (TRF), not {kind!r}")
    state, token = await service.create_event(event)
    return {"id": state.id, "chief_token": token}


@router.get("/events/{event_id}", summary="An uploaded event")
async def get_event(event_id: str, service: ServiceDep, token: TokenDep) -> dict[str, Any]:
    service.authorize(event_id, token, write=False)
    state = service.event(event_id)
    return {
        "id": state.id,
        "seq": state.seq,
        "name": state.event.name,
        "kind": state.event.kind,
        "regulation": state.event.regulation,
        "playoffs": list(state.playoffs),
    }


@router.get("/events/{event_id}/standings", summary="Standings and their explanation")
async def get_standings(event_id: str, service: ServiceDep, token: TokenDep) -> dict[str, Any]:
    service.authorize(event_id, token, write=False)
    return service.standings(event_id).to_json()


@router.post("/events/{event_id}/tokens", status_code=201, summary="Issue an arbiter token")
async def issue_token(
    event_id: str, body: TokenRequest, service: ServiceDep, token: TokenDep
) -> dict[str, str]:
    record = service.authorize(event_id, token, write=True)
    service.require_chief(record)
    issued = await service.issue_token(event_id, Role(body.role), body.label, "chief")
    return {"role": body.role, "token": issued}


@router.post(
    "/events/{event_id}/playoff", status_code=201, summary="Build the required play-off"
)
async def create_playoff(
    event_id: str,
    service: ServiceDep,
    token: TokenDep,
    body: Annotated[PlayoffRequest | None, Body()] = None,
) -> dict[str, Any]:
    record = service.authorize(event_id, token, write=True)
    options = body or PlayoffRequest()
    state = await service.create_playoff(
        event_id,
        PlayoffOptions(
            prizes=tuple(str(p) for p in options.prizes),
            points=tuple(str(p) for p in options.points),
            deadline=options.deadline,
            not_before=options.not_before,
            generic=options.generic,
        ),
        actor=f"{record.role.value}:{record.token_id}",
    )
    return playoff_view(state, service.schedule_of(state))


@router.post(
    "/events/{event_id}/extra-boards", status_code=201,
    summary="Extra boards for a tied bridge knock-out match (EBU 143.2.1)",
)
async def create_extra_boards(
    event_id: str, body: ExtraBoardsRequest, service: ServiceDep, token: TokenDep
) -> dict[str, Any]:
    record = service.authorize(event_id, token, write=True)
    state = await service.create_extra_boards(
        event_id, body.home, body.away, body.scheduled, body.competition, body.stage_boards,
        actor=f"{record.role.value}:{record.token_id}",
    )
    return playoff_view(state, service.schedule_of(state))


# --------------------------------------------------------------------------- play-offs


@router.get("/playoffs/{playoff_id}", summary="The play-off: bracket, schedule and results")
async def get_playoff(playoff_id: str, service: ServiceDep, token: TokenDep) -> dict[str, Any]:
    state = _reader(service, playoff_id, token)
    return playoff_view(state, service.schedule_of(state))


@router.get("/playoffs/{playoff_id}/jobs", summary="The timed transitions waiting to fire")
async def get_jobs(
    playoff_id: str, request: Request, service: ServiceDep, token: TokenDep
) -> dict[str, Any]:
    _reader(service, playoff_id, token)
    scheduler = request.app.state.scheduler
    return {
        "jobs": [
            {**t.data(), "registered": scheduler.aps.get_job(t.job) is not None}
            for t in scheduler.jobs(playoff_id)
        ]
    }


@router.get("/playoffs/{playoff_id}/events", summary="The play-off's log, for audit")
async def get_log(
    playoff_id: str,
    service: ServiceDep,
    token: TokenDep,
    after: Annotated[int, Query(ge=0)] = 0,
    limit: Annotated[int | None, Query(ge=1, le=10_000)] = None,
) -> dict[str, Any]:
    _reader(service, playoff_id, token)
    events = await service.store.read(playoff_stream(playoff_id), after=after, limit=limit)
    return {"events": [e.to_json() for e in events]}


@router.get(
    "/playoffs/{playoff_id}/pgn",
    response_class=PlainTextResponse,
    summary="The play-off games as PGN",
)
async def get_pgn(playoff_id: str, service: ServiceDep, token: TokenDep) -> PlainTextResponse:
    state = _reader(service, playoff_id, token)
    name = service.event(state.event_id).event.name
    return PlainTextResponse(playoff_pgn(state, name), media_type="application/x-chess-pgn")


@router.get("/playoffs/{playoff_id}/placings", summary="Final places, prize money, points")
async def get_placings(playoff_id: str, service: ServiceDep, token: TokenDep) -> dict[str, Any]:
    state = _reader(service, playoff_id, token)
    standings = service.standings(state.event_id)
    return final_placings(standings, state.chess, state.prizes, state.points).to_json()


@router.post("/playoffs/{playoff_id}/matches/{match_id}/lots", status_code=201,
             summary="Lots for White in game 1")
async def draw_lots(
    playoff_id: str, match_id: int, request: Request, service: ServiceDep, token: TokenDep,
    body: Annotated[LotsRequest | None, Body()] = None,
) -> dict[str, Any]:
    state = _writer(service, playoff_id, token)
    body = body or LotsRequest()
    if body.method == "physical":
        match = state.chess.match(match_id)
        if body.white is None or body.white not in match.players:
            raise Conflict(f"say who drew White: one of {', '.join(map(str, match.players))}")
        black = next(p for p in match.players if p != body.white)
        event = NewEvent("lots-drawn", {
            "match": match_id, "white": body.white, "black": black,
            "draw": physical("game-one-colours", {"white": body.white, "black": black},
                             body.conducted_by or "chief arbiter"),
        })
    else:
        event = service.draw_game_one_colours(state, match_id)
    return await _run(service, playoff_id, token, [event], request)


@router.post("/playoffs/{playoff_id}/matches/{match_id}/coin-toss", status_code=201,
             summary="The Armageddon coin toss; its winner chooses the colours")
async def toss_coin(
    playoff_id: str, match_id: int, body: CoinTossRequest, request: Request,
    service: ServiceDep, token: TokenDep,
) -> dict[str, Any]:
    state = _writer(service, playoff_id, token)
    if body.method == "physical":
        if body.winner is None:
            raise Conflict("a physical toss needs its winner")
        event = NewEvent("coin-tossed", {
            "match": match_id, "winner": body.winner,
            "draw": physical("coin-toss", {"winner": body.winner},
                             body.conducted_by or "chief arbiter"),
        })
    else:
        if body.caller is None or body.call is None:
            raise Conflict("say who calls the coin and the call (heads or tails)")
        event = service.toss_coin(state, match_id, body.caller, body.call)
    return await _run(service, playoff_id, token, [event], request)


@router.post("/playoffs/{playoff_id}/matches/{match_id}/armageddon-colours", status_code=201,
             summary="The toss winner's choice of colour for the Armageddon")
async def armageddon_colours(
    playoff_id: str, match_id: int, body: ColoursRequest, request: Request,
    service: ServiceDep, token: TokenDep,
) -> dict[str, Any]:
    _writer(service, playoff_id, token)
    event = NewEvent("armageddon-colours-chosen",
                     {"match": match_id, "white": body.white, "black": body.black})
    return await _run(service, playoff_id, token, [event], request)


@router.post("/playoffs/{playoff_id}/matches/{match_id}/games/{game}/start", status_code=201,
             summary="A game starts")
async def start_game(
    playoff_id: str, match_id: int, game: int, request: Request,
    service: ServiceDep, token: TokenDep,
) -> dict[str, Any]:
    _writer(service, playoff_id, token)
    event = NewEvent("game-started", {"match": match_id, "game": game})
    return await _run(service, playoff_id, token, [event], request)


@router.post("/playoffs/{playoff_id}/matches/{match_id}/games/{game}/result", status_code=201,
             summary="Record a game's result")
async def record_game_result(
    playoff_id: str, match_id: int, game: int, body: ResultRequest, request: Request,
    service: ServiceDep, token: TokenDep,
) -> dict[str, Any]:
    _writer(service, playoff_id, token)
    event = NewEvent("result-recorded",
                     {"match": match_id, "game": game, "result": body.result.value})
    return await _run(service, playoff_id, token, [event], request)


@router.put("/playoffs/{playoff_id}/matches/{match_id}/games/{game}/result",
            summary="Correct an earlier result (re-propagates downstream)")
async def correct_game_result(
    playoff_id: str, match_id: int, game: int, body: CorrectionRequest, request: Request,
    service: ServiceDep, token: TokenDep,
) -> dict[str, Any]:
    _writer(service, playoff_id, token)
    event = NewEvent("result-corrected", {
        "match": match_id, "game": game, "result": body.result.value, "reason": body.reason,
    })
    return await _run(service, playoff_id, token, [event], request)


@router.post("/playoffs/{playoff_id}/matches/{match_id}/games/{game}/move-start",
             status_code=201, summary="Arbiter override: move a game's start")
async def move_start(
    playoff_id: str, match_id: int, game: int, body: MoveStartRequest, request: Request,
    service: ServiceDep, token: TokenDep,
) -> dict[str, Any]:
    _writer(service, playoff_id, token)
    event = NewEvent("start-moved", {
        "match": match_id, "game": game, "at": body.at.isoformat(), "reason": body.reason,
    })
    return await _run(service, playoff_id, token, [event], request)


@router.post("/playoffs/{playoff_id}/matches/{match_id}/games/{game}/postpone",
             status_code=201, summary="Arbiter override: postpone a game")
async def postpone(
    playoff_id: str, match_id: int, game: int, body: PostponeRequest, request: Request,
    service: ServiceDep, token: TokenDep,
) -> dict[str, Any]:
    state = _writer(service, playoff_id, token)
    planned = service.planned_start(state, match_id, game)
    if planned is None:
        raise Conflict(f"match {match_id}, game {game} is not in the schedule")
    at = planned + timedelta(minutes=body.minutes)
    event = NewEvent("postponed", {
        "match": match_id, "game": game, "at": at.isoformat(), "minutes": body.minutes,
        "reason": body.reason,
    })
    return await _run(service, playoff_id, token, [event], request)


@router.post("/playoffs/{playoff_id}/time-control", status_code=201,
             summary="Arbiter override: shorten the time control (GCT 2015 reg. 5)")
async def shorten_time_control(
    playoff_id: str, body: TimeControlRequest, request: Request,
    service: ServiceDep, token: TokenDep,
) -> dict[str, Any]:
    _writer(service, playoff_id, token)
    try:
        TimeControl.parse(body.time_control)
    except InputError as exc:  # bad notation: 422 naming the field and the column
        raise InputError(
            exc.reason, path="time_control", line=exc.line, column=exc.column
        ) from None
    event = NewEvent("time-control-shortened", {
        "match": body.match, "time_control": body.time_control, "reason": body.reason,
    })
    return await _run(service, playoff_id, token, [event], request)


@router.post("/playoffs/{playoff_id}/board-scores", status_code=201,
             summary="A bridge extra board's score at one table")
async def score_board(
    playoff_id: str, body: BoardScoreRequest, request: Request,
    service: ServiceDep, token: TokenDep,
) -> dict[str, Any]:
    _writer(service, playoff_id, token)
    event = NewEvent("board-scored", body.model_dump())
    return await _run(service, playoff_id, token, [event], request)


@router.post("/playoffs/{playoff_id}/deadline", status_code=201,
             summary="Set or clear the organiser's deadline")
async def set_deadline(
    playoff_id: str, body: DeadlineRequest, request: Request,
    service: ServiceDep, token: TokenDep,
) -> dict[str, Any]:
    _writer(service, playoff_id, token)
    event = NewEvent("deadline-set", {
        "deadline": body.deadline.isoformat() if body.deadline else None, "reason": body.reason,
    })
    return await _run(service, playoff_id, token, [event], request)


def error_response(status: int, detail: Any) -> JSONResponse:
    return JSONResponse(status_code=status, content={"detail": detail})
