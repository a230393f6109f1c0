"""Time controls as data: periods per side, increments from move N, delays.

Design notes: docs/rules-notes.md (Time controls).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from enum import StrEnum
from typing import NoReturn, Self

from pydantic import Field, ValidationError, model_validator

from playoff_formats.errors import InputError, PlayoffError
from playoff_formats.model import Colour, Frozen
from playoff_formats.speech import tr

__all__ = [
    "ARMAGEDDON",
    "RAPID_15_5",
    "RAPID_25_5",
    "DelayMode",
    "NotExpressibleError",
    "Stage",
    "TimeControl",
]

_MINUTE_MS = 60_000
_SECOND_MS = 1_000


class NotExpressibleError(PlayoffError):
    """A time control that a target notation cannot express exactly."""


class DelayMode(StrEnum):
    BRONSTEIN = "bronstein"
    US = "us"


class Stage(Frozen):
    """One period of one side's time control (see the module docstring)."""

    base_ms: int = Field(ge=0, description="Time given for this period")
    increment_ms: int = Field(default=0, ge=0, description="Credited per completed move")
    increment_from_move: int = Field(
        default=1, ge=1, description="The first move whose completion is credited"
    )
    moves: int | None = Field(default=None, ge=1, description="None: the rest of the game")
    delay_ms: int = Field(default=0, ge=0)
    delay: DelayMode | None = None

    @model_validator(mode="after")
    def _delay_has_mode(self) -> Self:
        if self.delay_ms > 0 and self.delay is None:
            raise ValueError("a delay needs a mode (bronstein or us)")
        return self


class TimeControl(Frozen):
    """Each side's periods; the last period of each side is the rest of the game."""

    white: tuple[Stage, ...] = Field(min_length=1)
    black: tuple[Stage, ...] = Field(min_length=1)

    @model_validator(mode="after")
    def _periods_end_with_rest_of_game(self) -> Self:
        for name, stages in (("white", self.white), ("black", self.black)):
            for index, stage in enumerate(stages):
                last = index == len(stages) - 1
                if last and stage.moves is not None:
                    raise ValueError(f"{name}: the last period must be the rest of the game")
                if not last and stage.moves is None:
                    raise ValueError(
                        f"{name}: period {index + 1} is the rest of the game but is not last"
                    )
        return self

    # -- queries -----------------------------------------------------------

    def for_side(self, colour: Colour) -> tuple[Stage, ...]:
        return self.white if colour is Colour.WHITE else self.black

    @property
    def symmetric(self) -> bool:
        """True when both sides have the same periods."""
        return self.white == self.black

    def initial_ms(self, colour: Colour) -> int:
        """The time on a side's clock before the first move."""
        return self.for_side(colour)[0].base_ms

    def stage_for_move(self, colour: Colour, move: int) -> Stage:
        """The period in which a side plays move ``move`` (1-based)."""
        if move < 1:
            raise ValueError("moves are numbered from 1")
        first = 1
        stages = self.for_side(colour)
        for stage in stages:
            if stage.moves is None or move < first + stage.moves:
                return stage
            first += stage.moves
        return stages[-1]  # unreachable: the last period has moves=None

    def increment_after_move(self, colour: Colour, move: int) -> int:
        """Milliseconds credited to a side on completing move ``move``."""
        stage = self.stage_for_move(colour, move)
        return stage.increment_ms if move >= stage.increment_from_move else 0

    def time_added_after_move(self, colour: Colour, move: int) -> int:
        """Milliseconds a side receives on completing ``move``: its increment, plus
        the next period's base when ``move`` ends a period."""
        added = self.increment_after_move(colour, move)
        first = 1
        stages = self.for_side(colour)
        for index, stage in enumerate(stages[:-1]):
            assert stage.moves is not None
            first += stage.moves
            if move == first - 1:
                added += stages[index + 1].base_ms
        return added

    @functools.lru_cache(maxsize=256)  # noqa: B019 (a frozen value: the cache is exact)
    def estimated_duration_ms(self, moves: int = 60) -> int:
        """The expected length of a game that lasts ``moves`` moves, for scheduling.

        For each side: the base of every period that the game reaches (the first,
        and each later period whose first move is at most ``moves``), plus the
        increment credited for moves 1 to ``moves`` (only from each period's
        ``increment_from_move``), plus the delay for each of those moves (time a
        side may think without its clock running down). The two sides are added:
        it is the longest the game can last if both sides use all their time and
        it ends at move ``moves``. ``estimated_duration_ms(60)`` of ``G/25+5``
        is 2 x (25 min + 60 x 5 s) = 60 min.
        """
        if moves < 0:
            raise ValueError("moves must be at least 0")
        total = 0
        for colour in (Colour.WHITE, Colour.BLACK):
            stages = self.for_side(colour)
            total += stages[0].base_ms
            first = 1
            for index, stage in enumerate(stages[:-1]):
                assert stage.moves is not None
                first += stage.moves
                if first <= moves:
                    total += stages[index + 1].base_ms
            for move in range(1, moves + 1):
                total += self.increment_after_move(colour, move)
                total += self.stage_for_move(colour, move).delay_ms
        return total

    # -- notation ------------------------------------------------------------

    @classmethod
    def parse(cls, text: str) -> TimeControl:
        """Read the notation of the module docstring; InputError with a column if bad."""
        return _Parser(text).control()

    def __str__(self) -> str:
        if self.symmetric:
            return _side_text(self.white)
        if len(self.white) == 1 and len(self.black) == 1:
            white, black = self.white[0], self.black[0]
            if _modifiers_of(white) == _modifiers_of(black):
                text = f"W {_base_with_unit(white.base_ms)} / B {_base_with_unit(black.base_ms)}"
                if _has_increment(white):
                    text += ", " + _increment_text(white, unit=" s")
                if white.delay is not None:
                    text += ", " + _delay_text(white)
                return text
        return f"W {_side_text(self.white)} / B {_side_text(self.black)}"

    def increment_words(self) -> str:
        """White's increment as the hall reads it ("+3 s from move 61"), or "no increment"."""
        stage = self.white[0]
        if not _has_increment(stage):
            return tr("no increment")
        seconds = _seconds_text(stage.increment_ms)
        if stage.increment_from_move != 1:
            return tr("+{seconds} s from move {move}", seconds=seconds,
                      move=stage.increment_from_move)
        return tr("+{seconds} s", seconds=seconds)

    def to_trf222(self) -> str:
        """The TRF-2026 record 222 value (``5400+30``, ``W300-B240``...).

        Raises :class:`NotExpressibleError` for an increment that starts after a
        period's first move, a delay, or a time that is not whole seconds.
        """
        if self.symmetric:
            return _trf_side(self.white, "")
        return f"W{_trf_side(self.white, 'White: ')}-B{_trf_side(self.black, 'Black: ')}"

    @classmethod
    def from_trf222(cls, text: str) -> TimeControl:
        """Read a TRF-2026 record 222 value; InputError with a column if bad."""
        return _parse_trf222(text)


