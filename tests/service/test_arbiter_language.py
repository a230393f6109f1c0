"""The arbiter view is worded in the console's language.

A play-off is run to a flag fall with a rest cut short, time given and a game
postponed; the view built while the pseudo-language ``en-XA`` is spoken has every
text of its matches, clocks, results, corrections, lots and records in [brackets]
(each came from the catalogs), except names and figures, and texts that come worded
from the play-off's format (round names, results as written, time controls). Built
in English, it reads as it always did.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

from orchestrator.core.commands import FallFlag
from orchestrator.core.creation import PlayoffOptions
from playoff_formats.io.json_event import parse_event
from playoff_formats.speech import PSEUDO, speaking
from tests.service.test_arbiter_words import texts
from tests.support.events import uzchess_json
from tests.support.views import ACTOR, Run, match_view, running

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
