"""People's words for the values the rules compute: results, points, counts, money,
durations. One function each, shared by every door that shows them (the hall, the
arbiter console, the command line, the refusals), so that a result or an amount
reads the same wherever it is shown.

Pure: no I/O, no clock.
"""

from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING

from playoff_formats.speech import marked, spoken, tr
from playoff_formats.values import Result

if TYPE_CHECKING:  # `fractions` loads `decimal`: `playoff standings` need neither
    from fractions import Fraction

__all__ = [
    "clock_minutes",
    "count",
    "money",
    "ns_score",
    "number",
    "points",
    "result_announced",
    "result_said",
    "result_written",
    "seconds",
    "signed_minutes",
]

_WRITTEN = {
    Result.WHITE_WINS: "1-0",
    Result.DRAW: "½-½",
    Result.BLACK_WINS: "0-1",
    Result.WHITE_WINS_BY_FORFEIT: "+/−",
    Result.BLACK_WINS_BY_FORFEIT: "−/+",
    Result.DOUBLE_FORFEIT: "−/−",
}

_SAID = {
    Result.WHITE_WINS: marked("White wins"),
    Result.DRAW: marked("Draw"),
    Result.BLACK_WINS: marked("Black wins"),
    Result.WHITE_WINS_BY_FORFEIT: marked("White wins by forfeit"),
    Result.BLACK_WINS_BY_FORFEIT: marked("Black wins by forfeit"),
    Result.DOUBLE_FORFEIT: marked("Double forfeit"),
}

_ANNOUNCED = {
    Result.WHITE_WINS: marked("1-0"),
    Result.BLACK_WINS: marked("0-1"),
    Result.DRAW: marked("½-½"),
    Result.WHITE_WINS_BY_FORFEIT: marked("1-0 by forfeit"),
    Result.BLACK_WINS_BY_FORFEIT: marked("0-1 by forfeit"),
    Result.DOUBLE_FORFEIT: marked("double forfeit"),
}


def result_written(result: Result) -> str:
    """A result as a score sheet writes it: ``1-0``, ``½-½``, ``+/−`` (a forfeit)."""
    return _WRITTEN[result]


def result_said(result: Result) -> str:
    """A result in words: ``White wins``, ``Draw``, ``Double forfeit``."""
    return tr(_SAID[result])


def result_announced(result: Result) -> str:
    """A result as the hall announces it to spectators, who do not read ``+/−``:
    ``1-0``, ``½-½``, ``1-0 by forfeit``, ``double forfeit``."""
    return tr(_ANNOUNCED[result])


def points(value: float | Fraction) -> str:
    """Game points: ``1``, ``½``, ``1½``, ``0``; a share of other points to 2 places."""
    whole = int(value)
    rest = value - whole
    if rest == 0:
        return str(whole)
    if rest * 2 == 1:
        return f"{whole}½" if whole else "½"
    return f"{float(value):.2f}".rstrip("0")


def number(value: float) -> str:
    """A number without spurious decimals: ``25.25``, ``22.5``, ``4``."""
    if value == int(value):
        return str(int(value))
    return f"{round(value, 4):g}"


_NUMBERS = {
    1: marked("one"), 2: marked("two"), 3: marked("three"), 4: marked("four"),
    5: marked("five"), 6: marked("six"), 7: marked("seven"), 8: marked("eight"),
    9: marked("nine"), 10: marked("ten"), 11: marked("eleven"), 12: marked("twelve"),
}


def count(n: int) -> str:
    """A small count in words (``one`` to ``twelve``), a larger one in figures."""
    word = _NUMBERS.get(n)
    return tr(word) if word is not None else str(n)


def money(
    amount: float | Fraction | str | None, currency: str = "", *, cents: bool | None = None
) -> str:
    """An amount with thousands separators: ``100,000``, ``33,333.33``; after the
    currency when there is one (``USD 100,000``, ``$100,000``); nothing when not
    known. ``cents``: whether to write cents, as a table does for all its amounts
    when one has them; by default, only where this amount has them. An amount
    written as a decimal (``"40000"``, as a note words it) reads as that amount."""
    if amount is None or amount == "":
        return ""
    if isinstance(amount, str):
        from fractions import Fraction

        amount = Fraction(amount)
    value = float(amount)
    if cents is None:
        cents = not round(value, 2).is_integer()
    figure = spoken().number(value, 2) if cents else spoken().number(round(value))
    currency = currency.strip()
    if not currency:
        return figure
    return f"{currency} {figure}" if currency.isalpha() else f"{currency}{figure}"


def ns_score(score: int) -> str:
    """A bridge North-South score as the slip writes it: ``+620``, ``-50``, ``0``."""
    return f"{score:+d}" if score else "0"


def seconds(ms: int) -> str:
    """A length of time given or taken on a clock: ``90 s``, ``1.5 s``."""
    return tr("{seconds} s", seconds=f"{abs(ms) / 1000:g}")


def clock_minutes(ms: int) -> str:
    """A clock's time as a clock face says it: ``6′``, ``1′30″``."""
    minutes, rest = divmod(round(ms / 1000), 60)
    return f"{minutes}′{rest:02d}″" if rest else f"{minutes}′"


def signed_minutes(delta: timedelta) -> str:
    """How far an instant moved: ``+15 min``, ``−1 h 5 min``, ``+2 h``."""
    minutes = round(delta.total_seconds() / 60)
    sign = "−" if minutes < 0 else "+"
    hours, rest = divmod(abs(minutes), 60)
    if not hours:
        return sign + tr("{minutes} min", minutes=rest)
    return sign + (tr("{hours} h {minutes} min", hours=hours, minutes=rest) if rest
                   else tr("{hours} h", hours=hours))
