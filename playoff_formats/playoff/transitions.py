"""What the arbiter does to a play-off: build it, draw lots for colours, choose the
decider's colours after a toss, draw the deciding lot, start a match, record and
correct results.

Each transition changes base data only, then settles the derived data
(:func:`~playoff_formats.playoff.derivation.settle`). An illegal one raises
:class:`~playoff_formats.playoff.model.TransitionError` and changes nothing; the
policies are in docs/rules-notes.md (The bracket).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from playoff_formats.errors import PlayoffError
from playoff_formats.formats.model import PlayoffFormat
from playoff_formats.model import Result
from playoff_formats.phrase import Player, Said
from playoff_formats.playoff.derivation import settle
from playoff_formats.playoff.model import (
    Game,
    Match,
    MatchStatus,
    Participant,
    Playoff,
    Round,
    Stage,
    TransitionError,
)
from playoff_formats.playoff.refusals import (
    check_colours_set,
    check_decider_result,
    check_pair,
    decider_name,
    drawn_games,
    existing_game,
    playable,
    status_reason,
    why_no_decider,
    why_no_game,
)

__all__ = [
    "choose_decider_colours",
    "correct_result",
    "decide_by_lot",
    "new_playoff",
    "record_result",
    "set_game_one_colours",
    "set_stage_colours",
    "start_match",
]


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
        raise PlayoffError(Said.tr("invalid play-off: {why}", why=str(exc))) from exc
    return settle(playoff)



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
    match = playable(playoff, match_id)
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
            Said.tr("the colours of game {game} of match {match} are not drawn by lots: {why}",
                    game=game, match=match_id, why=drawn_games(rules)),
            match_id=match_id,
        )
    check_pair(match, white, black, Said.tr("game {number}", number=game))
    existing = playoff.game(match_id, game)
    if existing is None:
        raise TransitionError(
            Said.tr("match {match} has no game {game} yet: {why}", match=match_id, game=game,
                    why=why_no_game(playoff, match, game)),
            match_id=match_id,
        )
    numbers = (
        range(game, game + stage.games) if stage is not None and not drawn_decider
        else range(game, game + 1)
    )
    games = playoff.games_of(match_id)
    if any(g.result is not None for g in games if g.number in numbers):
        if game == 1:
            played = Said.tr("match {match} has a regular game result: the colours of game "
                             "{game} can no longer change (correct the result instead)",
                             match=match_id, game=game)
        elif stage is not None:
            played = Said.tr("match {match} has a regular game result in {stage}: the colours "
                             "of game {game} can no longer change (correct the result instead)",
                             match=match_id, stage=stage.name, game=game)
        else:
            played = Said.tr("match {match} has a regular game result in the decider: the "
                             "colours of game {game} can no longer change (correct the result "
                             "instead)", match=match_id, game=game)
        raise TransitionError(played, match_id=match_id)
    updated = []
    for g in games:
        if g.number in numbers:
            swap = (g.number - game) % 2 == 1
            g = g.model_copy(
                update={"white": black if swap else white, "black": white if swap else black}
            )
        updated.append(g)
    return settle(_replace_games(playoff, match_id, updated))


def choose_decider_colours(playoff: Playoff, match_id: int, white: str, black: str) -> Playoff:
    """Record the colours chosen by the winner of the coin toss for the match's
    decider game (the Armageddon, or the first sudden-death game).

    Allowed only when that game exists (the match is level after its stages), its
    colours are settled by a toss, and it has no result yet.
    """
    match = playable(playoff, match_id)
    rules = match.rules
    name = decider_name(rules)
    game = playoff.game(match_id, rules.decider_number)
    if game is None or not game.kind.decider:
        raise TransitionError(
            Said.tr("match {match} has no {name} game: {why}", match=match_id, name=name,
                    why=why_no_decider(playoff, match)),
            match_id=match_id,
        )
    decider = rules.decider
    if decider is not None and not decider.tossed:
        raise TransitionError(
            Said.tr("the colours of the {name} game of match {match} are drawn by lots, not "
                    "chosen after a coin toss", name=name, match=match_id),
            match_id=match_id,
        )
    if game.result is not None:
        raise TransitionError(
            Said.tr("the {name} game of match {match} has been played: its colours cannot "
                    "change", name=name, match=match_id),
            match_id=match_id,
        )
    check_pair(match, white, black, Said.tr("the {name} game", name=name))
    updated = [
        g.model_copy(update={"white": white, "black": black}) if g.number == game.number else g
        for g in playoff.games_of(match_id)
    ]
    return settle(_replace_games(playoff, match_id, updated))


def decide_by_lot(playoff: Playoff, match_id: int, winner: str) -> Playoff:
    """Record who won the drawing of lots that decides a level match whose decider is a
    lot. Allowed once every game of its stages is played and the match is level."""
    match = playable(playoff, match_id)
    rules = match.rules
    if rules.decider is None or not rules.decider.by_lot:
        raise TransitionError(
            Said.tr("match {match} is not decided by lot: its decider is {name}",
                    match=match_id, name=rules.decider.name) if rules.decider is not None
            else Said.tr("match {match} is not decided by lot: its decider is none",
                         match=match_id),
            match_id=match_id,
        )
    if match.decision is not None:
        raise TransitionError(
            Said.tr("match {match} is already decided ({decision})", match=match_id,
                    decision=match.decision.words),
            match_id=match_id,
        )
    games = playoff.games_of(match_id)
    if None in match.players or len(games) < rules.regular_games or any(
        g.result is None for g in games
    ):
        raise TransitionError(
            Said.tr("match {match} is not level after all its games yet: no lot decides it "
                    "now", match=match_id),
            match_id=match_id,
        )
    if winner not in match.players:
        raise TransitionError(
            Said.tr("{player} does not play in match {match}", player=Player(winner),
                    match=match_id),
            match_id=match_id,
        )
    return settle(_replace_match(playoff, match.model_copy(update={"lot_winner": winner})))


def start_match(playoff: Playoff, match_id: int) -> Playoff:
    """Start a ready match. The lots for game 1 must have been drawn."""
    match = playable(playoff, match_id)
    if match.status is not MatchStatus.READY:
        raise TransitionError(
            Said.tr("match {match} cannot start: {why}", match=match_id,
                    why=status_reason(playoff, match)),
            match_id=match_id,
        )
    first = playoff.game(match_id, 1)
    if first is None or first.white is None:
        raise TransitionError(
            Said.tr("match {match} cannot start: lots for the colours of game 1 have not "
                    "been drawn (set_game_one_colours)", match=match_id),
            match_id=match_id,
        )
    return settle(_replace_match(playoff, match.model_copy(update={"started": True})))


def record_result(playoff: Playoff, match_id: int, game_number: int, result: Result) -> Playoff:
    """Record the result of the next game of a ready or running match.

    A ready match is started by its first result. A result already recorded is
    changed with ``correct_result`` instead.
    """
    match = playable(playoff, match_id)
    result = Result(result)
    if match.status not in (MatchStatus.READY, MatchStatus.RUNNING):
        if match.status is MatchStatus.COMPLETED:
            existing = playoff.game(match_id, game_number)
            if existing is not None and existing.result is not None:
                raise TransitionError(
                    Said.tr("game {game} of match {match} already has a result ({result}); use "
                            "a correction to change it", game=game_number, match=match_id,
                            result=existing.result),
                    match_id=match_id,
                )
        raise TransitionError(
            Said.tr("no result can be recorded for match {match}: {why}", match=match_id,
                    why=status_reason(playoff, match)),
            match_id=match_id,
        )
    game = existing_game(playoff, match, game_number)
    if game.result is not None:
        raise TransitionError(
            Said.tr("game {game} of match {match} already has a result ({result}); use a "
                    "correction to change it", game=game_number, match=match_id,
                    result=game.result),
            match_id=match_id,
        )
    if game_number > 1:
        previous = playoff.game(match_id, game_number - 1)
        if previous is None or previous.result is None:
            raise TransitionError(
                Said.tr("game {game} of match {match} cannot be recorded before game "
                        "{previous}", game=game_number, match=match_id,
                        previous=game_number - 1),
                match_id=match_id,
            )
    check_colours_set(playoff, match, game)
    check_decider_result(game, result)
    updated = [
        g.model_copy(update={"result": result}) if g.number == game_number else g
        for g in playoff.games_of(match_id)
    ]
    started = _replace_match(playoff, match.model_copy(update={"started": True}))
    return settle(_replace_games(started, match_id, updated))


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
    match = playable(playoff, match_id)
    result = Result(result)
    game = playoff.game(match_id, game_number)
    if game is None:
        raise TransitionError(
            Said.tr("match {match} has no game {game} to correct", match=match_id,
                    game=game_number),
            match_id=match_id,
        )
    if game.result is None:
        raise TransitionError(
            Said.tr("game {game} of match {match} has no result yet: record it instead of "
                    "correcting it", game=game_number, match=match_id),
            match_id=match_id,
        )
    check_decider_result(game, result)
    updated = [
        g.model_copy(update={"result": result}) if g.number == game_number else g
        for g in playoff.games_of(match.id)
    ]
    return settle(_replace_games(playoff, match_id, updated))



def _replace_match(playoff: Playoff, match: Match) -> Playoff:
    matches = tuple(match if m.id == match.id else m for m in playoff.matches)
    return playoff.model_copy(update={"matches": matches})


def _replace_games(playoff: Playoff, match_id: int, games: Iterable[Game]) -> Playoff:
    kept = [g for g in playoff.games if g.match != match_id]
    return playoff.model_copy(update={"games": tuple(kept) + tuple(games)})


