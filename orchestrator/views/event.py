"""The views of a main event before its play-off: the play-off watch.

A play-off is created once the main event is final; before that, while the last
games are played, the arbiter console opens on the event itself
(``/arbiter/events/{event_id}``) and shows what this module computes from the
event's state and its foresight (:mod:`playoff_formats.foresight`): the pending
games with a control for each result, the number of outcomes and those that need
a play-off for first, its probability with the model named beside it, who can
be first alone or in the play-off (counts and percentages), and the conditions
in words. Each result control carries the exact request it sends; the page
renders and sends, it computes nothing.

The hall display of the event shows one line of the watch only while the chief
arbiter has switched it on (:class:`~orchestrator.core.events.HallForesightSet`): a
play-off that is only possible is not announced to the players by default.

Both views are worded in the language in force (the request's ``?lang=``, else the
display key's language): built inside :func:`~playoff_formats.speech.speaking`.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from orchestrator.core.state import EventState
from orchestrator.views.printable import PrintMenu, event_print_menu
from playoff_formats.foresight import DRAW_RATES, Foresight, PendingGame
from playoff_formats.model import IndividualEvent
from playoff_formats.speech import marked, ntr, spoken, tr
from playoff_formats.values import Result
from playoff_formats.words import result_written

__all__ = [
    "EventHallView",
    "EventWatchView",
    "event_hall_view",
    "event_watch_view",
    "percent",
]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Request(_Model):
    """A request the page sends as it is: method, path and JSON body."""

    method: Literal["POST", "PUT"]
    path: str
    body: dict[str, Any]


class ResultControl(_Model):
    label: str
    request: Request
    confirm: str = Field(description="Shown before the result is sent, to be confirmed")


class PendingView(_Model):
    round: int
    white: str = Field(description="White's name")
    black: str = Field(description="Black's name")
    label: str
    results: list[ResultControl]


class PlayerWatch(_Model):
    id: str
    name: str
    first_alone: float
    in_playoff: float
    first_alone_text: str = Field(description='"9 of 27 outcomes · 41.0%"')
    in_playoff_text: str


class ModelChoice(_Model):
    value: str = Field(description="The ``time_control`` query value")
    label: str


class WatchView(_Model):
    time_control: str = Field(description="The time control whose draw rate the model uses")
    choices: list[ModelChoice] = Field(description="The time controls the arbiter may choose")
    outcomes: int
    exact: bool
    playoff_outcomes: float
    probability: float
    probability_text: str
    model: str = Field(description="The model the percentages are computed under")
    headline: str
    players: list[PlayerWatch]
    conditions: list[str]
    note: str | None = Field(default=None, description="How the figures were estimated")


class HallSwitch(_Model):
    on: bool
    words: str
    request: Request | None = Field(description="The switch, for the chief arbiter only")
    refusal: str | None = None


class PlayoffLink(_Model):
    id: str
    url: str


class EventWatchView(_Model):
    """The arbiter console of a main event: its pending games and the play-off watch."""

    view: Literal["event"] = "event"
    event_id: str
    seq: int
    role: Literal["chief", "arbiter"] = Field(description="Whose console this is")
    title: str
    subtitle: str
    final: bool
    pending: list[PendingView]
    watch: WatchView | None
    watch_error: str | None = None
    next_step: str
    build: ResultControl | None = Field(
        default=None, description="Build the play-off: once final, when a tie for first needs one"
    )
    hall: HallSwitch
    playoffs: list[PlayoffLink]
    printing: PrintMenu | None = Field(
        default=None, description="The Print menu: the standings as a PDF"
    )


class EventHallView(_Model):
    """The hall display of a main event: its name, and the watch line when switched on."""

    view: Literal["event-hall"] = "event-hall"
    event_id: str
    seq: int
    title: str
    line: str | None = Field(description="The play-off watch, only while the chief shows it")
    playoff: str | None = Field(
        default=None,
        description="The event's play-off, once built: the hall display follows it there",
    )


# --------------------------------------------------------------------------- building


_RESULTS = (Result.WHITE_WINS, Result.DRAW, Result.BLACK_WINS)


def percent(p: float) -> str:
    """A probability as people read it: one decimal, never 0 % for a possible outcome."""
    if 0 < p < 0.001:
        return "<0.1%"
    if 0.999 < p < 1:
        return ">99.9%"
    return f"{p:.1%}"


def _count(value: float) -> str:
    """A count of outcomes (an estimate is rounded) as the language groups digits."""
    return spoken().number(round(value))


def _of_outcomes(count: float, total: int) -> str:
    """The outcomes that need a play-off among all ("9 of 27 outcomes"): the word
    agrees with the total."""
    return ntr("{count} of {n} outcome", "{count} of {n} outcomes", total, count=_count(count))


def _names(state: EventState) -> dict[str, str]:
    event = state.event
    if isinstance(event, IndividualEvent):
        return {p.id: p.name for p in event.players}
    return {t.id: t.name for t in event.teams}


def _pending(state: EventState, names: dict[str, str]) -> list[PendingView]:
    views = []
    for game in state.pending:
        white, black = names.get(game.white, game.white), names.get(game.black, game.black)
        views.append(PendingView(
            round=game.round, white=white, black=black,
            label=tr("Round {round}: {white} – {black}", round=game.round, white=white,
                     black=black),
            results=[_result_control(state.id, game, result, white, black)
                     for result in _RESULTS],
        ))
    return views


def _result_control(
    event_id: str, game: PendingGame, result: Result, white: str, black: str
) -> ResultControl:
    label = result_written(result)
    return ResultControl(
        label=label,
        request=Request(
            method="POST", path=f"/api/events/{event_id}/results",
            body={"round": game.round, "white": game.white, "black": game.black,
                  "result": result.value},
        ),
        confirm=tr(_CONFIRMS[result], result=label, round=game.round, white=white, black=black),
    )


_CONFIRMS = {
    Result.WHITE_WINS: marked("Record {result} in round {round}: {white} beats {black}?"),
    Result.DRAW: marked("Record {result} in round {round}: {white} draws with {black}?"),
    Result.BLACK_WINS: marked("Record {result} in round {round}: {black} beats {white}?"),
}
"""The question before a result is sent, whole for each result: a language words the
winner and the loser in its own order."""

_TIME_CONTROLS = {
    "classical": marked("classical"),
    "rapid": marked("rapid"),
    "blitz": marked("blitz"),
}
"""The time controls the model's draw rate is set by, as the arbiter reads them."""


