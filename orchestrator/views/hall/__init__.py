"""The hall display's view of a play-off: everything the hall shows, decided and
worded here, so that the page only renders it.

A hall display is read from ten metres by players, spectators and arbiters; it
holds no rules of its own. What it shows is chosen here, for the instant
``ctx.now``:

- **Mode.** ``scoreboard`` for bridge extra boards; ``champion`` once the final is
  decided; ``games`` while a game has a clock on the board (running, paused, or
  started but not yet running); ``idle`` between games, with the next game in
  large type; ``waiting`` when no game is on and none can be planned (the
  schedule cannot be made, or nothing is left to place).
- **In play.** A game is in play from its start until its result; a stanza of
  extra boards from its first score until every board has both tables' scores.
- **Next game.** The earliest game of the schedule that has not started, the
  first in schedule order among those starting at the same instant. It is *due*
  once its planned start has come, or is less than a second away (the planner
  never plans a game that has not started before ``now``, so a due game stays due
  at ``now`` until it starts).
  Its start is an *estimate* ("about 13:05") while it waits on a game in play:
  it shares a player with one, belongs to the same match, or is to be played by
  the winner of a match with a game in play (the planner expects a running game
  to end with its estimate, or a few minutes after now once past it).
- **The countdown.** One target: the next game's planned start, shown whenever
  there is a next game whose start is not an estimate, and never once the
  play-off is over. Once due, the countdown says "starting now" instead.
- **Pause in force.** None while a game or stanza is in play. Chess: a break of
  the schedule under way at ``now`` (its start has come, its end has not) and not
  overtaken by play: a break is over as soon as one of its players starts a
  game, even before its planned end (the chief arbiter may start early, with a
  reason). When several are in force: the break after the main event first (the
  format's break after the last main-event game of any play-off player), then
  the interval of the players of the next game (the format's least and preferred
  intervals between games, or before a new stage), then the one that ends first. The
  pause is what the hall is told; the countdown still runs to the next game's
  start, which can be later than the pause's end (the organiser's earliest
  start, a moved start, another match's interval). Bridge extra boards: no
  interval is owed between stanzas (EBU 143.2.1 prescribes none: the teams
  change tables, and partners where the plan says so); from the end of a
  complete stanza until the first score of the next, the pause is a *stanza
  change*.
- **Flag fall.** The game whose clock shows a fallen flag and that ended last is
  announced ("White's flag fell: 0-1", and who beat whom) from its flag until a
  game starts after it ended.
- **Colours.** Known for a stage's games once its lots are drawn (the stage's
  games alternate from its first), and for a decider game once the toss winner
  has chosen. Until then the players are listed with a dash, never with "v",
  and "colours by lot" or "colours by coin toss" is said.
- **Stages.** A game of a match played in several stages (a ladder) is shown
  with its stage's name and time control, from the match's format.
- **Armageddon banner.** The decider being played, else the next one to be played
  (a match level after its stages): its name, who has White and Black and their
  times, the increment and the draw odds (all from the match's format), or where
  the coin toss stands.
- **Marks and totals.** A game's points for each player come from the result
  (:attr:`~playoff_formats.model.Result.white_points`); a match's total counts
  the regular games (the decider decides, it scores nothing). The winner of the
  final is the champion (the play-off determines the winner of the tournament);
  the winner of any other match advances.
- **Bridge scores.** A board's scores and IMPs are shown once both tables have
  scored it, never before (a table still to play the board must not see the
  other table's score); a board without a swing shows 0 IMPs. Every set of extra
  boards stays on the board when a tied set is played again (EBU 143.2.1: "the
  procedure shall be repeated"), each with its own IMPs.
- **Words.** People by name, never by id: a player's *short* name is the family
  name (before the comma of "Family, Given"; without a comma, the name without
  trailing initials, "Praggnanandhaa R" → "Praggnanandhaa"), or the full name
  when two players of the play-off would share it. A place still to fill is
  "Winner of" the match's name. Times of day are the hall's (``state.zone``, the
  event's time zone, with the offset in force at each instant).
  Money has thousands separators.

Instants are server milliseconds (``*_ms``), on the scale of ``ctx.server_ms`` and
of the clocks, so that a page counts down to them with the offset it measured.
``next_change_ms`` is the next instant at which this view would change with the
time alone: the hub recomputes the view then.

Parts
-----
:mod:`.view` puts together :mod:`.games` (the games on the board, the decider's
banner, the notices), :mod:`.schedule` (the next game and the pause in force),
:mod:`.bracket`, :mod:`.bridge` (the scoreboard) and :mod:`.placings`;
:mod:`.models` is the view as sent, :mod:`.core` how the hall names players and
games. What the console shows too (which flag fell, the next change, the
placings, round names) is decided in :mod:`orchestrator.views.shared`, and the
words for results, points and money come from :mod:`playoff_formats.words`.
"""

from __future__ import annotations

from typing import Any

from orchestrator.core.state import PlayoffState
from orchestrator.views.context import ViewContext
from orchestrator.views.hall.core import STANZA_DUE, Core, short_names
from orchestrator.views.hall.models import (
    VIEW_MODEL,
    ArmageddonBanner,
    BracketMark,
    BracketMatch,
    BracketPlayer,
    BracketRound,
    BreakInForce,
    Countdown,
    FlagNotice,
    HallView,
    IdleHeadline,
    LiveGame,
    NextGame,
    PlacingRow,
    PlayerLabel,
    Scoreboard,
    ScoreboardBoard,
    ScoreboardSet,
    ScoreboardStanza,
    ScoreboardTeam,
    StanzaScheduled,
)
from orchestrator.views.hall.view import whole_view

__all__ = [
    "STANZA_DUE",
    "VIEW_MODEL",
    "ArmageddonBanner",
    "BracketMark",
    "BracketMatch",
    "BracketPlayer",
    "BracketRound",
    "BreakInForce",
    "Countdown",
    "FlagNotice",
    "HallView",
    "IdleHeadline",
    "LiveGame",
    "NextGame",
    "PlacingRow",
    "PlayerLabel",
    "Scoreboard",
    "ScoreboardBoard",
    "ScoreboardSet",
    "ScoreboardStanza",
    "ScoreboardTeam",
    "StanzaScheduled",
    "hall_view",
    "short_names",
]


def hall_view(state: PlayoffState, ctx: ViewContext) -> dict[str, Any]:
    """Everything the hall display shows, as of ``ctx.now`` (a :class:`HallView`
    as JSON)."""
    return whole_view(Core(state, ctx)).model_dump(mode="json")
