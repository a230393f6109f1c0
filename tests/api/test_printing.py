"""The printouts over a real server: each PDF read back as text and as page images.

The UzChess Cup Masters 2025 play-off with its players renamed in Cyrillic, Greek,
Uzbek Latin and with accents, in a hall at UTC+5: the text holds the names, the
times of day at the hall's clock, the time controls and the Armageddon's terms; no
word sits in the outer 5 mm of a page, and at 50 dpi that strip of every page image
is blank paper; the pages are A4 or US Letter as asked; every font is embedded.
"""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from orchestrator.core.timesource import ManualTime
from tests.support import pdf
from tests.support.events import ABDU, SINDAROV
from tests.support.printing import (
    ACCENTED,
    CYRILLIC,
    GREEK,
    HALL,
    SEVERAL,
    UZBEK,
    play_to_the_end,
    printing_setup,
)
from tests.support.server import running_server
from tests.support.ws import Setup

WHATS = ("slips", "cards", "standings", "bracket", "placings")


@pytest.fixture(scope="module")
def setup(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Setup]:
    with running_server(
        tmp_path_factory.mktemp("printing") / "log.db", ManualTime(), settings=HALL
    ) as server:
        yield printing_setup(server)


def printed(setup: Setup, path: str, token: str | None = None, **query: object) -> httpx.Response:
    with setup.server.client(token or setup.arbiter) as http:
        http.timeout = 120
        return http.get(path, params=query)


def playoff_pdf(setup: Setup, what: str, **query: object) -> bytes:
    answer = printed(setup, f"/api/playoffs/{setup.playoff_id}/print/{what}.pdf", **query)
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"] == "application/pdf"
    assert answer.content.startswith(b"%PDF-")
    return answer.content


def test_the_slips_say_who_plays_with_which_colour_when_and_at_what_time_control(
    setup: Setup,
) -> None:
    slips = playoff_pdf(setup, "slips")
    pdf.assert_on_paper(slips, "A4")
    text = pdf.text(slips)
    # Match 1's three games (the Armageddon if needed); the final's players are not known.
    assert text.count("Result slip Board 1") == 3
    assert f"White {CYRILLIC} seed 2 Black {GREEK} seed 3" in text  # game 1, by the lots
    assert f"White {GREEK} seed 3 Black {CYRILLIC} seed 2" in text  # game 2 alternates
    assert UZBEK not in text
    assert "UzChess Cup Masters 2025 · play-off" in text
    assert "GCT 2015 play-off, reg. 7 (three players) · Seeds 2 v 3 (reg. 7)" in text
    assert "Match 1 (Seeds 2 v 3) · Game 1" in text
    assert "Board 1" in text
    # The hall's time of day: the play-off starts at 12:00 UTC, 17:00 in Tashkent.
    assert "Planned start 17:00, Saturday 28 June 2025" in text
    assert "Planned start 18:10" in text
    assert "Time control G/25+5 Increment +5 s from move 1" in text
    # The Armageddon: its times, the increment from move 61, the draw odds.
    assert "Match 1 (Seeds 2 v 3) · Game 3 · Armageddon (if needed)" in text
    assert "Time control W 6' / B 5', +3 s from move 61 Increment +3 s from move 61" in text
    assert "Armageddon: White 6′ · Black 5′ · draw = Black wins" in text
    assert "Colours by coin toss: tick each player's colour once it is known." in text
    assert text.count("☐ 1-0 ☐ ½-½ ☐ 0-1") == 3
    assert f"White: {CYRILLIC} Black: {GREEK} Arbiter" in text
    assert f"{CYRILLIC} {GREEK} Arbiter" in text  # the Armageddon's, colours unknown
    pdf.sample(slips, "slip")


def test_one_games_slip_and_letter_paper(setup: Setup) -> None:
    slip = playoff_pdf(setup, "slips", match=1, game=3, paper="letter")
    pdf.assert_on_paper(slip, "Letter")
    text = pdf.text(slip)
    assert text.count("Result slip Board 1") == 1
    assert "Game 3 · Armageddon (if needed)" in text
    assert f"☐ White ☐ Black {CYRILLIC} seed 2 ☐ White ☐ Black {GREEK} seed 3" in text
    assert "Planned start 19:20" in text


