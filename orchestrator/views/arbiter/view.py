"""The whole of the console's view: every panel, for one state at one instant."""

from __future__ import annotations

from typing import Literal

from orchestrator.core.access import (
    HALL_KEY_MADE,
    HALL_KEY_TITLE,
    HALL_KEY_WORDS,
    display_key_request,
)
from orchestrator.views.arbiter.boards import board_keys_view, boards_view
from orchestrator.views.arbiter.bridge import extra_boards_view
from orchestrator.views.arbiter.core import (
    Core,
)
from orchestrator.views.arbiter.eboards import eboards_view
from orchestrator.views.arbiter.match import match_view
from orchestrator.views.arbiter.models import (
    ArbiterView,
    BroadcastKey,
    ChampionView,
    DrawView,
    ExtraBoardsView,
    HallKey,
    HallKeyRequest,
    MatchView,
)
from orchestrator.views.arbiter.overrides import overrides_view
from orchestrator.views.arbiter.placings import placing_rows
from orchestrator.views.arbiter.records import change_view, draw_view
from orchestrator.views.arbiter.schedule import next_change_ms, schedule_view
from orchestrator.views.playoff import ClockView, clock_view
from orchestrator.views.printable import playoff_print_menu
from orchestrator.views.shared import offset_minutes
from playoff_formats.errors import PlayoffError
from playoff_formats.playoff import (
    champion,
)
from playoff_formats.regulations import get_regulation
from playoff_formats.speech import tr

__all__ = [
    "regulation_title",
    "whole_view",
]


def whole_view(core: Core) -> ArbiterView:
    state, ctx = core.state, core.ctx
    extra = state.extra
    if extra is not None:
        title = " v ".join(core.name(t) for t in (extra.home, extra.away))
        kind: Literal["knock-out", "extra-boards"] = "extra-boards"
        subtitle = tr("extra boards · {regulation}", regulation=state.regulation)
        matches: tuple[MatchView, ...] = ()
        extra_view: ExtraBoardsView | None = extra_boards_view(core, extra)
        crowned = None
        draws: tuple[DrawView, ...] = ()
        over = extra.winner is not None
    else:
        title = state.chess.name
        kind = "knock-out"
        subtitle = tr("play-off · {regulation}", regulation=regulation_title(core))
        matches = tuple(match_view(core, m) for m in state.chess.matches if not m.bye)
        extra_view = None
        crowned = champion(state.chess)
        draws = tuple(draw_view(core, d) for d in state.draws)
        over = crowned is not None
    schedule = schedule_view(core)
    return ArbiterView(
        seq=state.seq,
        server_ms=ctx.server_ms,
        kind=kind,
        title=title,
        subtitle=subtitle,
        over=over,
        utc_offset_minutes=offset_minutes(state, ctx.now),
        time_zone=state.time_zone,
        champion=(
            None if crowned is None else ChampionView(
                id=crowned, name=core.name(crowned),
                text=tr("Champion: {player}", player=core.name(crowned)),
            )
        ),
        matches=matches,
        extra_boards=extra_view,
        schedule=schedule,
        draws=draws,
        changes=tuple(change_view(core, c) for c in state.changes),
        overrides=overrides_view(core),
        placings=placing_rows(core),
        hall_key=HallKey(
            title=tr(HALL_KEY_TITLE), words=tr(HALL_KEY_WORDS), label=tr("Make a display key"),
            request=HallKeyRequest.model_validate(display_key_request(state.event_id)),
            made=tr(HALL_KEY_MADE), page=f"/display/{state.id}#key=",
        ),
        clocks={
            f"{key[0]}:{key[1]}": ClockView.model_validate(
                clock_view(key, clock, ctx.server_ms)
            )
            for key, clock in sorted(state.clocks.items())
        },
        next_change_ms=next_change_ms(core),
        boards=boards_view(core),
        board_keys=board_keys_view(core),
        eboards=eboards_view(core),
        printing=playoff_print_menu(
            state, [(g.match, g.game, g.title) for g in schedule.games if g.kind != "stanza"]
        ),
        broadcast_key=BroadcastKey(
            title=tr("Broadcast feed"),
            words=tr(
                "The play-off's games as PGN with clocks and moves, for a broadcast: "
                "give the feed's address to the platform (on lichess, the broadcast "
                "round's source URL), or push it there with `playoff broadcast push`. "
                "Its key reads the feed and nothing else."
            ),
            label=tr("Make a broadcast key"),
            request=HallKeyRequest(
                method="POST", path=f"/api/events/{state.event_id}/tokens",
                body={"role": "broadcast"},
            ),
            made=tr("The feed's address, with its key (a platform polls it):"),
        ) if state.playoff is not None else None,
    )


def regulation_title(core: Core) -> str:
    try:
        title = getattr(get_regulation(core.state.regulation), "title", None)
    except PlayoffError:
        title = None
    return str(title) if title else core.state.regulation
