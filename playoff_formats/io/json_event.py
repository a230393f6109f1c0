"""Reader of the JSON event format (DESIGN.md, "Interchange formats").

Text in, objects out. Every refusal is an :class:`InputError`: invalid JSON
names its line and column; a document that does not fit the format names the
JSON path of the first problem (``games[3].result``) and says what to write.

* :func:`parse_json_event` reads an individual event (``"kind": "individual"``,
  the default when ``kind`` is absent).
* :func:`parse_event` reads any event, dispatching on ``kind``.
* :func:`load_event` chooses TRF or JSON by the file name, or by the text.
* :func:`event_json_schema` gives the JSON Schema of the individual event format.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, NoReturn

from pydantic import BaseModel, Field, TypeAdapter, ValidationError
from pydantic_core import ErrorDetails

from playoff_formats.errors import InputError
from playoff_formats.io.reasons import clip, generic_reason, json_path, show
from playoff_formats.io.strict_json import load_json
from playoff_formats.io.team_json import parse_team_event
from playoff_formats.io.trf import parse_trf
from playoff_formats.io.validation import check_regulation_kind, find_event_problem
from playoff_formats.model import (
    Bye,
    ByeKind,
    Event,
    Game,
    IndividualEvent,
    Player,
    Result,
    TeamEvent,
    stored_context,
)

__all__ = ["event_json_schema", "load_event", "parse_event", "parse_json_event"]

_TRF_EXTENSIONS = (".trf", ".trfx", ".txt")
_JSON_EXTENSIONS = (".json",)
_KINDS = ("individual", "team")


def parse_json_event(text: str, source: str | None = None) -> IndividualEvent:
    """Read an individual event from the JSON format.

    Refuses, with a JSON path and a reason: a value of the wrong type or form, a
    duplicate player id, a game or bye naming an unknown player, a player paired
    with himself or twice in one round, an ``ended_at`` without a time zone, and
    a ``regulation`` that ranks team events. A team event is refused with a
    pointer to :func:`parse_event`.
    """
    text = _without_bom(text)
    data = _load_object(text, source)
    kind = _kind_of(data, source)
    if kind == "team":
        raise InputError(
            'this is a team event ("kind": "team"); team events are handled by parse_event, '
            "not by the individual-event reader",
            source=source,
            path="kind",
        )
    return _individual_event(text, source)


def parse_event(
    text: str, source: str | None = None, *, check_regulation: bool = True
) -> Event:
    """Read an event of any kind from the JSON format, dispatching on ``kind``.

    A ``regulation`` that ranks another kind of event (county1980 for an
    individual event, gct2015 for a team event, a chess regulation for bridge
    matches) is refused at path ``regulation``.

    ``check_regulation=False`` is for re-reading an event already stored: a log
    written before a check must still load, whatever its events name. It skips
    that check and waives the bounds on sizes, numbers and dates that hold for
    what enters (:mod:`playoff_formats.model`).
    """
    text = _without_bom(text)
    stored = not check_regulation
    data = _load_object(text, source, stored=stored)
    kind = _kind_of(data, source)
    if kind == "team":
        event = parse_team_event(data, text, source, stored=stored)
        if check_regulation:
            check_regulation_kind(event, source, named="regulation" in data)
        return event
    return _individual_event(text, source, check_regulation=check_regulation)


def load_event(text: str, filename: str) -> Event:
    """Read an event from a file's text, choosing the format by ``filename``.

    ``.trf``, ``.trfx`` and ``.txt`` are read as FIDE TRF and ``.json`` as the JSON
    event format (case-insensitive). Any other name is decided by the text: JSON
    when its first non-blank character is ``{``, TRF otherwise. ``filename`` is
    only used for this choice and in error messages; nothing is read from disk.
    """
    lowered = filename.lower()
    if lowered.endswith(_TRF_EXTENSIONS):
        return parse_trf(text, filename)
    if lowered.endswith(_JSON_EXTENSIONS):
        return parse_event(text, filename)
    if text.lstrip("\ufeff \t\r\n").startswith("{"):
        return parse_event(text, filename)
    return parse_trf(text, filename)


def event_json_schema(ref_template: str = "#/$defs/{model}") -> dict[str, Any]:
    """The JSON Schema of the event format: individual or team, told apart by ``kind``.

    ``ref_template`` places the definitions elsewhere (an OpenAPI document's
    ``#/components/schemas/{model}``); they stay under ``$defs`` for the caller to move.
    """
    adapter: TypeAdapter[Event] = TypeAdapter(
        Annotated[IndividualEvent | TeamEvent, Field(discriminator="kind")]
    )
    schema = adapter.json_schema(ref_template=ref_template)
    schema["title"] = "Event"
    return schema


# --------------------------------------------------------------------------- internals


def _without_bom(text: str) -> str:
    return text[1:] if text.startswith("\ufeff") else text


def _load_object(text: str, source: str | None, *, stored: bool = False) -> dict[str, Any]:
    """Parse the JSON strictly (:mod:`.strict_json`), for the place of every refusal."""
    data = load_json(text, source, bounded=not stored)
    if not isinstance(data, dict):
        raise InputError(
            f"an event must be a JSON object {{...}}, not {_json_type(data)}", source=source
        )
    return data


def _kind_of(data: dict[str, Any], source: str | None) -> str:
    kind = data.get("kind", "individual")
    if kind not in _KINDS:
        raise InputError(
            f'{show(kind)} is not a kind of event; use "individual" or "team"',
            source=source,
            path="kind",
        )
    return str(kind)


def _individual_event(
    text: str, source: str | None, *, check_regulation: bool = True
) -> IndividualEvent:
    # Strict JSON validation: numbers must be numbers and times must be ISO 8601 text.
    context = None if check_regulation else stored_context()
    try:
        event = IndividualEvent.model_validate_json(text, strict=True, context=context)
    except ValidationError as error:
        _refuse_validation(error, source)
    problem = find_event_problem(event)
    if problem is not None:
        raise InputError(problem.reason, source=source, path=problem.path)
    if check_regulation:
        check_regulation_kind(event, source)
    return event


def _refuse_validation(error: ValidationError, source: str | None) -> NoReturn:
    errors = error.errors(include_url=False)
    first = errors[0]
    if first["type"] == "json_invalid":
        detail = str((first.get("ctx") or {}).get("error", first["msg"]))
        where = _AT_LINE.search(detail)
        raise InputError(
            f"not valid JSON: {_AT_LINE.sub('', detail)}",
            source=source,
            line=int(where.group(1)) if where else None,
            column=int(where.group(2)) if where else None,
        ) from None
    reason = _reason(first)
    if len(errors) > 1:
        more = len(errors) - 1
        reason += f" (and {more} more problem{'s' if more != 1 else ''})"
    raise InputError(reason, source=source, path=json_path(first["loc"]) or None) from None


_AT_LINE = re.compile(r" at line ([0-9]+) column ([0-9]+)")
_MODEL_AT: dict[str, type[BaseModel]] = {"players": Player, "games": Game, "byes": Bye}
_RESULTS = ", ".join(r.value for r in Result)
_BYE_KINDS = ", ".join(k.value for k in ByeKind)


def _model_at(loc: tuple[int | str, ...]) -> type[BaseModel]:
    if len(loc) >= 2 and isinstance(loc[0], str) and isinstance(loc[1], int):
        return _MODEL_AT.get(loc[0], IndividualEvent)
    return IndividualEvent


def _reason(error: ErrorDetails) -> str:
    kind = error["type"]
    loc = error["loc"]
    value = error.get("input")
    field = loc[-1] if loc else ""
    if kind == "extra_forbidden":
        allowed = ", ".join(_model_at(loc[:-1]).model_fields)
        return f"unknown field '{clip(str(field))}'; the fields here are {allowed}"
    if kind == "enum" and field == "result" and value == "*":
        return (
            "this game is not finished (\"*\"): standings are final only when every game "
            "has its result; 'playoff foresight' looks at the outcomes still open"
        )
    if kind == "enum" and field == "result":
        return f"{show(value)} is not a result; use one of {_RESULTS}"
    if kind == "enum" and field == "kind":
        return f"{show(value)} is not a kind of bye; use one of {_BYE_KINDS}"
    return generic_reason(error)


def _json_type(value: object) -> str:
    if isinstance(value, list):
        return "a list"
    if isinstance(value, str):
        return "text"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    return "a number"
