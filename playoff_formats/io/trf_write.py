"""A play-off's rated games as FIDE Tournament Report Files, one per rating list.

FIDE rates rapid and blitz games on lists of their own (its Rating Regulations for
rapid and blitz, 2024): each list is reported in a file of its own. A game goes to
the list its time control falls in, the time each player has for 60 moves (the
Laws of Chess, Appendices A.1 and B.1: the time allotted plus 60 times any
increment; here each period's base where the game reaches it within 60 moves, and
the increment or delay of each of the 60 moves it is given for):

* blitz: 10 minutes or less, and more than 3 (the rating regulations rate no
  faster game);
* rapid: more than 10 minutes and less than 60;
* standard: 60 minutes or more.

A game whose players have different times (an Armageddon with unequal times) is
left out: FIDE rates a game only when both players have the same allotted time.
docs/policies.md ("The play-off's games for the rating report") gives the texts.

Each file is a TRF16 or a TRF-2026 as :mod:`playoff_formats.io.trf` reads them:
the header records (``012`` the event and the list, ``042``/``052`` the dates of
the first and last game, ``062``/``072`` the players and the rated ones, ``092``
the kind of event, ``122`` the time control, ``132`` each round's date; ``XXR``
the rounds in TRF16, ``142`` in TRF-2026 with ``162`` the scoring and ``222`` the
encoded time control where it can be written), comment lines (``###``) saying
what the file is and which games were left out and why, and a ``001`` line per
player who has a game in the file: FIDE id, rating, federation and title where
known, the points of the file's games, the final rank of the play-off (blank
while it is not known), and each round's opponent, colour and result (``1``,
``=``, ``0``; ``+``/``-`` for a forfeit, which FIDE does not rate). A player
not paired in a round has it blank. Starting ranks follow the seeds. The rounds
are the play-off's: the games of a round of the bracket with the same number in
their matches are one round of the file, in the order they were played. Text
that cannot sit in a fixed column is cut to its width (a name to 33 characters).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from enum import StrEnum
from typing import Literal

from playoff_formats.timecontrol import NotExpressibleError, TimeControl
from playoff_formats.values import Colour, Result

__all__ = [
    "Edition",
    "RatingPool",
    "RatingReport",
    "ReportGame",
    "ReportHeader",
    "ReportPlayer",
    "rating_pool",
    "rating_reports",
    "time_for_60_moves_ms",
]

Edition = Literal["16", "2026"]

_MINUTE_MS = 60_000
BLITZ_LEAST_MS = 3 * _MINUTE_MS
"""The Rating Regulations for rapid and blitz rate a blitz game of more than 3 minutes."""
BLITZ_MOST_MS = 10 * _MINUTE_MS
"""FIDE Laws, Appendix B.1: a blitz game gives each player 10 minutes or less."""
RAPID_BELOW_MS = 60 * _MINUTE_MS
"""FIDE Laws, Appendix A.1: a rapid game gives each player more than 10 minutes and less
than 60."""


class RatingPool(StrEnum):
    """The FIDE rating list a game goes to."""

    STANDARD = "standard"
    RAPID = "rapid"
    BLITZ = "blitz"


_POOL_ORDER = {RatingPool.STANDARD: 0, RatingPool.RAPID: 1, RatingPool.BLITZ: 2}

UNEQUAL_TIMES = (
    "White and Black have different times: FIDE rates a game only when both players "
    "have the same allotted time"
)
TOO_FAST = (
    "each player has 3 minutes or less for 60 moves: FIDE's blitz list rates games of "
    "more than 3 minutes"
)
NO_TIME_CONTROL = "its time control is not known"


def time_for_60_moves_ms(control: TimeControl, colour: Colour = Colour.WHITE) -> int:
    """The time one side has for a game of 60 moves (Laws, Appendices A.1 and B.1)."""
    stages = control.for_side(colour)
    total = stages[0].base_ms
    first = 1
    for index, stage in enumerate(stages[:-1]):
        assert stage.moves is not None
        first += stage.moves
        if first <= 60:
            total += stages[index + 1].base_ms
    for move in range(1, 61):
        total += control.increment_after_move(colour, move)
        total += control.stage_for_move(colour, move).delay_ms
    return total


def rating_pool(control: TimeControl | None) -> RatingPool | str:
    """The list a game at ``control`` is rated on, or why it is not rated."""
    if control is None:
        return NO_TIME_CONTROL
    if not control.symmetric:
        return UNEQUAL_TIMES
    white = time_for_60_moves_ms(control, Colour.WHITE)
    if white <= BLITZ_LEAST_MS:
        return TOO_FAST
    if white <= BLITZ_MOST_MS:
        return RatingPool.BLITZ
    if white < RAPID_BELOW_MS:
        return RatingPool.RAPID
    return RatingPool.STANDARD


@dataclass(frozen=True)
class ReportPlayer:
    """A player of the play-off, in seed order; ``rank`` is the final place in it."""

    id: str
    name: str
    rating: int | None = None
    title: str | None = None
    federation: str | None = None
    fide_id: str | None = None
    rank: int | None = None


@dataclass(frozen=True)
class ReportGame:
    """A game with its result. ``order`` sorts the games as they were played (stage,
    round, game number in the match); games with the same ``order`` are one round."""

    white: str
    black: str
    result: Result
    control: TimeControl | None
    day: date | None
    order: tuple[int, ...]
    label: str


@dataclass(frozen=True)
class ReportHeader:
    """What the file says of itself. ``finished``: the play-off has its final ranks."""

    event: str
    finished: bool = True
    stage: str | None = None


@dataclass(frozen=True)
class RatingReport:
    """One rating list's file: its text, its games, and the games left out with why."""

    pool: RatingPool
    text: str
    games: tuple[ReportGame, ...]
    left_out: tuple[tuple[ReportGame, str], ...]


