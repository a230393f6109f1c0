"""A play-off format as data: who meets whom, and how each match is played.

Design notes: docs/rules-notes.md (Formats and deciders).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import timedelta
from enum import StrEnum
from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Literal, NamedTuple, Self

from pydantic import (
    AfterValidator,
    BeforeValidator,
    Field,
    PlainSerializer,
    ValidatorFunctionWrapHandler,
    WithJsonSchema,
    WrapValidator,
    model_validator,
)

from playoff_formats.errors import InputError
from playoff_formats.model import Frozen, Result
from playoff_formats.phrase import Phrase, Player, phrase
from playoff_formats.timecontrol import TimeControl

__all__ = [
    "Armageddon",
    "Bracket",
    "BracketMatch",
    "BracketRound",
    "BracketSlot",
    "Breaks",
    "ColourRule",
    "ControlText",
    "Decider",
    "DeciderColours",
    "DeciderRules",
    "DeciderVerdict",
    "DecidingLot",
    "DecisionMethod",
    "GameKind",
    "GameStage",
    "Knockout",
    "MatchFormat",
    "PlayoffFormat",
    "StageGame",
    "SuddenDeath",
]


def _control(value: Any) -> Any:
    if not isinstance(value, str):
        return value
    try:
        return TimeControl.parse(value)
    except InputError as error:
        # A ValueError, so that the document's path to the value goes with the reason.
        raise ValueError(f"{value!r} is not a time control: {error.reason}") from None


ControlText = Annotated[
    TimeControl,
    BeforeValidator(_control),
    PlainSerializer(str, return_type=str, when_used="json"),
    WithJsonSchema(
        {
            "type": "string",
            "description": "A time control in the usual notation: G/25+10, "
            "W 5' / B 4', +3 s from move 61, 40/90+30 then G/30+30",
            "examples": ["G/25+10", "W 5' / B 4', +3 s from move 61"],
        }
    ),
]
"""A time control, written and read in its printed notation (``G/25+10``)."""

Name = Annotated[str, Field(min_length=1, max_length=80)]

_NAME_PATTERN = r"^[a-z0-9][a-z0-9.\-]*$"
_NAME = re.compile(_NAME_PATTERN)


def _format_name(name: str) -> str:
    # Said in words: the pattern is for the JSON Schema, not for people.
    if not _NAME.fullmatch(name):
        raise ValueError(
            f"{name!r} cannot be a format's name: use lower-case letters, digits, dots and "
            "hyphens, starting with a letter or a digit (like 'club-2026')"
        )
    return name
Citation = Annotated[
    str, Field(default="", max_length=120, description="The rule cited in words: 'reg. 10 b'")
]


class ColourRule(StrEnum):
    """How the colours of a stage's first game are settled (see the module)."""

    LOTS = "lots"
    NEW_DRAWING = "new-drawing"
    ALTERNATE = "alternate"
    REVERSED = "reversed"

    @property
    def drawn(self) -> bool:
        """The colours are drawn by lots before the stage."""
        return self in (ColourRule.LOTS, ColourRule.NEW_DRAWING)

    @property
    def words(self) -> str:
        return {
            ColourRule.LOTS: "colours by lot",
            ColourRule.NEW_DRAWING: "a new drawing of colours",
            ColourRule.ALTERNATE: "colours alternate",
            ColourRule.REVERSED: "colours reversed",
        }[self]


class GameStage(Frozen):
    """A number of games at one time control; colours alternate within the stage."""

    name: Name = Field(description="As the hall shows it: 'Rapid 25+10', 'Rapidplay'")
    games: int = Field(ge=1, le=20)
    time_control: ControlText
    colours: ColourRule = ColourRule.LOTS
    rule: Citation = ""


class DeciderColours(StrEnum):
    """How the colours of a decider game are settled."""

    TOSS = "toss"
    """A coin is tossed; its winner chooses the colour."""
    LOTS = "lots"
    """Drawn by lots, as for a stage."""


class GameKind(StrEnum):
    REGULAR = "regular"
    ARMAGEDDON = "armageddon"
    SUDDEN_DEATH = "sudden-death"

    @property
    def decider(self) -> bool:
        """A game of the decider (played only when the stages leave the match level)."""
        return self is not GameKind.REGULAR


class DecisionMethod(StrEnum):
    """How a match was decided."""

    BYE = "bye"
    REGULAR_GAMES = "regular-games"
    ARMAGEDDON_WIN = "armageddon-win"
    ARMAGEDDON_DRAW = "armageddon-draw"  # the side with the draw odds advances
    SUDDEN_DEATH_WIN = "sudden-death-win"
    LOT = "lot"


