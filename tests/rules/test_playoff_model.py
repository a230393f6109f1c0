"""The play-off model: statuses, colours, results, deciders and corrections."""

from __future__ import annotations

import pytest

from playoff_formats.builders.gct import gct2015_playoff
from playoff_formats.errors import PlayoffError
from playoff_formats.model import Result
from playoff_formats.playoff import (
    DecisionMethod,
    GameKind,
    Match,
    MatchStatus,
    Playoff,
    Round,
    Slot,
    Stage,
    TransitionError,
    champion,
    choose_decider_colours,
    correct_result,
    match_decision,
    new_playoff,
    record_result,
    set_game_one_colours,
    start_match,
    voided_games,
    winner,
)
from playoff_formats.timecontrol import ARMAGEDDON, RAPID_25_5

W, B, D = Result.WHITE_WINS, Result.BLACK_WINS, Result.DRAW


def four() -> Playoff:
    """Reg. 8: match 1 is A v D, match 2 is B v C, match 3 the final."""
    return gct2015_playoff(["A", "B", "C", "D"])


def play(
    p: Playoff,
    match_id: int,
    first: Result,
    second: Result,
    *,
    white: str | None = None,
    armageddon: tuple[str, str, Result] | None = None,
) -> Playoff:
    """Draw lots (``white`` has White in game 1; default: the first slot), play two
    games and, when given, the Armageddon (White, Black, result)."""
    a, b = p.match(match_id).players
    assert a is not None and b is not None
    white = white or a
    black = b if white == a else a
    p = set_game_one_colours(p, match_id, white, black)
    p = start_match(p, match_id)
    p = record_result(p, match_id, 1, first)
    p = record_result(p, match_id, 2, second)
    if armageddon is not None:
        aw, ab, result = armageddon
        p = choose_decider_colours(p, match_id, aw, ab)
        p = record_result(p, match_id, 3, result)
    return p


def statuses(p: Playoff) -> dict[int, MatchStatus]:
    return {m.id: m.status for m in p.matches}


# --- statuses -----------------------------------------------------------------


def test_statuses_follow_the_bracket() -> None:
    p = four()
    assert statuses(p) == {1: "ready", 2: "ready", 3: "locked"}
    p = set_game_one_colours(p, 1, "A", "D")
    p = start_match(p, 1)
    assert statuses(p)[1] is MatchStatus.RUNNING
    p = record_result(p, 1, 1, W)
    p = record_result(p, 1, 2, D)
    assert statuses(p) == {1: "completed", 2: "ready", 3: "locked"}
    assert p.match(3).players == ("A", None)
    p = play(p, 2, B, D, white="B")  # C wins game 1 with Black, draws game 2: C 1½-½
    assert statuses(p) == {1: "completed", 2: "completed", 3: "ready"}
    assert p.match(3).players == ("A", "C")


def test_waiting_until_the_earlier_round_is_completed() -> None:
    # Reg. 9, eight players: match 5 is W1 v W4; it waits for matches 2 and 3 too.
    p = gct2015_playoff([f"p{i}" for i in range(1, 9)])
    p = play(p, 1, W, B)  # the first slot wins both
    p = play(p, 4, W, B)  # the first slot wins both
    assert p.match(5).players == ("p1", "p4")
    assert p.match(5).status is MatchStatus.WAITING
    with pytest.raises(TransitionError, match="waiting"):
        start_match(set_game_one_colours(p, 5, "p1", "p4"), 5)
    p = set_game_one_colours(p, 5, "p1", "p4")  # lots may be drawn while waiting
    p = play(p, 2, W, B)  # the first slot wins both
    p = play(p, 3, W, B)  # the first slot wins both
    assert p.match(5).status is MatchStatus.READY
    assert p.match(6).status is MatchStatus.READY


def test_a_bye_is_completed_from_the_start() -> None:
    p = gct2015_playoff(["A", "B", "C", "D", "E"])
    bye = p.match(1)
    assert bye.bye and bye.status is MatchStatus.COMPLETED
    decision = match_decision(bye)
    assert decision is not None and decision.method is DecisionMethod.BYE
    assert winner(bye) == "A" and p.games_of(1) == ()
    with pytest.raises(TransitionError, match="bye"):
        record_result(p, 1, 1, W)


