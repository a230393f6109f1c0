"""EBU White Book 143.2.2: a knock-out triangle of three teams, sentence by sentence.

A triangle is built from the IMPs of its three mini-matches (home, away), each
of ``boards`` scheduled boards (16 unless said: "2 x 16-board mini-matches").
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from playoff_formats.errors import PlayoffError, RegulationError
from playoff_formats.model import Team, TeamEvent, TeamMatch, Venue
from playoff_formats.regulations.ebu_143_2 import (
    Ebu1432Triangle,
    ebu_143_2_triangle,
    triangle,
)
from playoff_formats.standings import Standings

NAMES = {"N": "North", "S": "South", "E": "East"}


def mini(
    home: str,
    away: str,
    imps: tuple[float, float] | None = None,
    boards: list[int] | None = None,
    scheduled: int | None = 16,
    round: int = 1,
) -> TeamMatch:
    """A mini-match given by its IMPs (and scheduled boards) or by its boards' net scores."""
    if boards is not None:
        return TeamMatch(round=round, home=home, away=away, venue=Venue.NEUTRAL, boards=boards)
    return TeamMatch(
        round=round,
        home=home,
        away=away,
        venue=Venue.NEUTRAL,
        imps=imps,
        board_count=scheduled,
    )


def group(
    ns: tuple[float, float],
    se: tuple[float, float],
    en: tuple[float, float],
    scheduled: int | None = 16,
) -> TeamEvent:
    """North v South, South v East, East v North, IMPs from the home side."""
    return TeamEvent(
        name="Knock-out triangle",
        regulation="ebu-143.2-triangle",
        teams=[Team(id=t, name=n) for t, n in NAMES.items()],
        matches=[
            mini("N", "S", ns, scheduled=scheduled, round=1),
            mini("S", "E", se, scheduled=scheduled, round=2),
            mini("E", "N", en, scheduled=scheduled, round=3),
        ],
    )


def order(standings: Standings) -> list[str]:
    return [row.id for row in standings.rows]


def text(standings: Standings) -> str:
    return " ".join(standings.explanation)


def by_label(standings: Standings, label: str) -> list[str]:
    return [" ".join(s.sentences) for s in standings.steps if s.label == label]


# --- counting wins -------------------------------------------------------------------


def test_wins_a_drawn_match_counting_half_and_no_tie() -> None:
    # North beat South and East: 2; South beat East: 1; East 0.
    standings = ebu_143_2_triangle().standings(group((40, 30), (35, 20), (10, 50)))
    assert order(standings) == ["N", "S", "E"]
    assert [r.score for r in standings.rows] == [2, 1, 0]
    assert standings.playoff == ()
    assert by_label(standings, "143.2.2 wins") == [
        "143.2.2: wins, a drawn match counting as half a win: North 2, South 1, East 0."
    ]


def test_matches_scored_from_the_boards() -> None:
    # North beat South 9-0 IMPs on the boards (420, 0); South beat East; East beat North.
    ev = TeamEvent(
        name="t",
        teams=[Team(id=t, name=n) for t, n in NAMES.items()],
        matches=[
            mini("N", "S", boards=[420, 0]),
            mini("S", "E", boards=[0, 110]),
            mini("E", "N", boards=[-50, 100]),
        ],
    )
    standings = ebu_143_2_triangle().standings(ev)
    # Each won one (110 is 3 IMPs): net North +9 - 1 = +8, South -9 + 3 = -6, East -3 + 1 = -2.
    net = next(s for s in standings.steps if s.label == "143.2.2 net IMPs")
    assert net.values == {"E": -2, "N": 8, "S": -6}
    assert order(standings) == ["N", "E", "S"]


# --- paragraph 1: net IMPs, then the match between the two left tied --------------------


def test_each_team_won_one_and_lost_one_net_imps_rank_them() -> None:
    # North beat South by 10, South beat East by 5, East beat North by 20.
    standings = ebu_143_2_triangle().standings(group((40, 30), (25, 20), (45, 25)))
    assert [r.score for r in standings.rows] == [1, 1, 1]
    net = next(s for s in standings.steps if s.label == "143.2.2 net IMPs")
    assert net.values == {"E": 15, "N": -10, "S": -5}
    assert order(standings) == ["E", "S", "N"]
    assert (
        "143.2.2: each team won one match and lost one, so net IMPs over the series determine "
        "the ranking: East +15, North -10, South -5; East is first, South second and North "
        "third." in standings.explanation
    )
    assert standings.playoff == ()


