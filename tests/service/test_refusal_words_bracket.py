"""The service's refusals of an event, a play-off being built, a token or a key are
kept as messages and said where they are shown: English as ever in their reason (what
a log and the tests read), the reader's language at a door that speaks another (here
the pseudo-language, whose every message is in brackets)."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from orchestrator.core.access import (
    KeyScope,
    PlayoffKnownAs,
    board_key_label,
    hall_screen_refusal,
    not_for_a_hall_screen,
    not_this_keys,
)
from orchestrator.core.auth import Role
from orchestrator.core.creation import PlayoffOptions
from orchestrator.core.errors import Conflict, NotFound, ServiceError
from orchestrator.core.reasons import MAX_LISTED, not_final, not_final_words
from playoff_formats.foresight import PendingGame
from playoff_formats.speech import PSEUDO, speaking
from tests.support.views import ACTOR, running, uzchess


def said(refusal: ServiceError) -> str:
    with speaking(PSEUDO):
        return refusal.words()


async def test_the_service_refuses_in_the_readers_language(tmp_path: Path) -> None:
    async with running(tmp_path) as run:
        with pytest.raises(NotFound) as missing:
            run.service.event("nowhere")
        assert missing.value.reason == "no event 'nowhere'"
        assert said(missing.value).startswith("[ñö évéñţ 'nowhere'")
        assert missing.value.words() == missing.value.reason

        await uzchess(run)
        event_id = run.service.playoff(run.playoff_id).event_id
        with pytest.raises(Conflict) as twice:
            await run.service.create_playoff(event_id, PlayoffOptions(), ACTOR)
        assert twice.value.reason == (
            f"event {event_id!r} already has its play-off {run.playoff_id!r}"
        )
        assert said(twice.value).startswith(f"[évéñţ {event_id!r} åļŕéådý")

        with pytest.raises(Conflict) as chief:
            await run.service.issue_token(event_id, Role.CHIEF, "another", ACTOR)
        assert chief.value.reason == "there is one chief arbiter's token per event"
        assert said(chief.value).startswith("[ţĥéŕé îš öñé çĥîéf")

        # A key's language is the service's to check, whichever door asks for it.
        with pytest.raises(Conflict) as unspoken:
            await run.service.issue_token(event_id, Role.DISPLAY, "hall", ACTOR, language="xx")
        assert unspoken.value.reason == (
            "the service does not speak 'xx': it speaks en, es, fr, de, ru, en-XA"
        )
        assert all(t.language != "xx" for t in run.service.event(event_id).tokens)


def test_a_keys_refusals_are_said_in_the_readers_language() -> None:
    scope = KeyScope("UzChess Cup", "e1", (PlayoffKnownAs("p1", ("Anand", "Bu", "Ding")),))
    refusal = NotFound(not_this_keys(scope, "e2", "event"))
    assert refusal.reason == (
        "this key is for UzChess Cup (event e1), not for event 'e2': its play-off is "
        "p1 (Anand, Bu and Ding)"
    )
    assert said(refusal).startswith("[ţĥîš ķéý îš föŕ UzChess Cup")
    assert "[Anand, Bu åñd Ding" in said(refusal)  # the list's "and" said too

    hall = hall_screen_refusal(Role.ARBITER, "e1", "p1")
    assert hall is not None and not_for_a_hall_screen(Role.ARBITER, "e1", "p1") == str(hall)
    assert str(hall).startswith("this key can send commands (an arbiter's token): ")
    assert str(hall).endswith(
        '("Hall display key"), or with POST /api/events/e1/tokens and the body '
        '{"role": "display"}; then open /display/p1#key= followed by that key'
    )
    with speaking(PSEUDO):
        assert not_for_a_hall_screen(Role.CHIEF, "e1") is not None
        assert str(not_for_a_hall_screen(Role.CHIEF, "e1")).startswith("[ţĥîš ķéý")
        assert '("[Ĥåļļ dîšpļåý ķéý' in hall.text({})
    assert not_for_a_hall_screen(Role.DISPLAY, "e1") is None

    event: Any = SimpleNamespace(playoffs=())
    with pytest.raises(Conflict) as unscoped:
        board_key_label(event, None, None, lambda _: None)  # type: ignore[arg-type,return-value]
    assert unscoped.value.reason == "a board key is for one match: say its play-off and its match"
    assert said(unscoped.value).startswith("[å böåŕd ķéý îš föŕ öñé måţçĥ")


def test_standings_not_final_counted_in_the_readers_language() -> None:
    one: Any = SimpleNamespace(id="e1", pending=(PendingGame(9, "Anand", "Ding"),))
    assert not_final(one) == (
        "the standings are not final: 1 game of the event has no result yet (round 9: "
        "Anand-Ding). Record its result first (POST /api/events/e1/results); the play-off "
        "watch (GET /api/events/e1/foresight) shows what they can lead to"
    )
    many: Any = SimpleNamespace(
        id="e1", pending=tuple(PendingGame(9, f"P{i}", f"Q{i}") for i in range(MAX_LISTED + 2))
    )
    english = str(not_final_words(many))
    assert english.startswith(f"the standings are not final: {MAX_LISTED + 2} games of the "
                              "event have no result yet (round 9: P0-Q0; round 9: P1-Q1; ")
    assert "round 9: P7-Q7; and 2 more). Record their results first" in english
    refusal = Conflict(not_final_words(many))
    assert refusal.reason == english
    with speaking(PSEUDO):
        assert not_final(many).startswith("[ţĥé šţåñdîñĝš")
    assert said(refusal).startswith("[ţĥé šţåñdîñĝš") and "[åñd 2 möŕé" in said(refusal)
