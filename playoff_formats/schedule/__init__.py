"""The pure schedule planner: every game and stanza of a play-off placed in time.

No wall clock and no I/O: every instant is an argument. Its inputs, outputs and
policies: docs/rules-notes.md (The schedule planner).

- :mod:`~playoff_formats.schedule.model`: the inputs and the plan.
- :mod:`~playoff_formats.schedule.overrides`: the arbiter's decisions.
- :mod:`~playoff_formats.schedule.units`: games and stanzas as units of play.
- :mod:`~playoff_formats.schedule.placement`: the engine and the proposal.
- :mod:`~playoff_formats.schedule.rest`: whether a start now keeps the rests owed.
- :mod:`~playoff_formats.schedule.reasons`: the planner's reasons, as data.
- :mod:`~playoff_formats.schedule.words`: how reasons are put in words.
"""

from __future__ import annotations

from playoff_formats.schedule.model import (
    Actuals,
    Break,
    BreakKind,
    Constraints,
    GameActual,
    Moment,
    Plan,
    PlanError,
    PlannedGame,
    Proposal,
    StanzaToPlace,
    UnitId,
    UnitKind,
    UnitStatus,
    written_in,
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
from playoff_formats.schedule.reasons import Notice, NoticeKind, Problem, ProblemKind
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
    "Moment",
    "Notice",
    "NoticeKind",
    "Overrides",
    "PinnedStart",
    "Plan",
    "PlanError",
    "PlannedGame",
    "Postponement",
    "Problem",
    "ProblemKind",
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
    "written_in",
]
