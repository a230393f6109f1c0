"""A decider of one's own is one class: written here, overriding the decider's hooks,
it plays a level match through the play-off's transitions, its games placed and
named, its colours drawn, its verdict and its words its own."""

from __future__ import annotations

from typing import ClassVar, Literal

import pytest

from playoff_formats.builders.format import build_playoff, ladder_json
from playoff_formats.formats import (
    DeciderColours,
    DeciderRules,
    DeciderVerdict,
    GameStage,
    Knockout,
    MatchFormat,
    PlayoffFormat,
)
from playoff_formats.formats.model import ControlText, DecisionMethod, GameKind
from playoff_formats.model import Result
from playoff_formats.phrase import Player, phrase
from playoff_formats.playoff import (
    MatchStatus,
    Playoff,
    TransitionError,
    choose_decider_colours,
    record_result,
    set_stage_colours,
)
from playoff_formats.timecontrol import TimeControl

D, W, B = Result.DRAW, Result.WHITE_WINS, Result.BLACK_WINS


class ThreeBlitz(DeciderRules):
    """Up to three blitz games, the first won one deciding; when all three are
    drawn, Black of the third advances."""

    kind: Literal["three-blitz"] = "three-blitz"
    name: str = "Blitz"
    time_control: ControlText
    rule: str = "club rule 7"

    game_kind: ClassVar[GameKind | None] = GameKind.SUDDEN_DEATH

    def has_game(self, offset: int) -> bool:
        return 0 <= offset < 3

    def plays_on(self, result: Result) -> bool:
        return result is Result.DRAW

    @property
    def control(self) -> TimeControl | None:
        return self.time_control

    @property
    def colours_by(self) -> DeciderColours | None:
        return DeciderColours.LOTS

    def summary(self) -> str:
        return f"up to three {self.name.lower()} games {self.time_control}"

    def verdict(
        self, result: Result, *, number: int, level: str, white: str, black: str
    ) -> DeciderVerdict | None:
        if result is Result.DRAW:
            if number < 6:  # games 4 and 5 drawn: the next one is played
                return None
            return DeciderVerdict(
                black, white, DecisionMethod.ARMAGEDDON_DRAW,
                phrase(f"{level}; three {self.name.lower()} games drawn, so Black, ",
                       Player(black), " advances."),
            )
        winner, loser = (white, black) if result is Result.WHITE_WINS else (black, white)
        return DeciderVerdict(
            winner, loser, DecisionMethod.SUDDEN_DEATH_WIN,
            phrase(f"{level}; ", Player(winner), f" won {self.name.lower()} game {number}."),
        )


PLAYS = MatchFormat(
    name="club match",
    stages=(GameStage(name="Rapid", games=3, time_control=TimeControl.parse("G/15+5")),),
    decider=ThreeBlitz(time_control=TimeControl.parse("G/3+2")),
)


def club(plays: MatchFormat = PLAYS) -> PlayoffFormat:
    return PlayoffFormat(
        name="club", title="Club", matches=(plays,),
        knockouts=(Knockout(players_from=2, name="Club ({n} players)", plays=plays.name),),
    )


def level_after_three() -> Playoff:
    p = set_stage_colours(build_playoff(club(), ["a", "b"]), 1, 1, "a", "b")
    for number in (1, 2, 3):
        p = record_result(p, 1, number, D)
    return p


def test_the_format_places_and_words_the_new_deciders_games() -> None:
    assert [PLAYS.place(n) is not None for n in range(1, 8)] == [True] * 6 + [False]
    assert [PLAYS.place(n).stage for n in (3, 4, 6)] == [0, -1, -1]  # type: ignore[union-attr]
    assert PLAYS.decider_control() == TimeControl.parse("G/3+2")
    assert PLAYS.summary() == "3 games G/15+5, then up to three blitz games G/3+2"
    decider = ladder_json(PLAYS)["decider"]
    assert decider == {
        "kind": "three-blitz", "name": "Blitz", "game": 4, "time_control": "G/3+2",
        "increment": decider["increment"], "colours": "lots",
    }


def test_a_won_blitz_game_decides_the_match() -> None:
    p = level_after_three()
    game = p.game(1, 4)
    assert game is not None and game.kind is GameKind.SUDDEN_DEATH and game.white is None
    assert [g.number for g in p.games] == [1, 2, 3, 4]
    with pytest.raises(TransitionError, match="lots for the colours of game 4"):
        record_result(p, 1, 4, W)
    with pytest.raises(TransitionError, match="drawn by lots, not chosen after a coin toss"):
        choose_decider_colours(p, 1, "a", "b")
    p = set_stage_colours(p, 1, 4, "b", "a")
    p = record_result(p, 1, 4, D)
    assert (p.game(1, 5).white, p.game(1, 5).black) == ("a", "b")  # type: ignore[union-attr]
    p = record_result(p, 1, 5, B)
    decision = p.match(1).decision
    assert decision is not None and decision.method is DecisionMethod.SUDDEN_DEATH_WIN
    assert (decision.winner, decision.loser) == ("b", "a")
    assert decision.text == "Level 1½-1½ after three games; b won blitz game 5."
    assert [g.number for g in p.games] == [1, 2, 3, 4, 5]


def test_three_drawn_blitz_games_send_black_of_the_last_through() -> None:
    p = set_stage_colours(level_after_three(), 1, 4, "a", "b")
    for number in (4, 5):
        p = record_result(p, 1, number, D)
        assert p.match(1).status is MatchStatus.RUNNING
    sixth = p.game(1, 6)
    assert sixth is not None and (sixth.white, sixth.black) == ("a", "b")
    p = record_result(p, 1, 6, D)
    decision = p.match(1).decision
    assert decision is not None and decision.method is DecisionMethod.ARMAGEDDON_DRAW
    assert (decision.winner, decision.loser) == ("b", "a")
    assert decision.text == (
        "Level 1½-1½ after three games; three blitz games drawn, so Black, b advances."
    )
    assert p.game(1, 7) is None
    with pytest.raises(TransitionError, match="it is already decided"):
        record_result(p, 1, 7, W)
