"""How a match stands in words and points: its decision and its score."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any

from pydantic import PlainSerializer, PlainValidator, WithJsonSchema, model_validator

from playoff_formats.formats.model import DecisionMethod
from playoff_formats.model import Frozen, Result
from playoff_formats.phrase import Phrase, Player
from playoff_formats.words import points

__all__ = [
    "MatchDecision",
    "MatchScore",
    "PhraseData",
    "PlayerPoints",
]


class MatchDecision(Frozen):
    """Who advances from a match, and how it was decided.

    ``score`` is the winner's and the loser's points over the regular games
    (level for a decision by Armageddon); ``armageddon`` is the result of the
    decider as it stands on the game.
    """

    winner: str
    loser: str | None
    method: DecisionMethod
    score: tuple[float, float] | None = None
    armageddon: Result | None = None
    words: PhraseData

    @model_validator(mode="before")
    @classmethod
    def _logged_as_text(cls, data: Any) -> Any:
        # A play-off logged before phrases kept a bye's decision as a sentence.
        if isinstance(data, dict) and "text" in data and "words" not in data:
            data = {**data, "words": data["text"]}
            del data["text"]
        return data

    def describe(self, names: Mapping[str, str]) -> str:
        """How the match was decided, in a sentence with the players' names."""
        return self.words.text(names)

    @property
    def text(self) -> str:
        """The sentence with the players' ids (for logs; people get :meth:`describe`)."""
        return str(self.words)


def _phrase_in(value: object) -> Phrase:
    if isinstance(value, Phrase):
        return value
    if isinstance(value, str):  # a sentence logged before phrases: its words alone
        return Phrase((value,))
    if isinstance(value, list | tuple):
        parts: list[str | Player] = []
        for part in value:
            if isinstance(part, str):
                parts.append(part)
            elif isinstance(part, dict) and isinstance(part.get("player"), str):
                parts.append(Player(part["player"]))
            else:
                raise ValueError("a phrase is a list of words and {\"player\": id}")
        return Phrase(tuple(parts))
    raise ValueError("a phrase is a list of words and {\"player\": id}")


def _phrase_out(value: Phrase) -> list[Any]:
    return [{"player": p.id} if isinstance(p, Player) else p for p in value.parts]


PhraseData = Annotated[
    Phrase,
    PlainValidator(_phrase_in),
    PlainSerializer(_phrase_out),
    WithJsonSchema({
        "type": "array",
        "items": {"anyOf": [
            {"type": "string"},
            {"type": "object", "properties": {"player": {"type": "string"}},
             "required": ["player"], "additionalProperties": False},
        ]},
        "description": "Words, and the players they speak of by id",
    }),
]
"""A :class:`~playoff_formats.phrase.Phrase` in a model: JSON as its words and
``{"player": id}``, in order."""


class PlayerPoints(Frozen):
    """One player of a match and the points they scored."""

    player: str
    points: float


class MatchScore(Frozen):
    """A match's score over its regular games: each player's points beside the player.

    Points never travel without their player, so no door can print a score beside
    the wrong names (the first game's colours and the seeds need not agree). A
    decider scores nothing: it decides a level match (see :class:`MatchDecision`).
    """

    sides: tuple[PlayerPoints, PlayerPoints]

    def of(self, player: str) -> float:
        for side in self.sides:
            if side.player == player:
                return side.points
        raise KeyError(player)

    def leader_first(self) -> MatchScore:
        """The player ahead first; a level score keeps its order."""
        a, b = self.sides
        return self if a.points >= b.points else MatchScore(sides=(b, a))

    @property
    def level(self) -> bool:
        return self.sides[0].points == self.sides[1].points

    def points_text(self, dash: str = "–") -> str:
        """``1½–½``: the points alone, in this score's order of players."""
        return dash.join(points(side.points) for side in self.sides)

    def text(self, names: Mapping[str, str]) -> str:
        """``Praggnanandhaa R 1½–½ Sindarov, Javokhir``: the names beside their points."""
        a, b = self.sides
        return (f"{names.get(a.player, a.player)} {self.points_text()} "
                f"{names.get(b.player, b.player)}")



