"""Play-offs as flat tables that can be corrected.

After the shape of brackets-model: a play-off is a few flat tables (stages,
rounds, matches, games, participants), linked by ids. A match slot holds either
a seeded participant or a feeder link (``{"winner_of": 3}``), and every match
carries an explicit status.

Base data and derived data
--------------------------
What the arbiter decides is *base data*: the structure built from the seeds,
the colours drawn by lots or chosen after the coin toss, whether a match was
started, and the result of each game. Everything else is *derived* and
recomputed from scratch by every transition (``_settle``): the participant of a
feeder slot (``Slot.player``), which games exist, each match's ``decision`` and
``status``. So a transition never leaves a stale value behind; in particular a
correction re-propagates through the whole bracket.

Games
-----
Each match is played as its match format says (``Match.rules``, data from
:mod:`playoff_formats.formats`): stages of games, then a decider. Games are
numbered through the match. A match that is not a bye has the games of its first
stage as soon as both participants are known; each later stage's games appear
when every earlier game is played and the match is level, and so does the
decider: an Armageddon game, or sudden-death games one after another while they
are drawn, or no game at all for a drawing of lots (``decide_by_lot``). The
colours of a stage settled by lots have none until drawn (``set_stage_colours``;
the stage's games alternate from its first); a stage that alternates or reverses
takes its colours from the games before it. A decider settled by a coin toss has
no colours until its winner chooses (``choose_decider_colours``). A game
records what happened on the board (a drawn Armageddon is ``1/2-1/2``); the match
decision is kept apart and says who advances and why (a drawn Armageddon: the
side with the draw odds advances).

A play-off logged before formats were data has no format on its matches: each is
then the two-game match with an Armageddon of GCT 2015 (the only play-off such
logs hold), with the time controls it was logged with.

Policies
--------
- Games are played in order: game 2 is recorded after game 1, a decider game
  after every regular game. Colours must be set before a game's result.
- A result may be recorded on a ready match: that starts it (results entered
  after the fact); ``start_match`` is the usual way to start one.
- Matches of a later round wait until every match of the earlier rounds is
  completed (rounds of a knock-out are played together: "in each round lots
  shall be drawn", reg. 9). A match that has started keeps running whatever
  happens earlier in the bracket, as long as its participants stay the same.
- A double forfeit (``-/-``) in a decider game is refused: it leaves no
  successful player and the chief arbiter must decide otherwise. In a regular
  game it scores 0-0.
- A match without a decider that is level after its last stage stays running:
  this module has no transition for further games.

Every illegal transition raises ``TransitionError`` (a ``PlayoffError``) with a
reason an arbiter can read; nothing is changed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from enum import StrEnum
from functools import lru_cache
from typing import Annotated, Any, Self

from pydantic import Field, PlainSerializer, PlainValidator, WithJsonSchema, model_validator

from playoff_formats.errors import PlayoffError
from playoff_formats.formats import LOGGED_BEFORE_FORMATS
from playoff_formats.formats.gct2015 import gct_match_format
from playoff_formats.formats.model import (
    ColourRule,
    DecisionMethod,
    GameKind,
    GameStage,
    MatchFormat,
    PlayoffFormat,
)
from playoff_formats.model import Frozen, Result
from playoff_formats.phrase import Phrase, Player, phrase
from playoff_formats.timecontrol import TimeControl

__all__ = [
    "DecisionMethod",
    "Game",
    "GameKind",
    "Match",
    "MatchDecision",
    "MatchStatus",
    "Participant",
    "Playoff",
    "Round",
    "Slot",
    "Stage",
    "TransitionError",
    "champion",
    "choose_decider_colours",
    "correct_result",
    "decide_by_lot",
    "final_match",
    "match_decision",
    "new_playoff",
    "record_result",
    "set_game_one_colours",
    "set_stage_colours",
    "start_match",
    "voided_games",
    "winner",
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


class MatchDecision(Frozen):
    """Who advances from a match, and how it was decided.

    ``score`` is the winner's and the loser's points over the regular games
    (level for a decision by Armageddon); ``armageddon`` is the result of the
    decider as it stands on the game.
    """

    winner: str
    loser: str | None
    method: DecisionMethod
    score: tuple[float, float] | None = None
    armageddon: Result | None = None
    words: PhraseData

    @model_validator(mode="before")
    @classmethod
    def _logged_as_text(cls, data: Any) -> Any:
        # A play-off logged before phrases kept a bye's decision as a sentence.
        if isinstance(data, dict) and "text" in data and "words" not in data:
            data = {**data, "words": data["text"]}
            del data["text"]
        return data

    def describe(self, names: Mapping[str, str]) -> str:
        """How the match was decided, in a sentence with the players' names."""
        return self.words.text(names)

    @property
    def text(self) -> str:
        """The sentence with the players' ids (for logs; people get :meth:`describe`)."""
        return str(self.words)


