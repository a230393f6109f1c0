"""The Grand Chess Tour 2015 play-off (regs. 5-10) as data.

- 2 players, reg. 6: one two-game Rapidplay match at G/25+5.
- 3 players, reg. 7: seeds 2 v 3 at G/25+5; the winner then plays seed 1 under
  reg. 6. Seed 1 simply waits: the text gives no bye match, so none is built.
- 4 players, reg. 8: 1 v 4 and 2 v 3, then the winners meet under reg. 6; all
  at G/25+5.
- 5 to 8 players, reg. 9: a seeded knock-out at G/15+5 (1 v 8, 2 v 7, 3 v 6,
  4 v 5, then W(1 v 8) v W(4 v 5) and W(2 v 7) v W(3 v 6)); with five, six or
  seven players the top three, two or one seeds have a first-round bye.
- More than eight: the text has no procedure; ``generic`` is the reg. 9
  knock-out extended (the chief arbiter must ask for it).

Every match: lots for White in game 1, game 2 reversed; if level, an Armageddon
(reg. 10): White 6', Black 5', +3 s a move from move 61, a draw counts as a win
for Black, colours chosen by the winner of the chief arbiter's coin toss.
Breaks (reg. 5): 30 minutes after the last main-event game of any play-off
player; between games not less than 5 minutes and if possible at least 10.

Reading of reg. 9 chosen: the final of the knock-out is also G/15+5 ("Game / 15
mins + 5 secs / move throughout"; unlike regs. 7 and 8 it never sends its last
match back to reg. 6).
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
    Knockout,
    MatchFormat,
    PlayoffFormat,
)
from playoff_formats.timecontrol import ARMAGEDDON, RAPID_15_5, RAPID_25_5, TimeControl

__all__ = ["GCT2015", "REST_RULE", "gct_match_format"]

REST_RULE = "GCT 2015 reg. 5"
"""Where the play-off's breaks come from: 30 minutes after the main event, and
between games not less than 5 minutes and if possible at least 10."""

_ARMAGEDDON = Armageddon(
    name="Armageddon",
    time_control=ARMAGEDDON,
    draw_odds="black",
    colours=DeciderColours.TOSS,
    rule="GCT 2015 reg. 10",
    draw_rule="GCT 2015 reg. 10 b",
    colours_rule="GCT 2015 reg. 10 c",
)


def gct_match_format(
    name: str, time_control: TimeControl, decider: TimeControl | None = ARMAGEDDON
) -> MatchFormat:
    """A two-game Rapidplay match, lots for game 1, and the reg. 10 Armageddon (with
    ``decider`` as its time control) or no decider."""
    return MatchFormat(
        name=name,
        stages=(
            GameStage(
                name="Rapidplay",
                games=2,
                time_control=time_control,
                colours=ColourRule.LOTS,
                rule="GCT 2015 regs. 6-9",
            ),
        ),
        decider=(
            None if decider is None
            else _ARMAGEDDON.model_copy(update={"time_control": decider})
        ),
    )


def _seeds(a: int, b: int) -> tuple[BracketSlot, BracketSlot]:
    return (BracketSlot(seed=a), BracketSlot(seed=b))


GCT2015 = PlayoffFormat(
    name="gct2015",
    title="Grand Chess Tour 2015 play-off",
    input="a tie for first place (reg. 2)",
    matches=(
        gct_match_format("rapid-25", RAPID_25_5),
        gct_match_format("rapid-15", RAPID_15_5),
    ),
    brackets=(
        Bracket(
            players=3,
            name="GCT 2015 play-off, reg. 7 (three players)",
            rounds=(
                BracketRound(
                    name="Seeds 2 v 3 (reg. 7)",
                    matches=(BracketMatch(id=1, slots=_seeds(2, 3), plays="rapid-25"),),
                ),
                BracketRound(
                    name="Final (reg. 6)",
                    matches=(
                        BracketMatch(
                            id=2,
                            slots=(BracketSlot(seed=1), BracketSlot(winner_of=1)),
                            plays="rapid-25",
                        ),
                    ),
                ),
            ),
        ),
    ),
    knockouts=(
        Knockout(
            players_from=2, players_to=2,
            name="GCT 2015 play-off, reg. 6 (two players)", plays="rapid-25",
        ),
        Knockout(
            players_from=4, players_to=4,
            name="GCT 2015 play-off, reg. 8 (four players)", plays="rapid-25",
        ),
        Knockout(
            players_from=5, players_to=8,
            name="GCT 2015 play-off, reg. 9 knock-out ({n} players)", plays="rapid-15",
        ),
    ),
    generic=Knockout(
        players_from=9,
        name="Seeded knock-out of {n} players (outside GCT 2015 regs. 6-9)",
        plays="rapid-15",
    ),
    breaks=Breaks(
        before_playoff=30, between_games=5, between_games_preferred=10, rule=REST_RULE
    ),
    bracket_rule="GCT 2015 regs. 6-9",
    shortening_rule="GCT 2015 reg. 5",
)
"""The GCT 2015 play-off; also the format of every play-off logged before formats
were data (those logs hold GCT 2015 play-offs only)."""
