"""Small hand-made events for tests."""

from __future__ import annotations

from collections.abc import Iterable

from playoff_formats.model import Bye, ByeKind, Game, IndividualEvent, Player, Result


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
