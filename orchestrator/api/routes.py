"""REST routes of the service.

Reads of a play-off are public only with a token of its event (any role); every
write needs an arbiter's or the chief arbiter's token of that event and is
logged with who made it. Bad bodies get 422 with the field; a missing or unknown
token 401, a token of another event or of the wrong role 403; a command that is
not an allowed transition 409 with the reason.

JSON bodies are read strictly (:mod:`playoff_formats.io.strict_json`): NaN,
Infinity, repeated keys, overlong numbers and deep nesting are 422 with the JSON
path and the line and column. Every answer, errors included, is declared in the
OpenAPI description with its model.
"""

from __future__ import annotations

import functools
import hmac
import re
import string
from typing import Annotated, Any, Literal, TypeVar

from fastapi import APIRouter, Body, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, Field, ValidationError

from orchestrator.api.boardkeys import board_key_answer
from orchestrator.api.bodies import (
    IDEMPOTENCY_KEY_PARAMETER,
    MAX_PLACES,
    MAX_SEQ,
    TOML,
    CommandAnswer,
    EventAnswer,
    EventCreatedAnswer,
    ExtraBoardsRequest,
    ForesightAnswer,
    GameResultRequest,
    HallForesightRequest,
    JobsAnswer,
    LogAnswer,
    Money,
    PgnResponse,
    PlacingsAnswer,
    PlayoffAnswer,
    PlayoffRequest,
    StandingsAnswer,
    TokenAnswer,
    TokenRequest,
    _playoff_format,
)
from orchestrator.api.broadcast import broadcast_feeds
from orchestrator.api.deps import ServiceDep, TokenDep
from orchestrator.api.openapi import (
    _COMPONENTS,
    _VERB_ROUTES,
)
from orchestrator.api.problems import (
    _REF,
    _TOKEN_ERRORS,
    _WITH_TOKEN,
    StrictJsonRoute,
    _json_error_responses,
    _json_value,
    _text,
    error_responses,
)
from orchestrator.core.access import hall_screen_refusal
from orchestrator.core.auth import Action, Actor, Role
from orchestrator.core.commands import (
    Command,
    CommandBase,
    RecordGameResult,
    Route,
    ShowForesightInHall,
    client_commands,
)
from orchestrator.core.creation import PlayoffOptions
from orchestrator.core.errors import Conflict, Forbidden
from orchestrator.core.pgn import playoff_pgn
from orchestrator.core.service import Request as IdempotentRequest
from orchestrator.core.service import Service
from orchestrator.core.state import EventState, PlayoffState, playoff_stream
from orchestrator.views import arbiter_view, hall_view, playoff_view
from orchestrator.views.arbiter import ArbiterView
from orchestrator.views.board import BoardView, board_view
from orchestrator.views.event import (
    EventHallView,
    EventWatchView,
    event_hall_view,
    event_watch_view,
)
from orchestrator.views.hall import HallView
from orchestrator.views.start import AccessView, access_view
from playoff_formats.errors import InputError, PlayoffError
from playoff_formats.foresight import (
    PendingGame,
    parse_event_with_pending,
    parse_trf_with_pending,
)
from playoff_formats.formats import PlayoffFormat
from playoff_formats.io.json_event import parse_event
from playoff_formats.io.reasons import clip
from playoff_formats.io.strict_json import load_json
from playoff_formats.io.toml_text import load_toml
from playoff_formats.model import (
    MAX_ID,
    AwareInstant,
    Event,
    Result,
    TimeZoneName,
)
from playoff_formats.placings import final_placings
from playoff_formats.regulations import regulation_names, regulation_ranks, regulations_for
from playoff_formats.speech import marked, speaking

router = APIRouter(prefix="/api", route_class=StrictJsonRoute)


