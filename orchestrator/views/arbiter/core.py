"""What every panel of the console needs: the state and the instant, the check of
every command, and the words for players, games and times."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta

from pydantic import ValidationError

from orchestrator.core.auth import Actor
from orchestrator.core.commands import (
    Command,
    CommandBase,
    Context,
    apply_command,
    refusal,
    refusal_words,
    refused,
)
from orchestrator.core.refusals import TooEarly
from orchestrator.core.state import PlayoffState
from orchestrator.views.arbiter.forms import ClockControl, Control, Wait
from orchestrator.views.arbiter.models import PlayerView
from orchestrator.views.context import ViewContext
from orchestrator.views.shared import round_name
from playoff_formats.errors import PlayoffError
from playoff_formats.formats import MatchFormat
from playoff_formats.formats.said import said_name
from playoff_formats.model import Result
from playoff_formats.playoff import Game, GameKind, Match, Playoff, final_match
from playoff_formats.schedule.words import instant
from playoff_formats.speech import marked, ntr, tr
from playoff_formats.words import count

__all__ = [
    "FIDE_6_9",
    "MOVED",
    "PROBE_REASON",
    "RESULT_NAMES",
    "Core",
    "by_role",
    "capital",
    "decider_word",
    "draw_words",
    "game_label",
    "games_over",
    "tossed",
]

MOVED = timedelta(minutes=1)
"""A planned start that moved by less than this since the previous view did not move."""

PROBE_REASON = "checking what the console may offer"
"""The reason given to the commands the view checks (never logged)."""

FIDE_6_9 = marked(
    "FIDE Laws of Chess art. 6.9: the game is drawn, not lost, if the position is such "
    "that the opponent cannot checkmate the player's king by any possible series of legal "
    "moves. If so, correct the result to ½-½."
)
"""The rule an arbiter checks after a flag fall, before the result stands."""

RESULT_NAMES: dict[Result, str] = {
    Result.WHITE_WINS: "result-1-0",
    Result.DRAW: "result-draw",
    Result.BLACK_WINS: "result-0-1",
    Result.WHITE_WINS_BY_FORFEIT: "result-white-forfeit",
    Result.BLACK_WINS_BY_FORFEIT: "result-black-forfeit",
    Result.DOUBLE_FORFEIT: "result-double-forfeit",
}
"""Every result, in the order the console offers them, by its control's name."""

OUTCOMES: dict[Result, str] = {
    Result.WHITE_WINS: marked("{white} (White) beats {black}"),
    Result.BLACK_WINS: marked("{black} (Black) beats {white}"),
    Result.DRAW: marked("{white} and {black} draw"),
    Result.WHITE_WINS_BY_FORFEIT: marked("{white} wins by forfeit: {black} did not play"),
    Result.BLACK_WINS_BY_FORFEIT: marked("{black} wins by forfeit: {white} did not play"),
    Result.DOUBLE_FORFEIT: marked("neither {white} nor {black} played: double forfeit"),
}
"""A result about to be recorded, in the players' names."""

PAST_OUTCOMES: dict[Result, str] = {
    Result.WHITE_WINS: marked("{white} (White) beat {black}"),
    Result.BLACK_WINS: marked("{black} (Black) beat {white}"),
    Result.DRAW: marked("{white} and {black} drew"),
    Result.WHITE_WINS_BY_FORFEIT: marked("{white} won by forfeit: {black} did not play"),
    Result.BLACK_WINS_BY_FORFEIT: marked("{black} won by forfeit: {white} did not play"),
    Result.DOUBLE_FORFEIT: marked("neither {white} nor {black} played: double forfeit"),
}
"""A result recorded, in the players' names."""

ROLE_WORDS: dict[str, str] = {
    "chief": marked("chief arbiter"),
    "arbiter": marked("arbiter"),
}
"""Who made a change, by the role of the key that made it."""


