"""JSON as RFC 8259 has it, refused with the JSON path and the line and column.

Python's :func:`json.loads` reads ``NaN`` and ``Infinity`` (which no JSON reader
elsewhere accepts, and which cannot be written back), lets a repeated key win
silently, turns ``1e400`` into infinity, and refuses 5000-digit integers or
deeply nested text without saying where. :func:`load_json` refuses each of these
with an :class:`InputError` that says where, so that any reader of documents
(event files, API bodies) reports them the same way.
"""

from __future__ import annotations

import json
import math
import re
import sys
from dataclasses import dataclass
from functools import partial
from itertools import accumulate
from typing import Any

from playoff_formats.errors import InputError

__all__ = ["MAX_DEPTH", "MAX_NUMBER_LENGTH", "JsonProblem", "find_json_problem", "load_json"]

MAX_DEPTH = 32
"""Objects and lists nested deeper than this are refused (an event needs four levels)."""

MAX_NUMBER_LENGTH = 40
"""Number literals longer than this many characters are refused."""

_NOT_JSON = "not valid JSON: "
_PYTHON_DIGITS = sys.get_int_max_str_digits() or sys.maxsize


@dataclass(frozen=True)
class JsonProblem:
    """Where a JSON text goes wrong (0-based ``offset``, JSON ``path``) and why."""

    reason: str
    offset: int
    path: str

    def position(self, text: str) -> tuple[int, int]:
        """The 1-based line and column of :attr:`offset` in ``text``, as :mod:`json` counts."""
        line = text.count("\n", 0, self.offset) + 1
        column = self.offset - text.rfind("\n", 0, self.offset)
        return line, column


def load_json(text: str, source: str | None = None, *, bounded: bool = True) -> Any:
    """The value of the JSON ``text``; :class:`InputError` with a place and a reason if refused.

    A syntax error gives its line and column; a ``NaN`` or ``Infinity``, a number
    too long (:data:`MAX_NUMBER_LENGTH`) or too large for a float, a key repeated
    in one object, nesting deeper than :data:`MAX_DEPTH`, or half a surrogate pair
    (text that cannot be written back as UTF-8) also give the JSON path.
    ``bounded=False`` lets long numbers through, for reading back what a looser
    reader once accepted.
    """
    refused = False
    data: Any = None
    longest = MAX_NUMBER_LENGTH if bounded else None
    try:
        data = json.loads(
            text,
            object_pairs_hook=_pairs,
            parse_constant=_constant,
            parse_float=partial(_float, longest=longest),
            parse_int=partial(_int, longest=longest),
        )
    except json.JSONDecodeError as error:
        raise InputError(
            f"not valid JSON: {error.msg}", source=source, line=error.lineno, column=error.colno
        ) from None
    except (_Refused, RecursionError, ValueError):
        refused = True
    if not refused and not _deeper_than(text, MAX_DEPTH) and not _SURROGATE.search(text):
        return data
    problem = find_json_problem(text, longest=longest)
    if problem is not None:
        line, column = problem.position(text)
        raise InputError(
            problem.reason, source=source, line=line, column=column, path=problem.path or None
        )
    if refused:  # pragma: no cover - the scan finds every refusal of the hooks
        raise InputError("not valid JSON", source=source)
    return data


_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKET = re.compile(r"[\[\]{}]")
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}
# A \uD800-\uDFFF escape: a surrogate, which is text only as half of a correct pair.
_SURROGATE = re.compile(r"\\u[dD][89a-fA-F]")


def _deeper_than(text: str, limit: int) -> bool:
    """Whether valid JSON ``text`` nests more than ``limit`` levels (fast: no scan in Python)."""
    if text.count("[") + text.count("{") <= limit:
        return False
    steps = map(_STEP.__getitem__, _BRACKET.findall(_STRING.sub("", text)))
    return max(accumulate(steps), default=0) > limit


# --------------------------------------------------------------------------- parsing hooks


class _Refused(Exception):
    """Raised by a hook; the scan then says where and why."""


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result = dict(pairs)
    if len(result) != len(pairs):
        raise _Refused
    return result


def _constant(name: str) -> Any:
    raise _Refused


def _float(literal: str, longest: int | None) -> float:
    value = float(literal)
    if (longest is not None and len(literal) > longest) or not math.isfinite(value):
        raise _Refused
    return value


def _int(literal: str, longest: int | None) -> int:
    if longest is not None and len(literal) > longest:
        raise _Refused
    return int(literal)


# --------------------------------------------------------------------------- the scan

