"""The pure schedule planner: every game and stanza of a play-off placed in time.

No wall clock and no I/O: every instant is an argument (timezone-aware), so the
same inputs always give the same plan. Acting on a plan when its times come is
left to the caller.

Inputs
------
- :class:`Constraints`: the main-event end of each play-off player, the break
  after the main event (GCT 2015 reg. 5: "at least 30 minutes after the
  conclusion of the last game in the main tournament involving any player in
  the play-off"), the minimum and preferred intervals between a player's games
  (reg. 5: "not less than 5 minutes and if possible at least 10 minutes"), the
  organiser's earliest start and deadline, and the estimates of game and board
  length.
- :class:`Actuals`: what happened (actual starts and ends) and what the
  arbiter decided (:class:`Overrides`: pinned starts, shortened time controls,
  postponements).
- What to place: a :class:`~playoff_formats.playoff.Playoff` (:func:`plan_playoff`)
  or bridge stanzas (:func:`plan_stanzas`). Both become :class:`Unit` values (a
  unit of play: id, entrants, duration, dependencies), and one engine places
  units (:func:`plan_units`).

Policies
--------
- **Start of the play-off.** No unit starts before ``T0``: the latest main-event
  end among the *play-off* players (others' games do not matter) plus the
  break, and not before ``not_before``. A player whose main-event end is unknown
  is covered by ``not_before`` (with a warning); without ``not_before`` the plan
  is refused (:class:`PlanError`): the mandatory break could not be checked.
- **Rounds.** Matches of a round run in parallel; a match's games are
  consecutive. As in :mod:`playoff_formats.playoff` ("matches of a later round wait until every
  match of the earlier rounds is completed"), a match of a later round starts
  when every match of the earlier rounds has ended *and* each of its players has
  had the interval after their previous game. So the matches of a round start
  together in the plan, and each may start as soon as it is allowed after a
  re-flow (a round is not forced to start in lock-step).
- **Armageddon.** A decider that is not yet known to be needed is planned
  *tentatively* (``tentative=True``) right after game 2, and everything later is
  planned pessimistically, as if it were played: the finish and the deadline
  check are then never optimistic. When a match is decided in two games its
  decider disappears from the plan and everything after moves earlier.
- **Intervals.** Each unit whose players have played before gets a chosen
  interval: the preferred one (10 minutes) when the plan still meets the
  deadline with it (or there is no deadline); else the plan with the minimum
  (5 minutes) everywhere is tried: when that misses the deadline too, every
  interval is 5 minutes (the smallest overrun) and a shortened time control is
  proposed; when it fits, intervals are raised back to 10 minutes one at a time
  in order of play (earliest first), each kept if the deadline still holds: "10
  minutes wherever the deadline allows". Each planned unit says which interval
  it uses and why (``interval``, and the reasons of ``breaks``). Never below the
  minimum, except as actually played.
- **Re-flow.** A game with an actual start is fixed there; with an actual end it
  ends there, and everything after moves (earlier or later). A running game
  without an end is expected at start + estimate; when ``now`` is given and
  that is already past, at ``now + running_late_margin``. With ``now``, nothing
  that has not started is planned before ``now``.
- **Arbiter's decisions.** A pinned start is honoured (``fixed=True``) unless it
  is earlier than a hard bound (the break after the main event, the minimum
  interval, the previous game of the match, the earlier rounds, the organiser's
  earliest start, a postponement, ``now``): then a warning is reported and the
  unit is placed at the earliest legal time. A postponement is a "not before"
  for one game, one match or everything not started. A shortened time control
  applies to the games of the named matches (or all), regular games or the
  deciders, except games that started before it was made.
- **Game length.** ``TimeControl.estimated_duration_ms(moves_estimate)``: both
  sides use all their time over ``moves_estimate`` moves. A stanza lasts
  ``boards x minutes_per_board``.
- **Proposal.** When the plan misses the deadline, the candidates (G/20+5,
  G/15+5, G/10+5, G/5+3, G/3+2 by default) are tried longest first; each is
  tried on the last round that has not begun, then the last two, and so on, and
  only where it is shorter than the time control it replaces. The first that
  meets the deadline (with 5-minute intervals, the plan then raising them to 10
  where it can) is proposed: the longest time limit that fits, changing the
  fewest and latest rounds. Rounds in which a match has begun, and deciders, are
  never changed (reg. 10 fixes the decider). When nothing fits, the proposal
  says so. Bridge stanzas have no time control: the proposal says so too.
- **Results without times.** A game with a result in the play-off but no actual
  times keeps its estimated times (status ``played``, not fixed) and a warning
  says so.
- **Citations.** ``Constraints.rule`` (default ``"reg. 5"``) is cited in the
  reasons; set it to ``""`` (or another rule) for bridge.

Modules
-------
- :mod:`~playoff_formats.schedule.model`: the inputs and the plan.
- :mod:`~playoff_formats.schedule.overrides`: the arbiter's decisions.
- :mod:`~playoff_formats.schedule.units`: games and stanzas as units of play.
- :mod:`~playoff_formats.schedule.placement`: the engine and the proposal.
- :mod:`~playoff_formats.schedule.rest`: whether a start now keeps the rests owed.
- :mod:`~playoff_formats.schedule.words`: how reasons word instants and spans.
"""

from __future__ import annotations

from playoff_formats.schedule.model import (
    Actuals,
    Break,
    BreakKind,
    Constraints,
    GameActual,
    Plan,
    PlanError,
    PlannedGame,
    Proposal,
    StanzaToPlace,
    UnitId,
    UnitKind,
    UnitStatus,
)
from playoff_formats.schedule.overrides import (
    Overrides,
    PinnedStart,
    Postponement,
    TimeControlChange,
)
from playoff_formats.schedule.placement import (
    SHORTER_TIME_CONTROLS,
    plan_playoff,
    plan_stanzas,
    plan_units,
)
from playoff_formats.schedule.rest import (
    RestBreach,
    RestKind,
    chief_time_breaches,
    rest_breaches,
)
from playoff_formats.schedule.units import (
    Entrant,
    Unit,
    playoff_units,
    stanza_units,
    stanzas_from_plan,
)

__all__ = [
    "SHORTER_TIME_CONTROLS",
    "Actuals",
    "Break",
    "BreakKind",
    "Constraints",
    "Entrant",
    "GameActual",
    "Overrides",
    "PinnedStart",
    "Plan",
    "PlanError",
    "PlannedGame",
    "Postponement",
    "Proposal",
    "RestBreach",
    "RestKind",
    "StanzaToPlace",
    "TimeControlChange",
    "Unit",
    "UnitId",
    "UnitKind",
    "UnitStatus",
    "chief_time_breaches",
    "plan_playoff",
    "plan_stanzas",
    "plan_units",
    "playoff_units",
    "rest_breaches",
    "stanza_units",
    "stanzas_from_plan",
]
