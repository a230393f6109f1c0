"""FIDE C.07 Art. 6.3 and GCT 2015 reg. 4 (b): places certain before the missing games.

Players 1-4 are level on 3 points; 3 and 4 never met. Among the four: 1 has
2½, 2 has 2, 3 has ½, 4 has 0. 3 could reach 1½ and 4 could reach 1 by winning
their missing game: 1 is first whatever it gives, and 2 second ("the same
applies to the second rank"); 3 and 4 are then compared alone and, never
having met, stay level.
"""

from __future__ import annotations

from playoff_formats.io.trf import read_trf
from playoff_formats.regulations.custom import regulation_from_text
from playoff_formats.tiebreaks.core import LabelledCriterion, resolve_tie
from playoff_formats.tiebreaks.criteria import DirectEncounter as Reg4b
from playoff_formats.tiebreaks.index import EventIndex

SECOND_RANK = """\
012 DE second rank
042 2026/03/15
001    1 m    Player, No 1                      2037 ENG    20000001 1990/01/01  3.0    1     3 w 1     4 b 1     2 w =     5 b =     7 w 0
001    2 m    Player, No 2                      2074 ENG    20000002 1990/01/01  3.0    2     4 w 1     3 b =     1 b =     6 w 1     5 b 0
001    3 m    Player, No 3                      2111 ENG    20000003 1990/01/01  3.0    3     1 b 0     2 w =     6 b 1     7 w 1     8 b =
001    4 m    Player, No 4                      2148 ENG    20000004 1990/01/01  3.0    4     2 b 0     1 w 0     7 w 1     8 b 1     6 w 1
001    5 m    Player, No 5                      2185 ENG    20000005 1990/01/01  3.5    5     6 w 1     7 b 0     8 w 1     1 w =     2 w 1
001    6 m    Player, No 6                      2222 ENG    20000006 1990/01/01  1.0    6     5 b 0     8 w 1     3 w 0     2 b 0     4 b 0
001    7 m    Player, No 7                      2259 ENG    20000007 1990/01/01  2.5    7     8 w =     5 w 1     4 b 0     3 b 0     1 b 1
001    8 m    Player, No 8                      2296 ENG    20000008 1990/01/01  1.0    8     7 b =     6 b 0     5 b 0     4 w 0     3 w =
"""  # noqa: E501


def test_art_6_3_the_same_applies_to_the_second_rank() -> None:
    event = read_trf(SECOND_RANK, "de.trf")
    regulation = regulation_from_text('name = "de"\ncriteria = ["DE"]\n', "de.toml")
    standings = regulation.standings(event)
    assert [(row.rank, row.id) for row in standings.rows[:5]] == [
        (1, "5"), (2, "1"), (3, "2"), (4, "3"), (4, "4"),
    ]
    first = standings.steps[0]
    assert first.tied == ("1", "2", "3", "4")
    assert first.values == {"1": 2.5, "2": 2.0, "3": 0.5, "4": 0.0}
    assert first.groups == (("1",), ("2",), ("3", "4"))
    words = " ".join(first.sentences)
    assert "Art. 6.3" in words and "in that order" in words
    # Only then is Art. 6 applied again, to 3 and 4 alone, who never met.
    again = standings.steps[1]
    assert again.tied == ("3", "4")
    assert again.groups == (("3", "4"),)


def test_gct_reg_4b_the_same_applies_to_the_second_rank() -> None:
    # Reg. 4 (b) uses the same separate standings (FIDE C.07 Art. 6.3).
    index = EventIndex.of(read_trf(SECOND_RANK, "de.trf"))
    ranked = resolve_tie(index, ("1", "2", "3", "4"), [LabelledCriterion("Reg. 4 (b)", Reg4b())], 1)
    assert ranked.groups == (("1",), ("2",), ("3", "4"))
    assert ranked.steps[0].groups == (("1",), ("2",), ("3", "4"))
    assert "Art. 6.3" in " ".join(ranked.steps[0].sentences)
    assert ranked.steps[1].tied == ("3", "4")