def _phrase_in(value: object) -> Phrase:
    if isinstance(value, Phrase):
        return value
    if isinstance(value, str):  # a sentence logged before phrases: its words alone
        return Phrase((value,))
    if isinstance(value, list | tuple):
        parts: list[str | Player] = []
        for part in value:
            if isinstance(part, str):
                parts.append(part)
            elif isinstance(part, dict) and isinstance(part.get("player"), str):
                parts.append(Player(part["player"]))
            else:
                raise ValueError("a phrase is a list of words and {\"player\": id}")
        return Phrase(tuple(parts))
    raise ValueError("a phrase is a list of words and {\"player\": id}")


def _phrase_out(value: Phrase) -> list[Any]:
    return [{"player": p.id} if isinstance(p, Player) else p for p in value.parts]


PhraseData = Annotated[
    Phrase,
    PlainValidator(_phrase_in),
    PlainSerializer(_phrase_out),
    WithJsonSchema({
        "type": "array",
        "items": {"anyOf": [
            {"type": "string"},
            {"type": "object", "properties": {"player": {"type": "string"}},
             "required": ["player"], "additionalProperties": False},
        ]},
        "description": "Words, and the players they speak of by id",
    }),
]
"""A :class:`~playoff_formats.phrase.Phrase` in a model: JSON as its words and
``{"player": id}``, in order."""


class PlayerPoints(Frozen):
    """One player of a match and the points they scored."""

    player: str
    points: float


class MatchScore(Frozen):
    """A match's score over its regular games: each player's points beside the player.

    Points never travel without their player, so no door can print a score beside
    the wrong names (the first game's colours and the seeds need not agree). A
    decider scores nothing: it decides a level match (see :class:`MatchDecision`).
    """

    sides: tuple[PlayerPoints, PlayerPoints]

    def of(self, player: str) -> float:
        for side in self.sides:
            if side.player == player:
                return side.points
        raise KeyError(player)

    def leader_first(self) -> MatchScore:
        """The player ahead first; a level score keeps its order."""
        a, b = self.sides
        return self if a.points >= b.points else MatchScore(sides=(b, a))

    @property
    def level(self) -> bool:
        return self.sides[0].points == self.sides[1].points

    def points_text(self, dash: str = "–") -> str:
        """``1½–½``: the points alone, in this score's order of players."""
        return dash.join(_fmt(side.points) for side in self.sides)

    def text(self, names: Mapping[str, str]) -> str:
        """``Praggnanandhaa R 1½–½ Sindarov, Javokhir``: the names beside their points."""
        a, b = self.sides
        return (f"{names.get(a.player, a.player)} {self.points_text()} "
                f"{names.get(b.player, b.player)}")


def match_score(playoff: Playoff, match: Match) -> MatchScore | None:
    """The score of a match whose two players are known (None before), over the
    regular games played so far, in the match's order of players (its seeds)."""
    a, b = match.players
    if a is None or b is None:
        return None
    regular = [g for g in playoff.games_of(match.id) if g.kind is GameKind.REGULAR]
    return MatchScore(sides=(
        PlayerPoints(player=a, points=_points(regular, a)),
        PlayerPoints(player=b, points=_points(regular, b)),
    ))


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
                f"match {self.id} is a bye: it has no games", match_id=self.id
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
        raise TransitionError(f"there is no match {match_id}", match_id=match_id)

    def games_of(self, match_id: int) -> tuple[Game, ...]:
        return tuple(sorted((g for g in self.games if g.match == match_id), key=_number))

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


def _number(game: Game) -> int:
    return game.number


# --- construction -------------------------------------------------------------


