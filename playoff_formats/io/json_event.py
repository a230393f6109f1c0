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

import json
import re
from typing import Annotated, Any, NoReturn

from pydantic import BaseModel, Field, TypeAdapter, ValidationError
from pydantic_core import ErrorDetails

from playoff_formats.errors import InputError
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
    matches) is refused at path ``regulation``. ``check_regulation=False`` skips
    that check, for re-reading an event already stored: a log written before the
    check must still load, whatever its events name.
    """
    text = _without_bom(text)
    data = _load_object(text, source)
    kind = _kind_of(data, source)
    if kind == "team":
        event = parse_team_event(data, text, source)
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


def event_json_schema() -> dict[str, Any]:
    """The JSON Schema of the event format: individual or team, told apart by ``kind``."""
    adapter: TypeAdapter[Event] = TypeAdapter(
        Annotated[IndividualEvent | TeamEvent, Field(discriminator="kind")]
    )
    schema = adapter.json_schema()
    schema["title"] = "Event"
    return schema


# --------------------------------------------------------------------------- internals


class _DuplicateKeyError(Exception):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _refuse_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise _DuplicateKeyError(key)
        result[key] = value
    return result


def _without_bom(text: str) -> str:
    return text[1:] if text.startswith("\ufeff") else text


def _load_object(text: str, source: str | None) -> dict[str, Any]:
    """Parse the JSON with the standard library, for its line and column on errors."""
    try:
        data = json.loads(text, object_pairs_hook=_refuse_duplicates)
    except json.JSONDecodeError as error:
        raise InputError(
            f"not valid JSON: {error.msg}", source=source, line=error.lineno, column=error.colno
        ) from None
    except _DuplicateKeyError as error:
        raise InputError(
            f"the key '{_clip(error.key)}' appears twice in one object; keep only one",
            source=source,
        ) from None
    except RecursionError:
        raise InputError("not valid JSON: nested too deeply", source=source) from None
    except ValueError as error:  # for example an integer with too many digits
        raise InputError(f"not valid JSON: {error}", source=source) from None
    if not isinstance(data, dict):
        raise InputError(
            f"an event must be a JSON object {{...}}, not {_json_type(data)}", source=source
        )
    return data


def _kind_of(data: dict[str, Any], source: str | None) -> str:
    kind = data.get("kind", "individual")
    if kind not in _KINDS:
        raise InputError(
            f'{_show(kind)} is not a kind of event; use "individual" or "team"',
            source=source,
            path="kind",
        )
    return str(kind)


def _individual_event(
    text: str, source: str | None, *, check_regulation: bool = True
) -> IndividualEvent:
    # Strict JSON validation: numbers must be numbers and times must be ISO 8601 text.
    try:
        event = IndividualEvent.model_validate_json(text, strict=True)
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
    raise InputError(reason, source=source, path=_path(first["loc"]) or None) from None


def _path(loc: tuple[int | str, ...]) -> str:
    path = ""
    for part in loc:
        if isinstance(part, int):
            path += f"[{part}]"
        else:
            path += f".{part}" if path else part
    return path


_AT_LINE = re.compile(r" at line ([0-9]+) column ([0-9]+)")
_MODEL_AT: dict[str, type[BaseModel]] = {"players": Player, "games": Game, "byes": Bye}
_RESULTS = ", ".join(r.value for r in Result)
_BYE_KINDS = ", ".join(k.value for k in ByeKind)
_WHAT_IS_EXPECTED = {
    "string_type": "text in quotes",
    "int_type": "a whole number",
    "int_parsing": "a whole number",
    "int_from_float": "a whole number",
    "bool_type": "true or false",
    "bool_parsing": "true or false",
    "list_type": "a list [...]",
    "dict_type": "an object {...}",
    "model_type": "an object {...}",
    "model_attributes_type": "an object {...}",
}


def _model_at(loc: tuple[int | str, ...]) -> type[BaseModel]:
    if len(loc) >= 2 and isinstance(loc[0], str) and isinstance(loc[1], int):
        return _MODEL_AT.get(loc[0], IndividualEvent)
    return IndividualEvent


def _reason(error: ErrorDetails) -> str:
    kind = error["type"]
    loc = error["loc"]
    value = error.get("input")
    field = loc[-1] if loc else ""
    context = error.get("ctx") or {}
    if kind == "missing":
        return "this field is required"
    if kind == "extra_forbidden":
        allowed = ", ".join(_model_at(loc[:-1]).model_fields)
        return f"unknown field '{_clip(str(field))}'; the fields here are {allowed}"
    if kind == "enum" and field == "result":
        return f"{_show(value)} is not a result; use one of {_RESULTS}"
    if kind == "enum" and field == "kind":
        return f"{_show(value)} is not a kind of bye; use one of {_BYE_KINDS}"
    if kind in _WHAT_IS_EXPECTED:
        return f"expected {_WHAT_IS_EXPECTED[kind]}, got {_show(value)}"
    if kind in ("greater_than_equal", "greater_than"):
        bound = context.get("ge", context.get("gt"))
        return f"must be at least {bound}, got {_show(value)}"
    if kind == "string_too_short":
        return "must not be empty"
    if kind == "too_short":
        return (
            f"needs at least {context.get('min_length')} entries, "
            f"got {context.get('actual_length')}"
        )
    if kind.startswith("datetime") or kind.startswith("date_"):
        return (
            f"{_show(value)} is not a date and time; write it as ISO 8601 with a time zone, "
            "e.g. 2015-12-13T18:40:00Z"
        )
    return f"{error['msg']} (got {_show(value)})"


def _json_type(value: object) -> str:
    if isinstance(value, list):
        return "a list"
    if isinstance(value, str):
        return "text"
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    return "a number"


def _show(value: object) -> str:
    if isinstance(value, str):
        return f"'{_clip(value)}'"
    try:
        shown = json.dumps(value)
    except (TypeError, ValueError):
        shown = repr(value)
    return _clip(shown)


def _clip(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
