"""The service's words in the language of the people who read them.

Every text meant for people goes through :func:`tr` (one message) or :func:`ntr` (a
message whose words depend on a count: Russian has three forms, "1 партия", "2
партии", "5 партий"). A message names its parameters (``"Seeds {high} v {low}"``),
never joins fragments, so that each language orders its own words; names are
parameters and are shown as given, in any script.

The language spoken is the context's: the door that shows a text (a hall screen, a
console, a printout) builds it inside :func:`speaking`, and anything built outside one
reads English, the language the messages are written in. Texts defined ahead of use
(a table of results) are marked with :func:`marked`, which only tells the extractor,
and are translated with :func:`tr` where shown.

Pure: the catalogs themselves are read by ``orchestrator.languages``; this module only
holds the language in force and the two languages that need no catalog (English, and
the pseudo-language ``en-XA`` that finds texts left out of the catalogs and layouts
too tight for longer languages).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, Protocol

__all__ = [
    "ENGLISH",
    "PSEUDO",
    "English",
    "Language",
    "Pseudo",
    "marked",
    "ntr",
    "speaking",
    "spoken",
    "tr",
]


class Language(Protocol):
    """A language the service speaks: its messages, plural forms and numbers."""

    @property
    def code(self) -> str:
        """Its tag: ``en``, ``es``, ``fr``, ``de``, ``ru``, ``en-XA``."""
        ...

    def gettext(self, message: str) -> str:
        """``message`` (an English message with its ``{parameters}``) in this language."""
        ...

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        """The form of a counted message for ``n``, in this language."""
        ...

    def number(self, value: int | float, decimals: int | None = None) -> str:
        """A number as this language writes it (``1,500`` / ``1 500`` / ``1.500``),
        with ``decimals`` places if given."""
        ...


class English:
    """The messages as written."""

    code = "en"

    def gettext(self, message: str) -> str:
        return message

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return singular if n == 1 else plural

    def number(self, value: int | float, decimals: int | None = None) -> str:
        if decimals is not None:
            return f"{value:,.{decimals}f}"
        return f"{value:,}" if isinstance(value, int) else f"{value:,g}"


_ACCENTED = str.maketrans(
    "AaCcDEeGgHhIiJjKkLlNnOoRrSsTtUuWwYyZz",
    "ÅåÇçÐÉéĜĝĤĥÎîĴĵĶķĻļÑñÖöŔŕŠšŢţÜûŴŵÝýŽž",
)
_PLACEHOLDER = re.compile(r"(\{[^{}]*\})")
_FILLER = "one two three four five six seven eight nine ten eleven twelve thirteen"


def pseudo(message: str) -> str:
    """``message`` accented and 40 % longer, in brackets: ``[Ŝééðš {high} ṽ {low} one two]``.

    Parameters stay as they are (they are names and numbers, shown as given). A text on
    a page in ``en-XA`` that is not in brackets came from no catalog; a text cut off or
    over another would be cut off in a longer language too."""
    parts = _PLACEHOLDER.split(message)
    shown = sum(len(part) for i, part in enumerate(parts) if i % 2 == 0)
    accented = "".join(
        part if i % 2 else part.translate(_ACCENTED) for i, part in enumerate(parts)
    )
    extra = math.ceil(shown * 0.4)
    filler = _FILLER[:max(0, extra - 1)].rstrip() if extra > 1 else ""
    return f"[{accented}{' ' + filler if filler else ''}]" if message else message


class Pseudo(English):
    """``en-XA``: English accented, 40 % longer, each message in brackets."""

    code = "en-XA"

    def gettext(self, message: str) -> str:
        return pseudo(message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return pseudo(singular if n == 1 else plural)


ENGLISH: Language = English()
PSEUDO: Language = Pseudo()

_SPOKEN: ContextVar[Language] = ContextVar("spoken", default=ENGLISH)


def spoken() -> Language:
    """The language in force."""
    return _SPOKEN.get()


@contextmanager
def speaking(language: Language) -> Iterator[Language]:
    """Build texts in ``language`` inside the ``with`` block."""
    token = _SPOKEN.set(language)
    try:
        yield language
    finally:
        _SPOKEN.reset(token)


def _filled(text: str, params: dict[str, Any]) -> str:
    return text.format(**params) if params else text


def tr(message: str, /, **params: Any) -> str:
    """``message`` in the language in force, its ``{parameters}`` filled in as given
    (a number to be grouped the language's way is passed through
    ``spoken().number``)."""
    return _filled(spoken().gettext(message), params)


def ntr(singular: str, plural: str, n: int, /, **params: Any) -> str:
    """The form for ``n`` of a counted message (``"{n} game"``, ``"{n} games"``), in the
    language in force; ``{n}`` is filled in with the count."""
    language = spoken()
    return _filled(language.ngettext(singular, plural, n), {"n": language.number(n), **params})


def marked(message: str) -> str:
    """``message`` unchanged: marks a text defined ahead of use for the catalogs; it is
    translated with :func:`tr` where it is shown."""
    return message