def test_one_team_clearly_winning_then_the_match_between_the_other_two() -> None:
    # North beat South by 15, South beat East by 10, East beat North by 5:
    # North +10, South -5, East -5. North clearly wins; South beat East.
    standings = ebu_143_2_triangle().standings(group((45, 30), (30, 20), (25, 20)))
    assert order(standings) == ["N", "S", "E"]
    assert "North is excluded from the tie by clearly winning it." in text(standings)
    match = by_label(standings, "143.2.2 match between them")
    assert match == [
        "143.2.2: the result of the match between East and South ranks them: South beat East "
        "30–20 IMPs; South is second."
    ]


def test_one_team_clearly_losing_then_the_match_between_the_other_two() -> None:
    # North beat South by 15, South beat East by 20, East beat North by 10:
    # North +5, South +5, East -10. East clearly loses; North beat South.
    standings = ebu_143_2_triangle().standings(group((45, 30), (40, 20), (30, 20)))
    assert order(standings) == ["N", "S", "E"]
    assert "East is excluded from the tie by clearly losing it." in text(standings)
    assert "North beat South 45–30 IMPs; North is first." in text(standings)
    assert standings.playoff == ()


def test_all_matches_drawn_leaves_all_three_level_on_net_imps() -> None:
    # Every net is 0: the text is silent; policy: extra boards among all three.
    standings = ebu_143_2_triangle().standings(group((30, 30), (12, 12), (40, 40)))
    assert [r.rank for r in standings.rows] == [1, 1, 1]
    assert "all three matches were drawn" in text(standings)
    assert "All three are still tied." in text(standings)
    assert set(standings.playoff) == {"N", "S", "E"}
    assert "The text is silent when all three are level on net IMPs" in text(standings)
    assert "East v North 2 boards" in text(standings)
    assert standings.row("E").tiebreaks["extra_boards"] == 4


def test_each_won_one_with_equal_net_imps_leaves_all_three_level() -> None:
    standings = triangle(qualifiers=2).standings(group((30, 20), (30, 20), (30, 20)))
    assert [r.rank for r in standings.rows] == [1, 1, 1]
    assert set(standings.playoff) == {"N", "S", "E"}


# --- paragraph 2: two teams drew and are tied for top or bottom ----------------------------


def tied_for_top() -> TeamEvent:
    """North and South drew 45-45; both beat East (North by 50, South by 1): 1½, 1½, 0."""
    return group((45, 45), (31, 30), (10, 60))


def tied_for_bottom() -> TeamEvent:
    """East beat both; North and South drew 20-20: 2, ½, ½."""
    return group((20, 20), (10, 40), (50, 10))


def test_two_qualify_tied_for_top_it_is_not_necessary_to_split() -> None:
    standings = triangle(qualifiers=2).standings(tied_for_top())
    assert [(r.id, r.rank) for r in standings.rows] == [("N", 1), ("S", 1), ("E", 3)]
    assert standings.playoff == ()
    assert not any(r.playoff for r in standings.rows)
    assert "it is not necessary to split the tie; they share places 1-2." in text(standings)
    assert ["N", "S"] in standings.to_json()["unresolved"]


def test_one_qualifies_tied_for_bottom_the_winner_is_undisputed() -> None:
    standings = triangle(qualifiers=1).standings(tied_for_bottom())
    assert [(r.id, r.rank) for r in standings.rows] == [("E", 1), ("N", 2), ("S", 2)]
    assert standings.playoff == ()
    assert "one team qualifies and it is the undisputed winner above them" in text(standings)