def test_the_board_cards_name_the_players_large_with_seeds_and_colours(setup: Setup) -> None:
    cards = playoff_pdf(setup, "cards")
    pdf.assert_on_paper(cards, "A4")
    assert pdf.pages(cards) == 1  # the final's players are not known yet
    text = pdf.text(cards)
    assert "Board 1" in text
    assert "White Непомнящий Ян Seed 2 Black Ζαφειρόπουλος Γιώργος Seed 3" in text
    assert "Match 1 (Seeds 2 v 3) · Game 1 · G/25+5" in text
    # The names in large type, to be read across the hall: the family name three times
    # the size of the card's own words, the given name twice.
    heights = {w.text: w.box[3] - w.box[1] for w in pdf.words(cards)}
    assert heights["Непомнящий"] > 3 * heights["Match"]
    assert heights["Ян"] > 1.5 * heights["Match"]
    pdf.sample(cards, "cards")


def test_the_standings_have_the_regulations_columns_and_explain_each_tie_split(
    setup: Setup,
) -> None:
    standings = playoff_pdf(setup, "standings")
    pdf.assert_on_paper(standings, "A4")
    text = pdf.text(standings)
    for name in (CYRILLIC, GREEK, UZBEK, ACCENTED, SEVERAL):
        assert name in text
    assert "Rank Name Score wins direct encounter sonneborn berger koya Play-off" in text
    assert "— not applied: only players still tied" in text
    assert "How the ties were split" in text
    with setup.server.client(setup.arbiter) as http:
        explained = http.get(f"/api/events/{setup.event_id}/standings").json()["explanation"]
    for line in explained:  # every sentence the service explains the ties with
        assert " ".join(line.split()) in text
    pdf.sample(standings, "standings")
    # The event's own address prints the same standings.
    answer = printed(setup, f"/api/events/{setup.event_id}/print/standings.pdf", paper="letter")
    assert answer.status_code == 200, answer.text
    pdf.assert_on_paper(answer.content, "Letter")
    assert "How the ties were split" in pdf.text(answer.content)


def test_the_bracket_and_the_schedule_at_the_halls_time_of_day(setup: Setup) -> None:
    bracket = playoff_pdf(setup, "bracket")
    pdf.assert_on_paper(bracket, "A4")
    text = pdf.text(bracket)
    assert "Seeds 2 v 3 (to play)" in text and "Final (to play)" in text
    assert f"2 {CYRILLIC}" in text and f"3 {GREEK}" in text and f"1 {UZBEK}" in text
    assert "Winner of Seeds 2 v 3" in text
    assert "Time control G/25+5 · Armageddon W 6' / B 5', +3 s from move 61" in text
    assert "Schedule (the hall's time, UTC+5) Saturday 28 June 2025" in text
    assert f"17:00–18:00 Seeds 2 v 3 (reg. 7) · game 1 {CYRILLIC} – {GREEK} G/25+5 planned" in text
    assert "if needed" in text
    pdf.sample(bracket, "bracket")


def test_long_names_wrap_within_the_page(setup: Setup) -> None:
    """A name longer than a line, even without a space to break it at, wraps rather than
    running off the slip, the card or the table."""
    long_family = "Wolfeschlegelsteinhausenbergerdorffschmidtовский"
    unbroken = "Αβγδεζηθικλμνξοπρστυφχψωαβγδεζηθικλμνξοπρστυφχψω"
    renamed = {ABDU: f"{long_family}, Hubert Blaine Maximilian Alexander", SINDAROV: unbroken}
    other = printing_setup(setup.server, renamed)
    for what in ("slips", "cards", "standings", "bracket"):
        document = playoff_pdf(other, what)
        pdf.assert_on_paper(document, "A4")
        assert unbroken[:10] in pdf.text(document)


def test_another_events_token_is_told_what_it_opens(setup: Setup) -> None:
    other = printing_setup(setup.server)
    answer = printed(setup, f"/api/playoffs/{setup.playoff_id}/print/slips.pdf", other.arbiter)
    assert answer.status_code == 404
    assert answer.json()["detail"].startswith("this key is for UzChess Cup Masters 2025 (event ")
    assert f"its play-off is {other.playoff_id}" in answer.json()["detail"]
    answer = printed(setup, f"/api/events/{setup.event_id}/print/standings.pdf", other.arbiter)
    assert answer.status_code == 404