def new_playoff(
    *,
    id: str,
    name: str,
    seeds: Sequence[str],
    stages: Iterable[Stage],
    rounds: Iterable[Round],
    matches: Iterable[Match],
    format: PlayoffFormat | None = None,
) -> Playoff:
    """A play-off with no game played; ``seeds`` lists player ids, best seed first.

    Refuses an inconsistent structure with a ``PlayoffError``.
    """
    try:
        playoff = Playoff(
            id=id,
            name=name,
            participants=tuple(Participant(id=p, seed=i) for i, p in enumerate(seeds, 1)),
            stages=tuple(stages),
            rounds=tuple(rounds),
            matches=tuple(matches),
            format=format,
        )
    except ValueError as exc:  # pydantic's ValidationError is a ValueError
        raise PlayoffError(f"invalid play-off: {exc}") from exc
    return _settle(playoff)


# --- queries ------------------------------------------------------------------


def match_decision(match: Match) -> MatchDecision | None:
    """How the match was decided, or ``None`` while it is not."""
    return match.decision


def winner(match: Match) -> str | None:
    """The player who advances from the match, or ``None`` while not decided."""
    return match.decision.winner if match.decision is not None else None


def final_match(playoff: Playoff) -> Match:
    """The one match that feeds no other: its winner wins the play-off."""
    fed = {f for m in playoff.matches for f in m.feeders}
    return next(m for m in playoff.matches if not m.bye and m.id not in fed)


def champion(playoff: Playoff) -> str | None:
    """The winner of the play-off, or ``None`` while the final is not decided."""
    return winner(final_match(playoff))


def voided_games(before: Playoff, after: Playoff) -> tuple[Game, ...]:
    """Games that had a result in ``before`` and have none (or no longer exist) in
    ``after``: what a correction threw away downstream, for the arbiter to see."""
    lost: list[Game] = []
    for g in before.games:
        if g.result is None:
            continue
        now = after.game(g.match, g.number)
        if now is None or now.result is None:
            lost.append(g)
    return tuple(lost)


# --- transitions ----------------------------------------------------------------


def set_game_one_colours(playoff: Playoff, match_id: int, white: str, black: str) -> Playoff:
    """Record the lots for game 1 of a match; the first stage's games alternate from it."""
    return set_stage_colours(playoff, match_id, 1, white, black)


def set_stage_colours(
    playoff: Playoff, match_id: int, game: int, white: str, black: str
) -> Playoff:
    """Record the lots for game ``game``, the first game of a stage whose colours are
    drawn (or the first game of a decider drawn by lots); the stage's games alternate
    from it.

    Allowed once the game exists and until a game of its stage has a result (lots
    may be drawn again before play).
    """
    match = _playable(playoff, match_id)
    rules = match.rules
    place = rules.place(game)
    stage = rules.stage_of(game)
    decider = rules.decider
    drawn_decider = (
        place is not None and place.stage < 0 and place.first
        and decider is not None and decider.drawn
    )
    if not drawn_decider and (
        place is None or not place.first or stage is None or not stage.colours.drawn
    ):
        raise TransitionError(
            f"the colours of game {game} of match {match_id} are not drawn by lots: "
            + _drawn_games(rules),
            match_id=match_id,
        )
    what = f"game {game}"
    _check_pair(match, white, black, what)
    existing = playoff.game(match_id, game)
    if existing is None:
        raise TransitionError(
            phrase(f"match {match_id} has no game {game} yet: ",
                   _why_no_game(playoff, match, game)),
            match_id=match_id,
        )
    numbers = (
        range(game, game + stage.games) if stage is not None and not drawn_decider
        else range(game, game + 1)
    )
    games = playoff.games_of(match_id)
    if any(g.result is not None for g in games if g.number in numbers):
        where = "" if game == 1 else f" in {stage.name if stage is not None else 'the decider'}"
        raise TransitionError(
            f"match {match_id} has a regular game result{where}: the colours of game {game} "
            "can no longer change (correct the result instead)",
            match_id=match_id,
        )
    updated = []
    for g in games:
        if g.number in numbers:
            swap = (g.number - game) % 2 == 1
            g = g.model_copy(
                update={"white": black if swap else white, "black": white if swap else black}
            )
        updated.append(g)
    return _settle(_replace_games(playoff, match_id, updated))


def _drawn_games(rules: MatchFormat) -> str:
    firsts = [f"game {first}" for first, stage in rules.stage_starts() if stage.colours.drawn]
    decider = rules.decider
    if decider is not None and decider.drawn:
        firsts.append(f"game {rules.decider_number}")
    return f"lots are drawn for {', '.join(firsts)} only"