def test_one_qualifies_tied_for_top_extra_boards_between_the_two() -> None:
    standings = triangle(qualifiers=1).standings(tied_for_top())
    assert standings.playoff == ("N", "S")
    assert [r.playoff for r in standings.rows] == [True, True, False]
    assert [r.rank for r in standings.rows] == [1, 1, 3]
    # "Thus, playing 2 x 16-board mini-matches ... a further 2 boards."
    assert (
        "North and South play 2 extra boards (one-eighth of the 16 scheduled boards of their "
        "mini-match, at least 2), repeated while they remain tied" in text(standings)
    )
    step = next(s for s in standings.steps if s.label == "143.2.2 extra boards")
    assert step.tied == ("N", "S")
    assert step.values == {"N": 2.0, "S": 2.0}
    assert standings.row("N").tiebreaks["extra_boards"] == 2


def test_two_qualify_tied_for_bottom_extra_boards() -> None:
    standings = triangle(qualifiers=2).standings(tied_for_bottom())
    assert standings.playoff == ("N", "S")
    assert "two teams qualify, so the tie decides who goes through: it must be split" in text(
        standings
    )
    assert "tied for places 2-3" in text(standings)


def test_note_imps_against_the_third_team_are_totally_irrelevant() -> None:
    # North beat East by 50, South by 1: net IMPs would favour North, but they are
    # not used; extra boards decide.
    standings = triangle(qualifiers=1).standings(tied_for_top())
    assert "143.2.2 net IMPs" not in [s.label for s in standings.steps]
    assert "The IMPs won or lost against East are totally irrelevant (143.2.2 Note)." in text(
        standings
    )
    # Whatever the margins against East, the outcome is the same.
    other = triangle(qualifiers=1).standings(group((45, 45), (80, 0), (79, 80)))
    assert other.playoff == standings.playoff
    assert [r.rank for r in other.rows] == [r.rank for r in standings.rows]


def test_necessary_circumstance_next_round_opponents_depend_on_the_ranking() -> None:
    loose = triangle(qualifiers=2, next_round_depends_on_order=False).standings(tied_for_top())
    strict = triangle(qualifiers=2, next_round_depends_on_order=True).standings(tied_for_top())
    assert loose.playoff == ()
    assert strict.playoff == ("N", "S")
    assert "defines as a necessary circumstance: it must be split" in text(strict)
    # The order of teams that do not qualify never matters.
    bottom = triangle(qualifiers=1, next_round_depends_on_order=True).standings(tied_for_bottom())
    assert bottom.playoff == ()


def test_extra_boards_one_eighth_of_the_mini_match_at_least_two_rounded_up() -> None:
    for scheduled, extra in [(16, 2), (8, 2), (24, 3), (20, 3), (32, 4)]:
        ev = group((45, 45), (31, 30), (10, 60), scheduled=scheduled)
        standings = triangle(qualifiers=1).standings(ev)
        assert f"play {extra} extra boards (one-eighth of the {scheduled} scheduled" in text(
            standings
        )


def test_extra_boards_when_the_scheduled_boards_are_not_given() -> None:
    standings = triangle(qualifiers=1).standings(group((45, 45), (31, 30), (10, 60), None))
    assert "the event does not give how many were scheduled" in text(standings)
    assert standings.playoff == ("N", "S")


# --- input ------------------------------------------------------------------------


def test_registered_default_one_qualifier_order_does_not_matter() -> None:
    reg = ebu_143_2_triangle()
    assert (reg.qualifiers, reg.next_round_depends_on_order) == (1, False)
    assert reg.name == "ebu-143.2-triangle"
    assert reg.title.endswith("(one team qualifies)")


def test_qualifiers_must_be_one_or_two() -> None:
    with pytest.raises(RegulationError):
        triangle(qualifiers=3)


def test_a_triangle_has_three_teams_and_three_mini_matches() -> None:
    ev = group((1, 0), (1, 0), (1, 0))
    with pytest.raises(PlayoffError, match="three mini-matches"):
        ebu_143_2_triangle().standings(ev.model_copy(update={"matches": ev.matches[:2]}))
    twice = [*ev.matches[:2], mini("S", "N", (3, 3))]
    with pytest.raises(PlayoffError, match="one mini-match between each pair"):
        ebu_143_2_triangle().standings(ev.model_copy(update={"matches": twice}))
    with pytest.raises(PlayoffError, match="three teams"):
        ebu_143_2_triangle().standings(
            ev.model_copy(update={"teams": [*ev.teams, Team(id="W", name="West")]})
        )


