"""Facts of a chess team match that the county rules read: game points, board
counts and decisive boards.

Words (DESIGN.md): the **board count** of a team is the sum of the numbers of the
boards it won (lower is better); the **lowest decisive board** is the
highest-numbered board with a decisive result.
"""

from __future__ import annotations

from dataclasses import dataclass

from playoff_formats.model import TeamMatch


@dataclass(frozen=True)
class ChessMatchFacts:
    """One chess team match, seen from both sides (index 0 home, 1 away)."""

    match: TeamMatch
    number: int  # 1-based position in the event's list of matches
    game_points: tuple[float, float]
    board_count: tuple[int, int]
    decisive: tuple[tuple[int, int], ...]  # (board number, side that won it)

    @classmethod
    def of(cls, match: TeamMatch, number: int) -> ChessMatchFacts:
        boards = match.chess_boards
        home = sum(b.home_points for b in boards)
        away = sum(b.away_points for b in boards)
        # A board one side won, over the board or by forfeit; a draw and a board
        # neither side played are not decisive.
        decisive = tuple(
            (n, 0 if b.home_points > b.away_points else 1)
            for n, b in enumerate(boards, start=1)
            if b.home_points != b.away_points
        )
        return cls(
            match=match,
            number=number,
            game_points=(home, away),
            board_count=(
                sum(n for n, side in decisive if side == 0),
                sum(n for n, side in decisive if side == 1),
            ),
            decisive=decisive,
        )

    @property
    def teams(self) -> tuple[str, str]:
        return (self.match.home, self.match.away)

    def side(self, team_id: str) -> int:
        return self.match.side_of(team_id)

    def involves(self, teams: frozenset[str]) -> bool:
        return self.match.home in teams and self.match.away in teams

    @property
    def lowest_decisive_board(self) -> tuple[int, int] | None:
        """(board number, winning side) of the highest-numbered decisive board."""
        return max(self.decisive) if self.decisive else None

    def label(self) -> str:
        return f"{self.match.home} v {self.match.away}"
