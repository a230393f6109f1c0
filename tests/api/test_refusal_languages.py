"""A refused command is told in its reader's language, at every door.

The refusal is decided once, in no language; the websocket says it in the language
its connection's hello asked for, REST in the first language of ours its
``Accept-Language`` names, and both in English otherwise, word for word as before.
The players are named as given, in any language. What a command logs holds no
translated word: the log is the same whoever sent it, in whatever language.
"""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

from orchestrator.core.auth import Role, not_permitted
from orchestrator.core.commands import NotPermitted
from orchestrator.core.errors import Conflict
from orchestrator.core.refusals import AlreadyPressed, TooEarly
from orchestrator.core.timesource import ManualTime
from playoff_formats.model import Colour
from playoff_formats.phrase import Phrase, Player, Said, phrase
from playoff_formats.speech import PSEUDO, speaking
from tests.support.ws import Setup, cmd, make_playoff, press, raw_frames, served

NAMES = {"p1": "Ирина", "p2": "Zoë"}
WHITE_IS_NOBODY = {"type": "lots", "match": 1, "method": "physical", "white": "nobody"}


async def _hello(url: str, token: str, language: str | None) -> ClientConnection:
    ws = await connect(url, max_size=None)
    hello: dict[str, Any] = {"token": token}
    if language is not None:
        hello["language"] = language
    await ws.send(json.dumps({"t": "hello", "d": hello}))
    welcome = json.loads(await asyncio.wait_for(ws.recv(), 5))
    assert welcome["t"] == "welcome", welcome
    return ws


async def _answer(ws: ClientConnection, command_id: str, payload: dict[str, Any]) -> dict[str, Any]:
    await ws.send(cmd(command_id, **payload))
    return (await raw_frames(ws, lambda f: f.get("id") == command_id))[-1]


def _rest(setup: Setup, payload: dict[str, Any], language: str | None) -> tuple[int, Any]:
    headers = {"Accept-Language": language} if language is not None else {}
    with setup.server.client(setup.arbiter) as http:
        answer = http.post(
            f"/api/playoffs/{setup.playoff_id}/commands", json=payload, headers=headers
        )
    return answer.status_code, answer.json()


def _pair(english: str) -> tuple[str, str]:
    """The two players a lots refusal offers, by their names."""
    first, _, second = english.removeprefix("say who drew White: one of ").partition(", ")
    return first, second


def test_a_refusal_is_said_when_shown_in_the_language_in_force() -> None:
    said = Said.tr(
        "say who drew White: one of {player}, {other}", player=Player("p1"), other=Player("p2")
    )
    assert str(said) == "say who drew White: one of p1, p2"
    assert said.text(NAMES) == "say who drew White: one of Ирина, Zoë"
    with speaking(PSEUDO):
        pseudo = said.text(NAMES)
        assert str(said) == "say who drew White: one of p1, p2"  # str() is English
    assert pseudo.startswith("[") and pseudo.endswith("]")
    assert "Ирина" in pseudo and "Zoë" in pseudo and "White" not in pseudo


def test_a_phrase_joins_messages_said_when_shown() -> None:
    joined: Phrase = phrase(Said.tr("match {match}", match=3), ": ", Player("p1"))
    assert str(joined) == "match 3: p1"
    with speaking(PSEUDO):
        assert joined.text(NAMES).endswith("]: Ирина")


def test_a_roles_refusal_says_its_action_in_the_same_language() -> None:
    refusal = not_permitted(Role.DISPLAY, "move a game's start")
    assert str(refusal) == "a display key is read-only: it may not move a game's start"
    with speaking(PSEUDO):
        said = NotPermitted(refusal).words({})
    # The action is a message of its own, inside the sentence's.
    assert said.startswith("[") and said.count("[") == 2, said


def test_the_english_of_a_refusal_is_kept_whatever_the_language_when_raised() -> None:
    with speaking(PSEUDO):
        pressed = AlreadyPressed(1, 2, Colour.BLACK, 7)
        conflict = Conflict(Said.tr("match {match} has no clock", match=1))
    assert pressed.reason == (
        "Black's clock was already pressed after move 7 (match 1, game 2): the press counts once"
    )
    assert conflict.reason == "match 1 has no clock" and conflict.words() == conflict.reason
    with speaking(PSEUDO):
        assert pressed.words({}).startswith("[")
        assert conflict.words().startswith("[")


def test_a_start_too_early_keeps_the_place_of_the_consoles_countdown() -> None:
    now = datetime(2026, 1, 1, 12, tzinfo=UTC)
    early = TooEarly(1, 2, ("a rest of 15 minutes",), now + timedelta(minutes=5), now)
    assert early.reason == (
        "too early for match 1, game 2: a rest of 15 minutes (5 minutes from now). The chief "
        "arbiter may start it all the same, giving the reason."
    )
    with speaking(PSEUDO):
        countdown = early.sentence("{left}")
        worded = early.words({})
    assert "{left}" in countdown and countdown.startswith("[")
    assert worded.startswith("[") and "5 minutes" in worded