# --- properties ---------------------------------------------------------------------

IMPS = st.integers(min_value=0, max_value=6).map(lambda i: float(i * 5))
CONFIGS = [triangle(q, d) for q in (1, 2) for d in (False, True)]


@st.composite
def triangles(draw: st.DrawFn) -> TeamEvent:
    pairs = [("N", "S"), ("S", "E"), ("E", "N")]
    matches = []
    for r, (a, b) in enumerate(pairs, start=1):
        scheduled = draw(st.sampled_from([None, 8, 16, 20, 24]))
        if draw(st.booleans()):
            nets = draw(st.lists(st.sampled_from([0, 10, -10, 110, -110, 420]), min_size=2))
            matches.append(mini(a, b, boards=nets, round=r))
        else:
            matches.append(mini(a, b, (draw(IMPS), draw(IMPS)), scheduled=scheduled, round=r))
    return TeamEvent(
        name="t", teams=[Team(id=t, name=n) for t, n in NAMES.items()], matches=matches
    )


@settings(max_examples=200, deadline=None)
@given(triangles(), st.randoms(use_true_random=False), st.sampled_from(CONFIGS))
def test_relabelling_and_reordering_changes_nothing(
    event: TeamEvent, rng: random.Random, reg: Ebu1432Triangle
) -> None:
    ids = ["N", "S", "E"]
    new = ids[:]
    rng.shuffle(new)
    mapping = dict(zip(ids, [f"x{t}" for t in new], strict=True))
    teams = [t.model_copy(update={"id": mapping[t.id]}) for t in event.teams]
    matches = [
        m.model_copy(update={"home": mapping[m.home], "away": mapping[m.away]})
        for m in event.matches
    ]
    rng.shuffle(teams)
    rng.shuffle(matches)
    relabelled = event.model_copy(update={"teams": teams, "matches": matches})
    before, after = reg.standings(event), reg.standings(relabelled)
    assert {mapping[t]: r for t, r in before.ranks.items()} == after.ranks
    assert [mapping[r.id] for r in before.rows] == [r.id for r in after.rows]
    assert tuple(mapping[t] for t in before.playoff) == after.playoff
    assert [r.tiebreaks for r in before.rows] == [r.tiebreaks for r in after.rows]
    assert before.explanation == after.explanation


@settings(max_examples=200, deadline=None)
@given(triangles(), st.sampled_from(CONFIGS))
def test_neutral_venue_home_away_swap_changes_nothing(
    event: TeamEvent, reg: Ebu1432Triangle
) -> None:
    def swap(m: TeamMatch) -> TeamMatch:
        return m.model_copy(
            update={
                "home": m.away,
                "away": m.home,
                "boards": [-b for b in m.bridge_boards],
                "imps": None if m.imps is None else (m.imps[1], m.imps[0]),
            }
        )

    swapped = event.model_copy(update={"matches": [swap(m) for m in event.matches]})
    assert reg.standings(event).to_json() == reg.standings(swapped).to_json()


@pytest.mark.parametrize(
    ("name", "qualifiers", "ordered", "splits_a_tie_for_top"),
    [
        ("ebu-143.2-triangle", 1, False, True),
        ("ebu-143.2-triangle-ordered", 1, True, True),
        ("ebu-143.2-triangle-2", 2, False, False),
        ("ebu-143.2-triangle-2-ordered", 2, True, True),
    ],
)
def test_143_2_2_each_number_of_qualifiers_and_order_is_a_named_regulation(
    name: str, qualifiers: int, ordered: bool, splits_a_tie_for_top: bool
) -> None:
    # 143.2.2: the tie for top needs splitting when one team qualifies, or when
    # two do and "next round opponents are dependent upon the exact rankings".
    from playoff_formats.regulations import get_regulation

    regulation = get_regulation(name)
    assert isinstance(regulation, Ebu1432Triangle)
    assert (regulation.qualifiers, regulation.next_round_depends_on_order) == (
        qualifiers, ordered,
    )
    standings = regulation.standings(tied_for_top())
    assert standings.regulation == name
    assert (standings.playoff == ("N", "S")) is splits_a_tie_for_top
