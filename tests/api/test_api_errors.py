"""Every error path of the REST API, with its status code, against the real server.

"Bad input never half-works ... an API request gets 4xx with a message that says
what to fix ... Nothing already stored is lost": so after every refusal the whole
log (every stream) and the play-off as the API shows it are checked unchanged.

The server runs on a manual clock that never moves in this module, so no timed
transition can fire in the background and change the log under a check.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from typing import Any

import httpx
import pytest

from orchestrator.core.timesource import ManualTime
from tests import support
from tests.support.events import ABDU, SINDAROV, uzchess_json
from tests.support.server import RunningServer, running_server

DATA = support.DATA / "uzchess-cup-masters-2025.json"
TRF = support.DATA / "io" / "sample-trf26.trf"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    with running_server(tmp_path_factory.mktemp("errors") / "log.db", ManualTime()) as running:
        yield running


@pytest.fixture
def anonymous(server: RunningServer) -> Iterator[httpx.Client]:
    with server.client() as client:
        yield client


@dataclass
class Event:
    id: str
    chief_token: str
    chief: httpx.Client


@dataclass
class Playoff:
    server: RunningServer
    event: Event
    id: str

    @property
    def chief(self) -> httpx.Client:
        return self.event.chief

    @property
    def url(self) -> str:
        return f"/api/playoffs/{self.id}"

    @property
    def matches(self) -> str:
        return f"/api/playoffs/{self.id}/matches"

    def issue(self, role: str) -> str:
        issued = self.chief.post(f"/api/events/{self.event.id}/tokens", json={"role": role})
        assert issued.status_code == 201, issued.text
        token: str = issued.json()["token"]
        return token

    def ok(self, response: httpx.Response) -> dict[str, Any]:
        assert response.status_code in (200, 201), response.text
        body: dict[str, Any] = response.json()
        return body

    def lots(self, match: int = 1) -> None:
        self.ok(self.chief.post(f"{self.matches}/{match}/lots", json={"method": "service"}))

    def start(self, match: int, game: int) -> None:
        """The chief arbiter starts a game at once, whatever break or rest holds it."""
        self.ok(self.chief.post(f"{self.matches}/{match}/games/{game}/start", json=EARLY))

    def result(self, match: int, game: int, result: str) -> None:
        """The game is played: started, then its result recorded."""
        self.start(match, game)
        self.ok(
            self.chief.post(f"{self.matches}/{match}/games/{game}/result", json={"result": result})
        )

    def level_after_two_games(self) -> None:
        """Match 1 at 1-1: the Armageddon game now exists."""
        self.lots()
        self.result(1, 1, "1-0")
        self.result(1, 2, "1-0")


EARLY = {"override": "the players are at the board early"}
"""The chief arbiter's reason to start inside the break after the main event."""


def upload(client: httpx.Client, body: bytes, content_type: str) -> httpx.Response:
    return client.post("/api/events", content=body, headers={"Content-Type": content_type})


@contextmanager
def uploaded(server: RunningServer, data: bytes | None = None) -> Iterator[Event]:
    with server.client() as anonymous:
        # No end times: the play-off's break runs from its creation, and nothing is
        # due meanwhile, so the log holds only what a test does.
        created = upload(anonymous, data or uzchess_json(None).encode(), "application/json")
    assert created.status_code == 201, created.text
    token = created.json()["chief_token"]
    with server.client(token) as chief:
        yield Event(created.json()["id"], token, chief)


@pytest.fixture
def event(server: RunningServer) -> Iterator[Event]:
    with uploaded(server) as made:
        yield made


@pytest.fixture
def other_event(server: RunningServer) -> Iterator[Event]:
    with uploaded(server) as made:
        yield made


@pytest.fixture
def playoff(server: RunningServer, event: Event) -> Playoff:
    made = event.chief.post(f"/api/events/{event.id}/playoff", json={})
    assert made.status_code == 201, made.text
    return Playoff(server, event, made.json()["id"])


# --------------------------------------------------------------------------- checks


def log_sizes(server: RunningServer) -> dict[str, int]:
    """Every stream of the log and its length, read from the store itself."""
    store = server.service.store

    async def sizes() -> dict[str, int]:
        return {s: len(await store.read(s)) for s in await store.streams("")}

    return server.call(sizes)