# -- printing ---------------------------------------------------------------------


def _seconds_text(ms: int) -> str:
    whole, rest = divmod(ms, _SECOND_MS)
    if rest == 0:
        return str(whole)
    return f"{whole}.{rest:03d}".rstrip("0")


def _base_text(ms: int) -> str:
    """Bare minutes when whole, else ``M'S"`` (or ``S"`` under a minute)."""
    if ms % _MINUTE_MS == 0:
        return str(ms // _MINUTE_MS)
    return _base_with_unit(ms)


def _base_with_unit(ms: int) -> str:
    minutes, rest = divmod(ms, _MINUTE_MS)
    if rest == 0:
        return f"{minutes}'"
    seconds = _seconds_text(rest) + '"'
    return f"{minutes}'{seconds}" if minutes else seconds


def _has_increment(stage: Stage) -> bool:
    return stage.increment_ms > 0 or stage.increment_from_move != 1


def _modifiers_of(stage: Stage) -> tuple[int, int, int, DelayMode | None]:
    return (stage.increment_ms, stage.increment_from_move, stage.delay_ms, stage.delay)


def _increment_text(stage: Stage, unit: str = "") -> str:
    text = f"+{_seconds_text(stage.increment_ms)}{unit}"
    if stage.increment_from_move != 1:
        text += f" from move {stage.increment_from_move}"
    return text


def _delay_text(stage: Stage) -> str:
    letter = "d" if stage.delay is DelayMode.US else "b"
    return f"{letter}{_seconds_text(stage.delay_ms)}"


def _period_text(stage: Stage) -> str:
    prefix = "G/" if stage.moves is None else f"{stage.moves}/"
    text = prefix + _base_text(stage.base_ms)
    if _has_increment(stage):
        text += _increment_text(stage)
    if stage.delay is not None:
        text += " " + _delay_text(stage)
    return text


def _side_text(stages: tuple[Stage, ...]) -> str:
    return ", ".join(_period_text(stage) for stage in stages)


def _trf_side(stages: tuple[Stage, ...], who: str) -> str:
    parts: list[str] = []
    first = 1
    for number, stage in enumerate(stages, start=1):
        where = f"{who}period {number}"
        if stage.delay is not None:
            raise NotExpressibleError(f"{where}: TRF record 222 cannot express a delay")
        if stage.increment_ms and stage.increment_from_move > first:
            raise NotExpressibleError(
                f"{where}: TRF record 222 cannot express an increment from move "
                f"{stage.increment_from_move} (only from the first move of a period)"
            )
        if stage.base_ms % _SECOND_MS or stage.increment_ms % _SECOND_MS:
            raise NotExpressibleError(f"{where}: TRF record 222 holds whole seconds only")
        text = "" if stage.moves is None else f"{stage.moves}/"
        text += str(stage.base_ms // _SECOND_MS)
        if stage.increment_ms:
            text += f"+{stage.increment_ms // _SECOND_MS}"
        parts.append(text)
        if stage.moves is not None:
            first += stage.moves
    return ":".join(parts)


# -- parsing ----------------------------------------------------------------------

_MINUTE_UNITS = ("min", "m", "'")
_SECOND_UNITS = ("sec", "s", '"')


@dataclass
class _Period:
    column: int
    moves: int | None
    base_ms: int
    increment_ms: int | None = None
    increment_from_move: int = 1
    delay_ms: int | None = None
    delay: DelayMode | None = None


@dataclass
class _Modifiers:
    increment_column: int = 0
    delay_column: int = 0
    increment_ms: int | None = None
    increment_from_move: int = 1
    delay_ms: int | None = None
    delay: DelayMode | None = None


class _Scanner:
    def __init__(self, text: str, source: str) -> None:
        self.text = text
        self.pos = 0
        self.source = source

    def fail(self, reason: str, at: int | None = None) -> NoReturn:
        column = (self.pos if at is None else at) + 1
        raise InputError(reason, source=self.source, line=1, column=column)

    def skip(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos] == " ":
            self.pos += 1

    def at_end(self) -> bool:
        self.skip()
        return self.pos >= len(self.text)

    def peek(self, offset: int = 0) -> str:
        index = self.pos + offset
        return self.text[index] if index < len(self.text) else ""

    def shown(self) -> str:
        return repr(self.peek()) if self.peek() else "the end"

    def accept(self, literal: str, *, word: bool = False) -> bool:
        """Consume ``literal`` (case-insensitive) after spaces; a word must not
        run into a following letter."""
        self.skip()
        end = self.pos + len(literal)
        if self.text[self.pos : end].lower() != literal.lower():
            return False
        if word and end < len(self.text) and self.text[end].isalpha():
            return False
        self.pos = end
        return True

    def expect(self, literal: str, what: str, *, word: bool = False) -> None:
        if not self.accept(literal, word=word):
            self.fail(f"expected {what}, found {self.shown()}")

    def number(self, what: str) -> Decimal:
        self.skip()
        start = self.pos
        while self.peek().isdigit():
            self.pos += 1
        if self.pos == start:
            self.fail(f"expected {what}, found {self.shown()}")
        if self.peek() == "." and self.peek(1).isdigit():
            self.pos += 1
            while self.peek().isdigit():
                self.pos += 1
        try:
            return Decimal(self.text[start : self.pos])
        except InvalidOperation:  # pragma: no cover - digits always parse
            self.fail(f"{what} is not a number", start)

    def integer(self, what: str) -> int:
        self.skip()
        start = self.pos
        value = self.number(what)
        if value != value.to_integral_value() or "." in self.text[start : self.pos]:
            self.fail(f"{what} must be a whole number", start)
        return int(value)


def _to_ms(value: Decimal, unit_ms: int, scanner: _Scanner, at: int) -> int:
    ms = value * unit_ms
    if ms != ms.to_integral_value():
        scanner.fail("a time must come to a whole number of milliseconds", at)
    return int(ms)


class _Parser(_Scanner):
    def __init__(self, text: str) -> None:
        super().__init__(text, "time control")

    def control(self) -> TimeControl:
        for index, char in enumerate(self.text):
            if char in "\r\n\t":
                self.fail("a time control is one line without tabs", index)
        if self.at_end():
            self.fail("empty time control")
        if self.accept("W"):
            white = self.side()
            if self.peek() == ",":
                self.fail("modifiers for both sides come after Black's time")
            self.expect("/", "'/ B' after White's time")
            self.expect("B", "'B' (Black's time)")
            black = self.side()
            modifiers = self.modifiers()
        else:
            white = self.side()
            black = white
            modifiers = self.modifiers()
        if not self.at_end():
            self.fail(f"unexpected {self.shown()}")
        if modifiers is not None:
            for period in (*white, *black):
                self.apply(period, modifiers)
        return self.build(white, black)

    def side(self) -> list[_Period]:
        periods = [self.period()]
        while True:
            self.skip()
            if self.peek() != ",":
                return periods
            save = self.pos
            self.pos += 1
            self.skip()
            if self.starts_modifier():
                self.pos = save
                return periods
            periods.append(self.period())

    def starts_modifier(self) -> bool:
        char = self.peek().lower()
        if char in "+;":
            return True
        return char in "db" and self.peek(1).isdigit()

    def period(self) -> _Period:
        self.skip()
        column = self.pos
        moves: int | None = None
        if self.peek().lower() == "g":
            self.pos += 1
            self.expect("/", "'/' after 'G'")
        elif self.peek().isdigit():
            end = self.pos
            while end < len(self.text) and self.text[end].isdigit():
                end += 1
            after = end
            while after < len(self.text) and self.text[after] == " ":
                after += 1
            if after < len(self.text) and self.text[after] == "/":
                after += 1
                while after < len(self.text) and self.text[after] == " ":
                    after += 1
                if after < len(self.text) and self.text[after].isdigit():
                    moves = self.integer("a number of moves")
                    if moves < 1:
                        self.fail("a period has at least one move", column)
                    self.expect("/", "'/'")
        else:
            self.fail(f"expected a period ('G/25', '40/90' or '90'), found {self.shown()}")
        base_ms = self.duration(_MINUTE_MS, "the time for the period")
        period = _Period(column=column, moves=moves, base_ms=base_ms)
        self.skip()
        if self.peek() == "+":
            period.increment_ms, period.increment_from_move = self.increment()
        delay = self.delay()
        if delay is not None:
            period.delay_ms, period.delay = delay
        return period

    def duration(self, default_ms: int, what: str) -> int:
        self.skip()
        start = self.pos
        value = self.number(what)
        unit_ms = self.unit()
        if unit_ms is None:
            return _to_ms(value, default_ms, self, start)
        total = _to_ms(value, unit_ms, self, start)
        if unit_ms == _MINUTE_MS and self.peek().isdigit():
            seconds_at = self.pos
            seconds = self.number("seconds")
            if self.unit() != _SECOND_MS:
                self.fail('expected seconds (") after minutes', seconds_at)
            total += _to_ms(seconds, _SECOND_MS, self, seconds_at)
        return total

    def unit(self) -> int | None:
        save = self.pos
        for unit in _MINUTE_UNITS:
            if self.accept(unit, word=unit.isalpha()):
                return _MINUTE_MS
        for unit in _SECOND_UNITS:
            if self.accept(unit, word=unit.isalpha()):
                return _SECOND_MS
        self.pos = save
        return None

    def increment(self) -> tuple[int, int]:
        self.expect("+", "'+'")
        increment_ms = self.duration(_SECOND_MS, "an increment")
        from_move = 1
        if self.accept("from", word=True):
            self.expect("move", "'move'", word=True)
            self.skip()
            at = self.pos
            from_move = self.integer("a move number")
            if from_move < 1:
                self.fail("moves are numbered from 1", at)
        return increment_ms, from_move

    def delay(self) -> tuple[int, DelayMode] | None:
        save = self.pos
        self.skip()
        semicolon = self.accept(";")
        self.skip()
        char = self.peek().lower()
        if char in "db" and self.peek(1).isdigit():
            self.pos += 1
            mode = DelayMode.US if char == "d" else DelayMode.BRONSTEIN
            return self.duration(_SECOND_MS, "a delay"), mode
        if semicolon:
            self.fail(f"expected a delay ('d3' or 'b3') after ';', found {self.shown()}")
        self.pos = save
        return None

    def modifiers(self) -> _Modifiers | None:
        self.skip()
        if self.peek() != ",":
            return None
        found = _Modifiers()
        while self.accept(","):
            self.skip()
            at = self.pos
            if self.peek() == "+":
                if found.increment_ms is not None:
                    self.fail("the increment is given twice", at)
                found.increment_column = at
                found.increment_ms, found.increment_from_move = self.increment()
                continue
            delay = self.delay()
            if delay is None:
                self.fail(f"expected an increment or a delay, found {self.shown()}")
            if found.delay is not None:
                self.fail("the delay is given twice", at)
            found.delay_column = at
            found.delay_ms, found.delay = delay
        return found

    def apply(self, period: _Period, modifiers: _Modifiers) -> None:
        if modifiers.increment_ms is not None:
            if period.increment_ms is not None:
                self.fail(
                    "an increment for both sides, but a period has its own",
                    modifiers.increment_column,
                )
            period.increment_ms = modifiers.increment_ms
            period.increment_from_move = modifiers.increment_from_move
        if modifiers.delay is not None:
            if period.delay is not None:
                self.fail(
                    "a delay for both sides, but a period has its own", modifiers.delay_column
                )
            period.delay_ms, period.delay = modifiers.delay_ms, modifiers.delay

    def build(self, white: list[_Period], black: list[_Period]) -> TimeControl:
        for periods in (white, black):
            for index, period in enumerate(periods):
                last = index == len(periods) - 1
                if last and period.moves is not None:
                    self.fail(
                        "the last period must be the rest of the game ('G/...'); "
                        "repeating periods are not supported",
                        period.column,
                    )
                if not last and period.moves is None:
                    self.fail(
                        "only the last period can be the rest of the game; "
                        "give this one a number of moves ('40/90')",
                        period.column,
                    )
        try:
            return TimeControl(
                white=tuple(_stage(p) for p in white), black=tuple(_stage(p) for p in black)
            )
        except ValidationError as error:  # pragma: no cover - the grammar prevents it
            self.fail(str(error.errors()[0]["msg"]), 0)


def _stage(period: _Period) -> Stage:
    return Stage(
        base_ms=period.base_ms,
        increment_ms=period.increment_ms or 0,
        increment_from_move=period.increment_from_move,
        moves=period.moves,
        delay_ms=period.delay_ms or 0,
        delay=period.delay,
    )


def _parse_trf222(text: str) -> TimeControl:
    scanner = _Scanner(text, "TRF record 222")
    stripped = text.strip()
    if not stripped:
        scanner.fail("empty time control")
    scanner.pos = len(text) - len(text.lstrip())
    if scanner.peek() == "W":
        scanner.pos += 1
        white = _trf_periods(scanner, "-")
        if scanner.peek() != "-" or scanner.peek(1) != "B":
            scanner.fail(f"expected '-B' after White's periods, found {scanner.shown()}")
        scanner.pos += 2
        black = _trf_periods(scanner, "")
    else:
        white = _trf_periods(scanner, "")
        black = white
    if not scanner.at_end():
        scanner.fail(f"unexpected {scanner.shown()}")
    for periods in (white, black):
        for index, (column, stage) in enumerate(periods):
            last = index == len(periods) - 1
            if last and stage.moves is not None:
                scanner.fail("the last period must be the rest of the game (no 'M/')", column)
            if not last and stage.moves is None:
                scanner.fail("only the last period can omit its number of moves", column)
    return TimeControl(white=tuple(s for _, s in white), black=tuple(s for _, s in black))


def _trf_digits(scanner: _Scanner, what: str) -> int:
    start = scanner.pos
    while scanner.peek().isdigit():
        scanner.pos += 1
    if scanner.pos == start:
        scanner.fail(f"expected {what}, found {scanner.shown()}")
    return int(scanner.text[start : scanner.pos])


def _trf_periods(scanner: _Scanner, stop: str) -> list[tuple[int, Stage]]:
    periods: list[tuple[int, Stage]] = []
    while True:
        column = scanner.pos
        first = _trf_digits(scanner, "seconds or a number of moves")
        moves: int | None = None
        if scanner.peek() == "/":
            scanner.pos += 1
            moves = first
            if moves < 1:
                scanner.fail("a period has at least one move", column)
            seconds = _trf_digits(scanner, "seconds")
        else:
            seconds = first
        increment = 0
        if scanner.peek() == "+":
            scanner.pos += 1
            increment = _trf_digits(scanner, "increment seconds")
        periods.append(
            (
                column,
                Stage(
                    base_ms=seconds * _SECOND_MS,
                    increment_ms=increment * _SECOND_MS,
                    moves=moves,
                ),
            )
        )
        if scanner.peek() != ":":
            if stop and scanner.peek() not in (stop, ""):
                scanner.fail(f"unexpected {scanner.shown()}")
            return periods
        scanner.pos += 1


RAPID_25_5 = TimeControl.parse("G/25+5")
"""GCT 2015 regs. 6-8: Game / 25 mins + 5 secs / move throughout (from move 1)."""

RAPID_15_5 = TimeControl.parse("G/15+5")
"""GCT 2015 reg. 9 (knock-out of five to eight players): Game / 15 mins + 5 secs / move."""

ARMAGEDDON = TimeControl.parse("W 6' / B 5', +3 s from move 61")
"""GCT 2015 reg. 10 a: White 6 min, Black 5 min, +3 s per move from move 61.

The first 3 s are credited on completing move 61, then on completing every later
move (``increment_from_move=61``); moves 1-60 earn nothing.
"""