def _choices() -> list[ModelChoice]:
    return [
        ModelChoice(value=kind, label=tr(
            "{time_control} (draw rate {rate} between equal players)",
            time_control=tr(_TIME_CONTROLS.get(kind, kind)), rate=f"{rate:.0%}",
        ))
        for kind, rate in DRAW_RATES.items()
    ]


def _watch(found: Foresight, time_control: str) -> WatchView:
    total = found.outcomes
    probability = percent(found.probability)
    if not found.pending:
        headline = (
            tr("Every result is in: a play-off for first is needed.")
            if found.playoff_outcomes
            else tr("Every result is in: no play-off for first is needed.")
        )
    else:
        # Two counts: the games' sentence, with the outcomes counted in their own words.
        headline = ntr(
            "A play-off for first is needed in {outcomes} of the {n} pending game.",
            "A play-off for first is needed in {outcomes} of the {n} pending games.",
            len(found.pending), outcomes=_of_outcomes(found.playoff_outcomes, total),
        )
    players = [
        PlayerWatch(
            id=p.id, name=p.name, first_alone=p.first_alone, in_playoff=p.in_playoff,
            first_alone_text=_share(p.first_alone, total, p.p_first_alone),
            in_playoff_text=_share(p.in_playoff, total, p.p_in_playoff),
        )
        for p in sorted(
            found.players, key=lambda p: (-(p.p_first_alone + p.p_in_playoff), p.name)
        )
        if p.first_alone or p.in_playoff
    ]
    note = None
    if not found.exact:
        note = tr(
            "Too many outcomes to look at each: estimated from {sample} drawn at random, "
            "standard error at most {error}",
            sample=spoken().number(found.sample or 0), error=percent(found.error or 0),
        )
    return WatchView(
        time_control=time_control, choices=_choices(), outcomes=total, exact=found.exact,
        playoff_outcomes=found.playoff_outcomes,
        probability=found.probability, probability_text=probability, model=found.model,
        headline=headline, players=players, conditions=list(found.conditions), note=note,
    )


