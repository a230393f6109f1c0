"""Properties of the county rules: labels, match order and neutral venues change nothing."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from playoff_formats.model import BoardResult, Team, TeamEvent, TeamMatch, Venue
from playoff_formats.regulations import get_regulation

COUNTY = get_regulation("county1980")
FLIP = {
    BoardResult.HOME_WINS: BoardResult.AWAY_WINS,
    BoardResult.AWAY_WINS: BoardResult.HOME_WINS,
    BoardResult.DRAW: BoardResult.DRAW,
}


@st.composite
def leagues(draw: st.DrawFn, venues: tuple[Venue, ...] = tuple(Venue)) -> TeamEvent:
    n = draw(st.integers(min_value=2, max_value=5))
    ids = [f"t{i}" for i in range(n)]
    # Mostly drawn boards, so that ties (and deep rules) are common.
    board = st.sampled_from(
        [BoardResult.DRAW] * 3 + [BoardResult.HOME_WINS, BoardResult.AWAY_WINS]
    )
    matches = []
    for i, home in enumerate(ids):
        for away in ids[i + 1 :]:
            size = draw(st.sampled_from([2, 4, 6]))
            matches.append(
                TeamMatch(
                    round=len(matches) + 1,
                    home=home,
                    away=away,
                    venue=draw(st.sampled_from(venues)),
                    boards=draw(st.lists(board, min_size=size, max_size=size)),
                )
            )
    return TeamEvent(
        name="League", teams=[Team(id=t, name=f"County {t}") for t in ids], matches=matches
    )


@settings(max_examples=200, deadline=None)
@given(leagues(), st.randoms(use_true_random=False))
def test_relabelling_teams_and_reordering_matches_changes_nothing(
    event: TeamEvent, rng: random.Random
) -> None:
    ids = [t.id for t in event.teams]
    new = [f"x{i}" for i in range(len(ids))]
    rng.shuffle(new)
    mapping = dict(zip(ids, new, strict=True))
    teams = [t.model_copy(update={"id": mapping[t.id]}) for t in event.teams]
    matches = [
        m.model_copy(update={"home": mapping[m.home], "away": mapping[m.away]})
        for m in event.matches
    ]
    rng.shuffle(teams)
    rng.shuffle(matches)
    other = event.model_copy(update={"teams": teams, "matches": matches})
    a, b = COUNTY.standings(event), COUNTY.standings(other)
    assert {mapping[t]: r for t, r in a.ranks.items()} == b.ranks
    assert {mapping[t] for t in a.playoff} == set(b.playoff)


@settings(max_examples=200, deadline=None)
@given(leagues(venues=(Venue.NEUTRAL,)))
def test_home_and_away_are_symmetric_on_neutral_ground(event: TeamEvent) -> None:
    swapped = event.model_copy(
        update={
            "matches": [
                m.model_copy(
                    update={
                        "home": m.away,
                        "away": m.home,
                        "boards": [FLIP[b] for b in m.chess_boards],
                    }
                )
                for m in event.matches
            ]
        }
    )
    a, b = COUNTY.standings(event), COUNTY.standings(swapped)
    assert a.ranks == b.ranks
    assert set(a.playoff) == set(b.playoff)


@settings(max_examples=200, deadline=None)
@given(leagues())
def test_only_teams_level_on_match_points_are_reordered(event: TeamEvent) -> None:
    standings = COUNTY.standings(event)
    scores = [row.score for row in standings.rows]
    assert scores == sorted(scores, reverse=True)
    # A tie survives only when rule 7 could not separate it: every survivor is a play-off.
    for group in standings.groups:
        if len(group) > 1:
            assert set(group) <= set(standings.playoff)