async def _submit(
    service: Service, playoff_id: str, token: str | None, command: CommandBase, request: Request
) -> dict[str, Any]:
    """Run a command for the holder of ``token``: its events as logged, or 409."""
    # Who may send it is the command's own rule, checked where it is decided: the
    # same refusal, in the same words, as on the websocket and the console.
    _, record = service.authorize_playoff(
        playoff_id, token, action=Action.READ, address=_address(request)
    )
    key = _key(request, command.model_dump(mode="json"))
    # Keys are scoped to the token that sent them, apart from the scheduler's job ids.
    outcome = await service.execute(
        # Without a board's match: a board key presses from its clock page only.
        playoff_id, command, actor=Actor(record.role.value, record.token_id),
        command_id=f"rest:{record.token_id}:{key.key}" if key is not None else None,
        fingerprint=key.fingerprint if key is not None else None,
    )
    return outcome.to_json()


def _reader(
    service: Service, playoff_id: str, token: str | None, request: Request,
    action: Action = Action.READ,
) -> PlayoffState:
    """The play-off, for the holder of a token of its event whose role may do
    ``action`` (the token checked first)."""
    state, _ = service.authorize_playoff(
        playoff_id, token, action=action, address=_address(request)
    )
    return state


HallScreen = Annotated[Literal["hall"] | None, Query(
    description="Sent by a hall screen, whose address everyone in the hall can read: it "
    "takes a display key only, and a token that can send commands is refused (403)",
)]


def _hall_screen(
    screen: str | None, role: Role, event_id: str, playoff_id: str | None = None
) -> None:
    """403 for a hall screen opened with a token that can send commands."""
    if screen == "hall":
        refusal = hall_screen_refusal(role, event_id, playoff_id)
        if refusal is not None:
            raise Forbidden(refusal)


def _address(request: Request) -> str | None:
    return request.client.host if request.client is not None else None


def _key(request: Request, body: object) -> IdempotentRequest | None:
    """The request's ``Idempotency-Key`` with its fingerprint (method, path, body)."""
    key = request.headers.get("Idempotency-Key")
    if not key:
        return None
    if len(key) > 255:
        raise InputError(
            "an Idempotency-Key has at most 255 characters", path="Idempotency-Key"
        )
    return IdempotentRequest.of(key, request.method, request.url.path, body)


# --------------------------------------------------------------------------- access


@router.get(
    "/access", summary="What a token opens: its event, and the pages to open with it",
    response_model=AccessView, responses=error_responses(401, 413, 422, 429, 503),
)
async def get_access(request: Request, service: ServiceDep, token: TokenDep) -> AccessView:
    event_id, record = service.tokens.identify(token, address=_address(request))
    service.tokens.permit(record, Action.READ)
    state = service.event(event_id)
    return access_view(
        record.role, record.label, state, [service.playoff(p) for p in state.playoffs]
    )


# --------------------------------------------------------------------------- events


@router.post(
    "/events",
    status_code=201,
    summary="Upload a finished event (JSON event format, or FIDE TRF as text/plain)",
    response_model=EventCreatedAnswer,
    responses=error_responses(401, 413, 422, 429),
    openapi_extra={
        # The organiser's credential, where the service has one; else none.
        "security": [{}, {"HTTPBearer": []}],
        "parameters": [IDEMPOTENCY_KEY_PARAMETER],
        "requestBody": {
            "required": True,
            "content": {
                "application/json": {"schema": {"$ref": _REF.format(model="Event")}},
                "text/plain": {"schema": {
                    "type": "string", "description": "A FIDE TRF (TRF16 or TRF-2026)",
                }},
            },
        }
    },
)
async def create_event(
    request: Request,
    service: ServiceDep,
    time_zone: Annotated[TimeZoneName | None, Query(
        description="The IANA time zone the event is played in (Asia/Tashkent): the chief "
        "arbiter's setting for a TRF, which names none (a JSON event has its own field)",
    )] = None,
) -> dict[str, str]:
    _check_organiser(request, service)
    text = _text(await request.body())
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    event: Event
    pending: tuple[PendingGame, ...] = ()
    if kind == "text/plain":
        event, pending = parse_trf_with_pending(text, "body")
    elif kind in ("application/json", ""):
        event, pending = _json_upload(text)
    else:
        raise InputError(f"send application/json or text/plain (TRF), not {kind!r}")
    _check_known_regulation(event)
    event = _in_zone(event, time_zone)
    key = _key(request, text)
    if key is not None:
        weak = weak_upload_key(key.key)
        if weak is not None:
            raise InputError(weak, path="Idempotency-Key")
    state, chief = await service.create_event(event, key=key, pending=pending)
    return {"id": state.id, "chief_token": chief}


