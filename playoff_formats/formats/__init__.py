"""Play-off formats as data (:mod:`playoff_formats.formats.model`), the built-in
ones, and reading an organiser's own from a parsed TOML or JSON document."""

from __future__ import annotations

from playoff_formats.formats.gct2015 import GCT2015
from playoff_formats.formats.model import (
    Armageddon,
    Bracket,
    BracketMatch,
    BracketRound,
    BracketSlot,
    Breaks,
    ColourRule,
    Decider,
    DeciderColours,
    DeciderRules,
    DeciderVerdict,
    DecidingLot,
    GameStage,
    Knockout,
    MatchFormat,
    PlayoffFormat,
    StageGame,
    SuddenDeath,
)
from playoff_formats.formats.world_cup2015 import WORLD_CUP_2015

__all__ = [
    "BUILT_IN",
    "GCT2015",
    "LOGGED_BEFORE_FORMATS",
    "WORLD_CUP_2015",
    "Armageddon",
    "Bracket",
    "BracketMatch",
    "BracketRound",
    "BracketSlot",
    "Breaks",
    "ColourRule",
    "Decider",
    "DeciderColours",
    "DeciderRules",
    "DeciderVerdict",
    "DecidingLot",
    "GameStage",
    "Knockout",
    "MatchFormat",
    "PlayoffFormat",
    "StageGame",
    "SuddenDeath",
    "built_in",
]

BUILT_IN: dict[str, PlayoffFormat] = {f.name: f for f in (GCT2015, WORLD_CUP_2015)}

LOGGED_BEFORE_FORMATS = GCT2015
"""The format of a play-off logged before formats were data: every such play-off
was a GCT 2015 play-off."""


def built_in(name: str) -> PlayoffFormat | None:
    return BUILT_IN.get(name)
