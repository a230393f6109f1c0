"""Attacks on a real server, from several addresses of this machine (the whole of
127.0.0.0/8 is loopback): nobody is locked out by someone else's mistakes, a
forwarded address is believed only from a proxy the operator names, events are
uploaded only by the organiser where one is set, and the administrator's token is
guarded like any other.

Each test prints the figures it measured (``pytest -s`` shows them).
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from orchestrator.core.timesource import ManualTime
from orchestrator.settings import Settings, open_uploads_warning
from tests.support import ROOT
from tests.support.events import uzchess_json
from tests.support.server import RunningServer, free_port, running_server
from tests.support.ws import make_playoff

JSON = {"Content-Type": "application/json"}


def client_from(
    server: RunningServer, address: str, token: str | None = None, **headers: str
) -> httpx.Client:
    """An HTTP client whose connections leave from ``address`` (127.x.y.z)."""
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    return httpx.Client(
        base_url=server.base_url, headers=headers, trust_env=False, timeout=10,
        transport=httpx.HTTPTransport(local_address=address),
    )


async def hello_from(
    server: RunningServer, playoff_id: str, address: str, token: str
) -> tuple[dict[str, Any], int | None, str]:
    """A websocket from ``address`` that says hello: its first frame, and the close
    code and reason if the server closed it."""
    url = server.base_url.replace("http", "ws") + f"/ws/playoffs/{playoff_id}"
    async with connect(url, local_addr=(address, 0), max_size=None, proxy=None) as ws:
        await ws.send(json.dumps({"t": "hello", "d": {"token": token}}))
        first = json.loads(await asyncio.wait_for(ws.recv(), 5))
        if first["t"] == "welcome":
            return first, None, ""
        try:
            await asyncio.wait_for(ws.recv(), 5)
        except ConnectionClosed as closed:
            assert closed.rcvd is not None
            return first, closed.rcvd.code, closed.rcvd.reason
    raise AssertionError("an error frame without a close")


@pytest.fixture
def server(tmp_path: Path) -> Iterator[RunningServer]:
    with running_server(tmp_path / "log.db", ManualTime()) as running:
        yield running


# --------------------------------------------------------------------------- lockouts


async def test_a_thousand_failed_attempts_never_refuse_a_valid_token(
    server: RunningServer,
) -> None:
    setup = await asyncio.to_thread(make_playoff, server, 1)
    event = f"/api/events/{setup.event_id}"
    attacker, victim_address = "127.0.0.2", "127.0.0.2"  # one address: a proxy's

    def flood() -> list[int]:
        with client_from(server, attacker) as http:
            return [
                http.get(event, headers={"Authorization": f"Bearer wrong-{n}"}).status_code
                for n in range(1_000)
            ]

    started = time.monotonic()
    codes = await asyncio.to_thread(flood)
    print(f"\n1,000 wrong tokens from {attacker} in {time.monotonic() - started:.1f} s: "
          f"{codes.count(401)} x 401, then {codes.count(429)} x 429")
    assert codes[:30] == [401] * 30 and set(codes[30:]) == {429}

    def valid_reads() -> list[int]:
        with client_from(server, victim_address, setup.chief) as chief, client_from(
            server, victim_address, setup.arbiter
        ) as arbiter, client_from(server, victim_address, setup.displays[0]) as display:
            return [
                chief.get(event).status_code,
                arbiter.get(f"/api/playoffs/{setup.playoff_id}").status_code,
                display.get(f"/api/playoffs/{setup.playoff_id}/view").status_code,
                arbiter.post(
                    f"/api/playoffs/{setup.playoff_id}/commands",
                    json={"type": "start-clock", "match": 1, "game": 1},
                ).status_code,
            ]

    assert await asyncio.to_thread(valid_reads) == [200, 200, 200, 201]
    # The websocket: a valid token is welcomed; a wrong one is told it is a lockout.
    for token in (setup.chief, setup.arbiter, setup.displays[0]):
        first, code, _ = await hello_from(server, setup.playoff_id, victim_address, token)
        assert first["t"] == "welcome" and code is None
    first, code, reason = await hello_from(server, setup.playoff_id, attacker, "wrong")
    assert code == 4429
    assert first["d"]["code"] == "rate-limited"
    assert "too many failed attempts" in reason and "not valid" not in reason
    # Another address is not touched by the first one's failures.
    first, code, reason = await hello_from(server, setup.playoff_id, "127.0.0.3", "wrong")
    assert code == 4401 and reason == "this token is not valid"


# --------------------------------------------------------------------------- proxies


def test_forwarded_addresses_are_not_believed_unless_the_proxy_is_named(
    server: RunningServer,
) -> None:
    with client_from(server, "127.0.0.1") as anyone:
        event = anyone.post("/api/events", content=uzchess_json(), headers=JSON).json()
    path = f"/api/events/{event['id']}"
    # A made-up X-Forwarded-For on each attempt buys no fresh address: 127.0.0.4's
    # own failures are counted, and it is limited as any other address.
    with client_from(server, "127.0.0.4") as attacker:
        codes = [
            attacker.get(path, headers={
                "Authorization": f"Bearer wrong-{n}", "X-Forwarded-For": f"10.9.{n}.1",
            }).status_code
            for n in range(40)
        ]
    assert codes[:30] == [401] * 30 and set(codes[30:]) == {429}
    # Nor can it put a victim's address in: the victim's wrong token is a first one.
    with client_from(server, "127.0.0.4") as attacker:
        for n in range(40):
            attacker.get(path, headers={
                "Authorization": f"Bearer wrong-{n}", "X-Forwarded-For": "127.0.0.5",
            })
    with client_from(server, "127.0.0.5", "a-typo") as victim:
        assert victim.get(path).status_code == 401


def test_a_named_proxy_passes_on_each_client_s_own_address(tmp_path: Path) -> None:
    proxy = "127.0.0.6"
    with running_server(
        tmp_path / "log.db", ManualTime(), settings={"forwarded_allow_ips": proxy}
    ) as server:
        with client_from(server, "127.0.0.1") as anyone:
            event = anyone.post("/api/events", content=uzchess_json(), headers=JSON).json()
        path = f"/api/events/{event['id']}"
        with client_from(server, proxy) as through:
            # One client behind the proxy fails thirty times and is limited...
            for n in range(30):
                assert through.get(path, headers={
                    "Authorization": f"Bearer wrong-{n}", "X-Forwarded-For": "192.0.2.7",
                }).status_code == 401
            assert through.get(path, headers={
                "Authorization": "Bearer wrong", "X-Forwarded-For": "192.0.2.7",
            }).status_code == 429
            # ...and another client behind the same proxy is not.
            assert through.get(path, headers={
                "Authorization": "Bearer wrong", "X-Forwarded-For": "192.0.2.8",
            }).status_code == 401


# --------------------------------------------------------------------------- uploads


def test_with_an_organiser_s_credential_only_its_holder_uploads(tmp_path: Path) -> None:
    organiser = "organiser-credential-0123456789abcdef"
    with running_server(
        tmp_path / "log.db", ManualTime(), settings={"upload_token": organiser}
    ) as server:
        with client_from(server, "127.0.0.2") as anyone:
            refused = anyone.post("/api/events", content=uzchess_json(), headers=JSON)
            assert refused.status_code == 401
            assert "organiser" in refused.json()["detail"]
            wrong = anyone.post("/api/events", content=uzchess_json(), headers={
                **JSON, "Authorization": "Bearer someone-else",
            })
            assert wrong.status_code == 401
        assert not server.service._events  # nothing stored
        with client_from(server, "127.0.0.2", organiser) as allowed:
            made = allowed.post("/api/events", content=uzchess_json(), headers=JSON)
            assert made.status_code == 201, made.text


def test_serving_beyond_this_machine_without_a_credential_is_warned_of() -> None:
    assert open_uploads_warning(Settings(host="127.0.0.1", upload_token=None)) is None
    assert open_uploads_warning(Settings(host="0.0.0.0", upload_token="x" * 32)) is None
    warning = open_uploads_warning(Settings(host="0.0.0.0", upload_token=None))
    assert warning is not None and "PLAYOFF_UPLOAD_TOKEN" in warning


def test_playoff_serve_prints_the_warning(tmp_path: Path) -> None:
    """The real command, on every interface, with no credential: it says so first."""
    env = {k: v for k, v in os.environ.items() if k != "PLAYOFF_UPLOAD_TOKEN"}
    process = subprocess.Popen(
        [sys.executable, "-m", "orchestrator.cli", "serve", "--db", str(tmp_path / "a.db"),
         "--host", "0.0.0.0", "--port", str(free_port())],
        cwd=ROOT, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, env=env, text=True,
    )
    try:
        assert process.stderr is not None
        line = process.stderr.readline()
        words = line
        while "warning" in words and "PLAYOFF_UPLOAD_TOKEN" not in words:
            words += process.stderr.readline()
        assert "anyone who reaches this machine can upload" in " ".join(words.split())
    finally:
        process.terminate()
        process.wait(timeout=20)


# --------------------------------------------------------------------------- admin


def test_the_administrator_s_token_is_limited_and_compared_as_bytes(tmp_path: Path) -> None:
    admin = "administrator-0123456789abcdef"
    with running_server(
        tmp_path / "log.db", ManualTime(), settings={"admin_token": admin}
    ) as server:
        with client_from(server, "127.0.0.2") as http:
            assert http.get("/api/admin/quarantine").status_code == 401  # no token
            codes = [
                http.get("/api/admin/quarantine", headers={
                    "Authorization": f"Bearer wrong-{n}",
                }).status_code
                for n in range(100)
            ]
            print(f"\n100 wrong administrator's tokens: {codes.count(401)} x 401, "
                  f"{codes.count(429)} x 429")
            assert 429 in codes and codes.index(429) <= 30
            # The right one is never refused by the limit.
            right = http.get("/api/admin/quarantine", headers={"Authorization": f"Bearer {admin}"})
            assert right.status_code == 200
        with client_from(server, "127.0.0.3") as http:
            # A header is bytes: a token that is not ASCII is a wrong token, not a crash.
            odd = http.get("/api/admin/quarantine", headers=[
                ("Authorization", "Bearer jeton-é-ü-ш".encode())
            ])
            assert odd.status_code == 401


# --------------------------------------------------------------------------- connections


async def test_a_screen_that_reconnects_is_never_refused_for_its_own_dead_connection(
    tmp_path: Path,
) -> None:
    """At the key's limit of connections, a screen's new connection (the same
    ``instance`` in its hello) replaces the one the server still holds for it; a new
    screen is refused, saying why, with "try again later"."""
    with running_server(
        tmp_path / "log.db", ManualTime(), settings={"max_connections_per_token": 2}
    ) as server:
        setup = await asyncio.to_thread(make_playoff, server, 1)
        url = server.base_url.replace("http", "ws") + f"/ws/playoffs/{setup.playoff_id}"
        key = setup.displays[0]

        async def screen(instance: str | None) -> tuple[Any, dict[str, Any]]:
            ws = await connect(url, max_size=None, proxy=None)
            hello: dict[str, Any] = {"token": key}
            if instance is not None:
                hello["instance"] = instance
            await ws.send(json.dumps({"t": "hello", "d": hello}))
            return ws, json.loads(await asyncio.wait_for(ws.recv(), 5))

        left, first = await screen("left-screen")
        right, second = await screen("right-screen")
        assert first["t"] == second["t"] == "welcome"
        # The left screen's network dropped; the server has not noticed. It reconnects.
        again, welcome = await screen("left-screen")
        assert welcome["t"] == "welcome"
        with pytest.raises(ConnectionClosed) as replaced:
            while True:
                await asyncio.wait_for(left.recv(), 5)
        assert replaced.value.rcvd is not None and replaced.value.rcvd.code == 4000
        # A third screen on the same key: refused, and told why.
        third, refusal = await screen("third-screen")
        assert refusal["t"] == "error" and refusal["d"]["code"] == "rate-limited"
        assert "already has 2 connections open" in refusal["d"]["reason"]
        with pytest.raises(ConnectionClosed) as closed:
            await asyncio.wait_for(third.recv(), 5)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1013
        for ws in (right, again):
            await ws.close()
