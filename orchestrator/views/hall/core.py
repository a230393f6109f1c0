"""What every part of the hall's view needs: the state, the instant, the schedule,
and how the hall names players, matches and games."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta

from orchestrator.core.state import GameKey, PlayoffState
from orchestrator.views.context import ViewContext
from orchestrator.views.hall.models import PlayerLabel
from orchestrator.views.shared import round_name, uncited, written_round_name
from playoff_formats.clock import ClockStatus
from playoff_formats.formats.said import said_match_name
from playoff_formats.playoff import Match, Playoff
from playoff_formats.schedule import Break, Entrant, Plan, PlannedGame, UnitStatus
from playoff_formats.schedule.words import instant
from playoff_formats.speech import marked, ntr, tr

__all__ = [
    "CLOCK_STATUS_TEXT",
    "DUE_WITHIN",
    "LIVE_STATUSES",
    "STANZA_DUE",
    "Core",
    "family",
    "hall_reason",
    "short_names",
    "versus",
]

LIVE_STATUSES = frozenset({ClockStatus.NOT_STARTED, ClockStatus.RUNNING, ClockStatus.PAUSED})
"""A clock in one of these is on the board: its game is shown live."""

CLOCK_STATUS_TEXT = {
    ClockStatus.NOT_STARTED.value: marked("not started"),
    ClockStatus.RUNNING.value: "",
    ClockStatus.PAUSED.value: marked("paused"),
    ClockStatus.FLAGGED.value: marked("flag fallen"),
    ClockStatus.STOPPED.value: marked("game over"),
}
"""What a game card says under its clocks, by clock status. It travels in the view
because a pause changes only the clock (its event carries the clock, not a view)."""

STANZA_DUE = marked("due now: in play once its first score is entered")
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
                self.names[label] = self.shorts[label] = tr("Winner of {match}", match=name)
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
        name = round_name(playoff, match, cited=False)
        return name if name is not None else tr("Round {number}", number=match.round)

    def match_name(self, playoff: Playoff, match: Match) -> str:
        """The round's name for the only match of its round ("Final"), else the round's
        name in the singular and the match's number in it ("Semi-final 2")."""
        alongside = [m for m in playoff.matches if (m.stage, m.round) == (match.stage, match.round)]
        if len(alongside) <= 1:
            return self.round_name(playoff, match)
        written = written_round_name(playoff, match)
        said = said_match_name(uncited(written), match.number) if written is not None else None
        if said is not None:
            return said
        # An organiser's round, in the organiser's words.
        name = self.round_name(playoff, match)
        singular = name[:-1] if name.endswith("s") else name
        return f"{singular} {match.number}"

    def game_title(self, match_id: int, number: int) -> str:
        """ "Final · Game 2": the match and the game."""
        match = self.match_names.get(match_id) or tr("Match {number}", number=match_id)
        return tr("{match} · Game {number}", match=match, number=number)



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


def versus(names: Iterable[str]) -> str:
    """Two sides face to face: "Abdusattorov v Sindarov" ("v" in the hall's language)."""
    listed = list(names)
    if len(listed) != 2:
        return " v ".join(listed)
    return tr("{first} v {second}", first=listed[0], second=listed[1])


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




_MAIN_BREAK = re.compile(r"\d+-minute break after the main event(?P<citation> \(.+\))?")
_INTERVAL = re.compile(
    r"interval between (?P<units>games|stanzas)(?::|,) ?(?P<rest>.*)"
)
_PREFERRED = re.compile(r".+, the preferred interval(?P<citation> \(.+\))?")


def hall_reason(brk: Break) -> str:
    """A break's reason as the hall reads it: what the break is and its rule, in the
    hall's language. The schedule words its reasons for the arbiters (in English,
    with the players and instants of a longer wait after a semicolon); the hall says
    the kind of break, its length and its rule, and its countdown says when play
    resumes."""
    first = brk.reason.split("; ", 1)[0]
    length = span_said(brk.required) if brk.required is not None else ""
    main = _MAIN_BREAK.fullmatch(first)
    if main is not None and brk.required is not None:
        return tr("{minutes}-minute break after the main event{citation}",
                  minutes=round(brk.required.total_seconds() / 60),
                  citation=main["citation"] or "")
    interval = _INTERVAL.fullmatch(first)
    if interval is not None:
        games = interval["units"] == "games"
        rest = interval["rest"]
        preferred = _PREFERRED.fullmatch(rest)
        if rest == "as played":
            return tr("Interval between games, as played") if games \
                else tr("Interval between stanzas, as played")
        if rest == "start set by the chief arbiter":
            return tr("Interval between games: start set by the chief arbiter") if games \
                else tr("Interval between stanzas: start set by the chief arbiter")
        if preferred is not None and length:
            citation = preferred["citation"] or ""
            return (
                tr("Interval between games: {length}, the preferred interval{citation}",
                   length=length, citation=citation) if games
                else tr("Interval between stanzas: {length}, the preferred interval{citation}",
                        length=length, citation=citation)
            )
        if rest.endswith(", the break before a new stage") and length:
            return tr("Interval between games: {length}, the break before a new stage",
                      length=length)
        if length:
            return tr("Interval between games: {length}", length=length) if games \
                else tr("Interval between stanzas: {length}", length=length)
    return first[:1].upper() + first[1:]


def span_said(delta: timedelta) -> str:
    """A length of time as the hall says it: "10 minutes", "7 min 30 s", "1 h 5 min"."""
    total = round(delta.total_seconds())
    hours, rest = divmod(abs(total), 3600)
    minutes, seconds = divmod(rest, 60)
    if hours == 0 and seconds == 0:
        return ntr("{n} minute", "{n} minutes", minutes)
    if hours and seconds:
        return tr("{hours} h {minutes} min {seconds} s", hours=hours, minutes=minutes,
                  seconds=seconds)
    if hours:
        return (tr("{hours} h {minutes} min", hours=hours, minutes=minutes) if minutes
                else tr("{hours} h", hours=hours))
    return (tr("{minutes} min {seconds} s", minutes=minutes, seconds=seconds) if minutes
            else tr("{seconds} s", seconds=seconds))
