"""REST routes of the service.

Reads of a play-off are public only with a token of its event (any role); every
write needs an arbiter's or the chief arbiter's token of that event and is
logged with who made it. Bad bodies get 422 with the field; a missing or unknown
token 401, a token of another event or of the wrong role 403; a command that is
not an allowed transition 409 with the reason.
"""

from __future__ import annotations

import json
import re
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Body, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, PlainTextResponse
from pydantic import AwareDatetime, BaseModel, ConfigDict, Field, ValidationError

from orchestrator.api.deps import ServiceDep, TokenDep
from orchestrator.auth import Role
from orchestrator.commands import Command, CommandBase, Route, client_commands
from orchestrator.creation import PlayoffOptions
from orchestrator.pgn import playoff_pgn
from orchestrator.service import Service
from orchestrator.state import PlayoffState, playoff_stream
from orchestrator.views import arbiter_view, hall_view, playoff_view
from playoff_formats.errors import InputError
from playoff_formats.io.json_event import parse_event
from playoff_formats.io.trf import parse_trf
from playoff_formats.model import Event
from playoff_formats.placings import final_placings

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


class ExtraBoardsRequest(Body_):
    home: str
    away: str
    scheduled: int = Field(ge=1, description="Boards scheduled in the match")
    competition: str | None = Field(default=None, description="hubert-phillips-bowl")
    stage_boards: int | None = Field(default=None, ge=1)


async def _submit(
    service: Service, playoff_id: str, token: str | None, command: CommandBase, request: Request
) -> dict[str, Any]:
    """Run a command for the holder of ``token``: its events as logged, or 409."""
    state = service.playoff(playoff_id)
    record = service.authorize(state.event_id, token, write=True)
    key = request.headers.get("Idempotency-Key")
    # Keys are scoped to the token that sent them, apart from the scheduler's job ids.
    command_id = f"rest:{record.token_id}:{key}" if key else None
    outcome = await service.execute(
        playoff_id, command, actor=f"{record.role.value}:{record.token_id}",
        command_id=command_id,
    )
    return outcome.to_json()


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


@router.get("/playoffs/{playoff_id}/view", summary="What a screen shows now (a view frame's data)")
async def get_view(
    playoff_id: str, request: Request, service: ServiceDep, token: TokenDep,
    kind: Literal["hall", "arbiter"] = "hall",
) -> dict[str, Any]:
    state = _reader(service, playoff_id, token)
    hub = request.app.state.hub
    ctx = hub.view_context(state)
    return hall_view(state, ctx) if kind == "hall" else arbiter_view(state, ctx)


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


@router.post(
    "/playoffs/{playoff_id}/commands", status_code=201,
    summary="Any command (the same as a websocket command's payload)",
)
async def run_command(
    playoff_id: str, command: Annotated[Command, Body()], request: Request,
    service: ServiceDep, token: TokenDep,
) -> dict[str, Any]:
    return await _submit(service, playoff_id, token, command, request)


def _route(command: type[CommandBase], route: Route) -> None:
    """The per-verb route of a command: its path names some fields, its body the rest."""
    in_path = tuple(re.findall(r"{(\w+)}", route.path))
    type_ = command.model_fields["type"].default
    schema = command.model_json_schema()
    body_schema = {
        **schema,
        "properties": {
            k: v for k, v in schema.get("properties", {}).items()
            if k not in in_path and k != "type"
        },
        "required": [k for k in schema.get("required", []) if k not in in_path and k != "type"],
    }

    async def endpoint(
        playoff_id: str, request: Request, service: ServiceDep, token: TokenDep
    ) -> dict[str, Any]:
        body = await _json_body(request)
        clash = [k for k in body if k in in_path or k == "type"]
        if clash:
            raise RequestValidationError([{
                "loc": ("body", clash[0]), "msg": "Extra inputs are not permitted",
                "type": "extra_forbidden", "input": body[clash[0]],
            }])
        payload = {**body, "type": type_, **{k: request.path_params[k] for k in in_path}}
        try:
            parsed = command.model_validate(payload)
        except ValidationError as exc:
            raise RequestValidationError([
                {**e, "loc": ("path" if e["loc"][:1] and e["loc"][0] in in_path else "body",
                              *e["loc"])}
                for e in exc.errors(include_url=False)
            ]) from None
        return await _submit(service, playoff_id, token, parsed, request)

    endpoint.__name__ = type_.replace("-", "_")
    router.add_api_route(
        "/playoffs/{playoff_id}" + route.path, endpoint, methods=[route.method],
        status_code=201 if route.method == "POST" else 200, summary=route.summary,
        openapi_extra={"requestBody": {
            "required": bool(body_schema["required"]),
            "content": {"application/json": {"schema": body_schema}},
        }},
    )


async def _json_body(request: Request) -> dict[str, Any]:
    raw = await request.body()
    if not raw.strip():
        return {}
    try:
        body = json.loads(raw)
    except ValueError as exc:
        raise RequestValidationError([{
            "loc": ("body",), "msg": f"JSON decode error: {exc}", "type": "json_invalid",
        }]) from None
    if not isinstance(body, dict):
        raise RequestValidationError([{
            "loc": ("body",), "msg": "the body must be a JSON object", "type": "dict_type",
        }])
    return body


for _command in client_commands():
    if _command.route is not None:
        _route(_command, _command.route)


def error_response(status: int, detail: Any) -> JSONResponse:
    return JSONResponse(status_code=status, content={"detail": detail})
