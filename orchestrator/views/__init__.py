"""What the screens show, computed once on the server.

- :mod:`.playoff`: the play-off as the REST API gives it, and the derived data
  that travels beside events (a clock as it stands, an Armageddon's terms).
- :mod:`.hall`: the hall display's view.
- :mod:`.arbiter`: the arbiter console's view: the hall's, and what each
  control may do now.
- :mod:`.event`: the views of a main event before its play-off (the play-off
  watch), for its arbiter console and its hall display.
- :mod:`.start`: getting in: the pages a token opens (the start page's list), and
  the page a browser gets at an address of the API.
- :mod:`.printable`: the consoles' Print menus: the printouts, their addresses, and
  why one cannot be printed yet.

A view is a pure function of the play-off's state and a :class:`ViewContext`
(the time, the schedule as planned at that time, the final placings). Clients
render views; they hold no rules of their own.
"""

from typing import Any

from orchestrator.views.arbiter import arbiter_view
from orchestrator.views.context import ViewContext
from orchestrator.views.hall import hall_view
from orchestrator.views.playoff import (
    ClockView,
    change_view,
    clock_view,
    decider_view,
    draw_view,
    event_extras,
    playoff_view,
)


def view_schemas() -> dict[str, dict[str, Any]]:
    """The JSON Schemas of the views sent as view frames, by ``view`` kind."""
    from orchestrator.views import arbiter, board, hall

    schemas: dict[str, dict[str, Any]] = {}
    for kind, module in (("hall", hall), ("arbiter", arbiter), ("board", board)):
        model = getattr(module, "VIEW_MODEL", None)
        schemas[kind] = model.model_json_schema() if model is not None else {"type": "object"}
    return schemas

__all__ = [
    "ClockView",
    "ViewContext",
    "arbiter_view",
    "change_view",
    "clock_view",
    "decider_view",
    "draw_view",
    "event_extras",
    "hall_view",
    "playoff_view",
    "view_schemas",
]