# --- colours -----------------------------------------------------------------------


def test_game_two_swaps_the_colours_drawn_for_game_one() -> None:
    p = set_game_one_colours(four(), 1, "D", "A")
    g1, g2 = p.games_of(1)
    assert (g1.white, g1.black) == ("D", "A")
    assert (g2.white, g2.black) == ("A", "D")
    assert g1.kind is GameKind.REGULAR and g2.kind is GameKind.REGULAR


def test_colours_go_to_the_two_participants() -> None:
    with pytest.raises(TransitionError, match="two participants"):
        set_game_one_colours(four(), 1, "A", "B")
    with pytest.raises(TransitionError, match="two participants"):
        set_game_one_colours(four(), 1, "A", "A")
    with pytest.raises(TransitionError, match="not known yet"):
        set_game_one_colours(four(), 3, "A", "B")


def test_lots_cannot_be_redrawn_after_a_result() -> None:
    p = play(four(), 1, D, D, armageddon=None)
    with pytest.raises(TransitionError, match="can no longer change"):
        set_game_one_colours(p, 1, "D", "A")


def test_no_start_and_no_result_before_lots() -> None:
    with pytest.raises(TransitionError, match="lots"):
        start_match(four(), 1)
    with pytest.raises(TransitionError, match="lots"):
        record_result(four(), 1, 1, W)


# --- illegal results ---------------------------------------------------------------


def test_result_for_a_locked_match_is_refused() -> None:
    with pytest.raises(TransitionError, match="locked: the winner of match 1") as info:
        record_result(four(), 3, 1, W)
    assert isinstance(info.value, PlayoffError)
    assert info.value.match_id == 3


def test_result_for_an_unknown_match_or_game_is_refused() -> None:
    p = set_game_one_colours(four(), 1, "A", "D")
    with pytest.raises(TransitionError, match="no match 9"):
        record_result(p, 9, 1, W)
    with pytest.raises(TransitionError, match="no game 0"):
        record_result(p, 1, 0, W)
    with pytest.raises(TransitionError, match="no game 4: a two-game match"):
        record_result(p, 1, 4, W)


def test_games_are_recorded_in_order_and_once() -> None:
    p = set_game_one_colours(four(), 1, "A", "D")
    with pytest.raises(TransitionError, match="before game 1"):
        record_result(p, 1, 2, W)
    p = record_result(p, 1, 1, W)
    with pytest.raises(TransitionError, match="already has a result"):
        record_result(p, 1, 1, B)


def test_a_third_game_exists_only_as_the_armageddon_of_a_level_match() -> None:
    p = set_game_one_colours(four(), 1, "A", "D")
    p = record_result(p, 1, 1, W)
    with pytest.raises(TransitionError, match="no game 3: game 3 would be the Armageddon"):
        record_result(p, 1, 3, W)
    p = record_result(p, 1, 2, W)  # D has White in game 2 and wins: 1-1
    assert p.match(1).status is MatchStatus.RUNNING  # 1-1: level
    p = correct_result(p, 1, 2, B)  # A wins game 2 with Black: 2-0
    assert p.match(1).status is MatchStatus.COMPLETED
    with pytest.raises(TransitionError, match="already decided"):
        record_result(p, 1, 3, W)
    with pytest.raises(TransitionError, match="no Armageddon"):
        choose_decider_colours(p, 1, "A", "D")


def test_a_started_match_cannot_start_again() -> None:
    p = start_match(set_game_one_colours(four(), 1, "A", "D"), 1)
    with pytest.raises(TransitionError, match="already running"):
        start_match(p, 1)


def test_a_result_on_a_ready_match_starts_it() -> None:
    p = record_result(set_game_one_colours(four(), 1, "A", "D"), 1, 1, D)
    assert p.match(1).started and p.match(1).status is MatchStatus.RUNNING


# --- the Armageddon decider (GCT reg. 10) ---------------------------------------------


