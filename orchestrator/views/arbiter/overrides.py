"""The chief arbiter's changes to the schedule (a start moved or postponed, the
time control shortened or restored, the deadline), each with a required reason."""

from __future__ import annotations

from orchestrator.core.commands import (
    MoveStart,
    RestoreTimeControl,
    ShortenTimeControl,
)
from orchestrator.views.arbiter.core import (
    PROBE_REASON,
    Core,
)
from orchestrator.views.arbiter.forms import (
    Form,
    FormAction,
    FormField,
    Option,
    reason_field,
)
from orchestrator.views.arbiter.models import (
    Overrides,
)
from orchestrator.views.arbiter.schedule import game_title
from playoff_formats.schedule import UnitStatus
from playoff_formats.speech import tr

__all__ = [
    "deadline_form",
    "movable_games",
    "move_start_form",
    "overrides_view",
    "postpone_form",
    "restore_time_control_form",
    "shortening_hint",
    "time_control_form",
]


def overrides_view(core: Core) -> Overrides:
    movable = movable_games(core)
    return Overrides(
        move_start=move_start_form(core, movable) if movable else None,
        postpone=postpone_form(core, movable) if movable else None,
        time_control=time_control_form(core),
        restore_time_control=restore_time_control_form(core),
        deadline=deadline_form(core),
    )


def movable_games(core: Core) -> tuple[Option, ...]:
    """The planned games whose start the arbiter may move or postpone."""
    plan = core.ctx.plan
    if plan is None:
        return ()
    options = []
    for g in plan.games:
        if g.status is not UnitStatus.PLANNED:
            continue
        probe = MoveStart(match=g.match, game=g.game, at=g.start, reason=PROBE_REASON)
        if core.refusal(probe) is None:
            options.append(Option(
                value=f"{g.match}:{g.game}", label=game_title(core, g),
                sets={"match": g.match, "game": g.game}, at=g.start,
            ))
    return tuple(options)


def move_start_form(core: Core, games: tuple[Option, ...]) -> Form:
    return Form(
        id="move-start", name="move-start", title=tr("Move a start"),
        fields=(
            FormField(name="game", label=tr("Game"), input="select", options=games,
                      test_id="ms-game"),
            FormField(name="at", label=tr("New start"), input="datetime", test_id="ms-at"),
            reason_field("ms-reason"),
            FormField(name="public_reason", label=tr("Show the reason in the hall"),
                      input="checkbox", required=False, test_id="ms-public"),
        ),
        actions=(FormAction(name="ms-submit", label=tr("Move the start"),
                            summary=tr("Move the start of match {match}, game {game}"),
                            command={"type": "move-start"}),),
        enabled=True,
    )


def postpone_form(core: Core, games: tuple[Option, ...]) -> Form:
    return Form(
        id="postpone", name="postpone", title=tr("Postpone a game"),
        fields=(
            FormField(name="game", label=tr("Game"), input="select", options=games,
                      test_id="pp-game"),
            FormField(name="minutes", label=tr("By minutes"), input="number", value="15",
                      min=1, max=24 * 60, step=1, test_id="pp-minutes"),
            reason_field("pp-reason"),
            FormField(name="public_reason", label=tr("Show the reason in the hall"),
                      input="checkbox", required=False, test_id="pp-public"),
        ),
        actions=(FormAction(name="pp-submit", label=tr("Postpone"),
                            summary=tr("Postpone match {match}, game {game} by {minutes} min"),
                            command={"type": "postpone"}),),
        enabled=True,
    )


def time_control_form(core: Core) -> Form | None:
    """The time limits of matches not begun may be shortened (as the format allows)."""
    state = core.state
    if state.playoff is None:
        return None
    options = []
    for match in state.chess.matches:
        control = None if match.bye else state.time_control(match, 1)
        if control is None:
            continue
        probe = ShortenTimeControl(
            time_control=str(control), match=match.id, reason=PROBE_REASON
        )
        if core.refusal(probe) is None:
            options.append(Option(
                value=str(match.id),
                label=tr("{round} (match {match}, now {control})",
                         round=core.round_name(match), match=match.id, control=control),
                sets={"match": match.id},
            ))
    if not options:
        return None  # every match has begun: no time control is left to shorten
    every = Option(value="", label=tr("Every match not begun"), sets={"match": None})
    plan = core.ctx.plan
    return Form(
        id="time-control", name="time-control", title=tr("Shorten the time control"),
        hint=shortening_hint(state.format.shortening_rule),
        fields=(
            FormField(name="time_control", label=tr("New time control"), input="text",
                      placeholder=tr("e.g. G/15+5"), max_length=200, clear_after=True,
                      test_id="tc-value"),
            FormField(name="match", label=tr("Which matches"), input="select",
                      options=(every, *options), test_id="tc-match"),
            reason_field("tc-reason"),
        ),
        actions=(FormAction(name="tc-submit", label=tr("Shorten"),
                            summary=tr("Shorten the time control to {time_control}"),
                            command={"type": "time-control"}),),
        enabled=True, open=plan is not None and plan.fits is False, role="chief",
    )


def shortening_hint(rule: str | None) -> str:
    """What may be shortened, after the format's rule (cited as the format words it)."""
    if rule:
        return tr("{rule}: only shorter, and only for matches not begun.", rule=rule)
    return tr("only shorter, and only for matches not begun.")


def restore_time_control_form(core: Core) -> Form | None:
    """A shortening undone: the regulation's time control again (chief arbiter)."""
    state = core.state
    if state.playoff is None:
        return None
    options = []
    for match in state.chess.matches:
        probe = RestoreTimeControl(match=match.id, reason=PROBE_REASON)
        if match.bye or core.refusal(probe) is not None:
            continue
        options.append(Option(
            value=str(match.id),
            label=tr("{round}: back to {control}", round=core.round_name(match),
                     control=match.time_control),
            sets={"match": match.id},
        ))
    if not options:
        return None  # nothing shortened that has not begun
    every = Option(value="", label=tr("Every match shortened and not begun"),
                   sets={"match": None})
    return Form(
        id="restore-time-control", name="restore-time-control",
        title=tr("Restore the time control"),
        hint=tr("The regulation's time control again, for matches not begun."),
        fields=(
            FormField(name="match", label=tr("Which matches"), input="select",
                      options=(every, *options), test_id="tcr-match"),
            reason_field("tcr-reason"),
        ),
        actions=(FormAction(name="tcr-submit", label=tr("Restore"),
                            summary=tr("Restore the regulation's time control"),
                            command={"type": "restore-time-control"}),),
        enabled=True, role="chief",
    )


def deadline_form(core: Core) -> Form:
    return Form(
        id="deadline", name="deadline", title=tr("Deadline"),
        fields=(
            FormField(name="deadline", label=tr("Deadline (empty: none)"), input="datetime",
                      required=False, test_id="dl-at"),
            reason_field("dl-reason"),
        ),
        actions=(FormAction(name="dl-submit", label=tr("Set the deadline"),
                            summary=tr("Set the deadline"), command={"type": "deadline"}),),
        enabled=True,
    )
