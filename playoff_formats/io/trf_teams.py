"""A TRF with team records read as a chess team event.

The players' lines (``001``) hold every game, as in an individual TRF; the team
records say who plays for which team and, in TRF-2026, what the players' lines
cannot. Records and columns as FIDE's TRF-2026 sample and Gacrux read them:

* ``013`` (TRF16): the team's name in columns 5-36, then its players' starting
  ranks, four columns each from column 37, a blank between. Teams are numbered
  in the order of their records.
* ``310`` (TRF-2026): the team's number in columns 5-7, its name in 9-40, then
  (informative) short name, strength, match points, game points and rank; its
  players' starting ranks four columns each from column 74. Where a file has
  ``310`` records, its ``013`` records are not read.
* ``300``: a team's board order in a round: the round (columns 5-7), the team
  (9-11), its opponent (13-15), then the starting rank on each board, four
  columns each from column 17 (``0`` for a board left empty).
* ``330``: a match forfeited whole: the result (columns 5-6, ``+-``, ``-+`` or
  ``--``, also written ``10``, ``WL``...), the round (8-10), the team with White
  on board 1 (12-14) and its opponent (16-18).
* ``240`` in a file with ``310`` records: a team's bye (``F``, ``H`` or ``Z``),
  the round, then team numbers.
* ``362``: the team scoring, read only when it is the default (a match won 2, drawn
  1, lost 0; a pairing-allocated bye 1); ``352`` (the colours' sequence) is not
  needed; ``320`` (a pairing-allocated bye with points of its own) is refused.

A match is the games between the players of two teams in one round; the team
whose player has White on board 1 is the home team (board results are written
from its side), as FIDE's colour sequence for team events (``WB...``) gives it.
Boards are numbered as each team's list orders its players, unless a ``300``
record gives the order; a board left empty (``0000 - +`` on the line of the
player who was there) comes after the boards played, the home team's first. A
team with no match in a round has a bye: the kind its ``240`` record gives, else
what its players wrote (``U`` a pairing-allocated bye, ``F`` or ``+`` a full-point
bye, since a TRF16 forfeit written without an opponent names none, ``H`` a
half-point bye, ``Z``, ``-`` or nothing an absence). Anything else is refused with
the line and column, and a reason.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NoReturn

from playoff_formats.errors import InputError
from playoff_formats.values import MAX_NAME, MAX_ROUND, BoardResult, ByeKind, Result

if TYPE_CHECKING:
    from playoff_formats.io.trf import TrfEvent, TrfGame, TrfTeamInput
    from playoff_formats.model import TeamEvent

__all__ = ["read_team_event", "team_event"]

_FORFEITS = {
    "+-": BoardResult.HOME_WINS_BY_FORFEIT, "10": BoardResult.HOME_WINS_BY_FORFEIT,
    "WL": BoardResult.HOME_WINS_BY_FORFEIT, "WZ": BoardResult.HOME_WINS_BY_FORFEIT,
    "-+": BoardResult.AWAY_WINS_BY_FORFEIT, "01": BoardResult.AWAY_WINS_BY_FORFEIT,
    "LW": BoardResult.AWAY_WINS_BY_FORFEIT, "ZW": BoardResult.AWAY_WINS_BY_FORFEIT,
    "--": BoardResult.DOUBLE_FORFEIT, "00": BoardResult.DOUBLE_FORFEIT,
    "LL": BoardResult.DOUBLE_FORFEIT, "ZZ": BoardResult.DOUBLE_FORFEIT,
}
"""A ``330`` record's result, from the side of its first team."""

_BOARD_OF_GAME = {
    Result.WHITE_WINS: BoardResult.HOME_WINS,
    Result.DRAW: BoardResult.DRAW,
    Result.BLACK_WINS: BoardResult.AWAY_WINS,
    Result.WHITE_WINS_BY_FORFEIT: BoardResult.HOME_WINS_BY_FORFEIT,
    Result.BLACK_WINS_BY_FORFEIT: BoardResult.AWAY_WINS_BY_FORFEIT,
    Result.DOUBLE_FORFEIT: BoardResult.DOUBLE_FORFEIT,
}
"""A game's result as a board's, with White's team at home."""