class Core:
    """One view of one state: the state, the time, and the check of every command."""

    def __init__(self, state: PlayoffState, ctx: ViewContext) -> None:
        self.state = state
        self.ctx = ctx
        self.check: Context = ctx.command_context()
        self.chief: Context = replace(self.check, role="chief")
        self.instants: list[datetime] = []
        """Instants at which the view changes with the time alone, found while building."""




    def name(self, player: str | None) -> str:
        if player is None:
            return "?"
        return self.state.names.get(player, player)

    def player(self, player: str) -> PlayerView:
        return PlayerView(id=player, name=self.name(player))

    def time(self, moment: datetime | None) -> str:
        """A time of day as the hall reads it."""
        return instant(moment, self.state.zone)

    def ms(self, moment: datetime) -> int:
        """An instant in server ms, on the clocks' scale."""
        return self.ctx.server_ms + int((moment - self.ctx.now).total_seconds() * 1000)

    def round_of(self, match_id: int) -> str:
        playoff = self.state.playoff
        if playoff is None:
            return tr("match {match}", match=match_id)
        return self.round_name(playoff.match(match_id))

    def game_words(self, match_id: int, number: int) -> str:
        """``game 2 of Final (reg. 6)``, ``the Armageddon of Final (reg. 6)``;
        ``stanza 2`` for bridge."""
        if self.state.playoff is None:
            return tr("stanza {number}", number=number)
        match = self.state.chess.match(match_id)
        rules = match.rules
        if match.kind_of(number) is GameKind.ARMAGEDDON and rules.decider is not None:
            return tr("the {decider} of {round}", decider=said_name(rules.decider.name),
                      round=self.round_of(match_id))
        return tr("game {number} of {round}", number=number, round=self.round_of(match_id))

    def players_text(self, playoff: Playoff, match: Match, number: int) -> str:
        """White – Black once the colours of game ``number`` are known; before, the
        players and how their colours will be settled."""
        game = playoff.game(match.id, number)
        if game is not None and game.white is not None and game.black is not None:
            return f"{self.name(game.white)} – {self.name(game.black)}"
        a, b = match.players
        if a is None or b is None:
            return " – ".join(self.name(p) if p else tr("to be decided") for p in (a, b))
        return tr("{a} – {b} ({colours})", a=self.name(a), b=self.name(b),
                  colours=self.colour_rule(match, number))

    def colour_rule(self, match: Match, number: int) -> str:
        """How the colours of game ``number`` are settled while they are unknown, in the
        one wording the match panel and the schedule both use: a decider not yet
        played (nor even due) is tossed for as the one under way is."""
        if match.kind_of(number).decider and tossed(match.rules):
            return tr("colours by coin toss")
        return tr("colours by lot")

    def outcome_words(self, game: Game, result: Result, *, past: bool) -> str:
        """A result in the players' names: "X beat Y", "X and Y drew"."""
        white, black = self.name(game.white), self.name(game.black)
        said = (PAST_OUTCOMES if past else OUTCOMES)[result]
        return tr(said, white=white, black=black)



    def refusal(self, command: CommandBase, ctx: Context | None = None) -> str | None:
        return refusal(self.state, command, ctx or self.check)

    def after(self, command: CommandBase) -> PlayoffState | None:
        """The state after ``command``, or None when the service would refuse it."""
        try:
            applied = apply_command(self.state, command, self.check)
        except (PlayoffError, ValidationError):
            return None
        return applied[-1].after if applied else self.state

    def control(
        self, id: str, name: str, label: str, summary: str, command: Command, *,
        detail: str | None = None, primary: bool = False, confirm: str | None = None,
    ) -> Control:
        exc = refused(self.state, command, self.check)
        why = refusal_words(exc, self.state.names) if exc is not None else None
        wait = None
        if isinstance(exc, TooEarly):
            self.instants.append(exc.until)
            wait = Wait(until_ms=self.ms(exc.until), text=exc.sentence("{left}"))
        return Control(
            id=id, name=name, label=label, detail=detail, summary=summary, command=command,
            enabled=why is None, refusal=why, primary=primary,
            confirm=confirm if why is None else None, wait=wait,
        )



    def round_name(self, match: Match) -> str:
        return round_name(self.state.chess, match) or tr("Match {match}", match=match.id)

    def is_final(self, match: Match) -> bool:
        return final_match(self.state.chess).id == match.id

    def clock_control(
        self, clock_key: str, name: str, label: str, summary: str, command: Command,
        requires: dict[str, str], *, primary: bool = False, id: str | None = None,
        fill: dict[str, str] | None = None,
    ) -> ClockControl:
        why = self.refusal(command)
        return ClockControl(
            id=id or f"clock:{clock_key}", name=name, label=label, summary=summary,
            command=command,
            enabled=why is None, refusal=why, primary=primary, clock=clock_key,
            requires=requires, fill=fill or {},
        )



def by_role(actor: str | None) -> str:
    """Who made a change, by role (tokens are not people)."""
    role = Actor.parse(actor).role if actor else ""
    return tr(ROLE_WORDS.get(role, marked("the service")))


def capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def tossed(rules: MatchFormat) -> bool:
    """The decider game's colours are chosen by the winner of a coin toss."""
    decider = rules.decider
    return decider is not None and decider.tossed


def game_label(rules: MatchFormat, game: Game) -> str:
    """"Armageddon" for a decider game; a stage's name where the match has several."""
    if game.kind.decider:
        return said_name(rules.decider.name) if rules.decider is not None else tr("Decider")
    stage = rules.stage_of(game.number)
    return said_name(stage.name) if stage is not None and len(rules.stages) > 1 else ""


def decider_word(match: Match, number: int) -> str:
    rules = match.rules
    if match.kind_of(number) is GameKind.ARMAGEDDON and rules.decider is not None:
        return said_name(rules.decider.name)
    return tr("game {number}", number=number)


def draw_words(draw_means: str) -> str:
    if draw_means == "replay":
        return tr("a draw means another game")
    side = draw_means.split()[0].lower()
    if side == "white":
        return tr("a draw means White wins")
    if side == "black":
        return tr("a draw means Black wins")
    return tr("a draw means {side} wins", side=side.capitalize())


def games_over(rules: MatchFormat, played: int) -> str:
    """The games a match was decided over: "the two regular games", or the stages'."""
    # English says "games" even for one; the singular is there for the languages
    # whose words agree with the count.
    if len(rules.stages) == 1:
        return ntr("the {count} regular games", "the {count} regular games", played,
                   count=count(played))
    names = [s.name for first, s in rules.stage_starts() if first <= played]
    return ntr("{count} games ({stages})", "{count} games ({stages})", played,
               count=count(played), stages=", ".join(names))