class DeciderVerdict(NamedTuple):
    """What a decider game's result decides: who advances, how, in words."""

    winner: str
    loser: str
    method: DecisionMethod
    words: Phrase


class DeciderRules(Frozen):
    """What a decider says of itself, so that nothing else asks which decider it is:
    the games it adds to a level match, how their colours are settled, what a game's
    result decides, and its words. A new decider is a subclass overriding these."""

    if TYPE_CHECKING:
        # Every decider has these fields; declared by each class so that the order
        # of the fields (and of the documents written) stays each class's own.
        kind: str
        name: str
        rule: str

    game_kind: ClassVar[GameKind | None] = None
    """The kind of the decider's games; ``None`` for a decider that plays none."""
    by_lot: ClassVar[bool] = False
    """A drawing of lots, not a game, decides the level match."""

    def has_game(self, offset: int) -> bool:
        """The decider has a game ``offset`` games after its first (0: its first)."""
        return False

    def plays_on(self, result: Result) -> bool:
        """Another decider game follows one with ``result``."""
        return False

    @property
    def control(self) -> TimeControl | None:
        """The time control of the decider's games."""
        return None

    @property
    def colours_by(self) -> DeciderColours | None:
        """How the first decider game's colours are settled (``None``: no game)."""
        return None

    @property
    def tossed(self) -> bool:
        """The winner of a coin toss chooses the decider game's colours."""
        return self.colours_by is DeciderColours.TOSS

    @property
    def drawn(self) -> bool:
        """The decider game's colours are drawn by lots."""
        return self.colours_by is DeciderColours.LOTS

    @property
    def colours_citation(self) -> str:
        """The rule cited for the toss or the lots."""
        return ""

    @property
    def draw_odds_colour(self) -> Literal["white", "black"] | None:
        """Who wins a drawn decider game (``None``: nobody does)."""
        return None

    @property
    def draw_citation(self) -> str:
        """The rule cited for the draw odds."""
        return ""

    @property
    def draw_means(self) -> str:
        """What a drawn decider game means, in a few words: 'black wins', 'replay'."""
        side = self.draw_odds_colour
        return f"{side} wins" if side is not None else "replay"

    def summary(self) -> str:
        """The decider as a match format's summary ends: 'Armageddon G/5 (draw: Black wins)'."""
        return self.name

    def verdict(
        self, result: Result, *, number: int, level: str, white: str, black: str
    ) -> DeciderVerdict | None:
        """What decider game ``number``, between ``white`` and ``black``, decides by
        ``result`` after the stages left the match ``level`` (in words); ``None``
        when it decides nothing."""
        return None


def _won(result: Result, white: str, black: str) -> tuple[str, str, str, str] | None:
    """Winner, loser, the winner's colour and how, for a decisive game; ``None`` for a
    game that nobody won."""
    if result.white_points == result.black_points:
        return None
    w, lo, colour = (
        (white, black, "White")
        if result.white_points > result.black_points
        else (black, white, "Black")
    )
    how = "by forfeit" if not result.played else f"({result})"
    return w, lo, colour, how


class Armageddon(DeciderRules):
    """One game that cannot end level: a draw counts as a win for ``draw_odds``."""

    kind: Literal["armageddon"] = "armageddon"
    name: Name = "Armageddon"
    time_control: ControlText
    draw_odds: Literal["white", "black"] = Field(
        default="black", description="Who wins when the game is drawn"
    )
    colours: DeciderColours = DeciderColours.TOSS
    rule: Citation = Field(default="", description="Cited for the Armageddon itself")
    draw_rule: Citation = Field(default="", description="Cited for the draw odds")
    colours_rule: Citation = Field(default="", description="Cited for the toss or the lots")

    game_kind: ClassVar[GameKind | None] = GameKind.ARMAGEDDON

    def has_game(self, offset: int) -> bool:
        return offset == 0

    @property
    def control(self) -> TimeControl | None:
        return self.time_control

    @property
    def colours_by(self) -> DeciderColours | None:
        return self.colours

    @property
    def colours_citation(self) -> str:
        return self.colours_rule

    @property
    def draw_odds_colour(self) -> Literal["white", "black"] | None:
        return self.draw_odds

    @property
    def draw_citation(self) -> str:
        return self.draw_rule

    def summary(self) -> str:
        return f"{self.name} {self.time_control} (draw: {self.draw_odds.capitalize()} wins)"

    def verdict(
        self, result: Result, *, number: int, level: str, white: str, black: str
    ) -> DeciderVerdict | None:
        if result is Result.DRAW:
            side = self.draw_odds
            w, lo = (black, white) if side == "black" else (white, black)
            cite = f" ({self.draw_rule})" if self.draw_rule else ""
            return DeciderVerdict(
                w, lo, DecisionMethod.ARMAGEDDON_DRAW,
                phrase(f"{level}; the {self.name} game was drawn (1/2-1/2), so "
                       f"{side.capitalize()}, ", Player(w),
                       f", advances on draw odds{cite}."),
            )
        won = _won(result, white, black)
        if won is None:
            return None
        w, lo, colour, how = won
        return DeciderVerdict(
            w, lo, DecisionMethod.ARMAGEDDON_WIN,
            phrase(f"{level}; ", Player(w), f" won the {self.name} game with {colour} {how}."),
        )


