"""Nothing anyone sends can stop the service: the edge of the REST API, end to end.

Against the real server on a real port: NaN and Infinity, dates out of range or
written as numbers, unknown regulations, repeated keys and overlong numbers in
any JSON body, and bodies past the size limits (README, "Limits") are refused
with 4xx naming the field (or 413), nothing is logged, and the service starts
again on its log.
"""

from __future__ import annotations

import json
import select
import socket
import threading
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn

from orchestrator.app import create_app
from orchestrator.core.timesource import ManualTime
from orchestrator.settings import Settings
from playoff_formats.model import MAX_NAME
from tests.support import DATA
from tests.support.events import uzchess_json
from tests.support.server import RunningServer, free_port, running_server

TRF = DATA / "io" / "sample-trf26.trf"
BRIDGE = {
    "name": "Spring Foursomes, group A", "kind": "team", "regulation": "ebu-143.7",
    "teams": [{"id": "N", "name": "North"}, {"id": "S", "name": "South"},
              {"id": "W", "name": "West"}],
    "matches": [
        {"round": 1, "home": "N", "away": "S", "venue": "neutral", "vps": [12.5, 7.5]},
        {"round": 2, "home": "S", "away": "W", "venue": "neutral", "vps": [10, 10]},
        {"round": 3, "home": "W", "away": "N", "venue": "neutral", "vps": [4, 16]},
    ],
}


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("inputs") / "log.db"


@pytest.fixture(scope="module")
def server(db: Path) -> Iterator[RunningServer]:
    with running_server(db, ManualTime()) as running:
        yield running


@pytest.fixture
def anonymous(server: RunningServer) -> Iterator[httpx.Client]:
    with server.client() as client:
        yield client


def upload(
    client: httpx.Client, body: str | bytes, kind: str = "application/json"
) -> httpx.Response:
    return client.post("/api/events", content=body, headers={"Content-Type": kind})


def log_sizes(server: RunningServer) -> dict[str, int]:
    store = server.service.store

    async def sizes() -> dict[str, int]:
        return {s: len(await store.read(s)) for s in await store.streams("")}

    return server.call(sizes)


def refused(server: RunningServer, response: httpx.Response, before: dict[str, int],
            status: int = 422) -> Any:
    assert response.status_code == status, response.text[:500]
    assert log_sizes(server) == before, "a refused request changed the log"
    return response.json()["detail"]


def only(detail: Any) -> dict[str, Any]:
    assert isinstance(detail, list) and len(detail) == 1, detail
    problem: dict[str, Any] = detail[0]
    return problem


@contextmanager
def chief_of_new_event(server: RunningServer) -> Iterator[tuple[str, httpx.Client]]:
    with server.client() as anonymous:
        made = upload(anonymous, uzchess_json(None))
    assert made.status_code == 201, made.text
    with server.client(made.json()["chief_token"]) as chief:
        yield made.json()["id"], chief


# --------------------------------------------------------------------------- NaN, Infinity


@pytest.mark.parametrize("literal", ["NaN", "Infinity", "-Infinity"])
def test_a_team_event_with_nan_vps_is_refused_before_it_is_logged(
    server: RunningServer, anonymous: httpx.Client, literal: str
) -> None:
    body = json.dumps(BRIDGE, indent=1).replace("12.5", literal)
    before = log_sizes(server)
    problem = only(refused(server, upload(anonymous, body), before))
    assert problem["loc"] == ["body", "matches", 0, "vps", 0]
    offset = body.index(literal)
    assert problem["line"] == body.count("\n", 0, offset) + 1
    assert problem["column"] == offset - body.rfind("\n", 0, offset)


def test_a_chess_team_event_with_nan_score_is_refused(
    server: RunningServer, anonymous: httpx.Client
) -> None:
    data = {
        "name": "County", "kind": "team", "regulation": "county1980",
        "teams": [{"id": "A", "name": "A"}, {"id": "B", "name": "B"}],
        "matches": [{"round": 1, "home": "A", "away": "B", "boards": ["1-0", "0-1"],
                     "score": [1, 1]}],
    }
    before = log_sizes(server)
    body = json.dumps(data).replace("[1, 1]", "[1, NaN]")
    assert only(refused(server, upload(anonymous, body), before))["loc"] == [
        "body", "matches", 0, "score", 1
    ]


def test_what_is_logged_reads_back_at_the_next_start(tmp_path: Path) -> None:
    db = tmp_path / "log.db"
    with running_server(db, ManualTime()) as first, first.client() as anonymous:
        made = upload(anonymous, json.dumps(BRIDGE))
        assert made.status_code == 201, made.text
        refused_nan = upload(anonymous, json.dumps(BRIDGE).replace("12.5", "NaN"))
        assert refused_nan.status_code == 422
        with first.client(made.json()["chief_token"]) as chief:
            standings = chief.get(f"/api/events/{made.json()['id']}/standings")
        assert standings.status_code == 200, standings.text
    with running_server(db, ManualTime()) as second:
        assert not getattr(second.service, "quarantined", {})
        with second.client(made.json()["chief_token"]) as chief:
            again = chief.get(f"/api/events/{made.json()['id']}/standings")
        assert again.status_code == 200, again.text
        assert again.json() == standings.json()


