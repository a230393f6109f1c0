"""Why a transition is refused: the checks the transitions share, and the reasons
they give (a :class:`~playoff_formats.phrase.Phrase` when they name players)."""

from __future__ import annotations

from playoff_formats.formats.model import GameKind, MatchFormat
from playoff_formats.model import Result
from playoff_formats.phrase import Phrase, Player, phrase
from playoff_formats.playoff.model import Game, Match, MatchStatus, Playoff, TransitionError
from playoff_formats.words import count

__all__ = [
    "check_colours_set",
    "check_decider_result",
    "check_pair",
    "decider_name",
    "drawn_games",
    "existing_game",
    "playable",
    "status_reason",
    "why_no_decider",
    "why_no_game",
]


def playable(playoff: Playoff, match_id: int) -> Match:
    match = playoff.match(match_id)
    if match.bye:
        raise TransitionError(
            phrase(f"match {match_id} is a bye for ", Player(match.players[0] or "?"),
                   ": it has no games"),
            match_id=match_id,
        )
    return match


def check_pair(match: Match, white: str, black: str, what: str) -> None:
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


def existing_game(playoff: Playoff, match: Match, number: int) -> Game:
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
            f"level after {count(rules.regular_games)} games: this match has no decider"
        )
    elif place is None:
        decider = rules.decider
        games = f"{count(rules.regular_games)}-game match"
        if decider is not None and decider.has_game(0) and not decider.has_game(1):
            follows = (
                f"only {_article(decider.name)} {decider.name} game (game "
                f"{rules.decider_number}) can follow a level match"
            )
        else:
            follows = "nothing follows a level match"
        reason = f"a {games} has no further regular games; {follows}"
    else:
        reason = why_no_game(playoff, match, number)
    raise TransitionError(
        phrase(f"match {match.id} has no game {number}: ", reason), match_id=match.id
    )


def why_no_game(playoff: Playoff, match: Match, number: int) -> Phrase:
    rules = match.rules
    place = rules.place(number)
    if place is not None and place.stage < 0:
        if place.first:
            return phrase(
                f"game {number} would be the {decider_name(rules)} game, which exists only "
                f"when the match is level after {count(rules.regular_games)} games: ",
                why_no_decider(playoff, match),
            )
        return phrase(
            f"game {number} would be a {decider_name(rules)} game, played only when game "
            f"{number - 1} is drawn"
        )
    stage = rules.stage_of(number)
    name = stage.name if stage is not None else "a later stage"
    return phrase(
        f"game {number} would be a game of {name}, played only when the match is level "
        "after the games before it"
    )


def decider_name(rules: MatchFormat) -> str:
    return rules.decider.name if rules.decider is not None else "decider"


def why_no_decider(playoff: Playoff, match: Match) -> Phrase:
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
        return (f"the {count(n)} regular games have not all been played",)
    return (f"the match is not level after {count(n)} games",)


def check_colours_set(playoff: Playoff, match: Match, game: Game) -> None:
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


def check_decider_result(game: Game, result: Result) -> None:
    if game.kind.decider and result is Result.DOUBLE_FORFEIT:
        what = "the Armageddon game" if game.kind is GameKind.ARMAGEDDON else (
            f"sudden-death game {game.number}"
        )
        raise TransitionError(
            f"a double forfeit in {what} of match {game.match} leaves no "
            "successful player: the chief arbiter must decide how the match ends",
            match_id=game.match,
        )


def _article(word: str) -> str:
    return "an" if word[:1].lower() in "aeio" else "a"


def status_reason(playoff: Playoff, match: Match) -> Phrase:
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



def drawn_games(rules: MatchFormat) -> str:
    firsts = [f"game {first}" for first, stage in rules.stage_starts() if stage.colours.drawn]
    decider = rules.decider
    if decider is not None and decider.drawn:
        firsts.append(f"game {rules.decider_number}")
    return f"lots are drawn for {', '.join(firsts)} only"