def choose_decider_colours(playoff: Playoff, match_id: int, white: str, black: str) -> Playoff:
    """Record the colours chosen by the winner of the coin toss for the match's
    decider game (the Armageddon, or the first sudden-death game).

    Allowed only when that game exists (the match is level after its stages), its
    colours are settled by a toss, and it has no result yet.
    """
    match = _playable(playoff, match_id)
    rules = match.rules
    name = _decider_name(rules)
    game = playoff.game(match_id, rules.decider_number)
    if game is None or not game.kind.decider:
        raise TransitionError(
            phrase(f"match {match_id} has no {name} game: ", _why_no_decider(playoff, match)),
            match_id=match_id,
        )
    decider = rules.decider
    if decider is not None and not decider.tossed:
        raise TransitionError(
            f"the colours of the {name} game of match {match_id} are drawn by lots, not chosen "
            "after a coin toss",
            match_id=match_id,
        )
    if game.result is not None:
        raise TransitionError(
            f"the {name} game of match {match_id} has been played: its colours cannot change",
            match_id=match_id,
        )
    _check_pair(match, white, black, f"the {name} game")
    updated = [
        g.model_copy(update={"white": white, "black": black}) if g.number == game.number else g
        for g in playoff.games_of(match_id)
    ]
    return _settle(_replace_games(playoff, match_id, updated))


def decide_by_lot(playoff: Playoff, match_id: int, winner: str) -> Playoff:
    """Record who won the drawing of lots that decides a level match whose decider is a
    lot. Allowed once every game of its stages is played and the match is level."""
    match = _playable(playoff, match_id)
    rules = match.rules
    if rules.decider is None or not rules.decider.by_lot:
        raise TransitionError(
            f"match {match_id} is not decided by lot: its decider is "
            f"{_decider_name(rules) if rules.decider is not None else 'none'}",
            match_id=match_id,
        )
    if match.decision is not None:
        raise TransitionError(
            phrase(f"match {match_id} is already decided (", match.decision.words, ")"),
            match_id=match_id,
        )
    games = playoff.games_of(match_id)
    if None in match.players or len(games) < rules.regular_games or any(
        g.result is None for g in games
    ):
        raise TransitionError(
            f"match {match_id} is not level after all its games yet: no lot decides it now",
            match_id=match_id,
        )
    if winner not in match.players:
        raise TransitionError(
            f"{winner} does not play in match {match_id}", match_id=match_id
        )
    return _settle(_replace_match(playoff, match.model_copy(update={"lot_winner": winner})))


def start_match(playoff: Playoff, match_id: int) -> Playoff:
    """Start a ready match. The lots for game 1 must have been drawn."""
    match = _playable(playoff, match_id)
    if match.status is not MatchStatus.READY:
        raise TransitionError(
            phrase(f"match {match_id} cannot start: ", _status_reason(playoff, match)),
            match_id=match_id,
        )
    first = playoff.game(match_id, 1)
    if first is None or first.white is None:
        raise TransitionError(
            f"match {match_id} cannot start: lots for the colours of game 1 have not been "
            "drawn (set_game_one_colours)",
            match_id=match_id,
        )
    return _settle(_replace_match(playoff, match.model_copy(update={"started": True})))


def record_result(playoff: Playoff, match_id: int, game_number: int, result: Result) -> Playoff:
    """Record the result of the next game of a ready or running match.

    A ready match is started by its first result. A result already recorded is
    changed with ``correct_result`` instead.
    """
    match = _playable(playoff, match_id)
    result = Result(result)
    if match.status not in (MatchStatus.READY, MatchStatus.RUNNING):
        if match.status is MatchStatus.COMPLETED:
            existing = playoff.game(match_id, game_number)
            if existing is not None and existing.result is not None:
                raise TransitionError(
                    f"game {game_number} of match {match_id} already has a result "
                    f"({existing.result}); use a correction to change it",
                    match_id=match_id,
                )
        raise TransitionError(
            phrase(f"no result can be recorded for match {match_id}: ",
                   _status_reason(playoff, match)),
            match_id=match_id,
        )
    game = _existing_game(playoff, match, game_number)
    if game.result is not None:
        raise TransitionError(
            f"game {game_number} of match {match_id} already has a result ({game.result}); "
            "use a correction to change it",
            match_id=match_id,
        )
    if game_number > 1:
        previous = playoff.game(match_id, game_number - 1)
        if previous is None or previous.result is None:
            raise TransitionError(
                f"game {game_number} of match {match_id} cannot be recorded before game "
                f"{game_number - 1}",
                match_id=match_id,
            )
    _check_colours_set(playoff, match, game)
    _check_decider_result(game, result)
    updated = [
        g.model_copy(update={"result": result}) if g.number == game_number else g
        for g in playoff.games_of(match_id)
    ]
    started = _replace_match(playoff, match.model_copy(update={"started": True}))
    return _settle(_replace_games(started, match_id, updated))


