"""Reading events in the JSON interchange format, and choosing a reader by file."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from playoff_formats.errors import InputError
from playoff_formats.io.json_event import (
    event_json_schema,
    load_event,
    parse_event,
    parse_json_event,
)
from playoff_formats.io.trf import parse_trf
from playoff_formats.model import Bye, ByeKind, Game, IndividualEvent, Result
from tests.support import DATA

UZCHESS = DATA / "uzchess-cup-masters-2025.json"
TRF16 = DATA / "io" / "every-code-trf16.trf"

BASE: dict[str, Any] = {
    "name": "Test Masters",
    "kind": "individual",
    "regulation": "gct2015",
    "players": [
        {"id": "1", "name": "Carlsen, Magnus", "rating": 2850},
        {"id": "2", "name": "Caruana, Fabiano", "rating": 2787},
        {"id": "3", "name": "Nakamura, Hikaru", "rating": 2793},
        {"id": "4", "name": "Giri, Anish"},
    ],
    "games": [
        {
            "round": 1,
            "white": "1",
            "black": "2",
            "result": "1/2-1/2",
            "ended_at": "2015-12-13T18:40:00Z",
        },
        {"round": 1, "white": "3", "black": "4", "result": "+/-"},
        {"round": 2, "white": "2", "black": "3", "result": "1-0"},
    ],
    "byes": [
        {"round": 2, "player": "1", "kind": "half"},
        {"round": 2, "player": "4", "kind": "pairing-allocated"},
    ],
}


def document(change: Callable[[dict[str, Any]], object] | None = None) -> str:
    data = copy.deepcopy(BASE)
    if change is not None:
        change(data)
    return json.dumps(data, indent=1)


def refusal(
    text: str, reader: Callable[[str, str], IndividualEvent] = parse_json_event
) -> InputError:
    with pytest.raises(InputError) as caught:
        reader(text, "event.json")
    return caught.value


# --------------------------------------------------------------------------- valid documents


def test_a_valid_document() -> None:
    event = parse_json_event(document(), "event.json")
    assert event.name == "Test Masters"
    assert [p.id for p in event.players] == ["1", "2", "3", "4"]
    assert event.player("4").rating is None
    assert event.games[0] == Game(
        round=1,
        white="1",
        black="2",
        result=Result.DRAW,
        ended_at=datetime(2015, 12, 13, 18, 40, tzinfo=UTC),
    )
    assert event.games[1].result is Result.WHITE_WINS_BY_FORFEIT
    assert event.byes == [
        Bye(round=2, player="1", kind=ByeKind.HALF_POINT),
        Bye(round=2, player="4", kind=ByeKind.PAIRING_ALLOCATED),
    ]


def test_offsets_other_than_utc_are_kept() -> None:
    def change(d: dict[str, Any]) -> None:
        d["games"][0]["ended_at"] = "2015-12-13T18:40:00+05:00"

    ended = parse_json_event(document(change)).games[0].ended_at
    assert ended is not None
    assert ended.utcoffset() == timedelta(hours=5)
    assert ended == datetime(2015, 12, 13, 13, 40, tzinfo=UTC)


def test_kind_and_byes_may_be_left_out() -> None:
    def change(d: dict[str, Any]) -> None:
        del d["kind"], d["byes"]

    event = parse_json_event(document(change))
    assert event.kind == "individual"
    assert event.byes == []


def test_byte_order_mark_is_accepted() -> None:
    assert parse_json_event("\ufeff" + document()) == parse_json_event(document())


def test_uzchess_cup_masters_2025() -> None:
    text = UZCHESS.read_text(encoding="utf-8")
    event = parse_json_event(text, UZCHESS.name)
    assert event.name == "UzChess Cup Masters 2025"
    assert len(event.players) == 10
    assert len(event.games) == 45
    assert parse_event(text) == event
    assert load_event(text, str(UZCHESS)) == event


def test_json_schema_describes_individual_and_team_events() -> None:
    schema = event_json_schema()
    assert schema["title"] == "Event"
    assert schema["discriminator"]["propertyName"] == "kind"
    individual = schema["$defs"]["IndividualEvent"]
    assert {"name", "kind", "regulation", "players", "games", "byes"} <= set(
        individual["properties"]
    )
    assert set(individual["required"]) == {"name", "players"}
    team = schema["$defs"]["TeamEvent"]
    assert {"teams", "matches"} <= set(team["properties"])
    assert "Result" in schema["$defs"]
    assert "BoardResult" in schema["$defs"]
    json.dumps(schema)  # serialisable as it is


# --------------------------------------------------------------------------- refusals


def test_invalid_json_names_line_and_column() -> None:
    text = '{\n  "name": "x",\n  "players": [,]\n}'
    error = refusal(text)
    assert (error.line, error.column) == (3, 15)  # the comma
    assert "not valid JSON" in error.reason
    assert str(error).startswith("event.json, line 3, column 15: ")


def _set(path: str, value: object) -> Callable[[dict[str, Any]], None]:
    """A change that sets ``section.index.field`` (or a top-level key) to ``value``."""

    def change(d: dict[str, Any]) -> None:
        parts = path.split(".")
        target: Any = d
        for part in parts[:-1]:
            target = target[int(part)] if part.isdigit() else target[part]
        target[parts[-1]] = value

    return change


def _delete(section: str, index: int, key: str) -> Callable[[dict[str, Any]], None]:
    def change(d: dict[str, Any]) -> None:
        del d[section][index][key]

    return change


def _add(section: str, entry: dict[str, Any]) -> Callable[[dict[str, Any]], None]:
    def change(d: dict[str, Any]) -> None:
        d[section].append(entry)

    return change


RESULTS = "1-0, 0-1, 1/2-1/2, +/-, -/+, -/-"
BAD_DOCUMENTS: list[tuple[str, Callable[[dict[str, Any]], object], str, str]] = [
    # (description, change, path, words of the reason)
    (
        "bad result",
        _set("games.2.result", "2-0"),
        "games[2].result",
        f"'2-0' is not a result; use one of {RESULTS}",
    ),
    (
        "bad bye kind",
        _set("byes.0.kind", "quarter"),
        "byes[0].kind",
        "not a kind of bye; use one of full, half, zero, pairing-allocated",
    ),
    ("missing field", _delete("games", 1, "black"), "games[1].black", "required"),
    ("unknown field", _set("games.0.colour", "w"), "games[0].colour", "unknown field 'colour'"),
    ("round as text", _set("games.1.round", "1"), "games[1].round", "whole number"),
    ("round zero", _set("games.1.round", 0), "games[1].round", "at least 1"),
    ("rating as text", _set("players.3.rating", "high"), "players[3].rating", "whole number"),
    ("negative rating", _set("players.3.rating", -5), "players[3].rating", "at least 0"),
    ("id as a number", _set("players.3.id", 4), "players[3].id", "text in quotes"),
    ("empty name", _set("players.1.name", ""), "players[1].name", "must not be empty"),
    ("one player", _set("players", [BASE["players"][0]]), "players", "at least 2"),
    ("players not a list", _set("players", {}), "players", "a list"),
    ("ended_at not a time", _set("games.0.ended_at", "soon"), "games[0].ended_at", "ISO 8601"),
    ("ended_at a number", _set("games.0.ended_at", 12), "games[0].ended_at", "ISO 8601"),
    (
        "ended_at without zone",
        _set("games.0.ended_at", "2015-12-13T18:40:00"),
        "games[0].ended_at",
        "give a time zone, e.g. 2015-12-13T18:40:00Z",
    ),
    (
        "duplicate player id",
        _add("players", {"id": "2", "name": "Someone Else"}),
        "players[4].id",
        "used twice (also players[1].id)",
    ),
    ("unknown white", _set("games.2.white", "9"), "games[2].white", "no player has the id '9'"),
    ("unknown black", _set("games.2.black", "9"), "games[2].black", "no player has the id '9'"),
    ("unknown bye player", _set("byes.1.player", "9"), "byes[1].player", "no player"),
    ("plays himself", _set("games.2.black", "2"), "games[2].black", "against himself"),
    (
        "two games in a round",
        _add("games", {"round": 1, "white": "4", "black": "2", "result": "0-1"}),
        "games[3].white",
        "already has a game or bye in round 1 (games[1])",
    ),
    (
        "a game and a bye in a round",
        _add("byes", {"round": 2, "player": "3", "kind": "zero"}),
        "byes[2].player",
        "already has a game or bye in round 2 (games[2])",
    ),
    (
        "two byes in a round",
        _add("byes", {"round": 2, "player": "4", "kind": "full"}),
        "byes[2].player",
        "round 2 (byes[1])",
    ),
    ("unknown kind", _set("kind", "pairs"), "kind", "'pairs' is not a kind of event"),
]


@pytest.mark.parametrize(
    ("change", "path", "words"),
    [case[1:] for case in BAD_DOCUMENTS],
    ids=[case[0] for case in BAD_DOCUMENTS],
)
def test_bad_documents_are_refused_with_a_path(
    change: Callable[[dict[str, Any]], object], path: str, words: str
) -> None:
    error = refusal(document(change))
    assert error.path == path, error.reason
    assert words in error.reason
    assert str(error).startswith(f"event.json, {path}: ")


def test_more_problems_are_counted() -> None:
    def change(d: dict[str, Any]) -> None:
        d["games"][0]["result"] = "2-0"
        d["games"][1]["result"] = "3-0"

    error = refusal(document(change))
    assert error.path == "games[0].result"
    assert "(and 1 more problem)" in error.reason


def test_team_events_are_sent_to_parse_event() -> None:
    text = json.dumps({"name": "County", "kind": "team", "teams": [], "matches": []})
    error = refusal(text)
    assert error.path == "kind"
    assert "parse_event" in error.reason
    # parse_event reads it as a team event, which needs at least two teams.
    error = refusal(text, parse_event)
    assert error.path == "teams"


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("[1, 2]", "must be a JSON object"),
        ('"an event"', "must be a JSON object"),
        ('{"name": "a", "name": "b"}', "'name' appears twice"),
        ("[" * 100_000, "not valid JSON"),
        ("1" * 5000, "not valid JSON"),
        ('{"name": "\\ud800", "players": []}', "not valid JSON"),
    ],
)
def test_documents_that_are_not_events(text: str, words: str) -> None:
    assert words in refusal(text).reason


# --------------------------------------------------------------------------- choosing a reader


def test_load_event_chooses_by_extension() -> None:
    trf = TRF16.read_text(encoding="utf-8")
    json_text = document()
    assert load_event(trf, "event.trf") == parse_trf(trf)
    assert load_event(trf, "EVENT.TXT") == parse_trf(trf)
    assert load_event(json_text, "event.JSON") == parse_json_event(json_text)
    # Unknown extensions are decided by the text.
    assert load_event(json_text, "upload") == parse_json_event(json_text)
    assert load_event("\ufeff  " + json_text, "upload.dat") == parse_json_event(json_text)
    assert load_event(trf, "upload") == parse_trf(trf)


def test_load_event_names_the_file_in_errors() -> None:
    with pytest.raises(InputError) as caught:
        load_event("{", "results.json")
    assert caught.value.source == "results.json"
    assert (caught.value.line, caught.value.column) == (1, 2)
    with pytest.raises(InputError) as caught:
        load_event(document(_set("kind", "team")), "county.json")
    assert caught.value.source == "county.json"
    assert caught.value.path is not None
    with pytest.raises(InputError) as caught:
        load_event("{}", "results.trf")  # read as TRF, as the name says
    assert "player records" in caught.value.reason


# --------------------------------------------------------------------------- fuzzing

_JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(
            st.sampled_from(["name", "kind", "players", "games", "byes", "id", "round", "x"]),
            children,
            max_size=5,
        )
    ),
    max_leaves=20,
)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text())
def test_random_text_is_only_ever_refused_cleanly(text: str) -> None:
    for reader in (parse_json_event, parse_event):
        try:
            event = reader(text, None)
        except InputError as error:
            assert error.reason
        else:
            assert len(event.players) >= 2


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_JSON_VALUES, st.sampled_from(["players", "games", "byes", "name", "kind"]))
def test_random_json_is_read_or_refused_cleanly(value: object, key: str) -> None:
    data = copy.deepcopy(BASE)
    data[key] = value
    try:
        parse_json_event(json.dumps(data))
    except InputError as error:
        assert error.reason


def test_start_date_is_read_and_a_bad_one_refused_in_words() -> None:
    # The first day of the event: it chooses the edition of FIDE C.07 applied.
    from datetime import date

    event = parse_json_event(document(_set("start_date", "2025-11-20")), "event.json")
    assert event.start_date == date(2025, 11, 20)
    error = refusal(document(_set("start_date", "2025-13-01")))
    assert error.path == "start_date"
    assert error.reason == "'2025-13-01' is not a date; write it as ISO 8601, e.g. 2026-03-15"
