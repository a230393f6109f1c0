"""Why a transition is refused: the checks the transitions share, and the reasons
they give, each a :class:`~playoff_formats.phrase.Phrase` said where it is shown
(its messages in the reader's language, its players by their names)."""

from __future__ import annotations

from playoff_formats.formats.model import GameKind, MatchFormat
from playoff_formats.model import Result
from playoff_formats.phrase import Phrase, Player, Said, phrase
from playoff_formats.playoff.model import Game, Match, MatchStatus, Playoff, TransitionError
from playoff_formats.speech import ENGLISH, marked, speaking
from playoff_formats.words import count

__all__ = [
    "check_colours_set",
    "check_decider_result",
    "check_pair",
    "counted",
    "decider_name",
    "drawn_games",
    "existing_game",
    "playable",
    "status_reason",
    "why_no_decider",
    "why_no_game",
]


def counted(n: int) -> Phrase | int:
    """A small count in words (``one`` to ``twelve``), said when shown; a larger one
    in figures (as :func:`~playoff_formats.words.count`)."""
    with speaking(ENGLISH):
        word = count(n)
    return n if word == str(n) else Said.tr(word)  # the words are marked in words.py


def playable(playoff: Playoff, match_id: int) -> Match:
    match = playoff.match(match_id)
    if match.bye:
        raise TransitionError(
            Said.tr("match {match} is a bye for {player}: it has no games",
                    match=match_id, player=Player(match.players[0] or "?")),
            match_id=match_id,
        )
    return match


def check_pair(match: Match, white: str, black: str, what: Phrase) -> None:
    """``what``: the game whose colours are set (``game 3``, ``the Armageddon game``)."""
    players = match.players
    if None in players:
        raise TransitionError(
            Said.tr("colours of {what} of match {match} cannot be set: a participant is "
                    "not known yet", what=what, match=match.id),
            match_id=match.id,
        )
    if white == black or {white, black} != set(players):
        raise TransitionError(
            Said.tr(
                "colours of {what} of match {match} must be given to its two participants "
                "{first} and {second}, one each (got White {white}, Black {black})",
                what=what, match=match.id, first=Player(players[0] or "?"),
                second=Player(players[1] or "?"), white=Player(white), black=Player(black),
            ),
            match_id=match.id,
        )


def existing_game(playoff: Playoff, match: Match, number: int) -> Game:
    game = playoff.game(match.id, number)
    if game is not None:
        return game
    rules = match.rules
    place = rules.place(number)
    n = rules.regular_games
    reason: Phrase
    if number < 1:
        reason = Said.tr("games are numbered from 1")
    elif place is None and number == rules.decider_number and rules.decider is None:
        reason = Said.ntr(
            "game {number} would be a decider game, which exists only when the match is "
            "level after {count} game: this match has no decider",
            "game {number} would be a decider game, which exists only when the match is "
            "level after {count} games: this match has no decider",
            n, number=number, count=counted(n),
        )
    elif place is None:
        decider = rules.decider
        follows: Phrase
        if decider is not None and decider.has_game(0) and not decider.has_game(1):
            only = (
                marked("only an {name} game (game {number}) can follow a level match")
                if decider.name[:1].lower() in "aeio"
                else marked("only a {name} game (game {number}) can follow a level match")
            )
            follows = Said.tr(only, name=decider.name, number=rules.decider_number)
        else:
            follows = Said.tr("nothing follows a level match")
        reason = Said.ntr(
            "a {count}-game match has no further regular games; {follows}",
            "a {count}-game match has no further regular games; {follows}",
            n, count=counted(n), follows=follows,
        )
    else:
        reason = why_no_game(playoff, match, number)
    raise TransitionError(
        Said.tr("match {match} has no game {number}: {why}",
                match=match.id, number=number, why=reason),
        match_id=match.id,
    )


def why_no_game(playoff: Playoff, match: Match, number: int) -> Phrase:
    rules = match.rules
    place = rules.place(number)
    if place is not None and place.stage < 0:
        if place.first:
            n = rules.regular_games
            return Said.ntr(
                "game {number} would be the {decider} game, which exists only when the match "
                "is level after {count} game: {why}",
                "game {number} would be the {decider} game, which exists only when the match "
                "is level after {count} games: {why}",
                n, number=number, decider=decider_name(rules), count=counted(n),
                why=why_no_decider(playoff, match),
            )
        return Said.tr(
            "game {number} would be a {decider} game, played only when game {previous} is "
            "drawn", number=number, decider=decider_name(rules), previous=number - 1,
        )
    stage = rules.stage_of(number)
    if stage is None:
        return Said.tr(
            "game {number} would be a game of a later stage, played only when the match is "
            "level after the games before it", number=number,
        )
    return Said.tr(
        "game {number} would be a game of {stage}, played only when the match is level "
        "after the games before it", number=number, stage=stage.name,
    )


