"""A real round robin: UzChess Cup Masters 2025, three players on 5½/9.

Published values for the top three: Praggnanandhaa 4 wins, Sonneborn-Berger
25.25, Koya 3.5; Abdusattorov 4 wins, SB 22.5, Koya 3.0; Sindarov 3 wins,
SB 22.25, Koya 3.0.
"""

from __future__ import annotations

import pytest

from playoff_formats.io.json_event import parse_json_event
from playoff_formats.regulations import get_regulation
from playoff_formats.standings import Standings
from tests import support
from tests.support.events import ABDU, PRAGG, SINDAROV

DATA = support.DATA / "uzchess-cup-masters-2025.json"


@pytest.fixture(scope="module")
def standings() -> Standings:
    event = parse_json_event(DATA.read_text(encoding="utf-8"), DATA.name)
    return get_regulation("gct2015").standings(event)


@pytest.mark.parametrize(
    ("player", "wins", "sb", "koya"),
    [(PRAGG, 4, 25.25, 3.5), (ABDU, 4, 22.5, 3.0), (SINDAROV, 3, 22.25, 3.0)],
)
def test_published_tiebreak_values(
    standings: Standings, player: str, wins: int, sb: float, koya: float
) -> None:
    row = standings.row(player)
    assert row.score == 5.5
    assert row.tiebreaks["wins"] == wins
    assert row.tiebreaks["sonneborn_berger"] == sb
    assert row.tiebreaks["koya"][0] == koya


def test_three_way_tie_for_first_goes_to_a_seeded_playoff(standings: Standings) -> None:
    assert standings.playoff == (PRAGG, ABDU, SINDAROV)
    assert [r.id for r in standings.rows[:3]] == [PRAGG, ABDU, SINDAROV]
    assert [r.rank for r in standings.rows[:3]] == [1, 2, 3]
    assert [r.playoff for r in standings.rows] == [True] * 3 + [False] * 7


def test_explanation_reads_aloud(standings: Standings) -> None:
    text = "\n".join(standings.explanation)
    assert "Sindarov is third: 3 wins against 4." in text
    # Reg. 4 (b): Praggnanandhaa beat Abdusattorov in their game.
    assert "Praggnanandhaa R is first: 1 against 0." in text
    assert "seed it: 1 Praggnanandhaa R, 2 Abdusattorov, 3 Sindarov" in text


def test_json_contract(standings: Standings) -> None:
    data = standings.to_json()
    assert data["regulation"] == "gct2015"
    first = data["standings"][0]
    assert set(first) >= {"rank", "id", "name", "score", "tiebreaks", "playoff"}
    assert first == {
        "rank": 1,
        "id": PRAGG,
        "name": "Praggnanandhaa R",
        "score": 5.5,
        "tiebreaks": first["tiebreaks"],
        "playoff": True,
    }
    assert first["tiebreaks"]["koya"] == [3.5]
    assert [row["rank"] for row in data["standings"]] == list(range(1, 11))
    assert data["explanation"]
