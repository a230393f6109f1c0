"""A FIDE World Cup 2015 mini-match that ended level, for the tie-break ladder tests."""

from __future__ import annotations

import json
from typing import Any

import httpx

from tests.support.server import RunningServer

ANAND, GIRI = "5000017", "24116068"

WORLD_CUP_ROUND = {
    "name": "FIDE World Cup 2015, round 4",
    "kind": "individual",
    "regulation": "fide-world-cup-2015",
    "players": [
        {"id": ANAND, "name": "Anand, Viswanathan", "rating": 2803},
        {"id": GIRI, "name": "Giri, Anish", "rating": 2798},
    ],
    "games": [
        {"round": 1, "white": ANAND, "black": GIRI, "result": "1/2-1/2",
         "ended_at": "2015-09-21T14:10:00Z"},
        {"round": 2, "white": GIRI, "black": ANAND, "result": "1/2-1/2",
         "ended_at": "2015-09-22T14:25:00Z"},
    ],
}
"""Two classical games drawn: 1-1, so the tie-break games decide who goes through."""

LADDER = [
    ("Rapid 25+10", "G/25+10", (1, 2)),
    ("Rapid 10+10", "G/10+10", (3, 4)),
    ("Blitz 5+3", "G/5+3", (5, 6)),
]
"""The stages of the ladder: name, time control, games."""


def world_cup_json() -> str:
    return json.dumps(WORLD_CUP_ROUND)


JSON = {"Content-Type": "application/json"}


def ok(response: httpx.Response) -> dict[str, Any]:
    assert response.status_code in (200, 201), response.text
    body: dict[str, Any] = response.json()
    return body


def create(server: RunningServer, event: str, **options: Any) -> tuple[str, str, str, str]:
    """The event, its play-off, an arbiter token and a display key."""
    with server.client() as anonymous:
        created = ok(anonymous.post("/api/events", content=event.encode(), headers=JSON))
    event_id, chief = created["id"], created["chief_token"]
    with server.client(chief) as http:
        playoff_id = ok(http.post(f"/api/events/{event_id}/playoff", json=options))["id"]
        arbiter = ok(http.post(
            f"/api/events/{event_id}/tokens", json={"role": "arbiter", "label": "deputy"}
        ))["token"]
        display = ok(http.post(
            f"/api/events/{event_id}/tokens", json={"role": "display", "label": "hall"}
        ))["token"]
    return playoff_id, chief, arbiter, display