def correct_result(playoff: Playoff, match_id: int, game_number: int, result: Result) -> Playoff:
    """Change a result recorded earlier, and re-propagate through the bracket.

    The new result may change the match's decision: a match no longer level loses
    its Armageddon game (and that game's colours and result); a match that becomes
    level gains a fresh Armageddon game (a new coin toss is needed); a match no
    longer decided becomes running again. Then every downstream match is
    recomputed: one whose participants are unchanged keeps its games, colours and
    results; one whose participant changed (or became unknown) loses all of its
    games' colours and results, is no longer started, and returns to ``locked``,
    ``waiting`` or ``ready`` as its new participants allow. The same applies,
    recursively, to the matches it feeds. ``voided_games`` lists what was lost.
    """
    match = _playable(playoff, match_id)
    result = Result(result)
    game = playoff.game(match_id, game_number)
    if game is None:
        raise TransitionError(
            f"match {match_id} has no game {game_number} to correct", match_id=match_id
        )
    if game.result is None:
        raise TransitionError(
            f"game {game_number} of match {match_id} has no result yet: record it instead of "
            "correcting it",
            match_id=match_id,
        )
    _check_decider_result(game, result)
    updated = [
        g.model_copy(update={"result": result}) if g.number == game_number else g
        for g in playoff.games_of(match.id)
    ]
    return _settle(_replace_games(playoff, match_id, updated))


# --- checks used by the transitions -------------------------------------------------


def _playable(playoff: Playoff, match_id: int) -> Match:
    match = playoff.match(match_id)
    if match.bye:
        raise TransitionError(
            phrase(f"match {match_id} is a bye for ", Player(match.players[0] or "?"),
                   ": it has no games"),
            match_id=match_id,
        )
    return match


def _check_pair(match: Match, white: str, black: str, what: str) -> None:
    players = match.players
    if None in players:
        raise TransitionError(
            f"colours of {what} of match {match.id} cannot be set: a participant is not known yet",
            match_id=match.id,
        )
    if white == black or {white, black} != set(players):
        raise TransitionError(
            phrase(
                f"colours of {what} of match {match.id} must be given to its two "
                "participants ", Player(players[0] or "?"), " and ", Player(players[1] or "?"),
                ", one each (got White ", Player(white), ", Black ", Player(black), ")",
            ),
            match_id=match.id,
        )


def _existing_game(playoff: Playoff, match: Match, number: int) -> Game:
    game = playoff.game(match.id, number)
    if game is not None:
        return game
    rules = match.rules
    place = rules.place(number)
    reason: str | Phrase
    if number < 1:
        reason = "games are numbered from 1"
    elif place is None and number == rules.decider_number and rules.decider is None:
        reason = (
            f"game {number} would be a decider game, which exists only when the match is "
            f"level after {_count(rules.regular_games)} games: this match has no decider"
        )
    elif place is None:
        decider = rules.decider
        games = f"{_count(rules.regular_games)}-game match"
        if decider is not None and decider.has_game(0) and not decider.has_game(1):
            follows = (
                f"only {_article(decider.name)} {decider.name} game (game "
                f"{rules.decider_number}) can follow a level match"
            )
        else:
            follows = "nothing follows a level match"
        reason = f"a {games} has no further regular games; {follows}"
    else:
        reason = _why_no_game(playoff, match, number)
    raise TransitionError(
        phrase(f"match {match.id} has no game {number}: ", reason), match_id=match.id
    )