def refused(
    server: RunningServer,
    send: Callable[[], httpx.Response],
    status: int,
    playoff: Playoff | None = None,
) -> httpx.Response:
    """Send a request that must be refused with ``status`` and change nothing."""
    before = log_sizes(server)
    if playoff is not None:
        view = playoff.chief.get(playoff.url).json()
        audit = playoff.chief.get(f"{playoff.url}/events").json()["events"]
        jobs = playoff.chief.get(f"{playoff.url}/jobs").json()
    response = send()
    after = log_sizes(server)
    problems = []
    if response.status_code != status:
        problems.append(f"answered {response.status_code} {response.text[:300]!r}, not {status}")
    if after != before:
        grown = {s: (before.get(s, 0), n) for s, n in after.items() if before.get(s, 0) != n}
        problems.append(f"the log changed (stream: (before, after)): {grown}")
    assert not problems, "; ".join(problems)
    if playoff is not None:
        assert playoff.chief.get(f"{playoff.url}/events").json()["events"] == audit
        assert playoff.chief.get(playoff.url).json() == view
        assert playoff.chief.get(f"{playoff.url}/jobs").json() == jobs
    return response


def detail(response: httpx.Response) -> Any:
    return response.json()["detail"]


def only_error(response: httpx.Response) -> dict[str, Any]:
    errors = detail(response)
    assert isinstance(errors, list) and len(errors) == 1, errors
    error: dict[str, Any] = errors[0]
    return error


# --------------------------------------------------------------------------- 422


def test_a_json_event_that_does_not_validate_is_refused_with_its_json_path(
    server: RunningServer, anonymous: httpx.Client
) -> None:
    bad = json.loads(DATA.read_text())
    bad["games"][3]["result"] = "2-0"
    response = refused(
        server, lambda: upload(anonymous, json.dumps(bad).encode(), "application/json"), 422
    )
    error = only_error(response)
    assert error["loc"] == ["body", "games", 3, "result"]
    assert "'2-0' is not a result" in error["msg"]


def test_a_json_event_naming_an_unknown_player_is_refused_with_its_json_path(
    server: RunningServer, anonymous: httpx.Client
) -> None:
    bad = json.loads(DATA.read_text())
    bad["games"][7]["black"] = "nobody"
    response = refused(
        server, lambda: upload(anonymous, json.dumps(bad).encode(), "application/json"), 422
    )
    error = only_error(response)
    assert error["loc"] == ["body", "games", 7, "black"]
    assert "nobody" in error["msg"]


def test_a_json_syntax_error_is_refused_with_its_line_and_column(
    server: RunningServer, anonymous: httpx.Client
) -> None:
    body = b'{"name": "Cup",\n "kind": }'
    response = refused(server, lambda: upload(anonymous, body, "application/json"), 422)
    error = only_error(response)
    assert (error["line"], error["column"]) == (2, 10)
    assert error["msg"].startswith("not valid JSON")


def test_a_trf_that_does_not_parse_is_refused_with_its_line_and_column(
    server: RunningServer, anonymous: httpx.Client
) -> None:
    text = TRF.read_text()
    assert "2700 UZB" in text
    bad = text.replace("2700 UZB", "27X0 UZB").encode()
    response = refused(server, lambda: upload(anonymous, bad, "text/plain"), 422)
    error = only_error(response)
    lines = text.splitlines()
    line = next(i for i, row in enumerate(lines, start=1) if "2700 UZB" in row)
    assert error["line"] == line
    assert error["column"] == lines[line - 1].index("2700") + 1
    assert "27X0" in error["msg"]


def test_an_upload_of_another_content_type_is_refused(
    server: RunningServer, anonymous: httpx.Client
) -> None:
    response = refused(server, lambda: upload(anonymous, b"<event/>", "application/xml"), 422)
    assert "application/xml" in only_error(response)["msg"]


def test_a_result_that_is_not_a_result_is_refused_with_the_field(playoff: Playoff) -> None:
    playoff.lots()
    response = refused(
        playoff.server,
        lambda: playoff.chief.post(f"{playoff.matches}/1/games/1/result", json={"result": "2-0"}),
        422,
        playoff,
    )
    assert only_error(response)["loc"] == ["body", "result"]


