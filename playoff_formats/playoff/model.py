"""The tables of a play-off: participants, stages, rounds, matches and games.

Which values are base data and which are derived is told in
docs/rules-notes.md (The bracket).
"""

from __future__ import annotations

from enum import StrEnum
from functools import lru_cache
from typing import Self

from pydantic import Field, model_validator

from playoff_formats.errors import PlayoffError
from playoff_formats.formats import LOGGED_BEFORE_FORMATS
from playoff_formats.formats.gct2015 import gct_match_format
from playoff_formats.formats.model import GameKind, MatchFormat, PlayoffFormat
from playoff_formats.model import Frozen, Result
from playoff_formats.phrase import Phrase, Said
from playoff_formats.playoff.decision import MatchDecision
from playoff_formats.timecontrol import TimeControl

__all__ = [
    "Game",
    "Match",
    "MatchStatus",
    "Participant",
    "Playoff",
    "Round",
    "Slot",
    "Stage",
    "TransitionError",
    "game_number",
]


class TransitionError(PlayoffError):
    """A command that the play-off's current state does not allow (HTTP 409)."""

    def __init__(self, reason: str | Phrase, *, match_id: int | None = None) -> None:
        self.match_id = match_id
        super().__init__(reason)


class MatchStatus(StrEnum):
    """Where a match stands. Exactly one applies, checked in this order:

    - ``completed``: the match is a bye, or it is decided (its winner is known).
    - ``locked``: a participant is still unknown: a feeder match has no winner yet.
    - ``running``: both participants are known and the match was started
      (``start_match``) or has a recorded game result, but it is not decided.
    - ``waiting``: both participants are known, nothing has been played, and some
      match of an earlier round (an earlier stage, or a lower round of the same
      stage) is not completed yet: the round cannot begin.
    - ``ready``: both participants are known, nothing has been played, and every
      match of the earlier rounds is completed: it can be started.
    """

    LOCKED = "locked"
    WAITING = "waiting"
    READY = "ready"
    RUNNING = "running"
    COMPLETED = "completed"


class Participant(Frozen):
    """A player of the play-off and the seed the tiebreaks gave (1 is best)."""

    id: str = Field(min_length=1)
    seed: int = Field(ge=1)


class Stage(Frozen):
    """A phase of the play-off; stages are played in ascending ``id``."""

    id: int = Field(ge=1)
    name: str


class Round(Frozen):
    """A round of a stage; ``number`` is 1-based within its stage."""

    stage: int = Field(ge=1)
    number: int = Field(ge=1)
    name: str


class Slot(Frozen):
    """One side of a match: a seeded participant, or the winner of a feeder match.

    Exactly one of ``seed`` and ``winner_of`` is given. ``player`` is derived:
    the participant's id once known (always, for a seeded slot), else ``None``.
    """

    seed: int | None = Field(default=None, ge=1)
    winner_of: int | None = None
    player: str | None = None

    @model_validator(mode="after")
    def _one_source(self) -> Self:
        if (self.seed is None) == (self.winner_of is None):
            raise ValueError("a slot is either a seed or the winner of a match, not both")
        return self



class Match(Frozen):
    """A match (or a bye) in round ``round`` of stage ``stage``.

    ``slots`` holds two slots, or one slot and ``None`` for a bye. ``format`` is
    how the match is played (``None`` in a play-off logged before formats were
    data: see ``rules``); ``time_control`` is its first stage's time control and
    ``decider`` the time control of its decider game (``None`` for no decider
    game). ``started`` and ``lot_winner`` (who won a deciding lot) are base data;
    ``status``, ``decision`` and the slots' ``player`` are derived.
    """

    id: int = Field(ge=1)
    stage: int = Field(default=1, ge=1)
    round: int = Field(ge=1)
    number: int = Field(default=1, ge=1)
    slots: tuple[Slot, Slot | None]
    bye: bool = False
    time_control: TimeControl | None = None
    decider: TimeControl | None = None
    format: MatchFormat | None = None
    started: bool = False
    lot_winner: str | None = None
    status: MatchStatus = MatchStatus.LOCKED
    decision: MatchDecision | None = None

    @model_validator(mode="after")
    def _bye_shape(self) -> Self:
        if self.bye != (self.slots[1] is None):
            raise ValueError("a bye has exactly one slot; any other match has two")
        if self.bye and self.slots[0].seed is None:
            raise ValueError("a bye goes to a seeded participant")
        if not self.bye and self.time_control is None:
            raise ValueError("a match that is played needs a time control")
        if self.format is not None and not self.bye:
            if self.time_control != self.format.stages[0].time_control:
                raise ValueError("a match's time control is its first stage's")
            if self.decider != self.format.decider_control():
                raise ValueError("a match's decider time control is its format's")
        return self

    @property
    def rules(self) -> MatchFormat:
        """How the match is played; for a match logged before formats were data, the
        two-game match with its Armageddon (GCT 2015) at the time controls logged.
        Refused for a bye."""
        if self.format is not None:
            return self.format
        if self.time_control is None:
            raise TransitionError(
                Said.tr("match {match} is a bye: it has no games", match=self.id),
                match_id=self.id,
            )
        return _logged_before_formats(self.time_control, self.decider)

    def kind_of(self, number: int) -> GameKind:
        """The kind game ``number`` of the match is (or would be)."""
        if self.bye:
            return GameKind.REGULAR
        rules = self.rules
        place = rules.place(number)
        if place is None or place.stage >= 0 or rules.decider is None:
            return GameKind.REGULAR
        return rules.decider.game_kind or GameKind.REGULAR

    @property
    def players(self) -> tuple[str | None, str | None]:
        """The participants as known now (``None`` for an unknown one, or a bye)."""
        second = self.slots[1]
        return (self.slots[0].player, second.player if second is not None else None)

    @property
    def feeders(self) -> tuple[int, ...]:
        """Ids of the matches whose winners meet here."""
        return tuple(s.winner_of for s in self.slots if s is not None and s.winner_of is not None)


