"""Reader of FIDE Tournament Report Files (TRF16 and TRF-2026).

Design notes: docs/rules-notes.md (Reading TRF).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date
from typing import TYPE_CHECKING, Literal, NamedTuple, NoReturn

from playoff_formats.errors import InputError
from playoff_formats.io.validation import check_regulation_kind
from playoff_formats.values import (
    DEFAULT_INDIVIDUAL_REGULATION,
    MAX_NAME,
    MAX_PLAYERS,
    MAX_ROUND,
    ByeKind,
    Result,
)

if TYPE_CHECKING:
    from playoff_formats.model import IndividualEvent

__all__ = [
    "TEAM_RECORDS",
    "TrfBye",
    "TrfDocument",
    "TrfEvent",
    "TrfGame",
    "TrfHeader",
    "TrfPlayer",
    "TrfTeamInput",
    "has_team_records",
    "parse_trf",
    "parse_trf_document",
    "read_trf",
    "read_trf_of_teams",
]

_FIRST_ROUND_COLUMN = 92
_ROUND_WIDTH = 10
_FIXED_WIDTH = _FIRST_ROUND_COLUMN - 1  # the player fields before the first round

_DIGITS = re.compile(r"[0-9]+")
_LONGEST_NUMBER = 9
"""Digits of a number in a header record; a longer one is not read (the header never
refuses a file)."""
_NUMBER = re.compile(r"[0-9]+(?:[.,][0-9]+)?")
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_SCORING_ENTRY = re.compile(r"\s*([A-Za-z])\s*(-?[0-9]+(?:[.,][0-9]+)?)")
_WORD = re.compile(r"\S+")

_COLOUR_OF = {"w": "w", "W": "w", "b": "b", "B": "b", "-": "-", " ": "-"}
"""A colour as written (either case; a blank is no colour) and as it is read."""

_GAME_CODES = frozenset("1=0WDL")
_FORFEIT_CODES = frozenset("+-")
_BYE_CODES = frozenset(("H", "F", "U", "Z", ""))
_ALL_CODES = _GAME_CODES | _FORFEIT_CODES | _BYE_CODES

_MEANING = {
    "1": "a win",
    "=": "a draw",
    "0": "a loss",
    "+": "a forfeit win",
    "-": "a forfeit loss",
    "W": "a win in under one move",
    "D": "a draw in under one move",
    "L": "a loss in under one move",
    "H": "a half-point bye",
    "F": "a full-point bye",
    "U": "a pairing-allocated bye",
    "Z": "a zero-point bye",
    "": "no result",
}

_BYE_OF_CODE = {
    "H": ByeKind.HALF_POINT,
    "F": ByeKind.FULL_POINT,
    "+": ByeKind.FULL_POINT,
    "U": ByeKind.PAIRING_ALLOCATED,
    "Z": ByeKind.ZERO_POINT,
    "-": ByeKind.ZERO_POINT,
    "": ByeKind.ZERO_POINT,
}

# (White's code, Black's code) -> (result, rated)
_RESULT_OF_CODES: dict[tuple[str, str], tuple[Result, bool]] = {
    ("1", "0"): (Result.WHITE_WINS, True),
    ("0", "1"): (Result.BLACK_WINS, True),
    ("=", "="): (Result.DRAW, True),
    ("W", "L"): (Result.WHITE_WINS, False),
    ("L", "W"): (Result.BLACK_WINS, False),
    ("D", "D"): (Result.DRAW, False),
    ("+", "-"): (Result.WHITE_WINS_BY_FORFEIT, True),
    ("-", "+"): (Result.BLACK_WINS_BY_FORFEIT, True),
    ("-", "-"): (Result.DOUBLE_FORFEIT, True),
}

_DEFAULT_SCORING = {"W": 1.0, "D": 0.5, "L": 0.0, "A": 0.0, "P": 1.0}
_SCORING_WORDS = {
    "W": "a win",
    "D": "a draw",
    "L": "a loss",
    "A": "an absence",
    "P": "a pairing-allocated bye",
}


@dataclass(frozen=True)
class TrfHeader:
    """The tournament records of a TRF, as far as this service uses them.

    ``rounds`` comes from record ``142`` (TRF-2026) or ``XXR``; ``round_dates``
    from record ``132`` (``None`` where a date cannot be read).
    """

    name: str | None = None
    city: str | None = None
    federation: str | None = None
    start_date: date | None = None
    end_date: date | None = None
    chief_arbiter: str | None = None
    deputy_arbiters: tuple[str, ...] = ()
    allotted_time: str | None = None
    time_control: str | None = None
    tiebreaks: tuple[str, ...] = ()
    rounds: int | None = None
    round_dates: tuple[date | None, ...] = ()


@dataclass(frozen=True)
class TrfDocument:
    """A parsed TRF: its header and the event its player lines describe."""

    header: TrfHeader
    event: IndividualEvent


class TrfPlayer(NamedTuple):
    """A player of a TRF, with the fields of a :class:`~playoff_formats.model.Player`."""

    id: str
    name: str
    rating: int | None
    title: str | None
    federation: str | None
    fide_id: str | None


class TrfGame(NamedTuple):
    """A game of a TRF, with the fields of a :class:`~playoff_formats.model.Game`."""

    round: int
    white: str
    black: str
    result: Result
    rated: bool


class TrfBye(NamedTuple):
    """A bye of a TRF, with the fields of a :class:`~playoff_formats.model.Bye`."""

    round: int
    player: str
    kind: ByeKind


TEAM_RECORDS = frozenset(("013", "310", "300", "320", "330", "352", "362"))
"""The records of a team event (TRF16's ``013``; TRF-2026's, as FIDE's sample and
Gacrux read them): kept as written, for :mod:`playoff_formats.io.trf_teams`."""


@dataclass(frozen=True)
class TrfTeamInput:
    """What a TRF with team records says of its teams, kept for reading it as a team
    event (:func:`playoff_formats.io.trf_teams.team_event`); an individual reading
    never looks at it.

    ``records``: each team record with its line number. ``team_byes``: the bye
    records (``240``) of a TRF-2026 team file, whose numbers are teams: (line,
    code, round, round's column, ((team, column), ...)). ``unpaired``: the code
    each player wrote in a round without an opponent, by (round, player id), with
    its line and column. ``lines``: each player's line number.
    """

    records: tuple[tuple[int, str], ...]
    team_byes: tuple[tuple[int, str, int, int, tuple[tuple[int, int], ...]], ...]
    unpaired: dict[tuple[int, str], tuple[str, int, int]]
    lines: dict[str, int]


@dataclass(frozen=True)
class TrfEvent:
    """The event a TRF describes, as plain data.

    It holds what its :class:`~playoff_formats.model.IndividualEvent` holds, in
    the same order; :meth:`to_model` builds that event. A regulation ranks
    either alike (both are
    :class:`~playoff_formats.tiebreaks.index.IndividualResults`).
    """

    name: str
    players: tuple[TrfPlayer, ...]
    games: tuple[TrfGame, ...]
    byes: tuple[TrfBye, ...]
    kind: Literal["individual"] = "individual"
    regulation: str = DEFAULT_INDIVIDUAL_REGULATION
    start_date: date | None = None
    teams: TrfTeamInput | None = field(default=None, compare=False, repr=False)
    """The team records, for a file that has any (``None``: an individual event only)."""

    @property
    def rounds(self) -> int:
        """The number of rounds: the highest round that has a game or a bye."""
        return max([g.round for g in self.games] + [b.round for b in self.byes], default=0)

    def to_model(self, source: str | None = None) -> IndividualEvent:
        """The model event; ``source`` names the file if it cannot be built."""
        from pydantic import ValidationError

        from playoff_formats.model import Bye, Game, IndividualEvent, Player

        try:
            return IndividualEvent(
                name=self.name,
                players=[Player(**p._asdict()) for p in self.players],
                games=[Game(**g._asdict()) for g in self.games],
                byes=[Bye(**b._asdict()) for b in self.byes],
                start_date=self.start_date,
            )
        except ValidationError as error:  # pragma: no cover - guarded by the reader's checks
            raise InputError(
                f"the event cannot be built: {error.errors()[0]['msg']}", source=source
            ) from None


def parse_trf(text: str, source: str | None = None) -> IndividualEvent:
    """Read a FIDE TRF (TRF16 or TRF-2026) into an individual event.

    ``source`` names the file in error messages. Raises :class:`InputError`
    (with line and column) for anything that cannot be read exactly; see the
    module docstring for the policies applied.
    """
    return parse_trf_document(text, source).event


def parse_trf_document(text: str, source: str | None = None) -> TrfDocument:
    """Read a FIDE TRF into its header and its event. See :func:`parse_trf`."""
    header, plain = _Reader(source).read(text)
    event = plain.to_model(source)
    # A TRF names no regulation, so the event's is the default; the check keeps
    # every reader refusing the same events if that default ever changes.
    check_regulation_kind(event, source)
    return TrfDocument(header=header, event=event)


def read_trf(text: str, source: str | None = None) -> TrfEvent:
    """Read a FIDE TRF into the plain event :func:`parse_trf` would build a model of.

    Every refusal is the one :func:`parse_trf` makes, with the same line and column.
    """
    _, event = _Reader(source).read(text)
    check_regulation_kind(event, source)
    return event


def read_trf_of_teams(text: str, source: str | None = None) -> TrfEvent:
    """Read a TRF with team records for :mod:`playoff_formats.io.trf_teams`: the
    players' games as :func:`read_trf` reads them, and the team records kept in
    :attr:`TrfEvent.teams`. A team's players all have its pairing-allocated bye,
    and the bye records (``240``) of a TRF-2026 team file (``310``) number teams."""
    _, event = _Reader(source, teams=True).read(text)
    return event


def has_team_records(text: str) -> bool:
    """Whether ``text`` has team records (``013`` or ``310``)."""
    return any(line[:3] in ("013", "310") for line in _LINE_BREAK.split(text.lstrip("\ufeff")))


# --------------------------------------------------------------------------- internals


class _Block(NamedTuple):
    """One round of a player line."""

    round: int
    column: int  # first column of the block: the opponent field
    opponent: int  # 0 for none
    colour: str  # "w", "b" or "-"
    code: str  # upper case; "" for blank
    blank: bool  # nothing at all written

    @property
    def colour_column(self) -> int:
        return self.column + 5

    @property
    def result_column(self) -> int:
        return self.column + 7

    def describe(self) -> str:
        if self.opponent == 0:
            return f"no opponent and {_show_code(self.code)}"
        colour = {"w": "White", "b": "Black", "-": "no colour"}[self.colour]
        return f"{colour} against player {self.opponent} and {_show_code(self.code)}"


@dataclass
class _PlayerLine:
    number: int
    rank: int
    player: TrfPlayer
    points: float | None
    blocks: list[_Block]

    def block(self, round_number: int) -> _Block | None:
        if round_number <= len(self.blocks):
            return self.blocks[round_number - 1]
        return None


@dataclass(frozen=True)
class _ByeRecord:
    number: int
    kind: ByeKind
    code: str
    round: int
    round_column: int
    players: tuple[tuple[int, int], ...]  # (starting rank, column)


@dataclass
class _ByeSlot:
    kind: ByeKind
    code: str
    line: int
    column: int


@dataclass
class _HeaderFields:
    name: str | None = None
    city: str | None = None
    federation: str | None = None
    start_date: date | None = None
    end_date: date | None = None
    chief_arbiter: str | None = None
    deputy_arbiters: list[str] = field(default_factory=list)
    allotted_time: str | None = None
    time_control: str | None = None
    tiebreaks: tuple[str, ...] = ()
    rounds: int | None = None
    round_dates: tuple[date | None, ...] = ()

    def freeze(self) -> TrfHeader:
        return TrfHeader(
            name=self.name,
            city=self.city,
            federation=self.federation,
            start_date=self.start_date,
            end_date=self.end_date,
            chief_arbiter=self.chief_arbiter,
            deputy_arbiters=tuple(self.deputy_arbiters),
            allotted_time=self.allotted_time,
            time_control=self.time_control,
            tiebreaks=self.tiebreaks,
            rounds=self.rounds,
            round_dates=self.round_dates,
        )


def _show_code(code: str) -> str:
    if code == "":
        return "a blank result (no result)"
    return f"'{code}' ({_MEANING[code]})"


def _points_text(value: float) -> str:
    return f"{value:.1f}"


class _Reader:
    def __init__(self, source: str | None, teams: bool = False) -> None:
        self.source = source
        self.teams = teams
        """Reading a team event: its records are kept, and its byes are teams'."""
        self.header = _HeaderFields()
        self.lines: list[_PlayerLine] = []
        self.by_rank: dict[int, _PlayerLine] = {}
        self.bye_records: list[_ByeRecord] = []
        self.team_records: list[tuple[int, str]] = []

    def fail(self, reason: str, line: int | None = None, column: int | None = None) -> InputError:
        return InputError(reason, source=self.source, line=line, column=column)

    # ------------------------------------------------------------------ reading lines

    def read(self, text: str) -> tuple[TrfHeader, TrfEvent]:
        if text.startswith("\ufeff"):
            text = text[1:]
        for index, line in enumerate(_LINE_BREAK.split(text)):
            self.read_line(line, index + 1)
        if len(self.lines) < 2:
            found = len(self.lines)
            raise self.fail(
                f"found {found} player record{'s' if found != 1 else ''} (lines starting "
                "with 001); an event needs at least two players"
            )
        return self.build()

    def read_line(self, line: str, number: int) -> None:
        if line.startswith("###") or not line.strip():
            return
        record = line[:3]
        value = line[4:].strip()
        if record == "001":
            self.read_player(line, number)
        elif record == "012":
            if self.header.name is None and value:
                if len(value) > MAX_NAME:
                    raise self.fail(
                        f"the event's name has {len(value):,} characters; at most {MAX_NAME}",
                        number,
                        5,
                    )
                self.header.name = value
        elif record == "022":
            self.header.city = value or None
        elif record == "032":
            self.header.federation = value or None
        elif record == "042":
            self.header.start_date = _parse_date(value)
        elif record == "052":
            self.header.end_date = _parse_date(value)
        elif record == "102":
            self.header.chief_arbiter = value or None
        elif record == "112":
            if value:
                self.header.deputy_arbiters.append(value)
        elif record == "122":
            self.header.allotted_time = value or None
        elif record == "132":
            self.header.round_dates = tuple(_parse_date(part) for part in value.split())
        elif record in ("142", "XXR"):
            if _DIGITS.fullmatch(value) and len(value) <= _LONGEST_NUMBER:
                self.header.rounds = int(value)
        elif record == "202":
            self.header.tiebreaks = tuple(p.strip() for p in value.split(",") if p.strip())
        elif record == "222":
            self.header.time_control = value or None
        elif record == "162":
            self.read_scoring(line, number)
        elif record == "240":
            self.read_bye_record(line, number)
        elif record in TEAM_RECORDS:
            self.team_records.append((number, line))
        elif record == "299":
            raise self.fail(
                "record 299 assigns abnormal points (a penalty, a bonus or an unusual "
                "score for a result); the event model holds only standard results, so "
                "settle those points another way and remove the record",
                number,
                1,
            )
        # Any other record is accepted and ignored.

    def read_scoring(self, line: str, number: int) -> None:
        """Record 162 (TRF-2026): accept it only when it gives the default points."""
        position = 4
        while line[position:].strip():
            match = _SCORING_ENTRY.match(line, position)
            if match is None:
                column = len(line) - len(line[position:].lstrip()) + 1
                raise self.fail(
                    "cannot read the scoring system (record 162): expected a result letter "
                    "(W, D, L, A, P or X) followed by its points, such as W 1.0",
                    number,
                    column,
                )
            letter = match.group(1).upper()
            points = float(match.group(2).replace(",", "."))
            column = match.start(1) + 1
            if letter == "X":
                pass  # unknown results: none can be written in a player line
            elif letter not in _DEFAULT_SCORING:
                raise self.fail(
                    f"'{match.group(1)}' is not a result letter of record 162; "
                    "use W, D, L, A, P or X",
                    number,
                    column,
                )
            elif points != _DEFAULT_SCORING[letter]:
                raise self.fail(
                    f"record 162 gives {_points_text(points)} points for "
                    f"{_SCORING_WORDS[letter]}; this service scores a win 1, a draw ½ and "
                    "a loss or absence 0, so it cannot use this scoring system",
                    number,
                    column,
                )
            position = match.end()

    def read_bye_record(self, line: str, number: int) -> None:
        """Record 240 (TRF-2026): ``240 T RRR PPPP PPPP ...``."""
        tokens = [(m.group(0), m.start() + 1) for m in _WORD.finditer(line, 3)]
        if not tokens:
            raise self.fail(
                "a bye record (240) needs the bye type F, H or Z, a round and players",
                number,
                5,
            )
        code, code_column = tokens[0]
        kinds = {"F": ByeKind.FULL_POINT, "H": ByeKind.HALF_POINT, "Z": ByeKind.ZERO_POINT}
        if code.upper() not in kinds:
            raise self.fail(
                f"'{code}' is not a bye type of record 240; use F (full point), "
                "H (half point) or Z (zero point)",
                number,
                code_column,
            )
        if len(tokens) < 3:
            raise self.fail(
                "a bye record (240) needs a round number and at least one starting rank",
                number,
                len(line) + 1,
            )
        round_text, round_column = tokens[1]
        if not _whole(round_text, MAX_ROUND):
            raise self.fail(
                f"'{round_text[:20]}' is not a round number (1 to {MAX_ROUND})",
                number,
                round_column,
            )
        players: list[tuple[int, int]] = []
        for word, column in tokens[2:]:
            if not _whole(word, 9999):
                raise self.fail(f"'{word[:20]}' is not a starting rank", number, column)
            players.append((int(word), column))
        self.bye_records.append(
            _ByeRecord(
                number=number,
                kind=kinds[code.upper()],
                code=code.upper(),
                round=int(round_text),
                round_column=round_column,
                players=tuple(players),
            )
        )

    def read_player(self, line: str, number: int) -> None:
        if len(self.lines) >= MAX_PLAYERS:
            raise self.fail(f"more than {MAX_PLAYERS} players", number, 1)
        if "\t" in line:
            raise self.fail(
                "a tab character in a player line; TRF fields sit at fixed columns, so use spaces",
                number,
                line.index("\t") + 1,
            )
        fixed = line[:_FIXED_WIDTH].ljust(_FIXED_WIDTH)
        if fixed[3] != " ":
            raise self.fail("expected a blank after the record number 001", number, 4)

        rank_text = fixed[4:8].strip()
        if not _DIGITS.fullmatch(rank_text) or int(rank_text) == 0:
            shown = f"'{rank_text}'" if rank_text else "nothing"
            raise self.fail(
                f"the starting rank (columns 5-8) must be a number from 1 to 9999; found {shown}",
                number,
                5,
            )
        rank = int(rank_text)
        if rank in self.by_rank:
            raise self.fail(
                f"starting rank {rank} is already used by line {self.by_rank[rank].number}",
                number,
                5,
            )

        name = fixed[14:47].strip()
        if not name:
            raise self.fail("the player has no name (columns 15-47)", number, 15)

        rating_text = fixed[48:52].strip()
        rating: int | None = None
        if rating_text:
            if not _DIGITS.fullmatch(rating_text):
                raise self.fail(
                    f"the rating '{rating_text}' (columns 49-52) is not a number",
                    number,
                    49,
                )
            rating = int(rating_text) or None

        points_text = fixed[80:84].strip()
        points: float | None = None
        if points_text:
            if not _NUMBER.fullmatch(points_text):
                raise self.fail(
                    f"the points '{points_text}' (columns 81-84) are not a number such as 4.5",
                    number,
                    81,
                )
            points = float(points_text.replace(",", "."))

        if len(line) > _FIXED_WIDTH - 2 and line[_FIXED_WIDTH - 2 : _FIXED_WIDTH].strip():
            column = _FIXED_WIDTH - 1 if line[_FIXED_WIDTH - 2] != " " else _FIXED_WIDTH
            raise self.fail(
                "expected blanks in columns 90-91; round results start at column 92",
                number,
                column,
            )

        player = TrfPlayer(
            id=str(rank),
            name=name,
            rating=rating,
            title=fixed[10:13].strip() or None,
            federation=fixed[53:56].strip() or None,
            fide_id=fixed[57:68].strip() or None,
        )
        blocks = self.read_rounds(line, number, rank)
        parsed = _PlayerLine(number=number, rank=rank, player=player, points=points, blocks=blocks)
        self.lines.append(parsed)
        self.by_rank[rank] = parsed

    def read_rounds(self, line: str, number: int, rank: int) -> list[_Block]:
        blocks: list[_Block] = []
        start = _FIXED_WIDTH
        round_number = 1
        while start < len(line):
            chunk = line[start : start + _ROUND_WIDTH].ljust(_ROUND_WIDTH)
            column = start + 1
            if round_number > MAX_ROUND and chunk.strip():
                raise self.fail(f"more than {MAX_ROUND} rounds", number, column)
            blocks.append(self.read_block(chunk, number, column, round_number, rank))
            start += _ROUND_WIDTH
            round_number += 1
        # A line may stop after its last result: drop trailing blank rounds.
        while blocks and blocks[-1].blank:
            blocks.pop()
        return blocks

    def read_block(
        self, chunk: str, number: int, column: int, round_number: int, rank: int
    ) -> _Block:
        if chunk[4] != " " or chunk[6] != " " or chunk[8] != " " or chunk[9] != " ":
            offset = next(o for o in (4, 6, 8, 9) if chunk[o] != " ")
            raise self.fail(
                f"round {round_number}: expected a blank at column {column + offset}; each "
                f"round takes ten columns (opponent {column}-{column + 3}, colour "
                f"{column + 5}, result {column + 7})",
                number,
                column + offset,
            )
        where = f"round {round_number}"
        opponent_text = chunk[0:4].strip()
        if opponent_text and not _DIGITS.fullmatch(opponent_text):
            raise self.fail(
                f"{where}: the opponent '{opponent_text}' is not a starting rank "
                "(write 0000 or leave blank for a bye)",
                number,
                column,
            )
        opponent = int(opponent_text) if opponent_text else 0

        colour_char = chunk[5]
        colour = _COLOUR_OF.get(colour_char, "")
        if not colour:
            raise self.fail(
                f"{where}: '{colour_char}' is not a colour; use w, b, or - (not paired)",
                number,
                column + 5,
            )

        code_char = chunk[7]
        code = "" if code_char == " " else code_char.upper()
        if code not in _ALL_CODES:
            raise self.fail(
                f"{where}: '{code_char}' is not a TRF result code; use 1, =, 0, + (forfeit "
                "win), - (forfeit loss), W, D, L (under one move), H, F, U, Z (byes) or blank",
                number,
                column + 7,
            )

        if opponent == 0:
            if code in _GAME_CODES:
                raise self.fail(
                    f"{where}: {_show_code(code)} is the result of a game, but no opponent is "
                    f"given in columns {column}-{column + 3}",
                    number,
                    column + 7,
                )
        else:
            if opponent == rank:
                raise self.fail(f"{where}: player {rank} is paired with himself", number, column)
            if code in _BYE_CODES:
                reason = (
                    f"{where}: an opponent (player {opponent}) is given but no result"
                    if code == ""
                    else f"{where}: {_show_code(code)} cannot have an opponent; write 0000 in "
                    f"columns {column}-{column + 3}"
                )
                raise self.fail(reason, number, column + 7)
            if colour == "-" and code in _GAME_CODES:
                raise self.fail(
                    f"{where}: a game against player {opponent} needs the colour w or b",
                    number,
                    column + 5,
                )
        return _Block(round_number, column, opponent, colour, code, not chunk.strip())

    # ------------------------------------------------------------------ building the event

    def build(self) -> tuple[TrfHeader, TrfEvent]:
        self.check_opponents_exist()
        rounds = max((len(p.blocks) for p in self.lines), default=0)
        games = self.pair_games(rounds)
        byes = self.collect_byes(rounds)
        team_byes: list[_ByeRecord] = []
        if self.teams and any(line.startswith("310") for _, line in self.team_records):
            # In a TRF-2026 team file the bye records number teams, not players.
            team_byes, self.bye_records = self.bye_records, []
        self.apply_bye_records(byes, rounds)
        bye_list = [
            TrfBye(round_number, str(rank), slot.kind)
            for (round_number, rank), slot in sorted(
                byes.items(), key=lambda item: (item[0][0], self.by_rank[item[0][1]].number)
            )
        ]
        self.check_points(games, bye_list)
        name = self.header.name or (self.source or "Unnamed event")[:MAX_NAME]
        event = TrfEvent(
            name=name,
            players=tuple(p.player for p in self.lines),
            games=tuple(games),
            byes=tuple(bye_list),
            start_date=self.header.start_date,
            teams=self.team_input(byes, team_byes) if self.teams else None,
        )
        return self.header.freeze(), event

    def team_input(
        self, byes: dict[tuple[int, int], _ByeSlot], team_byes: list[_ByeRecord]
    ) -> TrfTeamInput:
        return TrfTeamInput(
            records=tuple(self.team_records),
            team_byes=tuple(
                (r.number, r.code, r.round, r.round_column, r.players) for r in team_byes
            ),
            unpaired={
                (round_number, str(rank)): (slot.code, slot.line, slot.column)
                for (round_number, rank), slot in byes.items()
            },
            lines={str(p.rank): p.number for p in self.lines},
        )

    def check_opponents_exist(self) -> None:
        for line in self.lines:
            for block in line.blocks:
                if block.opponent and block.opponent not in self.by_rank:
                    raise self.fail(
                        f"round {block.round}: there is no player with starting rank "
                        f"{block.opponent}",
                        line.number,
                        block.column,
                    )

    def pair_games(self, rounds: int) -> list[TrfGame]:
        games: list[TrfGame] = []
        for round_number in range(1, rounds + 1):
            at = round_number - 1
            for line in self.lines:
                if at >= len(line.blocks):
                    continue
                block = line.blocks[at]
                if block.opponent == 0:
                    continue
                other = self.by_rank[block.opponent]
                other_block = other.blocks[at] if at < len(other.blocks) else None
                if other_block is None or other_block.opponent != line.rank:
                    self.refuse_one_sided(line, block, other, other_block)
                if other.number < line.number:
                    continue  # built from the other player's line
                games.append(self.make_game(line, block, other, other_block))
        return games

    def refuse_one_sided(
        self,
        line: _PlayerLine,
        block: _Block,
        other: _PlayerLine,
        other_block: _Block | None,
    ) -> NoReturn:
        where = f"round {block.round}"
        if other_block is not None and other_block.opponent:
            third = self.by_rank[other_block.opponent]
            third_block = third.block(block.round)
            if third_block is not None and third_block.opponent == other.rank:
                raise self.fail(
                    f"{where}: player {other.rank} appears twice, paired with player "
                    f"{line.rank} on this line and with player {third.rank} on line "
                    f"{third.number}",
                    line.number,
                    block.column,
                )
        said = "nothing for that round" if other_block is None else other_block.describe()
        raise self.fail(
            f"{where}: this line pairs player {line.rank} with player {other.rank}, but "
            f"player {other.rank}'s line {other.number} gives {said}",
            line.number,
            block.column,
        )

    def make_game(
        self, first: _PlayerLine, first_block: _Block, second: _PlayerLine, second_block: _Block
    ) -> TrfGame:
        """Build the game of two lines that name each other; blame the later line."""
        where = f"round {first_block.round}"
        colours = (first_block.colour, second_block.colour)
        if colours == ("w", "b"):
            white, black = first, second
        elif colours == ("b", "w"):
            white, black = second, first
        elif colours == ("-", "-") and {first_block.code, second_block.code} <= _FORFEIT_CODES:
            white, black = (first, second) if first.rank < second.rank else (second, first)
        else:
            raise self.fail(
                f"{where}: the colours do not fit: this line gives player {second.rank} "
                f"'{second_block.colour}' against player {first.rank}, and line "
                f"{first.number} gives player {first.rank} '{first_block.colour}'",
                second.number,
                second_block.colour_column,
            )
        white_block = first_block if white is first else second_block
        black_block = second_block if white is first else first_block
        outcome = _RESULT_OF_CODES.get((white_block.code, black_block.code))
        if outcome is None:
            raise self.fail(
                f"{where}: the results do not fit: this line gives player {second.rank} "
                f"{_show_code(second_block.code)} against player {first.rank}, but line "
                f"{first.number} gives player {first.rank} {_show_code(first_block.code)}",
                second.number,
                second_block.result_column,
            )
        result, rated = outcome
        return TrfGame(first_block.round, white.player.id, black.player.id, result, rated)

    def collect_byes(self, rounds: int) -> dict[tuple[int, int], _ByeSlot]:
        byes: dict[tuple[int, int], _ByeSlot] = {}
        allocated: dict[int, int] = {}  # round -> line number of its U
        for line in self.lines:
            blocks = line.blocks
            for round_number in range(1, rounds + 1):
                block = blocks[round_number - 1] if round_number <= len(blocks) else None
                if block is not None and block.opponent:
                    continue
                code = "" if block is None else block.code
                column = (
                    _FIRST_ROUND_COLUMN + _ROUND_WIDTH * (round_number - 1) + 7
                    if block is None
                    else block.result_column
                )
                # A team's pairing-allocated bye is every one of its players'.
                if code == "U" and not self.teams:
                    if round_number in allocated:
                        raise self.fail(
                            f"round {round_number}: a second pairing-allocated bye (U); line "
                            f"{allocated[round_number]} already has the one bye of the round",
                            line.number,
                            column,
                        )
                    allocated[round_number] = line.number
                byes[(round_number, line.rank)] = _ByeSlot(
                    kind=_BYE_OF_CODE[code], code=code, line=line.number, column=column
                )
        return byes

    def apply_bye_records(self, byes: dict[tuple[int, int], _ByeSlot], rounds: int) -> None:
        for record in self.bye_records:
            if record.round > rounds:
                raise self.fail(
                    f"a bye in round {record.round}, but the player lines have results for "
                    f"{rounds} round{'s' if rounds != 1 else ''} only",
                    record.number,
                    record.round_column,
                )
            for rank, column in record.players:
                if rank not in self.by_rank:
                    raise self.fail(
                        f"there is no player with starting rank {rank}", record.number, column
                    )
                slot = byes.get((record.round, rank))
                if slot is None:
                    raise self.fail(
                        f"player {rank} has a game in round {record.round} (line "
                        f"{self.by_rank[rank].number}), so cannot have a bye",
                        record.number,
                        column,
                    )
                if slot.code == "":
                    slot.kind = record.kind
                    slot.code = record.code
                elif slot.kind != record.kind:
                    raise self.fail(
                        f"a {record.kind.value}-point bye for player {rank} in round "
                        f"{record.round}, but line {slot.line} gives {_show_code(slot.code)}",
                        record.number,
                        column,
                    )

    def check_points(self, games: list[TrfGame], byes: list[TrfBye]) -> None:
        scores = {p.player.id: 0.0 for p in self.lines}
        points_of = {result: (result.white_points, result.black_points) for result in Result}
        for game in games:
            white_points, black_points = points_of[game.result]
            scores[game.white] += white_points
            scores[game.black] += black_points
        for bye in byes:
            scores[bye.player] += bye.kind.points
        for line in self.lines:
            computed = scores[line.player.id]
            if line.points is not None and abs(line.points - computed) > 1e-9:
                raise self.fail(
                    f"the points column says {_points_text(line.points)}, but the round "
                    f"results of player {line.rank} add up to {_points_text(computed)} (a win, "
                    "a forfeit win, a full-point or pairing-allocated bye count 1; a draw or a "
                    "half-point bye ½)",
                    line.number,
                    81,
                )


_DATE_FORMS = (
    (re.compile(r"([0-9]{4})[/.-]([0-9]{1,2})[/.-]([0-9]{1,2})"), (0, 1, 2), 0),
    (re.compile(r"([0-9]{1,2})[/.-]([0-9]{1,2})[/.-]([0-9]{4})"), (2, 1, 0), 0),
    (re.compile(r"([0-9]{2})/([0-9]{1,2})/([0-9]{1,2})"), (0, 1, 2), 2000),
)


def _whole(text: str, most: int) -> bool:
    """Whether ``text`` is a whole number from 1 to ``most`` (checked before ``int``:
    Python refuses to read a number of thousands of digits)."""
    return bool(_DIGITS.fullmatch(text)) and len(text) <= len(str(most)) and 1 <= int(text) <= most


def _parse_date(text: str) -> date | None:
    """A date written YYYY/MM/DD (also - or .), DD.MM.YYYY, or YY/MM/DD; else None."""
    for pattern, order, century in _DATE_FORMS:
        match = pattern.fullmatch(text.strip())
        if match is None:
            continue
        parts = [int(match.group(i + 1)) for i in order]
        try:
            return date(parts[0] + century, parts[1], parts[2])
        except ValueError:
            return None
    return None
