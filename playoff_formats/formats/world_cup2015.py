"""The FIDE World Cup 2015 tie-break ladder (Baku) as data.

Its input is a knock-out mini-match of classical games between two players that
ended level. Tie-break games follow on the same day, with a new drawing of colours
before each pair: two games at 25 minutes + 10 seconds a move, then (if still
level) two at 10 + 10, then two blitz games at 5 + 3, then one Armageddon game:
White 5 minutes, Black 4, + 3 seconds a move from move 61, a draw counting as a
win for Black.

Policies where the summary is silent:

- The Armageddon's colours: a coin toss whose winner chooses, as for every other
  Armageddon this service runs (the summary gives no procedure).
- Breaks: the play-off begins at least 30 minutes after the last classical game,
  games are at least 5 minutes apart (10 where possible), and a new pair at least
  10 minutes after the previous one (15 where possible): the organiser's usual
  schedule, not a text.
"""

from __future__ import annotations

from playoff_formats.formats.model import (
    Armageddon,
    Bracket,
    BracketMatch,
    BracketRound,
    BracketSlot,
    Breaks,
    ColourRule,
    DeciderColours,
    GameStage,
    MatchFormat,
    PlayoffFormat,
)
from playoff_formats.timecontrol import TimeControl

__all__ = ["WORLD_CUP_2015"]

_RULE = "FIDE World Cup 2015"

LADDER = MatchFormat(
    name="tie-break",
    stages=(
        GameStage(
            name="Rapid 25+10", games=2, time_control=TimeControl.parse("G/25+10"),
            colours=ColourRule.NEW_DRAWING, rule=_RULE,
        ),
        GameStage(
            name="Rapid 10+10", games=2, time_control=TimeControl.parse("G/10+10"),
            colours=ColourRule.NEW_DRAWING, rule=_RULE,
        ),
        GameStage(
            name="Blitz 5+3", games=2, time_control=TimeControl.parse("G/5+3"),
            colours=ColourRule.NEW_DRAWING, rule=_RULE,
        ),
    ),
    decider=Armageddon(
        name="Armageddon",
        time_control=TimeControl.parse("W 5' / B 4', +3 s from move 61"),
        draw_odds="black",
        colours=DeciderColours.TOSS,
        rule=_RULE,
        draw_rule=_RULE,
    ),
)

WORLD_CUP_2015 = PlayoffFormat(
    name="fide-world-cup-2015",
    title="FIDE World Cup 2015 tie-break games",
    input="a drawn classical mini-match between two players",
    matches=(LADDER,),
    brackets=(
        Bracket(
            players=2,
            name="FIDE World Cup 2015 tie-break",
            rounds=(
                BracketRound(
                    name="Tie-break",
                    matches=(
                        BracketMatch(
                            id=1,
                            slots=(BracketSlot(seed=1), BracketSlot(seed=2)),
                            plays="tie-break",
                        ),
                    ),
                ),
            ),
        ),
    ),
    breaks=Breaks(
        before_playoff=30,
        between_games=5,
        between_games_preferred=10,
        between_stages=10,
        between_stages_preferred=15,
    ),
    bracket_rule=_RULE,
)
