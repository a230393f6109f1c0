"""The arbiter view is worded in the console's language.

A play-off is run to a flag fall with a rest cut short, time given and a game
postponed; the view built while the pseudo-language ``en-XA`` is spoken has every
text of its matches, clocks, results, corrections, lots and records in [brackets]
(each came from the catalogs), except names and figures, and texts that come worded
from the play-off's format (round names, results as written, time controls). Built
in English, it reads as it always did.

So do the chief arbiter's changes to the schedule (a start moved, a game postponed,
the time control shortened and restored, the deadline), the board clocks (a board
back from a long outage), the board keys, the e-boards (a position no legal move
reaches, a DGT clock apart from the service's) and the bridge extra boards (a set
tied and played again, a score to correct).
"""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta
from pathlib import Path
from typing import Any

from orchestrator.core.commands import FallFlag
from orchestrator.core.creation import PlayoffOptions
from orchestrator.core.state import PlayoffState
from orchestrator.views.arbiter import arbiter_view
from orchestrator.views.arbiter.models import ExtraBoardsView
from orchestrator.views.context import BoardPresence, EboardPresence, ViewContext
from playoff_formats.io.json_event import parse_event
from playoff_formats.model import Colour
from playoff_formats.speech import PSEUDO, speaking
from tests.support.events import uzchess_json
from tests.support.views import ACTOR, Run, match_view, running, stanza_one_scored, texts

FROM_FORMATS = {"detail", "reason"}
"""Keys of texts worded by the play-off's format (a result's words, a planned game's
reason) or typed by an arbiter (a change's reason)."""

FORMATTED = {"round_name", "score", "result", "time_control", "white", "black", "players",
             "player", "state"}
"""Keys whose texts are names, figures, a format's words or the page's identifiers."""


def unbracketed(view: dict[str, Any]) -> list[tuple[str, str]]:
    """The texts of the view's matches and records that came from no catalog (not in
    brackets), but for the names, figures and format's words their keys may hold."""
    left = []
    shown = {"matches": view["matches"], "changes": view["changes"], "draws": view["draws"]}
    for key, text in texts(shown):
        if key in FROM_FORMATS or "[" in text or not any(c.isalpha() for c in text):
            continue
        if key in FORMATTED:
            continue
        left.append((key, text))
    return left


async def flag_fell(run: Run) -> None:
    event, _ = await run.service.create_event(parse_event(uzchess_json(None), "UzChess"))
    options = PlayoffOptions(prizes=("100000", "50000", "30000"), points=("13", "10", "8"))
    state = await run.service.create_playoff(event.id, options, ACTOR)
    run.playoff_id = state.id
    await run.do(type="lots", match=1, method="service")
    await run.do(type="start-clock", match=1, game=1, override="both players are ready")
    await run.do(type="adjust", match=1, game=1, side="black", delta_ms=60_000,
                 reason="a phone rang")
    await run.do(type="postpone", match=1, game=2, minutes=5, reason="a late arbiter")
    flag_at = run.service.playoff(run.playoff_id).clocks[(1, 1)].flag_at_ms()
    assert flag_at is not None
    run.time.advance(timedelta(minutes=30))
    await run.service.execute(run.playoff_id, FallFlag(match=1, game=1, flag_at_ms=flag_at),
                              "server")


async def test_the_view_in_the_pseudo_language_has_every_message_in_brackets(
    tmp_path: Path,
) -> None:
    async with running(tmp_path) as run:
        await flag_fell(run)
        english = run.view()
        with speaking(PSEUDO):
            pseudo = run.view()
        first = match_view(pseudo, 1)
        assert first["flag"]["text"].startswith("[Ŵĥîţé")
        assert first["flag"]["rule"].startswith("[")
        assert first["flag"]["correct"]["title"].startswith("[")
        assert first["games"][0]["result_text"].startswith("[")
        assert all(t.startswith("[") for t in pseudo["status_words"].values())
        changes = [c["text"] for c in pseudo["changes"]]
        assert changes and all(t.startswith("[") for t in changes), changes
        assert pseudo["subtitle"].startswith("[")
        assert first["title"].startswith("[")
        panel = first["panels"][0] if first.get("panels") else None
        if panel is not None:
            assert panel["title"].startswith("[")
        assert unbracketed(pseudo) == []
        # English is the messages as written.
        assert match_view(english, 1)["flag"]["text"] == "White's flag fell: 0-1" or (
            match_view(english, 1)["flag"]["text"] == "Black's flag fell: 1-0")
        assert english["status_words"]["flagged"] == "flag fell"


DATA = {"left", "state", "serial", "battery", "request", "unread_placement"}
"""Keys of the boards' panels whose values are data: a side's identifier, LiveChess's
word for an e-board, its serial and battery as the e-board gives them, a request."""


def without_data(node: Any) -> Any:
    """``node`` without the values :data:`DATA` names."""
    if isinstance(node, dict):
        return {k: without_data(v) for k, v in node.items() if k not in DATA}
    if isinstance(node, list):
        return [without_data(v) for v in node]
    return node