def test_a_negative_prize_is_refused_with_the_field(server: RunningServer, event: Event) -> None:
    response = refused(
        server,
        lambda: event.chief.post(
            f"/api/events/{event.id}/playoff", json={"prizes": [100000, -50000]}
        ),
        422,
    )
    assert only_error(response)["loc"] == ["body", "prizes", 1]
    assert event.chief.get(f"/api/events/{event.id}").json()["playoffs"] == []


def test_an_unknown_body_field_is_refused_with_the_field(
    server: RunningServer, event: Event
) -> None:
    response = refused(
        server,
        lambda: event.chief.post(
            f"/api/events/{event.id}/playoff", json={"prizes": [3, 2, 1], "prize": [1]}
        ),
        422,
    )
    error = only_error(response)
    assert error["loc"] == ["body", "prize"]
    assert error["type"] == "extra_forbidden"


def test_an_unknown_field_of_a_command_is_refused_with_the_field(playoff: Playoff) -> None:
    playoff.lots()
    response = refused(
        playoff.server,
        lambda: playoff.chief.post(
            f"{playoff.matches}/1/games/1/result", json={"result": "1-0", "moves": 41}
        ),
        422,
        playoff,
    )
    assert only_error(response)["loc"] == ["body", "moves"]


def test_a_bad_time_control_notation_is_refused_with_the_field_and_column(
    playoff: Playoff,
) -> None:
    response = refused(
        playoff.server,
        lambda: playoff.chief.post(
            f"{playoff.url}/time-control", json={"time_control": "G/xx", "reason": "running late"}
        ),
        422,
        playoff,
    )
    error = only_error(response)
    assert error["column"] == 3, error
    # "Bad bodies get 422 with the field" (routes.py): the field is time_control.
    assert error["loc"] == ["body", "time_control"], error


def test_a_move_start_without_a_reason_is_refused_with_the_field(playoff: Playoff) -> None:
    response = refused(
        playoff.server,
        lambda: playoff.chief.post(
            f"{playoff.matches}/1/games/1/move-start", json={"at": "2025-06-28T13:00:00Z"}
        ),
        422,
        playoff,
    )
    error = only_error(response)
    assert error["loc"] == ["body", "reason"]
    assert error["type"] == "missing"


# --------------------------------------------------------------------------- 401


def test_a_read_without_a_token_is_401(playoff: Playoff, anonymous: httpx.Client) -> None:
    response = refused(playoff.server, lambda: anonymous.get(playoff.url), 401, playoff)
    assert "Bearer" in detail(response)


def test_a_write_without_a_token_is_401(playoff: Playoff, anonymous: httpx.Client) -> None:
    refused(
        playoff.server,
        lambda: anonymous.post(f"{playoff.matches}/1/lots", json={"method": "service"}),
        401,
        playoff,
    )


def test_a_malformed_authorization_header_is_401(playoff: Playoff) -> None:
    with playoff.server.client() as client:
        refused(
            playoff.server,
            lambda: client.post(
                f"{playoff.matches}/1/lots",
                headers={"Authorization": f"Token {playoff.event.chief_token}"},
            ),
            401,
            playoff,
        )


def test_an_unknown_token_is_401(playoff: Playoff) -> None:
    with playoff.server.client("not-a-token-we-issued") as stranger:
        response = refused(playoff.server, lambda: stranger.get(playoff.url), 401, playoff)
        assert detail(response) == "this token is not valid"
        refused(
            playoff.server,
            lambda: stranger.post(f"{playoff.matches}/1/lots", json={"method": "service"}),
            401,
            playoff,
        )


# --------------------------------------------------------------------------- 403


def test_a_token_of_another_event_is_told_what_it_opens(
    playoff: Playoff, other_event: Event
) -> None:
    """A valid token is told its own event and play-offs, in the same words whatever
    it asked for: it learns nothing it could not read already, nor whether the id it
    asked for exists. An unknown token is still only "not valid"."""
    other = other_event.chief
    unknown = refused(playoff.server, lambda: playoff.server.client("made-up").get(
        f"/api/events/{playoff.event.id}"), 401)
    assert detail(unknown) == "this token is not valid"
    response = refused(playoff.server, lambda: other.get(f"/api/events/{playoff.event.id}"), 404)
    made_up = refused(playoff.server, lambda: other.get("/api/events/no-such-event"), 404)
    opens = f"this key is for UzChess Cup Masters 2025 (event {other_event.id}), not for event"
    assert detail(response) == f"{opens} {playoff.event.id!r}: it has no play-off yet"
    assert detail(made_up) == f"{opens} 'no-such-event': it has no play-off yet"
    refused(
        playoff.server,
        lambda: other.post(f"/api/events/{playoff.event.id}/tokens", json={"role": "arbiter"}),
        404,
    )
    # The play-off of another event: the same words as for an id that does not exist.
    real = refused(playoff.server, lambda: other.get(playoff.url), 404, playoff)
    none = refused(playoff.server, lambda: other.get("/api/playoffs/no-such"), 404, playoff)
    words = "this key is for UzChess Cup Masters 2025 (event {}), not for play-off {!r}: it has "
    assert detail(real) == words.format(other_event.id, playoff.id) + "no play-off yet"
    assert detail(none) == words.format(other_event.id, "no-such") + "no play-off yet"


