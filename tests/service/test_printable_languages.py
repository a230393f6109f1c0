"""A printout's page and the consoles' Print menus in the language in force: the
page's ``lang`` and its foot line, and every title, paper and refusal of the menus
(in brackets in the pseudo-language ``en-XA``); in English, as they were."""

from __future__ import annotations

from pathlib import Path

from orchestrator.core.languages import Catalogs
from orchestrator.printing.documents import standings_document
from orchestrator.printing.layout import Paper
from orchestrator.views.printable import (
    PAPERS,
    PRINTOUTS,
    PrintMenu,
    event_print_menu,
    playoff_print_menu,
)
from playoff_formats.io.trf import parse_trf
from playoff_formats.regulations.custom import regulation_from_text
from playoff_formats.speech import PSEUDO, Language, speaking
from tests.support.synthetic import swiss_trf
from tests.support.views import running, uzchess

ENGLISH_FOOT = 'content: "page " counter(page) " of " counter(pages);'


def standings_page(language: Language | None = None) -> str:
    event = parse_trf(swiss_trf(8, 5, seed=5, absences=0.0), "club.trf")
    regulation = regulation_from_text('name = "club"\ncriteria = ["WON", "SB"]\n', "club.toml")
    result = regulation.standings(event)
    if language is None:
        return standings_document("Club", result, regulation, Paper.A4, "printed")
    with speaking(language):
        return standings_document("Club", result, regulation, Paper.A4, "printed")


def test_the_page_says_its_language_and_numbers_its_pages_in_it() -> None:
    english = standings_page()
    assert '<html lang="en">' in english
    assert ENGLISH_FOOT in english
    assert "<title>Standings: Club</title>" in english
    russian = standings_page(Catalogs().language("ru"))
    assert '<html lang="ru">' in russian
    pseudo = standings_page(PSEUDO)
    assert '<html lang="en-XA">' in pseudo
    # The page counters where the language puts them, its words around them.
    assert 'content: "[påĝé " counter(page) " öf " counter(pages) " one]";' in pseudo
    assert "<title>[[Šţåñdîñĝš one]: Club]</title>" in pseudo


def bracketed(menu: PrintMenu) -> list[str]:
    """Every text of ``menu`` meant for people that is not in brackets."""
    texts = [menu.title, menu.words, *(p.label for p in menu.papers)]
    for entry in [*menu.entries, *menu.games]:
        texts.append(entry.label)
        if entry.refusal is not None:
            texts.append(entry.refusal)
    return [text for text in texts if not (text.startswith("[") and text.endswith("]"))]


async def test_the_print_menus_in_the_language_in_force(tmp_path: Path) -> None:
    async with running(tmp_path) as run:
        await uzchess(run)
        state = run.service.playoff(run.playoff_id)
        event = run.service.event(state.event_id)
        games = [(1, 1, "Seeds 2 v 3 (reg. 7) · game 1")]

        english = playoff_print_menu(state, games)
        assert english.title == "Print"
        assert [e.label for e in english.entries] == list(PRINTOUTS.values())
        assert [p.label for p in english.papers] == list(PAPERS.values())
        assert english.games[0].label == "Result slip: Seeds 2 v 3 (reg. 7) · game 1"
        placings = next(e for e in english.entries if e.what == "placings")
        assert placings.refusal is not None
        assert placings.refusal.startswith("the placings and prizes are printed once")

        with speaking(PSEUDO):
            playoff_menu = playoff_print_menu(state, games)
            event_menu = event_print_menu(event)
        assert bracketed(playoff_menu) == []
        assert bracketed(event_menu) == []
        # The game's title is the console's, inside the menu's words.
        assert "Seeds 2 v 3 (reg. 7) · game 1" in playoff_menu.games[0].label
        assert event_print_menu(event).title == "Print"