def _why_no_game(playoff: Playoff, match: Match, number: int) -> Phrase:
    rules = match.rules
    place = rules.place(number)
    if place is not None and place.stage < 0:
        if place.first:
            return phrase(
                f"game {number} would be the {_decider_name(rules)} game, which exists only "
                f"when the match is level after {_count(rules.regular_games)} games: ",
                _why_no_decider(playoff, match),
            )
        return phrase(
            f"game {number} would be a {_decider_name(rules)} game, played only when game "
            f"{number - 1} is drawn"
        )
    stage = rules.stage_of(number)
    name = stage.name if stage is not None else "a later stage"
    return phrase(
        f"game {number} would be a game of {name}, played only when the match is level "
        "after the games before it"
    )


def _decider_name(rules: MatchFormat) -> str:
    return rules.decider.name if rules.decider is not None else "decider"


def _why_no_decider(playoff: Playoff, match: Match) -> Phrase:
    return phrase(*_no_decider(playoff, match))


def _no_decider(playoff: Playoff, match: Match) -> tuple[str | Phrase, ...]:
    rules = match.rules
    if match.decision is not None:
        return ("the match is already decided (", match.decision.words, ")")
    if rules.decider is None:
        return ("this match has no decider",)
    n = rules.regular_games
    games = playoff.games_of(match.id)
    pending = [g.number for g in games if g.kind is GameKind.REGULAR and g.result is None]
    if pending or None in match.players or len(games) < n:
        if n == 2:
            return ("the two regular games have not both been played",)
        return (f"the {_count(n)} regular games have not all been played",)
    return (f"the match is not level after {_count(n)} games",)


def _check_colours_set(playoff: Playoff, match: Match, game: Game) -> None:
    if game.white is not None and game.black is not None:
        return
    rules = match.rules
    decider = rules.decider
    if game.kind.decider and decider is not None and decider.tossed:
        rule = decider.colours_citation
        cite = f" ({_short_rule(rule)})" if rule else ""
        how = f"the winner of the coin toss has not chosen colours yet{cite}"
    else:
        first = _first_drawn(rules, game.number)
        how = f"lots for the colours of game {first} have not been drawn"
    raise TransitionError(
        f"game {game.number} of match {game.match} cannot have a result: {how}",
        match_id=game.match,
    )


def _first_drawn(rules: MatchFormat, number: int) -> int:
    """The game whose drawing settles game ``number``'s colours."""
    drawn = [first for first, stage in rules.stage_starts() if stage.colours.drawn]
    if number >= rules.decider_number:
        drawn.append(rules.decider_number)
    return max(f for f in drawn if f <= number)


def _short_rule(citation: str) -> str:
    """'GCT 2015 reg. 10 c' cited inside a sentence about that regulation: 'reg. 10 c'."""
    at = citation.find("reg")
    return citation[at:] if at > 0 else citation


def _check_decider_result(game: Game, result: Result) -> None:
    if game.kind.decider and result is Result.DOUBLE_FORFEIT:
        what = "the Armageddon game" if game.kind is GameKind.ARMAGEDDON else (
            f"sudden-death game {game.number}"
        )
        raise TransitionError(
            f"a double forfeit in {what} of match {game.match} leaves no "
            "successful player: the chief arbiter must decide how the match ends",
            match_id=game.match,
        )


_NUMBERS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven",
            8: "eight", 9: "nine", 10: "ten", 11: "eleven", 12: "twelve"}


def _count(n: int) -> str:
    return _NUMBERS.get(n, str(n))


def _article(word: str) -> str:
    return "an" if word[:1].lower() in "aeio" else "a"


def _status_reason(playoff: Playoff, match: Match) -> Phrase:
    if match.status is MatchStatus.COMPLETED and match.decision is not None:
        return phrase("it is already decided (", match.decision.words, ")")
    return phrase(_status_text(playoff, match))


def _status_text(playoff: Playoff, match: Match) -> str:
    status = match.status
    if status is MatchStatus.LOCKED:
        unknown = [
            f"the winner of match {s.winner_of}"
            for s in match.slots
            if s is not None and s.player is None and s.winner_of is not None
        ]
        verb = "are" if len(unknown) > 1 else "is"
        return f"it is locked: {' and '.join(unknown)} {verb} not known yet"
    if status is MatchStatus.WAITING:
        return "it is waiting for every match of the earlier rounds to be completed"
    if status is MatchStatus.RUNNING:
        return "it is already running"
    if status is MatchStatus.COMPLETED:
        return "it is already decided"
    return "it is ready"


