"""What a refused input is told, in people's words: the field by its name, never a
JSON path, a regular expression or a type name of the code.

The API's 422 keeps its machine-readable ``detail`` (each error's ``loc``); each
error also carries ``message``, and the websocket, the consoles and
``playoff-arbiter`` show that.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from pydantic import ValidationError

__all__ = ["error_words", "validation_words"]

_GENERIC = {
    "missing": "is missing",
    "extra_forbidden": "is not something this accepts",
    "string_pattern_mismatch": "is not written in the form expected",
    "int_parsing": "must be a whole number",
    "int_type": "must be a whole number",
    "float_parsing": "must be a number",
    "bool_type": "must be true or false",
    "bool_parsing": "must be true or false",
    "datetime_parsing": "must be a date and time, such as 2026-12-01T21:30:00+05:00",
    "datetime_type": "must be a date and time, such as 2026-12-01T21:30:00+05:00",
    "timezone_aware": "must say its time zone, such as 2026-12-01T21:30:00+05:00",
    "json_invalid": "is not valid JSON",
}


def _field(loc: Iterable[Any], skip: frozenset[str]) -> str:
    """The field's name as people say it: its own name, not the path to it."""
    names = [str(p) for p in loc if isinstance(p, str) and p not in skip]
    if not names:
        return ""
    return names[-1].replace("_", " ").replace("-", " ")


def error_words(error: Mapping[str, Any], skip: Iterable[str] = ()) -> str:
    """One pydantic error as a sentence: "result must be one of 1-0, 0-1, …"."""
    kind = str(error.get("type", ""))
    ctx = error.get("ctx") or {}
    field = _field(error.get("loc", ()), frozenset(skip) | {"body", "query", "path"})
    if kind == "union_tag_invalid":
        return f"there is no command {ctx.get('tag')!r}"
    if kind == "union_tag_not_found":
        return "say which command this is (its type)"
    if kind in ("enum", "literal_error"):
        said = str(ctx.get("expected", "")).replace("'", "")
        what = f"must be one of {said}"
    elif kind == "string_too_short":
        what = f"needs at least {ctx.get('min_length')} characters"
    elif kind == "string_too_long":
        what = f"may have at most {ctx.get('max_length')} characters"
    elif kind in ("greater_than_equal", "greater_than", "less_than_equal", "less_than"):
        bound = {"greater_than_equal": "at least", "greater_than": "more than",
                 "less_than_equal": "at most", "less_than": "less than"}[kind]
        limit = next(iter(v for k, v in ctx.items() if k in ("ge", "gt", "le", "lt")), "")
        what = f"must be {bound} {limit}"
    elif kind == "value_error":
        what = str(error.get("msg", "")).removeprefix("Value error, ")
        return f"{field}: {what}" if field else what
    elif kind in _GENERIC:
        what = _GENERIC[kind]
    else:  # a message of the project's own validators: a sentence of its own
        said = str(error.get("msg", "is not valid"))
        return f"{field}: {said}" if field else said
    where = []
    for key in ("line", "column"):
        if key in ctx:
            where.append(f"{key} {ctx[key]}")
    suffix = f" ({', '.join(where)})" if where else ""
    return (f"{field} {what}" if field else what) + suffix


def validation_words(exc: ValidationError, *, tagged: bool = False) -> str:
    """A refused input's errors in words, the first few, joined. ``tagged``: the
    input is one of a tagged union (a command), whose type heads every path."""
    errors = exc.errors(include_url=False)
    if tagged:
        errors = [{**e, "loc": tuple(e["loc"])[1:]} for e in errors]
    said = [error_words(e) for e in errors[:3]]
    more = len(errors) - len(said)
    return "; ".join(said) + (f"; and {more} more" if more > 0 else "")