def rating_reports(
    header: ReportHeader,
    players: list[ReportPlayer],
    games: list[ReportGame],
    edition: Edition = "16",
) -> list[RatingReport]:
    """A file per rating list that has games (standard, rapid, blitz, in that order)."""
    pools: dict[RatingPool, list[ReportGame]] = {}
    left_out: list[tuple[ReportGame, str]] = []
    for game in sorted(games, key=lambda g: g.order):
        pool = rating_pool(game.control)
        if isinstance(pool, RatingPool):
            pools.setdefault(pool, []).append(game)
        else:
            left_out.append((game, pool))
    return [
        RatingReport(
            pool,
            _write(header, players, pools[pool], tuple(left_out), pool, edition),
            tuple(pools[pool]),
            tuple(left_out),
        )
        for pool in sorted(pools, key=_POOL_ORDER.__getitem__)
    ]


# --------------------------------------------------------------------------- writing

_CODES = {
    Result.WHITE_WINS: ("1", "0"),
    Result.BLACK_WINS: ("0", "1"),
    Result.DRAW: ("=", "="),
    Result.WHITE_WINS_BY_FORFEIT: ("+", "-"),
    Result.BLACK_WINS_BY_FORFEIT: ("-", "+"),
    Result.DOUBLE_FORFEIT: ("-", "-"),
}
_POOL_WORDS = {
    RatingPool.STANDARD: "standard games",
    RatingPool.RAPID: "rapid games (FIDE Laws, Appendix A)",
    RatingPool.BLITZ: "blitz games (FIDE Laws, Appendix B)",
}


