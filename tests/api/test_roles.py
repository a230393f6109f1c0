"""Roles as documented: one table (``orchestrator.core.auth.PERMISSIONS``, in words in
docs/protocol.md, "Roles"), enforced for every REST route and every websocket
command with every role. A role that may not do a thing gets 403 (or an error
frame), and one that may never does; nothing else is asserted here (what a
permitted request then meets is each route's own affair).
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Iterator
from typing import Any

import pytest

from orchestrator.core.auth import PERMISSIONS, Action, Role
from orchestrator.core.commands import client_commands
from orchestrator.core.timesource import ManualTime
from tests.support import ROOT
from tests.support.events import ABDU, SINDAROV
from tests.support.server import RunningServer, running_server
from tests.support.ws import Setup, cmd, make_playoff, raw_hello

PROTOCOL = ROOT / "docs" / "protocol.md"
WHEN = "2030-01-01T12:00:00+00:00"

COMMANDS: dict[str, dict[str, Any]] = {
    "start-clock": {"match": 1, "game": 1},
    "press": {"match": 1, "game": 1, "side": "white"},
    "pause": {"match": 1, "game": 1},
    "resume": {"match": 1, "game": 1},
    "adjust": {"match": 1, "game": 1, "side": "white", "delta_ms": 1000, "reason": "slip"},
    "result": {"match": 1, "game": 1, "result": "1-0"},
    "correct": {"match": 1, "game": 1, "result": "0-1", "reason": "score sheets"},
    "lots": {"match": 1, "method": "physical", "white": ABDU},
    "coin-toss": {"match": 1, "method": "physical", "winner": ABDU},
    "armageddon-colours": {"match": 1, "white": ABDU, "black": SINDAROV},
    "move-start": {"match": 1, "game": 1, "at": WHEN, "reason": "the hall is late"},
    "postpone": {"match": 1, "game": 1, "minutes": 5, "reason": "the hall is late"},
    "time-control": {"time_control": "G/15+5", "reason": "running late"},
    "restore-time-control": {"reason": "undo"},
    "deadline": {"deadline": WHEN, "reason": "the organiser's"},
    "board-score": {"stanza": 1, "board": 1, "table": 1, "ns_score": 100},
    "call-arbiter": {"match": 1},
    "board-sides": {"match": 1, "left": "black"},
    "penalty": {"match": 1, "game": 1, "offender": "white", "reason": "an illegal move"},
    "board-score-correct": {"stanza": 1, "board": 1, "table": 1, "ns_score": 100,
                            "reason": "a slip misread"},
    "board-position": {"match": 1, "placement": "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR"},
    "board-flag": {"match": 1, "side": "white"},
    "map-eboard": {"serial": "23946", "match": 1},
}
"""A valid payload of each command (what the state then says of it does not matter)."""


def documented_table() -> dict[Action, frozenset[Role]]:
    text = PROTOCOL.read_text()
    table = text.split("<!-- roles -->", 1)[1].strip().split("\n\n", 1)[0]
    rows = [line for line in table.splitlines()[2:] if line.startswith("|")]
    header = [cell.strip() for cell in table.splitlines()[0].strip("|").split("|")]
    roles = [Role(name) for name in header[1:-1]]
    found: dict[Action, frozenset[Role]] = {}
    for row in rows:
        cells = [cell.strip() for cell in row.strip("|").split("|")]
        action = Action(cells[0].strip("`"))
        found[action] = frozenset(r for r, cell in zip(roles, cells[1:-1], strict=True)
                                  if cell == "yes")
    return found


def test_the_documented_table_is_the_one_the_service_enforces() -> None:
    assert documented_table() == PERMISSIONS


@pytest.fixture(scope="module")
def setup(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Setup]:
    with running_server(tmp_path_factory.mktemp("roles") / "log.db", ManualTime()) as server:
        yield make_playoff(server, 1, lots=False)


def routes(setup: Setup) -> list[tuple[str, str, dict[str, Any] | None, Action]]:
    """Every route that takes an event's token: method, path, body, its action."""
    e, p = f"/api/events/{setup.event_id}", f"/api/playoffs/{setup.playoff_id}"
    found: list[tuple[str, str, dict[str, Any] | None, Action]] = [
        ("GET", "/api/access", None, Action.READ),
        ("GET", e, None, Action.READ),
        ("GET", f"{e}/standings", None, Action.READ),
        ("GET", f"{e}/view?kind=hall", None, Action.READ),
        ("GET", f"{e}/view?kind=hall&draw_rate=0.4", None, Action.FORESEE),
        ("GET", f"{e}/view?kind=hall&time_control=blitz", None, Action.FORESEE),
        ("GET", f"{e}/view?kind=arbiter", None, Action.FORESEE),
        ("GET", f"{e}/foresight", None, Action.FORESEE),
        ("GET", f"{e}/print/standings.pdf", None, Action.READ),
        ("POST", f"{e}/results", {"round": 9, "white": ABDU, "black": SINDAROV,
                                  "result": "1-0"}, Action.COMMAND),
        ("PUT", f"{e}/hall-foresight", {"on": False}, Action.OVERRIDE),
        ("POST", f"{e}/tokens", {"role": "display", "label": "another"}, Action.ISSUE_TOKENS),
        ("POST", f"{e}/tokens", {"role": "board", "playoff": setup.playoff_id, "match": 1},
         Action.ISSUE_BOARD_KEYS),
        ("POST", f"{e}/playoff", {}, Action.CREATE),
        ("POST", f"{e}/extra-boards", {"home": "a", "away": "b", "scheduled": 16},
         Action.CREATE),
        ("GET", p, None, Action.READ),
        ("GET", f"{p}/view?kind=hall", None, Action.READ),
        ("GET", f"{p}/pgn", None, Action.READ),
        ("GET", f"{p}/placings", None, Action.READ),
        ("GET", f"{p}/print/cards.pdf", None, Action.READ),
        ("GET", f"{p}/jobs", None, Action.AUDIT),
        ("GET", f"{p}/events", None, Action.AUDIT),
        ("GET", f"{p}/broadcast.pgn", None, Action.BROADCAST),
        ("GET", f"{p}/export.trf", None, Action.READ),
        ("POST", f"{e}/tokens", {"role": "broadcast"}, Action.ISSUE_TOKENS),
    ]
    for command in client_commands():
        kind = command.model_fields["type"].default
        body = COMMANDS[kind]
        found.append(("POST", f"{p}/commands", {"type": kind, **body}, command.action))
        if command.route is not None:
            path = command.route.path.format(**body)
            fields = {k: v for k, v in body.items() if f"{{{k}}}" not in command.route.path}
            found.append((command.route.method, p + path, fields, command.action))
    return found