def test_a_display_key_may_read_but_not_write(playoff: Playoff) -> None:
    with playoff.server.client(playoff.issue("display")) as display:
        assert display.get(playoff.url).status_code == 200
        response = refused(
            playoff.server,
            lambda: display.post(f"{playoff.matches}/1/lots", json={"method": "service"}),
            403,
            playoff,
        )
        assert "read-only" in detail(response)
        refused(
            playoff.server,
            lambda: display.post(f"/api/events/{playoff.event.id}/playoff", json={}),
            403,
            playoff,
        )


def test_only_the_chief_arbiter_issues_tokens(playoff: Playoff) -> None:
    with playoff.server.client(playoff.issue("arbiter")) as arbiter:
        # An arbiter may write to the play-off...
        playoff.ok(arbiter.post(f"{playoff.matches}/1/lots", json={"method": "service"}))
        # ... but not issue tokens.
        for role in ("arbiter", "display"):
            response = refused(
                playoff.server,
                partial(
                    arbiter.post, f"/api/events/{playoff.event.id}/tokens", json={"role": role}
                ),
                403,
                playoff,
            )
            assert "chief" in detail(response)


def test_a_second_chief_token_cannot_be_issued(server: RunningServer, event: Event) -> None:
    response = refused(
        server,
        lambda: event.chief.post(f"/api/events/{event.id}/tokens", json={"role": "chief"}),
        422,
    )
    assert only_error(response)["loc"] == ["body", "role"]


# --------------------------------------------------------------------------- 404


def test_an_unknown_event_is_answered_with_what_the_token_opens(
    server: RunningServer, event: Event
) -> None:
    """A token is its event's: any other id, real or not, gets the same answer, which
    names the token's own event, so that a mistyped id is not taken for a bad token."""
    response = refused(server, lambda: event.chief.get("/api/events/no-such-event"), 404)
    assert detail(response) == (
        f"this key is for UzChess Cup Masters 2025 (event {event.id}), not for event "
        "'no-such-event': it has no play-off yet"
    )
    refused(server, lambda: event.chief.get("/api/events/no-such-event/standings"), 404)
    refused(server, lambda: event.chief.post("/api/events/no-such-event/playoff", json={}), 404)


def test_an_unknown_playoff_is_answered_with_what_the_token_opens(
    playoff: Playoff, anonymous: httpx.Client
) -> None:
    """A valid token asking for a play-off id that is not its event's is told which
    play-off it opens, at every route; without a token, a real play-off and an unknown
    id get the same answer: ids cannot be probed, nor tokens tried against them."""
    chief = playoff.chief
    response = refused(playoff.server, lambda: chief.get("/api/playoffs/no-such"), 404, playoff)
    names = chief.get(playoff.url).json()["names"]
    assert detail(response) == (
        f"this key is for UzChess Cup Masters 2025 (event {playoff.event.id}), not for "
        f"play-off 'no-such': its play-off is {playoff.id} (Praggnanandhaa R, Abdusattorov "
        "and Sindarov)"
    )
    assert set(names.values()) == {
        "Praggnanandhaa R", "Abdusattorov, Nodirbek", "Sindarov, Javokhir"
    }
    for path in ("/jobs", "/events", "/pgn", "/placings", "/view", "/view?kind=arbiter"):
        answer = refused(
            playoff.server, partial(chief.get, f"/api/playoffs/no-such{path}"), 404, playoff
        )
        assert detail(answer) == detail(response)
    with playoff.server.client(playoff.issue("display")) as display:
        # A display key may not read the log: but first, this is not its play-off.
        answer = refused(playoff.server, lambda: display.get("/api/playoffs/no-such/events"),
                         404, playoff)
        assert detail(answer) == detail(response)
    answer = refused(
        playoff.server,
        lambda: chief.post(
            "/api/playoffs/no-such/matches/1/games/1/result", json={"result": "1-0"}
        ),
        404,
        playoff,
    )
    assert detail(answer) == detail(response)
    real = anonymous.get(playoff.url)
    unknown = anonymous.get("/api/playoffs/no-such")
    assert (real.status_code, real.json()) == (unknown.status_code, unknown.json())