class SuddenDeath(DeciderRules):
    """Games at one time control, repeated until one is won; colours alternate
    from the first, which is settled as ``colours`` says."""

    kind: Literal["sudden-death"] = "sudden-death"
    name: Name = "Sudden death"
    time_control: ControlText
    colours: DeciderColours = DeciderColours.LOTS
    rule: Citation = ""
    colours_rule: Citation = ""

    game_kind: ClassVar[GameKind | None] = GameKind.SUDDEN_DEATH

    def has_game(self, offset: int) -> bool:
        return offset >= 0

    def plays_on(self, result: Result) -> bool:
        return result is Result.DRAW

    @property
    def control(self) -> TimeControl | None:
        return self.time_control

    @property
    def colours_by(self) -> DeciderColours | None:
        return self.colours

    @property
    def colours_citation(self) -> str:
        return self.colours_rule

    def summary(self) -> str:
        return f"{self.name} {self.time_control} until a game is won"

    def verdict(
        self, result: Result, *, number: int, level: str, white: str, black: str
    ) -> DeciderVerdict | None:
        won = _won(result, white, black)
        if won is None:  # a draw in sudden death: play on
            return None
        w, lo, colour, how = won
        return DeciderVerdict(
            w, lo, DecisionMethod.SUDDEN_DEATH_WIN,
            phrase(f"{level}; ", Player(w),
                   f" won {self.name.lower()} game {number} with {colour} {how}."),
        )


class DecidingLot(DeciderRules):
    """No more games: a drawing of lots names who advances."""

    kind: Literal["lot"] = "lot"
    name: Name = "Drawing of lots"
    rule: Citation = ""

    by_lot: ClassVar[bool] = True

    def summary(self) -> str:
        return self.name.lower()


def _own_decider(value: Any, handler: ValidatorFunctionWrapHandler) -> Any:
    # A decider class outside the union below (one that documents cannot name yet)
    # is taken as it is, so that a new decider can be tried before it joins the union.
    if isinstance(value, DeciderRules):
        return value
    return handler(value)


Decider = Annotated[
    Armageddon | SuddenDeath | DecidingLot,
    Field(discriminator="kind"),
    WrapValidator(_own_decider),
]


class StageGame(Frozen):
    """Where a game number falls in a match format."""

    number: int
    stage: int = Field(description="0-based index of the stage; -1 for a decider game")
    first: bool = Field(description="The first game of its stage (or the first decider game)")


class MatchFormat(Frozen):
    """How a match is played: its stages in order, then its decider (or none).

    Games are numbered through the match: the stages' games first, then the
    decider's games (one for an Armageddon; one after another for sudden death).
    """

    name: Name
    stages: tuple[GameStage, ...] = Field(min_length=1, max_length=12)
    decider: Decider | None = None

    @model_validator(mode="after")
    def _first_stage_drawn(self) -> Self:
        if not self.stages[0].colours.drawn:
            raise ValueError(
                f"the first stage's colours cannot be {self.stages[0].colours.value!r}: no game "
                "comes before it; use 'lots'"
            )
        names = [s.name for s in self.stages]
        if len(set(names)) != len(names):
            raise ValueError("two stages of a match format have the same name")
        return self

    @property
    def regular_games(self) -> int:
        return sum(s.games for s in self.stages)

    @property
    def decider_number(self) -> int:
        """The number of the first decider game."""
        return self.regular_games + 1

    def stage_starts(self) -> Iterator[tuple[int, GameStage]]:
        """Each stage with the number of its first game."""
        number = 1
        for stage in self.stages:
            yield number, stage
            number += stage.games

    def place(self, number: int) -> StageGame | None:
        """Where game ``number`` falls; ``None`` for a number the format has no game for."""
        for index, (first, stage) in enumerate(self.stage_starts()):
            if first <= number < first + stage.games:
                return StageGame(number=number, stage=index, first=number == first)
        decider, start = self.decider, self.decider_number
        if decider is not None and number >= start and decider.has_game(number - start):
            return StageGame(number=number, stage=-1, first=number == start)
        return None

    def stage_of(self, number: int) -> GameStage | None:
        """The stage game ``number`` belongs to (``None`` for a decider game)."""
        place = self.place(number)
        return self.stages[place.stage] if place is not None and place.stage >= 0 else None

    def first_game_of(self, index: int) -> int:
        return next(f for i, (f, _) in enumerate(self.stage_starts()) if i == index)

    def decider_control(self) -> TimeControl | None:
        decider = self.decider
        return None if decider is None else decider.control

    def summary(self) -> str:
        """'2 games G/25+5, then Armageddon W 6' / B 5', +3 s from move 61 (draw: Black wins)'."""
        parts = [
            f"{s.games} game{'s' if s.games > 1 else ''} {s.time_control}" for s in self.stages
        ]
        text = ", then ".join(parts)
        decider = self.decider
        if decider is not None:
            text += f", then {decider.summary()}"
        return text


