"""The play-off's games for the rating report: what the service knows of a play-off
(its games, their time controls and days, the players, the final places) given to
the TRF writer (:mod:`playoff_formats.io.trf_write`), one file per rating list.

Pure: the state, the event and the places are arguments. The service's route
(``GET /api/playoffs/{id}/export.trf``) and ``playoff export-trf`` give the same
file for the same log.
"""

from __future__ import annotations

from collections.abc import Mapping

from orchestrator.core.state import PlayoffState
from playoff_formats.errors import InputError, PlayoffError
from playoff_formats.io.trf_write import (
    Edition,
    RatingPool,
    RatingReport,
    ReportGame,
    ReportHeader,
    ReportPlayer,
    rating_reports,
)
from playoff_formats.model import Event, IndividualEvent
from playoff_formats.placings import final_placings
from playoff_formats.playoff import Game, Match, champion
from playoff_formats.standings import Standings

__all__ = ["EDITIONS", "POOLS", "final_places", "playoff_rating_reports", "stage_names"]

EDITIONS: tuple[Edition, ...] = ("16", "2026")
POOLS = tuple(pool.value for pool in RatingPool)


def final_places(standings: Standings, state: PlayoffState) -> dict[str, int | None]:
    """Each play-off player's final place, as the placings give it (the play-off's
    regulation: GCT 2015 places its losers by the tiebreaks); none before the
    play-off has its champion."""
    playoff = state.chess
    if champion(playoff) is None:
        return {}
    awards = final_placings(standings, playoff, state.prizes, state.points)
    players = {p.id for p in playoff.participants}
    return {a.id: a.place for a in awards.players if a.id in players}


def stage_names(state: PlayoffState) -> list[str]:
    """The names of the play-off's stages of games and of its deciders, as its
    matches' formats give them ("Rapid 25+10", "Armageddon")."""
    names: list[str] = []
    for match in state.chess.matches:
        if match.bye:
            continue
        rules = match.rules
        for name in [s.name for s in rules.stages] + (
            [rules.decider.name] if rules.decider is not None else []
        ):
            if name not in names:
                names.append(name)
    return names


def playoff_rating_reports(
    state: PlayoffState,
    event: Event,
    places: Mapping[str, int | None],
    edition: Edition = "16",
    stage: str | None = None,
) -> list[RatingReport]:
    """A TRF per rating list of the play-off's games with a result (or of one stage's,
    named as :func:`stage_names` names them, in any case).

    ``places``: each player's final place once the play-off has decided it.
    """
    playoff = state.chess
    if not isinstance(event, IndividualEvent):
        raise PlayoffError(
            "this play-off is between teams: a rating report rates players, and its games "
            "name no player"
        )
    chosen, named = _stage(state, stage)
    players = {p.id: p for p in event.players}
    report_players = [
        ReportPlayer(
            id=p.id,
            name=players[p.id].name if p.id in players else state.names.get(p.id, p.id),
            rating=players[p.id].rating if p.id in players else None,
            title=players[p.id].title if p.id in players else None,
            federation=players[p.id].federation if p.id in players else None,
            fide_id=players[p.id].fide_id if p.id in players else None,
            rank=places.get(p.id),
        )
        for p in sorted(playoff.participants, key=lambda p: p.seed)
    ]
    games = []
    for game in sorted(playoff.games, key=lambda g: (g.match, g.number)):
        if game.result is None or game.white is None or game.black is None:
            continue
        match = playoff.match(game.match)
        if chosen is not None and _stage_name(match, game).casefold() != chosen:
            continue
        games.append(_game(state, match, game))
    header = ReportHeader(
        event=event.name,
        finished=all(places.get(p.id) is not None for p in playoff.participants),
        stage=named,
    )
    return rating_reports(header, report_players, games, edition)


def _stage(state: PlayoffState, stage: str | None) -> tuple[str | None, str | None]:
    """The stage asked for, as compared (case folded) and as its format names it."""
    if stage is None or not stage.strip():
        return None, None
    names = stage_names(state)
    wanted = " ".join(stage.split()).casefold()
    for name in names:
        if name.casefold() == wanted:
            return wanted, name
    raise InputError(
        f"the play-off has no stage {stage.strip()!r}; its stages: {', '.join(names)}",
        path="stage",
    )


def _stage_name(match: Match, game: Game) -> str:
    rules = match.rules
    if game.kind.decider and rules.decider is not None:
        return rules.decider.name
    found = rules.stage_of(game.number)
    return found.name if found is not None else ""


def _game(state: PlayoffState, match: Match, game: Game) -> ReportGame:
    assert game.white is not None and game.black is not None and game.result is not None
    key = (match.id, game.number)
    moment = state.started_at.get(key) or state.ended_at.get(key)
    # The day the game was played where it was played: the hall's date.
    day = (moment + state.utc_offset).date() if moment is not None else None
    stage = _stage_name(match, game)
    return ReportGame(
        white=game.white,
        black=game.black,
        result=game.result,
        control=state.time_control(match, game),
        day=day,
        order=(match.stage, match.round, game.number),
        label=f"match {match.id}, game {game.number}" + (f" ({stage})" if stage else ""),
    )