def _in_zone(event: Event, time_zone: str | None) -> Event:
    """The event with the time zone the upload's address names (a TRF names none)."""
    if time_zone is None or event.time_zone == time_zone:
        return event
    if event.time_zone is not None:
        raise InputError(
            f"the event names its time zone, {event.time_zone}, and the address another, "
            f"{time_zone}: give one of them",
            path="time_zone",
        )
    return event.model_copy(update={"time_zone": time_zone})


def _check_organiser(request: Request, service: Service) -> None:
    """With an organiser's credential set, only its holder uploads (401 otherwise,
    counted as a failed attempt like any other token)."""
    expected: str | None = request.app.state.settings.upload_token
    if expected is None:
        return
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    token = token.strip() if scheme.lower() == "bearer" else ""
    if not token or not hmac.compare_digest(token.encode("utf-8"), expected.encode("utf-8")):
        service.tokens.attempts.refuse(_address(request), NEEDS_ORGANISER)


NEEDS_ORGANISER = (
    "uploading an event needs the organiser's credential: send 'Authorization: Bearer "
    "<organiser token>'"
)


def weak_upload_key(key: str) -> str | None:
    """Why ``key`` cannot be an upload's Idempotency-Key, or None.

    An upload sent again with its key is answered with the event's chief arbiter's
    token, to whoever sends it: the key must be a secret nobody can guess, a random
    value of at least 128 bits. Its length is judged by its alphabet: hex digits carry
    4 bits each (a UUID's 32 count), base64url characters 6 (22 of them); a key with
    fewer than 10 different characters is no random value, whatever its length.
    """
    hex_digits = sum(c in string.hexdigits for c in key)
    if set(key) <= set(string.hexdigits + "-"):
        bits = 4 * hex_digits
    elif set(key) <= set(string.ascii_letters + string.digits + "-_="):
        bits = 6 * sum(c != "=" for c in key)
    else:
        bits = 6 * len(key)
    if bits >= UPLOAD_KEY_BITS and len(set(key)) >= 10:
        return None
    return (
        "an upload's Idempotency-Key must be a random value of at least 128 bits (32 hex "
        "digits, a UUID, or 22 base64url characters), such as `python3 -c \"import "
        "secrets; print(secrets.token_urlsafe(16))\"`: the same upload sent again with "
        "it is answered with the event's chief arbiter's token, so it must be a secret "
        "nobody can guess"
    )


UPLOAD_KEY_BITS = 128


def _json_upload(text: str) -> tuple[Event, tuple[PendingGame, ...]]:
    """An uploaded JSON event, and its pending games (result ``"*"``) set apart."""
    try:
        return parse_event(text, "body"), ()
    except InputError as exc:
        # Read as any event first, so that anything else is refused exactly as
        # before; only an individual event whose games are marked "*" is read
        # again, with those games pending.
        path = exc.path or ""
        if not (path.startswith("games[") and path.endswith("].result")):
            raise
    return parse_event_with_pending(text, "body")


def _check_known_regulation(event: Event) -> None:
    # The command line may rank an event by a regulation file of any name; the
    # service has only its named regulations, so another name is refused here,
    # before it is logged and refused at every reading of the standings.
    if regulation_ranks(event.regulation) is not None:
        return
    fitting = ", ".join(regulations_for(event)) or "none"
    raise InputError(
        f"'{event.regulation[:MAX_ID]}' is not a regulation this service knows; for this "
        f"event: {fitting} (all: {', '.join(regulation_names())})",
        path="regulation",
    )