def _share(count: float, total: int, probability: float) -> str:
    """A player's outcomes and their probability: "9 of 27 outcomes · 41.0%"."""
    return ntr(
        "{count} of {n} outcome · {percent}", "{count} of {n} outcomes · {percent}", total,
        count=_count(count), percent=percent(probability),
    )


def event_watch_view(
    state: EventState, found: Foresight | None, role: str, error: str | None = None,
    time_control: str = "classical",
) -> dict[str, Any]:
    """What the arbiter console shows of ``state`` (``found``: its foresight under the
    draw rate of ``time_control``, or None with ``error`` saying why there is none)
    to a token of ``role``."""
    names = _names(state)
    event = state.event
    count = len(state.pending)
    build = None
    if count:
        subtitle = ntr(
            "{regulation} · {n} game pending", "{regulation} · {n} games pending", count,
            regulation=event.regulation,
        )
        next_step = tr(
            "Record each result as it comes in: the play-off watch is computed again at "
            "once. The play-off can be built when every game has its result."
        )
    elif state.playoffs:
        subtitle = tr("{regulation} · every result in", regulation=event.regulation)
        next_step = tr("The play-off is built: open its console below.")
    elif found is not None and found.playoff_outcomes:
        subtitle = tr("{regulation} · every result in", regulation=event.regulation)
        next_step = tr("Every result is in: the standings are final, and first place is tied.")
        build = ResultControl(
            label=tr("Build the play-off"),
            request=Request(method="POST", path=f"/api/events/{state.id}/playoff", body={}),
            confirm=tr(
                "Build the play-off the regulation prescribes, seeded by the tie-breaks? "
                "It is built once: its lots and schedule follow at once."
            ),
        )
    else:
        subtitle = tr("{regulation} · every result in", regulation=event.regulation)
        next_step = tr("Every result is in: the standings are final, with no tie for first.")
    chief = role == "chief"
    hall = HallSwitch(
        on=state.hall_foresight,
        words=(
            tr("The hall display shows the play-off watch.") if state.hall_foresight
            else tr("The hall display does not show the play-off watch (the default).")
        ),
        request=Request(
            method="PUT", path=f"/api/events/{state.id}/hall-foresight",
            body={"on": not state.hall_foresight},
        ) if chief else None,
        refusal=None if chief else tr("only the chief arbiter may switch it"),
    )
    view = EventWatchView(
        event_id=state.id, seq=state.seq, role="chief" if chief else "arbiter",
        title=event.name, subtitle=subtitle,
        final=not state.pending, pending=_pending(state, names),
        watch=_watch(found, time_control) if found is not None else None, watch_error=error,
        next_step=next_step, build=build, hall=hall,
        playoffs=[PlayoffLink(id=p, url=f"/arbiter/{p}") for p in state.playoffs],
        printing=event_print_menu(state),
    )
    return view.model_dump(mode="json")


def event_hall_view(state: EventState, found: Foresight | None) -> dict[str, Any]:
    """What the hall display shows of ``state``: the watch line only when switched on."""
    line = None
    if state.hall_foresight and found is not None and found.pending:
        line = hall_watch_line(found)
    return EventHallView(
        event_id=state.id, seq=state.seq, title=state.event.name, line=line,
        playoff=state.playoffs[-1] if state.playoffs else None,
    ).model_dump(mode="json")


def hall_watch_line(found: Foresight) -> str:
    """The play-off watch for spectators: one plain sentence. The counts, the
    probabilities and the model they rest on are the arbiters' (the console)."""
    if found.playoff_outcomes == 0:
        return tr("First place will be decided without a play-off.")
    if found.playoff_outcomes >= found.outcomes:
        return tr("A play-off for first is certain.")
    return tr("A play-off for first is possible: it depends on the games still in play.")
