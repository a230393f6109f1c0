"""Validation errors in an arbiter's words, shared by the readers of JSON documents.

A reader says what is specific to its format first (an unknown result, a board
that is not a board result) and falls back on :func:`generic_reason`. Values are
shown clipped: a refused 20 MB name must not come back as a 20 MB message.
"""

from __future__ import annotations

import json
from typing import Any

__all__ = ["clip", "generic_reason", "json_path", "show"]

_WHAT_IS_EXPECTED = {
    "string_type": "text in quotes",
    "int_type": "a whole number",
    "int_parsing": "a whole number",
    "int_from_float": "a whole number",
    "float_type": "a number",
    "float_parsing": "a number",
    "bool_type": "true or false",
    "bool_parsing": "true or false",
    "list_type": "a list [...]",
    "tuple_type": "a list [...]",
    "dict_type": "an object {...}",
    "model_type": "an object {...}",
    "model_attributes_type": "an object {...}",
}


def generic_reason(error: Any) -> str:
    """What to fix, for a pydantic error (an ``ErrorDetails``) of any field."""
    kind: str = error["type"]
    value = error.get("input")
    context = error.get("ctx") or {}
    if kind == "missing":
        return "this field is required"
    if kind in _WHAT_IS_EXPECTED:
        return f"expected {_WHAT_IS_EXPECTED[kind]}, got {show(value)}"
    if kind == "finite_number":
        return "JSON has no NaN or Infinity; write a number"
    if kind in ("greater_than_equal", "greater_than"):
        bound = context.get("ge", context.get("gt"))
        return f"must be at least {bound}, got {show(value)}"
    if kind in ("less_than_equal", "less_than"):
        bound = context.get("le", context.get("lt"))
        return f"must be at most {bound}, got {show(value)}"
    if kind == "string_too_short":
        return "must not be empty"
    if kind == "string_too_long":
        most = context.get("max_length")
        return f"must be at most {most} characters, got {len(str(value)):,}"
    if kind == "too_short":
        return (
            f"needs at least {context.get('min_length')} entries, "
            f"got {context.get('actual_length')}"
        )
    if kind == "too_long":
        return (
            f"may have at most {context.get('max_length')} entries, "
            f"got {context.get('actual_length')}"
        )
    if kind == "datetime_range":
        return (
            f"{show(value)} is out of range: give a date from {context.get('first')} "
            f"and before {context.get('last')}"
        )
    if kind.startswith("date_"):
        return f"{show(value)} is not a date; write it as ISO 8601, e.g. 2026-03-15"
    if kind.startswith("datetime"):
        return (
            f"{show(value)} is not a date and time; write it as ISO 8601 with a time zone, "
            "e.g. 2015-12-13T18:40:00Z"
        )
    if kind == "time_zone":
        return str(error["msg"])
    if kind == "string_pattern_mismatch":
        return f"{show(value)} is not written in the form expected"
    return f"{error['msg']} (got {show(value)})"


def json_path(loc: tuple[int | str, ...] | list[int | str]) -> str:
    """``("games", 3, "result")`` as ``games[3].result``."""
    path = ""
    for part in loc:
        if isinstance(part, int):
            path += f"[{part}]"
        else:
            path += f".{part}" if path else part
    return path


def show(value: object) -> str:
    """A value as JSON would write it, clipped."""
    if isinstance(value, str):
        return f"'{clip(value)}'"
    if isinstance(value, list | dict | tuple) and len(value) > 20:
        return "a list" if not isinstance(value, dict) else "an object"
    try:
        shown = json.dumps(value)
    except (TypeError, ValueError):
        try:
            shown = repr(value)
        except ValueError:  # an integer too long to write
            shown = "a number"
    return clip(shown)


def clip(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
