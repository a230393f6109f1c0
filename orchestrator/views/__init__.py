"""What the screens show, computed once on the server.

- :mod:`.playoff`: the play-off as the REST API gives it, and the derived data
  that travels beside events (a clock as it stands, an Armageddon's terms).
- :mod:`.hall`: the hall display's view.
- :mod:`.arbiter`: the arbiter console's view: the hall's, and what each
  control may do now.

A view is a pure function of the play-off's state and a :class:`ViewContext`
(the time, the schedule as planned at that time, the final placings). Clients
render views; they hold no rules of their own.
"""

from orchestrator.views.arbiter import arbiter_view
from orchestrator.views.context import ViewContext
from orchestrator.views.hall import hall_view
from orchestrator.views.playoff import (
    armageddon_view,
    change_view,
    clock_view,
    draw_view,
    event_extras,
    playoff_view,
)

__all__ = [
    "ViewContext",
    "arbiter_view",
    "armageddon_view",
    "change_view",
    "clock_view",
    "draw_view",
    "event_extras",
    "hall_view",
    "playoff_view",
]
