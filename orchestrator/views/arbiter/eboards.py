"""The console's panel of e-boards (DGT, read through LiveChess): which match each
plays, whether it is heard and its battery, a position no legal move reaches, and a
board's own clock that differs from the service's."""

from __future__ import annotations

from orchestrator.core.events import BOARD_CLOCK_ALLOWANCE_MS
from orchestrator.views.arbiter.core import Core
from orchestrator.views.arbiter.models import EboardView
from playoff_formats.words import seconds

__all__ = ["EBOARD_QUIET_MS", "eboards_view"]

EBOARD_QUIET_MS = 30_000
"""An e-board not reported for this long is shown as not heard (its forwarder says
its status every 10 s)."""


def eboards_view(core: Core) -> tuple[EboardView, ...]:
    state, ctx = core.state, core.ctx
    if state.playoff is None:
        return ()
    heard = {e.serial: e for e in ctx.eboards}
    rows = []
    for serial in sorted(set(state.eboards) | set(heard)):
        match = state.eboards.get(serial)
        presence = heard.get(serial)
        title = None
        unread = gap = None
        if match is not None:
            m = state.chess.match(match)
            title = f"{core.round_name(m)} · match {match}"
            placement = state.unread.get(match)
            if placement is not None:
                unread = (
                    f"The e-board of {title} shows a position no legal move reaches "
                    "(a piece lifted, knocked over or set by hand): the moves stand as "
                    "read; check the board"
                )
            for key, (side, diff) in sorted(state.clock_gaps.items()):
                if key[0] == match:
                    ahead = "more" if diff > 0 else "less"
                    gap = (
                        f"The DGT clock of {title} gives {side.value} {seconds(abs(diff))} "
                        f"{ahead} than the service's clock (more than "
                        f"{seconds(BOARD_CLOCK_ALLOWANCE_MS)} apart): check the clocks"
                    )
        rows.append(EboardView(
            serial=serial, match=match, title=title,
            state=presence.state if presence is not None else None,
            battery=presence.battery if presence is not None else None,
            last_heard_ms=presence.last_heard_ms if presence is not None else None,
            heard=presence is not None
            and ctx.server_ms - presence.last_heard_ms <= EBOARD_QUIET_MS,
            unread=unread, unread_placement=state.unread.get(match) if match else None,
            clock_gap=gap,
        ))
    return tuple(rows)
