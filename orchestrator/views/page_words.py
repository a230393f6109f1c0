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
    "clock": (
        marked("Board clock"),
        marked("Left player's clock"),
        marked("Right player's clock"),
        marked("Flag"),
        marked("Full screen"),
        marked("Call the arbiter"),
        marked("Call the arbiter? Both clocks stop until the arbiter resumes them."),
        marked("Cancel"),
        marked("White"),
        marked("Black"),
        marked("White's flag fell"),
        marked("Black's flag fell"),
        marked("online"),
        marked("connecting…"),
        marked("offline"),
        marked("{connection} · {count} held"),
        marked("refused"),
        marked("no key"),
        marked("Moves: {count}"),
        marked("{colour}, {name}: {time}"),
        marked("{colour}: {time}"),
        marked("Arbiter called at {time}. The clocks are stopped until the arbiter resumes them."),
        marked("Game over: {result}"),
        marked("Waiting for the arbiter to start the game"),
        marked("Clocks stopped by the arbiter"),
        marked("No connection: call the arbiter by hand; the clocks run on."),
        marked("The board key was refused"),
        marked("The arbiter has been told and sets the clocks."),
        marked("No play-off in the address."),
        marked("No board key: open {address}"),
    ),
    "event-display": (
        marked("Hall display"),
        marked("connecting…"),
        marked("live"),
        marked("offline · reconnecting…"),
        marked("refused ({status})"),
    ),
    "console": (),
}


def page_words() -> dict[str, str]:
    """Every page's words in the language in force, by their English."""
    return {message: tr(message) for words in PAGE_WORDS.values() for message in words}