@router.get(
    "/events/{event_id}", summary="An uploaded event",
    response_model=EventAnswer, responses=_TOKEN_ERRORS,
)
async def get_event(
    event_id: str, request: Request, service: ServiceDep, token: TokenDep
) -> dict[str, Any]:
    service.authorize(event_id, token, action=Action.READ, address=_address(request))
    return _event_answer(service.event(event_id))


def _event_answer(state: EventState) -> dict[str, Any]:
    return {
        "id": state.id,
        "seq": state.seq,
        "name": state.event.name,
        "kind": state.event.kind,
        "regulation": state.event.regulation,
        "time_zone": state.event.time_zone,
        "playoffs": list(state.playoffs),
        "pending": [p.to_json() for p in state.pending],
        "hall_foresight": state.hall_foresight,
    }


@router.post(
    "/events/{event_id}/results", status_code=201,
    summary="Record the result of a pending game of the event (logged)",
    response_model=EventAnswer, responses=_TOKEN_ERRORS,
    openapi_extra={"parameters": [IDEMPOTENCY_KEY_PARAMETER]},
)
async def record_game_result(
    event_id: str, body: GameResultRequest, request: Request, service: ServiceDep,
    token: TokenDep,
) -> dict[str, Any]:
    record = service.authorize(
        event_id, token, action=RecordGameResult.action, address=_address(request)
    )
    try:
        command = RecordGameResult(
            round=body.round, white=body.white, black=body.black, result=Result(body.result),
            ended_at=body.ended_at,
        )
    except ValidationError as exc:
        raise RequestValidationError([
            {**e, "loc": ("body", *e["loc"])} for e in exc.errors(include_url=False)
        ]) from None
    state = await service.execute_event(
        event_id, command, actor=Actor.of(record),
        key=_key(request, body.model_dump(mode="json")),
    )
    return _event_answer(state)


@router.put(
    "/events/{event_id}/hall-foresight",
    summary="Show or hide the play-off watch on the hall display (chief arbiter, logged)",
    response_model=EventAnswer, responses=_TOKEN_ERRORS,
    openapi_extra={"parameters": [IDEMPOTENCY_KEY_PARAMETER]},
)
async def set_hall_foresight(
    event_id: str, body: HallForesightRequest, request: Request, service: ServiceDep,
    token: TokenDep,
) -> dict[str, Any]:
    record = service.authorize(
        event_id, token, action=ShowForesightInHall.action, address=_address(request),
        what=ShowForesightInHall.what,
    )
    state = await service.execute_event(
        event_id, ShowForesightInHall(on=body.on),
        actor=Actor.of(record),
        key=_key(request, body.model_dump(mode="json")),
    )
    return _event_answer(state)


DrawRate = Annotated[float | None, Query(
    ge=0, le=0.99, description="Share of draws between equal players (default: by time control)"
)]
TimeControlKind = Annotated[
    Literal["classical", "rapid", "blitz"],
    Query(description="Sets the default draw rate of the model"),
]


Chances = Annotated[list[Annotated[str, Field(max_length=200)]] | None, Query(
    max_length=64,
    description="The arbiter's own chances for a pending game: WHITE-BLACK=W/D/B with the "
    "players' ids (e.g. 3-7=0.3/0.5/0.2); repeat for several games",
)]


@router.get(
    "/events/{event_id}/foresight",
    summary="Before the last results: which outcomes need a play-off, and how likely",
    response_model=ForesightAnswer, responses=_TOKEN_ERRORS,
    response_model_exclude_unset=True,
)
async def get_foresight(
    event_id: str, request: Request, service: ServiceDep, token: TokenDep,
    draw_rate: DrawRate = None, time_control: TimeControlKind = "classical",
    chances: Chances = None,
) -> dict[str, Any]:
    record = service.authorize(
        event_id, token, action=Action.FORESEE, address=_address(request)
    )
    found = await service.foresight(
        event_id, draw_rate, time_control, chances or (), who=record.token_id
    )
    return found.to_json()


