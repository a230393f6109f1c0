"""A valid token asking for a play-off or event that is not its own is told what it
opens, in the service's words, at every door: REST (404), the websocket (an error
frame, then close 4404), ``playoff-arbiter``, the arbiter console and the hall
display in Debian Chromium. The words are the same whatever the id asked for,
another event's or one that does not exist, so they probe nothing; a token that is
not valid is still only "not valid", and only those count towards the address's
limit of failed attempts.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from tests.support.arbiter import arbiter
from tests.support.browser import browser
from tests.support.cli import Run
from tests.support.keys import JSON, Event, ok, page_of, uploaded
from tests.support.server import RunningServer, running_server

if TYPE_CHECKING:
    from playwright.sync_api import Browser

__all__ = ["browser"]  # the fixture, from tests/support/browser.py

T = TypeVar("T")
NOT_VALID = "this token is not valid"








def opens(event: Event, asked: str, kind: str = "play-off") -> str:
    """What a token of ``event`` opens, asked for ``asked``."""
    return (
        f"this key is for UzChess Cup Masters 2025 (event {event.id}), not for {kind} "
        f"{asked!r}: its play-off is {event.playoff} (Praggnanandhaa R, Abdusattorov and "
        "Sindarov)"
    )


def apart(work: Callable[[], T]) -> T:
    """Run ``work`` in a thread of its own: Playwright keeps an event loop in this one,
    and the command line and the websocket client run their own."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(work).result(timeout=30)


def cli(*args: str, token: str, server: RunningServer) -> Run:
    """``playoff-arbiter`` in this process (in a thread of its own)."""
    return apart(lambda: arbiter(*args, token=token, server=server.base_url))


def hello_answer(server: RunningServer, playoff_id: str, token: str) -> tuple[str, int]:
    """The websocket's refusal of ``token`` for ``playoff_id``: the error frame's
    reason and the close code."""

    async def ask() -> tuple[str, int]:
        async with connect(f"ws://127.0.0.1:{server.port}/ws/playoffs/{playoff_id}") as ws:
            await ws.send(json.dumps({"t": "hello", "d": {"token": token}}))
            error = json.loads(await asyncio.wait_for(ws.recv(), 5))
            assert error["t"] == "error", error
            with pytest.raises(ConnectionClosed) as closed:
                await asyncio.wait_for(ws.recv(), 5)
            assert closed.value.rcvd is not None
            return error["d"]["reason"], closed.value.rcvd.code

    return apart(lambda: asyncio.run(ask()))




def console_says(browser: Browser, url: str, token: str) -> tuple[str, str]:
    """The arbiter console at ``url`` with ``token`` typed in: the alert's title and
    the server's words it shows."""
    from playwright.sync_api import expect

    with page_of(browser, url) as page:
        page.get_by_test_id("token-input").fill(token)
        page.get_by_test_id("token-submit").click()
        alert = page.get_by_test_id("alert-error").first
        expect(alert).to_be_visible()
        return alert.locator("strong").inner_text(), alert.get_by_test_id(
            "alert-reason").inner_text()


def display_says(browser: Browser, url: str) -> str:
    """What the hall display at ``url`` shows, once refused; it shows no play-off."""
    from playwright.sync_api import expect

    with page_of(browser, url) as page:
        expect(page.get_by_test_id("connection")).to_have_attribute("data-state", "error")
        expect(page.get_by_test_id("connection")).to_have_text("refused")
        assert page.evaluate("window.displayState.views") == 0
        expect(page.get_by_test_id("title")).to_have_text("Play-off")
        return page.get_by_test_id("stage").inner_text()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    with running_server(tmp_path_factory.mktemp("keys") / "log.db") as running:
        yield running


def test_a_wrong_playoff_id_is_told_what_the_key_opens_at_every_door(
    server: RunningServer, browser: Browser
) -> None:
    ours, theirs = uploaded(server), uploaded(server)
    assert ours.playoff is not None and theirs.playoff is not None
    wrong = theirs.playoff  # another event's play-off: as good as one that does not exist
    said = opens(ours, wrong)

    # REST: 404, the same words for another event's play-off and for none.
    with server.client(ours.arbiter) as http:
        answer = http.get(f"/api/playoffs/{wrong}")
        assert (answer.status_code, answer.json()["detail"]) == (404, said)
        none = http.get("/api/playoffs/no-such")
        assert (none.status_code, none.json()["detail"]) == (404, opens(ours, "no-such"))
    # The websocket: an error frame with the words, then 4404.
    assert hello_answer(server, wrong, ours.arbiter) == (said, 4404)
    assert hello_answer(server, "no-such", ours.display) == (opens(ours, "no-such"), 4404)

    # playoff-arbiter: a command (over the websocket), the match looked up (over
    # REST), and watch all say it, never that the token is not valid.
    for args in (("lots", wrong, "-m", "1"), ("lots", wrong), ("watch", wrong)):
        run = cli(*args, token=ours.arbiter, server=server)
        assert (run.returncode, run.stderr, run.stdout) == (2, f"error: {said}\n", ""), args

    # The arbiter console: the token is good, the address is not.
    title, reason = console_says(browser, f"{server.base_url}/arbiter/{wrong}", ours.arbiter)
    assert (title, reason) == ("Not this token's play-off", said)
    # The hall display, with the display key of the event.
    assert display_says(browser, f"{server.base_url}/display/{wrong}#key={ours.display}") == said