def test_a_trf_with_a_number_of_thousands_of_digits_is_refused_at_its_column(
    server: RunningServer, anonymous: httpx.Client
) -> None:
    text = TRF.read_text(encoding="utf-8").rstrip("\n") + "\n240 F " + "9" * 5000 + " 1\n"
    before = log_sizes(server)
    problem = only(refused(server, upload(anonymous, text, "text/plain"), before))
    assert (problem["line"], problem["column"]) == (len(text.splitlines()), 7)


# --------------------------------------------------------------------------- JSON in any body


@pytest.mark.parametrize(
    ("body", "loc"),
    [
        ('{"role": "arbiter", "role": "display"}', ["body", "role"]),
        ('{"role": "arbiter", "label": NaN}', ["body", "label"]),
        ('{"role": "arbiter", "label": ' + "9" * 5000 + "}", ["body", "label"]),
        ('{"role": "arbiter", "label": ' + "[" * 5000 + "]" * 5000 + "}",
         ["body", "label", *[0] * 31]),
    ],
)
def test_a_json_body_is_read_strictly_with_its_path(
    server: RunningServer, body: str, loc: list[Any]
) -> None:
    with chief_of_new_event(server) as (event_id, chief):
        before = log_sizes(server)
        response = chief.post(
            f"/api/events/{event_id}/tokens", content=body,
            headers={"Content-Type": "application/json"},
        )
        problem = only(refused(server, response, before))
        assert problem["loc"] == loc, problem
        assert problem["line"] == 1 and problem["column"] >= 1


def test_nan_in_a_prize_is_refused_with_its_path(server: RunningServer) -> None:
    with chief_of_new_event(server) as (event_id, chief):
        before = log_sizes(server)
        response = chief.post(
            f"/api/events/{event_id}/playoff", content='{"prizes": [100, NaN]}',
            headers={"Content-Type": "application/json"},
        )
        assert only(refused(server, response, before))["loc"] == ["body", "prizes", 1]


def test_a_command_body_is_read_strictly_with_its_path(server: RunningServer) -> None:
    with chief_of_new_event(server) as (event_id, chief):
        made = chief.post(f"/api/events/{event_id}/playoff", json={})
        assert made.status_code == 201, made.text
        url = f"/api/playoffs/{made.json()['id']}"
        for path, body, loc in [
            ("/matches/1/lots", '{"method": "service", "method": "physical"}',
             ["body", "method"]),
            ("/matches/1/games/1/result", '{"result": "1-0", "moves": ' + "1" * 5000 + "}",
             ["body", "moves"]),
            ("/commands", '{"type": "lots", "match": 1, "method": NaN}', ["body", "method"]),
            ("/commands", '{"type": "lots", "match": ' + "1" * 5000 + "}", ["body", "match"]),
        ]:
            before = log_sizes(server)
            response = chief.post(
                url + path, content=body, headers={"Content-Type": "application/json"}
            )
            assert only(refused(server, response, before))["loc"] == loc, path


# --------------------------------------------------------------------------- dates


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"deadline": 0}, "deadline"),
        ({"deadline": 1_750_000_000.5}, "deadline"),
        ({"not_before": 0}, "not_before"),
        ({"deadline": "1899-12-31T23:59:59Z"}, "deadline"),
        ({"deadline": "2200-01-01T00:00:00Z"}, "deadline"),
        ({"not_before": "0001-01-01T00:00:00+14:00"}, "not_before"),
        ({"deadline": "9999-12-31T23:59:59-14:00"}, "deadline"),
    ],
)
def test_a_playoff_date_is_iso_text_in_range(
    server: RunningServer, body: dict[str, Any], field: str
) -> None:
    with chief_of_new_event(server) as (event_id, chief):
        before = log_sizes(server)
        response = chief.post(f"/api/events/{event_id}/playoff", json=body)
        problem = only(refused(server, response, before))
        assert problem["loc"] == ["body", field]
        assert chief.get(f"/api/events/{event_id}").json()["playoffs"] == []


def test_a_playoff_date_in_range_is_accepted(server: RunningServer) -> None:
    with chief_of_new_event(server) as (event_id, chief):
        response = chief.post(
            f"/api/events/{event_id}/playoff", json={"deadline": "2199-12-31T23:00:00+00:00"}
        )
        assert response.status_code == 201, response.text


def test_an_end_time_out_of_range_is_refused_at_upload(
    server: RunningServer, anonymous: httpx.Client
) -> None:
    data = json.loads(uzchess_json(None))
    data["games"][2]["ended_at"] = "1066-10-14T17:00:00Z"
    before = log_sizes(server)
    problem = only(refused(server, upload(anonymous, json.dumps(data)), before))
    assert problem["loc"] == ["body", "games", 2, "ended_at"]


