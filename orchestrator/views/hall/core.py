"""What every part of the hall's view needs: the state, the instant, the schedule,
and how the hall names players, matches and games."""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime, timedelta

from orchestrator.core.state import GameKey, PlayoffState
from orchestrator.views.context import ViewContext
from orchestrator.views.hall.models import PlayerLabel
from orchestrator.views.shared import round_name, uncited
from playoff_formats.clock import ClockStatus
from playoff_formats.playoff import Match, Playoff
from playoff_formats.schedule import Entrant, Plan, PlannedGame, UnitStatus
from playoff_formats.schedule.words import instant

__all__ = [
    "CLOCK_STATUS_TEXT",
    "DUE_WITHIN",
    "LIVE_STATUSES",
    "STANZA_DUE",
    "Core",
    "family",
    "hall_reason",
    "short_names",
]

LIVE_STATUSES = frozenset({ClockStatus.NOT_STARTED, ClockStatus.RUNNING, ClockStatus.PAUSED})
"""A clock in one of these is on the board: its game is shown live."""

CLOCK_STATUS_TEXT = {
    ClockStatus.NOT_STARTED.value: "not started",
    ClockStatus.RUNNING.value: "",
    ClockStatus.PAUSED.value: "paused",
    ClockStatus.FLAGGED.value: "flag fallen",
    ClockStatus.STOPPED.value: "game over",
}
"""What a game card says under its clocks, by clock status. It travels in the view
because a pause changes only the clock (its event carries the clock, not a view)."""

STANZA_DUE = "due now: in play once its first score is entered"
"""A due stanza: the service knows it has begun only from its first score."""

DUE_WITHIN = timedelta(seconds=1)
"""A start this close to now is due: the schedule is planned from a reading of the
clock taken a moment after the view's own, so a game planned "now" may lie a few
milliseconds after ``ctx.now``."""

_INITIAL = re.compile(r"^\w\.?$|^(?:\w\.)+$")
"""A given name's initial ("R", "J.", "J.K."), dropped from a short name."""


class Core:
    """One view being computed: the state, the instant, and the schedule."""

    def __init__(self, state: PlayoffState, ctx: ViewContext) -> None:
        self.state = state
        self.ctx = ctx
        self.plan: Plan | None = ctx.plan
        self.names = dict(state.names)
        self.shorts = short_names(state.names)
        self.match_names: dict[int, str] = {}
        if state.playoff is not None:
            playoff = state.playoff
            self.match_names = {m.id: self.match_name(playoff, m) for m in playoff.matches}
            for match_id, name in self.match_names.items():
                # The schedule names a place still to fill by its entrant's label.
                label = Entrant(winner_of=match_id).label
                self.names[label] = self.shorts[label] = f"Winner of {name}"
        self.in_play: set[GameKey] = {
            key for key in state.started_at if key not in state.ended_at
        }

    def ms(self, moment: datetime) -> int:
        """An instant of the schedule on the server-ms scale of the clocks."""
        return self.ctx.server_ms + round((moment - self.ctx.now).total_seconds() * 1000)

    def at(self, moment: datetime) -> str:
        """The hall's time of day of an instant: ``13:02``."""
        return instant(moment, self.state.zone)

    # ------------------------------------------------------------------ the whole

    def name(self, who: str) -> str:
        """The name of a player or team, "Winner of Final" for a place to fill."""
        return self.names.get(who, who)

    def short(self, who: str) -> str:
        return self.shorts.get(who) or self.name(who)

    def player(self, who: str | None) -> PlayerLabel:
        if who is None:
            return PlayerLabel(id=None, name="", short="")
        seed = None
        known = who in self.state.names
        if self.state.playoff is not None and known:
            try:
                seed = self.state.playoff.seed_of(who)
            except KeyError:
                seed = None
        return PlayerLabel(
            id=who if known else None, name=self.name(who), short=self.short(who), seed=seed
        )

    def round_name(self, playoff: Playoff, match: Match) -> str:
        """The round's name as the hall says it: "Final", "Seeds 2 v 3" (no citation)."""
        name = round_name(playoff, match)
        return uncited(name) if name is not None else f"Round {match.round}"

    def match_name(self, playoff: Playoff, match: Match) -> str:
        """The round's name for the only match of its round ("Final"), else the round's
        name in the singular and the match's number in it ("Semi-final 2")."""
        name = self.round_name(playoff, match)
        alongside = [m for m in playoff.matches if (m.stage, m.round) == (match.stage, match.round)]
        if len(alongside) <= 1:
            return name
        singular = name[:-1] if name.endswith("s") else name
        return f"{singular} {match.number}"

    def game_title(self, match_id: int, number: int) -> str:
        """ "Final · Game 2": the match and the game."""
        return f"{self.match_names.get(match_id, f'Match {match_id}')} · Game {number}"



    def planned(self) -> Sequence[PlannedGame]:
        return self.plan.games if self.plan is not None else ()

    def estimated(self, planned: PlannedGame) -> bool:
        """The planned start waits on a game in play (see the rules)."""
        busy_players: set[str] = set()
        busy_matches: set[int] = set()
        for g in self.planned():
            if g.status is UnitStatus.RUNNING:
                busy_players.update(g.players)
                busy_matches.add(g.match)
        if not busy_matches:
            return False
        waits_for = {Entrant(winner_of=m).label for m in busy_matches}
        return (
            planned.match in busy_matches
            or bool(busy_players & set(planned.players))
            or bool(waits_for & set(planned.players))
        )


def short_names(names: dict[str, str]) -> dict[str, str]:
    """Each player's short name (see the rules); the full name where two would share one."""
    shorts = {who: family(name) for who, name in names.items()}
    taken: dict[str, int] = {}
    for short in shorts.values():
        taken[short] = taken.get(short, 0) + 1
    return {
        who: short if taken[short] == 1 else names[who] for who, short in shorts.items()
    }


def family(name: str) -> str:
    """ "Abdusattorov, Nodirbek" → "Abdusattorov"; "Praggnanandhaa R" → "Praggnanandhaa"."""
    if "," in name:
        family = name.split(",", 1)[0].strip()
        return family or name
    words = name.split()
    while len(words) > 1 and _INITIAL.match(words[-1]):
        words.pop()
    return " ".join(words) or name




def hall_reason(reason: str) -> str:
    """A break's reason as the hall reads it: what the break is and its rule. The
    schedule explains a longer wait after a semicolon, with the players and instants
    for the arbiters; the hall's countdown already says when play resumes."""
    first = reason.split("; ", 1)[0]
    return first[:1].upper() + first[1:]