MAX_WAIT_S = 25.0
"""The longest a view request waits for the event to change."""

EventViewLanguage = Annotated[Literal["en", "es", "fr", "de", "ru", "en-XA"] | None, Query(
    description="The language the view is worded in; else a display key's own, else "
    "English. The answer's Content-Language names it",
)]


@router.get(
    "/events/{event_id}/view",
    summary="What a screen of the event shows now (the play-off watch)",
    response_model=EventWatchView | EventHallView, responses=_TOKEN_ERRORS,
)
async def get_event_view(
    event_id: str, request: Request, response: Response, service: ServiceDep,
    token: TokenDep, kind: Literal["arbiter", "hall"] = "arbiter",
    after: Annotated[int, Query(
        ge=-1, le=MAX_SEQ, description="Wait for a seq past this one (with wait)"
    )] = -1,
    wait: Annotated[float, Query(
        ge=0, le=MAX_WAIT_S, description="Seconds to wait for the event to change"
    )] = 0,
    draw_rate: DrawRate = None, time_control: TimeControlKind = "classical",
    screen: HallScreen = None, lang: EventViewLanguage = None,
) -> dict[str, Any]:
    # The hall's watch is read by any token; the arbiter's, or a model of one's own
    # (a computation the caller chooses), only by those who may compute it.
    chooses = kind == "arbiter" or draw_rate is not None or time_control != "classical"
    record = service.authorize(
        event_id, token, action=Action.FORESEE if chooses else Action.READ,
        address=_address(request),
        what=marked("open the arbiters' play-off watch (the hall's view is a display key's)")
        if kind == "arbiter" else None,
    )
    _hall_screen(screen, record.role, event_id)
    state = await service.event_changed(event_id, after, wait)
    found, error = None, None
    for _ in range(3):
        try:
            found = await service.foresight(
                event_id, draw_rate, time_control, who=record.token_id
            )
        except Conflict as exc:
            error = exc.reason
        state = service.event(event_id)
        # A result recorded while the outcomes were counted: count them again.
        if found is None or found.pending == state.pending:
            break
    # The screen's page words follow the language its view is worded in.
    language = lang or record.language or "en"
    response.headers["Content-Language"] = language
    with speaking(request.app.state.catalogs.language(language)):
        if kind == "hall":
            return event_hall_view(state, found)
        return event_watch_view(
            state, found, record.role.value, error,
            time_control if draw_rate is None else f"draw rate {draw_rate:.0%}",
        )


@router.get(
    "/events/{event_id}/standings", summary="Standings and their explanation",
    response_model=StandingsAnswer, responses=_TOKEN_ERRORS,
)
async def get_standings(
    event_id: str, request: Request, service: ServiceDep, token: TokenDep
) -> dict[str, Any]:
    service.authorize(event_id, token, action=Action.READ, address=_address(request))
    return service.standings(event_id).to_json()


@router.post(
    "/events/{event_id}/tokens", status_code=201, summary="Issue an arbiter token",
    response_model=TokenAnswer, responses=_TOKEN_ERRORS,
    openapi_extra={"parameters": [IDEMPOTENCY_KEY_PARAMETER]},
)
async def issue_token(
    event_id: str, body: TokenRequest, request: Request, service: ServiceDep, token: TokenDep
) -> dict[str, Any]:
    role = Role(body.role)
    action = Action.ISSUE_BOARD_KEYS if role is Role.BOARD else Action.ISSUE_TOKENS
    record = service.authorize(event_id, token, action=action, address=_address(request))
    # The chief's tokens are logged as the chief's, as ever; a board key as its minter's.
    who = Actor(record.role.value, record.token_id) if role is Role.BOARD else Actor("chief")
    issued = await service.issue_token(
        event_id, role, body.label, who,
        key=_key(request, body.model_dump(mode="json")),
        playoff=body.playoff, match=body.match, language=body.language,
    )
    if role is Role.BOARD:
        assert body.playoff is not None and body.match is not None
        return board_key_answer(
            issued, body.playoff, body.match, str(request.base_url).rstrip("/")
        )
    if role is Role.BROADCAST:
        feeds = broadcast_feeds(service, event_id, issued)
        return {"role": body.role, "token": issued, "feeds": feeds}
    return {"role": body.role, "token": issued}