class BracketSlot(Frozen):
    """A side of a bracket match: a seed, or the winner of an earlier match."""

    seed: int | None = Field(default=None, ge=1)
    winner_of: int | None = Field(default=None, ge=1)

    @model_validator(mode="after")
    def _one_source(self) -> Self:
        if (self.seed is None) == (self.winner_of is None):
            raise ValueError("a side is either a seed or the winner of a match, not both")
        return self


class BracketMatch(Frozen):
    """A match of a bracket; ``plays`` names its match format (none for a bye)."""

    id: int = Field(ge=1)
    slots: tuple[BracketSlot, BracketSlot | None]
    plays: str | None = None

    @property
    def bye(self) -> bool:
        return self.slots[1] is None

    @model_validator(mode="after")
    def _shape(self) -> Self:
        if self.bye and self.slots[0].seed is None:
            raise ValueError("a bye goes to a seed")
        if not self.bye and self.plays is None:
            raise ValueError("a match that is played names its match format ('plays')")
        return self


class BracketRound(Frozen):
    name: Name
    matches: tuple[BracketMatch, ...] = Field(min_length=1)


class Bracket(Frozen):
    """The play-off of ``players`` tied players, round by round."""

    players: int = Field(ge=2, le=64)
    name: Name
    rounds: tuple[BracketRound, ...] = Field(min_length=1)


class Knockout(Frozen):
    """A seeded knock-out for ``players_from`` to ``players_to`` tied players: the
    bracket of the next power of two, the best position against the worst in every
    round, byes to the top seeds. ``name`` may hold ``{n}``, the number of players."""

    players_from: int = Field(ge=2, le=64)
    players_to: int | None = Field(default=None, ge=2, le=64)
    name: Name
    plays: str

    @model_validator(mode="after")
    def _range(self) -> Self:
        if self.players_to is not None and self.players_to < self.players_from:
            raise ValueError("players_to is below players_from")
        return self

    def covers(self, n: int) -> bool:
        return self.players_from <= n and (self.players_to is None or n <= self.players_to)


class Breaks(Frozen):
    """The breaks a format owes the players, in minutes."""

    before_playoff: float = Field(
        default=30, ge=0, le=1440, description="After a player's last main-event game"
    )
    between_games: float = Field(default=5, ge=0, le=1440, description="The least interval")
    between_games_preferred: float = Field(
        default=10, ge=0, le=1440, description="The interval kept where possible"
    )
    between_stages: float | None = Field(
        default=None, ge=0, le=1440, description="The least interval before a new stage "
        "(default: between_games)"
    )
    between_stages_preferred: float | None = Field(default=None, ge=0, le=1440)
    rule: Citation = ""

    @model_validator(mode="after")
    def _ordered(self) -> Self:
        if self.between_games_preferred < self.between_games:
            raise ValueError("between_games_preferred is shorter than between_games")
        if (
            self.between_stages is not None
            and self.between_stages_preferred is not None
            and self.between_stages_preferred < self.between_stages
        ):
            raise ValueError("between_stages_preferred is shorter than between_stages")
        return self

    @property
    def before(self) -> timedelta:
        return timedelta(minutes=self.before_playoff)

    @property
    def interval(self) -> timedelta:
        return timedelta(minutes=self.between_games)

    @property
    def preferred(self) -> timedelta:
        return timedelta(minutes=self.between_games_preferred)

    @property
    def stage_interval(self) -> timedelta:
        minutes = self.between_stages
        return self.interval if minutes is None else timedelta(minutes=minutes)

    @property
    def stage_preferred(self) -> timedelta:
        minutes = self.between_stages_preferred
        if minutes is None:
            return max(self.preferred, self.stage_interval)
        return timedelta(minutes=minutes)