# --------------------------------------------------------------------------- 409


def clear_winner() -> bytes:
    """A small double round robin that player 1 wins outright: no play-off."""
    games = [
        (1, "1", "2", "1-0"),
        (2, "3", "1", "0-1"),
        (3, "2", "3", "1/2-1/2"),
        (4, "2", "1", "1/2-1/2"),
        (5, "1", "3", "1/2-1/2"),
        (6, "3", "2", "1-0"),
    ]
    return json.dumps(
        {
            "name": "Clear winner",
            "kind": "individual",
            "regulation": "gct2015",
            "players": [{"id": p, "name": f"Player {p}", "rating": 2500} for p in "123"],
            "games": [
                {
                    "round": r,
                    "white": w,
                    "black": b,
                    "result": res,
                    "ended_at": f"2025-06-2{r}T18:00:00Z",
                }
                for r, w, b, res in games
            ],
        }
    ).encode()


def test_no_playoff_when_nobody_is_tied_for_first(server: RunningServer) -> None:
    with uploaded(server, clear_winner()) as event:
        standings = event.chief.get(f"/api/events/{event.id}/standings").json()
        assert [row["id"] for row in standings["standings"]][:1] == ["1"]
        response = refused(
            server, lambda: event.chief.post(f"/api/events/{event.id}/playoff", json={}), 409
        )
        assert "nobody is tied" in detail(response)
        assert event.chief.get(f"/api/events/{event.id}").json()["playoffs"] == []


def test_the_playoff_cannot_be_created_twice(playoff: Playoff) -> None:
    response = refused(
        playoff.server,
        lambda: playoff.chief.post(f"/api/events/{playoff.event.id}/playoff", json={}),
        409,
        playoff,
    )
    assert playoff.id in detail(response)
    listed = playoff.chief.get(f"/api/events/{playoff.event.id}").json()["playoffs"]
    assert listed == [playoff.id]


def test_no_result_for_a_locked_match(playoff: Playoff) -> None:
    response = refused(
        playoff.server,
        lambda: playoff.chief.post(f"{playoff.matches}/2/games/1/result", json={"result": "1-0"}),
        409,
        playoff,
    )
    assert "locked" in detail(response)


def test_no_lots_for_a_locked_match(playoff: Playoff) -> None:
    refused(
        playoff.server,
        lambda: playoff.chief.post(f"{playoff.matches}/2/lots", json={"method": "service"}),
        409,
        playoff,
    )


def test_no_result_before_the_lots(playoff: Playoff) -> None:
    response = refused(
        playoff.server,
        lambda: playoff.chief.post(f"{playoff.matches}/1/games/1/result", json={"result": "1-0"}),
        409,
        playoff,
    )
    assert "lots" in detail(response)


def test_no_second_result_for_the_same_game(playoff: Playoff) -> None:
    playoff.lots()
    playoff.result(1, 1, "1-0")
    response = refused(
        playoff.server,
        lambda: playoff.chief.post(f"{playoff.matches}/1/games/1/result", json={"result": "0-1"}),
        409,
        playoff,
    )
    assert "already has a result" in detail(response)


def test_no_armageddon_result_before_the_coin_toss(playoff: Playoff) -> None:
    playoff.level_after_two_games()
    view = playoff.chief.get(playoff.url).json()
    assert [g["kind"] for g in view["matches"][0]["games"]][2] == "armageddon"
    refused(
        playoff.server,
        lambda: playoff.chief.post(
            f"{playoff.matches}/1/games/3/result", json={"result": "1/2-1/2"}
        ),
        409,
        playoff,
    )


