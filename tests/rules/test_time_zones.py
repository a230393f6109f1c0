"""Every time of day in the event's own time zone, right on both sides of a change of
daylight-saving time, with every interval and break its true length.

Europe/London leaves summer time on the last Sunday of October: on 2026-10-25 at
01:00 UTC the clocks go back from 02:00 BST to 01:00 GMT, so the hour 01:00-02:00
is lived twice. The main event's last game ends at 00:20 BST (23:20 UTC the day
before): the 30-minute break (GCT 2015 reg. 5) ends at 00:50 BST, when game 1
(G/25+5, 60 minutes) starts; it ends at 01:50 BST; 10 minutes later, at 01:00 GMT,
game 2 starts: 70 minutes after game 1 by the clock on the wall of a hall that
showed 00:50 then 01:00.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from pydantic import ValidationError

from playoff_formats.builders.gct import gct2015_playoff
from playoff_formats.errors import InputError
from playoff_formats.io.json_event import parse_event
from playoff_formats.regulations import regulation_time_zone
from playoff_formats.regulations.custom import regulation_from_text
from playoff_formats.schedule import BreakKind, Constraints, Plan, plan_playoff
from playoff_formats.schedule.rest import rest_breaches
from playoff_formats.schedule.words import instant
from playoff_formats.zones import zone_named, zone_of

LONDON = ZoneInfo("Europe/London")
MIN = timedelta(minutes=1)
NAMES = {"p1": "Abdusattorov, Nodirbek", "p2": "Sindarov, Javokhir"}


def utc(day: int, hour: int, minute: int, *, month: int = 10) -> datetime:
    return datetime(2026, month, day, hour, minute, tzinfo=UTC)


def across_the_change(
    time_zone: str | None = None, utc_offset: timedelta = timedelta(0)
) -> Plan:
    """Abdusattorov ended at 23:50 BST, Sindarov at 00:20 BST (23:20 UTC)."""
    constraints = Constraints(
        main_event_ended={"p1": utc(24, 22, 50), "p2": utc(24, 23, 20)}, names=NAMES,
        time_zone=time_zone, utc_offset=utc_offset,
    )
    return plan_playoff(gct2015_playoff(["p1", "p2"]), constraints)


def test_a_plan_across_the_end_of_summer_time_keeps_true_lengths_and_says_each_time_right(
) -> None:
    plan = across_the_change(time_zone="Europe/London")
    g1, g2, armageddon = plan.games
    # Computed in UTC: every length is its true one.
    assert [(g.start, g.end) for g in plan.games] == [
        (utc(24, 23, 50), utc(25, 0, 50)),
        (utc(25, 1, 0), utc(25, 2, 0)),
        (utc(25, 2, 10), utc(25, 2, 21)),
    ]
    assert (g1.duration, g2.duration, armageddon.duration) == (60 * MIN, 60 * MIN, 11 * MIN)
    assert g2.start - g1.start == 70 * MIN
    intervals = [b for b in plan.breaks if b.kind is BreakKind.INTERVAL]
    assert [b.end - b.start for b in intervals] == [10 * MIN, 10 * MIN]
    main = plan.breaks[0]
    assert (main.kind, main.end - main.start) == (BreakKind.MAIN_EVENT, 30 * MIN)

    # Said in the hall's zone, each instant at the offset in force then: the wall clock
    # reads 00:50 at game 1 and 01:00 at game 2 (a fixed +01:00 would say 02:00).
    said = [(instant(g.start, plan.zone), instant(g.end, plan.zone)) for g in plan.games]
    assert said == [("00:50", "01:50"), ("01:00", "02:00"), ("02:10", "02:21")]
    assert "ended at 00:20" in g1.reason  # the main event's end, in summer time

    # The API's form: the zone named, every instant with its own offset.
    written = plan.as_json()
    assert written["time_zone"] == "Europe/London"
    assert [(g["start"], g["end"]) for g in written["games"]] == [
        ("2026-10-25T00:50:00+01:00", "2026-10-25T01:50:00+01:00"),
        ("2026-10-25T01:00:00+00:00", "2026-10-25T02:00:00+00:00"),
        ("2026-10-25T02:10:00+00:00", "2026-10-25T02:21:00+00:00"),
    ]
    # The interval that spans the change reads 01:50 to 01:00 on the wall: ten minutes.
    crossing = written["breaks"][1]
    assert (crossing["start"], crossing["end"]) == (
        "2026-10-25T01:50:00+01:00", "2026-10-25T01:00:00+00:00"
    )
    for entry in (*written["games"], *written["breaks"]):
        start = datetime.fromisoformat(entry["start"])
        end = datetime.fromisoformat(entry["end"])
        assert start.utcoffset() == start.astimezone(LONDON).utcoffset()
        assert end - start in (10 * MIN, 11 * MIN, 30 * MIN, 60 * MIN)
    assert (written["start"], written["finish"]) == (
        "2026-10-25T00:50:00+01:00", "2026-10-25T02:21:00+00:00"
    )
    # JSON all through (the answer is sent as it is).
    assert json.loads(json.dumps(written)) == written


def test_a_rest_that_ends_after_the_change_is_said_in_winter_time() -> None:
    """Game 1 ended at 01:50 BST; a start 6 minutes later keeps the 5-minute minimum
    but not the 10-minute preferred interval, which ends at 01:00 GMT."""
    constraints = Constraints(time_zone="Europe/London", names=NAMES)
    ended = {"p1": utc(25, 0, 50), "p2": utc(25, 0, 50)}
    too_soon = rest_breaches(("p1", "p2"), utc(25, 0, 52), constraints, ended, "reg. 5")
    assert [b.text for b in too_soon] == [
        "not less than 5 minutes between a player's games (reg. 5): not before 01:55, the "
        "previous game having ended at 01:50"
    ]
    soon = rest_breaches(("p1", "p2"), utc(25, 0, 56), constraints, ended, "reg. 5")
    assert [b.text for b in soon] == [
        "if possible at least 10 minutes between a player's games (reg. 5): not before "
        "01:00, the previous game having ended at 01:50"
    ]


def test_a_game_across_the_start_of_summer_time_is_its_true_length() -> None:
    """On 2026-03-29 the clocks go forward at 01:00 GMT to 02:00 BST: a 60-minute game
    begun at 00:30 ends at 02:30."""
    constraints = Constraints(
        main_event_ended={"p1": utc(29, 0, 0, month=3), "p2": utc(29, 0, 0, month=3)},
        time_zone="Europe/London",
    )
    plan = plan_playoff(gct2015_playoff(["p1", "p2"]), constraints)
    g1 = plan.games[0]
    assert (g1.start, g1.end) == (utc(29, 0, 30, month=3), utc(29, 1, 30, month=3))
    assert (instant(g1.start, plan.zone), instant(g1.end, plan.zone)) == ("00:30", "02:30")
    first = plan.as_json()["games"][0]
    assert (first["start"], first["end"]) == (
        "2026-03-29T00:30:00+00:00", "2026-03-29T02:30:00+01:00"
    )


def test_a_zone_without_daylight_saving_time_keeps_one_offset() -> None:
    """Tashkent keeps +05:00 all year: the same plan said there."""
    plan = across_the_change(time_zone="Asia/Tashkent")
    assert [instant(g.start, plan.zone) for g in plan.games] == ["04:50", "06:00", "07:10"]
    assert plan.as_json()["games"][1]["start"] == "2026-10-25T06:00:00+05:00"


def test_a_play_off_that_names_no_zone_keeps_its_fixed_offset_as_before() -> None:
    """A log written before zones: its fixed offset says every time (wrong on one side of
    a change, as it always was), and the API answers in UTC as it did."""
    plan = across_the_change(utc_offset=timedelta(hours=1))
    assert [instant(g.start, plan.zone) for g in plan.games] == ["00:50", "02:00", "03:10"]
    written = plan.as_json()
    assert written["time_zone"] is None
    assert written["games"][1]["start"] == "2026-10-25T01:00:00Z"
    assert zone_of(None, timedelta(hours=5)).utcoffset(None) == timedelta(hours=5)


# --------------------------------------------------------------------------- names


@pytest.mark.parametrize("name", [
    "Europe/Londn", "Europe", "europe/london ", "", "../etc/passwd", "posixrules", "zone.tab",
    "Europe/London\x00", "UZT-5", "x" * 300,
])
def test_what_is_not_a_zone_is_refused_in_words(name: str) -> None:
    with pytest.raises(ValueError, match=r"as Area/City, e.g. Europe/London") as refused:
        zone_named(name)
    said = str(refused.value)
    if name.strip():
        assert said.startswith(f"{name[:20]}")
        assert len(said) < 160  # a long name is clipped
    else:
        assert said.startswith("is empty")


def test_an_event_naming_an_unknown_zone_is_refused_at_its_field() -> None:
    event = {
        "name": "Club Open", "players": [{"id": "1", "name": "A"}, {"id": "2", "name": "B"}],
        "time_zone": "Europe/Londn",
    }
    with pytest.raises(InputError) as refused:
        parse_event(json.dumps(event), "body")
    assert refused.value.path == "time_zone"
    assert refused.value.reason == (
        "Europe/Londn is not a time zone: write it as Area/City, e.g. Europe/London"
    )
    event["time_zone"] = "Asia/Tashkent"
    assert parse_event(json.dumps(event), "body").time_zone == "Asia/Tashkent"
    with pytest.raises(ValidationError, match="Mars/Olympus is not a time zone"):
        Constraints(time_zone="Mars/Olympus")


def test_a_regulation_may_name_the_zone_of_its_events() -> None:
    text = 'name = "tashkent-open"\ncriteria = ["DE", "BH"]\ntime_zone = "{zone}"\n'
    named = regulation_from_text(text.format(zone="Asia/Tashkent"), "open.toml")
    assert regulation_time_zone(named) == "Asia/Tashkent"
    unnamed = regulation_from_text('name = "club"\ncriteria = ["DE"]\n', "club.toml")
    assert regulation_time_zone(unnamed) is None
    with pytest.raises(InputError) as refused:
        regulation_from_text(text.format(zone="Asia/Taskent"), "open.toml")
    assert str(refused.value) == (
        "open.toml, time_zone: Asia/Taskent is not a time zone: write it as Area/City, "
        "e.g. Europe/London"
    )