def test_any_token_of_the_event_prints(setup: Setup) -> None:
    for token in (setup.chief, setup.arbiter, setup.displays[0]):
        answer = printed(setup, f"/api/playoffs/{setup.playoff_id}/print/cards.pdf", token)
        assert answer.status_code == 200, answer.text


@pytest.mark.parametrize(
    ("query", "words"),
    [
        ({"paper": "a3"}, "paper must be one of a4 or letter"),
        ({"game": 1}, "say the game's match too"),
        ({"match": 1, "game": 1, "what": "cards"}, "one game is printed on a result slip only"),
        ({"match": 1, "what": "standings"}, "one match is printed on slips or a card only"),
        ({"match": 0}, "match must be at least 1"),
        ({"what": "posters"}, "what must be one of slips, cards, standings, bracket or placings"),
    ],
)
def test_a_bad_request_is_refused_in_words(
    setup: Setup, query: dict[str, object], words: str
) -> None:
    what = str(query.pop("what", "slips"))
    answer = printed(setup, f"/api/playoffs/{setup.playoff_id}/print/{what}.pdf", **query)
    assert answer.status_code == 422, answer.text
    assert words in answer.json()["detail"][0]["message"]


def test_what_cannot_be_printed_now_is_refused_with_the_reason(setup: Setup) -> None:
    base = f"/api/playoffs/{setup.playoff_id}/print"
    answer = printed(setup, f"{base}/slips.pdf", match=9, game=1)
    assert answer.status_code == 409
    assert answer.json()["detail"] == "this play-off has no match 9 to play: its matches are 1, 2"
    answer = printed(setup, f"{base}/slips.pdf", match=1, game=4)
    assert answer.json()["detail"] == (
        "match 1 has no game 4, played or planned: its games are 1, 2, 3"
    )
    answer = printed(setup, f"{base}/cards.pdf", match=2)
    assert answer.status_code == 409
    assert "match 2 has no game to play with its players known" in answer.json()["detail"]
    answer = printed(setup, f"{base}/placings.pdf")
    assert answer.status_code == 409
    assert answer.json()["detail"].startswith(
        "the placings and prizes are printed once the play-off has its champion"
    )
    with setup.server.client() as anonymous:
        assert anonymous.get(f"{base}/slips.pdf").status_code == 401


def test_the_placings_and_prizes_once_the_play_off_is_over(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    clock = ManualTime()
    with running_server(tmp_path_factory.mktemp("over") / "log.db", clock, settings=HALL) as s:
        setup = printing_setup(s, prizes=[100000, 50000, 30000], points=[13, 10, 8])
        play_to_the_end(setup, clock)
        placings = playoff_pdf(setup, "placings")
        pdf.assert_on_paper(placings, "A4")
        text = pdf.text(placings)
        assert f"Champion: {UZBEK}" in text
        assert "Place Player Score Prize Tour points Place from" in text
        # GCT 2015 reg. 1: first prize to the winner; the other two share places 2 and 3.
        assert f"1 {UZBEK} 5.5 100,000 13 won the play-off" in text
        assert f"2 {CYRILLIC} 5.5 40,000 10 place by the main event's tiebreaks" in text
        assert f"3 {GREEK} 5.5 40,000 8" in text
        assert f"{SEVERAL} 4.5 0 0 place by the main event's standings" in text
        assert "The play-off decides first place only" in text
        pdf.sample(placings, "placings")
        # Every game played: no slip or card is left to print; the bracket says who won.
        answer = printed(setup, f"/api/playoffs/{setup.playoff_id}/print/slips.pdf")
        assert answer.status_code == 409
        assert answer.json()["detail"].startswith("no game is left to play")
        bracket = pdf.text(playoff_pdf(setup, "bracket"))
        assert "Final (played)" in bracket and "champion" in bracket
        played = pdf.text(playoff_pdf(setup, "slips", match=2, game=1))
        assert f"White {UZBEK} seed 1 Black {CYRILLIC} seed 2" in played
        assert "Started 18:20" in played