def test_no_armageddon_colours_without_a_coin_toss(playoff: Playoff) -> None:
    playoff.level_after_two_games()
    response = refused(
        playoff.server,
        lambda: playoff.chief.post(
            f"{playoff.matches}/1/armageddon-colours", json={"white": ABDU, "black": SINDAROV}
        ),
        409,
        playoff,
    )
    assert "toss the coin" in detail(response)


def test_no_coin_toss_while_the_match_is_not_level(playoff: Playoff) -> None:
    playoff.lots()
    playoff.result(1, 1, "1-0")
    refused(
        playoff.server,
        lambda: playoff.chief.post(
            f"{playoff.matches}/1/coin-toss",
            json={"method": "service", "caller": ABDU, "call": "heads"},
        ),
        409,
        playoff,
    )


def test_the_time_control_cannot_be_lengthened(playoff: Playoff) -> None:
    before = playoff.chief.get(playoff.url).json()
    assert before["matches"][0]["time_control"] == "G/25+5"
    for match in (None, 1):
        response = refused(
            playoff.server,
            partial(
                playoff.chief.post,
                f"{playoff.url}/time-control",
                json={"time_control": "G/90+30", "match": match, "reason": "more time"},
            ),
            409,
            playoff,
        )
        assert "not shorter" in detail(response)


def test_the_time_control_of_a_begun_match_cannot_be_shortened(playoff: Playoff) -> None:
    playoff.lots()
    playoff.ok(playoff.chief.post(f"{playoff.matches}/1/games/1/start", json=EARLY))
    response = refused(
        playoff.server,
        lambda: playoff.chief.post(
            f"{playoff.url}/time-control",
            json={"time_control": "G/15+5", "match": 1, "reason": "running late"},
        ),
        409,
        playoff,
    )
    assert "has begun" in detail(response)


def test_the_start_of_a_started_game_cannot_move(playoff: Playoff) -> None:
    playoff.lots()
    playoff.ok(playoff.chief.post(f"{playoff.matches}/1/games/1/start", json=EARLY))
    response = refused(
        playoff.server,
        lambda: playoff.chief.post(
            f"{playoff.matches}/1/games/1/move-start",
            json={"at": "2025-06-28T14:00:00Z", "reason": "hall not ready"},
        ),
        409,
        playoff,
    )
    assert "already started" in detail(response)


def test_a_game_cannot_start_twice(playoff: Playoff) -> None:
    playoff.lots()
    playoff.ok(playoff.chief.post(f"{playoff.matches}/1/games/1/start", json=EARLY))
    refused(
        playoff.server,
        lambda: playoff.chief.post(f"{playoff.matches}/1/games/1/start", json=EARLY),
        409,
        playoff,
    )


# --------------------------------------------------------------------------- idempotency


def audit_log(playoff: Playoff) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = playoff.chief.get(f"{playoff.url}/events").json()["events"]
    return events


def test_a_resent_command_applies_once_and_returns_the_same_events(playoff: Playoff) -> None:
    playoff.lots()
    playoff.start(1, 1)
    before = len(audit_log(playoff))
    key = {"Idempotency-Key": "result-1-1-from-the-console"}
    url = f"{playoff.matches}/1/games/1/result"
    first = playoff.chief.post(url, json={"result": "1-0"}, headers=key)
    second = playoff.chief.post(url, json={"result": "1-0"}, headers=key)
    assert (first.status_code, second.status_code) == (201, 201), second.text
    assert second.json() == first.json()
    # The key is logged scoped to the token that sent it (the chief's).
    assert [e["command_id"] for e in first.json()["events"]] == [
        "rest:chief:" + key["Idempotency-Key"]
    ]
    log = audit_log(playoff)
    assert len(log) == before + 1
    # The answer also carries the clock the result stopped; the log holds the event.
    answered = {k: v for k, v in first.json()["events"][0].items() if k != "clock"}
    assert log[-1] == answered
    # Without the key the same result is a second result for the game: refused.
    refused(playoff.server, lambda: playoff.chief.post(url, json={"result": "1-0"}), 409, playoff)


def test_a_resent_draw_of_lots_returns_the_same_draw(playoff: Playoff) -> None:
    before = len(audit_log(playoff))
    key = {"Idempotency-Key": "lots-1"}
    url = f"{playoff.matches}/1/lots"
    first = playoff.ok(playoff.chief.post(url, json={"method": "service"}, headers=key))
    second = playoff.ok(playoff.chief.post(url, json={"method": "service"}, headers=key))
    assert second["events"] == first["events"]
    assert len(audit_log(playoff)) == before + 1
    draws = playoff.chief.get(playoff.url).json()["draws"]
    assert [d["kind"] for d in draws] == ["lots"]