_MIRROR = {
    BoardResult.HOME_WINS: BoardResult.AWAY_WINS,
    BoardResult.AWAY_WINS: BoardResult.HOME_WINS,
    BoardResult.DRAW: BoardResult.DRAW,
    BoardResult.HOME_WINS_BY_FORFEIT: BoardResult.AWAY_WINS_BY_FORFEIT,
    BoardResult.AWAY_WINS_BY_FORFEIT: BoardResult.HOME_WINS_BY_FORFEIT,
    BoardResult.DOUBLE_FORFEIT: BoardResult.DOUBLE_FORFEIT,
}

_BYE_CODES = {
    "U": ByeKind.PAIRING_ALLOCATED,
    "F": ByeKind.FULL_POINT,
    "+": ByeKind.FULL_POINT,
    "H": ByeKind.HALF_POINT,
}
_ABSENT = frozenset(("", "Z", "-"))
_TEAM_BYES = {"F": ByeKind.FULL_POINT, "H": ByeKind.HALF_POINT, "Z": ByeKind.ZERO_POINT}
_DEFAULT_TEAM_SCORING = {"W": 2.0, "D": 1.0, "L": 0.0, "P": 1.0}


@dataclass
class _Team:
    id: str
    name: str
    members: list[str]
    line: int


@dataclass
class _Match:
    round: int
    first: str  # the team read first; the home team is settled from board 1
    second: str
    games: list[TrfGame] = field(default_factory=list)
    forfeit: tuple[BoardResult, int] | None = None  # a 330 record: result, line


def read_team_event(text: str, regulation: str, source: str | None = None) -> TeamEvent:
    """The team event the TRF ``text`` describes, ranked by ``regulation``."""
    from playoff_formats.io.trf import read_trf_of_teams

    return team_event(read_trf_of_teams(text, source), regulation, source)


def team_event(trf: TrfEvent, regulation: str, source: str | None = None) -> TeamEvent:
    """The team event a TRF with team records describes, ranked by ``regulation``.

    :class:`InputError` for a file that has no team records, or whose records
    cannot be read exactly (see the module docstring).
    """
    if trf.teams is None or not trf.teams.records:
        raise InputError(
            "the file has no team records (013 or 310): it is an individual event",
            source=source,
        )
    return _TeamReader(trf, trf.teams, source).event(regulation)