@lru_cache(maxsize=64)
def _logged_before_formats(time_control: TimeControl, decider: TimeControl | None) -> MatchFormat:
    # Settling reads every match's format on every transition: built once per pair.
    return gct_match_format("two-game match", time_control, decider)


class Game(Frozen):
    """A game of a match. Colours are ``None`` until drawn or chosen."""

    match: int = Field(ge=1)
    number: int = Field(ge=1)
    kind: GameKind
    white: str | None = None
    black: str | None = None
    result: Result | None = None


class Playoff(Frozen):
    """A play-off: flat tables linked by ids. Build one with ``new_playoff``.

    ``format`` is the play-off format it was built from (``None`` when logged
    before formats were data: see ``rules``).
    """

    id: str = Field(min_length=1)
    name: str
    participants: tuple[Participant, ...]
    stages: tuple[Stage, ...]
    rounds: tuple[Round, ...]
    matches: tuple[Match, ...]
    games: tuple[Game, ...] = ()
    format: PlayoffFormat | None = None

    @property
    def rules(self) -> PlayoffFormat:
        """The play-off's format: its breaks, the rules it cites."""
        return self.format if self.format is not None else LOGGED_BEFORE_FORMATS

    @model_validator(mode="after")
    def _links(self) -> Self:
        ids = [p.id for p in self.participants]
        if len(set(ids)) != len(ids):
            raise ValueError("participant ids must be unique")
        if sorted(p.seed for p in self.participants) != list(range(1, len(ids) + 1)):
            raise ValueError("seeds must be 1, 2, ... n, each once")
        stage_ids = {s.id for s in self.stages}
        if len(stage_ids) != len(self.stages):
            raise ValueError("stage ids must be unique")
        round_keys = {(r.stage, r.number) for r in self.rounds}
        if len(round_keys) != len(self.rounds):
            raise ValueError("a round number appears twice in a stage")
        if any(r.stage not in stage_ids for r in self.rounds):
            raise ValueError("a round refers to an unknown stage")
        by_id = {m.id: m for m in self.matches}
        if len(by_id) != len(self.matches):
            raise ValueError("match ids must be unique")
        fed: set[int] = set()
        for m in self.matches:
            if (m.stage, m.round) not in round_keys:
                raise ValueError(f"match {m.id} refers to an unknown round")
            for slot in m.slots:
                if slot is None:
                    continue
                if slot.seed is not None and slot.seed > len(ids):
                    raise ValueError(f"match {m.id} refers to seed {slot.seed}, who does not exist")
                if slot.winner_of is not None:
                    feeder = by_id.get(slot.winner_of)
                    if feeder is None:
                        raise ValueError(f"match {m.id} is fed by match {slot.winner_of}, unknown")
                    if (feeder.stage, feeder.round) >= (m.stage, m.round):
                        raise ValueError(f"match {m.id} is fed by a match of a later round")
                    if slot.winner_of in fed:
                        raise ValueError(f"the winner of match {slot.winner_of} goes to two places")
                    fed.add(slot.winner_of)
        finals = [m for m in self.matches if not m.bye and m.id not in fed]
        if len(finals) != 1:
            raise ValueError("a play-off has exactly one final: one match that feeds no other")
        seen: set[tuple[int, int]] = set()
        for g in self.games:
            owner = by_id.get(g.match)
            if owner is None or owner.bye:
                raise ValueError(f"game {g.number} belongs to no playable match {g.match}")
            if (g.match, g.number) in seen:
                raise ValueError(f"game {g.number} of match {g.match} appears twice")
            seen.add((g.match, g.number))
        return self

    def match(self, match_id: int) -> Match:
        for m in self.matches:
            if m.id == match_id:
                return m
        raise TransitionError(Said.tr("there is no match {match}", match=match_id),
                              match_id=match_id)

    def games_of(self, match_id: int) -> tuple[Game, ...]:
        return tuple(sorted((g for g in self.games if g.match == match_id), key=game_number))

    def game(self, match_id: int, number: int) -> Game | None:
        for g in self.games:
            if g.match == match_id and g.number == number:
                return g
        return None

    def seed_of(self, player_id: str) -> int:
        for p in self.participants:
            if p.id == player_id:
                return p.seed
        raise KeyError(player_id)

    def player_with_seed(self, seed: int) -> str:
        for p in self.participants:
            if p.seed == seed:
                return p.id
        raise KeyError(seed)


def game_number(game: Game) -> int:
    return game.number

