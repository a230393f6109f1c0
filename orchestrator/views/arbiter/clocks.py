"""A game to act on now: its clock, its start and the rests a start would cut short.

- **Rests** (the format's breaks). A start inside the break after the main event,
  or inside the least interval after a player's previous game, is refused: the
  start is disabled with the rule and the instant it ends, and the chief arbiter
  gets "start anyway", with a required reason that is logged. The refusal comes
  with its ``wait`` (until when, and its words with the time left for the console
  to count down). A start inside the preferred interval after a player's previous
  game is accepted after a confirmation quoting the preference.
- **Controls that follow a clock.** Events that change only a clock (a press, a
  pause, an adjustment) send no new view: their event frame carries the clock as
  it then stands, and the console replaces the view's clock with it. So a
  :class:`~orchestrator.views.arbiter.forms.ClockControl` names its clock, the
  values the clock must show for the command to apply (``requires``: a press is
  for the side whose time runs, a pause for a running clock), and the payload
  fields taken from the clock (``fill``: the press echoes the clock's
  ``next_move``, so a double tap is refused as a move already counted). As
  computed here, ``requires`` holds on the view's clock exactly when ``enabled``
  is true.
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import JsonValue

from orchestrator.core import schedule as rules
from orchestrator.core.commands import (
    AdjustClock,
    PauseClock,
    PressClock,
    ResumeClock,
    StartGame,
)
from orchestrator.views.arbiter.core import (
    PROBE_REASON,
    Core,
    draw_words,
    game_label,
)
from orchestrator.views.arbiter.forms import (
    ClockControl,
    Control,
    Form,
    FormAction,
    FormField,
    Option,
    reason_field,
)
from orchestrator.views.arbiter.models import (
    STATUS_WORDS,
    ClockFace,
    GamePanel,
    RestView,
)
from orchestrator.views.arbiter.results import result_controls
from orchestrator.views.playoff import decider_view
from playoff_formats.clock import Clock, ClockStatus
from playoff_formats.model import Colour
from playoff_formats.phrase import and_list
from playoff_formats.playoff import (
    Game,
    Match,
)
from playoff_formats.schedule import RestBreach
from playoff_formats.schedule.rest import RestKind
from playoff_formats.schedule.words import span
from playoff_formats.speech import marked, ntr, tr

__all__ = [
    "SIDE_WORDS",
    "adjust_form",
    "game_panel",
    "press_control",
    "rest_view",
    "start_controls",
]


SIDE_WORDS: dict[Colour, str] = {Colour.WHITE: marked("White"), Colour.BLACK: marked("Black")}
"""A side of the board in words."""


def game_panel(core: Core, match: Match, game: Game) -> GamePanel:
    state = core.state
    key = (match.id, game.number)
    clock_key = f"{key[0]}:{key[1]}"
    clock = state.clocks.get(key)
    started = key in state.started_at
    control = state.time_control(match, game)
    if game.kind.decider:
        terms = decider_view(state, match.id, game.number)
        time_control = (
            f"{terms['time_control']}; {draw_words(terms['draw_means'])}"
            if terms is not None else ""
        )
        title = tr("Game {number} · {label}", number=game.number,
                   label=game_label(match.rules, game))
    else:
        time_control = str(control) if control is not None else ""
        title = tr("Game {number}", number=game.number)
    live = clock is not None and clock.status in (ClockStatus.RUNNING, ClockStatus.PAUSED)
    faces = tuple(
        ClockFace(
            side=side,
            side_label=tr(SIDE_WORDS[side]),
            player=core.name(game.white if side is Colour.WHITE else game.black),
            start_ms=control.initial_ms(side) if control is not None else None,
            press=press_control(core, clock_key, game, side, clock) if live and clock else None,
        )
        for side in (Colour.WHITE, Colour.BLACK)
    )
    ident = {"match": match.id, "game": game.number}
    where = tr("match {match}, game {game}", match=match.id, game=game.number)
    start: Control | None = None
    rests: tuple[RestView, ...] = ()
    anyway: Form | None = None
    if not started:
        start, rests, anyway = start_controls(core, match, game, clock_key, where)
    return GamePanel(
        match=match.id,
        game=game.number,
        clock=clock_key,
        title=title,
        time_control=time_control,
        status=tr(STATUS_WORDS[clock.status.value]) if clock else (
            tr("in play") if started else tr("not started")
        ),
        since=core.time(state.started_at[key]) if started else None,
        faces=(faces[0], faces[1]),
        start=start,
        rests=rests,
        start_anyway=anyway,
        pause=core.clock_control(
            clock_key, "pause", tr("Pause"), tr("Pause {game}", game=where),
            PauseClock(**ident),
            {"status": "running"},
        ) if live else None,
        resume=core.clock_control(
            clock_key, "resume", tr("Resume"), tr("Resume {game}", game=where),
            ResumeClock(**ident),
            {"status": "paused"},
            primary=True,
        ) if live else None,
        results=result_controls(core, match, game, started),
        adjust=adjust_form(core, match, game) if live else None,
    )


def rest_view(core: Core, breach: RestBreach, players: Sequence[str | None]) -> RestView:
    """A rest in words, citing the format's rule, with who rests and until when."""
    state = core.state
    limits = rules.constraints(state)
    rule = rules.rest_rule(state)
    cite = tr(" ({rule})", rule=rule) if rule else ""
    until = core.time(breach.until)
    if breach.kind is RestKind.MAIN_EVENT:
        text = tr(
            "The play-off starts at least {span} after the last main-event game of any "
            "play-off player{rule}: not before {until}.",
            span=span(limits.break_after_main_event), rule=cite, until=until,
        )
    else:
        ends = rules.previous_ends(state)
        rested = [p for p in players if p is not None and p in ends]
        latest = max((ends[p] for p in rested), default=None)
        who = [core.name(p) for p in rested if ends[p] == latest]
        needed = (
            limits.min_interval if breach.kind is RestKind.MINIMUM_INTERVAL
            else limits.preferred_interval
        )
        ended = ""
        if latest is not None:
            ended = ntr(
                ": {players} finished a previous game at {time}",
                ": {players} finished their previous game at {time}",
                len(who), players=and_list(who), time=core.time(latest),
            )
        said = (
            marked("Not less than {span} between a player's games{rule}{ended}; "
                   "rested at {until}.")
            if breach.kind is RestKind.MINIMUM_INTERVAL else
            marked("If possible at least {span} between a player's games{rule}{ended}; "
                   "rested at {until}.")
        )
        text = tr(said, span=span(needed), rule=cite, ended=ended, until=until)
    core.instants.append(breach.until)
    return RestView(
        kind=breach.kind, binding=breach.binding, text=text, until=breach.until,
        until_text=until, until_ms=core.ms(breach.until),
    )