_OPTION = (
    f"Only with a {TOML} body, which is the format alone: the option a JSON body holds "
    "as its field of the same name"
)
Prizes = Annotated[list[Money] | None, Query(max_length=MAX_PLACES, description=_OPTION)]


@router.post(
    "/events/{event_id}/playoff", status_code=201, summary="Build the required play-off",
    description=(
        "The play-off the regulation prescribes, or the organiser's own format: a JSON "
        "body (all fields optional) names a built-in format or gives the format document "
        f"under `format`; a body of type `{TOML}` is the format document itself, written "
        "in TOML, and the other options are then in the query (`?prizes=100000&prizes="
        "50000`)."
    ),
    response_model=PlayoffAnswer, responses=_TOKEN_ERRORS,
    openapi_extra={
        "parameters": [IDEMPOTENCY_KEY_PARAMETER],
        "requestBody": {
            "required": False,
            "content": {
                "application/json": {"schema": {"$ref": _REF.format(model="PlayoffRequest")}},
                TOML: {"schema": {
                    "type": "string",
                    "description": "The organiser's own play-off format, written in TOML "
                    "(`playoff schema --playoff-format` describes its keys)",
                }},
            },
        },
    },
)
async def create_playoff(
    event_id: str,
    request: Request,
    service: ServiceDep,
    token: TokenDep,
    prizes: Prizes = None,
    points: Prizes = None,
    deadline: Annotated[AwareInstant | None, Query(description=_OPTION)] = None,
    not_before: Annotated[AwareInstant | None, Query(description=_OPTION)] = None,
    generic: Annotated[bool | None, Query(description=_OPTION)] = None,
    time_zone: Annotated[TimeZoneName | None, Query(description=_OPTION)] = None,
) -> dict[str, Any]:
    record = service.authorize(event_id, token, action=Action.CREATE, address=_address(request))
    in_query = {
        "prizes": prizes, "points": points, "deadline": deadline, "not_before": not_before,
        "generic": generic, "time_zone": time_zone,
    }
    in_query = {name: value for name, value in in_query.items() if value is not None}
    options, format = await _playoff_request(request, in_query)
    state = await service.create_playoff(
        event_id,
        PlayoffOptions(
            prizes=tuple(str(p) for p in options.prizes),
            points=tuple(str(p) for p in options.points),
            deadline=options.deadline,
            not_before=options.not_before,
            generic=options.generic,
            format=format,
            time_zone=options.time_zone,
        ),
        actor=Actor.of(record),
        key=_key(request, options.model_dump(mode="json")),
    )
    return playoff_view(state, service.schedule_of(state))


async def _playoff_request(
    request: Request, in_query: dict[str, Any]
) -> tuple[PlayoffRequest, PlayoffFormat | None]:
    """A play-off request, as JSON or as a TOML format with its options in the query,
    and the format it names or gives."""
    kind = _media_type(request)
    raw = await request.body()
    if kind == TOML:
        document = load_toml(_text(raw))
        options = _validated(PlayoffRequest, {**in_query, "format": document}, "query")
        return options, _playoff_format(document, at="")
    if kind not in ("application/json", ""):
        raise InputError(
            f"send the play-off's options as application/json, or the organiser's own "
            f"format alone as {TOML} (its options then in the query); not {clip(kind)!r}"
        )
    if in_query:
        name = next(iter(in_query))
        raise RequestValidationError([{
            "loc": ("query", name), "type": "extra_forbidden",
            "msg": f"with a JSON body, {name} is a field of the body",
        }])
    value = _json_value(raw) if raw.strip() else None
    options = PlayoffRequest() if value is None else _validated(PlayoffRequest, value, "body")
    return options, _playoff_format(options.format)


