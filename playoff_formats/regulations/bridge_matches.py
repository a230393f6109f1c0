"""Bridge team matches as EBU 143.7 reads them: VPs (given, or from the IMP
margin on the WBF scale), or the Pachabo's HPs from the boards."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from playoff_formats.errors import PlayoffError
from playoff_formats.model import TeamMatch
from playoff_formats.scoring import board_a_match, board_result_by_imps, imps, victory_points
from playoff_formats.tiebreaks.words import number

__all__ = [
    "PACHABO_AGGREGATE_HPS",
    "PACHABO_AGGREGATE_MARGIN",
    "PACHABO_POINT_A_BOARD_HPS",
    "Board",
    "BridgeMatch",
    "pachabo_match",
    "vp_match",
]

Board = tuple[int, int]
"""A deal: (round, board number). Board n of every match of a round is the same deal."""

PACHABO_POINT_A_BOARD_HPS = Fraction(6)
PACHABO_AGGREGATE_HPS = Fraction(4)
PACHABO_AGGREGATE_MARGIN = 10
def _exact(value: float) -> Fraction:
    """A given total (a float from JSON) as the decimal it was written as."""
    return Fraction(repr(float(value)))


def _num(value: Fraction | float) -> str:
    return number(float(value))


@dataclass(frozen=True)
class BridgeMatch:
    """One bridge team match seen from both sides (index 0 home, 1 away).

    ``final`` is the score of the event (VPs, or HPs for the Pachabo);
    ``imps`` the IMPs each side scored (None when only VPs were given);
    ``board_points`` the home side's 1, ½ or 0 on each board by the Basic
    method (None without per-board scores); ``point_a_board`` and
    ``aggregate`` the Pachabo elements (HPs of the point-a-board element; the
    home side's aggregate in points).
    """

    match: TeamMatch
    number: int
    final: tuple[Fraction, Fraction]
    imps: tuple[Fraction, Fraction] | None
    board_points: tuple[float, ...] | None
    point_a_board: tuple[Fraction, Fraction] | None = None
    aggregate: int | None = None

    @property
    def teams(self) -> tuple[str, str]:
        return (self.match.home, self.match.away)

    def side(self, team: str) -> int:
        return 0 if team == self.match.home else 1

    def opponent(self, team: str) -> str:
        return self.match.away if team == self.match.home else self.match.home

    def involves(self, teams: frozenset[str]) -> bool:
        return self.match.home in teams and self.match.away in teams

    def final_of(self, team: str) -> Fraction:
        return self.final[self.side(team)]

    def imp_margin_of(self, team: str) -> Fraction | None:
        if self.imps is None:
            return None
        s = self.side(team)
        return self.imps[s] - self.imps[1 - s]

    def imps_of(self, team: str) -> Fraction | None:
        return None if self.imps is None else self.imps[self.side(team)]

    def pab_of(self, team: str) -> Fraction:
        assert self.point_a_board is not None
        return self.point_a_board[self.side(team)]

    def aggregate_of(self, team: str) -> int:
        assert self.aggregate is not None
        return self.aggregate if self.side(team) == 0 else -self.aggregate


def _board_imps(match: TeamMatch) -> tuple[Fraction, Fraction] | None:
    if match.imps is not None:
        return (_exact(match.imps[0]), _exact(match.imps[1]))
    nets = match.bridge_boards
    if not nets:
        return None
    per_board = [imps(net) for net in nets]
    return (
        Fraction(sum(i for i in per_board if i > 0)),
        Fraction(-sum(i for i in per_board if i < 0)),
    )


def vp_match(match: TeamMatch, number: int) -> BridgeMatch:
    """A match of an event scored by VPs: given VPs, or VPs from the IMP margin."""
    if not match.is_bridge:
        raise PlayoffError(f"match {number}: EBU 143.7 is a bridge regulation; this is chess")
    pair = _board_imps(match)
    nets = match.bridge_boards
    if match.vps is not None:
        final = (_exact(match.vps[0]), _exact(match.vps[1]))
    else:
        where = f"match {number} (round {match.round}, {match.home} v {match.away})"
        if pair is None:
            raise PlayoffError(f"{where}: give the boards, the imps or the vps")
        margin = pair[0] - pair[1]
        if margin.denominator != 1:
            raise PlayoffError(
                f"{where}: an IMP margin of {_num(margin)} has no VPs on the WBF scale; "
                "give the vps"
            )
        boards = len(nets) or match.board_count
        if not boards:
            raise PlayoffError(f"{where}: give the boards, the board_count or the vps")
        home, _ = victory_points(int(margin), boards)
        hundredths = round(home * 100)
        final = (Fraction(hundredths, 100), Fraction(2000 - hundredths, 100))
    board_points = tuple(board_result_by_imps(net) for net in nets) if nets else None
    return BridgeMatch(
        match=match, number=number, final=final, imps=pair, board_points=board_points
    )


def pachabo_match(match: TeamMatch, number: int) -> BridgeMatch:
    """A Pachabo match: 6 HPs point-a-board element plus 4 HPs aggregate element."""
    where = f"match {number} (round {match.round}, {match.home} v {match.away})"
    if not match.is_bridge:
        raise PlayoffError(f"{where}: the Pachabo is a bridge event; this is chess")
    nets = match.bridge_boards
    if not nets:
        raise PlayoffError(f"{where}: Pachabo HPs come from the boards; give each board's score")
    if match.vps is not None:
        raise PlayoffError(f"{where}: a Pachabo match is scored in HPs from its boards, not VPs")
    won = Fraction(sum(board_a_match(net) for net in nets))
    pab_home = PACHABO_POINT_A_BOARD_HPS * won / len(nets)
    aggregate = sum(nets)
    if aggregate >= PACHABO_AGGREGATE_MARGIN:
        agg_home = PACHABO_AGGREGATE_HPS
    elif aggregate <= -PACHABO_AGGREGATE_MARGIN:
        agg_home = Fraction(0)
    else:
        agg_home = PACHABO_AGGREGATE_HPS / 2
    total = PACHABO_POINT_A_BOARD_HPS + PACHABO_AGGREGATE_HPS
    home = pab_home + agg_home
    return BridgeMatch(
        match=match,
        number=number,
        final=(home, total - home),
        imps=_board_imps(match),
        board_points=tuple(board_a_match(net) for net in nets),
        point_a_board=(pab_home, PACHABO_POINT_A_BOARD_HPS - pab_home),
        aggregate=aggregate,
    )
