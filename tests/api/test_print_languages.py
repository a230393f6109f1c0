"""The printouts in the language asked for: ``?lang=``, else the first of the service's
languages the ``Accept-Language`` header accepts, else English.

In the pseudo-language ``en-XA`` every text of the five printouts is in [brackets]
but the names, the figures, the dates, and the texts the printouts take as the hall's
and the console's views and the play-off's format word them (:data:`FROM_ELSEWHERE`:
they are in brackets too once those are worded in the language in force). A language
the service does not speak is refused (422) naming the languages it speaks.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass

import httpx
import pytest

from orchestrator.core.languages import LANGUAGES
from orchestrator.core.timesource import ManualTime
from playoff_formats.speech import pseudo
from tests.support import pdf
from tests.support.printing import HALL, international_event, play_to_the_end, printing_setup
from tests.support.server import running_server
from tests.support.ws import Setup

FROM_ELSEWHERE = (
    # The play-off's format, its rounds, matches and games, as the console names them.
    "GCT 2015 play-off, reg. 7 (three players)", "Grand Chess Tour 2015 tiebreak regulations",
    "Seeds 2 v 3 (reg. 7)", "Final (reg. 6)", "Seeds 2 v 3", "Winner of Seeds 2 v 3",
    "winner of match 1", "game 1", "game 2", "game 3", "(Armageddon)",
    # Time controls and the Armageddon's terms, as the formats word them.
    "Time control G/25+5 · Armageddon W 6' / B 5', +3 s from move 61",
    "W 6' / B 5', +3 s from move 61", "+3 s from move 61", "G/25+5", "Armageddon",
    "draw = Black wins", "(GCT 2015 reg. 10 b)", "Colours by coin toss",
    "(colours by coin toss)",
    # The bracket as the hall shows it.
    "(to play)", "(played)", "Final", "advances", "out", "champion", "beat",
    # The standings' columns, as the regulation names them, and the placings' basis.
    "Rank Name Score wins direct encounter sonneborn berger koya Play-off", "yes",
    "won the play-off",
    "place by the main event's tiebreaks: the play-off decides first place only (reg. 2)",
    "place by the main event's standings",
)
"""Texts the printouts show as other parts of the service word them."""

_DATE = re.compile(
    r"\b(Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday) \d{1,2} "
    r"(January|February|March|April|May|June|July|August|September|October|November|"
    r"December) \d{4}\b"
)
_BRACKETED = re.compile(r"\[[^\[\]]*\]")


@dataclass
class Printing:
    """A play-off with games to play, and one played to its end (for its placings)."""

    fresh: Setup
    over: Setup


@pytest.fixture(scope="module")
def printing(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Printing]:
    clock = ManualTime()
    with running_server(
        tmp_path_factory.mktemp("languages") / "log.db", clock, settings=HALL
    ) as server:
        fresh = printing_setup(server)
        over = printing_setup(server, prizes=[100000, 50000, 30000], points=[13, 10, 8])
        play_to_the_end(over, clock)
        yield Printing(fresh, over)


def printed(
    setup: Setup, what: str, headers: dict[str, str] | None = None, **query: str | int
) -> httpx.Response:
    with setup.server.client(setup.arbiter) as http:
        http.timeout = 120
        return http.get(f"/api/playoffs/{setup.playoff_id}/print/{what}.pdf", params=query,
                        headers=headers)


def text_of(setup: Setup, what: str, headers: dict[str, str] | None = None,
            **query: str | int) -> str:
    answer = printed(setup, what, headers, **query)
    assert answer.status_code == 200, answer.text
    return pdf.text(answer.content)


def unbracketed(text: str) -> str:
    """What is left of ``text`` out of brackets (a message within a message too)."""
    while True:
        left = _BRACKETED.sub(" ", text)
        if left == text:
            return left
        text = left


def names() -> set[str]:
    """Every word of the players' names and of the event's."""
    event = json.loads(international_event())
    found = set(event["name"].split())
    for player in event["players"]:
        found.update(word.strip(",.") for word in player["name"].split())
    return found


def explained(setup: Setup) -> list[str]:
    with setup.server.client(setup.arbiter) as http:
        lines = http.get(f"/api/events/{setup.event_id}/standings").json()["explanation"]
    return [" ".join(line.split()) for line in lines]


def left_in_english(setup: Setup, text: str) -> list[str]:
    """The words of ``text`` out of brackets that are not a name, a figure, a date or a
    text worded elsewhere."""
    left = _DATE.sub(" ", unbracketed(text))
    for phrase in sorted([*FROM_ELSEWHERE, *explained(setup)], key=len, reverse=True):
        left = left.replace(phrase, " ")
    known = names()
    return [
        word for word in left.split()
        if any(c.isalpha() for c in word) and word.strip(",.()") not in known
    ]


@pytest.mark.parametrize(
    ("which", "what"),
    [("fresh", "slips"), ("fresh", "cards"), ("fresh", "standings"), ("fresh", "bracket"),
     ("over", "bracket"), ("over", "placings")],
)
def test_every_text_of_a_printout_in_the_pseudo_language_is_in_brackets(
    printing: Printing, which: str, what: str,
) -> None:
    setup: Setup = getattr(printing, which)
    answer = printed(setup, what, lang="en-XA")
    assert answer.status_code == 200, answer.text
    # 40 % longer, every text still within the page, none over another.
    pdf.assert_on_paper(answer.content, "A4")
    text = pdf.text(answer.content)
    assert left_in_english(setup, text) == []
    # The foot line too, drawn by the page's CSS.
    assert pseudo("page {page} of {pages}").split(" {pages}")[0].format(page=1) in text


def test_the_pseudo_language_reaches_each_printouts_own_words(printing: Printing) -> None:
    slips = text_of(printing.fresh, "slips", lang="en-XA")
    for said in ("Result slip", "Event", "Stage", "Arbiter", "Result:", "Increment"):
        assert pseudo(said) in slips
    assert pseudo("Board {board}").replace("{board}", "1") in slips
    cards = text_of(printing.fresh, "cards", lang="en-XA")
    assert pseudo("Seed {seed}").replace("{seed}", "2") in cards
    placings = text_of(printing.over, "placings", lang="en-XA")
    assert pseudo("Tour points") in placings


def test_english_is_as_it_was_asked_for_or_not(printing: Printing) -> None:
    for what in ("slips", "bracket"):
        plain = text_of(printing.fresh, what)
        assert text_of(printing.fresh, what, lang="en") == plain
        assert "[" not in plain
    assert "Result slip Board 1" in text_of(printing.fresh, "slips", lang="en")


def test_the_browsers_language_is_printed_unless_another_is_asked_for(
    printing: Printing,
) -> None:
    # The first of the service's languages the header accepts: French, by its weight.
    header = {"Accept-Language": "xx-YY, en;q=0.5, fr-CH;q=0.8"}
    french = text_of(printing.fresh, "slips", header)
    # The hall's dates with the language's names of the days and months (Babel's).
    assert "samedi 28 juin 2025" in french
    assert "Saturday" not in french
    asked = text_of(printing.fresh, "slips", header, lang="es")
    assert "sábado, 28 de junio de 2025" in asked
    assert "Planned start" in text_of(printing.fresh, "slips", header, lang="en")
    russian = text_of(printing.fresh, "bracket", lang="ru")
    assert "суббота, 28 июня 2025 г." in russian


@pytest.mark.parametrize("path", ["playoff", "event"])
def test_a_language_the_service_does_not_speak_is_refused_naming_those_it_speaks(
    printing: Printing, path: str,
) -> None:
    setup = printing.fresh
    address = (
        f"/api/playoffs/{setup.playoff_id}/print/slips.pdf" if path == "playoff"
        else f"/api/events/{setup.event_id}/print/standings.pdf"
    )
    with setup.server.client(setup.arbiter) as http:
        answer = http.get(address, params={"lang": "xx"})
    assert answer.status_code == 422, answer.text
    message = answer.json()["detail"][0]["message"]
    assert message.startswith("lang must be one of ")
    for code in LANGUAGES:
        assert code in message


def test_the_events_standings_in_the_language_asked_for(printing: Printing) -> None:
    setup = printing.fresh
    with setup.server.client(setup.arbiter) as http:
        http.timeout = 120
        answer = http.get(f"/api/events/{setup.event_id}/print/standings.pdf",
                          params={"lang": "en-XA"})
    assert answer.status_code == 200, answer.text
    assert left_in_english(setup, pdf.text(answer.content)) == []


def test_a_refusal_is_worded_in_the_language_asked_for(printing: Printing) -> None:
    answer = printed(printing.fresh, "cards", lang="en-XA", match=2)
    assert answer.status_code == 409
    assert answer.json()["detail"].startswith("[")
    answer = printed(printing.fresh, "cards", lang="en-XA", match=1, game=1)
    assert answer.status_code == 422
    assert answer.json()["detail"][0]["message"].startswith("game: [")