def test_a_level_match_needs_an_armageddon_with_colours_from_the_toss() -> None:
    p = play(four(), 1, W, W)  # A wins game 1 as White, D wins game 2 as White
    assert match_decision(p.match(1)) is None
    decider = p.game(1, 3)
    assert decider is not None and decider.kind is GameKind.ARMAGEDDON
    assert (decider.white, decider.black, decider.result) == (None, None, None)
    with pytest.raises(TransitionError, match="coin toss"):
        record_result(p, 1, 3, W)
    with pytest.raises(TransitionError, match="two participants"):
        choose_decider_colours(p, 1, "A", "B")
    p = choose_decider_colours(p, 1, "D", "A")
    p = record_result(p, 1, 3, W)
    decision = match_decision(p.match(1))
    assert decision is not None
    assert decision.method is DecisionMethod.ARMAGEDDON_WIN
    assert (decision.winner, decision.loser, decision.score) == ("D", "A", (1.0, 1.0))
    with pytest.raises(TransitionError, match="has been played"):
        choose_decider_colours(p, 1, "A", "D")


def test_a_drawn_armageddon_stays_drawn_and_black_advances() -> None:
    p = play(four(), 1, D, D, armageddon=("A", "D", D))
    game = p.game(1, 3)
    assert game is not None and game.result is Result.DRAW
    decision = match_decision(p.match(1))
    assert decision is not None
    assert decision.method is DecisionMethod.ARMAGEDDON_DRAW
    assert decision.winner == "D" and decision.armageddon is Result.DRAW
    assert "reg. 10 b" in decision.text
    assert p.match(3).players == ("D", None)


def test_an_armageddon_forfeit_decides_and_a_double_forfeit_is_refused() -> None:
    p = play(four(), 1, D, D)
    p = choose_decider_colours(p, 1, "A", "D")
    with pytest.raises(TransitionError, match="double forfeit"):
        record_result(p, 1, 3, Result.DOUBLE_FORFEIT)
    p = record_result(p, 1, 3, Result.BLACK_WINS_BY_FORFEIT)
    assert winner(p.match(1)) == "D"
    assert "forfeit" in (match_decision(p.match(1)) or pytest.fail()).text


def test_a_regular_double_forfeit_scores_nothing_for_either() -> None:
    p = play(four(), 1, Result.DOUBLE_FORFEIT, W)  # D wins game 2 as White
    assert winner(p.match(1)) == "D"


# --- corrections ------------------------------------------------------------------------


def test_correction_re_propagates_a_new_winner_downstream() -> None:
    p = play(four(), 1, W, D)  # A 1½-½
    p = play(p, 2, W, D)  # B 1½-½
    p = set_game_one_colours(p, 3, "A", "B")
    p = start_match(p, 3)
    p = record_result(p, 3, 1, D)
    before = p
    p = correct_result(p, 1, 1, B)  # D won game 1: D 1½-½
    assert winner(p.match(1)) == "D"
    final = p.match(3)
    assert final.players == ("D", "B")
    assert final.status is MatchStatus.READY and not final.started
    assert all(g.result is None and g.white is None for g in p.games_of(3))
    assert [(g.match, g.number) for g in voided_games(before, p)] == [(3, 1)]
    assert before.match(3).players == ("A", "B")  # the old value is untouched
    old = before.game(3, 1)
    assert old is not None and old.result is D


def test_correction_that_keeps_the_winner_keeps_downstream_results() -> None:
    p = play(four(), 1, W, D)
    p = play(p, 2, W, D)
    p = play(p, 3, D, W)  # B wins game 2 as White
    assert champion(p) == "B"
    corrected = correct_result(p, 1, 2, B)  # A 2-0 instead of 1½-½
    assert corrected.match(3) == p.match(3)
    assert corrected.games_of(3) == p.games_of(3)
    assert champion(corrected) == "B"
    assert voided_games(p, corrected) == ()


def test_correction_that_makes_a_match_level_relocks_downstream() -> None:
    p = play(four(), 1, W, D)
    p = play(p, 2, W, D)
    p = play(p, 3, W, D)
    assert champion(p) == "A"
    p = correct_result(p, 1, 2, W)  # D wins game 2 as White: 1-1
    assert p.match(1).status is MatchStatus.RUNNING
    assert p.game(1, 3) is not None
    assert p.match(3).status is MatchStatus.LOCKED
    assert p.match(3).players == (None, "B") and p.games_of(3) == ()
    assert champion(p) is None
    p = choose_decider_colours(p, 1, "A", "D")
    p = record_result(p, 1, 3, D)
    assert p.match(3).players == ("D", "B")
    assert p.match(3).status is MatchStatus.READY


