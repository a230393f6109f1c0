"""The console's panel of e-boards (DGT, read through LiveChess): which match each
plays, whether it is heard and its battery, a position no legal move reaches, and a
board's own clock that differs from the service's."""

from __future__ import annotations

from orchestrator.core.events import BOARD_CLOCK_ALLOWANCE_MS
from orchestrator.views.arbiter.core import Core
from orchestrator.views.arbiter.models import EboardView
from playoff_formats.speech import marked, tr
from playoff_formats.words import seconds

__all__ = ["CLOCK_GAPS", "EBOARD_QUIET_MS", "eboards_view"]

EBOARD_QUIET_MS = 30_000
"""An e-board not reported for this long is shown as not heard (its forwarder says
its status every 10 s)."""

CLOCK_GAPS: dict[tuple[str, bool], str] = {
    ("white", True): marked(
        "The DGT clock of {board} gives white {gap} more than the service's clock "
        "(more than {allowance} apart): check the clocks"),
    ("white", False): marked(
        "The DGT clock of {board} gives white {gap} less than the service's clock "
        "(more than {allowance} apart): check the clocks"),
    ("black", True): marked(
        "The DGT clock of {board} gives black {gap} more than the service's clock "
        "(more than {allowance} apart): check the clocks"),
    ("black", False): marked(
        "The DGT clock of {board} gives black {gap} less than the service's clock "
        "(more than {allowance} apart): check the clocks"),
}
"""A DGT clock apart from the service's: (the side, its DGT clock shows more) -> its
words (each language words the side and the comparison its own way)."""


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
            title = tr("{round} · match {match}", round=core.round_name(m), match=match)
            placement = state.unread.get(match)
            if placement is not None:
                unread = tr(
                    "The e-board of {board} shows a position no legal move reaches "
                    "(a piece lifted, knocked over or set by hand): the moves stand as "
                    "read; check the board", board=title,
                )
            for key, (side, diff) in sorted(state.clock_gaps.items()):
                if key[0] == match:
                    gap = tr(CLOCK_GAPS[(side.value, diff > 0)], board=title,
                             gap=seconds(abs(diff)),
                             allowance=seconds(BOARD_CLOCK_ALLOWANCE_MS))
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
