"""Refusals of draws, extra boards, board stamps and the planner, kept as messages when
raised and said where they are shown: English as ever in their reason (what is logged
and what the command line prints), in the reader's language at a door that speaks
another (``en-XA`` shows each message in brackets)."""

from __future__ import annotations

import pytest

from playoff_formats.builders.stanzas import StanzaPlan
from playoff_formats.errors import PlayoffError
from playoff_formats.extra_boards import ExtraBoards
from playoff_formats.lots import DrawKind, announce, commit, reveal
from playoff_formats.phrase import Player
from playoff_formats.schedule import Actuals, Constraints, PlanError, plan_stanzas
from playoff_formats.schedule.reasons import Problem, ProblemKind
from playoff_formats.schedule.words import problem as problem_words
from playoff_formats.speech import PSEUDO, speaking
from playoff_formats.stamps import OutageTooLong, charge_press

SEED = bytes.fromhex("5eed" * 16)
OTHER_SEED = bytes.fromhex("beef" * 16)
PLAN = StanzaPlan(boards=8, stanzas=(8,), partner_changes=(False,), rule="EBU 143.2.1")


def _pseudo(refused: PlayoffError, names: dict[str, str] | None = None) -> str:
    with speaking(PSEUDO):
        said = refused.words(names or {})
    assert said.startswith("[") and said.endswith("]")
    assert refused.words(names or {}) != said
    return said


def test_a_draw_refused_is_said_in_the_readers_language() -> None:
    announced = announce(DrawKind.GAME_ONE_COLOURS, "final game 1", ["a", "b"], commit(SEED))
    with pytest.raises(PlayoffError) as refused:
        reveal(announced, OTHER_SEED)
    assert refused.value.reason == "the seed does not match the published commitment"
    _pseudo(refused.value)


def test_an_extra_boards_score_refused_is_said_in_the_readers_language() -> None:
    boards = ExtraBoards.start("home", "away", PLAN)
    with pytest.raises(PlayoffError) as refused:
        boards.record(1, 9, 1, 420)
    assert refused.value.reason == "stanza 1 has boards 1-8, not board 9"
    said = _pseudo(refused.value)
    assert "1-8" in said and "9" in said
    with pytest.raises(PlayoffError) as over:
        boards.model_copy(update={"winner": "home"}).record(1, 1, 1, 420)
    assert over.value.reason == "the extra boards are over: home won"
    assert over.value.words({"home": "Lions"}) == "the extra boards are over: Lions won"
    assert "Lions" in _pseudo(over.value, {"home": "Lions"})


def test_a_press_held_too_long_is_said_in_the_readers_language() -> None:
    with pytest.raises(OutageTooLong) as refused:
        charge_press(1_000, turn_started_ms=0, since_ms=0, now_ms=61_001, queued=True)
    assert refused.value.reason == (
        "this press was held 60 s by the board, past the 60 s a board may be offline: the "
        "arbiter was called to set the clocks"
    )
    _pseudo(refused.value)


def test_a_plan_refused_is_said_in_the_readers_language() -> None:
    with pytest.raises(PlanError) as refused:
        plan_stanzas([], Constraints(), Actuals())
    assert refused.value.reason == "there is no stanza to place"
    _pseudo(refused.value)


@pytest.mark.parametrize("kind", list(ProblemKind))
@pytest.mark.parametrize("stanza", [False, True])
def test_every_planners_refusal_reads_in_english_as_its_words(
    kind: ProblemKind, stanza: bool
) -> None:
    names = {"p1": "Abdusattorov, Nodirbek", "p2": "Sindarov, Javokhir"}
    for players in ((), (Player("p1"),), (Player("p1"), Player("p3")),
                    (Player("p1"), Player("p2"), Player("p3"))):
        about = Problem(kind, match=2, game=3, stanza=stanza, after=(1, 4), players=players)
        refused = PlanError(about, names)
        assert refused.reason == problem_words(about, names)
        assert refused.words({}) == refused.reason
        # A player the planner was not given a name for is named by the door.
        if kind is ProblemKind.MAIN_EVENT_END_UNKNOWN and len(players) > 1:
            assert "Nepo" in refused.words({"p3": "Nepo"})
            with speaking(PSEUDO):
                said = refused.words({"p3": "Nepo"})
            assert said.startswith("[") and "Abdusattorov, Nodirbek" in said
    assert PlanError(Problem(kind)).reason == problem_words(Problem(kind), {})

