"""A play-off played in London across the end of summer time, through the real service
on a real port (its clock set to the evening of 2026-10-24), and the time zones the
service is given: named by the event, by the chief arbiter for a TRF, or refused.

On 2026-10-25 at 01:00 UTC the clocks go back from 02:00 BST to 01:00 GMT. The
UzChess Cup's last main-event game ends at 23:40 BST; the 30-minute break (GCT 2015
reg. 5) ends at 00:10 BST, when game 1 of Abdusattorov v Sindarov starts (G/25+5, 60
minutes); game 2 starts 10 minutes after it ends, at 01:20 BST, and its 60 minutes end
at 01:20 GMT; the Armageddon follows 10 minutes later, at 01:30 GMT.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import httpx
import pytest

from orchestrator.core.timesource import ManualTime
from tests import support
from tests.support.events import ABDU, SINDAROV, uzchess_json
from tests.support.server import RunningServer, running_server

LONDON = ZoneInfo("Europe/London")
MIN = timedelta(minutes=1)
JSON = {"Content-Type": "application/json"}
TRF = support.DATA / "io" / "sample-trf26.trf"
MAIN_EVENT_OVER = datetime(2026, 10, 24, 22, 40, tzinfo=UTC)  # 23:40 BST


def utc(hour: int, minute: int, day: int = 25) -> datetime:
    return datetime(2026, 10, day, hour, minute, tzinfo=UTC)


def in_london(zone: str | None = "Europe/London") -> str:
    data = json.loads(uzchess_json(MAIN_EVENT_OVER))
    if zone is not None:
        data["time_zone"] = zone
    return json.dumps(data)


def ok(response: httpx.Response) -> dict[str, Any]:
    assert response.status_code in (200, 201), response.text
    body: dict[str, Any] = response.json()
    return body


@pytest.fixture
def clock() -> ManualTime:
    return ManualTime(wall=utc(22, 45, day=24), mono=5_000_000)  # 23:45 BST


@pytest.fixture
def server(tmp_path: Path, clock: ManualTime) -> Iterator[RunningServer]:
    with running_server(tmp_path / "log.db", clock) as running:
        yield running


def log_sizes(server: RunningServer) -> dict[str, int]:
    store = server.service.store

    async def sizes() -> dict[str, int]:
        return {s: len(await store.read(s)) for s in await store.streams("")}

    return server.call(sizes)


def instants(schedule: dict[str, Any]) -> list[str]:
    """Every planned instant of a schedule answer, as written."""
    found = [schedule[k] for k in ("start", "finish", "earliest_start", "break_over")]
    for entry in (*schedule["games"], *schedule["breaks"]):
        found += [entry["start"], entry["end"]]
    return [text for text in found if text is not None]


def true_length(entry: dict[str, Any]) -> timedelta:
    return datetime.fromisoformat(entry["end"]) - datetime.fromisoformat(entry["start"])


def wall_clock_length(entry: dict[str, Any]) -> timedelta:
    """What the hall's wall clock says passed: the local times, their offsets dropped."""
    start, end = (datetime.fromisoformat(entry[k]).replace(tzinfo=None) for k in ("start", "end"))
    return end - start


def check_schedule(schedule: dict[str, Any]) -> None:
    """Every planned time at London's offset in force at it, each break its true length."""
    assert schedule["time_zone"] == "Europe/London"
    for text in instants(schedule):
        moment = datetime.fromisoformat(text)
        assert moment.utcoffset() == moment.astimezone(LONDON).utcoffset(), text
    for entry in schedule["breaks"]:
        assert true_length(entry) == timedelta(minutes=30 if entry["kind"] == "main-event" else 10)