def _media_type(request: Request) -> str:
    return request.headers.get("content-type", "").split(";")[0].strip().lower()


BodyModel = TypeVar("BodyModel", bound=BaseModel)


def _validated(model: type[BodyModel], value: Any, where: str) -> BodyModel:
    """``value`` as ``model``, or 422 naming each field under ``where``."""
    try:
        return model.model_validate(value)
    except ValidationError as exc:
        raise RequestValidationError([
            {**e, "loc": (where, *e["loc"])} for e in exc.errors(include_url=False)
        ]) from None


@router.post(
    "/events/{event_id}/extra-boards", status_code=201,
    summary="Extra boards for a tied bridge knock-out match (EBU 143.2.1)",
    response_model=PlayoffAnswer, responses=_TOKEN_ERRORS,
    openapi_extra={"parameters": [IDEMPOTENCY_KEY_PARAMETER]},
)
async def create_extra_boards(
    event_id: str, body: ExtraBoardsRequest, request: Request, service: ServiceDep,
    token: TokenDep,
) -> dict[str, Any]:
    record = service.authorize(event_id, token, action=Action.CREATE, address=_address(request))
    state = await service.create_extra_boards(
        event_id, body.home, body.away, body.scheduled, body.competition, body.stage_boards,
        actor=Actor.of(record), time_zone=body.time_zone,
        key=_key(request, body.model_dump(mode="json")),
    )
    return playoff_view(state, service.schedule_of(state))


# --------------------------------------------------------------------------- play-offs


@router.get(
    "/playoffs/{playoff_id}", summary="The play-off: bracket, schedule and results",
    response_model=PlayoffAnswer, responses=_TOKEN_ERRORS,
)
async def get_playoff(
    playoff_id: str, request: Request, service: ServiceDep, token: TokenDep
) -> dict[str, Any]:
    state = _reader(service, playoff_id, token, request)
    return playoff_view(state, service.schedule_of(state))


@router.get(
    "/playoffs/{playoff_id}/view", summary="What a screen shows now (a view frame's data)",
    response_model=HallView | ArbiterView | BoardView, responses=_TOKEN_ERRORS,
)
async def get_view(
    playoff_id: str, request: Request, service: ServiceDep, token: TokenDep,
    kind: Literal["hall", "arbiter", "board"] = "hall", screen: HallScreen = None,
    match: Annotated[int | None, Query(ge=1, le=1000, description="The board's match")] = None,
) -> Response:
    # Sent as computed: read back into its model, a view would lose what its own
    # serialization wrote (each time with its zone's offset).
    return JSONResponse(_view(playoff_id, request, service, token, kind, screen, match))


def _view(
    playoff_id: str, request: Request, service: Service, token: str,
    kind: Literal["hall", "arbiter", "board"], screen: str | None, match: int | None,
) -> dict[str, Any]:
    state, record = service.authorize_playoff(
        playoff_id, token, action=Action.READ, address=_address(request)
    )
    _hall_screen(screen, record.role, state.event_id, playoff_id)
    hub = request.app.state.hub
    ctx = hub.view_context(state)
    if record.role is Role.BOARD:  # a board key reads its own board, whatever it asks
        assert record.match is not None
        return board_view(state, ctx, record.match)
    if kind == "board":
        if match is None or state.playoff is None:
            raise InputError("the board view is of one match: say which with ?match=",
                             path="match")
        try:
            state.chess.match(match)
        except PlayoffError as exc:
            raise Conflict(exc.reason, said=functools.partial(exc.words, state.names)) from None
        return board_view(state, ctx, match)
    return hall_view(state, ctx) if kind == "hall" else arbiter_view(state, ctx)


