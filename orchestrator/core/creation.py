"""Creating play-offs: the bracket the regulation prescribes, seeded by its tiebreaks.

Pure functions from a main event (and its standings) to the event that creates a
play-off's stream; the service logs it. Randomness (lots between players level
after every tiebreak) and the time are arguments.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from orchestrator.core.events import ExtraBoardsCreated, PlayoffCreated
from playoff_formats import lots
from playoff_formats.builders.format import build_playoff
from playoff_formats.builders.stanzas import extra_boards
from playoff_formats.errors import PlayoffError
from playoff_formats.formats import PlayoffFormat
from playoff_formats.model import Event, IndividualEvent, TeamEvent, TeamMatch
from playoff_formats.scoring import imps
from playoff_formats.standings import Standings
from playoff_formats.zones import offset_at, zone_of

__all__ = [
    "PlayoffOptions", "chosen_zone", "extra_boards_created", "imp_margin", "playoff_created",
    "seeds_by_lots",
]


@dataclass(frozen=True)
class PlayoffOptions:
    """What the chief arbiter chooses when creating a play-off."""

    prizes: tuple[str, ...] = ()
    points: tuple[str, ...] = ()
    deadline: datetime | None = None
    not_before: datetime | None = None
    generic: bool = False
    format: PlayoffFormat | None = None
    """The organiser's own play-off format, in place of the regulation's."""
    time_zone: str | None = None
    """The chief arbiter's time zone for the play-off, in place of the event's."""


def chosen_zone(
    *names: str | None, fallback: timedelta, now: datetime
) -> tuple[str | None, timedelta]:
    """The play-off's time zone: the first of ``names`` given (the chief arbiter's, the
    event's, the regulation's), with its offset now; with none, no name and the hall's
    fixed offset (``fallback``)."""
    for name in names:
        if name is not None:
            return name, offset_at(zone_of(name, fallback), now)
    return None, fallback


def playoff_created(
    playoff_id: str,
    event_id: str,
    event: Event,
    standings: Standings,
    options: PlayoffOptions,
    now: datetime,
    new_seed: Callable[[], bytes],
    utc_offset: timedelta = timedelta(0),
    prescribed: PlayoffFormat | None = None,
    regulation_zone: str | None = None,
) -> PlayoffCreated:
    """The play-off a tie for first requires, in the format the regulation prescribes
    (``prescribed``) or the organiser's own (``options.format``), in the time zone the
    chief arbiter chose, else the event's, else the regulation's (``regulation_zone``),
    else at the hall's fixed ``utc_offset``."""
    if not standings.playoff:
        raise PlayoffError("nobody is tied for first place: there is no play-off to create")
    format = options.format or prescribed
    if format is None or not isinstance(event, IndividualEvent):
        raise PlayoffError(
            f"{standings.regulation} prescribes no play-off format this service can build; "
            "give the organiser's own format"
        )
    seeds, seeding_draw = seeds_by_lots(playoff_id, standings, new_seed)
    playoff = build_playoff(
        format, seeds, generic=options.generic, playoff_id=playoff_id, name=event.name
    )
    zone, offset = chosen_zone(
        options.time_zone, event.time_zone, regulation_zone, fallback=utc_offset, now=now
    )
    # A player whose last game has no end time is taken to have finished when the
    # play-off is created: the arbiter creates it after the last game.
    ended: dict[str, datetime] = dict.fromkeys(seeds, now)
    known: set[str] = set()
    for game in event.games:
        if game.ended_at is None:
            continue
        for player in (game.white, game.black):
            if player in seeds and (player not in known or game.ended_at > ended[player]):
                ended[player] = game.ended_at
                known.add(player)
    return PlayoffCreated(
        id=playoff_id,
        event_id=event_id,
        regulation=standings.regulation,
        playoff=playoff,
        names={p: event.player(p).name for p in seeds},
        main_event_ended=ended,
        prizes=options.prizes,
        points=options.points,
        deadline=options.deadline,
        not_before=options.not_before,
        seeding_draw=tuple(seeding_draw),
        utc_offset=offset,
        time_zone=zone,
    )


