"""What an electronic board's position means for the game's moves.

An e-board (DGT) tells only where the pieces stand: the piece placement of a FEN,
without the side to move, castling rights or en passant. The game's moves are found
by playing the legal moves from the position the moves so far reach, with
python-chess, and comparing placements:

- the placement the moves reach already: nothing new;
- one legal move reaches it: that move;
- two plies reach it (a move the board did not report settled before the reply):
  those two moves;
- one legal move from the position before the last move reaches it (the last move
  was changed before the clock was pressed, as the Laws allow until then: a piece
  put down elsewhere), or that position itself (the move taken back): the last move
  replaced or withdrawn;
- nothing legal reaches it (a piece lifted, knocked over, a position set by hand):
  unread; the moves stand, and the board is shown as it stands, never a move
  invented for it.

Pure: the moves so far and the placement are arguments.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import chess

__all__ = ["Reading", "read_placement", "valid_placement"]


@dataclass(frozen=True, slots=True)
class Reading:
    """What a placement means: keep the first ``keep`` moves, then play ``moves``
    (UCI, with their SAN). ``unread`` when no legal continuation reaches it."""

    keep: int
    moves: tuple[tuple[str, str], ...] = ()
    unread: bool = False

    def changes(self, played: int) -> bool:
        """Whether this reading changes a game of ``played`` moves."""
        return not self.unread and (self.keep != played or bool(self.moves))


def valid_placement(placement: str) -> bool:
    """Whether ``placement`` is the piece placement of a FEN (eight ranks of pieces and
    empty squares): what an e-board sends."""
    try:
        chess.Board(None).set_board_fen(placement)
    except ValueError:
        return False
    return True


def _board(start_fen: str, uci: Sequence[str]) -> chess.Board:
    board = chess.Board(start_fen)
    for move in uci:
        board.push_uci(move)
    return board


def _reaching(board: chess.Board, placement: str) -> list[chess.Move]:
    found = []
    for move in board.legal_moves:
        board.push(move)
        if board.board_fen() == placement:
            found.append(move)
        board.pop()
    return found


def _one(board: chess.Board, placement: str) -> tuple[tuple[str, str], ...] | None:
    moves = _reaching(board, placement)
    if len(moves) != 1:
        return None
    return ((moves[0].uci(), board.san(moves[0])),)


def _two(board: chess.Board, placement: str) -> tuple[tuple[str, str], ...] | None:
    found: list[tuple[tuple[str, str], ...]] = []
    for first in board.legal_moves:
        san = board.san(first)
        board.push(first)
        for second in _reaching(board, placement):
            found.append(((first.uci(), san), (second.uci(), board.san(second))))
        board.pop()
        if len(found) > 1:
            return None
    return found[0] if found else None


def read_placement(
    placement: str, played: Sequence[str], start_fen: str = chess.STARTING_FEN
) -> Reading:
    """What ``placement`` means after the moves ``played`` (UCI) from ``start_fen``.

    A placement more than one way reaches (it cannot happen with one move; with two
    plies it can, with transpositions) is unread rather than guessed."""
    board = _board(start_fen, played)
    if board.board_fen() == placement:
        return Reading(len(played))
    one = _one(board, placement)
    if one is not None:
        return Reading(len(played), one)
    if played:
        before = _board(start_fen, played[:-1])
        if before.board_fen() == placement:
            return Reading(len(played) - 1)
        replaced = _one(before, placement)
        if replaced is not None:
            return Reading(len(played) - 1, replaced)
    two = _two(board, placement)
    if two is not None:
        return Reading(len(played), two)
    return Reading(len(played), unread=True)
