"""Idempotency keys (the IETF Idempotency-Key draft), and failed tokens counted.

The same request sent again with its key is answered as the first time and applied
once; the key sent with another request (another body, another endpoint) is refused
with 422, never answered with the first request's events as though it were done.
"""

from __future__ import annotations

import secrets
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from orchestrator.core.timesource import ManualTime
from tests.support.events import ABDU, uzchess_json
from tests.support.server import RunningServer, running_server

JSON = {"Content-Type": "application/json"}


@pytest.fixture
def server(tmp_path: Path) -> Iterator[RunningServer]:
    with running_server(tmp_path / "log.db", ManualTime()) as running:
        yield running


def keyed(key: str) -> dict[str, str]:
    return {**JSON, "Idempotency-Key": key}


def test_an_upload_sent_again_with_its_key_gets_the_same_event_and_token(
    server: RunningServer,
) -> None:
    first_key, second_key = secrets.token_urlsafe(16), str(uuid.uuid4())
    with server.client() as anyone:
        first = anyone.post("/api/events", content=uzchess_json(), headers=keyed(first_key))
        again = anyone.post("/api/events", content=uzchess_json(), headers=keyed(first_key))
        assert first.status_code == again.status_code == 201
        assert first.json() == again.json()  # the same id, and the same chief token
        other = anyone.post("/api/events", content=uzchess_json(None), headers=keyed(first_key))
        assert other.status_code == 422
        assert "Idempotency-Key was used for another request" in other.text
        fresh = anyone.post("/api/events", content=uzchess_json(), headers=keyed(second_key))
        assert fresh.status_code == 201, fresh.text
        assert fresh.json()["id"] != first.json()["id"]
    with server.client(first.json()["chief_token"]) as chief:
        assert chief.get(f"/api/events/{first.json()['id']}").status_code == 200


@pytest.mark.parametrize("key", [
    "uzchess-2025",  # guessable: the event's own name
    "upload-1",
    "0123456789abcdef0123456789abcde",  # 124 bits of hex
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",  # long, but no random value
    "x" * 200,
])
def test_an_upload_key_anyone_could_guess_is_refused_and_nothing_is_stored(
    server: RunningServer, key: str
) -> None:
    """An upload sent again with its key is answered with the chief arbiter's token:
    a key a stranger can guess would hand the event over (at least 128 bits)."""
    with server.client() as anyone:
        refused = anyone.post("/api/events", content=uzchess_json(), headers=keyed(key))
        assert refused.status_code == 422
        (problem,) = refused.json()["detail"]
        assert problem["loc"] == ["body", "Idempotency-Key"]
        assert "at least 128 bits" in problem["msg"]
        assert "chief arbiter's token" in problem["msg"]
        assert "chief_token" not in refused.text
        again = anyone.post("/api/events", content=uzchess_json(), headers=keyed(key))
        assert again.status_code == 422  # nothing was stored under it
    assert not server.service.playoffs() and not server.service._events  # nothing stored


def test_commands_tokens_and_play_offs_sent_again_are_applied_once(
    server: RunningServer,
) -> None:
    with server.client() as anyone:
        created = anyone.post("/api/events", content=uzchess_json(), headers=JSON).json()
    with server.client(created["chief_token"]) as chief:
        events = f"/api/events/{created['id']}"
        made = [chief.post(f"{events}/playoff", json={}, headers={"Idempotency-Key": "po"})
                for _ in range(2)]
        assert [m.status_code for m in made] == [201, 201]
        assert made[0].json()["id"] == made[1].json()["id"]
        assert len(chief.get(events).json()["playoffs"]) == 1
        tokens = [chief.post(f"{events}/tokens", json={"role": "arbiter", "label": "deputy"},
                             headers={"Idempotency-Key": "deputy"}) for _ in range(2)]
        assert tokens[0].json() == tokens[1].json()
        url = f"/api/playoffs/{made[0].json()['id']}"
        lots = {"method": "physical", "white": ABDU}
        first = chief.post(f"{url}/matches/1/lots", json=lots, headers={"Idempotency-Key": "k"})
        again = chief.post(f"{url}/matches/1/lots", json=lots, headers={"Idempotency-Key": "k"})
        assert first.status_code == again.status_code == 201
        assert first.json() == again.json()
        seq = chief.get(url).json()["seq"]
        # The key with another body, or on another endpoint: refused, nothing applied.
        changed = chief.post(f"{url}/matches/1/lots", json={**lots, "white": "14205483"},
                             headers={"Idempotency-Key": "k"})
        assert changed.status_code == 422
        elsewhere = chief.post(f"{url}/commands", json={"type": "lots", "match": 1, **lots},
                               headers={"Idempotency-Key": "k"})
        assert elsewhere.status_code == 422
        assert chief.get(url).json()["seq"] == seq
        # Keys are the token's own: another token's same key is another request.
        with server.client(tokens[0].json()["token"]) as deputy:
            own = deputy.post(f"{url}/commands", json={
                "type": "start-clock", "match": 1, "game": 1,
            }, headers={"Idempotency-Key": "k"})
            assert own.status_code == 201, own.text


def test_failed_tokens_from_one_address_are_refused_for_a_while(
    server: RunningServer,
) -> None:
    with server.client() as anyone:
        created = anyone.post("/api/events", content=uzchess_json(), headers=JSON).json()
    codes = []
    for n in range(32):
        with server.client(f"guess-{n}") as guesser:
            codes.append(guesser.get(f"/api/events/{created['id']}").status_code)
    assert codes[:30] == [401] * 30
    assert codes[30:] == [429, 429]
    with server.client(created["chief_token"]) as chief:
        # The right token is never refused by the limit: it slows guessing only.
        assert chief.get(f"/api/events/{created['id']}").status_code == 200
    with server.client("guess-again") as guesser:
        assert guesser.get(f"/api/events/{created['id']}").status_code == 429

