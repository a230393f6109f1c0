"""The games a slip or a card is printed for, and what the paper says of each: its
stage, match and game, board, planned start, players and colours, time control and
the decider's terms, in the words the hall and the console use.

A game is one the play-off has, or one its schedule plans (a decider "if needed",
the games of a match whose players are still to be decided). A match is played at
one board, numbered in its round (the matches of a round are played side by side;
a round after it plays at the same boards again).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from orchestrator.core.state import GameKey, PlayoffState
from orchestrator.printing.layout import day
from orchestrator.views.arbiter.core import Core as ConsoleWords
from orchestrator.views.context import ViewContext
from orchestrator.views.hall.core import Core as HallWords
from orchestrator.views.hall.games import draw_rule
from orchestrator.views.hall.models import PlayerLabel
from playoff_formats.errors import PlayoffError
from playoff_formats.formats.said import said_name
from playoff_formats.model import Colour
from playoff_formats.playoff import GameKind, Match
from playoff_formats.schedule import PlannedGame, UnitKind
from playoff_formats.schedule.words import instant
from playoff_formats.speech import tr
from playoff_formats.timecontrol import TimeControl
from playoff_formats.words import clock_minutes

__all__ = ["GameSheet", "Words", "game_keys", "game_sheet", "increment_text", "one_game"]


class Words:
    """How the hall and the console name players, matches and games, for one state at
    the instant of printing."""

    def __init__(self, state: PlayoffState, ctx: ViewContext) -> None:
        self.state = state
        self.ctx = ctx
        self.hall = HallWords(state, ctx)
        self.console = ConsoleWords(state, ctx)

    def planned(self, key: GameKey) -> PlannedGame | None:
        plan = self.ctx.plan
        if plan is None:
            return None
        return next((g for g in plan.games if (g.match, g.game) == key), None)


@dataclass(frozen=True)
class GameSheet:
    """What a slip or a card says of one game."""

    match: Match
    number: int
    kind: GameKind
    stage: str
    title: str
    board: int
    start: str | None
    state: Literal["played", "in play", "to play"]
    white: PlayerLabel | None
    """White, once the colours are known (else None, and ``players`` in seed order)."""
    black: PlayerLabel | None
    players: tuple[PlayerLabel, PlayerLabel]
    colours: str | None
    """How the colours will be settled while they are unknown: "Colours by lot"."""
    control: TimeControl | None
    decider: str | None
    """The decider's terms: "Armageddon: White 6′ · Black 5′ · draw = Black wins"."""

    @property
    def known(self) -> bool:
        """Both players are known (not a place still to be filled)."""
        return all(p.id is not None for p in self.players)


def _keys(state: PlayoffState, ctx: ViewContext) -> list[GameKey]:
    """Every game of the play-off and of its schedule: the schedule's in its order,
    then those it does not hold (when it cannot be planned)."""
    keys: list[GameKey] = []
    if ctx.plan is not None:
        keys = [(g.match, g.game) for g in ctx.plan.games if g.kind is not UnitKind.STANZA]
    for game in sorted(state.chess.games, key=lambda g: (g.match, g.number)):
        if (game.match, game.number) not in keys:
            keys.append((game.match, game.number))
    return keys


def game_keys(words: Words) -> list[GameKey]:
    """The games to play whose players are known: a slip each."""
    found = []
    for key in _keys(words.state, words.ctx):
        sheet = game_sheet(words, key)
        if sheet.state != "played" and sheet.known:
            found.append(key)
    return found


def one_game(words: Words, match: int, game: int) -> GameKey:
    """The game ``game`` of match ``match``, refused in words if the play-off has none."""
    keys = _keys(words.state, words.ctx)
    if (match, game) in keys:
        return (match, game)
    played = sorted({m for m, _ in keys})
    if match not in played:
        listed = ", ".join(str(m) for m in played)
        raise PlayoffError(tr(
            "this play-off has no match {match} to play: its matches are {matches}",
            match=match, matches=listed,
        ))
    games = ", ".join(str(g) for m, g in keys if m == match)
    raise PlayoffError(tr(
        "match {match} has no game {game}, played or planned: its games are {games}",
        match=match, game=game, games=games,
    ))