class PlayoffFormat(Frozen):
    """A play-off format: brackets per number of players, match formats, breaks.

    ``generic`` is a knock-out allowed beyond the brackets only when the chief
    arbiter asks for it (outside the text).
    """

    name: Annotated[
        str,
        Field(min_length=1, max_length=80, json_schema_extra={"pattern": _NAME_PATTERN}),
        AfterValidator(_format_name),
    ]
    title: Name
    input: str = Field(
        default="a tie for first place", max_length=200,
        description="What the play-off decides, in words",
    )
    matches: tuple[MatchFormat, ...] = Field(min_length=1, max_length=20)
    brackets: tuple[Bracket, ...] = ()
    knockouts: tuple[Knockout, ...] = ()
    generic: Knockout | None = None
    breaks: Breaks = Breaks()
    bracket_rule: Citation = Field(default="", description="Cited for the brackets")
    shortening_rule: Citation = Field(
        default="", description="Cited when the chief arbiter shortens time limits"
    )

    @model_validator(mode="after")
    def _references(self) -> Self:
        # Each message starts with the path of the value it is about ("where: why").
        names = [m.name for m in self.matches]
        for i, name in enumerate(names):
            if name in names[:i]:
                raise ValueError(f"matches[{i}].name: {name!r} names another match format too")
        known = set(names)
        listed = ", ".join(repr(n) for n in names)
        if not self.brackets and not self.knockouts:
            raise ValueError("brackets: a format needs at least one bracket or knock-out")
        counts = [b.players for b in self.brackets]
        for i, n in enumerate(counts):
            if n in counts[:i]:
                raise ValueError(f"brackets[{i}].players: another bracket is for {n} players")
        rules = [(f"knockouts[{i}]", k) for i, k in enumerate(self.knockouts)]
        if self.generic is not None:
            rules.append(("generic", self.generic))
        for where, k in rules:
            if k.plays not in known:
                raise ValueError(
                    f"{where}.plays: {k.plays!r} is no match format (known: {listed})"
                )
            covered = [n for n in counts if k.covers(n)]
            if covered:
                raise ValueError(
                    f"{where}: it covers {covered[0]} players, who have a bracket already"
                )
        for where, k in rules:
            for other_where, other in rules:
                if other is k or where == "generic" or other_where == "generic":
                    continue
                start = max(k.players_from, other.players_from)
                if k.covers(start) and other.covers(start) and where < other_where:
                    raise ValueError(
                        f"{other_where}: it covers {start} players, as {where} does"
                    )
        for bi, b in enumerate(self.brackets):
            ids: set[int] = set()
            for ri, r in enumerate(b.rounds):
                for mi, m in enumerate(r.matches):
                    where = f"brackets[{bi}].rounds[{ri}].matches[{mi}]"
                    if m.plays is not None and m.plays not in known:
                        raise ValueError(
                            f"{where}.plays: {m.plays!r} is no match format (known: {listed})"
                        )
                    if m.id in ids:
                        raise ValueError(f"{where}.id: match {m.id} is listed twice")
                    for slot in m.slots:
                        if slot is None:
                            continue
                        if slot.seed is not None and slot.seed > b.players:
                            raise ValueError(
                                f"{where}.slots: seed {slot.seed} in a play-off of "
                                f"{b.players} players"
                            )
                        if slot.winner_of is not None and slot.winner_of not in ids:
                            raise ValueError(
                                f"{where}.slots: the winner of match {slot.winner_of}, "
                                "which is not in an earlier round"
                            )
                for m in r.matches:
                    ids.add(m.id)
        return self

    def match_format(self, name: str) -> MatchFormat:
        return next(m for m in self.matches if m.name == name)

    def player_counts(self) -> str:
        """The numbers of players the format has play-offs for, in words: '2 to 8'."""
        counts = {b.players for b in self.brackets}
        open_from: int | None = None
        for k in self.knockouts:
            if k.players_to is None:
                open_from = k.players_from if open_from is None else min(open_from, k.players_from)
            else:
                counts.update(range(k.players_from, k.players_to + 1))
        ordered = sorted(counts)
        runs: list[list[int]] = []
        for n in ordered:
            if runs and n == runs[-1][-1] + 1:
                runs[-1].append(n)
            else:
                runs.append([n])
        words = [str(r[0]) if len(r) == 1 else f"{r[0]} to {r[-1]}" for r in runs]
        if open_from is not None:
            words.append(f"{open_from} or more")
        return ", ".join(words)