class _TeamReader:
    def __init__(self, trf: TrfEvent, data: TrfTeamInput, source: str | None) -> None:
        self.trf = trf
        self.data = data
        self.source = source
        self.teams: dict[str, _Team] = {}
        self.team_of: dict[str, str] = {}
        self.orders: dict[tuple[int, str], tuple[list[str | None], int]] = {}
        self.forfeits: list[tuple[int, int, str, str, BoardResult]] = []

    def fail(self, reason: str, line: int | None = None, column: int | None = None) -> NoReturn:
        raise InputError(reason, source=self.source, line=line, column=column)

    # ------------------------------------------------------------------ records

    def event(self, regulation: str) -> TeamEvent:
        from pydantic import ValidationError

        from playoff_formats.model import Team, TeamBye, TeamEvent, TeamMatch, Venue

        self.read_records()
        matches, byes = self.rounds()
        try:
            return TeamEvent(
                name=self.trf.name,
                regulation=regulation,
                teams=[Team(id=t.id, name=t.name) for t in self.teams.values()],
                matches=[
                    TeamMatch(round=r, home=home, away=away, venue=Venue.NEUTRAL, boards=boards)
                    for r, home, away, boards in matches
                ],
                byes=[TeamBye(round=r, team=t, kind=k) for r, t, k in byes],
            )
        except ValidationError as error:
            self.fail(f"the team event cannot be built: {error.errors()[0]['msg']}")

    def read_records(self) -> None:
        records = self.data.records
        extended = any(text.startswith("310") for _, text in records)
        for line, text in records:
            kind = text[:3]
            if kind == "310" or (kind == "013" and not extended):
                self.read_team(line, text, extended)
        if len(self.teams) < 2:
            self.fail(
                f"found {len(self.teams)} team record{'s' if len(self.teams) != 1 else ''} "
                f"({'310' if extended else '013'}); a team event needs at least two teams"
            )
        for line, text in records:
            kind = text[:3]
            if kind == "300":
                self.read_order(line, text)
            elif kind == "330":
                self.read_forfeit(line, text)
            elif kind == "362":
                self.read_scoring(line, text)
            elif kind == "320":
                self.fail(
                    "record 320 gives a team's pairing-allocated bye points of its own, which "
                    "this service does not read; write the bye as U on its players' lines "
                    "(a drawn match, and every board's game point)",
                    line,
                    1,
                )

    def read_team(self, line: int, text: str, extended: bool) -> None:
        if extended:
            number = text[4:7].strip()
            if not number.isdigit() or int(number) == 0:
                self.fail(
                    f"the team number (columns 5-7) must be a number from 1 to 999; found "
                    f"{number!r}" if number else "the team number (columns 5-7) is missing",
                    line,
                    5,
                )
            team_id, name, first = str(int(number)), text[8:40].strip(), 73
        else:
            team_id, name, first = str(len(self.teams) + 1), text[4:36].strip(), 36
        where = "9-40" if extended else "5-36"
        if not name:
            self.fail(f"the team has no name (columns {where})", line, 9 if extended else 5)
        if len(name) > MAX_NAME:
            self.fail(f"the team's name has {len(name):,} characters; at most {MAX_NAME}", line)
        if team_id in self.teams:
            self.fail(
                f"team {team_id} is already given on line {self.teams[team_id].line}", line, 5
            )
        members: list[str] = []
        for start in range(first, len(text), 5):
            field_text = text[start : start + 4].strip()
            column = start + 1
            if not field_text or field_text.strip("0") == "":
                continue
            if not field_text.isdigit():
                self.fail(
                    f"{field_text!r} is not a starting rank (four columns each from column "
                    f"{first + 1})",
                    line,
                    column,
                )
            player = str(int(field_text))
            if player not in self.data.lines:
                self.fail(f"there is no player with starting rank {player}", line, column)
            if player in self.team_of:
                other = self.teams[self.team_of[player]]
                self.fail(
                    f"player {player} is already in team {other.id} ({other.name}, line "
                    f"{other.line})",
                    line,
                    column,
                )
            self.team_of[player] = team_id
            members.append(player)
        self.teams[team_id] = _Team(team_id, name, members, line)

    def team_number(self, text: str, line: int, column: int, what: str) -> str:
        value = text[column - 1 : column + 2].strip()
        if not value.isdigit() or str(int(value)) not in self.teams:
            known = ", ".join(self.teams)
            self.fail(f"{what}: {value!r} is not a team (the teams are {known})", line, column)
        return str(int(value))

    def round_number(self, text: str, line: int, column: int) -> int:
        value = text[column - 1 : column + 2].strip()
        if not value.isdigit() or not 1 <= int(value) <= MAX_ROUND:
            self.fail(f"{value!r} is not a round number (1 to {MAX_ROUND})", line, column)
        return int(value)

    def read_order(self, line: int, text: str) -> None:
        round_number = self.round_number(text, line, 5)
        team = self.team_number(text, line, 9, "the team")
        self.team_number(text, line, 13, "the opponent")
        order: list[str | None] = []
        for start in range(16, len(text), 5):
            value = text[start : start + 4].strip()
            if not value:
                continue
            if not value.isdigit():
                self.fail(f"{value!r} is not a starting rank", line, start + 1)
            player = str(int(value))
            if player == "0":
                order.append(None)
                continue
            if self.team_of.get(player) != team:
                self.fail(
                    f"player {player} does not play for team {team} "
                    f"({self.teams[team].name})",
                    line,
                    start + 1,
                )
            order.append(player)
        if (round_number, team) in self.orders:
            self.fail(
                f"a second board order for team {team} in round {round_number}", line, 1
            )
        self.orders[(round_number, team)] = (order, line)

    def read_forfeit(self, line: int, text: str) -> None:
        code = text[4:6].upper()
        if code not in _FORFEITS:
            self.fail(
                f"{text[4:6]!r} is not the result of a forfeited match; use +- (the first "
                "team wins), -+ (the second) or -- (neither)",
                line,
                5,
            )
        round_number = self.round_number(text, line, 8)
        first = self.team_number(text, line, 12, "the first team")
        second = self.team_number(text, line, 16, "the second team")
        if first == second:
            self.fail("a team cannot forfeit a match against itself", line, 16)
        self.forfeits.append((line, round_number, first, second, _FORFEITS[code]))

    def read_scoring(self, line: int, text: str) -> None:
        words = text[4:].split()
        for letter, value in zip(words[::2], words[1::2], strict=False):
            expected = _DEFAULT_TEAM_SCORING.get(letter.upper())
            try:
                points = float(value.replace(",", "."))
            except ValueError:
                self.fail(f"{value!r} is not a number of match points", line, text.find(value) + 1)
            if expected is not None and points != expected:
                self.fail(
                    f"record 362 gives {points:g} match points for {letter}; this service "
                    "scores a match won 2, drawn 1, lost 0 and a pairing-allocated bye 1",
                    line,
                    text.find(value) + 1,
                )

    # ------------------------------------------------------------------ rounds

    def rounds(
        self,
    ) -> tuple[list[tuple[int, str, str, list[BoardResult]]], list[tuple[int, str, ByeKind]]]:
        games_of: dict[int, list[TrfGame]] = defaultdict(list)
        for game in self.trf.games:
            games_of[game.round].append(game)
        last = max(
            [self.trf.rounds] + [r for _, r, *_ in self.forfeits]
            + [b[2] for b in self.data.team_byes],
            default=0,
        )
        record_byes = self.record_byes()
        matches: list[tuple[int, str, str, list[BoardResult]]] = []
        byes: list[tuple[int, str, ByeKind]] = []
        pending: list[tuple[_Match, list[tuple[BoardResult, TrfGame | None]] | None]] = []
        for round_number in range(1, last + 1):
            found = self.matches_of(round_number, games_of[round_number])
            for team_id in self.teams:
                if team_id in found:
                    if (round_number, team_id) in record_byes:
                        self.fail(
                            f"round {round_number}: team {team_id} has a bye (record 240) and "
                            "a match",
                            self.bye_line(round_number, team_id),
                        )
                    continue
                kind = record_byes.get((round_number, team_id)) or self.bye_of(
                    round_number, team_id
                )
                byes.append((round_number, team_id, kind))
            for match in {id(m): m for m in found.values()}.values():
                pending.append((match, None if match.forfeit else self.boards(match)))
        width = max((len(b) for _, b in pending if b is not None), default=0)
        for match, boards in pending:
            if boards is None:
                assert match.forfeit is not None
                matches.append(
                    (match.round, match.first, match.second, [match.forfeit[0]] * max(width, 1))
                )
            else:
                matches.append((match.round, *self.home_first(match, boards)))
        return matches, byes

    def record_byes(self) -> dict[tuple[int, str], ByeKind]:
        found: dict[tuple[int, str], ByeKind] = {}
        for line, code, round_number, _, teams in self.data.team_byes:
            for number, column in teams:
                team = str(number)
                if team not in self.teams:
                    self.fail(f"there is no team {team}", line, column)
                found[(round_number, team)] = _TEAM_BYES[code]
        return found

    def bye_line(self, round_number: int, team_id: str) -> int:
        return next(
            line for line, _, r, _, teams in self.data.team_byes
            if r == round_number and any(str(n) == team_id for n, _ in teams)
        )

    def matches_of(self, round_number: int, games: list[TrfGame]) -> dict[str, _Match]:
        """Each team's match in the round, from its players' games and the 330 records."""
        found: dict[str, _Match] = {}
        for game in games:
            teams = [self.team_of.get(p) for p in (game.white, game.black)]
            for player, team in zip((game.white, game.black), teams, strict=True):
                if team is None:
                    self.fail(
                        f"round {round_number}: player {player} plays for no team; list him "
                        "in a team record (013 or 310)",
                        self.data.lines[player],
                    )
            white, black = teams[0], teams[1]
            assert white is not None and black is not None
            if white == black:
                self.fail(
                    f"round {round_number}: players {game.white} and {game.black} both play "
                    f"for team {white} ({self.teams[white].name})",
                    self.data.lines[game.black],
                )
            match = self.match_for(found, round_number, white, black, game)
            match.games.append(game)
        for line, round_number_of, first, second, result in self.forfeits:
            if round_number_of != round_number:
                continue
            for team in (first, second):
                if team in found:
                    self.fail(
                        f"round {round_number}: team {team} has games against team "
                        f"{found[team].second if found[team].first == team else found[team].first}"
                        ", so no match of it was forfeited",
                        line,
                        1,
                    )
            match = _Match(round_number, first, second, forfeit=(result, line))
            found[first] = found[second] = match
            self.check_forfeit_lines(match)
        return found

    def match_for(
        self, found: dict[str, _Match], round_number: int, white: str, black: str, game: TrfGame
    ) -> _Match:
        for team, other in ((white, black), (black, white)):
            match = found.get(team)
            if match is not None and other not in (match.first, match.second):
                opponent = match.second if match.first == team else match.first
                self.fail(
                    f"round {round_number}: team {team} ({self.teams[team].name}) plays team "
                    f"{opponent} and team {other} in the same round",
                    self.data.lines[game.black],
                )
        match = found.get(white)
        if match is None:
            match = found[white] = found[black] = _Match(round_number, white, black)
        return match

    def check_forfeit_lines(self, match: _Match) -> None:
        """The players of a forfeited match have nothing on their lines but forfeits
        against nobody, or their absence."""
        for team in (match.first, match.second):
            for player in self.teams[team].members:
                code, line, column = self.code(match.round, player)
                if code not in _ABSENT and code != "+":
                    self.fail(
                        f"round {match.round}: the match of team {team} is forfeited (record "
                        f"330), but player {player} has {code!r}",
                        line,
                        column,
                    )

    def code(self, round_number: int, player: str) -> tuple[str, int, int]:
        return self.data.unpaired.get(
            (round_number, player), ("", self.data.lines.get(player, 0), 1)
        )

    def bye_of(self, round_number: int, team_id: str) -> ByeKind:
        """A team without a match: the bye its players' lines say."""
        written: dict[str, tuple[str, int, int]] = {}
        for player in self.teams[team_id].members:
            code, line, column = self.code(round_number, player)
            if code not in _ABSENT:
                written.setdefault(code, (player, line, column))
        kinds = {_BYE_CODES[c] for c in written}
        if not kinds:
            return ByeKind.ZERO_POINT
        if len(kinds) > 1:
            codes = sorted(written)
            player, line, column = written[codes[-1]]
            said = ", ".join(f"{c!r} (player {written[c][0]})" for c in codes)
            self.fail(
                f"round {round_number}: team {team_id} ({self.teams[team_id].name}) has no "
                f"match, and its players' lines give different byes: {said}",
                line,
                column,
            )
        return kinds.pop()

    # ------------------------------------------------------------------ boards

    def seated(self, match: _Match, team: str) -> tuple[list[str], list[str]]:
        """The team's players who played a board of the match, and those who won a
        board left empty (``+`` against nobody), each in the team's order."""
        playing = {g.white for g in match.games} | {g.black for g in match.games}
        players, empty = [], []
        for player in self.teams[team].members:
            if player in playing:
                players.append(player)
                continue
            code, line, column = self.code(match.round, player)
            if code == "+":
                empty.append(player)
            elif code not in _ABSENT:
                self.fail(
                    f"round {match.round}: player {player} has {code!r} (a bye), but his team "
                    f"{team} plays a match against team "
                    f"{match.second if match.first == team else match.first}",
                    line,
                    column,
                )
        return players, empty

    def boards(self, match: _Match) -> list[tuple[BoardResult, TrfGame | None]]:
        """The match's boards from the first team's side, board 1 first, each with
        its game (``None`` for a board not played between two players)."""
        first_players, first_empty = self.seated(match, match.first)
        second_players, second_empty = self.seated(match, match.second)
        game_of = {g.white: g for g in match.games} | {g.black: g for g in match.games}
        orders = [self.orders.get((match.round, t)) for t in (match.first, match.second)]
        if orders[0] is None and orders[1] is None:
            return self.boards_in_order(
                match, first_players, first_empty, second_players, second_empty, game_of
            )
        return self.boards_as_ordered(match, orders, first_empty, second_empty, game_of)

    def board_of_game(self, match: _Match, game: TrfGame) -> tuple[BoardResult, TrfGame]:
        board = _BOARD_OF_GAME[game.result]
        return (board if self.team_of[game.white] == match.first else _MIRROR[board]), game

    def boards_in_order(
        self,
        match: _Match,
        first_players: list[str],
        first_empty: list[str],
        second_players: list[str],
        second_empty: list[str],
        game_of: dict[str, TrfGame],
    ) -> list[tuple[BoardResult, TrfGame | None]]:
        opponents = [
            game_of[p].black if game_of[p].white == p else game_of[p].white for p in first_players
        ]
        for at, (opponent, seated) in enumerate(zip(opponents, second_players, strict=True)):
            if opponent != seated:
                player = first_players[at]
                self.fail(
                    f"round {match.round}: player {player} of team {match.first} plays "
                    f"player {opponent} of team {match.second}, who is not on the same board "
                    "in his team's order (players sit as their team records list them); "
                    "give the board order in a 300 record",
                    self.data.lines[player],
                )
        boards: list[tuple[BoardResult, TrfGame | None]] = [
            self.board_of_game(match, game_of[p]) for p in first_players
        ]
        boards += [(BoardResult.HOME_WINS_BY_FORFEIT, None)] * len(first_empty)
        boards += [(BoardResult.AWAY_WINS_BY_FORFEIT, None)] * len(second_empty)
        return boards

    def boards_as_ordered(
        self,
        match: _Match,
        orders: list[tuple[list[str | None], int] | None],
        first_empty: list[str],
        second_empty: list[str],
        game_of: dict[str, TrfGame],
    ) -> list[tuple[BoardResult, TrfGame | None]]:
        """Boards as the 300 records place the players; a team without one sits at
        its opponents' boards, its wins against empty boards at the free ones."""
        seats: dict[int, list[str | None]] = {}
        line = 0
        for side, order in enumerate(orders):
            if order is None:
                continue
            line = order[1]
            for board, player in enumerate(order[0]):
                seats.setdefault(board, [None, None])[side] = player
        for side, order in enumerate(orders):
            if order is not None:
                continue
            other = 1 - side
            for places in seats.values():
                player = places[other]
                if player is not None and player in game_of:
                    game = game_of[player]
                    places[side] = game.black if game.white == player else game.white
            free = [b for b in sorted(seats) if seats[b][side] is None and seats[b][other] is None]
            for player in (first_empty, second_empty)[side]:
                board = free.pop(0) if free else max(seats, default=-1) + 1
                seats.setdefault(board, [None, None])[side] = player
        placed = {p for pair in seats.values() for p in pair if p is not None}
        for player in game_of:
            if player not in placed:
                self.fail(
                    f"round {match.round}: player {player} played in the match of team "
                    f"{match.first} v team {match.second}, but its board order (record 300) "
                    "does not place him",
                    line,
                    1,
                )
        boards = []
        for board in range(max(seats, default=-1) + 1):
            first, second = seats.get(board, [None, None])
            boards.append(self.board(match, board + 1, first, second, game_of, line))
        return boards

    def board(
        self,
        match: _Match,
        number: int,
        first: str | None,
        second: str | None,
        game_of: dict[str, TrfGame],
        line: int,
    ) -> tuple[BoardResult, TrfGame | None]:
        where = f"round {match.round}, team {match.first} v team {match.second}, board {number}"
        for player, opposite in ((first, second), (second, first)):
            if player is None or player not in game_of:
                continue
            game = game_of[player]
            opponent = game.black if game.white == player else game.white
            if opposite is not None and opposite != opponent:
                self.fail(
                    f"{where}: player {player} played player {opponent}, but the board order "
                    f"places player {opposite} opposite him",
                    line,
                    1,
                )
            return self.board_of_game(match, game)
        won = [p is not None and self.code(match.round, p)[0] == "+" for p in (first, second)]
        if won[0] and won[1]:
            self.fail(f"{where}: both players won it by forfeit", line, 1)
        if won[0]:
            return BoardResult.HOME_WINS_BY_FORFEIT, None
        if won[1]:
            return BoardResult.AWAY_WINS_BY_FORFEIT, None
        return BoardResult.DOUBLE_FORFEIT, None

    def home_first(
        self, match: _Match, boards: list[tuple[BoardResult, TrfGame | None]]
    ) -> tuple[str, str, list[BoardResult]]:
        """The home team, White on board 1 (the colours alternating down the boards,
        WB...), and the boards from its side."""
        results = [b for b, _ in boards]
        for index, (_, game) in enumerate(boards):
            if game is None:
                continue
            white_team = self.team_of[game.white]
            black_team = self.team_of[game.black]
            home = white_team if index % 2 == 0 else black_team
            if home == match.first:
                break
            return match.second, match.first, [_MIRROR[b] for b in results]
        return match.first, match.second, results
