"""Play-offs as flat tables that can be corrected.

After the shape of brackets-model: a play-off is a few flat tables (stages,
rounds, matches, games, participants), linked by ids; a match slot holds either
a seeded participant or a feeder link, and every match carries an explicit
status. What the arbiter decides is base data; everything else is derived and
recomputed by every transition.

- :mod:`~playoff_formats.playoff.model`: the tables.
- :mod:`~playoff_formats.playoff.decision`: a match's decision and score.
- :mod:`~playoff_formats.playoff.transitions`: what the arbiter does to a play-off.
- :mod:`~playoff_formats.playoff.refusals`: why a transition is refused.
- :mod:`~playoff_formats.playoff.derivation`: what follows from the base data.

The design and the policies: docs/rules-notes.md (The bracket).
"""

from __future__ import annotations

from playoff_formats.formats.model import DecisionMethod, GameKind
from playoff_formats.playoff.decision import MatchDecision, MatchScore, PhraseData, PlayerPoints
from playoff_formats.playoff.derivation import (
    champion,
    final_match,
    match_decision,
    match_score,
    voided_games,
    winner,
)
from playoff_formats.playoff.model import (
    Game,
    Match,
    MatchStatus,
    Participant,
    Playoff,
    Round,
    Slot,
    Stage,
    TransitionError,
)
from playoff_formats.playoff.transitions import (
    choose_decider_colours,
    correct_result,
    decide_by_lot,
    new_playoff,
    record_result,
    set_game_one_colours,
    set_stage_colours,
    start_match,
)

__all__ = [
    "DecisionMethod",
    "Game",
    "GameKind",
    "Match",
    "MatchDecision",
    "MatchScore",
    "MatchStatus",
    "Participant",
    "PhraseData",
    "PlayerPoints",
    "Playoff",
    "Round",
    "Slot",
    "Stage",
    "TransitionError",
    "champion",
    "choose_decider_colours",
    "correct_result",
    "decide_by_lot",
    "final_match",
    "match_decision",
    "match_score",
    "new_playoff",
    "record_result",
    "set_game_one_colours",
    "set_stage_colours",
    "start_match",
    "voided_games",
    "winner",
]