@router.get(
    "/playoffs/{playoff_id}/jobs", summary="The timed transitions waiting to fire",
    response_model=JobsAnswer, responses=_TOKEN_ERRORS,
)
async def get_jobs(
    playoff_id: str, request: Request, service: ServiceDep, token: TokenDep
) -> dict[str, Any]:
    _reader(service, playoff_id, token, request, Action.AUDIT)
    scheduler = request.app.state.scheduler
    return {
        "jobs": [
            {**t.data(), "registered": scheduler.aps.get_job(t.job) is not None}
            for t in scheduler.jobs(playoff_id)
        ]
    }


@router.get(
    "/playoffs/{playoff_id}/events", summary="The play-off's log, for audit",
    response_model=LogAnswer, responses=_TOKEN_ERRORS,
)
async def get_log(
    playoff_id: str,
    request: Request,
    service: ServiceDep,
    token: TokenDep,
    after: Annotated[int, Query(ge=0, le=MAX_SEQ)] = 0,
    limit: Annotated[int | None, Query(ge=1, le=10_000)] = None,
) -> dict[str, Any]:
    _reader(service, playoff_id, token, request, Action.AUDIT)
    events = await service.store.read(playoff_stream(playoff_id), after=after, limit=limit)
    return {"events": [e.to_json() for e in events]}


@router.get(
    "/playoffs/{playoff_id}/pgn",
    response_class=PgnResponse,
    summary="The play-off games as PGN",
    responses={
        200: {"content": {PgnResponse.media_type: {"schema": {"type": "string"}}}},
        **_json_error_responses(*_WITH_TOKEN),
    },
)
async def get_pgn(
    playoff_id: str, request: Request, service: ServiceDep, token: TokenDep
) -> PgnResponse:
    state = _reader(service, playoff_id, token, request)
    name = service.event(state.event_id).event.name
    return PgnResponse(playoff_pgn(state, name))


@router.get(
    "/playoffs/{playoff_id}/placings", summary="Final places, prize money, points",
    response_model=PlacingsAnswer, responses=_TOKEN_ERRORS,
)
async def get_placings(
    playoff_id: str, request: Request, service: ServiceDep, token: TokenDep
) -> dict[str, Any]:
    state = _reader(service, playoff_id, token, request)
    standings = service.standings(state.event_id)
    return final_placings(standings, state.chess, state.prizes, state.points).to_json()


@router.post(
    "/playoffs/{playoff_id}/commands", status_code=201,
    summary="Any command (the same as a websocket command's payload)",
    response_model=CommandAnswer, responses=_TOKEN_ERRORS,
    openapi_extra={"parameters": [IDEMPOTENCY_KEY_PARAMETER]},
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
    schema = command.model_json_schema(ref_template=_REF)
    _COMPONENTS.update(schema.pop("$defs", {}))
    properties = schema.get("properties", {})
    body_schema = {
        **schema,
        "properties": {
            k: v for k, v in properties.items() if k not in in_path and k != "type"
        },
        "required": [k for k in schema.get("required", []) if k not in in_path and k != "type"],
    }
    parameters = [
        {"name": k, "in": "path", "required": True, "schema": properties[k]} for k in in_path
    ]

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
    path = "/playoffs/{playoff_id}" + route.path
    _VERB_ROUTES.append((router.prefix + path, route.method.lower()))
    router.add_api_route(
        path, endpoint, methods=[route.method],
        status_code=201 if route.method == "POST" else 200, summary=route.summary,
        response_model=CommandAnswer, responses=_TOKEN_ERRORS,
        openapi_extra={
            "parameters": [*parameters, IDEMPOTENCY_KEY_PARAMETER],
            "requestBody": {
                "required": bool(body_schema["required"]),
                "content": {"application/json": {"schema": body_schema}},
            },
        },
    )


async def _json_body(request: Request) -> dict[str, Any]:
    raw = await request.body()
    if not raw.strip():
        return {}
    body = load_json(_text(raw))
    if not isinstance(body, dict):
        raise RequestValidationError([{
            "loc": ("body",), "msg": "the body must be a JSON object", "type": "dict_type",
        }])
    return body


for _command in client_commands():
    if _command.route is not None:
        _route(_command, _command.route)
