"""TOML documents read with their syntax errors in an organiser's words.

An organiser writes a play-off format or a regulation in TOML by hand: a refusal
says the line and the column, and what is wrong there as the organiser would say
it ("a list [...] is not closed, or two of its items lack a comma between them"),
not as the parser's source does ("Unclosed array", "Cannot declare ('a',) twice").
Nothing of the document is repeated but a key's name, clipped.
"""

from __future__ import annotations

import ast
import re
import tomllib
from typing import Any

from playoff_formats.errors import InputError
from playoff_formats.io.reasons import clip

__all__ = ["load_toml", "toml_reason"]

_AT = re.compile(r"\s*\(at line (\d+), column (\d+)\)$")
_AT_END = re.compile(r"\s*\(at end of document\)$")

_PLAIN = {
    "Invalid statement": (
        "this line is neither a key = value nor a [table] heading"
    ),
    "Expected newline or end of document after a statement": (
        "something follows the value on this line: each key = value takes a line of its "
        "own (a comment starts with #)"
    ),
    "Expected '=' after a key in a key/value pair": "a key needs '=' and a value after it",
    "Invalid initial character for a key part": (
        "a key is letters, digits, '-' and '_', or text in quotes"
    ),
    "Invalid value": (
        "this is no value: text needs quotes (\"...\"), true and false are written in "
        "lower case, a list is [...]"
    ),
    "Unclosed array": "a list [...] is not closed, or two of its items lack a comma between them",
    "Unclosed inline table": (
        "a table {...} is not closed, or two of its keys lack a comma between them"
    ),
    "Expected ']' at the end of a table declaration": "a [table] heading is not closed with ']'",
    "Expected ']]' at the end of an array declaration": (
        "a [[table]] heading is not closed with ']]'"
    ),
    "Cannot overwrite a value": "this key already has a value",
    "Unterminated string": "a text is not closed with its quote",
    "Unescaped '\\' in a string": (
        "a backslash in double quotes starts an escape: write \\\\ for one backslash, or "
        "use single quotes"
    ),
    "Invalid hex value": "a \\u or \\U escape is not a character's code",
    "Escaped character is not a Unicode scalar value": (
        "a \\u or \\U escape is not a character's code"
    ),
    "Invalid date or datetime": "this date or time does not exist",
}
_WITH_KEY = (
    (re.compile(r"Cannot declare (.+) twice"), "the table [{key}] is declared twice"),
    (
        re.compile(r"Cannot mutate immutable namespace (.+)"),
        "'{key}' was given whole, in braces or as a value: it cannot be added to here",
    ),
    (
        re.compile(r"Cannot redefine namespace (.+)"),
        "'{key}' is a table already: it cannot be a list of [[tables]] too",
    ),
    (re.compile(r"Duplicate inline table key (.+)"), "the key '{key}' is given twice"),
)
_WITH_CHARACTER = (
    (re.compile(r"Illegal character (.+)"), "the character {character} cannot be in a text"),
    (re.compile(r"Found invalid character (.+)"), "the character {character} cannot be here"),
    (re.compile(r"Expected (.+)"), "{character} is expected here"),
)
_LINE_ENDS = "Illegal character '\\n'"


def load_toml(text: str, source: str | None = None) -> dict[str, Any]:
    """The document ``text`` holds, or an :class:`InputError` with the line and
    column of the first syntax error and what is wrong there in words."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        message = str(error)
        at = _AT.search(message)
        if at:
            raise InputError(
                f"TOML syntax: {toml_reason(message[: at.start()])}", source=source,
                line=int(at.group(1)), column=int(at.group(2)),
            ) from None
        at_end = _AT_END.search(message)
        if at_end:
            lines = text.split("\n")
            raise InputError(
                f"TOML syntax: {toml_reason(message[: at_end.start()])}, at the end of the "
                "file",
                source=source, line=len(lines), column=len(lines[-1]) + 1,
            ) from None
        raise InputError(f"TOML syntax: {toml_reason(message)}", source=source) from None


def toml_reason(message: str) -> str:
    """The parser's ``message`` (without its position) in an organiser's words; one
    it never gave before is passed on as it is."""
    plain = _PLAIN.get(message)
    if plain is not None:
        return plain
    if message == _LINE_ENDS:
        return (
            "a text in quotes is not closed before the end of its line (a text of several "
            "lines is written in triple quotes)"
        )
    for pattern, words in _WITH_KEY:
        found = pattern.fullmatch(message)
        if found:
            return words.format(key=_key(found.group(1)))
    for pattern, words in _WITH_CHARACTER:
        found = pattern.fullmatch(message)
        if found:
            return words.format(character=clip(found.group(1)))
    return message


def _key(written: str) -> str:
    """A key as the parser wrote it (``('matches', 'stages')``, ``'name'``) as the
    document writes it: ``matches.stages``."""
    try:
        value = ast.literal_eval(written)
    except (ValueError, SyntaxError):
        return clip(written)
    parts = value if isinstance(value, tuple) else (value,)
    return clip(".".join(str(part) for part in parts))