# One token after optional white space: a string's opening quote, a word (true,
# NaN, -Infinity...), a number, or punctuation. Anything else ends the scan: the
# syntax error is then json's to report.
_TOKEN = re.compile(r'[ \t\n\r]*(?:(")|(-?[A-Za-z]+)|([-0-9][-+.eE0-9]*)|([{}\[\]:,]))')
_STRING_REST = re.compile(r'(?:[^"\\]|\\.)*"', re.DOTALL)
_WORDS = ("true", "false", "null")


@dataclass
class _Frame:
    """An object or list being read: its keys seen (objects) or the index (lists)."""

    is_object: bool
    keys: dict[str, int]
    key: str | None = None
    index: int = 0
    expecting_key: bool = True


def find_json_problem(
    text: str, *, longest: int | None = MAX_NUMBER_LENGTH
) -> JsonProblem | None:
    """The first thing in ``text``, in reading order, that :func:`load_json` refuses
    beyond plain syntax; ``None`` if there is none (syntax errors are not looked for).
    ``longest``: the most characters of a number (``None``: any)."""
    stack: list[_Frame] = []
    pos = 0
    size = len(text)
    while pos < size:
        match = _TOKEN.match(text, pos)
        if match is None:
            return None
        quote, word, number, punctuation = match.groups()
        start = match.start(match.lastindex or 0)
        pos = match.end()
        top = stack[-1] if stack else None
        if quote:
            rest = _STRING_REST.match(text, pos)
            if rest is None:
                return None
            pos = rest.end()
            if "\\u" in text[start:pos] and _lone_surrogate(text[start:pos]):
                return JsonProblem(
                    f"{_NOT_JSON}text with half of a UTF-16 surrogate pair (a \\uD800-\\uDFFF "
                    "escape alone); write the character itself",
                    start,
                    _path(stack),
                )
            if top is not None and top.is_object and top.expecting_key:
                key = _key(text[start:pos])
                if key is None:
                    return None
                if key in top.keys:
                    top.key = key
                    return JsonProblem(
                        f"the key '{_clip(key)}' appears twice in one object "
                        f"(first at {_where(text, top.keys[key])}); keep only one",
                        start,
                        _path(stack),
                    )
                top.keys[key] = start
                top.key = key
                top.expecting_key = False
        elif word:
            if word not in _WORDS:
                if word in ("NaN", "Infinity", "-Infinity"):
                    return JsonProblem(
                        f"{_NOT_JSON}{word} is not a number in JSON; write a number",
                        start,
                        _path(stack),
                    )
                return None
        elif number:
            problem = _number_problem(number, longest)
            if problem is not None:
                return JsonProblem(problem, start, _path(stack))
        elif punctuation in "{[":
            if len(stack) >= MAX_DEPTH:
                return JsonProblem(
                    f"{_NOT_JSON}nested more than {MAX_DEPTH} levels deep", start, _path(stack)
                )
            stack.append(_Frame(is_object=punctuation == "{", keys={}))
        elif punctuation in "}]":
            if not stack:
                return None
            stack.pop()
        elif punctuation == "," and top is not None:
            if top.is_object:
                top.expecting_key = True
                top.key = None
            else:
                top.index += 1
    return None


def _number_problem(literal: str, longest: int | None) -> str | None:
    if longest is not None and len(literal) > longest:
        return (
            f"{_NOT_JSON}a number written with {len(literal):,} characters; "
            f"numbers have at most {longest}"
        )
    if len(literal) > _PYTHON_DIGITS:
        return f"{_NOT_JSON}a number written with {len(literal):,} characters is too long"
    if any(c in literal for c in ".eE"):
        try:
            value = float(literal)
        except ValueError:
            return None
        if not math.isfinite(value):
            return f"{_NOT_JSON}{literal} is too large for a number"
    return None


def _key(token: str) -> str | None:
    if "\\" not in token:
        return token[1:-1]
    try:
        key = json.loads(token)
    except ValueError:
        return None
    return key if isinstance(key, str) else None


def _lone_surrogate(token: str) -> bool:
    try:
        value = json.loads(token)
    except ValueError:
        return False
    if not isinstance(value, str):
        return False
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def _path(stack: list[_Frame]) -> str:
    path = ""
    for frame in stack:
        if frame.is_object:
            if frame.key is None:
                break
            path += f".{frame.key}" if path else frame.key
        else:
            path += f"[{frame.index}]"
    return path


def _where(text: str, offset: int) -> str:
    line, column = JsonProblem("", offset, "").position(text)
    return f"line {line}, column {column}"


def _clip(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
