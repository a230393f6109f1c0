"""Errors as answered: the problem model, the responses each route declares, and
JSON bodies read strictly (422 with the JSON path, the line and the column)."""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any

from fastapi import HTTPException, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.routing import APIRoute
from pydantic import BaseModel, ConfigDict, Field

from orchestrator.core.errors import ServiceError
from orchestrator.core.languages import accepted
from orchestrator.core.refusals import RefusalKind
from playoff_formats.errors import InputError, PlayoffError
from playoff_formats.io.strict_json import load_json
from playoff_formats.speech import ENGLISH, Language, speaking

# --------------------------------------------------------------------------- errors


class Problem(BaseModel):
    """One problem with a request: where (``loc``: ``body``, ``path`` or ``query``,
    then the JSON path of the field) and why; ``line`` and ``column`` where the text
    is known to go wrong."""

    model_config = ConfigDict(extra="allow")

    loc: list[str | int]
    msg: str
    type: str
    line: int | None = None
    column: int | None = None


class ErrorBody(BaseModel):
    """Every refusal: the reason in words, or the problems with the request."""

    detail: str | list[Problem]
    kind: RefusalKind | None = Field(
        default=None,
        description="A refusal a screen tells apart: already-pressed (the press was "
        "counted already: nothing to do), too-early (a start refused until a rest or "
        "the chief arbiter's time is over)",
    )


_WHY = {
    401: "No token, or a token this service never issued",
    403: "A token without the right to do this, or one that can send commands on a hall "
         "screen",
    404: "Not this token's event or play-off: the answer says what the token opens",
    409: "Not allowed now: the reason says why",
    413: "The body is larger than the service accepts (README, Limits)",
    422: "A body, path or query that does not validate: where and why",
    429: "Too many failed attempts from this address: wait, then try again",
    503: "In the log, but not loaded at start-up: tell the service's administrator",
}


def readers_language(request: Request) -> Language:
    """The language a refusal is answered in: the first of ours its
    ``Accept-Language`` names, else English."""
    catalogs = getattr(request.app.state, "catalogs", None)
    code = accepted(request.headers.get("accept-language"))
    if catalogs is None or code is None:
        return ENGLISH
    language: Language = catalogs.language(code)
    return language


def refusal_words(request: Request, exc: ServiceError | PlayoffError) -> str:
    """A refusal's reason in the reader's language, built now (never when raised)."""
    with speaking(readers_language(request)):
        return exc.words() if isinstance(exc, ServiceError) else exc.words({})


_REF = "#/components/schemas/{model}"


def error_responses(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The OpenAPI ``responses`` of these refusals, each with :class:`ErrorBody`."""
    return {status: {"model": ErrorBody, "description": _WHY[status]} for status in statuses}


def _json_error_responses(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The same, said to be JSON outright: on a route whose answer is not JSON, a
    "model" would be described in the answer's media type."""
    schema = {"$ref": _REF.format(model=ErrorBody.__name__)}
    return {
        status: {"description": _WHY[status], "content": {"application/json": {"schema": schema}}}
        for status in statuses
    }


_WITH_TOKEN = (401, 403, 404, 409, 413, 422, 429, 503)
_TOKEN_ERRORS = error_responses(*_WITH_TOKEN)


class _StrictJsonRequest(Request):
    """A request whose JSON body is read by :func:`load_json`, refusals being 422."""

    async def json(self) -> Any:
        if not hasattr(self, "_strict_json"):
            self._strict_json = _json_value(await self.body())
        return self._strict_json


class StrictJsonRoute(APIRoute):
    """A route reading JSON bodies strictly. Refusals are raised as an
    :class:`HTTPException`, which FastAPI's body reading passes on as it is (any
    other error there would become a bare 400)."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        declared = {
            param.alias for param in self.dependant.query_params
        } | {param.alias for dep in self.dependant.dependencies for param in dep.query_params}

        async def strict(request: Request) -> Response:
            # A query parameter the route does not take is refused, as the description
            # says (rather than ignored: a misspelt option would silently not apply).
            unknown = sorted(set(request.query_params) - declared)
            if unknown:
                raise RequestValidationError([{
                    "loc": ("query", unknown[0]), "msg": "this address takes no such parameter",
                    "type": "extra_forbidden", "input": request.query_params[unknown[0]],
                }])
            return await handler(_StrictJsonRequest(request.scope, request.receive))

        return strict


def _json_value(raw: bytes) -> Any:
    try:
        return load_json(_text(raw))
    except InputError as exc:
        raise HTTPException(status_code=422, detail=problems(exc)) from None


def _text(raw: bytes) -> str:
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputError(f"the body is not UTF-8 text (byte {exc.start})") from None


def problems(exc: InputError) -> list[dict[str, Any]]:
    """An :class:`InputError` as the ``detail`` of a 422 answer."""
    return [{
        "loc": ["body", *_path_parts(exc.path)],
        "msg": exc.reason,
        "type": "input_error",
        "line": exc.line,
        "column": exc.column,
    }]


def _path_parts(path: str | None) -> list[str | int]:
    if not path:
        return []
    parts: list[str | int] = []
    for piece in path.replace("]", "").replace("[", ".").split("."):
        if piece:
            parts.append(int(piece) if piece.isdigit() else piece)
    return parts