# --------------------------------------------------------------------------- refused whole
#
# A command is checked by folding it onto the state, but the schedule is planned
# from that state only after the event is stored (the scheduler's listener). A
# command the planner cannot plan must be refused before it is stored, or the
# play-off is broken for good (every later command is logged but answered with an
# error, and the service no longer starts: see tests/runtime/test_restart.py).


def test_a_move_start_without_a_time_zone_is_refused_with_the_field(playoff: Playoff) -> None:
    response = refused(
        playoff.server,
        lambda: playoff.chief.post(
            f"{playoff.matches}/1/games/1/move-start",
            json={"at": "2025-06-28T13:00:00", "reason": "hall not ready"},
        ),
        422,
        playoff,
    )
    assert only_error(response)["loc"] == ["body", "at"]


def test_a_deadline_without_a_time_zone_is_refused_with_the_field(playoff: Playoff) -> None:
    response = refused(
        playoff.server,
        lambda: playoff.chief.post(
            f"{playoff.url}/deadline",
            json={"deadline": "2025-06-28T20:00:00", "reason": "the hall closes"},
        ),
        422,
        playoff,
    )
    assert only_error(response)["loc"] == ["body", "deadline"]


def test_a_not_before_without_a_time_zone_is_refused_with_the_field(
    server: RunningServer, event: Event
) -> None:
    response = refused(
        server,
        lambda: event.chief.post(
            f"/api/events/{event.id}/playoff", json={"not_before": "2025-06-28T13:00:00"}
        ),
        422,
    )
    assert only_error(response)["loc"] == ["body", "not_before"]
    assert event.chief.get(f"/api/events/{event.id}").json()["playoffs"] == []


def test_moving_the_start_of_a_game_of_no_match_is_refused_and_logs_nothing(
    playoff: Playoff,
) -> None:
    response = refused(
        playoff.server,
        lambda: playoff.chief.post(
            f"{playoff.matches}/99/games/1/move-start",
            json={"at": "2025-06-28T13:00:00Z", "reason": "hall not ready"},
        ),
        409,
        playoff,
    )
    assert "99" in detail(response)
    # The play-off goes on.
    playoff.lots()


def test_a_pinned_armageddon_start_does_not_block_a_match_decided_in_two_games(
    playoff: Playoff,
) -> None:
    """The arbiter may fix the Armageddon's start in advance ("at 15:30 if needed"); if
    the match is then decided in two games, the deciding result must be taken, and
    the play-off go on to the final."""
    playoff.ok(
        playoff.chief.post(
            f"{playoff.matches}/1/games/3/move-start",
            json={"at": "2025-06-28T15:30:00Z", "reason": "the Armageddon, if needed"},
        )
    )
    playoff.lots()
    playoff.result(1, 1, "1-0")
    playoff.start(1, 2)
    before = log_sizes(playoff.server)[f"playoff-{playoff.id}"]
    deciding = playoff.chief.post(f"{playoff.matches}/1/games/2/result", json={"result": "0-1"})
    stored = log_sizes(playoff.server)[f"playoff-{playoff.id}"] - before
    assert (deciding.status_code, stored) == (201, 1), (
        f"the deciding result was answered {deciding.status_code} {deciding.text!r} "
        f"and {stored} event(s) were logged"
    )
    view = playoff.chief.get(playoff.url).json()
    assert view["matches"][0]["status"] == "completed"
    assert "error" not in view["schedule"], view["schedule"]
    playoff.lots(2)


def test_no_second_coin_toss_for_one_decider(playoff: Playoff) -> None:
    """Tossed again, a coin could be tossed until it fell the way someone wanted."""
    playoff.level_after_two_games()
    toss = {"method": "physical", "winner": SINDAROV}
    playoff.ok(playoff.chief.post(f"{playoff.matches}/1/coin-toss", json=toss))
    response = refused(
        playoff.server,
        lambda: playoff.chief.post(f"{playoff.matches}/1/coin-toss",
                                   json={"method": "physical", "winner": ABDU}),
        409,
        playoff,
    )
    assert detail(response) == (
        "the coin was already tossed for match 1: Sindarov, Javokhir won the toss")