def decider_name(rules: MatchFormat) -> str | Phrase:
    """The decider's name as its format gives it (``Armageddon``), or ``decider``."""
    return rules.decider.name if rules.decider is not None else Said.tr("decider")


def why_no_decider(playoff: Playoff, match: Match) -> Phrase:
    rules = match.rules
    if match.decision is not None:
        return Said.tr("the match is already decided ({decision})",
                       decision=match.decision.words)
    if rules.decider is None:
        return Said.tr("this match has no decider")
    n = rules.regular_games
    games = playoff.games_of(match.id)
    pending = [g.number for g in games if g.kind is GameKind.REGULAR and g.result is None]
    if pending or None in match.players or len(games) < n:
        if n == 2:
            return Said.tr("the two regular games have not both been played")
        return Said.ntr("the {count} regular game has not been played",
                        "the {count} regular games have not all been played",
                        n, count=counted(n))
    return Said.ntr("the match is not level after {count} game",
                    "the match is not level after {count} games", n, count=counted(n))


def check_colours_set(playoff: Playoff, match: Match, game: Game) -> None:
    if game.white is not None and game.black is not None:
        return
    rules = match.rules
    decider = rules.decider
    how: Phrase
    if game.kind.decider and decider is not None and decider.tossed:
        rule = decider.colours_citation
        if rule:
            how = Said.tr("the winner of the coin toss has not chosen colours yet ({rule})",
                          rule=_short_rule(rule))
        else:
            how = Said.tr("the winner of the coin toss has not chosen colours yet")
    else:
        how = Said.tr("lots for the colours of game {number} have not been drawn",
                      number=_first_drawn(rules, game.number))
    raise TransitionError(
        Said.tr("game {number} of match {match} cannot have a result: {why}",
                number=game.number, match=game.match, why=how),
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
        if game.kind is GameKind.ARMAGEDDON:
            why = Said.tr(
                "a double forfeit in the Armageddon game of match {match} leaves no "
                "successful player: the chief arbiter must decide how the match ends",
                match=game.match,
            )
        else:
            why = Said.tr(
                "a double forfeit in sudden-death game {number} of match {match} leaves no "
                "successful player: the chief arbiter must decide how the match ends",
                number=game.number, match=game.match,
            )
        raise TransitionError(why, match_id=game.match)


def status_reason(playoff: Playoff, match: Match) -> Phrase:
    status = match.status
    if status is MatchStatus.COMPLETED and match.decision is not None:
        return Said.tr("it is already decided ({decision})", decision=match.decision.words)
    if status is MatchStatus.LOCKED:
        unknown = [
            s.winner_of for s in match.slots
            if s is not None and s.player is None and s.winner_of is not None
        ]
        if len(unknown) > 1:
            return Said.tr(
                "it is locked: the winner of match {first} and the winner of match {second} "
                "are not known yet", first=unknown[0], second=unknown[1],
            )
        return Said.tr("it is locked: the winner of match {match} is not known yet",
                       match=unknown[0] if unknown else "?")
    if status is MatchStatus.WAITING:
        return Said.tr("it is waiting for every match of the earlier rounds to be completed")
    if status is MatchStatus.RUNNING:
        return Said.tr("it is already running")
    if status is MatchStatus.COMPLETED:
        return Said.tr("it is already decided")
    return Said.tr("it is ready")


def drawn_games(rules: MatchFormat) -> Phrase:
    firsts = [first for first, stage in rules.stage_starts() if stage.colours.drawn]
    decider = rules.decider
    if decider is not None and decider.drawn:
        firsts.append(rules.decider_number)
    if len(firsts) == 1:
        return Said.tr("lots are drawn for game {number} only", number=firsts[0])
    listed: list[str | Player | Phrase] = []
    for i, first in enumerate(firsts):
        listed.extend(([", "] if i else []) + [Said.tr("game {number}", number=first)])
    return Said.tr("lots are drawn for {games} only", games=phrase(*listed))
