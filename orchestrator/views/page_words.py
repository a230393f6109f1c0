"""The words the pages write themselves (labels, buttons, a page's waiting line),
each page's in its own list so that the catalogs hold them: the pages fetch them
translated from ``GET /api/languages/{code}`` (``clients/common/words.js``).

A page's text in ``t("…")`` or in a ``data-t`` element must be listed here:
``tests/rules/test_catalogs.py`` fails on one that is not.
"""

from __future__ import annotations

from playoff_formats.speech import marked, tr

__all__ = ["PAGE_WORDS", "page_words"]

PAGE_WORDS: dict[str, tuple[str, ...]] = {
    "display": (
        marked("Waiting for the play-off…"),
        marked("{title} — Play-off display"),
        marked("Play-off"),
        marked("v"),
        marked("the position"),
        marked(" · your time {time}"),
        marked("your time {time}"),
        marked("in {left} · {at}"),
        marked("Next"),
        marked("Stanza"),
        marked("Board"),
        marked("Table 1"),
        marked("Table 2"),
        marked("Champion"),
        marked("Place"),
        marked("Player"),
        marked("Prize"),
        marked("Points"),
        marked("connection lost: may be behind"),
        marked("live"),
        marked("connecting…"),
        marked("offline"),
        marked("refused"),
        marked("Connection lost: clocks shown may be behind. Reconnecting…"),
        marked("No play-off in the address."),
        marked("No display key: open /display/{playoff}#key=…"),
    ),


    "clock": (),
    "event-display": (),
    "console": (),
}


def page_words(page: str | None = None) -> dict[str, str]:
    """The words of ``page`` (every page's if None) in the language in force, by their
    English."""
    pages = PAGE_WORDS.values() if page is None else (PAGE_WORDS.get(page, ()),)
    return {message: tr(message) for words in pages for message in words}
