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
        marked("Play-off display"),
        marked("Hall time"),
        marked("Your time"),
        marked("Offline: the clocks are stopped until the service answers"),
    ),
    "clock": (),
    "event-display": (),
    "console": (),
}


def page_words() -> dict[str, str]:
    """Every page's words in the language in force, by their English."""
    return {message: tr(message) for words in PAGE_WORDS.values() for message in words}
