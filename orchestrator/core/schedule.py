"""The schedule of a play-off as it stands: the pure planner fed from the state.

The planner (:mod:`playoff_formats.schedule`) takes the format's breaks, the
actual starts and ends, and the arbiter's overrides as the state holds them
(:class:`~playoff_formats.schedule.Overrides`, one model for both), and the time
now: the schedule re-flows as games end early or late.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from orchestrator.core.state import PlayoffState
from playoff_formats.errors import PlayoffError
from playoff_formats.schedule import (
    Actuals,
    Constraints,
    GameActual,
    Plan,
    StanzaToPlace,
    plan_playoff,
    plan_stanzas,
)
from playoff_formats.zones import zone_or_none

__all__ = ["constraints", "plan", "planned_start", "previous_ends", "rest_rule"]


def rest_rule(state: PlayoffState) -> str:
    """The format's rule for the breaks, as cited to arbiters."""
    return "" if state.extra is not None else state.format.breaks.rule


def constraints(state: PlayoffState) -> Constraints:
    """What the format and the organiser impose on this play-off's schedule."""
    limits = Constraints(
        main_event_ended=state.main_event_ended,
        not_before=state.not_before,
        deadline=state.deadline,
        # A zone this machine cannot read (older zone data) is said at the fixed offset.
        time_zone=state.time_zone if zone_or_none(state.time_zone or "") else None,
        utc_offset=state.utc_offset,
        names=state.names,
    )
    if state.playoff is None:
        return limits
    breaks = state.format.breaks
    rule = breaks.rule
    # Inside its own regulation's words a rule is cited short: "reg. 5".
    short = rule[rule.find("reg"):] if rule.find("reg") > 0 else rule
    return limits.model_copy(update={
        "break_after_main_event": breaks.before,
        "min_interval": breaks.interval,
        "preferred_interval": breaks.preferred,
        "stage_interval": breaks.stage_interval,
        "stage_preferred_interval": breaks.stage_preferred,
        "rule": short,
    })


def previous_ends(state: PlayoffState) -> dict[str, datetime]:
    """Each player's end of their latest play-off game that has ended."""
    ends: dict[str, datetime] = {}
    if state.playoff is None:
        return ends
    for game in state.playoff.games:
        ended = state.ended_at.get((game.match, game.number))
        if ended is None or game.result is None:
            continue
        for player in (game.white, game.black):
            if player is not None and (player not in ends or ended > ends[player]):
                ends[player] = ended
    return ends


def plan(state: PlayoffState, now: datetime) -> Plan:
    """Every game (or stanza) of the play-off in time, as of ``now``.

    :class:`~playoff_formats.errors.PlayoffError` (or ``ValueError``) when the
    inputs cannot be planned.
    """
    limits = constraints(state)
    games = tuple(
        GameActual(match=key[0], game=key[1], started_at=start, ended_at=state.ended_at.get(key))
        for key, start in sorted(state.started_at.items())
    )
    if state.extra is not None:
        extra = state.extra
        teams = (extra.home, extra.away)
        per_set = len(extra.plan.stanzas)
        sizes = list(extra.stanzas)
        if extra.winner is None:
            sizes += extra.plan.stanzas[(extra.current - 1) % per_set + 1 :]
        stanzas = tuple(
            StanzaToPlace(match=1, stanza=n, boards=size, teams=teams)
            for n, size in enumerate(sizes, start=1)
        )
        # Extra boards follow the match at once (EBU 143.2.1), and a stanza follows the
        # previous one: the teams change tables or partners, with no chess interval.
        bridge = limits.model_copy(update={
            "break_after_main_event": timedelta(0), "rule": "",
            "min_interval": timedelta(0), "preferred_interval": timedelta(0),
        })
        return plan_stanzas(stanzas, bridge, Actuals(games=games), now=now)
    playoff = state.chess
    # A pinned start matters while its game is still to play: a decider game pinned in
    # advance is dropped when its match is decided before it.
    pins = tuple(
        pin for pin in state.overrides.pins
        if (pin.match, pin.game) not in state.started_at
        and playoff.match(pin.match).decision is None
    )
    overrides = state.overrides.model_copy(update={"pins": pins})
    return plan_playoff(playoff, limits, Actuals(games=games, overrides=overrides), now=now)


def planned_start(state: PlayoffState, match: int, game: int, now: datetime) -> datetime | None:
    """The planned start of a game, or None if the schedule has no such game."""
    try:
        schedule = plan(state, now)
    except (PlayoffError, ValueError):
        return None
    for planned in schedule.games:
        if (planned.match, planned.game) == (match, game):
            return planned.start
    return None