def game_sheet(words: Words, key: GameKey) -> GameSheet:
    state = words.state
    playoff = state.chess
    match = playoff.match(key[0])
    number = key[1]
    kind = match.kind_of(number)
    rules = match.rules
    game = playoff.game(*key)
    planned = words.planned(key)
    stage_name = next((said_name(s.name) for s in playoff.stages if s.id == match.stage), "")
    stage = " · ".join(p for p in (stage_name, words.console.round_name(match)) if p)
    ladder = rules.stage_of(number)
    if ladder is not None and len(rules.stages) > 1:
        stage += f" · {said_name(ladder.name)}"
    decider = rules.decider
    title = _title(match, number, words.hall.match_names[match.id],
                   said_name(decider.name) if kind.decider and decider is not None else None,
                   planned is not None and planned.tentative)
    if game is not None and game.result is not None:
        where: Literal["played", "in play", "to play"] = "played"
    elif key in state.started_at:
        where = "in play"
    else:
        where = "to play"
    start = state.started_at.get(key) or (planned.start if planned is not None else None)
    when = None
    if start is not None:
        at = {"time": instant(start, state.zone), "day": day(start, state.zone)}
        when = (
            tr("Started {time}, {day}", **at) if key in state.started_at
            else tr("Planned start {time}, {day}", **at)
        )
    white: PlayerLabel | None = None
    black: PlayerLabel | None = None
    if game is not None and game.white is not None and game.black is not None:
        white, black = words.hall.player(game.white), words.hall.player(game.black)
        players = (white, black)
        colours = None
    else:
        sides = (
            list(match.players) if None not in match.players
            else list(planned.players) if planned is not None else list(match.players)
        )
        a, b = (words.hall.player(p) for p in sides)
        players = (a, b)
        rule = words.console.colour_rule(match, number)
        colours = rule[:1].upper() + rule[1:]  # the first letter only: German nouns keep theirs
    control = state.time_control(match, number)
    terms = None
    if kind is GameKind.ARMAGEDDON and decider is not None and control is not None:
        said = {
            "decider": said_name(decider.name),
            "white": clock_minutes(control.initial_ms(Colour.WHITE)),
            "black": clock_minutes(control.initial_ms(Colour.BLACK)),
            "draw": draw_rule(decider.draw_means),
        }
        terms = (
            tr("{decider}: White {white} · Black {black} · {draw} ({rule})",
               rule=decider.draw_citation, **said)
            if decider.draw_citation
            else tr("{decider}: White {white} · Black {black} · {draw}", **said)
        )
    return GameSheet(
        match=match, number=number, kind=kind, stage=stage, title=title,
        board=match.number, start=when, state=where, white=white, black=black,
        players=players, colours=colours, control=control, decider=terms,
    )


def _title(match: Match, number: int, name: str, decider: str | None, tentative: bool) -> str:
    """The game as a slip and a card name it: "Match 1 (Seeds 2 v 3) · Game 3 ·
    Armageddon (if needed)"."""
    said = {"match": match.id, "name": name, "game": number, "decider": decider}
    if decider is not None and tentative:
        return tr("Match {match} ({name}) · Game {game} · {decider} (if needed)", **said)
    if decider is not None:
        return tr("Match {match} ({name}) · Game {game} · {decider}", **said)
    if tentative:
        return tr("Match {match} ({name}) · Game {game} (if needed)", **said)
    return tr("Match {match} ({name}) · Game {game}", **said)


def increment_text(control: TimeControl) -> str:
    """The increment and the move it starts from, said in full: "+5 s from move 1"."""
    said = control.increment_words()
    stage = control.white[0]
    if stage.increment_ms and stage.increment_from_move == 1:
        said = tr("{increment} from move 1", increment=said)
    return said
