"""GCT 2015 reg. 5: "the chief arbiter may shorten the time limits" of the play-off.

Only the chief arbiter, only to a control that gives each side time, and never
irrevocably: the chief arbiter may restore the regulation's time control of a match
not yet begun.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from orchestrator.core.timesource import ManualTime
from tests.support.events import uzchess_json
from tests.support.server import running_server


@dataclass
class Sides:
    chief: httpx.Client
    arbiter: httpx.Client
    url: str


@pytest.fixture
def sides(tmp_path: Path) -> Iterator[Sides]:
    with running_server(tmp_path / "log.db", ManualTime()) as server, server.client() as anon:
        created = anon.post(
            "/api/events", content=uzchess_json(), headers={"Content-Type": "application/json"}
        ).json()
        with server.client(created["chief_token"]) as chief:
            playoff = chief.post(f"/api/events/{created['id']}/playoff").json()["id"]
            token = chief.post(
                f"/api/events/{created['id']}/tokens", json={"role": "arbiter"}
            ).json()["token"]
            with server.client(token) as arbiter:
                yield Sides(chief, arbiter, f"/api/playoffs/{playoff}")


def controls(sides: Sides) -> list[str]:
    return [m["time_control"] for m in sides.chief.get(sides.url).json()["matches"]]


def test_reg_5_a_control_must_give_each_side_time(sides: Sides) -> None:
    refused = sides.chief.post(f"{sides.url}/time-control",
                               json={"time_control": "G/0", "reason": "hurry"})
    assert refused.status_code == 422
    error = refused.json()["detail"][0]
    assert error["loc"] == ["body", "time_control"]
    assert "gives a side no time" in error["msg"]
    assert controls(sides) == ["G/25+5", "G/25+5"]


def test_reg_5_only_the_chief_arbiter_shortens_the_time_limits(sides: Sides) -> None:
    by_arbiter = sides.arbiter.post(f"{sides.url}/time-control",
                                    json={"time_control": "G/15+5", "reason": "running late"})
    assert by_arbiter.status_code == 403  # not the arbiter's to do: nothing changed
    assert "only the chief arbiter may shorten the time limits" in by_arbiter.json()["detail"]
    by_chief = sides.chief.post(f"{sides.url}/time-control",
                                json={"time_control": "G/15+5", "reason": "running late"})
    assert by_chief.status_code == 201, by_chief.text
    assert controls(sides) == ["G/15+5", "G/15+5"]


def test_a_shortening_is_undone_by_the_chief_arbiter(sides: Sides) -> None:
    nothing = sides.chief.post(f"{sides.url}/time-control/restore", json={"reason": "undo"})
    assert nothing.status_code == 409
    assert "nothing to restore" in nothing.json()["detail"]
    sides.chief.post(f"{sides.url}/time-control",
                     json={"time_control": "G/5+3", "reason": "a slip of the finger"})
    assert controls(sides) == ["G/5+3", "G/5+3"]
    by_arbiter = sides.arbiter.post(f"{sides.url}/time-control/restore",
                                    json={"reason": "undo the slip"})
    assert by_arbiter.status_code == 403
    restored = sides.chief.post(f"{sides.url}/time-control/restore",
                                json={"match": 2, "reason": "undo the slip"})
    assert restored.status_code == 201, restored.text
    assert controls(sides) == ["G/5+3", "G/25+5"]
    sides.chief.post(f"{sides.url}/time-control/restore", json={"reason": "undo the rest"})
    assert controls(sides) == ["G/25+5", "G/25+5"]
    changes = sides.chief.get(sides.url).json()["changes"]
    assert [c["type"] for c in changes][-2:] == ["time-control-restored"] * 2
    assert changes[-1]["text"] == "the regulation's time control restored (every match not begun)"