def start_controls(
    core: Core, match: Match, game: Game, clock_key: str, where: str
) -> tuple[Control, tuple[RestView, ...], Form | None]:
    """The start, the rests it would cut short (the format's breaks), and the chief
    arbiter's start all the same when one of them is a rule."""
    ident = {"match": match.id, "game": game.number}
    command = StartGame(**ident)
    breaches = command.rest_breaches(core.state, core.check)
    rests = tuple(rest_view(core, b, (game.white, game.black)) for b in breaches)
    binding = [r for r in rests if r.binding]
    preferred = [r for r in rests if not r.binding]
    confirm = None
    if preferred and not binding:
        confirm = tr(
            "Start {game} now, before the interval the regulation prefers? {rests}",
            game=core.game_words(match.id, game.number),
            rests=" ".join(r.text for r in preferred),
        )
    start = core.control(
        f"clock:{clock_key}", "start", tr("Start clock"), tr("Start {game}", game=where),
        command,
        primary=True, confirm=confirm,
    )
    anyway = None
    if binding:
        why = core.refusal(StartGame(**ident, override=PROBE_REASON), core.chief)
        anyway = Form(
            id=f"clock:{clock_key}", name="start-anyway", title=tr("Start anyway"),
            hint=tr("Only the chief arbiter may set the rest aside; the reason is logged "
                    "and shown among the changes."),
            fields=(FormField(
                name="override", label=tr("Reason for starting early (required)"),
                input="text", min_length=3, max_length=300, clear_after=True,
                placeholder=tr("e.g. both players agree and are at the board"),
                test_id="override-reason",
            ),),
            actions=(FormAction(
                name="start-anyway-submit", label=tr("Start anyway"),
                summary=tr("Start {game} early: {override}", game=where, override="{override}"),
                command={"type": "start-clock", **ident},
            ),),
            enabled=why is None, refusal=why, role="chief",
        )
    return start, rests, anyway


def press_control(
    core: Core, clock_key: str, game: Game, side: Colour, clock: Clock
) -> ClockControl:
    """The press for ``side`` after its next move: offered while its time runs."""
    move = clock.moves_completed(side) + 1
    white = side is Colour.WHITE
    label = tr("White pressed the clock") if white else tr("Black pressed the clock")
    summary = (
        marked("White pressed after move {move} (match {match}, game {game})") if white
        else marked("Black pressed after move {move} (match {match}, game {game})")
    )
    return core.clock_control(
        clock_key, f"press-{side.value}", label,
        tr(summary, move="{move}", match=game.match, game=game.number),
        PressClock(match=game.match, game=game.number, side=side, move=move),
        {"running": side.value}, id=f"press:{clock_key}", fill={"move": "next_move"},
    )


def adjust_form(core: Core, match: Match, game: Game) -> Form:
    key = f"{match.id}:{game.number}"
    why = core.refusal(AdjustClock(
        match=match.id, game=game.number, side=Colour.WHITE, delta_ms=1000,
        reason=PROBE_REASON,
    ))
    command: dict[str, JsonValue] = {"type": "adjust", "match": match.id, "game": game.number}
    sides = tuple(
        Option(
            value=side.value,
            label=tr("{side} · {player}", side=tr(SIDE_WORDS[side]),
                     player=core.name(game.white if side is Colour.WHITE else game.black)),
            sets={"side": side.value},
        )
        for side in (Colour.WHITE, Colour.BLACK)
    )
    return Form(
        id=f"adjust:{key}", name="adjust", title=tr("Give or take time"),
        fields=(
            FormField(name="side", label=tr("Side"), input="select", options=sides,
                      test_id="adjust-side"),
            FormField(name="delta_ms", label=tr("Seconds"), input="number", value="60", min=1,
                      max=36_000, step=1, test_id="adjust-seconds"),
            reason_field("adjust-reason", tr("e.g. illegal move: 2 minutes to the opponent")),
        ),
        actions=(
            FormAction(name="adjust-give", label=tr("Give time"), command=command,
                       summary=tr("Give time to {side}, match {match}, game {game}",
                                  side="{side}", match=match.id, game=game.number),
                       scale={"delta_ms": 1000}),
            FormAction(name="adjust-take", label=tr("Take time"), command=command,
                       summary=tr("Take time from {side}, match {match}, game {game}",
                                  side="{side}", match=match.id, game=game.number),
                       scale={"delta_ms": -1000}),
        ),
        enabled=why is None, refusal=why, clock=key,
    )
