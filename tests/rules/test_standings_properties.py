"""Properties of the standings that hold for every event."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from playoff_formats.model import Bye, ByeKind, Game, IndividualEvent, Player, Result
from playoff_formats.regulations import get_regulation
from playoff_formats.tiebreaks.index import EventIndex

RESULTS = list(Result)
COMMON = [Result.WHITE_WINS, Result.BLACK_WINS, Result.DRAW]


@st.composite
def events(draw: st.DrawFn) -> IndividualEvent:
    """A round robin (single or double) or a short Swiss-like event with byes."""
    n = draw(st.integers(min_value=2, max_value=9))
    ids = [f"p{i}" for i in range(n)]
    names = draw(
        st.lists(st.sampled_from("ABCDEFGHJKLMNPQRSTUVWXYZ"), min_size=n, max_size=n)
    )
    players = [Player(id=pid, name=f"{nm} {pid}") for pid, nm in zip(ids, names, strict=True)]
    double = draw(st.booleans())
    games: list[Game] = []
    byes: list[Bye] = []
    rnd = 0
    pairs = [(a, b) for i, a in enumerate(ids) for b in ids[i + 1 :]]
    rare = draw(st.booleans())
    for legs in range(2 if double else 1):
        for a, b in pairs:
            rnd += 1
            result = draw(st.sampled_from(RESULTS if rare else COMMON))
            white, black = (a, b) if legs == 0 else (b, a)
            games.append(Game(round=rnd, white=white, black=black, result=result))
    if draw(st.booleans()):
        for pid in ids:
            kind = draw(st.sampled_from([None, *ByeKind]))
            if kind is not None:
                byes.append(Bye(round=rnd + 1, player=pid, kind=kind))
    return IndividualEvent(name="Generated", players=players, games=games, byes=byes)


def _relabel(event: IndividualEvent, mapping: dict[str, str]) -> IndividualEvent:
    return IndividualEvent(
        name=event.name,
        players=[p.model_copy(update={"id": mapping[p.id]}) for p in event.players],
        games=[
            g.model_copy(update={"white": mapping[g.white], "black": mapping[g.black]})
            for g in event.games
        ],
        byes=[b.model_copy(update={"player": mapping[b.player]}) for b in event.byes],
    )


GCT = get_regulation("gct2015")


@settings(max_examples=150, deadline=None)
@given(events(), st.randoms(use_true_random=False))
def test_input_order_changes_nothing(event: IndividualEvent, rng: random.Random) -> None:
    players = list(event.players)
    games = list(event.games)
    byes = list(event.byes)
    rng.shuffle(players)
    rng.shuffle(games)
    rng.shuffle(byes)
    shuffled = IndividualEvent(name=event.name, players=players, games=games, byes=byes)
    a, b = GCT.standings(event), GCT.standings(shuffled)
    assert a.ranks == b.ranks
    assert [r.id for r in a.rows] == [r.id for r in b.rows]
    assert set(a.playoff) == set(b.playoff)
    assert a.playoff == b.playoff
    assert {r.id: r.tiebreaks for r in a.rows} == {r.id: r.tiebreaks for r in b.rows}


@settings(max_examples=150, deadline=None)
@given(events(), st.randoms(use_true_random=False))
def test_relabelling_players_changes_nothing(
    event: IndividualEvent, rng: random.Random
) -> None:
    ids = [p.id for p in event.players]
    new = [f"x{i}" for i in range(len(ids))]
    rng.shuffle(new)
    mapping = dict(zip(ids, new, strict=True))
    a, b = GCT.standings(event), GCT.standings(_relabel(event, mapping))
    assert {mapping[p]: rank for p, rank in a.ranks.items()} == b.ranks
    assert [mapping[p] for p in a.playoff] == list(b.playoff)


@settings(max_examples=150, deadline=None)
@given(events())
def test_scores_sum_to_the_points_given(event: IndividualEvent) -> None:
    index = EventIndex.of(event)
    decided = sum(1 for g in event.games if g.result is not Result.DOUBLE_FORFEIT)
    bye_points = sum(b.kind.points for b in event.byes)
    assert sum(index.scores.values()) == decided + bye_points
    standings = GCT.standings(event)
    assert sum(r.score for r in standings.rows) == decided + bye_points


@settings(max_examples=150, deadline=None)
@given(events())
def test_ranks_are_competition_ranks_in_score_order(event: IndividualEvent) -> None:
    standings = GCT.standings(event)
    rows = standings.rows
    assert [r.score for r in rows] == sorted((r.score for r in rows), reverse=True)
    for position, row in enumerate(rows, start=1):
        assert row.rank <= position
        if row.rank < position:
            assert rows[row.rank - 1].rank == row.rank
    assert rows[0].rank == 1