def test_every_route_is_in_the_matrix(setup: Setup) -> None:
    with setup.server.client() as http:
        document = http.get("/openapi.json").json()
    declared = {
        (method.upper(), path) for path, item in document["paths"].items() for method in item
        if path.startswith("/api/")
    }
    # Not an event's token: the upload (anyone, or the organiser's credential), the
    # health check and the languages' words (anyone) and the administrator's routes (the
    # administrator's token).
    apart = {("POST", "/api/events"), ("GET", "/api/health"), ("GET", "/api/admin/quarantine"),
             ("GET", "/api/languages"), ("GET", "/api/languages/{code}")}

    def template(path: str) -> str:
        path = path.split("?", 1)[0]
        path = path.replace(setup.event_id, "{event_id}").replace(setup.playoff_id, "{playoff_id}")
        path = re.sub(r"/matches/\d+", "/matches/{match}", path)
        path = path.replace("/print/cards.pdf", "/print/{what}.pdf")
        return re.sub(r"/games/\d+", "/games/{game}", path)

    tried = {(method, template(path)) for method, path, _, _ in routes(setup)}
    assert tried | apart == declared


def broadcast_key(setup: Setup) -> str:
    with setup.server.client(setup.chief) as http:
        key: str = http.post(f"/api/events/{setup.event_id}/tokens",
                             json={"role": "broadcast"}).json()["token"]
    return key


def test_every_route_refuses_exactly_the_roles_the_table_refuses(setup: Setup) -> None:
    tokens = {Role.CHIEF: setup.chief, Role.ARBITER: setup.arbiter, Role.DISPLAY: setup.displays[0],
              Role.BROADCAST: broadcast_key(setup)}
    refusals = {Role.DISPLAY: "a display key is read-only",
                Role.BROADCAST: "a broadcast key only reads the broadcast feed"}
    wrong: list[str] = []
    for method, path, body, action in routes(setup):
        for role, token in tokens.items():
            with setup.server.client(token) as http:
                answer = http.request(method, path, json=body)
            refused = answer.status_code == 403
            if refused == role.may(action):
                wrong.append(f"{role.value} {method} {path}: {answer.status_code} {answer.text}")
            if refused:
                words = answer.json()["detail"]
                expected = refusals.get(role, "only the chief arbiter may")
                assert words.startswith(expected), words
    assert wrong == []


async def test_every_websocket_command_refuses_exactly_the_roles_the_table_refuses(
    setup: Setup,
) -> None:
    server: RunningServer = setup.server
    url = server.base_url.replace("http", "ws") + f"/ws/playoffs/{setup.playoff_id}"
    tokens = {Role.CHIEF: setup.chief, Role.ARBITER: setup.arbiter, Role.DISPLAY: setup.displays[0]}
    wrong: list[str] = []
    for role, token in tokens.items():
        ws, _ = await raw_hello(url, token)
        for n, command in enumerate(client_commands()):
            kind = command.model_fields["type"].default
            await ws.send(cmd(f"c{n}", type=kind, **COMMANDS[kind]))
            async with asyncio.timeout(5):
                while (frame := json.loads(await ws.recv())).get("id") != f"c{n}":
                    pass
            code = frame["d"].get("code") if frame["t"] == "error" else None
            refused = code in ("read-only", "forbidden")
            if refused == role.may(command.action):
                wrong.append(f"{role.value} {kind}: {frame}")
            if role is Role.DISPLAY:
                assert code == "read-only", frame
            elif refused:
                assert frame["d"]["reason"].startswith("only the chief arbiter may"), frame
        await ws.close()
    assert wrong == []


def test_the_matrix_is_not_empty(setup: Setup) -> None:
    """Each action has routes in the matrix, and each role is refused something."""
    actions = {action for _, _, _, action in routes(setup)}
    assert actions == set(Action)
    assert all(any(not role.may(action) for action in Action) for role in (Role.ARBITER,
                                                                            Role.DISPLAY))


async def test_a_broadcast_key_opens_no_websocket(setup: Setup) -> None:
    server: RunningServer = setup.server
    url = server.base_url.replace("http", "ws") + f"/ws/playoffs/{setup.playoff_id}"
    try:
        ws, _ = await raw_hello(url, broadcast_key(setup))
    except AssertionError as refused:  # its error frame: the key's words
        assert "a broadcast key only reads the broadcast feed" in str(refused)
    else:
        await ws.close()
        raise AssertionError("a broadcast key opened a websocket")
