"""Extra boards for tied bridge knock-out matches (EBU White Book 143.2)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from playoff_formats.builders.stanzas import (
    StanzaPlan,
    extra_boards,
    stanza_outcome,
    triangle_extra_boards,
)
from playoff_formats.errors import InputError

HPB = "hubert-phillips-bowl"

# Scheduled boards -> extra boards: one-eighth, minimum two, fractions rounded up.
STANDARD = {12: 2, 16: 2, 20: 3, 24: 3, 30: 4, 32: 4, 36: 5, 48: 6, 60: 8, 64: 8}


# -- 143.2.1: between two teams ------------------------------------------------------


@pytest.mark.parametrize(("scheduled", "boards"), sorted(STANDARD.items()))
def test_143_2_1_one_eighth_minimum_two_rounded_up(scheduled: int, boards: int) -> None:
    plan = extra_boards(scheduled)
    assert plan.boards == boards
    assert plan.stanzas == (boards,)  # a single stanza
    assert plan.partner_changes == (False,)
    assert plan.seating_rights is False  # no seating rights
    assert plan.repeat_while_tied is True  # "the procedure shall be repeated"
    assert plan.rule == "EBU 143.2.1"


@pytest.mark.parametrize("scheduled", [1, 2, 8, 9, 15, 16])
def test_143_2_1_minimum_of_two_boards(scheduled: int) -> None:
    assert extra_boards(scheduled).boards == 2


def test_143_2_1_an_unknown_event_takes_the_standard_rule() -> None:
    assert extra_boards(48, event="Gold Cup") == extra_boards(48)


@given(st.integers(min_value=1, max_value=10_000))
def test_143_2_1_formula(scheduled: int) -> None:
    boards = extra_boards(scheduled).boards
    assert boards >= 2
    assert boards * 8 >= scheduled  # at least one-eighth
    assert boards == 2 or (boards - 1) * 8 < scheduled  # rounded up, not more


def test_143_2_1_json() -> None:
    assert extra_boards(36).to_json() == {
        "boards": 5,
        "stanzas": [5],
        "partner_changes": [False],
        "seating_rights": False,
        "repeat_while_tied": True,
        "rule": "EBU 143.2.1",
        "note": extra_boards(36).note,
    }


# -- 143.2.1 Exception: the Hubert Phillips Bowl --------------------------------------


@pytest.mark.parametrize("stage", [30, 48])
def test_143_2_1_exception_30_or_48_board_stage_six_boards_in_three_stanzas_of_two(
    stage: int,
) -> None:
    plan = extra_boards(stage, event=HPB)
    assert plan.boards == 6
    assert plan.stanzas == (2, 2, 2)
    assert plan.partner_changes == (True, True, True)  # after each such stanza
    assert plan.seating_rights is False
    assert plan.repeat_while_tied is True
    assert plan.rule == "EBU 143.2.1 Exception (Hubert Phillips Bowl)"
    assert "captains continue to play at the same table" in plan.note
    assert plan.to_json()["stanzas"] == [2, 2, 2]


def test_143_2_1_exception_60_board_stage_nine_boards_in_three_stanzas_of_three() -> None:
    plan = extra_boards(60, event=HPB)
    assert plan.boards == 9
    assert plan.stanzas == (3, 3, 3)
    # The text is silent on partners here; policy: change as in the 30/48 stages.
    assert plan.partner_changes == (True, True, True)
    assert "silent" in plan.note
    assert plan.rule == "EBU 143.2.1 Exception (Hubert Phillips Bowl)"


@pytest.mark.parametrize("scheduled", sorted(STANDARD))
def test_143_2_1_with_and_without_the_hubert_phillips_exception(scheduled: int) -> None:
    plan = extra_boards(scheduled, event=HPB)
    if scheduled in (30, 48):
        assert (plan.boards, plan.stanzas) == (6, (2, 2, 2))
    elif scheduled == 60:
        assert (plan.boards, plan.stanzas) == (9, (3, 3, 3))
    else:  # other stage lengths of the event: the standard rule
        assert (plan.boards, plan.stanzas) == (STANDARD[scheduled], (STANDARD[scheduled],))
        assert plan.rule == "EBU 143.2.1"
        assert "no exception" in plan.note
    assert extra_boards(scheduled).boards == STANDARD[scheduled]


@pytest.mark.parametrize(
    "name", ["Hubert Phillips Bowl", "hubert_phillips_bowl", " HUBERT-PHILLIPS-BOWL "]
)
def test_the_event_name_ignores_case_spaces_and_underscores(name: str) -> None:
    assert extra_boards(48, event=name).stanzas == (2, 2, 2)


def test_the_stage_length_chooses_the_exception() -> None:
    # A 48-board stage whose match was scheduled for fewer boards still plays 6 in 3 x 2.
    assert extra_boards(40, event=HPB, stage_boards=48).stanzas == (2, 2, 2)
    # Without the exception the match's scheduled boards count.
    assert extra_boards(40, event=HPB, stage_boards=64).boards == 5


def test_bad_board_numbers_are_refused() -> None:
    with pytest.raises(InputError):
        extra_boards(0)
    with pytest.raises(InputError):
        extra_boards(32, stage_boards=0)
    with pytest.raises(InputError):
        triangle_extra_boards(0)


# -- 143.2.2: between three teams --------------------------------------------------------


def test_143_2_2_two_16_board_mini_matches_give_two_extra_boards() -> None:
    plan = triangle_extra_boards(16)
    assert plan.boards == 2
    assert plan.stanzas == (2,)
    assert plan.repeat_while_tied is True
    assert plan.rule == "EBU 143.2.2"
    assert "third team" in plan.note


@pytest.mark.parametrize(("boards", "extra"), [(8, 2), (16, 2), (20, 3), (24, 3), (32, 4)])
def test_143_2_2_one_eighth_of_the_mini_match_minimum_two(boards: int, extra: int) -> None:
    assert triangle_extra_boards(boards).boards == extra


# -- playing the stanzas -----------------------------------------------------------------


def test_143_2_1_single_stanza_decides_or_is_repeated() -> None:
    plan = extra_boards(32)
    won = stanza_outcome(plan, 0, 12, 3)
    assert won.decided and won.winner == "home"
    lost = stanza_outcome(plan, 0, 0, 5)
    assert lost.decided and lost.winner == "away"
    tied = stanza_outcome(plan, 0, 4, 4)
    assert not tied.decided
    assert tied.repeats_set
    assert (tied.next_stanza, tied.next_boards) == (1, 4)
    assert tied.change_partners is False
    again = stanza_outcome(plan, 1, 6, 0)
    assert again.decided and again.winner == "home"


def test_143_2_1_exception_the_set_of_three_stanzas_is_played_out() -> None:
    plan = extra_boards(48, event=HPB)
    first = stanza_outcome(plan, 0, 10, 0)
    assert not first.decided  # a lead after two boards decides nothing
    assert (first.next_stanza, first.next_boards, first.change_partners) == (1, 2, True)
    assert not first.repeats_set
    second = stanza_outcome(plan, 1, 10, 0)
    assert (second.next_stanza, second.next_boards, second.change_partners) == (2, 2, True)
    third = stanza_outcome(plan, 2, 10, 11)
    assert third.decided and third.winner == "away"


def test_143_2_1_exception_still_tied_after_the_whole_set_repeats_the_whole_set() -> None:
    plan = extra_boards(60, event=HPB)
    tied = stanza_outcome(plan, 2, 7, 7)
    assert not tied.decided
    assert tied.repeats_set
    assert (tied.next_stanza, tied.next_boards, tied.change_partners) == (3, 3, True)
    assert "repeated" in tied.reason
    # The repeated set is again three stanzas; the IMPs count afresh from stanza 3.
    assert not stanza_outcome(plan, 3, 5, 0).decided
    assert not stanza_outcome(plan, 4, 5, 0).decided
    assert stanza_outcome(plan, 5, 5, 1).winner == "home"


def test_a_plan_that_does_not_repeat_ends_tied() -> None:
    plan = StanzaPlan(
        boards=2,
        stanzas=(2,),
        partner_changes=(False,),
        repeat_while_tied=False,
        rule="test",
    )
    outcome = stanza_outcome(plan, 0, 1, 1)
    assert not outcome.decided and outcome.next_stanza is None


def test_stanza_outcome_refuses_bad_arguments() -> None:
    with pytest.raises(InputError):
        stanza_outcome(extra_boards(32), -1, 0, 0)
    with pytest.raises(InputError):
        stanza_outcome(extra_boards(32), 0, -3, 0)


def test_a_plan_must_be_consistent() -> None:
    with pytest.raises(ValidationError):
        StanzaPlan(boards=5, stanzas=(2, 2), partner_changes=(True, True), rule="x")
    with pytest.raises(ValidationError):
        StanzaPlan(boards=4, stanzas=(2, 2), partner_changes=(True,), rule="x")
