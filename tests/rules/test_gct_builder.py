"""GCT 2015 play-offs (regs. 6-10): brackets, byes, feeders, deciders, properties."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from playoff_formats.builders.gct import bracket_json, gct2015_playoff
from playoff_formats.errors import PlayoffError
from playoff_formats.model import Result
from playoff_formats.playoff import (
    DecisionMethod,
    Game,
    GameKind,
    Match,
    MatchStatus,
    Playoff,
    champion,
    choose_decider_colours,
    correct_result,
    final_match,
    match_decision,
    record_result,
    set_game_one_colours,
    start_match,
    winner,
)
from playoff_formats.timecontrol import ARMAGEDDON, RAPID_15_5, RAPID_25_5

W, B, D = Result.WHITE_WINS, Result.BLACK_WINS, Result.DRAW
G25, G15, ARM = "G/25+5", "G/15+5", "W 6' / B 5', +3 s from move 61"


def players(n: int) -> list[str]:
    return [f"p{i}" for i in range(1, n + 1)]


def shape(p: Playoff) -> list[tuple[int, int, list[int], list[int]]]:
    """(id, round, seeds, feeds) of every match, from bracket_json."""
    return [(m["id"], m["round"], m["seeds"], m["feeds"]) for m in bracket_json(p)["matches"]]


def play(p: Playoff, match_id: int, first: Result, second: Result) -> Playoff:
    a, b = p.match(match_id).players
    assert a is not None and b is not None
    p = set_game_one_colours(p, match_id, a, b)
    p = record_result(p, match_id, 1, first)
    return record_result(p, match_id, 2, second)


def first_slot_wins(p: Playoff, match_id: int) -> Playoff:
    return play(p, match_id, W, B)


# --- reg. 6: two players ---------------------------------------------------------


def test_reg_6_two_players_play_one_two_game_match_at_g25() -> None:
    p = gct2015_playoff(["Carlsen", "Nakamura"])
    assert shape(p) == [(1, 1, [1, 2], [])]
    (m,) = bracket_json(p)["matches"]
    assert (m["time_control"], m["decider"]) == (G25, ARM)
    assert p.match(1).time_control == RAPID_25_5
    assert p.match(1).status is MatchStatus.READY
    assert [g.kind for g in p.games_of(1)] == [GameKind.REGULAR, GameKind.REGULAR]


def test_reg_6_lots_for_game_one_then_armageddon_if_level() -> None:
    p = gct2015_playoff(["Carlsen", "Nakamura"])
    p = set_game_one_colours(p, 1, "Nakamura", "Carlsen")  # Nakamura won the lots
    p = start_match(p, 1)
    p = record_result(p, 1, 1, D)
    p = record_result(p, 1, 2, D)
    assert champion(p) is None
    assert p.game(1, 3) is not None
    p = choose_decider_colours(p, 1, "Carlsen", "Nakamura")
    p = record_result(p, 1, 3, B)
    assert champion(p) == "Nakamura"


# --- reg. 7: three players -----------------------------------------------------------


def test_reg_7_seeds_2_and_3_play_then_the_winner_meets_seed_1() -> None:
    p = gct2015_playoff(["A", "B", "C"])
    assert shape(p) == [(1, 1, [2, 3], []), (2, 2, [1], [1])]
    assert all(m.time_control == RAPID_25_5 for m in p.matches)
    assert all(m.decider == ARMAGEDDON for m in p.matches)
    assert not any(m.bye for m in p.matches)  # the text gives seed 1 no bye match
    assert p.match(2).status is MatchStatus.LOCKED
    p = play(p, 1, D, D)  # drawn: an Armageddon game (reg. 7)
    p = choose_decider_colours(p, 1, "B", "C")
    p = record_result(p, 1, 3, D)  # C had Black: C advances
    assert p.match(2).players == ("A", "C")
    p = first_slot_wins(p, 2)
    assert champion(p) == "A"


# --- reg. 8: four players -------------------------------------------------------------


def test_reg_8_one_v_four_two_v_three_then_the_winners_at_g25() -> None:
    p = gct2015_playoff(["A", "B", "C", "D"])
    assert shape(p) == [(1, 1, [1, 4], []), (2, 1, [2, 3], []), (3, 2, [], [1, 2])]
    assert {m["time_control"] for m in bracket_json(p)["matches"]} == {G25}
    p = first_slot_wins(p, 1)
    p = play(p, 2, B, W)  # C wins both (Black, then White)
    assert p.match(3).players == ("A", "C")
    p = play(p, 3, B, W)
    assert champion(p) == "C"


# --- reg. 9: five to eight players --------------------------------------------------


def test_reg_9_eight_players_pairings_and_second_round() -> None:
    p = gct2015_playoff(players(8))
    assert shape(p) == [
        (1, 1, [1, 8], []),
        (2, 1, [2, 7], []),
        (3, 1, [3, 6], []),
        (4, 1, [4, 5], []),
        (5, 2, [], [1, 4]),  # the winner of 1 v 8 plays the winner of 4 v 5
        (6, 2, [], [2, 3]),  # the winner of 2 v 7 plays the winner of 3 v 6
        (7, 3, [], [5, 6]),
    ]
    # Reading chosen: G/15+5 "throughout", the final included.
    assert {m["time_control"] for m in bracket_json(p)["matches"]} == {G15}
    assert final_match(p).time_control == RAPID_15_5
    assert {m["decider"] for m in bracket_json(p)["matches"]} == {ARM}


@pytest.mark.parametrize(("n", "byes"), [(5, [1, 2, 3]), (6, [1, 2]), (7, [1])])
def test_reg_9_the_top_seeds_get_a_first_round_bye(n: int, byes: list[int]) -> None:
    p = gct2015_playoff(players(n))
    doc = bracket_json(p)["matches"]
    bye_matches = [m for m in doc if m["bye"]]
    assert [m["seeds"] for m in bye_matches] == [[s] for s in byes]
    assert all(m["round"] == 1 and m["time_control"] is None for m in bye_matches)
    assert all(m.status is MatchStatus.COMPLETED for m in p.matches if m.bye)
    played = [m for m in doc if not m["bye"]]
    assert {m["time_control"] for m in played} == {G15}
    # Every seed with a bye sits directly in the second round.
    second = [m for m in doc if m["round"] == 2]
    assert sorted(s for m in second for s in m["seeds"]) == byes


def test_reg_9_five_players_bracket() -> None:
    p = gct2015_playoff(players(5))
    assert shape(p) == [
        (1, 1, [1], []),  # bye
        (2, 1, [2], []),  # bye
        (3, 1, [3], []),  # bye
        (4, 1, [4, 5], []),
        (5, 2, [1], [4]),  # seed 1 waits for the winner of 4 v 5
        (6, 2, [2, 3], []),
        (7, 3, [], [5, 6]),
    ]
    assert p.match(6).status is MatchStatus.WAITING  # round 1 is not over yet
    p = first_slot_wins(p, 4)
    assert p.match(5).players == ("p1", "p4")
    assert p.match(5).status is MatchStatus.READY
    assert p.match(6).status is MatchStatus.READY


def test_reg_9_seven_players_bracket() -> None:
    assert shape(gct2015_playoff(players(7))) == [
        (1, 1, [1], []),
        (2, 1, [2, 7], []),
        (3, 1, [3, 6], []),
        (4, 1, [4, 5], []),
        (5, 2, [1], [4]),
        (6, 2, [], [2, 3]),
        (7, 3, [], [5, 6]),
    ]


@pytest.mark.parametrize("n", range(2, 9))
def test_every_count_from_2_to_8_has_n_minus_1_matches_and_one_final(n: int) -> None:
    p = gct2015_playoff(players(n))
    played = [m for m in p.matches if not m.bye]
    assert len(played) == n - 1
    assert len([m for m in p.matches if m.bye]) == (8 - n if n >= 5 else 0)
    doc = bracket_json(p)
    fed = [f for m in doc["matches"] for f in m["feeds"]]
    assert len(fed) == len(set(fed))  # each winner goes to one place
    assert [m["id"] for m in doc["matches"] if not m["bye"] and m["id"] not in fed] == [
        final_match(p).id
    ]
    assert doc["participants"] == [{"seed": i, "id": f"p{i}"} for i in range(1, n + 1)]
    seeded = sorted(s for m in doc["matches"] for s in m["seeds"] if not m["bye"])
    assert seeded == list(range(1, n + 1))  # every seed enters a played match once


# --- outside the text ------------------------------------------------------------------


def test_more_than_eight_players_is_refused_without_generic() -> None:
    with pytest.raises(PlayoffError, match="2 to 8 players only; pass generic=True"):
        gct2015_playoff(players(9))


@pytest.mark.parametrize("n", [9, 12, 16, 17])
def test_generic_knockout_beyond_eight(n: int) -> None:
    p = gct2015_playoff(players(n), generic=True)
    size = 1 << (n - 1).bit_length()
    assert len([m for m in p.matches if m.bye]) == size - n
    assert sorted(m.slots[0].seed or 0 for m in p.matches if m.bye) == list(range(1, size - n + 1))
    assert len([m for m in p.matches if not m.bye]) == n - 1
    assert {m.time_control for m in p.matches if not m.bye} == {RAPID_15_5}
    assert "outside" in p.name
    assert play_all(p, [W, B]) is not None


def test_fewer_than_two_players_or_repeated_ids_are_refused() -> None:
    with pytest.raises(PlayoffError, match="at least two players"):
        gct2015_playoff(["A"])
    with pytest.raises(PlayoffError, match="at least two players"):
        gct2015_playoff([])
    with pytest.raises(PlayoffError, match="seeded twice"):
        gct2015_playoff(["A", "B", "A"])
    with pytest.raises(PlayoffError, match="empty"):
        gct2015_playoff(["A", ""])


def play_all(p: Playoff, results: list[Result]) -> str | None:
    while champion(p) is None:
        match = next(m for m in p.matches if m.status is MatchStatus.READY)
        p = play(p, match.id, results[0], results[1])
    return champion(p)


# --- reg. 10: the Armageddon game ----------------------------------------------------


def test_reg_10a_the_decider_is_white_6_black_5_plus_3_from_move_61() -> None:
    p = gct2015_playoff(players(8))
    assert all(m.decider == ARMAGEDDON for m in p.matches)
    assert str(ARMAGEDDON) == ARM


def test_reg_10b_a_drawn_armageddon_stays_a_draw_and_black_advances() -> None:
    p = play(gct2015_playoff(players(8)), 1, D, D)
    p = choose_decider_colours(p, 1, "p1", "p8")
    p = record_result(p, 1, 3, D)
    game = p.game(1, 3)
    assert game is not None and game.kind is GameKind.ARMAGEDDON
    assert game.result is Result.DRAW  # the game keeps its result
    decision = match_decision(p.match(1))
    assert decision is not None
    assert decision.method is DecisionMethod.ARMAGEDDON_DRAW
    assert decision.winner == "p8" and decision.loser == "p1"  # Black advances
    assert p.match(5).players == ("p8", None)


def test_reg_10c_the_toss_winner_chooses_and_no_result_before_the_choice() -> None:
    p = play(gct2015_playoff(players(2)), 1, W, W)  # each wins with White: level
    with pytest.raises(PlayoffError, match="coin toss"):
        record_result(p, 1, 3, W)
    p = choose_decider_colours(p, 1, "p2", "p1")  # the toss winner chose White
    game = p.game(1, 3)
    assert game is not None and (game.white, game.black) == ("p2", "p1")


# --- correction: no stale downstream match -------------------------------------------


def test_correcting_a_first_round_result_resets_only_the_affected_path() -> None:
    p = gct2015_playoff(players(8))
    for m in range(1, 8):
        p = first_slot_wins(p, m)
    assert champion(p) == "p1"
    p = correct_result(p, 1, 1, B)  # p8 won game 1 with Black: 1-1, level
    assert winner(p.match(1)) is None and p.game(1, 3) is not None
    assert p.match(5).players == (None, "p4") and p.games_of(5) == ()
    assert p.match(5).status is MatchStatus.LOCKED
    assert_no_stale(p)
    p = correct_result(p, 1, 2, W)  # and game 2 with White: p8 wins 2-0
    assert p.game(1, 3) is None
    assert winner(p.match(1)) == "p8"
    assert p.match(5).players == ("p8", "p4")
    assert p.match(5).status is MatchStatus.READY
    assert p.match(7).players == (None, "p2")
    assert p.match(7).status is MatchStatus.LOCKED
    assert p.games_of(7) == ()
    assert p.match(6).status is MatchStatus.COMPLETED  # untouched path
    assert_no_stale(p)


# --- properties ------------------------------------------------------------------------

ALL = list(Result)
ARMAGEDDON_RESULTS = [r for r in Result if r is not Result.DOUBLE_FORFEIT]


def expected_winner(p: Playoff, match: Match) -> str | None:
    """An independent reading of the rules: two games, then the Armageddon."""
    if match.bye:
        return match.players[0]
    a, b = match.players
    if a is None or b is None:
        return None
    games = p.games_of(match.id)
    regular = [g for g in games if g.kind is GameKind.REGULAR]
    if len(regular) != 2 or any(g.result is None for g in regular):
        return None
    points = {a: 0.0, b: 0.0}
    for g in regular:
        assert g.result is not None and g.white is not None and g.black is not None
        points[g.white] += g.result.white_points
        points[g.black] += g.result.black_points
    if points[a] != points[b]:
        return a if points[a] > points[b] else b
    decider = [g for g in games if g.kind is GameKind.ARMAGEDDON]
    if not decider or decider[0].result is None:
        return None
    g = decider[0]
    assert g.result is not None
    if g.result is Result.DRAW:
        return g.black
    return g.white if g.result.white_points > g.result.black_points else g.black


def assert_no_stale(p: Playoff) -> None:
    """Every derived value agrees with the base data, match by match."""
    seeds = {pt.seed: pt.id for pt in p.participants}
    by_id = {m.id: m for m in p.matches}
    for m in p.matches:
        for slot in m.slots:
            if slot is None:
                continue
            if slot.seed is not None:
                assert slot.player == seeds[slot.seed]
            else:
                assert slot.winner_of is not None
                assert slot.player == expected_winner(p, by_id[slot.winner_of]), (
                    f"match {m.id} is stale"
                )
        assert winner(m) == expected_winner(p, m)
        games = p.games_of(m.id)
        if m.bye or None in m.players:
            assert games == ()
            assert m.status is (MatchStatus.COMPLETED if m.bye else MatchStatus.LOCKED)
            continue
        assert [g.number for g in games][:2] == [1, 2]
        for g in games:
            if g.white is not None:
                assert {g.white, g.black} == set(m.players)
        regular = games[:2]
        # The Armageddon exists exactly when both regular games are played and level.
        assert (len(games) == 3) == (all(g.result is not None for g in regular) and _level(regular))
        if len(games) == 3:
            assert games[2].kind is GameKind.ARMAGEDDON
        if m.decision is not None:
            assert m.status is MatchStatus.COMPLETED
        elif m.started or any(g.result is not None for g in games):
            assert m.status is MatchStatus.RUNNING
        else:
            assert m.status in (MatchStatus.READY, MatchStatus.WAITING)


def _level(regular: tuple[Game, ...]) -> bool:
    first = regular[0]
    assert first.white is not None and first.black is not None
    points = {first.white: 0.0, first.black: 0.0}
    for g in regular:
        assert g.result is not None and g.white is not None and g.black is not None
        points[g.white] += g.result.white_points
        points[g.black] += g.result.black_points
    return points[first.white] == points[first.black]


def step(p: Playoff, data: Any) -> Playoff:
    """One arbiter action on a playable match: lots, start, toss, or a result."""
    playable = [m for m in p.matches if m.status in (MatchStatus.READY, MatchStatus.RUNNING)]
    assert playable, "the play-off is stuck: nothing playable and no champion"
    m = data.draw(st.sampled_from(playable))
    a, b = m.players
    assert a is not None and b is not None
    games = p.games_of(m.id)
    if games[0].white is None:
        white = data.draw(st.sampled_from([a, b]))
        return set_game_one_colours(p, m.id, white, b if white == a else a)
    if m.status is MatchStatus.READY and data.draw(st.booleans()):
        return start_match(p, m.id)
    game = next(g for g in games if g.result is None)
    if game.white is None:
        white = data.draw(st.sampled_from([a, b]))
        return choose_decider_colours(p, m.id, white, b if white == a else a)
    pool = ARMAGEDDON_RESULTS if game.kind is GameKind.ARMAGEDDON else ALL
    return record_result(p, m.id, game.number, data.draw(st.sampled_from(pool)))


def play_to_end(p: Playoff, data: Any) -> Playoff:
    for _ in range(200):
        if champion(p) is not None:
            return p
        p = step(p, data)
    raise AssertionError("no champion after 200 actions")


def assert_paths(p: Playoff, n: int) -> None:
    champ = champion(p)
    assert champ is not None
    assert all(m.status is MatchStatus.COMPLETED for m in p.matches)
    losses: dict[str, int] = {}
    per_round: dict[tuple[int, int], list[str]] = {}
    for m in p.matches:
        decision = match_decision(m)
        assert decision is not None
        names = [x for x in m.players if x is not None]
        per_round.setdefault((m.stage, m.round), []).extend(names)
        if not m.bye:
            assert decision.loser is not None
            assert {decision.winner, decision.loser} == set(names)
            losses[decision.loser] = losses.get(decision.loser, 0) + 1
    for names in per_round.values():
        assert len(names) == len(set(names))  # at most one match per round
    assert all(count == 1 for count in losses.values())  # loses at most once
    assert champ not in losses  # the champion never lost
    assert set(losses) | {champ} == {pt.id for pt in p.participants}
    assert len(losses) == n - 1  # exactly one player never lost


@settings(max_examples=120, deadline=None)
@given(n=st.integers(min_value=2, max_value=8), data=st.data())
def test_property_every_bracket_played_to_the_end_has_one_champion(n: int, data: Any) -> None:
    p = play_to_end(gct2015_playoff(players(n)), data)
    assert_paths(p, n)
    assert_no_stale(p)


def downstream(p: Playoff, match_id: int) -> set[int]:
    found: set[int] = set()
    frontier = {match_id}
    while frontier:
        nxt = {m.id for m in p.matches if set(m.feeders) & frontier}
        frontier = nxt - found
        found |= nxt
    return found


@settings(max_examples=120, deadline=None)
@given(n=st.integers(min_value=2, max_value=8), data=st.data())
def test_property_random_corrections_leave_no_stale_match(n: int, data: Any) -> None:
    p = gct2015_playoff(players(n))
    if data.draw(st.booleans()):
        p = play_to_end(p, data)
    else:
        for _ in range(data.draw(st.integers(min_value=0, max_value=40))):
            if champion(p) is not None:
                break
            p = step(p, data)
    for _ in range(data.draw(st.integers(min_value=1, max_value=4))):
        recorded = [g for g in p.games if g.result is not None]
        if not recorded:
            break
        g = data.draw(st.sampled_from(recorded))
        pool = ARMAGEDDON_RESULTS if g.kind is GameKind.ARMAGEDDON else ALL
        before = p
        p = correct_result(p, g.match, g.number, data.draw(st.sampled_from(pool)))
        assert_no_stale(p)
        # Matches off the corrected path keep everything; downstream matches whose
        # participants did not change keep their games too.
        touched = downstream(p, g.match) | {g.match}
        for m in p.matches:
            old = before.match(m.id)
            if m.id not in touched or (m.players == old.players and m.id != g.match):
                assert p.games_of(m.id) == before.games_of(m.id)
    p = play_to_end(p, data)
    assert_paths(p, n)
    assert_no_stale(p)
