"""The current state of events and play-offs: plain values, folded from the log.

Two kinds of stream live in the log:

* ``event-{id}``: a main event uploaded by its chief arbiter, with the tokens
  issued for it and the play-offs created from it (:class:`EventState`);
* ``playoff-{id}``: everything that happens in one play-off (:class:`PlayoffState`).

The states are immutable; :mod:`orchestrator.core.events` gives the next one for each
logged event. Nothing here reads a clock or the log.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta, tzinfo
from typing import TYPE_CHECKING, Literal, NamedTuple

from orchestrator.core.auth import TokenRecord
from playoff_formats.clock import Clock
from playoff_formats.errors import PlayoffError
from playoff_formats.extra_boards import ExtraBoards
from playoff_formats.foresight import PendingGame
from playoff_formats.formats import PlayoffFormat
from playoff_formats.model import Colour, Event
from playoff_formats.playoff import Game, Match, Playoff
from playoff_formats.schedule import Overrides
from playoff_formats.timecontrol import TimeControl
from playoff_formats.zones import zone_of

if TYPE_CHECKING:
    from orchestrator.core.events import PlayoffEventBase

__all__ = [
    "ArbiterChange",
    "Draw",
    "DrawKind",
    "EventState",
    "GameKey",
    "PlayoffState",
    "event_stream",
    "playoff_stream",
]

GameKey = tuple[int, int]
"""(match id, game number); for bridge extra boards (1, stanza number)."""

DrawKind = Literal["lots", "coin-toss"]


def event_stream(event_id: str) -> str:
    return f"event-{event_id}"


def playoff_stream(playoff_id: str) -> str:
    return f"playoff-{playoff_id}"


@dataclass(frozen=True, slots=True)
class EventState:
    """A main event as uploaded, with its tokens and play-offs."""

    id: str
    seq: int
    event: Event
    tokens: tuple[TokenRecord, ...] = ()
    playoffs: tuple[str, ...] = ()
    pending: tuple[PendingGame, ...] = ()
    """Games paired but not yet finished: ``event`` holds the finished ones only."""
    hall_foresight: bool = False
    """The chief arbiter shows the play-off watch on the hall display."""

    @property
    def final(self) -> bool:
        """Every game has its result: the standings are final."""
        return not self.pending


@dataclass(frozen=True, slots=True)
class Draw:
    """A lot or coin toss as logged: what for, its outcome, and how it was made.

    ``record`` is the published draw: a commit-reveal record (commitment, seed,
    outcome) that anyone can check, or the record of a physical draw.
    """

    seq: int
    kind: DrawKind
    match: int
    record: dict[str, object]
    white: str | None = None
    black: str | None = None
    winner: str | None = None
    game: int = 1
    """The game a drawing of lots is for (the first game of its stage)."""


@dataclass(frozen=True, slots=True)
class ArbiterChange:
    """A change an arbiter made by hand, as listed for everyone to see."""

    seq: int
    recorded_at: datetime
    actor: str | None
    event: PlayoffEventBase
    """One of :data:`~orchestrator.core.events.ARBITER_CHANGE_EVENTS`."""


class Move(NamedTuple):
    """A move read from an e-board: UCI (``e2e4``, ``e7e8q``) and SAN (``e4``)."""

    uci: str
    san: str


@dataclass(frozen=True, slots=True)
class PlayoffState:
    """One play-off: its bracket and results, its clocks, and what the schedule needs."""

    id: str
    event_id: str
    seq: int
    regulation: str
    playoff: Playoff | None
    names: dict[str, str]
    main_event_ended: dict[str, datetime]
    prizes: tuple[str, ...] = ()
    points: tuple[str, ...] = ()
    deadline: datetime | None = None
    not_before: datetime | None = None
    started_at: dict[GameKey, datetime] = field(default_factory=dict)
    ended_at: dict[GameKey, datetime] = field(default_factory=dict)
    overrides: Overrides = field(default_factory=Overrides)
    draws: tuple[Draw, ...] = ()
    fired: frozenset[str] = frozenset()
    clocks: dict[GameKey, Clock] = field(default_factory=dict)
    extra: ExtraBoards | None = None
    changes: tuple[ArbiterChange, ...] = ()
    updated_at: datetime | None = None
    utc_offset: timedelta = timedelta(0)
    """The hall's fixed offset from UTC: the zone of a play-off that names none (a log
    written before time zones)."""
    time_zone: str | None = None
    """The event's IANA time zone (``Asia/Tashkent``): every time of day is said in it."""
    called: dict[GameKey, int] = field(default_factory=dict)
    """Games whose board called the arbiter: the instant (server ms); until an arbiter
    resumes the clock."""
    board_left: dict[int, Colour] = field(default_factory=dict)
    """The colour on the left half of each match's board clock (White unless set)."""
    outages: dict[GameKey, tuple[int, int]] = field(default_factory=dict)
    """Games whose board came back from an outage longer than allowed: since when
    (server ms) and the presses it held; until an arbiter sets the clock."""
    moves: dict[GameKey, tuple[Move, ...]] = field(default_factory=dict)
    """The moves read from each game's e-board, in order."""
    times: dict[GameKey, dict[tuple[Colour, int], int]] = field(default_factory=dict)
    """Each game's time left to the mover after each press, by (side, move): the
    board's clock where it sent its reading (a DGT clock), else the service's."""
    clock_gaps: dict[GameKey, tuple[Colour, int]] = field(default_factory=dict)
    """Games whose board's clock and the service's last differed by more than the
    allowance after a press: the side, and the board's minus the service's (ms)."""
    unread: dict[int, str] = field(default_factory=dict)
    """Matches whose e-board settled on a position no legal move reaches: its piece
    placement, until the next position read."""
    eboards: dict[str, int] = field(default_factory=dict)
    """Which e-board (by serial number) plays which match."""

    @property
    def zone(self) -> tzinfo:
        """The zone every time of day of the play-off is said in: the named one, with
        the offset in force at each instant; else the fixed offset."""
        return zone_of(self.time_zone, self.utc_offset)

    @property
    def chess(self) -> Playoff:
        """The chess play-off; refused for a bridge extra-board contest."""
        if self.playoff is None:
            raise PlayoffError("this play-off is bridge extra boards, not chess games")
        return self.playoff

    @property
    def format(self) -> PlayoffFormat:
        """The chess play-off's format: its breaks and the rules it cites."""
        return self.chess.rules

    @property
    def extra_boards(self) -> ExtraBoards:
        if self.extra is None:
            raise PlayoffError("this play-off has no bridge extra boards")
        return self.extra

    @property
    def moved_starts(self) -> dict[GameKey, datetime]:
        """Starts the arbiter moved (or postponed), by game."""
        return {(p.match, p.game): p.start for p in self.overrides.pins}

    def begun(self, match_id: int) -> bool:
        """A game of the match has started (its time control can no longer change)."""
        return any(key[0] == match_id for key in self.started_at)

    def time_control(self, match: Match, game: Game | int) -> TimeControl | None:
        """The time control a game is played at, after any shortening by the arbiter."""
        number = game if isinstance(game, int) else game.number
        found = self.chess.game(match.id, number)
        kind = found.kind if found is not None else match.kind_of(number)
        base = match.decider if kind.decider else match.time_control
        if base is None:
            return None
        return self.overrides.time_control_for(
            match, number, kind, self.started_at.get((match.id, number))
        )

    def draws_of(self, kind: DrawKind, match_id: int) -> tuple[Draw, ...]:
        return tuple(d for d in self.draws if d.kind == kind and d.match == match_id)