# --------------------------------------------------------------------------- regulation


def test_an_unknown_regulation_is_refused_at_upload_with_the_known_ones(
    server: RunningServer, anonymous: httpx.Client
) -> None:
    data = json.loads(uzchess_json(None))
    data["regulation"] = "club-open-2026"
    before = log_sizes(server)
    problem = only(refused(server, upload(anonymous, json.dumps(data)), before))
    assert problem["loc"] == ["body", "regulation"]
    assert "club-open-2026" in problem["msg"]
    assert "gct2015" in problem["msg"] and "county1980" in problem["msg"]


# --------------------------------------------------------------------------- sizes


def test_a_long_player_name_is_refused_with_the_field(
    server: RunningServer, anonymous: httpx.Client
) -> None:
    data = json.loads(uzchess_json(None))
    data["players"][3]["name"] = "N" * (MAX_NAME + 1)
    before = log_sizes(server)
    problem = only(refused(server, upload(anonymous, json.dumps(data)), before))
    assert problem["loc"] == ["body", "players", 3, "name"]
    assert f"at most {MAX_NAME} characters" in problem["msg"]


def test_a_20_mb_player_name_is_refused_with_413(
    server: RunningServer, anonymous: httpx.Client
) -> None:
    data = json.loads(uzchess_json(None))
    data["players"][0]["name"] = "N" * 20_000_000
    before = log_sizes(server)
    detail = refused(server, upload(anonymous, json.dumps(data)), before, 413)
    assert "2 MiB" in detail


def test_a_large_command_body_is_refused_with_413(server: RunningServer) -> None:
    with chief_of_new_event(server) as (event_id, chief):
        before = log_sizes(server)
        response = chief.post(
            f"/api/events/{event_id}/tokens", json={"role": "arbiter", "label": "x" * 70_000}
        )
        assert "64 KiB" in refused(server, response, before, 413)


def test_a_large_content_length_is_refused_before_the_body_is_sent(
    server: RunningServer,
) -> None:
    head = (
        "POST /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        f"Content-Length: {100 * 1024 * 1024}\r\n\r\n"
    ).encode()
    started = time.monotonic()
    status, body = raw_exchange(server.port, head, [b'{"name": "'])
    assert status == 413
    assert "2 MiB" in json.loads(body)["detail"]
    assert time.monotonic() - started < 5


def test_a_large_chunked_body_is_refused_as_soon_as_it_passes_the_limit(
    server: RunningServer,
) -> None:
    head = (
        b"POST /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        b"Transfer-Encoding: chunked\r\n\r\n"
    )
    chunk = b"x" * 65536
    sent: list[int] = []

    def chunks() -> Iterator[bytes]:
        for _ in range(1600):  # 100 MiB, if nobody stopped it
            sent.append(len(chunk))
            yield f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n"

    status, body = raw_exchange(server.port, head, chunks())
    assert status == 413
    assert "2 MiB" in json.loads(body)["detail"]
    # Refused once past the limit, give or take what the sockets buffered meanwhile.
    assert sum(sent) < 40 * 1024 * 1024


def test_the_limits_are_settings(tmp_path: Path) -> None:
    settings = Settings(
        db_path=tmp_path / "log.db", max_upload_bytes=1000, max_body_bytes=100
    )
    with serving(settings) as base, httpx.Client(base_url=base, trust_env=False) as client:
        response = client.post(
            "/api/events", content=uzchess_json(None),
            headers={"Content-Type": "application/json"},
        )
        assert response.status_code == 413
        assert "1,000 bytes" in response.json()["detail"]
        response = client.post(
            "/api/events/x/tokens", json={"role": "arbiter", "label": "x" * 200}
        )
        assert response.status_code == 413
        assert "100 bytes" in response.json()["detail"]


# --------------------------------------------------------------------------- helpers


def raw_exchange(port: int, head: bytes, chunks: Iterable[bytes]) -> tuple[int, bytes]:
    """Send ``head`` then ``chunks`` until the server answers; its status and body."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(head)
        for chunk in chunks:
            if select.select([sock], [], [], 0)[0]:
                break
            try:
                sock.sendall(chunk)
            except OSError:
                break
        received = b""
        while b"\r\n\r\n" not in received:
            data = sock.recv(65536)
            assert data, "the server closed the connection without an answer"
            received += data
        header, _, body = received.partition(b"\r\n\r\n")
        lines = header.decode("latin-1").split("\r\n")
        length = next(
            int(line.split(":", 1)[1]) for line in lines
            if line.lower().startswith("content-length:")
        )
        while len(body) < length:
            data = sock.recv(65536)
            assert data
            body += data
        return int(lines[0].split()[1]), body[:length]


@contextmanager
def serving(settings: Settings) -> Iterator[str]:
    """The app made with ``settings``, on a free port; its base URL."""
    port = free_port()
    app = create_app(settings, ManualTime())
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        assert time.monotonic() < deadline and thread.is_alive(), "the server did not start"
        time.sleep(0.01)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
