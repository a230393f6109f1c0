"""What the schedule planner is given and what it gives back.

Every instant is timezone-aware; durations are :class:`~datetime.timedelta`.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta, tzinfo
from enum import StrEnum
from typing import Annotated, Any, Self

from pydantic import (
    AwareDatetime,
    Field,
    PrivateAttr,
    SerializationInfo,
    SerializerFunctionWrapHandler,
    WrapSerializer,
    model_validator,
)

from playoff_formats.errors import PlayoffError
from playoff_formats.model import Frozen, TimeZoneName
from playoff_formats.phrase import Phrase, Player, Said
from playoff_formats.schedule.overrides import Overrides, TimeControlChange
from playoff_formats.schedule.reasons import Problem, ProblemKind
from playoff_formats.speech import marked
from playoff_formats.zones import fixed_zone, zone_of

__all__ = [
    "Actuals",
    "Break",
    "BreakKind",
    "Constraints",
    "GameActual",
    "Moment",
    "Plan",
    "PlanError",
    "PlannedGame",
    "Proposal",
    "StanzaToPlace",
    "UnitId",
    "UnitKind",
    "UnitStatus",
    "written_in",
]

UnitId = tuple[int, int]
"""(match id, game or stanza number)."""


class PlanError(PlayoffError):
    """Inputs that cannot be planned (HTTP 422): the problem says what to fix.

    ``problem`` is the reason as data; the sentence names the players by
    ``names`` (the constraints' names), as every sentence of the planner does.
    """

    def __init__(self, problem: Problem, names: Mapping[str, str] | None = None) -> None:
        self.problem = problem
        super().__init__(refusal(problem, names or {}))


def _listed(who: tuple[Player, ...], names: Mapping[str, str]) -> Phrase:
    """The players, each by the name given (a player not named here is named by the
    door that shows the refusal, else by id), "A, B and C" in the language in force."""
    items: list[str | Player] = [names.get(p.id, p) for p in who]
    if len(items) <= 1:
        return Phrase(tuple(items))
    first: list[str | Player] = []
    for item in items[:-1]:
        first.extend((", ", item) if first else (item,))
    return Said.tr("{first} and {last}", first=Phrase(tuple(first)), last=items[-1])


def _unit(
    match: int, number: int, stanza: bool, game: str, of_stanza: str, /, **params: Any
) -> Phrase:
    """One of two whole messages, as the unit is a game or a stanza."""
    return Said.tr(of_stanza if stanza else game, match=match, number=number, **params)


_MISSING = {
    ProblemKind.ACTUAL_FOR_UNKNOWN_GAME: marked(
        "actual times are given for game {game} of match {match}, which the plan does not have"
    ),
    ProblemKind.PIN_FOR_UNKNOWN_GAME: marked(
        "a start is pinned for game {game} of match {match}, which the plan does not have"
    ),
    ProblemKind.POSTPONEMENT_FOR_UNKNOWN_MATCH: marked(
        "a postponement names match {match}, which the plan does not have"
    ),
    ProblemKind.POSTPONEMENT_FOR_UNKNOWN_GAME: marked(
        "a postponement names game {game} of match {match}, which the plan does not have"
    ),
    ProblemKind.CHANGE_FOR_UNKNOWN_MATCH: marked(
        "a time control change names match {match}, which is not a played match of this "
        "play-off"
    ),
    ProblemKind.STANZA_TEAMS: marked(
        "the stanzas of match {match} must be played by the same two teams"
    ),
    ProblemKind.STANZA_ROUND: marked("the stanzas of match {match} must be in the same round"),
}
"""The refusals that name a match (and a game), by kind."""

_PLAIN = {
    ProblemKind.NOTHING_TO_PLACE: marked("there is nothing to place"),
    ProblemKind.BEYOND_THE_CALENDAR: marked(
        "the schedule would run past the last date a calendar holds (the year 9999): "
        "check the play-off's dates, durations and postponements"
    ),
    ProblemKind.NO_STANZA: marked("there is no stanza to place"),
    ProblemKind.NO_SET: marked("at least one set of extra boards"),
    ProblemKind.NAIVE_NOW: marked("now must be timezone-aware"),
    ProblemKind.BRIDGE_TIME_CONTROL: marked("bridge stanzas have no time control to change"),
    ProblemKind.STANZA_TWICE: marked("a stanza of a match is listed twice"),
}
"""The refusals that name nothing, by kind."""


def refusal(about: Problem, names: Mapping[str, str]) -> Phrase:
    """Why the planner refuses its inputs, said in the language of the door that shows
    it: the players by the names given (``names``), the others by the door's."""
    kind = about.kind
    if kind in _PLAIN:
        return Said.tr(_PLAIN[kind])
    if kind in _MISSING:
        return Said.tr(_MISSING[kind], match=about.match, game=about.game)
    match, game = about.match or 0, about.game or 0
    if kind is ProblemKind.MAIN_EVENT_END_UNKNOWN:
        return Said.tr(
            "the end of the last main-event game of {players} is unknown: give it, or an "
            "earliest start (not_before), so that the break after the main event can be "
            "kept",
            players=_listed(about.players, names),
        )
    if kind is ProblemKind.UNIT_TWICE:
        return _unit(match, game, about.stanza,
                     marked("game {number} of match {match} appears twice"),
                     marked("stanza {number} of match {match} appears twice"))
    before = about.after or (0, 0)
    return _unit(
        match, game, about.stanza,
        marked("game {number} of match {match} depends on game {before_game} of match "
               "{before_match}, which is not placed before it"),
        marked("stanza {number} of match {match} depends on game {before_game} of match "
               "{before_match}, which is not placed before it"),
        before_game=before[1], before_match=before[0],
    )


# --- inputs ---------------------------------------------------------------------


class Constraints(Frozen):
    """What the regulations and the organiser impose on the schedule."""

    main_event_ended: dict[str, AwareDatetime] = Field(
        default_factory=dict,
        description="Per player (or team) id: the end of their last main-event game",
    )
    break_after_main_event: timedelta = Field(default=timedelta(minutes=30))
    min_interval: timedelta = Field(default=timedelta(minutes=5))
    preferred_interval: timedelta = Field(default=timedelta(minutes=10))
    stage_interval: timedelta | None = Field(
        default=None, description="The least interval before a new stage of a match"
    )
    stage_preferred_interval: timedelta | None = Field(
        default=None, description="The interval kept where possible before a new stage"
    )
    not_before: AwareDatetime | None = None
    deadline: AwareDatetime | None = None
    moves_estimate: int = Field(default=60, ge=1)
    minutes_per_board: float = Field(default=7.5, gt=0)
    running_late_margin: timedelta = Field(
        default=timedelta(minutes=5),
        description="A running game past its estimate is expected this long after now",
    )
    rule: str = Field(default="reg. 5", description="Cited for the break and the intervals")
    time_zone: TimeZoneName | None = Field(
        default=None,
        description="The event's IANA time zone: times of day in words are said in it",
    )
    utc_offset: timedelta = Field(
        default=timedelta(0),
        description="The hall's fixed offset from UTC, where no time zone is named",
    )
    names: dict[str, str] = Field(
        default_factory=dict, description="Player (or team) names by id, for the words"
    )

    @property
    def zone(self) -> tzinfo:
        """The zone every time of day is said in: the named one, else the fixed offset."""
        return zone_of(self.time_zone, self.utc_offset)

    @model_validator(mode="after")
    def _consistent(self) -> Self:
        zero = timedelta(0)
        if self.break_after_main_event < zero or self.running_late_margin < zero:
            raise ValueError("breaks and margins cannot be negative")
        if self.min_interval < zero:
            raise ValueError("the minimum interval cannot be negative")
        if self.preferred_interval < self.min_interval:
            raise ValueError("the preferred interval cannot be shorter than the minimum")
        return self


class GameActual(Frozen):
    """When a game (or stanza) actually started, and ended if it has."""

    match: int = Field(ge=1)
    game: int = Field(ge=1)
    started_at: AwareDatetime
    ended_at: AwareDatetime | None = None

    @model_validator(mode="after")
    def _ordered(self) -> Self:
        if self.ended_at is not None and self.ended_at < self.started_at:
            raise ValueError("a game cannot end before it starts")
        return self


class Actuals(Frozen):
    """What happened so far, and the arbiter's decisions about the schedule.

    A game has at most one record of actual times and at most one pinned start.
    """

    games: tuple[GameActual, ...] = ()
    overrides: Overrides = Field(default_factory=Overrides)

    @model_validator(mode="after")
    def _unique(self) -> Self:
        for what, ids in (
            ("actual times", [(a.match, a.game) for a in self.games]),
            ("pinned starts", [(p.match, p.game) for p in self.overrides.pins]),
        ):
            if len(set(ids)) != len(ids):
                raise ValueError(f"a game has two {what}")
        return self


class StanzaToPlace(Frozen):
    """A stanza of extra boards (bridge) to place."""

    match: int = Field(ge=1)
    stanza: int = Field(ge=1)
    boards: int = Field(ge=1)
    teams: tuple[str, str]
    round: int = Field(default=1, ge=1)
    tentative: bool = False


# --- outputs ----------------------------------------------------------------------

_ZONE = "zone"
"""The serialization context's key for the zone a plan's instants are written in."""


def _in_zone(
    moment: datetime, handler: SerializerFunctionWrapHandler, info: SerializationInfo
) -> Any:
    # Instants are kept and computed in UTC (a datetime in a zone with daylight-saving
    # time subtracts wall-clock times); only what is written out is in the zone.
    zone = info.context.get(_ZONE) if isinstance(info.context, dict) else None
    if zone is None or not info.mode_is_json():
        return handler(moment)
    return moment.astimezone(zone).isoformat()


Moment = Annotated[datetime, WrapSerializer(_in_zone)]
"""An instant of the plan (UTC), written in JSON with the offset of the plan's zone in
force at that instant (``2026-10-25T01:30:00+01:00``) by :meth:`Plan.as_json`, or by
any model dumped with :func:`written_in`'s context."""


def written_in(zone: tzinfo | None) -> dict[str, Any] | None:
    """The serialization context that writes every :data:`Moment` in ``zone`` (None:
    in UTC, as pydantic writes it)."""
    return None if zone is None else {_ZONE: zone}


class UnitKind(StrEnum):
    REGULAR = "regular"
    ARMAGEDDON = "armageddon"
    SUDDEN_DEATH = "sudden-death"
    STANZA = "stanza"


class UnitStatus(StrEnum):
    PLAYED = "played"
    RUNNING = "running"
    PLANNED = "planned"


class PlannedGame(Frozen):
    """A game or stanza in time. ``fixed``: an actual start, or pinned by the arbiter."""

    match: int
    game: int
    kind: UnitKind
    round: int
    round_name: str = ""
    players: tuple[str, str]
    start: Moment
    end: Moment
    fixed: bool
    tentative: bool = False
    status: UnitStatus
    time_control: str | None = None
    boards: int | None = None
    duration: timedelta
    interval: timedelta | None = Field(
        default=None, description="The interval chosen before it (None: first game, or fixed)"
    )
    reason: str


class BreakKind(StrEnum):
    MAIN_EVENT = "main-event"
    INTERVAL = "interval"


class Break(Frozen):
    """Who rests, from when to when, and why. ``required`` is the rest that applied."""

    who: tuple[str, ...]
    start: Moment
    end: Moment
    kind: BreakKind
    required: timedelta | None = None
    reason: str


class Proposal(Frozen):
    """A shortened time control that meets the deadline, or why there is none."""

    found: bool
    time_control: str | None = None
    rounds: tuple[int, ...] = ()
    matches: tuple[int, ...] = ()
    finish: Moment | None = None
    change: TimeControlChange | None = None
    text: str


class Plan(Frozen):
    """Every unit in time, the breaks, and how the plan stands against the deadline."""

    games: tuple[PlannedGame, ...]
    breaks: tuple[Break, ...]
    break_over: Moment | None = Field(
        default=None,
        description="End of the mandatory break after the main event (None: no end known)",
    )
    earliest_start: Moment = Field(
        description="When the play-off may begin: the break over and not before not_before"
    )
    start: Moment
    finish: Moment
    deadline: Moment | None = None
    fits: bool | None = None
    overrun: timedelta = timedelta(0)
    proposal: Proposal | None = None
    warnings: tuple[str, ...] = ()
    time_zone: str | None = Field(
        default=None,
        description="The IANA time zone every instant of the plan is written in (None: a "
        "fixed offset from UTC, where the play-off names no zone)",
    )
    _zone: tzinfo = PrivateAttr(default_factory=lambda: fixed_zone(timedelta(0)))

    def in_zone(self, zone: tzinfo) -> Plan:
        """The same plan, written in ``zone`` (:meth:`as_json`)."""
        plan = self.model_copy()
        plan._zone = zone
        return plan

    @property
    def zone(self) -> tzinfo:
        return self._zone

    def as_json(self) -> dict[str, Any]:
        """The plan as the API gives it: every instant with the offset of the zone in
        force at that instant, and the zone named. A plan whose play-off names no zone
        (a log written before zones) is written in UTC, as it always was."""
        context = written_in(self._zone if self.time_zone is not None else None)
        written: dict[str, Any] = self.model_dump(mode="json", context=context)
        return written

    def game(self, match: int, number: int) -> PlannedGame:
        for g in self.games:
            if g.match == match and g.game == number:
                return g
        raise KeyError((match, number))