def unworded(node: Any) -> list[tuple[str, str]]:
    """The texts of ``node`` that came from no catalog, but for names and figures."""
    return [
        (key, text) for key, text in texts(without_data(node))
        if "[" not in text and any(c.isalpha() for c in text)
    ]


async def boards_in_play(run: Run) -> tuple[PlayoffState, ViewContext]:
    """The UzChess play-off with a match's time control shortened, game 1 of match 1
    under way on a board back from a long outage, and an e-board on it that read no
    legal position and whose clock is 5 s ahead for White."""
    event, _ = await run.service.create_event(parse_event(uzchess_json(), "UzChess"))
    state = await run.service.create_playoff(event.id, PlayoffOptions(), ACTOR)
    run.playoff_id = state.id
    await run.do(type="time-control", time_control="G/20+5", match=2,
                 reason="to finish in daylight")
    await run.do(type="lots", match=1, method="service")
    await run.do(type="start-clock", match=1, game=1, override="both players are ready")
    state = run.service.playoff(run.playoff_id)
    ctx = run.hub.view_context(state)
    state = replace(
        state, outages={(1, 1): (ctx.server_ms - 90_000, 2)},
        clock_gaps={(1, 1): (Colour.WHITE, 5_000)}, unread={1: "8/8/8/8/8/8/8/8"},
        eboards={"24913": 1},
    )
    ctx = replace(
        ctx, boards=(BoardPresence(match=1, online=True, last_heard_ms=ctx.server_ms,
                                   battery=0.5),),
        eboards=(EboardPresence(serial="24913", state="ACTIVE", battery="84%",
                                last_heard_ms=ctx.server_ms),),
    )
    return state, ctx


async def test_the_chief_arbiters_changes_and_the_boards_in_the_pseudo_language(
    tmp_path: Path,
) -> None:
    async with running(tmp_path) as run:
        state, ctx = await boards_in_play(run)
        english = arbiter_view(state, ctx)
        with speaking(PSEUDO):
            pseudo = arbiter_view(state, ctx)
        panels = {key: pseudo[key] for key in ("overrides", "boards", "board_keys", "eboards")}
        assert all(panels.values()), panels
        overrides = pseudo["overrides"]
        assert all(overrides[form] is not None for form in (
            "move_start", "postpone", "time_control", "restore_time_control", "deadline"))
        assert unworded(panels) == []
        assert pseudo["boards"][0]["outage"].startswith("[")
        assert pseudo["eboards"][0]["unread"].startswith("[")
        assert pseudo["eboards"][0]["clock_gap"].startswith("[")
        # English is the messages as written.
        board = english["boards"][0]
        assert board["outage"].startswith(f"The board of {board['title']} was offline from ")
        assert board["outage"].endswith(
            ", past the allowance, holding 2 presses: set the clocks")
        eboard = english["eboards"][0]
        assert eboard["title"] == english["board_keys"][0]["title"]
        assert eboard["title"].endswith(" · match 1")
        assert eboard["clock_gap"] == (
            f"The DGT clock of {eboard['title']} gives white 5 s more than the service's "
            "clock (more than 2 s apart): check the clocks")
        shorten = english["overrides"]["time_control"]
        assert shorten["hint"] == "GCT 2015 reg. 5: only shorter, and only for matches not begun."
        shortened = english["overrides"]["time_control"]["fields"][1]["options"]
        assert shortened[1]["label"] == "Final (reg. 6) (match 2, now G/20+5)"
        restore = english["overrides"]["restore_time_control"]["fields"][0]["options"]
        assert restore[1]["label"] == "Final (reg. 6): back to G/25+5"
        assert english["overrides"]["postpone"]["actions"][0]["summary"] == (
            "Postpone match {match}, game {game} by {minutes} min")


async def test_the_extra_boards_in_the_pseudo_language(tmp_path: Path) -> None:
    async with running(tmp_path) as run:
        await stanza_one_scored(run)
        with speaking(PSEUDO):
            extra = run.view()["extra_boards"]
            headings = ExtraBoardsView.model_fields["tables"].get_default(
                call_default_factory=True)
        assert extra["correct"] is not None and extra["entry"] is not None
        assert unworded(extra) == []
        assert extra["stanzas"][0]["caption"].count("[") == 2  # the stanza, its set tied
        assert all(heading.startswith("[") for heading in headings)
        # Names stay as they are.
        assert "North London" in extra["title"] and "Surrey" in extra["title"]
        english = run.view()["extra_boards"]
        assert english["title"] == "North London v Surrey"
        assert english["tables"] == ["Table 1: North London North-South",
                                     "Table 2: Surrey North-South"]
        assert ExtraBoardsView.model_fields["tables"].get_default(
            call_default_factory=True) == ("Table 1 (NS)", "Table 2 (NS)")
