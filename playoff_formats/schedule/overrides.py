"""The chief arbiter's decisions about the schedule, as one immutable value.

:class:`Overrides` holds every pinned start, shortened time control and
postponement in force. Its ``with_*`` methods return a new value, so a decision
is recorded by replacing the value, and the planner reads the same value the
arbiter's decisions were recorded in.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Self

from pydantic import AwareDatetime, Field, field_validator, model_validator

from playoff_formats.model import Frozen
from playoff_formats.playoff import GameKind, Match
from playoff_formats.speech import tr
from playoff_formats.timecontrol import TimeControl

__all__ = ["Overrides", "PinnedStart", "Postponement", "TimeControlChange"]


class PinnedStart(Frozen):
    """The chief arbiter moved the start of a game to ``start``."""

    match: int = Field(ge=1)
    game: int = Field(ge=1)
    start: AwareDatetime
    reason: str = ""
    postponed: bool = Field(default=False, description="A postponement, not a move")
    public_reason: bool = Field(
        default=False, description="The chief arbiter chose to show the reason in the hall"
    )

    def words(self, at: str, *, public: bool = False) -> str:
        """ "postponed to 21:44 by the chief arbiter", with the reason for arbiters, and
        for the hall (``public``) only if the chief arbiter chose to show it."""
        if self.reason and (self.public_reason or not public):
            if self.postponed:
                return tr("postponed to {time} by the chief arbiter ({reason})", time=at,
                          reason=self.reason)
            return tr("start moved to {time} by the chief arbiter ({reason})", time=at,
                      reason=self.reason)
        if self.postponed:
            return tr("postponed to {time} by the chief arbiter", time=at)
        return tr("start moved to {time} by the chief arbiter", time=at)


class TimeControlChange(Frozen):
    """A shortened time control (reg. 5).

    Applies to the games of ``matches`` (empty: every match), the regular games,
    or the deciders when ``decider`` is true; games that started before
    ``made_at`` keep their time control. Later changes override earlier ones.
    """

    time_control: TimeControl
    matches: tuple[int, ...] = ()
    decider: bool = False
    made_at: AwareDatetime | None = None
    reason: str = ""

    @field_validator("time_control", mode="before")
    @classmethod
    def _parse(cls, value: Any) -> Any:
        return TimeControl.parse(value) if isinstance(value, str) else value


class Postponement(Frozen):
    """Not before ``not_before``: one game, every game of a match (``game`` None),
    or everything not yet started (``match`` None)."""

    not_before: AwareDatetime
    match: int | None = Field(default=None, ge=1)
    game: int | None = Field(default=None, ge=1)
    reason: str = ""

    @model_validator(mode="after")
    def _game_needs_match(self) -> Self:
        if self.game is not None and self.match is None:
            raise ValueError("a postponed game needs its match")
        return self


class Overrides(Frozen):
    """The arbiter's decisions in force, each kind in the order it was made.

    A game has at most one pinned start. Time control changes are applied in
    order, so a later one overrides an earlier one where both apply. Every
    postponement is a bound: a game starts no earlier than the latest that
    applies to it.
    """

    pins: tuple[PinnedStart, ...] = ()
    time_controls: tuple[TimeControlChange, ...] = ()
    postponements: tuple[Postponement, ...] = ()

    @model_validator(mode="after")
    def _one_pin_per_game(self) -> Self:
        ids = [(p.match, p.game) for p in self.pins]
        if len(set(ids)) != len(ids):
            raise ValueError("a game has two pinned starts")
        return self

    def with_pin(self, pin: PinnedStart) -> Overrides:
        """These overrides with ``pin``, which replaces any earlier pin of the same
        game of the same match."""
        kept = tuple(p for p in self.pins if (p.match, p.game) != (pin.match, pin.game))
        return self.model_copy(update={"pins": (*kept, pin)})

    def with_time_control(self, change: TimeControlChange) -> Overrides:
        """These overrides with ``change`` after every earlier change."""
        return self.model_copy(update={"time_controls": (*self.time_controls, change)})

    def with_postponement(self, postponement: Postponement) -> Overrides:
        """These overrides with one more postponement."""
        return self.model_copy(update={"postponements": (*self.postponements, postponement)})

    def time_control_for(
        self, match: Match, number: int, kind: GameKind, started_at: datetime | None
    ) -> TimeControl:
        """The time control of game ``number`` of ``match``.

        It starts as the match's time control, or its decider for a decider
        game, and each change, in order, replaces it when the change names the
        match (or no match), is for the deciders exactly when the game is a
        decider game, and was not made after the game began (``started_at``
        before ``made_at``: a game keeps the time control it started with).
        ``started_at`` is ``None`` for a game not yet begun, and a change
        without ``made_at`` applies whenever the game began.

        A game of a later stage of the match is played at its stage's time
        control, or at the first stage's as changed when that is shorter: a
        shortening never leaves a later stage slower than the first.

        Raises ``ValueError`` when the match has no such time control (a bye, or
        a decider game in a match without a decider game).
        """
        decider = kind.decider
        tc = match.decider if decider else match.time_control
        if tc is None:
            what = "decider" if decider else "time control"
            raise ValueError(f"match {match.id} has no {what} for game {number}")
        changed = False
        for change in self.time_controls:
            if change.matches and match.id not in change.matches:
                continue
            if change.decider != decider:
                continue
            if (
                change.made_at is not None
                and started_at is not None
                and started_at < change.made_at
            ):
                continue
            tc, changed = change.time_control, True
        if decider or match.format is None:
            return tc
        place = match.format.place(number)
        if place is None or place.stage <= 0:
            return tc
        own = match.format.stages[place.stage].time_control
        if changed and tc.estimated_duration_ms() < own.estimated_duration_ms():
            return tc
        return own