# --- table updates and the settling pass ---------------------------------------


def _replace_match(playoff: Playoff, match: Match) -> Playoff:
    matches = tuple(match if m.id == match.id else m for m in playoff.matches)
    return playoff.model_copy(update={"matches": matches})


def _replace_games(playoff: Playoff, match_id: int, games: Iterable[Game]) -> Playoff:
    kept = [g for g in playoff.games if g.match != match_id]
    return playoff.model_copy(update={"games": tuple(kept) + tuple(games)})


def _settle(playoff: Playoff) -> Playoff:
    """Recompute every derived value, in round order, from the base data."""
    seeds = {p.seed: p.id for p in playoff.participants}
    stage_rank = {s.id: i for i, s in enumerate(sorted(playoff.stages, key=lambda s: s.id))}
    order = sorted(playoff.matches, key=lambda m: (stage_rank[m.stage], m.round, m.number, m.id))
    games_of: dict[int, list[Game]] = {}
    for g in playoff.games:
        games_of.setdefault(g.match, []).append(g)

    winners: dict[int, str | None] = {}
    settled: dict[int, Match] = {}
    new_games: dict[int, list[Game]] = {}
    earlier_done = True  # every match of the rounds before the current one is completed
    current_key: tuple[int, int] | None = None
    round_done = True
    for match in order:
        key = (stage_rank[match.stage], match.round)
        if key != current_key:
            earlier_done = earlier_done and round_done
            current_key, round_done = key, True

        slots = tuple(
            None
            if s is None
            else s.model_copy(
                update={
                    "player": seeds[s.seed] if s.seed is not None else winners[s.winner_of or 0]
                }
            )
            for s in match.slots
        )
        first, second = slots[0], slots[1]
        assert first is not None
        players = (first.player, second.player if second is not None else None)
        games = sorted(games_of.get(match.id, []), key=_number)
        started = match.started
        lot_winner = match.lot_winner
        if players != match.players:
            # A new participant: nothing played (or drawn) here stands.
            games, started, lot_winner = [], False, None

        decision: MatchDecision | None
        if match.bye:
            games, started = [], False
            decision = _bye(first.player or "")
        elif players[0] is None or players[1] is None:
            games, started = [], False
            decision = None
        else:
            games = _games_for(match, games)
            decision = _decide(match.rules, players[0], players[1], games, lot_winner)
        if decision is None or decision.method is not DecisionMethod.LOT:
            lot_winner = None

        if decision is not None:
            status = MatchStatus.COMPLETED
        elif None in players:
            status = MatchStatus.LOCKED
        elif started or any(g.result is not None for g in games):
            status = MatchStatus.RUNNING
        elif not earlier_done:
            status = MatchStatus.WAITING
        else:
            status = MatchStatus.READY
        round_done = round_done and status is MatchStatus.COMPLETED
        winners[match.id] = decision.winner if decision is not None else None
        new_games[match.id] = games
        settled[match.id] = match.model_copy(
            update={
                "slots": (first, second),
                "started": started,
                "lot_winner": lot_winner,
                "status": status,
                "decision": decision,
            }
        )
    matches = tuple(settled[m.id] for m in playoff.matches)
    all_games = tuple(g for m in playoff.matches for g in new_games[m.id])
    return playoff.model_copy(update={"matches": matches, "games": all_games})


def _games_for(match: Match, games: list[Game]) -> list[Game]:
    """The games a match with known participants has: its first stage's games; each
    later stage's while the match is level after every game before it; then the
    decider's games while still level (sudden death: one more after each draw).

    Colours of a stage that alternates or reverses are derived from the games
    before it; those of a drawn stage are base data, kept as set."""
    rules = match.rules
    by_number = {g.number: g for g in games}
    out: list[Game] = []
    for index, (first, stage) in enumerate(rules.stage_starts()):
        if index > 0 and not _played_level(out):
            return out
        stage_games = [
            by_number.get(n) or Game(match=match.id, number=n, kind=GameKind.REGULAR)
            for n in range(first, first + stage.games)
        ]
        if not stage.colours.drawn:
            stage_games = _derived_colours(stage, stage_games, out, rules)
        out.extend(stage_games)
    if not _played_level(out):
        return out
    decider = rules.decider
    number = rules.decider_number
    kind = decider.game_kind if decider is not None else None
    if decider is None or kind is None:
        return out
    while decider.has_game(number - rules.decider_number):
        game = by_number.get(number) or Game(match=match.id, number=number, kind=kind)
        previous = out[-1]
        if number > rules.decider_number and previous.white is not None:
            # A decider's games alternate colours from its first.
            game = game.model_copy(update={"white": previous.black, "black": previous.white})
        out.append(game)
        if game.result is None or not decider.plays_on(game.result):
            break
        number += 1
    return out


