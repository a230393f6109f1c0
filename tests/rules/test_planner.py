"""The pure schedule planner (playoff_formats.schedule).

Time is an argument, so hours of play are planned in milliseconds. Every expected
time below is computed by hand in the comments. Lengths from the time control
(``estimated_duration_ms``, 60 moves unless said): G/25+5 is 2 x (25 min + 60 x 5 s)
= 60 min; G/15+5 is 2 x (15 + 5) = 40 min; G/20+5 is 50 min; G/10+5 is 30 min;
G/5+3 is 2 x (5 + 3) = 16 min; G/3+2 is 2 x (3 + 2) = 10 min; the Armageddon
(W 6' / B 5', +3 s from move 61) is 6 + 5 = 11 min (no increment up to move 60).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from pydantic import ValidationError

from playoff_formats.builders.gct import gct2015_playoff
from playoff_formats.builders.stanzas import extra_boards
from playoff_formats.model import Result
from playoff_formats.phrase import Player
from playoff_formats.playoff import Playoff, record_result, set_game_one_colours, start_match
from playoff_formats.schedule import (
    Actuals,
    BreakKind,
    Constraints,
    GameActual,
    Overrides,
    PinnedStart,
    Plan,
    PlanError,
    Postponement,
    Problem,
    ProblemKind,
    StanzaToPlace,
    TimeControlChange,
    UnitKind,
    UnitStatus,
    plan_playoff,
    plan_stanzas,
    playoff_units,
    stanzas_from_plan,
)
from playoff_formats.timecontrol import TimeControl

MIN = timedelta(minutes=1)


def at(hour: int, minute: int, second: int = 0, *, day: int = 13) -> datetime:
    return datetime(2015, 12, day, hour, minute, second, tzinfo=UTC)


def seeds(n: int) -> list[str]:
    return [f"p{i}" for i in range(1, n + 1)]


def ended(n: int) -> dict[str, datetime]:
    """Every play-off player finished at 18:10, except p2 at 18:40: the break ends 19:10."""
    out = {p: at(18, 10) for p in seeds(n)}
    out["p2"] = at(18, 40)
    return out


def times(plan: Plan) -> list[tuple[int, int, datetime, datetime]]:
    return [(g.match, g.game, g.start, g.end) for g in plan.games]


def interval_breaks(plan: Plan) -> list[tuple[tuple[str, ...], datetime, datetime]]:
    return [(b.who, b.start, b.end) for b in plan.breaks if b.kind is BreakKind.INTERVAL]


# --- the break after the main event (reg. 5) --------------------------------------------


def test_reg_5_break_of_30_minutes_after_the_last_game_of_any_playoff_player() -> None:
    # p1 ended at 18:10, p2 at 18:40; "x" is not in the play-off and ended at 19:30:
    # the break runs from 18:40 (p2) to 19:10, and x does not matter.
    c = Constraints(main_event_ended={"p1": at(18, 10), "p2": at(18, 40), "x": at(19, 30)})
    plan = plan_playoff(gct2015_playoff(seeds(2)), c)
    assert (plan.break_over, plan.earliest_start) == (at(19, 10), at(19, 10))
    assert plan.start == at(19, 10)
    first = plan.game(1, 1)
    assert (first.start, first.end) == (at(19, 10), at(20, 10))  # 19:10 + 60 min
    assert first.reason.startswith("the 30-minute break after the main event (reg. 5)")
    assert "(p2)" in first.reason
    main = plan.breaks[0]
    assert main.kind is BreakKind.MAIN_EVENT
    assert (main.who, main.start, main.end) == (("p1", "p2"), at(18, 40), at(19, 10))
    assert main.reason == "30-minute break after the main event (reg. 5)"
    assert plan.warnings == ()


def test_break_length_is_configurable() -> None:
    # 45 minutes after 18:40: 19:25.
    c = Constraints(main_event_ended=ended(2), break_after_main_event=timedelta(minutes=45))
    plan = plan_playoff(gct2015_playoff(seeds(2)), c)
    assert plan.game(1, 1).start == at(19, 25)
    assert plan.breaks[0].reason == "45-minute break after the main event (reg. 5)"


def test_not_before_later_than_the_break_wins() -> None:
    # The break ends at 19:10, the organiser's earliest start is 19:30.
    c = Constraints(main_event_ended=ended(2), not_before=at(19, 30))
    plan = plan_playoff(gct2015_playoff(seeds(2)), c)
    assert plan.game(1, 1).start == at(19, 30)
    assert plan.game(1, 1).reason == "the organiser's earliest start"
    assert (plan.break_over, plan.earliest_start) == (at(19, 10), at(19, 30))


def test_unknown_main_event_end_falls_back_to_not_before_with_a_warning() -> None:
    # p2's end is unknown: p1's 18:10 + 30 = 18:40 < not_before 19:30 -> 19:30.
    c = Constraints(main_event_ended={"p1": at(18, 10)}, not_before=at(19, 30))
    plan = plan_playoff(gct2015_playoff(seeds(2)), c)
    assert plan.game(1, 1).start == at(19, 30)
    assert len(plan.warnings) == 1
    assert "p2 is unknown" in plan.warnings[0]


def test_unknown_main_event_end_without_not_before_is_refused() -> None:
    c = Constraints(main_event_ended={"p1": at(18, 10), "x": at(18, 20)})
    with pytest.raises(PlanError, match="p2 is unknown"):
        plan_playoff(gct2015_playoff(seeds(2)), c)


def test_a_plan_refused_for_unknown_main_event_ends_names_the_players_and_keeps_them_as_data(
) -> None:
    c = Constraints(
        main_event_ended={"p1": at(18, 10)},
        names={"p2": "Sindarov, Javokhir", "p3": "Abdusattorov, Nodirbek"},
    )
    with pytest.raises(PlanError) as refused:
        plan_playoff(gct2015_playoff(seeds(3)), c)
    assert refused.value.problem == Problem(
        ProblemKind.MAIN_EVENT_END_UNKNOWN, players=(Player("p2"), Player("p3"))
    )
    assert str(refused.value).startswith(
        "the end of the last main-event game of Sindarov, Javokhir and Abdusattorov, "
        "Nodirbek is unknown"
    )
    assert "p2" not in str(refused.value)


def test_the_plans_warnings_name_the_players_whose_main_event_end_is_unknown() -> None:
    c = Constraints(
        main_event_ended={"p1": at(18, 10)}, not_before=at(19, 30),
        names={"p1": "Praggnanandhaa R", "p2": "Sindarov, Javokhir"}, utc_offset=timedelta(hours=5),
    )
    plan = plan_playoff(gct2015_playoff(seeds(2)), c)
    assert plan.warnings == (
        "the end of the last main-event game of Sindarov, Javokhir is unknown: the play-off "
        "starts no earlier than the organiser's earliest start, 00:30",
    )


def test_a_plan_refused_for_a_pin_on_a_game_it_does_not_have_says_which_game() -> None:
    pinned = Actuals(overrides=Overrides(pins=(PinnedStart(match=1, game=7, start=at(20, 0)),)))
    with pytest.raises(PlanError) as refused:
        plan_playoff(gct2015_playoff(seeds(2)), Constraints(main_event_ended=ended(2)), pinned)
    assert refused.value.problem == Problem(ProblemKind.PIN_FOR_UNKNOWN_GAME, match=1, game=7)
    assert str(refused.value) == (
        "a start is pinned for game 7 of match 1, which the plan does not have"
    )


# --- two players: game length from the time control, 10-minute intervals ----------------


def test_two_players_g25_and_a_tentative_armageddon() -> None:
    # G1 19:10-20:10 (60 min), +10 -> G2 20:20-21:20, +10 -> Armageddon 21:30-21:41 (11 min).
    plan = plan_playoff(gct2015_playoff(seeds(2)), Constraints(main_event_ended=ended(2)))
    assert times(plan) == [
        (1, 1, at(19, 10), at(20, 10)),
        (1, 2, at(20, 20), at(21, 20)),
        (1, 3, at(21, 30), at(21, 41)),
    ]
    g1, g2, g3 = plan.games
    assert [g.kind for g in plan.games] == [UnitKind.REGULAR, UnitKind.REGULAR, UnitKind.ARMAGEDDON]
    assert [g.tentative for g in plan.games] == [False, False, True]
    assert g3.reason.startswith("tentative")
    assert (g1.time_control, g3.time_control) == ("G/25+5", "W 6' / B 5', +3 s from move 61")
    assert (g1.duration, g3.duration) == (60 * MIN, 11 * MIN)
    assert (g1.interval, g2.interval, g3.interval) == (None, 10 * MIN, 10 * MIN)
    assert (
        g2.reason
        == "the 10-minute interval after game 1 of match 1: the preferred interval (reg. 5)"
    )
    assert all(g.status is UnitStatus.PLANNED and not g.fixed for g in plan.games)
    assert g1.players == ("p1", "p2")
    assert interval_breaks(plan) == [
        (("p1", "p2"), at(20, 10), at(20, 20)),
        (("p1", "p2"), at(21, 20), at(21, 30)),
    ]
    assert plan.breaks[1].required == 10 * MIN
    assert plan.breaks[1].reason == (
        "interval between games: 10 minutes, the preferred interval (reg. 5)"
    )
    assert (plan.finish, plan.fits, plan.overrun, plan.proposal) == (
        at(21, 41),
        None,
        timedelta(0),
        None,
    )


@pytest.mark.parametrize(
    ("moves", "game", "armageddon"),
    [
        # 40 moves: 2 x (25 min + 40 x 5 s) = 2 x 28:20 = 56:40; Armageddon 11:00.
        (40, timedelta(minutes=56, seconds=40), 11 * MIN),
        # 80 moves: 2 x (25 min + 400 s) = 63:20; Armageddon 11 min + 2 x 20 x 3 s = 13:00.
        (80, timedelta(minutes=63, seconds=20), 13 * MIN),
    ],
)
def test_game_length_from_the_time_control_and_moves_estimate(
    moves: int, game: timedelta, armageddon: timedelta
) -> None:
    c = Constraints(main_event_ended=ended(2), moves_estimate=moves)
    plan = plan_playoff(gct2015_playoff(seeds(2)), c)
    g1, g2, g3 = plan.games
    assert g1.end - g1.start == game
    assert g2.start == at(19, 10) + game + 10 * MIN
    assert g3.end - g3.start == armageddon


def test_minimum_and_preferred_intervals_are_configurable() -> None:
    # Preferred 15 min: G1 19:10-20:10, G2 20:25-21:25, G3 21:40-21:51.
    c = Constraints(main_event_ended=ended(2), preferred_interval=15 * MIN)
    plan = plan_playoff(gct2015_playoff(seeds(2)), c)
    assert [g.start for g in plan.games] == [at(19, 10), at(20, 25), at(21, 40)]
    with pytest.raises(ValidationError):
        Constraints(min_interval=10 * MIN, preferred_interval=5 * MIN)
    with pytest.raises(ValidationError):
        Constraints(not_before=datetime(2015, 12, 13, 19, 0))  # no time zone


# --- parallel matches, three, four and eight players ------------------------------------


def test_four_players_semi_finals_in_parallel() -> None:
    # Matches 1 (p1 v p4) and 2 (p2 v p3) side by side: 19:10-20:10, 20:20-21:20,
    # 21:30-21:41. The final (match 3) waits for both: 21:41 + 10 = 21:51-22:51,
    # 23:01-00:01, 00:11-00:22 (the next day).
    plan = plan_playoff(gct2015_playoff(seeds(4)), Constraints(main_event_ended=ended(4)))
    semi = [(at(19, 10), at(20, 10)), (at(20, 20), at(21, 20)), (at(21, 30), at(21, 41))]
    for match in (1, 2):
        assert [(g.start, g.end) for g in plan.games if g.match == match] == semi
    assert [(g.start, g.end) for g in plan.games if g.match == 3] == [
        (at(21, 51), at(22, 51)),
        (at(23, 1), at(0, 1, day=14)),
        (at(0, 11, day=14), at(0, 22, day=14)),
    ]
    assert plan.game(3, 1).players == ("winner of match 1", "winner of match 2")
    # One break entry covers both matches' players resting at the same time.
    assert interval_breaks(plan)[0] == (("p1", "p4", "p2", "p3"), at(20, 10), at(20, 20))
    assert plan.finish == at(0, 22, day=14)


def test_three_players_seed_one_waits_for_the_winner_of_two_v_three() -> None:
    # Match 1 (p2 v p3): 19:10-20:10, 20:20-21:20, Armageddon 21:30-21:41.
    # Match 2 (p1 v winner): the winner rests 10 min -> 21:51-22:51, 23:01-00:01,
    # Armageddon 00:11-00:22. p1 has no interval (first game of the play-off).
    plan = plan_playoff(gct2015_playoff(seeds(3)), Constraints(main_event_ended=ended(3)))
    assert times(plan) == [
        (1, 1, at(19, 10), at(20, 10)),
        (1, 2, at(20, 20), at(21, 20)),
        (1, 3, at(21, 30), at(21, 41)),
        (2, 1, at(21, 51), at(22, 51)),
        (2, 2, at(23, 1), at(0, 1, day=14)),
        (2, 3, at(0, 11, day=14), at(0, 22, day=14)),
    ]
    m2g1 = plan.game(2, 1)
    assert m2g1.players == ("p1", "winner of match 1")
    assert m2g1.reason == (
        "the 10-minute interval after game 3 of match 1: the preferred interval (reg. 5)"
    )
    assert (("winner of match 1",), at(21, 41), at(21, 51)) in interval_breaks(plan)
    assert plan.breaks[0].who == ("p1", "p2", "p3")


def test_eight_players_knockout_at_g15() -> None:
    # Quarter-finals (matches 1-4) in parallel: 19:10-19:50, 20:00-20:40, 20:50-21:01.
    # Semi-finals (5, 6): 21:01 + 10 = 21:11-21:51, 22:01-22:41, 22:51-23:02.
    # Final (7): 23:12-23:52, 00:02-00:42, 00:52-01:03.
    plan = plan_playoff(gct2015_playoff(seeds(8)), Constraints(main_event_ended=ended(8)))
    quarter = [(at(19, 10), at(19, 50)), (at(20, 0), at(20, 40)), (at(20, 50), at(21, 1))]
    semi = [(at(21, 11), at(21, 51)), (at(22, 1), at(22, 41)), (at(22, 51), at(23, 2))]
    final = [
        (at(23, 12), at(23, 52)),
        (at(0, 2, day=14), at(0, 42, day=14)),
        (at(0, 52, day=14), at(1, 3, day=14)),
    ]
    for match, expected in [(1, quarter), (2, quarter), (3, quarter), (4, quarter)]:
        assert [(g.start, g.end) for g in plan.games if g.match == match] == expected
    for match in (5, 6):
        assert [(g.start, g.end) for g in plan.games if g.match == match] == semi
    assert [(g.start, g.end) for g in plan.games if g.match == 7] == final
    assert plan.game(5, 1).players == ("winner of match 1", "winner of match 4")
    assert plan.game(6, 1).players == ("winner of match 2", "winner of match 3")
    assert [g.round for g in plan.games if g.game == 1] == [1, 1, 1, 1, 2, 2, 3]
    assert plan.game(7, 1).round_name == "Final"
    assert all(g.time_control == "G/15+5" for g in plan.games if g.kind is UnitKind.REGULAR)
    assert plan.finish == at(1, 3, day=14)


# --- re-flow ----------------------------------------------------------------------------


def test_reflow_when_a_game_runs_long() -> None:
    # G1 ran 19:10-20:25 (15 min over): G2 20:35-21:35, Armageddon 21:45-21:56.
    actuals = Actuals(
        games=(GameActual(match=1, game=1, started_at=at(19, 10), ended_at=at(20, 25)),)
    )
    plan = plan_playoff(gct2015_playoff(seeds(2)), Constraints(main_event_ended=ended(2)), actuals)
    assert times(plan) == [
        (1, 1, at(19, 10), at(20, 25)),
        (1, 2, at(20, 35), at(21, 35)),
        (1, 3, at(21, 45), at(21, 56)),
    ]
    g1 = plan.game(1, 1)
    assert (g1.fixed, g1.status, g1.interval) == (True, UnitStatus.PLAYED, None)


def test_reflow_when_a_game_ends_early() -> None:
    # G1 ran 19:10-19:45: G2 19:55-20:55, Armageddon 21:05-21:16.
    actuals = Actuals(
        games=(GameActual(match=1, game=1, started_at=at(19, 10), ended_at=at(19, 45)),)
    )
    c = Constraints(main_event_ended=ended(2))
    plan = plan_playoff(gct2015_playoff(seeds(2)), c, actuals, now=at(19, 50))
    assert [g.start for g in plan.games] == [at(19, 10), at(19, 55), at(21, 5)]
    assert plan.finish == at(21, 16)
    # At 20:00 game 2 has not started: it cannot be planned in the past.
    # G2 20:00-21:00, Armageddon 21:10-21:21.
    later = plan_playoff(gct2015_playoff(seeds(2)), c, actuals, now=at(20, 0))
    assert [g.start for g in later.games] == [at(19, 10), at(20, 0), at(21, 10)]
    assert later.game(1, 2).reason == "the current time (it has not started yet)"
    assert interval_breaks(later)[0][1:] == (at(19, 45), at(20, 0))  # 15 min rest


def test_running_game_is_expected_at_its_estimate_or_after_now() -> None:
    pl = gct2015_playoff(seeds(2))
    c = Constraints(main_event_ended=ended(2))
    actuals = Actuals(games=(GameActual(match=1, game=1, started_at=at(19, 10)),))
    # At 19:30 it is expected at 19:10 + 60 = 20:10; G2 20:20.
    plan = plan_playoff(pl, c, actuals, now=at(19, 30))
    g1 = plan.game(1, 1)
    assert (g1.status, g1.fixed, g1.end) == (UnitStatus.RUNNING, True, at(20, 10))
    assert plan.game(1, 2).start == at(20, 20)
    # At 20:30 it is past its estimate: expected at now + 5 min = 20:35; G2 20:45-21:45,
    # Armageddon 21:55-22:06.
    late = plan_playoff(pl, c, actuals, now=at(20, 30))
    assert late.game(1, 1).end == at(20, 35)
    assert [g.start for g in late.games] == [at(19, 10), at(20, 45), at(21, 55)]
    assert late.finish == at(22, 6)
    # Without now, the estimate stands.
    assert plan_playoff(pl, c, actuals).game(1, 1).end == at(20, 10)


def _play_two_games(p: Playoff, match: int, first: Result, second: Result) -> Playoff:
    a, b = p.match(match).players
    assert a is not None and b is not None
    p = set_game_one_colours(p, match, a, b)
    p = record_result(p, match, 1, first)
    return record_result(p, match, 2, second)


def test_a_match_decided_in_two_games_drops_its_armageddon() -> None:
    # Three players; p2 beats p3 2-0, games 19:10-20:10 and 20:20-21:20.
    # Match 2 (p1 v p2): 21:20 + 10 = 21:30-22:30, 22:40-23:40, Armageddon 23:50-00:01.
    pl = _play_two_games(gct2015_playoff(seeds(3)), 1, Result.WHITE_WINS, Result.BLACK_WINS)
    actuals = Actuals(
        games=(
            GameActual(match=1, game=1, started_at=at(19, 10), ended_at=at(20, 10)),
            GameActual(match=1, game=2, started_at=at(20, 20), ended_at=at(21, 20)),
        )
    )
    plan = plan_playoff(pl, Constraints(main_event_ended=ended(3)), actuals)
    assert times(plan) == [
        (1, 1, at(19, 10), at(20, 10)),
        (1, 2, at(20, 20), at(21, 20)),
        (2, 1, at(21, 30), at(22, 30)),
        (2, 2, at(22, 40), at(23, 40)),
        (2, 3, at(23, 50), at(0, 1, day=14)),
    ]
    assert plan.game(2, 1).players == ("p1", "p2")
    assert plan.game(2, 1).reason == (
        "the 10-minute interval after game 2 of match 1: the preferred interval (reg. 5)"
    )


def test_eight_players_a_long_quarter_final_holds_up_the_round() -> None:
    # Match 2, game 1 ran 19:10-20:05 (15 min late): match 2 game 2 20:15-20:55,
    # Armageddon 21:05-21:16. The other quarter-finals end at 21:01.
    # Match 5 (winners of 1 and 4): its players are free at 21:01 + 10 = 21:11, but the
    # semi-finals begin when every quarter-final has ended: 21:16-21:56, 22:06-22:46,
    # 22:56-23:07. Match 6 (winner of 2): 21:16 + 10 = 21:26-22:06, 22:16-22:56,
    # 23:06-23:17. Final: winner of 6 at 23:17 + 10 = 23:27-00:07, 00:17-00:57,
    # 01:07-01:18.
    actuals = Actuals(
        games=(GameActual(match=2, game=1, started_at=at(19, 10), ended_at=at(20, 5)),)
    )
    plan = plan_playoff(gct2015_playoff(seeds(8)), Constraints(main_event_ended=ended(8)), actuals)
    assert [(g.start, g.end) for g in plan.games if g.match == 2] == [
        (at(19, 10), at(20, 5)),
        (at(20, 15), at(20, 55)),
        (at(21, 5), at(21, 16)),
    ]
    assert [(g.start, g.end) for g in plan.games if g.match == 5] == [
        (at(21, 16), at(21, 56)),
        (at(22, 6), at(22, 46)),
        (at(22, 56), at(23, 7)),
    ]
    assert plan.game(5, 1).reason.startswith("the end of every match of the earlier rounds")
    assert [(g.start, g.end) for g in plan.games if g.match == 6] == [
        (at(21, 26), at(22, 6)),
        (at(22, 16), at(22, 56)),
        (at(23, 6), at(23, 17)),
    ]
    assert [(g.start, g.end) for g in plan.games if g.match == 7] == [
        (at(23, 27), at(0, 7, day=14)),
        (at(0, 17, day=14), at(0, 57, day=14)),
        (at(1, 7, day=14), at(1, 18, day=14)),
    ]
    # The winners of 1 and 4 rest 15 minutes, longer than the 10 they need.
    rest = next(b for b in plan.breaks if b.who == ("winner of match 1", "winner of match 4"))
    assert (rest.start, rest.end, rest.required) == (at(21, 1), at(21, 16), 10 * MIN)
    assert "longer, because of the end of every match of the earlier rounds" in rest.reason


# --- the deadline: 10 minutes wherever it allows, else 5, else a shorter time control ---


def test_reg_5_intervals_are_10_minutes_wherever_the_deadline_allows() -> None:
    # Three players, deadline 00:15. With 10 min everywhere the plan ends at 00:22 (too
    # late); with 5 min everywhere: 19:10-20:10, 20:15-21:15, 21:20-21:31, 21:36-22:36,
    # 22:41-23:41, 23:46-23:57. Raising intervals in order of play, each +5 min:
    # M1G2 -> 00:02 ok, M1G3 -> 00:07 ok, M2G1 -> 00:12 ok, M2G2 -> 00:17 no,
    # M2G3 -> 00:17 no. Result: 19:10-20:10, 20:20-21:20, 21:30-21:41, 21:51-22:51,
    # 22:56-23:56, 00:01-00:12.
    c = Constraints(main_event_ended=ended(3), deadline=at(0, 15, day=14))
    plan = plan_playoff(gct2015_playoff(seeds(3)), c)
    assert times(plan) == [
        (1, 1, at(19, 10), at(20, 10)),
        (1, 2, at(20, 20), at(21, 20)),
        (1, 3, at(21, 30), at(21, 41)),
        (2, 1, at(21, 51), at(22, 51)),
        (2, 2, at(22, 56), at(23, 56)),
        (2, 3, at(0, 1, day=14), at(0, 12, day=14)),
    ]
    assert [g.interval for g in plan.games] == [
        None,
        10 * MIN,
        10 * MIN,
        10 * MIN,
        5 * MIN,
        5 * MIN,
    ]
    assert (plan.fits, plan.overrun, plan.proposal) == (True, timedelta(0), None)
    assert plan.game(1, 2).reason.endswith(
        "the preferred interval (reg. 5), and the deadline still holds"
    )
    assert plan.game(2, 2).reason.endswith(
        "the minimum (reg. 5), as 10 minutes here would end the play-off after the deadline"
    )


def test_a_deadline_that_holds_with_10_minutes_changes_nothing() -> None:
    c = Constraints(main_event_ended=ended(2), deadline=at(21, 41))
    plan = plan_playoff(gct2015_playoff(seeds(2)), c)
    assert (plan.finish, plan.fits, plan.overrun) == (at(21, 41), True, timedelta(0))
    assert [g.interval for g in plan.games] == [None, 10 * MIN, 10 * MIN]


def test_reg_5_deadline_missed_overrun_and_a_shorter_time_control_that_fits() -> None:
    # Two players, deadline 21:00. Even with 5 min: 19:10-20:10, 20:15-21:15, 21:20-21:31:
    # 31 min over. Candidates: G/20+5 (50 min): 19:10-20:00, 20:05-20:55, 21:00-21:11, no.
    # G/15+5 (40 min): 19:10-19:50, 19:55-20:35, 20:40-20:51 fits; raising the intervals:
    # G2 +5 -> 20:56 ok, G3 +5 -> 21:01 no. Proposal: G/15+5, round 1, ends 20:56.
    pl = gct2015_playoff(seeds(2))
    c = Constraints(main_event_ended=ended(2), deadline=at(21, 0))
    plan = plan_playoff(pl, c)
    assert [g.start for g in plan.games] == [at(19, 10), at(20, 15), at(21, 20)]
    assert (plan.finish, plan.fits, plan.overrun) == (at(21, 31), False, 31 * MIN)
    assert [g.interval for g in plan.games] == [None, 5 * MIN, 5 * MIN]
    assert plan.game(1, 2).reason.endswith(
        "the minimum (reg. 5), as the play-off ends after the deadline even so"
    )
    proposal = plan.proposal
    assert proposal is not None and proposal.found
    assert (proposal.time_control, proposal.rounds, proposal.matches, proposal.finish) == (
        "G/15+5",
        (1,),
        (1,),
        at(20, 56),
    )
    assert proposal.change is not None
    # Adopting the proposal: G1 19:10-19:50, G2 20:00-20:40, G3 20:45-20:56.
    adopted = plan_playoff(pl, c, Actuals(overrides=Overrides(time_controls=(proposal.change,))))
    assert times(adopted) == [
        (1, 1, at(19, 10), at(19, 50)),
        (1, 2, at(20, 0), at(20, 40)),
        (1, 3, at(20, 45), at(20, 56)),
    ]
    assert (adopted.fits, adopted.proposal) == (True, None)


def test_proposal_prefers_the_longest_time_control_then_the_latest_rounds() -> None:
    # Three players, deadline 23:45; 5-minute plan ends 23:57 (12 min over).
    # G/20+5 on the final only: M2 21:36-22:26, 22:31-23:21, 23:26-23:37 fits. Raising
    # intervals: M1G2 -> 23:42 ok, every later one -> 23:47 no. Ends 23:42.
    c = Constraints(main_event_ended=ended(3), deadline=at(23, 45))
    plan = plan_playoff(gct2015_playoff(seeds(3)), c)
    assert plan.overrun == 12 * MIN
    proposal = plan.proposal
    assert proposal is not None and proposal.found
    assert (proposal.time_control, proposal.rounds, proposal.matches, proposal.finish) == (
        "G/20+5",
        (2,),
        (2,),
        at(23, 42),
    )
    assert "Final (reg. 6)" in proposal.text
    # Deadline 23:30 (27 min over): G/20+5 on the final only ends 23:37, no; on both
    # rounds: 19:10-20:00, 20:05-20:55, 21:00-21:11, 21:16-22:06, 22:11-23:01,
    # 23:06-23:17 fits; raising: M1G2 -> 23:22, M1G3 -> 23:27, then 23:32 no. Ends 23:27.
    c = Constraints(main_event_ended=ended(3), deadline=at(23, 30))
    proposal = plan_playoff(gct2015_playoff(seeds(3)), c).proposal
    assert proposal is not None and proposal.found
    assert (proposal.time_control, proposal.rounds, proposal.matches, proposal.finish) == (
        "G/20+5",
        (1, 2),
        (1, 2),
        at(23, 27),
    )


def test_proposal_leaves_a_round_that_has_begun() -> None:
    # Three players, deadline 23:30, match 1 game 1 played 19:10-20:10. Only the final
    # may change. G/20+5 on the final ends 23:37 (no); G/15+5 on the final (40 min):
    # M1 20:15-21:15, 21:20-21:31, M2 21:36-22:16, 22:21-23:01, 23:06-23:17 fits;
    # raising: M1G2 -> 23:22, M1G3 -> 23:27, then 23:32 no. Ends 23:27.
    actuals = Actuals(
        games=(GameActual(match=1, game=1, started_at=at(19, 10), ended_at=at(20, 10)),)
    )
    c = Constraints(main_event_ended=ended(3), deadline=at(23, 30))
    proposal = plan_playoff(gct2015_playoff(seeds(3)), c, actuals).proposal
    assert proposal is not None and proposal.found
    assert (proposal.time_control, proposal.rounds, proposal.matches, proposal.finish) == (
        "G/15+5",
        (2,),
        (2,),
        at(23, 27),
    )


def test_nothing_fits() -> None:
    # Two players, deadline 19:40: even G/3+2 (10 min) with 5-minute intervals gives
    # 19:10-19:20, 19:25-19:35, 19:40-19:51: 11 minutes late.
    c = Constraints(main_event_ended=ended(2), deadline=at(19, 40))
    plan = plan_playoff(gct2015_playoff(seeds(2)), c)
    # The plan itself: 19:10-20:10, 20:15-21:15, 21:20-21:31: 1 h 51 min over.
    assert plan.overrun == timedelta(hours=1, minutes=51)
    proposal = plan.proposal
    assert proposal is not None and not proposal.found
    assert (proposal.time_control, proposal.change, proposal.finish) == (None, None, at(19, 51))
    assert "no shortened time control meets the deadline: even G/3+2" in proposal.text
    assert "11 minutes after the deadline" in proposal.text


def test_nothing_to_shorten_when_every_round_has_begun() -> None:
    actuals = Actuals(games=(GameActual(match=1, game=1, started_at=at(19, 10)),))
    c = Constraints(main_event_ended=ended(2), deadline=at(20, 0))
    plan = plan_playoff(gct2015_playoff(seeds(2)), c, actuals)
    assert plan.proposal is not None and not plan.proposal.found
    assert plan.proposal.text.startswith("every round has begun")


# --- the arbiter: pinned starts, shortened time controls, postponements -----------------


def test_pinned_start_inside_the_main_event_break_is_moved_with_a_warning() -> None:
    # Pinned at 18:55, but the break runs to 19:10: planned at 19:10.
    actuals = Actuals(overrides=Overrides(pins=(PinnedStart(match=1, game=1, start=at(18, 55)),)))
    plan = plan_playoff(gct2015_playoff(seeds(2)), Constraints(main_event_ended=ended(2)), actuals)
    g1 = plan.game(1, 1)
    assert (g1.start, g1.end, g1.fixed) == (at(19, 10), at(20, 10), True)
    assert len(plan.warnings) == 1
    assert "18:55" in plan.warnings[0]
    assert "30-minute break after the main event (reg. 5)" in plan.warnings[0]
    assert "earliest legal time" in plan.warnings[0]


def test_reg_5_pinned_start_inside_the_minimum_interval_is_moved_with_a_warning() -> None:
    # G1 played 19:10-20:10; G2 pinned at 20:13, less than 5 min: planned at 20:15.
    played = GameActual(match=1, game=1, started_at=at(19, 10), ended_at=at(20, 10))
    actuals = Actuals(
        games=(played,),
        overrides=Overrides(pins=(PinnedStart(match=1, game=2, start=at(20, 13)),)),
    )
    plan = plan_playoff(gct2015_playoff(seeds(2)), Constraints(main_event_ended=ended(2)), actuals)
    assert plan.game(1, 2).start == at(20, 15)
    assert len(plan.warnings) == 1
    assert "5-minute interval after game 1 of match 1" in plan.warnings[0]


def test_pinned_start_between_5_and_10_minutes_is_honoured() -> None:
    # G2 pinned at 20:17 (7 min after G1): honoured; 20:17-21:17, Armageddon 21:27-21:38.
    actuals = Actuals(
        overrides=Overrides(pins=(PinnedStart(match=1, game=2, start=at(20, 17), reason="hall"),))
    )
    plan = plan_playoff(gct2015_playoff(seeds(2)), Constraints(main_event_ended=ended(2)), actuals)
    assert times(plan)[1:] == [(1, 2, at(20, 17), at(21, 17)), (1, 3, at(21, 27), at(21, 38))]
    g2 = plan.game(1, 2)
    assert (g2.fixed, g2.interval, g2.reason) == (
        True, None, "start moved to 20:17 by the chief arbiter (hall)")
    assert plan.warnings == ()
    gap = next(b for b in plan.breaks if b.end == at(20, 17))
    assert gap.end - gap.start == 7 * MIN
    assert gap.reason == "interval between games: start set by the chief arbiter"


def test_shortened_time_control_for_one_match() -> None:
    # Three players, the final at G/15+5 (40 min): M2 21:51-22:31, 22:41-23:21, 23:31-23:42.
    change = TimeControlChange(time_control="G/15+5", matches=(2,))
    plan = plan_playoff(
        gct2015_playoff(seeds(3)),
        Constraints(main_event_ended=ended(3)),
        Actuals(overrides=Overrides(time_controls=(change,))),
    )
    assert [(g.start, g.end) for g in plan.games if g.match == 2] == [
        (at(21, 51), at(22, 31)),
        (at(22, 41), at(23, 21)),
        (at(23, 31), at(23, 42)),
    ]
    assert plan.game(1, 1).time_control == "G/25+5"


def test_shortened_time_control_for_all_remaining_games() -> None:
    # At 20:00 the arbiter shortens everything still to come to G/20+5; match 1 game 1
    # started at 19:10 and keeps G/25+5 (ends 20:10). M1G2 20:20-21:10, Armageddon
    # (unchanged, 11 min) 21:20-21:31; M2 21:41-22:31, 22:41-23:31, 23:41-23:52.
    change = TimeControlChange(time_control=TimeControl.parse("G/20+5"), made_at=at(20, 0))
    actuals = Actuals(
        games=(GameActual(match=1, game=1, started_at=at(19, 10)),),
        overrides=Overrides(time_controls=(change,)),
    )
    plan = plan_playoff(
        gct2015_playoff(seeds(3)), Constraints(main_event_ended=ended(3)), actuals, now=at(20, 0)
    )
    assert times(plan) == [
        (1, 1, at(19, 10), at(20, 10)),
        (1, 2, at(20, 20), at(21, 10)),
        (1, 3, at(21, 20), at(21, 31)),
        (2, 1, at(21, 41), at(22, 31)),
        (2, 2, at(22, 41), at(23, 31)),
        (2, 3, at(23, 41), at(23, 52)),
    ]
    assert [g.time_control for g in plan.games if g.kind is UnitKind.REGULAR] == [
        "G/25+5",
        "G/20+5",
        "G/20+5",
        "G/20+5",
    ]


def test_postponements() -> None:
    pl = gct2015_playoff(seeds(2))
    c = Constraints(main_event_ended=ended(2))
    # Game 2 not before 20:45: 20:45-21:45, Armageddon 21:55-22:06.
    one = Actuals(
        overrides=Overrides(postponements=(Postponement(match=1, game=2, not_before=at(20, 45)),))
    )
    assert [g.start for g in plan_playoff(pl, c, one).games] == [at(19, 10), at(20, 45), at(21, 55)]
    # Everything not before 19:30: 19:30-20:30, 20:40-21:40, 21:50-22:01.
    everything = Actuals(
        overrides=Overrides(
            postponements=(Postponement(not_before=at(19, 30), reason="power cut"),)
        )
    )
    plan = plan_playoff(pl, c, everything)
    assert [g.start for g in plan.games] == [at(19, 30), at(20, 40), at(21, 50)]
    assert (
        plan.game(1, 1).reason == "the arbiter's postponement to 19:30 (power cut)"
    )


# --- bridge stanzas ---------------------------------------------------------------------


def _bridge_ended() -> dict[str, datetime]:
    # Team D finished last, at 18:10: the stanzas may start at 18:40.
    return {
        "A": at(18, 0),
        "B": at(18, 0),
        "C": at(18, 0),
        "D": at(18, 10),
        "E": at(18, 0),
        "F": at(18, 0),
    }


def test_bridge_stanzas_at_7_5_minutes_a_board() -> None:
    # Match 1 (A v B): stanza 1 of 4 boards 18:40-19:10 (30 min); stanza 2 (4 boards,
    # tentative) after 10 min: 19:20-19:50. Match 2 (C v D), 2 boards, in parallel:
    # 18:40-18:55. Match 3 (E v F), extra_boards(24) = 3 boards, two sets: 22 min 30 s
    # each: 18:40-19:02:30, then 19:12:30-19:35.
    stanzas = [
        StanzaToPlace(match=1, stanza=1, boards=4, teams=("A", "B")),
        StanzaToPlace(match=1, stanza=2, boards=4, teams=("A", "B"), tentative=True),
        StanzaToPlace(match=2, stanza=1, boards=2, teams=("C", "D")),
        *stanzas_from_plan(3, ("E", "F"), extra_boards(24), sets=2),
    ]
    c = Constraints(main_event_ended=_bridge_ended(), rule="")
    plan = plan_stanzas(stanzas, c)
    assert times(plan) == [
        (1, 1, at(18, 40), at(19, 10)),
        (1, 2, at(19, 20), at(19, 50)),
        (2, 1, at(18, 40), at(18, 55)),
        (3, 1, at(18, 40), at(19, 2, 30)),
        (3, 2, at(19, 12, 30), at(19, 35)),
    ]
    assert [g.kind for g in plan.games] == [UnitKind.STANZA] * 5
    assert [g.tentative for g in plan.games] == [False, True, False, False, True]
    assert [g.boards for g in plan.games] == [4, 4, 2, 3, 3]
    assert plan.game(3, 1).duration == timedelta(minutes=22, seconds=30)
    assert plan.breaks[0].reason == "30-minute break after the main event"
    assert plan.breaks[0].who == ("A", "B", "C", "D", "E", "F")
    assert plan.finish == at(19, 50)


def test_bridge_minutes_per_board_is_configurable() -> None:
    # Only A and B play (they ended at 18:00; D's 18:10 does not matter): from 18:30.
    # 8 min a board: stanza 1 (4 boards) 18:30-19:02, stanza 2 19:12-19:44.
    stanzas = [
        StanzaToPlace(match=1, stanza=1, boards=4, teams=("A", "B")),
        StanzaToPlace(match=1, stanza=2, boards=4, teams=("A", "B")),
    ]
    c = Constraints(main_event_ended=_bridge_ended(), minutes_per_board=8)
    plan = plan_stanzas(stanzas, c)
    assert times(plan) == [(1, 1, at(18, 30), at(19, 2)), (1, 2, at(19, 12), at(19, 44))]
    assert plan.breaks[-1].reason.startswith("interval between stanzas: 10 minutes")


def test_bridge_deadline_has_no_time_control_to_shorten() -> None:
    # A and B from 18:30; deadline 19:30. With 10 min: 18:30-19:00, 19:10-19:40 (late);
    # with 5 min, stanza 2 is 19:05-19:35: 5 minutes over.
    stanzas = [
        StanzaToPlace(match=1, stanza=1, boards=4, teams=("A", "B")),
        StanzaToPlace(match=1, stanza=2, boards=4, teams=("A", "B")),
    ]
    c = Constraints(main_event_ended=_bridge_ended(), deadline=at(19, 30))
    plan = plan_stanzas(stanzas, c)
    assert (plan.finish, plan.fits, plan.overrun) == (at(19, 35), False, 5 * MIN)
    assert plan.proposal is not None and not plan.proposal.found
    assert plan.proposal.text.startswith("bridge stanzas have no time control to shorten")


# --- refusals and determinism -----------------------------------------------------------


def test_bad_inputs_are_refused() -> None:
    pl = _play_two_games(gct2015_playoff(seeds(2)), 1, Result.WHITE_WINS, Result.DRAW)
    c = Constraints(main_event_ended=ended(2))
    # Decided 1½-½ in two games: there is no game 3 to time.
    ghost = Actuals(games=(GameActual(match=1, game=3, started_at=at(21, 0)),))
    with pytest.raises(PlanError, match="game 3 of match 1"):
        plan_playoff(pl, c, ghost)
    with pytest.raises(PlanError, match="timezone-aware"):
        plan_playoff(pl, c, now=datetime(2015, 12, 13, 20, 0))
    with pytest.raises(ValidationError):
        GameActual(match=1, game=1, started_at=at(20, 0), ended_at=at(19, 0))
    with pytest.raises(PlanError, match="match 9"):
        plan_playoff(
            pl,
            c,
            Actuals(
                overrides=Overrides(
                    time_controls=(
                        TimeControlChange(time_control=TimeControl.parse("G/10+5"), matches=(9,)),
                    )
                )
            ),
        )
    with pytest.raises(PlanError, match="same two teams"):
        plan_stanzas(
            [
                StanzaToPlace(match=1, stanza=1, boards=2, teams=("A", "B")),
                StanzaToPlace(match=1, stanza=2, boards=2, teams=("A", "C")),
            ],
            Constraints(main_event_ended=_bridge_ended()),
        )


def test_a_result_without_times_is_estimated_with_a_warning() -> None:
    # Results of match 1 recorded, no times: the games keep their planned times.
    pl = _play_two_games(gct2015_playoff(seeds(2)), 1, Result.WHITE_WINS, Result.DRAW)
    plan = plan_playoff(pl, Constraints(main_event_ended=ended(2)))
    assert times(plan) == [(1, 1, at(19, 10), at(20, 10)), (1, 2, at(20, 20), at(21, 20))]
    assert [g.status for g in plan.games] == [UnitStatus.PLAYED, UnitStatus.PLAYED]
    assert len(plan.warnings) == 2


def test_units_and_plans_are_deterministic() -> None:
    pl = gct2015_playoff(seeds(8))
    c = Constraints(main_event_ended=ended(8), deadline=at(23, 0))
    assert playoff_units(pl, c) == playoff_units(pl, c)
    assert plan_playoff(pl, c) == plan_playoff(pl, c)


def test_five_players_byes_and_a_round_that_waits() -> None:
    # Seeds 1-3 have byes; match 4 (p4 v p5) at G/15+5: 19:10-19:50, 20:00-20:40,
    # 20:50-21:01. Round 2: match 5 (p1 v winner of 4): the winner rests 10 min,
    # 21:11-21:51, 22:01-22:41, 22:51-23:02. Match 6 (p2 v p3) has not played, but the
    # round begins when round 1 has ended: 21:01-21:41, 21:51-22:31, 22:41-22:52.
    # Final (match 7): winner of 5 at 23:02 + 10 = 23:12-23:52, 00:02-00:42, 00:52-01:03.
    plan = plan_playoff(gct2015_playoff(seeds(5)), Constraints(main_event_ended=ended(5)))
    assert {g.match for g in plan.games} == {4, 5, 6, 7}
    assert [(g.start, g.end) for g in plan.games if g.match == 6] == [
        (at(21, 1), at(21, 41)),
        (at(21, 51), at(22, 31)),
        (at(22, 41), at(22, 52)),
    ]
    assert plan.game(6, 1).interval is None
    assert plan.game(6, 1).reason.startswith("the end of every match of the earlier rounds")
    assert [g.start for g in plan.games if g.match == 5] == [at(21, 11), at(22, 1), at(22, 51)]
    assert plan.game(5, 1).players == ("p1", "winner of match 4")
    assert [g.start for g in plan.games if g.match == 7] == [
        at(23, 12),
        at(0, 2, day=14),
        at(0, 52, day=14),
    ]
    assert plan.finish == at(1, 3, day=14)


def test_a_started_match_is_not_shortened() -> None:
    # Two players, match 1 started (lots drawn, start_match) but no time recorded yet.
    pl = start_match(set_game_one_colours(gct2015_playoff(seeds(2)), 1, "p1", "p2"), 1)
    c = Constraints(main_event_ended=ended(2), deadline=at(21, 0))
    proposal = plan_playoff(pl, c).proposal
    assert proposal is not None and not proposal.found
    assert proposal.text.startswith("every round has begun")


def test_a_plan_beyond_the_calendar_is_refused_in_words() -> None:
    """A start in the last hour of year 9999 leaves no room for the games: the planner
    says so as a refusal of its inputs, never as an arithmetic error."""
    c = Constraints(main_event_ended=ended(2), not_before=datetime(9999, 12, 31, 23, 0, tzinfo=UTC))
    with pytest.raises(PlanError) as refused:
        plan_playoff(gct2015_playoff(seeds(2)), c)
    assert refused.value.problem.kind is ProblemKind.BEYOND_THE_CALENDAR
    assert "past the last date a calendar holds" in str(refused.value)
    assert isinstance(refused.value.__cause__, OverflowError)
