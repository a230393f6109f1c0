"""Uploads of damaged event files: refused cleanly or accepted, and the log still loads.

The test files (JSON events and TRFs) with bytes flipped, cut short, or both, a
few hundred cases from a fixed seed, are sent to the real server: each answer is
201 or 4xx, never 5xx; every event accepted has standings (or a 409 saying why
not). Then a second server starts on the same SQLite log and has every event.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import httpx

from orchestrator.core.timesource import ManualTime
from tests.support import DATA
from tests.support.server import running_server

FILES = {
    DATA / "uzchess-cup-masters-2025.json": "application/json",
    DATA / "county-example-iii.json": "application/json",
    DATA / "io" / "every-code-trf16.trf": "text/plain",
    DATA / "io" / "sample-trf26.trf": "text/plain",
}
CASES_PER_FILE = 80
SEED = 1_750_000


NUMBER = re.compile(rb"-?[0-9]+(?:\.[0-9]+)?")
ODD_NUMBERS = (b"NaN", b"Infinity", b"-Infinity", b"1e999", b"9" * 5000, b"-0", b"0.5")


def damaged(original: bytes, rng: random.Random) -> bytes:
    """``original`` with a few bits flipped, cut short, or both; or with a number
    written as something Python reads and JSON has not, or far too long to read."""
    data = bytearray(original)
    how = rng.choice(("flip", "flip", "cut", "both", "number"))
    if how == "number":
        numbers = list(NUMBER.finditer(original))
        if numbers:
            number = rng.choice(numbers)
            odd = rng.choice(ODD_NUMBERS)
            return original[: number.start()] + odd + original[number.end() :]
        how = "flip"
    if how in ("flip", "both"):
        for _ in range(rng.choice((1, 1, 2, 3, 8))):
            at = rng.randrange(len(data))
            data[at] ^= 1 << rng.randrange(8)
    if how in ("cut", "both"):
        del data[rng.randrange(len(data)) :]
    return bytes(data)


def cases() -> list[tuple[bytes, str]]:
    rng = random.Random(SEED)
    made: list[tuple[bytes, str]] = []
    for path, kind in FILES.items():
        original = path.read_bytes()
        made.extend((damaged(original, rng), kind) for _ in range(CASES_PER_FILE))
    return made


def test_damaged_uploads_are_accepted_or_refused_and_the_log_loads_again(
    tmp_path: Path,
) -> None:
    db = tmp_path / "log.db"
    accepted: dict[str, str] = {}
    answers: dict[int, int] = {}
    with running_server(db, ManualTime()) as server, server.client() as anonymous:
        for body, kind in cases():
            response = anonymous.post(
                "/api/events", content=body, headers={"Content-Type": kind}
            )
            answers[response.status_code] = answers.get(response.status_code, 0) + 1
            assert response.status_code == 201 or 400 <= response.status_code < 500, (
                response.status_code, response.text[:300], body[:200],
            )
            if response.status_code == 201:
                accepted[response.json()["id"]] = response.json()["chief_token"]
            else:
                assert isinstance(response.json()["detail"], list | str)
        for event_id, token in accepted.items():
            with server.client(token) as chief:
                standings = chief.get(f"/api/events/{event_id}/standings")
            assert standings.status_code in (200, 409), standings.text[:300]
    # Both kinds of answer were exercised: the damage is neither always fatal nor harmless.
    assert answers.get(201, 0) > 10 and answers.get(422, 0) > 100, answers

    with running_server(db, ManualTime()) as again:
        assert not getattr(again.service, "quarantined", {})
        for event_id, token in accepted.items():
            with httpx.Client(
                base_url=again.base_url, trust_env=False, timeout=10,
                headers={"Authorization": f"Bearer {token}"},
            ) as chief:
                assert chief.get(f"/api/events/{event_id}").status_code == 200, event_id
