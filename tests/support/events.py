"""Small hand-made events for tests."""

from __future__ import annotations

import json
from collections.abc import Iterable
from datetime import UTC, datetime, timedelta

from playoff_formats.model import (
    BoardResult,
    Bye,
    ByeKind,
    Game,
    IndividualEvent,
    Player,
    Result,
    Team,
    TeamEvent,
    TeamMatch,
    Venue,
)
from tests.support import DATA


def event(
    players: str | Iterable[str],
    games: Iterable[tuple[int, str, str, str]],
    byes: Iterable[tuple[int, str, str]] = (),
    name: str = "Test event",
    regulation: str = "gct2015",
) -> IndividualEvent:
    """Players named by their ids; games as (round, white, black, result)."""
    ids = list(players)
    return IndividualEvent(
        name=name,
        regulation=regulation,
        players=[Player(id=p, name=f"Player {p}") for p in ids],
        games=[Game(round=r, white=w, black=b, result=Result(res)) for r, w, b, res in games],
        byes=[Bye(round=r, player=p, kind=ByeKind(k)) for r, p, k in byes],
    )


def round_robin(players: str, results: dict[str, str]) -> IndividualEvent:
    """A single round robin; ``results`` maps "AB" to the result with A as White.

    Each game goes in the first round where neither player is busy yet.
    """
    busy: dict[str, set[int]] = {p: set() for p in players}
    games = []
    for pair, result in results.items():
        white, black = pair[0], pair[1]
        number = 1
        while number in busy[white] or number in busy[black]:
            number += 1
        busy[white].add(number)
        busy[black].add(number)
        games.append((number, white, black, result))
    return event(players, games)


def swiss() -> IndividualEvent:
    """Six players, four rounds, with every kind of unplayed round.

    R1  A-B 1-0    C-D ½-½    E-F +/- (forfeit)
    R2  A-C ½-½    D-E 0-1    B pairing-allocated bye   F zero-point bye
    R3  A-E 1-0    B-F 0-1    C half-point bye          D zero-point bye
    R4  A-F ½-½    B-C 1-0    D-E -/+ (forfeit)

    Scores: A 3, B 2, C 1½, D ½, E 3, F 1½.
    Art. 16.2 categories: B R2 16.2.1; E R1, R4 16.2.2; C R3 16.2.3 (C plays
    R4); F R2 16.2.3 (F plays R3); F R1 and D R4 16.2.4; D R3 16.2.5 (D's only
    later round is a forfeit loss, itself voluntarily unplayed).
    Art. 16.3 adjusted scores: D ½ + ½ (the R3 bye counts as a draw) = 1;
    everyone else as scored. The 16.4.2 cap is ½ × 4 rounds = 2.
    """
    return event(
        "ABCDEF",
        [
            (1, "A", "B", "1-0"),
            (1, "C", "D", "1/2-1/2"),
            (1, "E", "F", "+/-"),
            (2, "A", "C", "1/2-1/2"),
            (2, "D", "E", "0-1"),
            (3, "A", "E", "1-0"),
            (3, "B", "F", "0-1"),
            (4, "A", "F", "1/2-1/2"),
            (4, "B", "C", "1-0"),
            (4, "D", "E", "-/+"),
        ],
        byes=[(2, "B", "pairing-allocated"), (2, "F", "zero"), (3, "C", "half"), (3, "D", "zero")],
    )


def chess_match(
    round: int,
    home: str,
    away: str,
    boards: int,
    home_wins: Iterable[int] = (),
    away_wins: Iterable[int] = (),
    venue: str = "home",
) -> TeamMatch:
    """A chess team match: the boards each side won; every other board drawn."""
    won_home, won_away = set(home_wins), set(away_wins)
    assert not won_home & won_away
    results = [
        BoardResult.HOME_WINS if n in won_home
        else BoardResult.AWAY_WINS if n in won_away
        else BoardResult.DRAW
        for n in range(1, boards + 1)
    ]
    return TeamMatch(round=round, home=home, away=away, venue=Venue(venue), boards=list(results))


def team_event(
    teams: str, matches: Iterable[TeamMatch], regulation: str = "county1980"
) -> TeamEvent:
    return TeamEvent(
        name="Test league",
        regulation=regulation,
        teams=[Team(id=t, name=t) for t in teams],
        matches=list(matches),
    )


UZCHESS = DATA / "uzchess-cup-masters-2025.json"
"""The UzChess Cup Masters 2025: three players tied on 5½ after nine rounds."""

PRAGG, ABDU, SINDAROV = "25059530", "14204118", "14205483"
"""Praggnanandhaa, Abdusattorov and Sindarov: the UzChess Cup's three-way tie."""
MAIN_EVENT_OVER = datetime(2025, 6, 27, 18, 0, tzinfo=UTC)
"""When the UzChess Cup Masters 2025's last round ended, for the tests: the evening
before the tests' manual clock starts (2025-06-28 12:00 UTC)."""


def uzchess_json(ended_at: datetime | None = MAIN_EVENT_OVER) -> str:
    """The UzChess Cup Masters 2025 as uploaded, its rounds ended a day apart up to
    ``ended_at`` (so the 30-minute break after the main event, GCT 2015 reg. 5, is
    long over); with None, without end times: the play-off's break then runs from
    the moment it is created."""
    data = json.loads(UZCHESS.read_text(encoding="utf-8"))
    if ended_at is not None:
        last = max(game["round"] for game in data["games"])
        for game in data["games"]:
            when = ended_at - timedelta(days=last - game["round"])
            game["ended_at"] = when.isoformat()
    return json.dumps(data)