def seeds_by_lots(
    playoff_id: str, standings: Standings, new_seed: Callable[[], bytes]
) -> tuple[list[str], list[dict[str, Any]]]:
    """The seeds in tiebreak order; players level after every criterion drawn by lots."""
    seeds: list[str] = []
    draws: list[dict[str, Any]] = []
    chosen = set(standings.playoff)
    for group in standings.groups:
        members = [p for p in group if p in chosen]
        if len(members) > 1:
            seed = new_seed()
            purpose = f"play-off {playoff_id}: seeding of players level after every tiebreak"
            announced = lots.announce(lots.DrawKind.ORDER, purpose, members, lots.commit(seed))
            revealed = lots.reveal(announced, seed)
            assert isinstance(revealed.outcome, lots.DrawOrder)
            members = list(revealed.outcome.order)
            draws.append(revealed.model_dump(mode="json"))
        seeds.extend(members)
    return seeds, draws


def imp_margin(match: TeamMatch, team: str) -> float:
    """``team``'s IMP margin in a bridge match: its ``imps`` as given, else the IMPs of
    its boards (each board's net score from the home team's side, on the WBF scale)."""
    if match.imps is not None:
        home, away = match.imps
    else:
        home = away = 0
        for net in match.bridge_boards:
            won = imps(net)
            home += max(won, 0)
            away += max(-won, 0)
    margin = home - away
    return margin if team == match.home else -margin


def extra_boards_created(
    playoff_id: str,
    event_id: str,
    event: Event,
    home: str,
    away: str,
    scheduled: int,
    competition: str | None,
    stage_boards: int | None,
    now: datetime,
    utc_offset: timedelta = timedelta(0),
    existing: Sequence[tuple[str, str]] = (),
    time_zone: str | None = None,
    regulation_zone: str | None = None,
) -> ExtraBoardsCreated:
    """Extra boards for a tied bridge knock-out match (EBU 143.2.1).

    Refused unless the latest match between the two teams in the event is tied on
    IMPs, and refused for a pair that already has its extra boards (``existing``:
    the teams of the extra-board contests created from the event). Their time zone
    is the chief arbiter's (``time_zone``), else the event's, else the regulation's.
    """
    if not isinstance(event, TeamEvent) or not event.is_bridge:
        raise PlayoffError("extra boards are for a bridge team event")
    teams = {t.id: t.name for t in event.teams}
    for team in (home, away):
        if team not in teams:
            raise PlayoffError(f"no team {team!r} in event {event_id!r}")
    if home == away:
        raise PlayoffError("a team cannot play itself")
    pair = {home, away}
    if any(set(teams_of_contest) == pair for teams_of_contest in existing):
        raise PlayoffError(
            f"{teams[home]} and {teams[away]} already have their extra boards: a tie after "
            "them is played on in the same contest (EBU 143.2.1)"
        )
    played = [m for m in event.matches if {m.home, m.away} == pair]
    if not played:
        raise PlayoffError(f"{teams[home]} and {teams[away]} played no match in this event")
    margin = imp_margin(played[-1], home)
    if margin != 0:
        leader = home if margin > 0 else away
        raise PlayoffError(
            f"the match is not tied: {teams[leader]} won it by {abs(margin):g} IMPs, so no "
            "extra boards are played (EBU 143.2.1)"
        )
    plan = extra_boards(scheduled, event=competition, stage_boards=stage_boards)
    zone, offset = chosen_zone(
        time_zone, event.time_zone, regulation_zone, fallback=utc_offset, now=now
    )
    return ExtraBoardsCreated(
        id=playoff_id,
        event_id=event_id,
        rule=plan.rule,
        home=home,
        away=away,
        names={home: teams[home], away: teams[away]},
        plan=plan,
        scheduled=scheduled,
        not_before=now,
        utc_offset=offset,
        time_zone=zone,
    )