def _played_level(games: list[Game]) -> bool:
    return bool(games) and all(g.result is not None for g in games) and _level(games)


def _derived_colours(
    stage: GameStage, games: list[Game], before: list[Game], rules: MatchFormat
) -> list[Game]:
    if stage.colours is ColourRule.ALTERNATE:
        source = before[-1]
    else:  # reversed: the previous stage's first game, colours swapped
        previous_first = max(f for f, _ in rules.stage_starts() if f < games[0].number)
        source = next(g for g in before if g.number == previous_first)
    white, black = source.black, source.white
    out = []
    for offset, g in enumerate(games):
        w, b = (white, black) if offset % 2 == 0 else (black, white)
        out.append(g.model_copy(update={"white": w, "black": b}))
    return out


def _points(games: Iterable[Game], player: str) -> float:
    total = 0.0
    for g in games:
        if g.result is None:
            continue
        if g.white == player:
            total += g.result.white_points
        elif g.black == player:
            total += g.result.black_points
    return total


def _level(regular: list[Game]) -> bool:
    first = regular[0]
    if first.white is None or first.black is None:
        return False
    return _points(regular, first.white) == _points(regular, first.black)


def _decide(
    rules: MatchFormat, a: str, b: str, games: list[Game], lot_winner: str | None = None
) -> MatchDecision | None:
    regular = [g for g in games if g.kind is GameKind.REGULAR]
    if any(g.result is None for g in regular):
        return None
    pa, pb = _points(regular, a), _points(regular, b)
    if pa != pb:
        w, lo, pw, pl = (a, b, pa, pb) if pa > pb else (b, a, pb, pa)
        return MatchDecision(
            winner=w,
            loser=lo,
            method=DecisionMethod.REGULAR_GAMES,
            score=(pw, pl),
            words=phrase(Player(w), " beat ", Player(lo),
                         f" {_fmt(pw)}-{_fmt(pl)} over {_over(rules, regular)}."),
        )
    if len(regular) < rules.regular_games:
        return None
    level = f"Level {_fmt(pa)}-{_fmt(pb)} after {_count(len(regular))} games"
    decider = rules.decider
    if decider is None:
        return None
    if decider.by_lot:
        if lot_winner is None:
            return None
        loser = b if lot_winner == a else a
        cite = f" ({decider.rule})" if decider.rule else ""
        return MatchDecision(
            winner=lot_winner,
            loser=loser,
            method=DecisionMethod.LOT,
            score=(pa, pb),
            words=phrase(f"{level}; ", Player(lot_winner), f" won the drawing of lots{cite}."),
        )
    played = [g for g in games if g.kind.decider and g.result is not None and g.white]
    if not played:
        return None
    last = played[-1]
    result = last.result
    assert result is not None
    verdict = decider.verdict(
        result, number=last.number, level=level, white=last.white or "", black=last.black or ""
    )
    if verdict is None:
        return None
    return MatchDecision(
        winner=verdict.winner,
        loser=verdict.loser,
        method=verdict.method,
        score=(pa, pb),
        armageddon=result,
        words=verdict.words,
    )


def _over(rules: MatchFormat, regular: list[Game]) -> str:
    """The games a decision counts, in words: 'the two regular games', '4 games
    (Rapid 25+10, Rapid 10+10)'."""
    if len(rules.stages) == 1:
        return f"the {_count(len(regular))} regular games"
    names = [s.name for f, s in rules.stage_starts() if f <= len(regular)]
    return f"{_count(len(regular))} games ({', '.join(names)})"


def _bye(player: str) -> MatchDecision:
    return MatchDecision(
        winner=player,
        loser=None,
        method=DecisionMethod.BYE,
        words=phrase(Player(player), " has a bye in this round."),
    )


def _fmt(points: float) -> str:
    whole = int(points)
    if points - whole == 0.5:
        return f"{whole}½" if whole else "½"
    return str(whole)
