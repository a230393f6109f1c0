"""Custom regulations: an ordered list of FIDE C.07 tie-break codes, read from text.

A custom regulation is a small TOML or JSON document, chosen by the file name::

    name = "club-open-2026"
    title = "Club Open 2026"
    criteria = ["DE", "WIN", "BH-C1", "BH", "SB"]
    playoff_for_first = false

Keys: ``name`` and ``criteria`` are required; ``title`` (default: the name),
``playoff_for_first`` (default false), ``pairing`` (``"swiss"``, the default,
or ``"round-robin"``: how unplayed rounds count, see
:mod:`playoff_formats.tiebreaks.fide`), ``playoff_rule`` and ``unresolved``
(the sentences of :class:`CriteriaRegulation`) are optional. Codes are those of
:data:`playoff_formats.tiebreaks.fide.CODES`, in any case; the trace labels
each step with the code. Anything else is refused with an :class:`InputError`
saying where.
"""

from __future__ import annotations

import json
import re
import tomllib
from typing import Any

from playoff_formats.errors import InputError
from playoff_formats.regulations.base import CriteriaRegulation
from playoff_formats.tiebreaks.core import LabelledCriterion
from playoff_formats.tiebreaks.fide import (
    CODES,
    NOT_FOR_ROUND_ROBINS,
    PAIRINGS,
    REPEATABLE,
    Pairing,
    fide_criteria,
)

_REQUIRED = ("name", "criteria")
_OPTIONAL = ("title", "playoff_for_first", "pairing", "playoff_rule", "unresolved")
_TOML_AT = re.compile(r"\s*\(at line (\d+), column (\d+)\)$")
_TOML_AT_END = re.compile(r"\s*\(at end of document\)$")


def regulation_from_text(text: str, filename: str) -> CriteriaRegulation:
    """The regulation a ``.toml`` or ``.json`` document describes.

    ``filename`` chooses the syntax and names the file in error messages.
    Raises :class:`InputError` for anything that cannot be accepted.
    """
    document = _parse(text, filename)
    return _regulation(document, filename)


def _parse(text: str, filename: str) -> dict[str, Any]:
    lowered = filename.lower()
    if lowered.endswith(".toml"):
        return _parse_toml(text, filename)
    if lowered.endswith(".json"):
        return _parse_json(text, filename)
    raise InputError("a custom regulation must be a .toml or a .json file", source=filename)


def _parse_toml(text: str, filename: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        message = str(error)
        at = _TOML_AT.search(message)
        if at:
            raise InputError(
                f"TOML syntax: {message[: at.start()]}",
                source=filename,
                line=int(at.group(1)),
                column=int(at.group(2)),
            ) from None
        at_end = _TOML_AT_END.search(message)
        if at_end:
            lines = text.split("\n")
            raise InputError(
                f"TOML syntax: {message[: at_end.start()]} at the end of the file",
                source=filename,
                line=len(lines),
                column=len(lines[-1]) + 1,
            ) from None
        raise InputError(f"TOML syntax: {message}", source=filename) from None


def _parse_json(text: str, filename: str) -> dict[str, Any]:
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        raise InputError(
            f"JSON syntax: {error.msg}", source=filename, line=error.lineno, column=error.colno
        ) from None
    if not isinstance(document, dict):
        raise InputError(f"a regulation is a JSON object, not {_kind(document)}", source=filename)
    return document


def _regulation(document: dict[str, Any], filename: str) -> CriteriaRegulation:
    for key in document:
        if key not in _REQUIRED and key not in _OPTIONAL:
            known = ", ".join((*_REQUIRED, *_OPTIONAL))
            raise InputError(f"unknown key {key!r}; known keys: {known}", source=filename, path=key)
    for key in _REQUIRED:
        if key not in document:
            raise InputError(f"missing {key!r}", source=filename, path=key)

    name = _text(document, "name", filename)
    title = _text(document, "title", filename) if "title" in document else name
    playoff_for_first = document.get("playoff_for_first", False)
    if not isinstance(playoff_for_first, bool):
        raise InputError(
            f"must be true or false, not {_kind(playoff_for_first)}",
            source=filename,
            path="playoff_for_first",
        )
    pairing = _pairing(document.get("pairing", "swiss"), filename)
    extra: dict[str, str] = {
        key: _text(document, key, filename)
        for key in ("playoff_rule", "unresolved")
        if key in document
    }
    return CriteriaRegulation(
        name=name,
        title=title,
        criteria=_criteria(document["criteria"], pairing, filename),
        playoff_for_first=playoff_for_first,
        **extra,
    )


def _criteria(entries: object, pairing: Pairing, filename: str) -> tuple[LabelledCriterion, ...]:
    if not isinstance(entries, list):
        raise InputError(
            f"must be a list of tie-break codes, not {_kind(entries)}",
            source=filename,
            path="criteria",
        )
    if not entries:
        raise InputError("names no tie-break", source=filename, path="criteria")
    factories = fide_criteria(pairing)
    seen: dict[str, int] = {}
    labelled: list[LabelledCriterion] = []
    for position, entry in enumerate(entries):
        path = f"criteria[{position}]"
        if not isinstance(entry, str):
            raise InputError(
                f"must be a tie-break code, not {_kind(entry)}", source=filename, path=path
            )
        code = entry.strip().upper()
        if code not in factories:
            raise InputError(
                f"unknown tie-break code {entry!r}; known codes: {', '.join(CODES)}",
                source=filename,
                path=path,
            )
        if code in seen and code not in REPEATABLE:
            raise InputError(
                f"{code} is already listed at criteria[{seen[code]}]; only "
                f"{', '.join(sorted(REPEATABLE))} may be listed more than once "
                "(FIDE C.07 Art. 4.3)",
                source=filename,
                path=path,
            )
        if pairing == "round-robin" and code in NOT_FOR_ROUND_ROBINS:
            raise InputError(
                f"{code} must not be used in a round robin (FIDE C.07 Art. 8, note)",
                source=filename,
                path=path,
            )
        seen.setdefault(code, position)
        labelled.append(LabelledCriterion(code, factories[code]()))
    return tuple(labelled)


def _pairing(value: object, filename: str) -> Pairing:
    for pairing in PAIRINGS:
        if value == pairing:
            return pairing
    choices = " or ".join(repr(p) for p in PAIRINGS)
    raise InputError(f"must be {choices}, not {value!r}", source=filename, path="pairing")


def _text(document: dict[str, Any], key: str, filename: str) -> str:
    value = document[key]
    if not isinstance(value, str):
        raise InputError(f"must be a string, not {_kind(value)}", source=filename, path=key)
    if not value.strip():
        raise InputError("must not be empty", source=filename, path=key)
    return value.strip()


def _kind(value: object) -> str:
    """How a parsed value reads in a message: ``a number``, ``a list``..."""
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, int | float):
        return f"the number {value}"
    if isinstance(value, str):
        return f"the string {value!r}"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a table"
    if value is None:
        return "null"
    return type(value).__name__
