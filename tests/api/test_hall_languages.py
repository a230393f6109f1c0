"""A hall screen's language, over a real websocket: the one its display key was minted
with, or the one its hello asks for (the page's ``?lang=``). The welcome names it and
brings the page's own words; every text of the view is worded in it, names as given.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx

from orchestrator.core.timesource import ManualTime
from tests.support.ws import Setup, make_playoff, served, welcome_and_view


def display_key(setup: Setup, language: str | None = None) -> httpx.Response:
    body: dict[str, Any] = {"role": "display", "label": "hall left"}
    if language is not None:
        body["language"] = language
    with setup.server.client(setup.chief) as http:
        return http.post(f"/api/events/{setup.event_id}/tokens", json=body)


async def hall_in(
    setup: Setup, key: str, language: str | None = None
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The welcome and the first view of a hall screen."""
    hello: dict[str, Any] = {"token": key, "last_seq": None, "screen": "hall"}
    if language is not None:
        hello["language"] = language
    return await welcome_and_view(setup, hello)


def bracketed(text: str) -> bool:
    return text.startswith("[") and text.endswith("]")


async def test_a_display_key_minted_in_a_language_words_its_screens_in_it(
    tmp_path: Path,
) -> None:
    async with served(tmp_path / "log.db", ManualTime()) as server:
        setup = make_playoff(server)
        english = display_key(setup).json()["token"]
        welcome, view = await hall_in(setup, english)
        assert welcome["language"] == "en" and welcome["words"] is None
        assert view["language"] == "en"
        assert view["subtitle"] == "GCT 2015 play-off, reg. 7 (three players)"

        minted = display_key(setup, "en-XA")
        assert minted.status_code == 201, minted.text
        pseudo = minted.json()["token"]
        welcome, view = await hall_in(setup, pseudo)
        assert welcome["language"] == "en-XA"
        assert welcome["words"]["Next"].startswith("[Ñéxţ")
        assert all(bracketed(text) for text in welcome["words"].values())
        assert view["language"] == "en-XA"
        assert bracketed(view["subtitle"])
        names = [m["players"] for r in view["bracket"] for m in r["matches"]]
        shown = {row["player"]["name"] for players in names for row in players}
        # Names as given, in any language; the places still to fill are worded.
        assert {"Abdusattorov, Nodirbek", "Sindarov, Javokhir"} <= shown
        assert any(name.startswith("[Ŵîññéŕ öf") for name in shown)
        for r in view["bracket"]:
            assert bracketed(r["name"])

        # The hello's language (the page's ?lang=) wins over the key's; one the
        # service does not speak is taken as the key's.
        welcome, view = await hall_in(setup, pseudo, "en")
        assert welcome["language"] == "en" and view["subtitle"].startswith("GCT 2015")
        welcome, view = await hall_in(setup, english, "en-XA")
        assert welcome["language"] == "en-XA"
        welcome, _ = await hall_in(setup, pseudo, "xx")
        assert welcome["language"] == "en-XA"


async def test_a_key_minted_in_a_language_the_service_does_not_speak_is_refused(
    tmp_path: Path,
) -> None:
    async with served(tmp_path / "log.db", ManualTime()) as server:
        setup = make_playoff(server)
        refused = display_key(setup, "xx")
        assert refused.status_code == 422
        assert "language" in refused.text


async def test_the_languages_and_their_page_words(tmp_path: Path) -> None:
    async with served(tmp_path / "log.db", ManualTime()) as server:
        with server.client() as http:
            listed = http.get("/api/languages").json()["languages"]
            assert [lang["code"] for lang in listed] == ["en", "es", "fr", "de", "ru", "en-XA"]
            words = http.get("/api/languages/en-XA").json()
            assert words["code"] == "en-XA" and words["words"]["Next"].startswith("[")
            assert http.get("/api/languages/es-ES").json()["code"] == "es"
            missing = http.get("/api/languages/xx")
            assert missing.status_code == 404 and "es, fr, de, ru" in missing.json()["detail"]
