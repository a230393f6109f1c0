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
        marked("planned start {time}"),
        marked("Next"),
        marked("White"),
        marked("Black"),
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
    "console": (
        marked("Logged in: chief arbiter"),
        marked("Logged in: arbiter"),
        marked("Nothing was changed. Check what the console shows now, and send the command again only if it still applies."),  # noqa: E501
        marked("Nothing was changed. Correct the value named above and send it again."),
        marked("Type a valid arbiter token (or the chief arbiter's) into “Arbiter or chief arbiter token” below, then press Connect."),  # noqa: E501
        marked("A display key is read-only: use it for the hall display. Here, type an arbiter or chief arbiter token below, then press Connect."),  # noqa: E501
        marked("This token may not do that (is it a display key, or another event's token?). Connect with an arbiter or chief arbiter token."),  # noqa: E501
        marked("Too many commands at once: wait a second and send it again."),
        marked("The server cannot record anything for a moment (its database is restarting). Wait a few seconds and send the command again: it is recorded once."),  # noqa: E501
        marked("The server did not answer, so the command may not have arrived. Check the network and what the console shows before sending it again."),  # noqa: E501
        marked("The token is good: check the address of this page against the play-off named above."),  # noqa: E501
        marked("Nothing to do: the clock counted the press once."),
        marked("Check the state shown, then try again; if it persists, tell the chief arbiter."),
        marked("{command}: already pressed"),
        marked("{command}: refused"),
        marked("not confirmed before the connection dropped"),
        marked("Arbiter · {title}"),
        marked("Arbiter console"),
        marked("{count} pending…"),
        marked("in {time}"),
        marked("live"),
        marked("offline · reconnecting…"),
        marked("refused"),
        marked("connecting…"),
        marked("not connected"),
        marked("Connection lost: clocks shown may be behind. The server has not answered since {time}; the clocks show what they showed then and run on when the link is back. A command sent meanwhile goes over HTTP if the server can be reached, and stays pending until it answers."),  # noqa: E501
        marked("This is a display key, not an arbiter token"),
        marked("A display key only shows the hall display: it cannot run the arbiter console."),
        marked("The server refused a message"),
        marked("Token refused"),
        marked("Too many wrong tokens from this network"),
        marked("Not this token's play-off"),
        marked("Space bar: several clocks run"),
        marked("Tap the clock to press: the space bar presses only while one clock runs."),
        marked("locked"),
        marked("waiting"),
        marked("ready"),
        marked("running"),
        marked("completed"),
        marked("played"),
        marked("in play"),
        marked("to play"),
        marked("planned"),
        marked("This console is the clock (press buttons)"),
        marked("{key} presses the clock for the side to move, when this console is the clock, one clock runs and no field has the focus."),  # noqa: E501
        marked("Space"),
        marked("Game {number}"),
        marked("won the toss and chooses."),
        marked("Not before {time}"),
        marked("Preferably not before {time}"),
        marked("{status} since {time}"),
        marked("Result without play (forfeit)"),
        marked("Result"),
        marked(" · press after move {move}"),
        marked("moves {count}"),
        marked("connection lost: may be behind"),
        marked("Board"),
        marked("IMPs (home)"),
        marked("The schedule cannot be planned: {reason}"),
        marked("Start {start}"),
        marked("finish {finish}"),
        marked("deadline {deadline}"),
        marked("Proposal:"),
        marked("{game} {delta} (now {time})"),
        marked("fixed"),
        marked("tentative"),
        marked("moved {delta}"),
        marked("✓ checked in this browser: the seed gives this commitment and this outcome"),
        marked("✗ the seed does not match: report this to the chief arbiter"),
        marked("✓ the seed gives this commitment"),
        marked("(this browser cannot check hashes here: use https or localhost)"),
        marked("checking…"),
        marked("Commitment (SHA-256, published before the reveal)"),
        marked("Revealed seed"),
        marked("not revealed yet"),
        marked("Physical draw, conducted by {arbiter}."),
        marked("Physical draw, conducted by the arbiter."),
        marked("Lots and coin tosses"),
        marked("None drawn yet."),
        marked("Arbiter overrides"),
        marked("Each needs a reason; it is logged with your token. To correct a result, open “Correct the result” under the game, in its match."),  # noqa: E501
        marked("Voided:"),
        marked("Changes by arbiters"),
        marked("None."),
        marked("Place"),
        marked("Player"),
        marked("Score"),
        marked("Prize"),
        marked("Points"),
        marked("Final placings"),
        marked("pending — no answer yet, still waiting"),
        marked("pending…"),
        marked("✓ done"),
        marked("already pressed: counted once"),
        marked("✗ refused: {reason}"),
        marked("sent while the live link was down at {time}"),
        marked("sent at {time}"),
        marked("Commands from this console"),
        marked("None yet."),
        marked("Dismiss"),
        marked("(pending)"),
        marked("Confirm {command}"),
        marked("Confirm: {command}"),
        marked("Cancel"),
        marked("Forget token"),
        marked("Language"),
        marked("Connect"),
        marked("Arbiter or chief arbiter token"),
        marked("A display key will not do: it is read-only and opens the hall display."),
        marked("The token stays in this browser tab only (it is forgotten when the tab closes) and is sent in the first websocket message and in request headers, never in the address."),  # noqa: E501
        marked("Schedule"),
        marked("Current games"),
        marked("Records"),
    ),
}


def page_words(page: str | None = None) -> dict[str, str]:
    """The words of ``page`` (every page's if None) in the language in force, by their
    English."""
    pages = PAGE_WORDS.values() if page is None else (PAGE_WORDS.get(page, ()),)
    return {message: tr(message) for words in pages for message in words}
