"""Which time zone a play-off keeps: the chief arbiter's, else its event's, else its
regulation's, else the service's fixed offset; and what a log written before zones, or
naming a zone this machine cannot read, folds to."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from orchestrator.core.creation import PlayoffOptions, chosen_zone
from orchestrator.core.events import PlayoffCreated
from orchestrator.core.events.base import Stamp
from orchestrator.core.service import Service
from orchestrator.core.timesource import ManualTime
from orchestrator.store import AsyncEventStore, SqliteEventStore
from playoff_formats.io.json_event import parse_event
from playoff_formats.schedule.words import instant
from tests.support.events import uzchess_json

NOW = datetime(2026, 10, 24, 21, 45, tzinfo=UTC)  # 22:45 BST, 02:45 in Tashkent
HALL_OFFSET = timedelta(hours=3)
"""The service's own fixed offset, for a play-off whose event names no zone."""


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[Service]:
    store = AsyncEventStore(SqliteEventStore(tmp_path / "log.db"))
    try:
        yield Service(store, ManualTime(wall=NOW), utc_offset=HALL_OFFSET)
    finally:
        await store.aclose()


async def created(
    service: Service, event_zone: str | None, chief_zone: str | None
) -> PlayoffCreated:
    data = json.loads(uzchess_json(NOW - timedelta(hours=1)))
    if event_zone is not None:
        data["time_zone"] = event_zone
    event, _ = await service.create_event(parse_event(json.dumps(data)))
    state = await service.create_playoff(event.id, PlayoffOptions(time_zone=chief_zone), "chief")
    [first] = await service.store.read(f"playoff-{state.id}", limit=1)
    logged = PlayoffCreated.model_validate(first.data)
    assert (state.time_zone, state.utc_offset) == (logged.time_zone, logged.utc_offset)
    return logged


async def test_the_event_names_the_zone_and_its_offset_when_created_is_logged_with_it(
    service: Service,
) -> None:
    logged = await created(service, "Europe/London", None)
    assert (logged.time_zone, logged.utc_offset) == ("Europe/London", timedelta(hours=1))


async def test_the_chief_arbiters_zone_comes_before_the_events(service: Service) -> None:
    logged = await created(service, "Europe/London", "Asia/Tashkent")
    assert (logged.time_zone, logged.utc_offset) == ("Asia/Tashkent", timedelta(hours=5))


async def test_with_no_zone_named_the_services_fixed_offset_as_before(service: Service) -> None:
    logged = await created(service, None, None)
    assert (logged.time_zone, logged.utc_offset) == (None, HALL_OFFSET)
    state = logged.create(Stamp(1, NOW))
    assert instant(NOW, state.zone) == "00:45"


def test_the_regulations_zone_comes_after_the_events_and_the_chief_arbiters() -> None:
    fallback = timedelta(hours=3)
    assert chosen_zone(None, None, "Asia/Tashkent", fallback=fallback, now=NOW) == (
        "Asia/Tashkent", timedelta(hours=5)
    )
    assert chosen_zone(None, "Europe/London", "Asia/Tashkent", fallback=fallback, now=NOW)[0] == (
        "Europe/London"
    )
    assert chosen_zone(None, None, None, fallback=fallback, now=NOW) == (None, fallback)


async def test_a_log_written_before_zones_folds_to_its_fixed_offset(service: Service) -> None:
    logged = await created(service, "Europe/London", None)
    older = logged.model_dump(mode="json", exclude={"time_zone"})
    older["utc_offset"] = "PT2H"
    state = PlayoffCreated.model_validate(older).create(Stamp(1, NOW))
    assert state.time_zone is None
    # The one offset it logged, summer or winter: 21:45 UTC is 23:45 before the clocks
    # go back and after.
    assert [instant(NOW + d, state.zone) for d in (timedelta(0), timedelta(days=1))] == [
        "23:45", "23:45"
    ]


async def test_a_zone_this_machine_cannot_read_folds_to_the_offset_logged_with_it(
    service: Service,
) -> None:
    logged = await created(service, "Europe/London", None)
    unknown = {**logged.model_dump(mode="json"), "time_zone": "Atlantis/Capital"}
    state = PlayoffCreated.model_validate(unknown).create(Stamp(1, NOW))
    assert state.time_zone == "Atlantis/Capital"
    assert instant(NOW, state.zone) == "22:45"  # +01:00, logged when it was created