def test_a_play_off_across_the_end_of_summer_time(
    server: RunningServer, clock: ManualTime
) -> None:
    made = ok(server.client().post("/api/events", content=in_london(), headers=JSON))
    chief = server.client(made["chief_token"])
    assert ok(chief.get(f"/api/events/{made['id']}"))["time_zone"] == "Europe/London"
    created = ok(chief.post(f"/api/events/{made['id']}/playoff", json={}))
    assert created["time_zone"] == "Europe/London"
    url = f"/api/playoffs/{created['id']}"
    schedule = created["schedule"]
    check_schedule(schedule)
    match_1 = [(g["start"], g["end"]) for g in schedule["games"] if g["match"] == 1]
    assert match_1 == [
        ("2026-10-25T00:10:00+01:00", "2026-10-25T01:10:00+01:00"),
        ("2026-10-25T01:20:00+01:00", "2026-10-25T01:20:00+00:00"),
        ("2026-10-25T01:30:00+00:00", "2026-10-25T01:41:00+00:00"),
    ]
    # Game 2 starts and ends at 01:20 on the wall, and lasts its 60 minutes.
    game_2 = schedule["games"][1]
    assert (true_length(game_2), wall_clock_length(game_2)) == (60 * MIN, timedelta(0))
    offsets = {datetime.fromisoformat(t).utcoffset() for t in instants(schedule)}
    assert offsets == {timedelta(hours=1), timedelta(0)}

    hall = ok(chief.get(f"{url}/view", params={"kind": "hall"}))
    assert (hall["time_zone"], hall["utc_offset_minutes"]) == ("Europe/London", 60)
    assert (hall["countdown"]["at"], hall["next"]["when"]) == ("00:10", "00:10")

    # Game 1 at its planned start, 00:10 BST, won by White after its 60 minutes.
    ok(chief.post(f"{url}/matches/1/lots", json={"method": "physical", "white": ABDU}))
    clock.advance(utc(23, 10, day=24) - clock.now())
    ok(chief.post(f"{url}/matches/1/games/1/start"))
    clock.advance(60 * MIN)
    ok(chief.post(f"{url}/matches/1/games/1/result", json={"result": "1-0"}))
    hall = ok(chief.get(f"{url}/view", params={"kind": "hall"}))
    assert hall["utc_offset_minutes"] == 60  # 01:10 BST
    assert (hall["countdown"]["at"], hall["countdown"]["label"]) == (
        "01:20", "Seeds 2 v 3 · Game 2"
    )
    check_schedule(ok(chief.get(url))["schedule"])

    # Game 2 at 01:20 BST; it ends 60 minutes later, at 01:20 GMT: the clocks went back.
    clock.advance(10 * MIN)
    ok(chief.post(f"{url}/matches/1/games/2/start"))
    clock.advance(60 * MIN)
    ok(chief.post(f"{url}/matches/1/games/2/result", json={"result": "1-0"}))  # Sindarov
    answer = ok(chief.get(url))
    games = answer["matches"][0]["games"]
    assert [(g["started_at"], g["ended_at"]) for g in games[:2]] == [
        ("2026-10-25T00:10:00+01:00", "2026-10-25T01:10:00+01:00"),
        ("2026-10-25T01:20:00+01:00", "2026-10-25T01:20:00+00:00"),
    ]
    schedule = answer["schedule"]
    check_schedule(schedule)
    played = [g for g in schedule["games"] if g["match"] == 1][:2]
    assert [g["status"] for g in played] == ["played", "played"]
    armageddon = schedule["games"][2]
    assert (armageddon["start"], armageddon["end"]) == (
        "2026-10-25T01:30:00+00:00", "2026-10-25T01:41:00+00:00"
    )
    # The interval before it: 10 minutes, from the real end of game 2.
    before = next(b for b in schedule["breaks"] if b["end"] == armageddon["start"])
    assert (before["start"], true_length(before)) == ("2026-10-25T01:20:00+00:00", 10 * MIN)

    hall = ok(chief.get(f"{url}/view", params={"kind": "hall"}))
    assert (hall["time_zone"], hall["utc_offset_minutes"]) == ("Europe/London", 0)  # GMT now
    assert hall["countdown"]["at"] == "01:30"  # a fixed +01:00 would say 02:30
    arbiter = ok(chief.get(f"{url}/view", params={"kind": "arbiter"}))
    assert (arbiter["time_zone"], arbiter["utc_offset_minutes"]) == ("Europe/London", 0)
    console = [(g["start"], g["end"]) for g in arbiter["schedule"]["games"]][:3]
    assert console == [
        ("2026-10-25T00:10:00+01:00", "2026-10-25T01:10:00+01:00"),
        ("2026-10-25T01:20:00+01:00", "2026-10-25T01:20:00+00:00"),
        ("2026-10-25T01:30:00+00:00", "2026-10-25T01:41:00+00:00"),
    ]
    assert {SINDAROV, ABDU} == set(answer["matches"][0]["players"])
    # Game 1 began at 23:10 UTC on the 24th: in the hall it was the 25th.
    pgn = chief.get(f"{url}/pgn")
    assert pgn.status_code == 200, pgn.text
    assert pgn.text.count('[Date "2026.10.25"]') == 2