async def test_a_refusal_over_the_websocket_is_in_the_hellos_language(tmp_path: Path) -> None:
    async with served(tmp_path / "log.db", ManualTime()) as server:
        setup = await asyncio.to_thread(make_playoff, server, 1)
        status, english = await asyncio.to_thread(_rest, setup, WHITE_IS_NOBODY, None)
        assert status == 409
        first, second = _pair(english["detail"])
        assert first and second, english

        pseudo = await _hello(setup.ws_url, setup.arbiter, "en-XA")
        plain = await _hello(setup.ws_url, setup.arbiter, None)
        display = await _hello(setup.ws_url, setup.displays[0], "en-XA")
        try:
            refused = await _answer(pseudo, "lots-xa", WHITE_IS_NOBODY)
            assert refused["t"] == "error" and refused["d"]["code"] == "conflict", refused
            reason = refused["d"]["reason"]
            assert reason.startswith("[") and reason.endswith("]"), reason
            assert first in reason and second in reason and "White" not in reason

            same = await _answer(plain, "lots-en", WHITE_IS_NOBODY)
            assert same["d"]["reason"] == english["detail"]

            read_only = await _answer(display, "display-xa", press("white", 1))
            assert read_only["d"]["code"] == "read-only"
            assert read_only["d"]["reason"].startswith("["), read_only

            # A second press: its kind as ever, its reason in the connection's words.
            await asyncio.to_thread(setup.post, "/1/games/1/start")
            assert (await _answer(pseudo, "w1", press("white", 1)))["t"] == "ack"
            again = await _answer(pseudo, "w1-again", press("white", 1))
            assert again["d"]["kind"] == "already-pressed"
            assert again["d"]["reason"].startswith("["), again
            again_plain = await _answer(plain, "w1-plain", press("white", 1))
            assert again_plain["d"]["reason"] == (
                "White's clock was already pressed after move 1 (match 1, game 1): the press "
                "counts once"
            )
        finally:
            for ws in (pseudo, plain, display):
                await ws.close()


async def test_a_refusal_over_rest_is_in_the_accepted_language(tmp_path: Path) -> None:
    async with served(tmp_path / "log.db", ManualTime()) as server:
        setup = await asyncio.to_thread(make_playoff, server, 0)
        _, english = await asyncio.to_thread(_rest, setup, WHITE_IS_NOBODY, "en")
        first, second = _pair(english["detail"])
        assert english["detail"] == f"say who drew White: one of {first}, {second}"

        status, pseudo = await asyncio.to_thread(
            _rest, setup, WHITE_IS_NOBODY, "xx, en-XA;q=0.9, en;q=0.5"
        )
        assert status == 409
        assert pseudo["detail"].startswith("[") and pseudo["detail"].endswith("]"), pseudo
        assert first in pseudo["detail"] and second in pseudo["detail"]

        _, unasked = await asyncio.to_thread(_rest, setup, WHITE_IS_NOBODY, "xx")
        assert unasked == english


def _texts(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [t for v in value.values() for t in _texts(v)]
    if isinstance(value, list):
        return [t for v in value for t in _texts(v)]
    return []


async def test_what_a_command_in_another_language_logs_holds_no_word_of_it(
    tmp_path: Path,
) -> None:
    clock = ManualTime()
    async with served(tmp_path / "log.db", clock) as server:
        setup = await asyncio.to_thread(make_playoff, server, 0)
        before = await asyncio.to_thread(setup.seq)
        ws = await _hello(setup.ws_url, setup.chief, "en-XA")
        try:
            sent = [
                {"type": "start-clock", "match": 1, "game": 1},
                press("white", 1),
                press("white", 1),  # refused: already pressed
                {"type": "adjust", "match": 1, "game": 1, "side": "black",
                 "delta_ms": 60_000, "reason": "the clock was set wrong"},
                {"type": "penalty", "match": 1, "game": 1, "offender": "white",
                 "reason": "an illegal move"},
                {"type": "pause", "match": 1, "game": 1},
                {"type": "resume", "match": 1, "game": 1},
                {"type": "result", "match": 1, "game": 1, "result": "1-0"},
                {"type": "board-sides", "match": 1, "left": "black"},
                WHITE_IS_NOBODY,  # refused, naming the players
            ]
            answers = [await _answer(ws, f"c{i}", d) for i, d in enumerate(sent)]
        finally:
            await ws.close()
        refusals = [a["d"]["reason"] for a in answers if a["t"] == "error"]
        assert len(refusals) == 2 and all(r.startswith("[") for r in refusals), answers
        logged = await asyncio.to_thread(setup.log, before)
        assert len(logged) >= 7
        bracketed = [t for t in _texts([e["data"] for e in logged]) if "[" in t]
        assert bracketed == []
