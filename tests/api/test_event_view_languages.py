"""The views of a main event before its play-off, in the language a screen asks for.

The hall display and the arbiters' play-off watch are worded in the language of the
request's ``?lang=``, else in the display key's, else in English; the answer's
Content-Language names it (the page's own words follow it). Checked in the
pseudo-language ``en-XA``, which puts every message in [brackets]: a text not in
brackets came from no catalog. Names (the event's, the players') and figures stay as
they are; the model's name and the conditions are the foresight's words
(playoff_formats), and a result's label is its score.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.support.foresight import before_round_9, finished
from tests.support.server import RunningServer, running_server

JSON = {"Content-Type": "application/json"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    with running_server(tmp_path_factory.mktemp("event-languages") / "log.db") as running:
        yield running


def ok(response: httpx.Response) -> dict[str, Any]:
    assert response.status_code in (200, 201), response.text
    body: dict[str, Any] = response.json()
    return body


def upload(server: RunningServer, data: dict[str, Any]) -> tuple[str, str]:
    with server.client() as anonymous:
        made = ok(anonymous.post("/api/events", content=json.dumps(data), headers=JSON))
    return made["id"], made["chief_token"]


def in_brackets(text: str | None) -> bool:
    return text is not None and text.startswith("[") and text.endswith("]")


def test_the_hall_view_speaks_the_language_asked_for_else_the_display_keys(
    server: RunningServer,
) -> None:
    data = before_round_9()
    event_id, token = upload(server, data)
    path = f"/api/events/{event_id}/view"
    hall = {"kind": "hall", "screen": "hall"}
    with server.client(token) as chief:
        plain = ok(chief.post(f"/api/events/{event_id}/tokens", json={"role": "display"}))
        pseudo = ok(chief.post(f"/api/events/{event_id}/tokens",
                               json={"role": "display", "language": "en-XA"}))
        ok(chief.put(f"/api/events/{event_id}/hall-foresight", json={"on": True}))
    with server.client(plain["token"]) as screen:
        english = screen.get(path, params=hall)
        asked = screen.get(path, params={**hall, "lang": "en-XA"})
        refused = screen.get(path, params={**hall, "lang": "xx"})
    # English as ever, and said so.
    assert english.headers["Content-Language"] == "en"
    assert ok(english)["line"] == (
        "A play-off for first is possible: it depends on the games still in play.")
    # ?lang=: the line in brackets, the event's name as it is.
    assert asked.headers["Content-Language"] == "en-XA"
    assert in_brackets(ok(asked)["line"]) and ok(asked)["title"] == data["name"]
    # A language the service does not speak: 422, naming the field.
    assert refused.status_code == 422 and "lang" in refused.text
    # A display key minted in a language: its screens speak it unless they ask for another.
    with server.client(pseudo["token"]) as screen:
        keyed = screen.get(path, params=hall)
        overridden = screen.get(path, params={**hall, "lang": "en"})
    assert keyed.headers["Content-Language"] == "en-XA" and in_brackets(ok(keyed)["line"])
    assert ok(overridden)["line"] == ok(english)["line"]


def worded(view: dict[str, Any]) -> list[str | None]:
    """Every text of the arbiters' watch worded by the view itself."""
    watch = view["watch"] or {}
    texts: list[str | None] = [view["subtitle"], view["next_step"], view["hall"]["words"]]
    texts += [view["hall"]["refusal"]] if view["hall"]["refusal"] else []
    texts += [view["build"]["label"], view["build"]["confirm"]] if view["build"] else []
    for game in view["pending"]:
        texts += [game["label"]] + [control["confirm"] for control in game["results"]]
    texts += [choice["label"] for choice in watch.get("choices", [])]
    texts += [watch["headline"]] if watch else []
    texts += [watch["note"]] if watch.get("note") else []
    for player in watch.get("players", []):
        texts += [player["first_alone_text"], player["in_playoff_text"]]
    return texts


def test_the_arbiters_watch_is_worded_whole_in_the_language_asked_for(
    server: RunningServer,
) -> None:
    data = before_round_9()
    names = {p["name"] for p in data["players"]}
    event_id, token = upload(server, data)
    path = f"/api/events/{event_id}/view"
    with server.client(token) as chief:
        english = ok(chief.get(path))
        pseudo = ok(chief.get(path, params={"lang": "en-XA"}))
        arbiter = ok(chief.post(f"/api/events/{event_id}/tokens", json={"role": "arbiter"}))
    with server.client(arbiter["token"]) as deputy:
        deputys = ok(deputy.get(path, params={"lang": "en-XA"}))
    assert english["subtitle"].endswith(" · 5 games pending")
    assert english["watch"]["headline"].endswith(" of 243 outcomes of the 5 pending games.")
    texts = worded(pseudo) + worded(deputys)
    assert len(texts) > 30
    assert [text for text in texts if not in_brackets(text)] == []
    # Names and figures are as they are, inside the brackets.
    game = pseudo["pending"][0]
    assert game["white"] in names and game["white"] in game["label"]
    assert "243" in pseudo["watch"]["headline"] and pseudo["title"] == data["name"]
    assert in_brackets(deputys["hall"]["refusal"])
    # Every result in, first place tied: the control that builds the play-off too.
    done_id, done_token = upload(server, finished())
    with server.client(done_token) as chief:
        done = ok(chief.get(f"/api/events/{done_id}/view", params={"lang": "en-XA"}))
    assert done["build"] is not None
    assert [text for text in worded(done) if not in_brackets(text)] == []
