"""An organiser's own play-off format, read from a TOML or JSON document.

The document is a :class:`~playoff_formats.formats.model.PlayoffFormat` written
out: time controls as text (``"G/10+5"``, ``"W 5' / B 4', +2 s"``), breaks in
minutes. For example, two games at G/10+5, then an Armageddon 5'/4' with 2
seconds a move from move 1, for any number of tied players (a seeded
knock-out)::

    name = "club-blitz-2026"
    title = "Club blitz play-off"

    [[matches]]
    name = "blitz"
    stages = [{ name = "Blitz", games = 2, time_control = "G/10+5" }]
    decider = { kind = "armageddon", time_control = "W 5' / B 4', +2 s" }

    [[knockouts]]
    players_from = 2
    name = "Club play-off ({n} players)"
    plays = "blitz"

Anything that cannot be accepted is refused whole with an
:class:`~playoff_formats.errors.InputError` that says where (the line and column
of a syntax error, else the path of the value, ``matches[0].decider.time_control``)
and why.
"""

from __future__ import annotations

import json
import re
from typing import Any

from pydantic import ValidationError

from playoff_formats.errors import InputError
from playoff_formats.formats.model import PlayoffFormat
from playoff_formats.io.toml_text import load_toml

__all__ = ["format_from_document", "format_from_text", "playoff_format_schema"]

_PATH = re.compile(r"[a-z_]+(?:\[\d+\])?(?:\.[a-z_]+(?:\[\d+\])?)*")
_DECIDER_KINDS = frozenset({"armageddon", "sudden-death", "lot"})


def format_from_text(text: str, filename: str) -> PlayoffFormat:
    """The format a ``.toml`` or ``.json`` document describes (``filename`` chooses
    the syntax and names the file in messages)."""
    lowered = filename.lower()
    document: Any
    if lowered.endswith(".toml"):
        document = load_toml(text, filename)
    elif lowered.endswith(".json"):
        try:
            document = json.loads(text)
        except json.JSONDecodeError as error:
            raise InputError(
                f"JSON syntax: {error.msg}", source=filename, line=error.lineno,
                column=error.colno,
            ) from None
    else:
        raise InputError("a play-off format must be a .toml or a .json file", source=filename)
    return format_from_document(document, filename)


def format_from_document(document: object, source: str, at: str = "") -> PlayoffFormat:
    """The format a parsed document describes; ``at`` is the path of the document
    inside a larger one (``playoff`` in a regulation file)."""
    if not isinstance(document, dict):
        raise InputError("a play-off format is a table of keys", source=source, path=at or None)
    try:
        return PlayoffFormat.model_validate(document)
    except ValidationError as error:
        first = error.errors(include_url=False)[0]
        path = _path(first["loc"], at)
        reason = str(first["msg"]).removeprefix("Value error, ")
        where, sep, why = reason.partition(": ")
        if sep and not first["loc"] and _PATH.fullmatch(where):
            path, reason = (f"{at}.{where}" if at else where), why
        if first["type"] == "extra_forbidden":
            reason = f"unknown key {first['loc'][-1]!r}"
        elif first["type"] == "missing":
            reason = f"missing {first['loc'][-1]!r}"
        raise InputError(reason, source=source, path=path or None) from None


def _path(loc: tuple[int | str, ...], at: str) -> str:
    parts: list[str] = [at] if at else []
    previous: int | str | None = None
    for item in loc:
        if isinstance(item, int):
            parts[-1:] = [f"{parts[-1] if parts else ''}[{item}]"]
        elif previous == "decider" and item in _DECIDER_KINDS:
            pass  # the union's tag, not a key of the document
        else:
            parts.append(item)
        previous = item
    return ".".join(parts)


def playoff_format_schema() -> dict[str, Any]:
    """The JSON Schema of a play-off format document."""
    schema = PlayoffFormat.model_json_schema()
    schema["title"] = "Play-off format"
    return schema
