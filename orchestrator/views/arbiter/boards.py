"""The console's panel of board clocks: each board as it shows its clock, whether it
is heard, its battery, its sides, and a call for the arbiter; and the board key each
match may be given."""

from __future__ import annotations

from datetime import UTC, datetime

from orchestrator.views.arbiter.core import Core
from orchestrator.views.arbiter.models import BoardKeyControl, BoardStatusView
from orchestrator.views.board import board_view
from orchestrator.views.playoff import ClockView
from playoff_formats.schedule.words import local
from playoff_formats.speech import ntr, tr

__all__ = ["board_keys_view", "boards_view"]


def boards_view(core: Core) -> tuple[BoardStatusView, ...]:
    state, ctx = core.state, core.ctx
    if state.playoff is None:
        return ()
    rows = []
    for presence in ctx.boards:
        board = board_view(state, ctx, presence.match)
        called = board["called"]
        alert = None
        if called is not None:
            at = _time(called["at_ms"], core)
            alert = tr("The arbiter is called to the board of {board} at {time}",
                       board=board["title"], time=at)
        outage = None
        game = board["game"]
        held = state.outages.get((presence.match, game)) if game is not None else None
        if held is not None:
            since = _time(held[0], core)
            outage = ntr(
                "The board of {board} was offline from {since}, past the allowance, "
                "holding {n} press: set the clocks",
                "The board of {board} was offline from {since}, past the allowance, "
                "holding {n} presses: set the clocks",
                held[1], board=board["title"], since=since,
            )
        rows.append(BoardStatusView(
            match=presence.match, title=board["title"], online=presence.online,
            last_heard_ms=presence.last_heard_ms, battery=presence.battery,
            charging=presence.charging,
            clock=ClockView.model_validate(board["clock"]) if board["clock"] else None,
            left=board["left"], called=called, alert=alert, outage=outage,
            status=board["status"],
        ))
    return tuple(rows)


def board_keys_view(core: Core) -> tuple[BoardKeyControl, ...]:
    """A board key to issue for each match played (the console shows its link and QR
    code once made)."""
    state = core.state
    if state.playoff is None:
        return ()
    return tuple(
        BoardKeyControl(
            match=m.id, title=tr("{round} · match {match}", round=core.round_name(m), match=m.id),
            command={"type": "issue-board-key", "match": m.id},
            request={
                "method": "POST", "path": f"/api/events/{state.event_id}/tokens",
                "body": {"role": "board", "playoff": state.id, "match": m.id},
            },
        )
        for m in state.chess.matches if not m.bye
    )


def _time(ms: int, core: Core) -> str:
    """A server instant as the hall's time of day, to the second: ``14:31:05``."""
    return f"{local(datetime.fromtimestamp(ms / 1000, UTC), core.state.zone):%H:%M:%S}"