def test_the_chief_arbiter_names_the_zone_of_a_trf_or_of_the_play_off(
    server: RunningServer,
) -> None:
    anonymous = server.client()
    trf = ok(anonymous.post(
        "/api/events", params={"time_zone": "Asia/Tashkent"}, content=TRF.read_bytes(),
        headers={"Content-Type": "text/plain"},
    ))
    trf_chief = server.client(trf["chief_token"])
    assert ok(trf_chief.get(f"/api/events/{trf['id']}"))["time_zone"] == "Asia/Tashkent"

    # An event that names none: the chief arbiter's zone for its play-off.
    made = ok(anonymous.post("/api/events", content=in_london(None), headers=JSON))
    chief = server.client(made["chief_token"])
    assert ok(chief.get(f"/api/events/{made['id']}"))["time_zone"] is None
    created = ok(chief.post(
        f"/api/events/{made['id']}/playoff", json={"time_zone": "Asia/Tashkent"}
    ))
    assert created["time_zone"] == created["schedule"]["time_zone"] == "Asia/Tashkent"
    assert created["schedule"]["games"][0]["start"] == "2026-10-25T04:10:00+05:00"
    hall = ok(chief.get(f"/api/playoffs/{created['id']}/view", params={"kind": "hall"}))
    assert (hall["countdown"]["at"], hall["utc_offset_minutes"]) == ("04:10", 300)


def test_a_zone_that_does_not_exist_is_refused_in_words_and_changes_nothing(
    server: RunningServer,
) -> None:
    anonymous = server.client()
    made = ok(anonymous.post("/api/events", content=in_london(None), headers=JSON))
    chief = server.client(made["chief_token"])
    before = log_sizes(server)

    answer = anonymous.post("/api/events", content=in_london("Europe/Londn"), headers=JSON)
    assert answer.status_code == 422, answer.text
    [error] = answer.json()["detail"]
    assert (error["loc"], error["msg"]) == (
        ["body", "time_zone"],
        "Europe/Londn is not a time zone: write it as Area/City, e.g. Europe/London",
    )

    answer = anonymous.post(
        "/api/events", params={"time_zone": "Europe/Londn"}, content=TRF.read_bytes(),
        headers={"Content-Type": "text/plain"},
    )
    assert answer.status_code == 422, answer.text
    [error] = answer.json()["detail"]
    assert error["message"] == (
        "time zone: Europe/Londn is not a time zone: write it as Area/City, e.g. Europe/London"
    )

    answer = anonymous.post(
        "/api/events", params={"time_zone": "Asia/Tashkent"}, content=in_london(), headers=JSON
    )
    assert answer.status_code == 422, answer.text
    assert answer.json()["detail"][0]["msg"] == (
        "the event names its time zone, Europe/London, and the address another, "
        "Asia/Tashkent: give one of them"
    )

    answer = chief.post(f"/api/events/{made['id']}/playoff", json={"time_zone": "Mars/Olympus"})
    assert answer.status_code == 422, answer.text
    assert answer.json()["detail"][0]["message"] == (
        "time zone: Mars/Olympus is not a time zone: write it as Area/City, e.g. Europe/London"
    )
    assert log_sizes(server) == before
    assert ok(chief.get(f"/api/events/{made['id']}"))["playoffs"] == []
