"""Presses stamped at the board: which instant a press is charged at, and the Laws'
time for an illegal move.

A board clock stamps each press on the tablet (its monotonic clock, turned into the
server's time with the offset it measures). The server charges the mover up to that
stamp when the stamp agrees with what the server has seen; otherwise on arrival, and
it says why. Lag on the network then costs no player any time, and a stamp that
cannot be true (before the turn began, in the future, too old) costs the opponent
none either.

Pure: every instant is an argument (docs/policies.md, "The board clock").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, NamedTuple

from playoff_formats.errors import PlayoffError
from playoff_formats.phrase import Said
from playoff_formats.timecontrol import TimeControl
from playoff_formats.words import seconds

__all__ = [
    "ALLOWANCES",
    "Allowances",
    "Charge",
    "OutageTooLong",
    "StampWhy",
    "charge_press",
    "illegal_move_penalty",
    "stamped_instant",
]


@dataclass(frozen=True, slots=True)
class Allowances:
    """How far a stamp may be from the server's time and still be charged."""

    lag_ms: int = 1_500
    """A live press arriving later than this after its stamp is charged on arrival."""
    future_ms: int = 50
    """A stamp this far ahead of the server's now is the offset's error: taken as now."""
    outage_ms: int = 60_000
    """A press queued through an outage is charged at its stamp up to this old."""


ALLOWANCES = Allowances()
"""The allowances the service uses (docs/policies.md says why these)."""


class StampWhy(NamedTuple):
    """Why a stamp was not charged: what was wrong, and by how much (ms)."""

    kind: Literal["before-turn", "before-change", "future", "late"]
    by_ms: int = 0
    allowance_ms: int = 0

    def words(self) -> str:
        if self.kind == "before-turn":
            return "stamped before the previous press"
        if self.kind == "before-change":
            return "stamped before the clock's last change (a pause, a resume, an adjustment)"
        if self.kind == "future":
            return (
                f"stamped {seconds(self.by_ms)} ahead of the server's time: the allowance "
                f"is {seconds(self.allowance_ms)}"
            )
        return (
            f"arrived {_tenths(self.by_ms)} after its stamp: the allowance is "
            f"{seconds(self.allowance_ms)}"
        )


def _tenths(ms: int) -> str:
    return f"{round(ms / 1000, 1):g} s"


class Charge(NamedTuple):
    """The instant a press is charged at, how, and why not at its stamp."""

    at_ms: int
    charged: Literal["stamp", "arrival"]
    why: StampWhy | None = None


class OutageTooLong(PlayoffError):
    """A press queued through an outage longer than the allowance: the arbiter
    decides (the board's presses are held, the clocks as the server has them)."""

    def __init__(self, stamp_ms: int, now_ms: int, allowance_ms: int) -> None:
        self.stamp_ms, self.now_ms, self.allowance_ms = stamp_ms, now_ms, allowance_ms
        held = format(round((now_ms - stamp_ms) / 1000, 1), "g")
        allowed = format(abs(allowance_ms) / 1000, "g")
        super().__init__(Said.tr(
            "this press was held {held} by the board, past the {allowance} a board may be "
            "offline: the arbiter was called to set the clocks",
            held=Said.tr("{seconds} s", seconds=held),
            allowance=Said.tr("{seconds} s", seconds=allowed),
        ))


def stamped_instant(
    stamp_ms: int, *, turn_started_ms: int, since_ms: int, now_ms: int,
    allowance_ms: int, future_ms: int = ALLOWANCES.future_ms,
) -> Charge:
    """The instant to charge an act stamped at ``stamp_ms`` (a press, a call for the
    arbiter): the stamp when it is consistent, else ``now_ms`` with the reason."""
    if stamp_ms < turn_started_ms:
        return Charge(now_ms, "arrival", StampWhy("before-turn"))
    if stamp_ms < since_ms:
        return Charge(now_ms, "arrival", StampWhy("before-change"))
    if stamp_ms > now_ms + future_ms:
        return Charge(now_ms, "arrival", StampWhy("future", stamp_ms - now_ms, future_ms))
    if now_ms - stamp_ms > allowance_ms:
        return Charge(now_ms, "arrival", StampWhy("late", now_ms - stamp_ms, allowance_ms))
    # Within the future allowance, a stamp a little ahead is the offset's error: now.
    return Charge(min(stamp_ms, now_ms), "stamp")


def charge_press(
    stamp_ms: int | None, *, turn_started_ms: int, since_ms: int, now_ms: int,
    queued: bool = False, allowances: Allowances = ALLOWANCES,
) -> Charge:
    """The instant a press is charged at.

    Without a stamp, on arrival. A live press is charged at its stamp when the stamp
    is not before the turn began (``turn_started_ms``) nor before the clock's last
    change (``since_ms``), not more than ``allowances.future_ms`` ahead of ``now_ms``,
    and not older than ``allowances.lag_ms``; otherwise on arrival, with why. A press
    queued through an outage is allowed ``allowances.outage_ms`` instead of the lag;
    older, it is refused (:class:`OutageTooLong`): the arbiter decides.
    """
    if stamp_ms is None:
        return Charge(now_ms, "arrival")
    if queued and now_ms - stamp_ms > allowances.outage_ms:
        raise OutageTooLong(stamp_ms, now_ms, allowances.outage_ms)
    return stamped_instant(
        stamp_ms, turn_started_ms=turn_started_ms, since_ms=since_ms, now_ms=now_ms,
        allowance_ms=allowances.outage_ms if queued else allowances.lag_ms,
        future_ms=allowances.future_ms,
    )


BLITZ_MAX_MS = 10 * 60_000
"""FIDE Laws, Appendix B.1: a blitz game gives each player 10 minutes or less, counting
the increment of 60 moves."""


def illegal_move_penalty(control: TimeControl) -> tuple[int, str]:
    """The time the opponent gains for a player's first completed illegal move, and the
    Laws' articles that give it.

    FIDE Laws of Chess (in force from 1 January 2023), Article 7.5.5: two minutes extra
    time to the opponent, which Appendix A.4.2 applies to rapid games; Appendix B.2:
    in blitz, "the penalties mentioned in Articles 7 and 9 of the Competition Rules
    shall be one minute instead of two minutes". A game is blitz when each player's
    time, with 60 moves' increment, is 10 minutes or less (Appendix B.1).
    """
    played = max(
        side[0].base_ms + 60 * side[0].increment_ms for side in (control.white, control.black)
    )
    if played <= BLITZ_MAX_MS:
        return 60_000, "FIDE Laws, Article 7.5.5 and Appendix B.2 (blitz)"
    if played < 60 * 60_000:
        return 120_000, "FIDE Laws, Article 7.5.5 and Appendix A.4.2 (rapid)"
    return 120_000, "FIDE Laws, Article 7.5.5"