def _write(
    header: ReportHeader,
    players: list[ReportPlayer],
    games: list[ReportGame],
    left_out: tuple[tuple[ReportGame, str], ...],
    pool: RatingPool,
    edition: Edition,
) -> str:
    keys = sorted({g.order for g in games})
    round_of = {key: number for number, key in enumerate(keys, start=1)}
    playing = {g.white for g in games} | {g.black for g in games}
    listed = [p for p in players if p.id in playing]
    start = {p.id: number for number, p in enumerate(listed, start=1)}
    cells: dict[str, dict[int, str]] = {p.id: {} for p in listed}
    points = dict.fromkeys(start, 0.0)
    days: dict[int, date] = {}
    for game in games:
        number = round_of[game.order]
        white_code, black_code = _CODES[game.result]
        cells[game.white][number] = f"{start[game.black]:4d} w {white_code}"
        cells[game.black][number] = f"{start[game.white]:4d} b {black_code}"
        points[game.white] += game.result.white_points
        points[game.black] += game.result.black_points
        if game.day is not None:
            days[number] = min(days.get(number, game.day), game.day)
    rounds = len(keys)
    dated = sorted(days.values())
    controls = sorted({str(g.control) for g in games if g.control is not None})
    name = f"{_plain(header.event)}, play-off: {pool.value}"
    lines = [
        f"012 {name}",
        *_comments(header, pool, games, left_out, edition),
    ]
    if dated:
        lines += [f"042 {dated[0]:%Y/%m/%d}", f"052 {dated[-1]:%Y/%m/%d}"]
    lines += [
        f"062 {len(listed)}",
        f"072 {sum(1 for p in listed if p.rating)}",
        "092 Individual: play-off (knock-out matches)",
        f"122 {'; '.join(controls)}",
    ]
    if edition == "2026":
        lines.append(f"142 {rounds}")
        lines.append("162  W 1.0    D 0.5    L 0.0    A 0.0    P 1.0")
        encoded = _encoded(games)
        if encoded is not None:
            lines.append(f"222 {encoded}")
    else:
        lines.append(f"XXR {rounds}")
    if len(days) == rounds:
        # Each round's date under its round's columns (92-99 for the first), as TRF does.
        dates = "  ".join(f"{days[n]:%y/%m/%d}" for n in range(1, rounds + 1))
        lines.append(f"132{' ' * 88}{dates}")
    lines.append(
        "### SSSS sTTT NNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNN RRRR FFF IIIIIIIIIII BBBB/BB/BB "
        "PPPP RRRR"
    )
    for player in listed:
        row = [cells[player.id].get(n, " " * 8) for n in range(1, rounds + 1)]
        lines.append(_player_line(start[player.id], player, points[player.id], row))
    return "\n".join(lines) + "\n"


def _comments(
    header: ReportHeader,
    pool: RatingPool,
    games: list[ReportGame],
    left_out: tuple[tuple[ReportGame, str], ...],
    edition: Edition,
) -> list[str]:
    edition_words = "TRF-2026" if edition == "2026" else "TRF16"
    which = f", stage {header.stage}" if header.stage else ""
    lines = [
        f"### The play-off of {_plain(header.event)}{which}: its {_POOL_WORDS[pool]} for "
        f"FIDE's {pool.value} rating list, {len(games)} game{'s' if len(games) != 1 else ''} "
        f"({edition_words}).",
        "### Ranks: " + (
            "the final places of the play-off."
            if header.finished else "none yet: the play-off is not finished."
        ),
    ]
    for game, why in left_out:
        lines.append(f"### Not in any list: {_plain(game.label)}: {why}.")
    return lines


def _encoded(games: list[ReportGame]) -> str | None:
    """Record 222: the time control, where the file's games share one it can write."""
    controls = {g.control for g in games if g.control is not None}
    if len(controls) != 1:
        return None
    try:
        return controls.pop().to_trf222()
    except NotExpressibleError:
        return None


def _plain(text: str) -> str:
    """Text on one line: a line break in a name would end the record."""
    return " ".join(text.split())


def _field(text: str | None, width: int) -> str:
    return _plain(text or "")[:width]


def _player_line(number: int, player: ReportPlayer, points: float, cells: list[str]) -> str:
    rating = f"{player.rating:4d}" if player.rating and player.rating < 10_000 else ""
    rank = f"{player.rank:4d}" if player.rank is not None else ""
    head = (
        f"001 {number:4d}  {_field(player.title, 3):>3} {_field(player.name, 33):<33} "
        f"{rating:>4} {_field(player.federation, 3):<3} {_field(player.fide_id, 11):>11} "
        f"{'':10} {points:4.1f} {rank:>4}"
    )
    return (head + "  " + "  ".join(cells)).rstrip()