def test_correction_that_breaks_the_level_removes_the_armageddon() -> None:
    p = play(four(), 1, D, D, armageddon=("A", "D", W))
    assert winner(p.match(1)) == "A"
    p = correct_result(p, 1, 1, B)
    assert p.game(1, 3) is None
    assert winner(p.match(1)) == "D"
    assert p.match(3).players == ("D", None)


def test_correcting_the_armageddon_changes_who_advances() -> None:
    p = play(four(), 1, D, D, armageddon=("A", "D", D))
    assert winner(p.match(1)) == "D"
    p = correct_result(p, 1, 3, W)
    assert winner(p.match(1)) == "A"
    assert p.match(3).players == ("A", None)


def test_correction_needs_a_recorded_result() -> None:
    p = set_game_one_colours(four(), 1, "A", "D")
    with pytest.raises(TransitionError, match="no result yet"):
        correct_result(p, 1, 1, W)
    with pytest.raises(TransitionError, match="no game 3 to correct"):
        correct_result(p, 1, 3, W)


# --- construction and serialisation -------------------------------------------------------


def test_transitions_never_mutate() -> None:
    p = four()
    dump = p.model_dump()
    play(p, 1, W, D)
    assert p.model_dump() == dump


def test_a_playoff_round_trips_through_json() -> None:
    p = play(four(), 1, D, D, armageddon=("A", "D", D))
    assert Playoff.model_validate_json(p.model_dump_json()) == p


def _structure(matches: list[Match]) -> Playoff:
    return new_playoff(
        id="x",
        name="x",
        seeds=["A", "B", "C"],
        stages=[Stage(id=1, name="s")],
        rounds=[Round(stage=1, number=1, name="r1"), Round(stage=1, number=2, name="r2")],
        matches=matches,
    )


def test_an_inconsistent_structure_is_refused() -> None:
    ok = _structure(
        [
            Match(
                id=1,
                round=1,
                slots=(Slot(seed=2), Slot(seed=3)),
                time_control=RAPID_25_5,
                decider=ARMAGEDDON,
            ),
            Match(
                id=2,
                round=2,
                slots=(Slot(seed=1), Slot(winner_of=1)),
                time_control=RAPID_25_5,
                decider=ARMAGEDDON,
            ),
        ]
    )
    assert ok.match(2).status is MatchStatus.LOCKED
    with pytest.raises(PlayoffError, match="fed by a match of a later round"):
        _structure(
            [
                Match(
                    id=1, round=1, slots=(Slot(seed=2), Slot(winner_of=2)), time_control=RAPID_25_5
                ),
                Match(id=2, round=2, slots=(Slot(seed=1), Slot(seed=3)), time_control=RAPID_25_5),
            ]
        )
    with pytest.raises(PlayoffError, match="exactly one final"):
        _structure(
            [
                Match(id=1, round=1, slots=(Slot(seed=2), Slot(seed=3)), time_control=RAPID_25_5),
                Match(id=2, round=2, slots=(Slot(seed=1), Slot(seed=2)), time_control=RAPID_25_5),
            ]
        )
    with pytest.raises(ValueError, match="either a seed or the winner"):
        Slot(seed=1, winner_of=2)


def test_a_match_without_decider_stays_running_when_level() -> None:
    p = _structure(
        [
            Match(id=1, round=1, slots=(Slot(seed=2), Slot(seed=3)), time_control=RAPID_25_5),
            Match(id=2, round=2, slots=(Slot(seed=1), Slot(winner_of=1)), time_control=RAPID_25_5),
        ]
    )
    p = play(p, 1, D, D)
    assert p.match(1).status is MatchStatus.RUNNING and p.game(1, 3) is None
    with pytest.raises(TransitionError, match="no decider"):
        record_result(p, 1, 3, W)
