"""How numbers and lists of names read aloud in an explanation."""

from __future__ import annotations

from collections.abc import Sequence

from playoff_formats.words import number as number

_ORDINALS = (
    "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth",
    "tenth",
)


def ordinal(place: int) -> str:
    """``1`` -> ``first``; beyond tenth, ``11th``, ``22nd``..."""
    if 1 <= place <= len(_ORDINALS):
        return _ORDINALS[place - 1]
    if 10 <= place % 100 <= 20:
        suffix = "th"
    else:
        suffix = {1: "st", 2: "nd", 3: "rd"}.get(place % 10, "th")
    return f"{place}{suffix}"


def points(value: float) -> str:
    """A chess score: ``5.5`` -> ``5½``, ``0.5`` -> ``½``, ``3.0`` -> ``3``."""
    whole = int(value)
    if value == whole:
        return str(whole)
    if abs(value - whole - 0.5) < 1e-9:
        return "½" if whole == 0 else f"{whole}½"
    return f"{value:g}"


def join(names: Sequence[str]) -> str:
    """``A``; ``A and B``; ``A, B and C``."""
    if not names:
        return ""
    if len(names) == 1:
        return names[0]
    return f"{', '.join(names[:-1])} and {names[-1]}"


def places(first: int, count: int) -> str:
    """``first place``; ``places 1-3``."""
    if count == 1:
        return f"{ordinal(first)} place"
    return f"places {first}-{first + count - 1}"


def short_name(full: str) -> str:
    """The name an arbiter says aloud: the surname of ``Surname, Given``."""
    return full.split(",", 1)[0].strip() if "," in full else full.strip()
