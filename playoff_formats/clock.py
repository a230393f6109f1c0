"""A chess clock as a pure, immutable value: a few numbers, not a ticking thread.

Design notes: docs/rules-notes.md (Clocks).
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, Self, TypedDict

from pydantic import Field, model_validator

from playoff_formats.errors import PlayoffError
from playoff_formats.model import Colour, Frozen
from playoff_formats.phrase import Phrase, Said
from playoff_formats.speech import marked
from playoff_formats.timecontrol import DelayMode, Stage, TimeControl

__all__ = [
    "Clock",
    "ClockError",
    "ClockSnapshot",
    "ClockStatus",
    "FlagFellError",
]


class ClockError(PlayoffError):
    """A clock transition or query that cannot be made, with the reason."""


class FlagFellError(ClockError):
    """A transition refused because the running side's flag had already fallen.

    ``side`` is the side whose flag fell and ``flag_at_ms`` the instant it fell;
    the service records it with :meth:`Clock.flag`.
    """

    def __init__(self, reason: str | Phrase, *, side: Colour, flag_at_ms: int) -> None:
        self.side = side
        self.flag_at_ms = flag_at_ms
        super().__init__(reason)


class ClockStatus(StrEnum):
    NOT_STARTED = "not-started"
    RUNNING = "running"
    PAUSED = "paused"
    FLAGGED = "flagged"
    STOPPED = "stopped"


class ClockSnapshot(TypedDict):
    """What a display needs (the service adds the server timestamp)."""

    white_ms: int
    black_ms: int
    running: str | None
    to_move: str
    status: str
    flagged: str | None


def _other(side: Colour) -> Colour:
    return Colour.BLACK if side is Colour.WHITE else Colour.WHITE


def _counted_ms(stage: Stage, elapsed_ms: int) -> int:
    """The time a clock counts down for ``elapsed_ms`` of thinking on one move."""
    if stage.delay is DelayMode.US:
        return max(0, elapsed_ms - stage.delay_ms)
    return elapsed_ms


def _elapsed_to_flag_ms(stage: Stage, banked_ms: int) -> int:
    """The thinking time on a move after which ``banked_ms - counted <= 0``."""
    if banked_ms <= 0:
        return 0
    if stage.delay is DelayMode.US:
        return banked_ms + stage.delay_ms
    return banked_ms


def _ms(side: Colour) -> str:
    return "white_ms" if side is Colour.WHITE else "black_ms"


def _moves(side: Colour) -> str:
    return "white_moves" if side is Colour.WHITE else "black_moves"


def _seconds(ms: int) -> Phrase:
    """A span of clock time as arbiters say it: ``5 min 30 s``, ``4.9 s``, ``2 min``
    (tenths only under a minute, as a clock shows them), said when shown."""
    if ms < 1_000:  # a flag about to fall: every millisecond said
        return Said.tr("{seconds} s", seconds=f"{ms / 1000:g}")
    if ms < 60_000:
        return Said.tr("{seconds} s", seconds=f"{round(ms / 1000, 1):g}")
    minutes, rest = divmod(ms // 1000, 60)  # whole seconds, as a clock shows them
    if rest:
        return Said.tr("{minutes} min {seconds} s", minutes=minutes, seconds=rest)
    return Said.tr("{minutes} min", minutes=minutes)


def _by_side(side: Colour, white: str, black: str, /, **params: Any) -> Phrase:
    """One of two whole messages, by side: each language says each colour its way."""
    return Said.tr(white if side is Colour.WHITE else black, **params)


def _cannot(action: Phrase, why: Phrase) -> Phrase:
    return Said.tr("cannot {action}: {why}", action=action, why=why)


class Clock(Frozen):
    """Both sides' clocks of one game (see the module docstring).

    Make one with :meth:`Clock.new`; every transition returns a new value.
    """

    control: TimeControl
    white_ms: int = Field(ge=0, description="White's time at the start of its turn, adjusted")
    black_ms: int = Field(ge=0, description="Black's time at the start of its turn, adjusted")
    white_moves: int = Field(default=0, ge=0, description="Moves White has completed")
    black_moves: int = Field(default=0, ge=0, description="Moves Black has completed")
    to_move: Colour = Colour.WHITE
    status: ClockStatus = ClockStatus.NOT_STARTED
    flagged: Colour | None = Field(default=None, description="The side whose flag fell")
    since_ms: int | None = Field(default=None, description="Instant of the last transition")
    turn_started_ms: int | None = Field(
        default=None, description="Instant the current turn began (for logs)"
    )
    turn_elapsed_ms: int = Field(
        default=0, ge=0, description="Time spent on the current move before since_ms"
    )

    @model_validator(mode="after")
    def _consistent(self) -> Self:
        if (self.status is ClockStatus.FLAGGED) != (self.flagged is not None):
            raise ValueError("a flagged side is given exactly when the status is flagged")
        if (self.status is ClockStatus.NOT_STARTED) != (self.since_ms is None):
            raise ValueError("since_ms is absent exactly when the clock has not started")
        return self

    # -- construction ---------------------------------------------------------------

    @classmethod
    def new(cls, control: TimeControl) -> Clock:
        """A clock not yet started, each side with its first period's time."""
        return cls(
            control=control,
            white_ms=control.initial_ms(Colour.WHITE),
            black_ms=control.initial_ms(Colour.BLACK),
        )

    # -- queries ------------------------------------------------------------------

    @property
    def running(self) -> Colour | None:
        """The side whose clock runs; None unless the status is running."""
        return self.to_move if self.status is ClockStatus.RUNNING else None

    def banked_ms(self, side: Colour) -> int:
        """A side's time at the start of its turn (or now, if not its turn), adjusted."""
        return self.white_ms if side is Colour.WHITE else self.black_ms

    def moves_completed(self, side: Colour) -> int:
        return self.white_moves if side is Colour.WHITE else self.black_moves

    def _stage_to_move(self) -> Stage:
        side = self.to_move
        return self.control.stage_for_move(side, self.moves_completed(side) + 1)

    def _check_instant(self, now_ms: int, action: Phrase) -> None:
        if self.since_ms is not None and now_ms < self.since_ms:
            raise ClockError(_cannot(action, Said.tr(
                "the clock's last event was {time} later (the server's clock never goes back)",
                time=_seconds(self.since_ms - now_ms),
            )))

    def _turn_elapsed_at(self, now_ms: int) -> int:
        """Thinking time of the side to move on its current move, at ``now_ms``."""
        if self.status is ClockStatus.RUNNING:
            assert self.since_ms is not None
            return self.turn_elapsed_ms + (now_ms - self.since_ms)
        return self.turn_elapsed_ms

    def _remaining_unclamped(self, side: Colour, now_ms: int) -> int:
        banked = self.banked_ms(side)
        if side is not self.to_move:
            return banked
        return banked - _counted_ms(self._stage_to_move(), self._turn_elapsed_at(now_ms))

    def remaining_ms(self, side: Colour, now_ms: int) -> int:
        """A side's time left at ``now_ms``, never below 0."""
        self._check_instant(now_ms, Said.tr("read the clock"))
        return max(0, self._remaining_unclamped(side, now_ms))

    def flag_at_ms(self) -> int | None:
        """The instant the running side's flag falls; None when no clock runs.

        The first instant at which its remaining time is 0: ``remaining_ms(side,
        t) == 0`` exactly when ``t >= flag_at_ms()``. It is never before
        ``since_ms``, and equals it when the side had no time left then.
        """
        if self.status is not ClockStatus.RUNNING:
            return None
        assert self.since_ms is not None
        to_flag = _elapsed_to_flag_ms(self._stage_to_move(), self.banked_ms(self.to_move))
        return self.since_ms + max(0, to_flag - self.turn_elapsed_ms)

    def snapshot(self, now_ms: int) -> ClockSnapshot:
        """Each side's remaining time, the running side and the status, at ``now_ms``."""
        return {
            "white_ms": self.remaining_ms(Colour.WHITE, now_ms),
            "black_ms": self.remaining_ms(Colour.BLACK, now_ms),
            "running": None if self.running is None else self.running.value,
            "to_move": self.to_move.value,
            "status": self.status.value,
            "flagged": None if self.flagged is None else self.flagged.value,
        }

    # -- transitions ----------------------------------------------------------------

    def _refuse_unless(self, allowed: tuple[ClockStatus, ...], action: Phrase) -> None:
        if self.status in allowed:
            return
        if self.status is ClockStatus.FLAGGED:
            assert self.flagged is not None
            why = _by_side(self.flagged, marked("the game is over: white's flag fell"),
                           marked("the game is over: black's flag fell"))
        elif self.status is ClockStatus.STOPPED:
            why = Said.tr("the game is over: the clock was stopped")
        elif self.status is ClockStatus.NOT_STARTED:
            why = Said.tr("the clock has not started")
        elif self.status is ClockStatus.PAUSED:
            why = Said.tr("the clock is paused")
        else:
            why = Said.tr("the clock is running")
        raise ClockError(_cannot(action, why))

    def _refuse_if_flag_fell(self, now_ms: int, action: Phrase) -> None:
        flag_at = self.flag_at_ms()
        if flag_at is not None and now_ms >= flag_at:
            side = self.to_move
            raise FlagFellError(
                _cannot(action, _by_side(
                    side, marked("white's flag fell {time} ago (record the flag)"),
                    marked("black's flag fell {time} ago (record the flag)"),
                    time=_seconds(now_ms - flag_at),
                )),
                side=side,
                flag_at_ms=flag_at,
            )

    def _settled(self, now_ms: int, **update: Any) -> Clock:
        """This value with the side to move's thinking time carried up to ``now_ms``."""
        changes: dict[str, Any] = {
            "turn_elapsed_ms": self._turn_elapsed_at(now_ms),
            "since_ms": now_ms,
        }
        changes.update(update)
        return self.model_copy(update=changes)

    def start(self, now_ms: int) -> Clock:
        """Start the game: White's clock runs from ``now_ms``."""
        self._refuse_unless((ClockStatus.NOT_STARTED,), Said.tr("start the clock"))
        return self.model_copy(
            update={
                "status": ClockStatus.RUNNING,
                "to_move": Colour.WHITE,
                "since_ms": now_ms,
                "turn_started_ms": now_ms,
                "turn_elapsed_ms": 0,
            }
        )

    def press(self, side: Colour, move_number: int, now_ms: int) -> Clock:
        """``side`` presses its clock at ``now_ms`` after completing ``move_number``.

        Refused (:class:`ClockError`) unless the clock runs, it is ``side``'s turn
        and ``move_number`` is that side's next move; refused with
        :class:`FlagFellError` at or after :meth:`flag_at_ms`. Otherwise the
        counted time is deducted, the Bronstein refund and the time due for
        ``move_number`` are credited, and the opponent's clock runs.
        """
        action = _by_side(side, marked("press white's clock after move {move}"),
                          marked("press black's clock after move {move}"), move=move_number)
        self._refuse_unless((ClockStatus.RUNNING,), action)
        self._check_instant(now_ms, action)
        if side is not self.to_move:
            raise ClockError(_cannot(action, _by_side(
                self.to_move, marked("it is white's turn"), marked("it is black's turn"))))
        expected = self.moves_completed(side) + 1
        if move_number != expected:
            raise ClockError(_cannot(action, _by_side(
                side, marked("white's next move is move {move}"),
                marked("black's next move is move {move}"), move=expected)))
        self._refuse_if_flag_fell(now_ms, action)
        stage = self._stage_to_move()
        elapsed = self._turn_elapsed_at(now_ms)
        left = self.banked_ms(side) - _counted_ms(stage, elapsed)
        assert left > 0  # the flag has not fallen
        if stage.delay is DelayMode.BRONSTEIN:
            left += min(stage.delay_ms, elapsed)
        left += self.control.time_added_after_move(side, move_number)
        return self.model_copy(
            update={
                _ms(side): left,
                _moves(side): move_number,
                "to_move": _other(side),
                "since_ms": now_ms,
                "turn_started_ms": now_ms,
                "turn_elapsed_ms": 0,
            }
        )

    def pause(self, now_ms: int) -> Clock:
        """Stop the running clock without ending the turn (no time runs while paused)."""
        action = Said.tr("pause the clock")
        self._refuse_unless((ClockStatus.RUNNING,), action)
        self._check_instant(now_ms, action)
        self._refuse_if_flag_fell(now_ms, action)
        return self._settled(now_ms, status=ClockStatus.PAUSED)

    def resume(self, now_ms: int) -> Clock:
        """Restart the paused side's clock, in the same turn, from ``now_ms``."""
        action = Said.tr("resume the clock")
        self._refuse_unless((ClockStatus.PAUSED,), action)
        self._check_instant(now_ms, action)
        return self.model_copy(update={"status": ClockStatus.RUNNING, "since_ms": now_ms})

    def adjust(self, side: Colour, delta_ms: int, now_ms: int) -> Clock:
        """Give (``delta_ms > 0``) or take (``delta_ms < 0``) time from ``side`` at ``now_ms``.

        Refused when the game is over, once the running side's flag has fallen
        (:class:`FlagFellError`), for a zero delta, and for a take of more than
        ``side`` has left at ``now_ms`` (taking exactly all of it is allowed).
        The reason is the service's to log.
        """
        if delta_ms > 0:
            action = _by_side(side, marked("give {time} to white"),
                              marked("give {time} to black"), time=_seconds(delta_ms))
        else:
            action = _by_side(side, marked("take {time} from white"),
                              marked("take {time} from black"), time=_seconds(-delta_ms))
        self._refuse_unless(
            (ClockStatus.NOT_STARTED, ClockStatus.RUNNING, ClockStatus.PAUSED), action
        )
        self._check_instant(now_ms, action)
        if delta_ms == 0:
            raise ClockError(_by_side(
                side, marked("cannot adjust white's clock by 0 s: nothing to change"),
                marked("cannot adjust black's clock by 0 s: nothing to change")))
        self._refuse_if_flag_fell(now_ms, action)
        left = max(0, self._remaining_unclamped(side, now_ms))
        if left + delta_ms < 0:
            raise ClockError(_cannot(action, _by_side(
                side, marked("white has {time} left (a clock cannot go below 0)"),
                marked("black has {time} left (a clock cannot go below 0)"), time=_seconds(left))))
        update: dict[str, Any] = {_ms(side): self.banked_ms(side) + delta_ms}
        if self.status is ClockStatus.NOT_STARTED:
            return self.model_copy(update=update)
        return self._settled(now_ms, **update)

    def flag(self, now_ms: int) -> Clock:
        """Record that the running side's flag has fallen (at or after :meth:`flag_at_ms`).

        The flagged side's time is 0 and no increment is ever credited to it.
        """
        action = Said.tr("record a flag")
        self._refuse_unless((ClockStatus.RUNNING,), action)
        self._check_instant(now_ms, action)
        flag_at = self.flag_at_ms()
        assert flag_at is not None
        side = self.to_move
        if now_ms < flag_at:
            raise ClockError(_by_side(
                side, marked("cannot record white's flag: it has {time} left"),
                marked("cannot record black's flag: it has {time} left"),
                time=_seconds(self.remaining_ms(side, now_ms))))
        return self.model_copy(
            update={
                _ms(side): 0,
                "status": ClockStatus.FLAGGED,
                "flagged": side,
                "since_ms": now_ms,
                "turn_elapsed_ms": 0,
            }
        )

    def stop(self, now_ms: int) -> Clock:
        """End the game at ``now_ms``: the running side's counted time is deducted
        (no increment, no refund) and no clock runs any more."""
        action = Said.tr("stop the clock")
        self._refuse_unless((ClockStatus.RUNNING, ClockStatus.PAUSED), action)
        self._check_instant(now_ms, action)
        self._refuse_if_flag_fell(now_ms, action)
        side = self.to_move
        return self.model_copy(
            update={
                _ms(side): self.remaining_ms(side, now_ms),
                "status": ClockStatus.STOPPED,
                "since_ms": now_ms,
                "turn_elapsed_ms": 0,
            }
        )