def test_a_wrong_event_id_is_told_what_the_key_opens(
    server: RunningServer, browser: Browser
) -> None:
    """Before the play-off: the event's console, its hall display, and the command
    line's ``event-result`` and ``foresight``."""
    from playwright.sync_api import expect

    ours, theirs = uploaded(server), uploaded(server, playoff=False)
    said = opens(ours, theirs.id, "event")
    with server.client(ours.chief) as http:
        answer = http.get(f"/api/events/{theirs.id}/view")
        assert (answer.status_code, answer.json()["detail"]) == (404, said)
    for args in (("foresight", theirs.id), ("event-result", theirs.id, "9", "a", "b", "1-0")):
        run = cli(*args, token=ours.arbiter, server=server)
        assert (run.returncode, run.stderr) == (2, f"error: {said}\n"), args
    title, reason = console_says(
        browser, f"{server.base_url}/arbiter/events/{theirs.id}", ours.arbiter
    )
    assert (title, reason) == ("Not this token's event", said)
    with page_of(browser, f"{server.base_url}/display/events/{theirs.id}#key={ours.display}") \
            as page:
        status = page.get_by_test_id("connection")
        expect(status).to_have_attribute("data-state", "refused")
        expect(status).to_have_text(said)
        expect(page.get_by_test_id("title")).to_have_text("Hall display")


def test_a_token_that_is_not_valid_is_still_not_valid_and_counted(
    tmp_path: Path, browser: Browser
) -> None:
    with running_server(tmp_path / "log.db", settings={"failed_token_limit": 8}) as server:
        ours = uploaded(server)
        assert ours.playoff is not None
        made_up = "not-a-token-anyone-issued"
        with server.client(made_up) as stranger:
            answer = stranger.get(f"/api/playoffs/{ours.playoff}")
            assert (answer.status_code, answer.json()["detail"]) == (401, NOT_VALID)
        assert hello_answer(server, ours.playoff, made_up) == (NOT_VALID, 4401)
        run = cli("lots", ours.playoff, "-m", "1", token=made_up, server=server)
        assert (run.returncode, run.stderr) == (2, f"error: {NOT_VALID}\n")
        title, reason = console_says(
            browser, f"{server.base_url}/arbiter/{ours.playoff}", made_up
        )
        assert (title, reason) == ("Token refused", NOT_VALID)
        assert display_says(
            browser, f"{server.base_url}/display/{ours.playoff}#key={made_up}"
        ) == NOT_VALID
        # Five failures so far from this address. A valid token asking for wrong ids
        # fails nothing: it is never limited, and adds nothing to the count.
        with server.client(ours.arbiter) as http:
            for n in range(20):
                assert http.get(f"/api/playoffs/wrong-{n}").status_code == 404
        with server.client(made_up) as stranger:
            codes = [stranger.get(f"/api/playoffs/{ours.playoff}").status_code
                     for _ in range(5)]
        assert codes == [401, 401, 401, 429, 429]


def test_a_bridge_events_key_names_its_extra_boards_by_the_teams(server: RunningServer) -> None:
    bridge = {
        "name": "Knock-out, round 3", "kind": "team", "regulation": "ebu-143.7",
        "teams": [{"id": "N", "name": "North London"}, {"id": "S", "name": "Surrey"}],
        "matches": [{"round": 1, "home": "N", "away": "S", "venue": "neutral",
                     "boards": [420, -420, 50, -50]}],
    }
    with server.client() as anonymous:
        made = ok(anonymous.post("/api/events", content=json.dumps(bridge), headers=JSON))
    with server.client(made["chief_token"]) as chief:
        extra = ok(chief.post(f"/api/events/{made['id']}/extra-boards", json={
            "home": "N", "away": "S", "scheduled": 48, "competition": "hubert-phillips-bowl",
        }))["id"]
        answer = chief.get("/api/playoffs/no-such/view")
    assert (answer.status_code, answer.json()["detail"]) == (404, (
        f"this key is for Knock-out, round 3 (event {made['id']}), not for play-off "
        f"'no-such': its play-off is {extra} (extra boards, North London v Surrey)"
    ))
