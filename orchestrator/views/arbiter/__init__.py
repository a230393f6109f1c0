"""The arbiter console's view of a play-off: what it shows, and what each control does.

Everything the console shows is decided and worded here; the console renders the
view and sends the payloads it offers. It keeps no rules of its own: no command
or event types, no move counter, no turns, no points table, no schedule diffing.
Text meant for people names players, never their ids, and gives times of day as
the hall reads them (``13:29``, in the play-off's time zone, ``state.zone``).

Controls
--------
A :class:`Control` is one button: the exact command payload it sends, its label,
and whether the service accepts that command now (``enabled``), else the
service's own reason (``refusal``). Both come from
:func:`orchestrator.core.commands.refusal`, which runs the service's check without
logging, so a control is offered exactly when its command would be accepted. A
control with ``confirm`` is sent only once the arbiter has confirmed it, after
reading that text.

A :class:`Form` is a command the arbiter completes: the fixed part of the payload
(per :class:`FormAction`), and fields whose options carry the payload fields they
set (the games whose start may move, the matches whose time control may be
shortened...), or whose typed value goes into one payload field. A number typed
in other units is multiplied by the action's ``scale`` (seconds to milliseconds,
negative to take time). Every arbiter's override has a required reason. An
option may carry a :class:`Caution` (what choosing it entails), and a field may be
shown only while other fields hold given values (``shown_when``): the checkbox
that confirms a correction voiding games is shown, and required, exactly for the
results whose correction voids something. A form with a ``role`` is for consoles
of that role only (the service refuses the command from any other).

Panels
------
One module per panel of the console: :mod:`.match` (a match, its games and its
decision), :mod:`.lots` (lots, coin tosses, colours), :mod:`.clocks` (a game's
clock, its start and rests), :mod:`.results`, :mod:`.corrections` (flag falls and
corrections), :mod:`.bridge` (extra boards), :mod:`.schedule` (the plan and its
re-plans), :mod:`.records` (draws and changes), :mod:`.placings`,
:mod:`.overrides` (the chief arbiter's changes to the schedule); :mod:`.view`
puts them together. :mod:`.forms` and :mod:`.models` are the view as sent;
:mod:`.core` is what every panel needs (the state, the instant, the check of a
command, the words for players and games). What the hall shows too (the flag to
announce, the next change, the placings, round names) is decided in
:mod:`orchestrator.views.shared`, and people's words for results, points and money
come from :mod:`playoff_formats.words`.
"""

from __future__ import annotations

from typing import Any

from orchestrator.core.state import PlayoffState
from orchestrator.views.arbiter.core import Core
from orchestrator.views.arbiter.forms import (
    Caution,
    ClockControl,
    Control,
    Form,
    FormAction,
    FormField,
    Option,
)
from orchestrator.views.arbiter.models import VIEW_MODEL, ArbiterView
from orchestrator.views.arbiter.view import whole_view
from orchestrator.views.context import ViewContext
from playoff_formats.schedule import written_in

__all__ = [
    "VIEW_MODEL",
    "ArbiterView",
    "Caution",
    "ClockControl",
    "Control",
    "Form",
    "FormAction",
    "FormField",
    "Option",
    "arbiter_view",
]


def arbiter_view(state: PlayoffState, ctx: ViewContext) -> dict[str, Any]:
    """Everything the arbiter console shows and allows, as of ``ctx.now``."""
    # Its instants with the offset of the play-off's zone in force at each (in UTC, as
    # always, for a play-off that names no zone).
    zone = written_in(state.zone if state.time_zone is not None else None)
    return whole_view(Core(state, ctx)).model_dump(mode="json", context=zone)
