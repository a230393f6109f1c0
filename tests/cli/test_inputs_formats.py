"""What the readers of event files refuse, and where they say it goes wrong.

"Bad input never half-works: a file that does not parse is refused with the line
and column (or JSON path) and a reason" (DESIGN.md, "Errors"). These are the
inputs Python's json lets through or refuses without saying where: NaN and
Infinity, repeated keys, 5000-digit numbers, deep nesting; and sizes and dates
past the bounds of the model (README, "Limits"). A value the readers accept must
read back as it was: the service logs it and reads it again at every start.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from playoff_formats.errors import InputError
from playoff_formats.io.json_event import parse_event
from playoff_formats.io.strict_json import MAX_DEPTH, load_json
from playoff_formats.io.trf import parse_trf
from playoff_formats.model import (
    MAX_BOARDS,
    MAX_ID,
    MAX_NAME,
    MAX_PLAYERS,
    MAX_ROUND,
    IndividualEvent,
    TeamEvent,
)
from tests.support import DATA
from tests.support.cli import playoff

UZCHESS = DATA / "uzchess-cup-masters-2025.json"
TRF = DATA / "io" / "sample-trf26.trf"


def uzchess(change: Callable[[dict[str, Any]], None] | None = None) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(UZCHESS.read_text(encoding="utf-8"))
    if change is not None:
        change(data)
    return data


def bridge(change: Callable[[dict[str, Any]], None] | None = None) -> dict[str, Any]:
    data: dict[str, Any] = {
        "name": "Spring Foursomes, group A", "kind": "team", "regulation": "ebu-143.7",
        "teams": [{"id": "N", "name": "North"}, {"id": "S", "name": "South"},
                  {"id": "W", "name": "West"}],
        "matches": [
            {"round": 1, "home": "N", "away": "S", "venue": "neutral", "vps": [12.5, 7.5]},
            {"round": 2, "home": "S", "away": "W", "venue": "neutral", "vps": [10, 10]},
            {"round": 3, "home": "W", "away": "N", "venue": "neutral", "vps": [4, 16]},
        ],
    }
    if change is not None:
        change(data)
    return data


def refusal(text: str) -> InputError:
    with pytest.raises(InputError) as caught:
        parse_event(text, "event.json")
    return caught.value


def at(text: str, needle: str) -> tuple[int, int]:
    """The 1-based line and column of the first ``needle`` in ``text``."""
    offset = text.index(needle)
    return text.count("\n", 0, offset) + 1, offset - text.rfind("\n", 0, offset)


# --------------------------------------------------------------------------- NaN, Infinity


@pytest.mark.parametrize("literal", ["NaN", "Infinity", "-Infinity"])
def test_nan_and_infinity_in_a_bridge_match_are_refused_at_their_path(literal: str) -> None:
    text = json.dumps(bridge(), indent=1).replace("12.5", literal)
    error = refusal(text)
    assert error.path == "matches[0].vps[0]"
    assert (error.line, error.column) == at(text, literal)
    assert literal in error.reason and "not valid JSON" in error.reason


def test_nan_in_a_chess_match_score_is_refused_at_its_path() -> None:
    data = {
        "name": "County", "kind": "team", "regulation": "county1980",
        "teams": [{"id": "A", "name": "A"}, {"id": "B", "name": "B"}],
        "matches": [{"round": 1, "home": "A", "away": "B", "boards": ["1-0", "0-1"],
                     "score": [1, 1]}],
    }
    text = json.dumps(data).replace("[1, 1]", "[NaN, 1]")
    error = refusal(text)
    assert error.path == "matches[0].score[0]"
    assert (error.line, error.column) == at(text, "NaN")


def test_a_number_too_large_for_a_float_is_refused_at_its_path() -> None:
    text = json.dumps(bridge()).replace("12.5", "1e400")
    error = refusal(text)
    assert error.path == "matches[0].vps[0]"
    assert "too large" in error.reason


def test_finite_vps_read_back_as_they_were_logged() -> None:
    event = parse_event(json.dumps(bridge()))
    assert isinstance(event, TeamEvent)
    again = parse_event(event.model_dump_json(exclude_none=True), check_regulation=False)
    assert again == event


def test_the_models_refuse_nan_even_when_built_in_python() -> None:
    with pytest.raises(ValueError, match="finite"):
        TeamEvent.model_validate(bridge(lambda d: d["matches"][0].update(vps=[float("nan"), 1])))


# --------------------------------------------------------------------------- JSON limits


def test_a_repeated_key_is_refused_with_its_path_line_and_column() -> None:
    text = '{"name": "Cup",\n "players": [{"id": "1", "name": "A", "name": "B"}]}'
    error = refusal(text)
    first = text.index('"name": "A"')
    second = text.index('"name": "B"')
    assert error.path == "players[0].name"
    assert (error.line, error.column) == (2, second - text.index("\n"))
    assert "'name' appears twice" in error.reason
    assert f"line 2, column {first - text.index(chr(10))}" in error.reason


def test_a_5000_digit_integer_is_refused_with_its_path() -> None:
    data = uzchess()
    text = json.dumps(data).replace('"round": 3,', '"round": ' + "7" * 5000 + ",", 1)
    error = refusal(text)
    index = next(i for i, g in enumerate(data["games"]) if g["round"] == 3)
    assert error.path == f"games[{index}].round"
    assert (error.line, error.column) == at(text, "7" * 5000)
    assert "5,000 characters" in error.reason


def test_nesting_100000_deep_is_refused_with_its_path() -> None:
    text = '{"name": "Cup", "players": ' + "[" * 100_000 + "]" * 100_000 + "}"
    error = refusal(text)
    # The object is the first level, the players' list the second...
    assert error.path == "players" + "[0]" * (MAX_DEPTH - 1)
    assert error.line == 1
    assert error.column == len('{"name": "Cup", "players": ') + MAX_DEPTH
    assert f"nested more than {MAX_DEPTH} levels" in error.reason


def test_half_a_surrogate_pair_is_refused_with_its_path() -> None:
    text = json.dumps(uzchess()).replace('"Praggnanandhaa R"', '"Pragg\\ud800"', 1)
    error = refusal(text)
    assert error.path is not None and error.path.endswith(".name")
    assert "surrogate" in error.reason


def test_the_strict_reader_keeps_what_json_allows() -> None:
    text = '{"a": [1, 2.5, -0.0, 1e-400, "\\ud83d\\ude00", {"b": null}], "c": true}'
    assert load_json(text) == json.loads(text)


# --------------------------------------------------------------------------- sizes


@pytest.mark.parametrize(
    ("change", "path", "words"),
    [
        (lambda d: d.update(name="x" * (MAX_NAME + 1)), "name", f"at most {MAX_NAME} characters"),
        (lambda d: d["players"][0].update(name="P" * 20_000), "players[0].name", "20,000"),
        (lambda d: d["players"][1].update(id="9" * (MAX_ID + 1)), "players[1].id",
         f"at most {MAX_ID} characters"),
        (lambda d: d["games"][0].update(white="w" * 1000), "games[0].white", "at most"),
        (lambda d: d.update(regulation="r" * 1000), "regulation", "at most"),
        (lambda d: d["games"][0].update(round=MAX_ROUND + 1), "games[0].round",
         f"at most {MAX_ROUND}"),
        (lambda d: d.update(players=[{"id": str(i), "name": f"P{i}"}
                                     for i in range(MAX_PLAYERS + 1)], games=[]),
         "players", f"at most {MAX_PLAYERS} entries"),
    ],
)
def test_sizes_past_the_limits_are_refused_with_the_field(
    change: Callable[[dict[str, Any]], None], path: str, words: str
) -> None:
    error = refusal(json.dumps(uzchess(change)))
    assert error.path == path
    assert words in error.reason
    assert len(error.describe()) < 400


def test_boards_of_a_match_are_bounded() -> None:
    error = refusal(json.dumps(bridge(
        lambda d: d["matches"][0].update(boards=[10] * (MAX_BOARDS + 1), vps=None)
    )))
    assert error.path == "matches[0].boards"
    assert f"at most {MAX_BOARDS} entries" in error.reason


def test_a_bridge_board_score_is_bounded() -> None:
    error = refusal(json.dumps(bridge(lambda d: d["matches"][0].update(boards=[10**12]))))
    assert error.path == "matches[0].boards[0]"
    assert "at most" in error.reason


def test_the_limits_are_in_the_json_schema() -> None:
    run = playoff("schema")
    assert run.returncode == 0, run.stderr
    defs = json.loads(run.stdout)["$defs"]
    assert defs["Player"]["properties"]["name"]["maxLength"] == MAX_NAME
    assert defs["IndividualEvent"]["properties"]["players"]["maxItems"] == MAX_PLAYERS


def test_a_stored_event_past_todays_limits_still_reads_back() -> None:
    # What was accepted once is never refused on reading it again.
    data = uzchess(lambda d: d["players"][0].update(name="P" * 5000))
    text = json.dumps(data)
    with pytest.raises(InputError):
        parse_event(text)
    event = parse_event(text, "stored event", check_regulation=False)
    assert isinstance(event, IndividualEvent)
    assert event.players[0].name == "P" * 5000


def test_trf_limits_name_their_line_and_column() -> None:
    text = TRF.read_text(encoding="utf-8")
    lines = text.splitlines()
    number = next(i for i, line in enumerate(lines) if line.startswith("012 "))
    lines[number] = "012 " + "N" * (MAX_NAME + 1)
    with pytest.raises(InputError) as caught:
        parse_trf("\n".join(lines), "event.trf")
    assert (caught.value.line, caught.value.column) == (number + 1, 5)
    assert f"at most {MAX_NAME}" in caught.value.reason

    player = next(i for i, line in enumerate(lines) if line.startswith("001 "))
    far = lines[player].ljust(91 + 10 * MAX_ROUND) + "0001 w 1"
    lines[player] = far
    with pytest.raises(InputError) as caught:
        parse_trf("\n".join(lines[:number] + lines[number + 1:]), "event.trf")
    assert caught.value.line == player
    assert caught.value.column == 92 + 10 * MAX_ROUND
    assert f"more than {MAX_ROUND} rounds" in caught.value.reason


@pytest.mark.parametrize(
    ("record", "column", "words"),
    [
        ("240 F " + "9" * 5000 + " 1", 7, "is not a round number"),
        ("240 F 1 " + "9" * 5000, 9, "is not a starting rank"),
        (f"240 F {MAX_ROUND + 1} 1", 7, "is not a round number"),
    ],
)
def test_trf_numbers_of_thousands_of_digits_are_refused_at_their_column(
    record: str, column: int, words: str
) -> None:
    text = TRF.read_text(encoding="utf-8").rstrip("\n") + "\n" + record + "\n"
    with pytest.raises(InputError) as caught:
        parse_trf(text, "event.trf")
    assert (caught.value.line, caught.value.column) == (len(text.splitlines()), column)
    assert words in caught.value.reason
    assert len(caught.value.describe()) < 200


def test_a_trf_header_number_of_thousands_of_digits_is_not_read() -> None:
    text = TRF.read_text(encoding="utf-8").rstrip("\n") + "\nXXR " + "9" * 5000 + "\n"
    assert parse_trf(text, "event.trf") == parse_trf(TRF.read_text(encoding="utf-8"), "event.trf")


# --------------------------------------------------------------------------- dates


@pytest.mark.parametrize("when", ["1899-12-31T23:00:00Z", "2200-01-01T00:00:00Z",
                                  "0001-01-01T00:00:00Z", "9999-12-31T23:59:59Z"])
def test_an_end_time_out_of_range_is_refused_with_its_path(when: str) -> None:
    error = refusal(json.dumps(uzchess(lambda d: d["games"][4].update(ended_at=when))))
    assert error.path == "games[4].ended_at"
    assert "out of range" in error.reason and "1900-01-01" in error.reason


def test_an_end_time_as_a_number_is_refused_with_its_path() -> None:
    error = refusal(json.dumps(uzchess(lambda d: d["games"][4].update(ended_at=0))))
    assert error.path == "games[4].ended_at"
    assert "ISO 8601" in error.reason


def test_end_times_in_range_read_back() -> None:
    event = parse_event(json.dumps(uzchess(
        lambda d: d["games"][0].update(ended_at="1900-01-01T00:00:00Z")
    )))
    again = parse_event(event.model_dump_json(exclude_none=True), check_regulation=False)
    assert again == event


# --------------------------------------------------------------------------- the command line


def test_the_command_line_refuses_a_bridge_file_with_nan_vps_without_a_traceback(
    tmp_path: Path,
) -> None:
    path = tmp_path / "group.json"
    path.write_text(json.dumps(bridge(), indent=1).replace("12.5", "NaN"), encoding="utf-8")
    run = playoff("standings", str(path))
    assert run.returncode != 0
    assert "Traceback" not in run.stderr + run.stdout
    assert "matches[0].vps[0]" in run.stderr + run.stdout
    assert "NaN" in run.stderr + run.stdout


def test_the_command_line_accepts_a_regulation_name_its_file_defines(tmp_path: Path) -> None:
    # The service refuses names it does not know; the command line may rank by a file.
    rules = tmp_path / "club-open-2026.toml"
    rules.write_text(
        'name = "club-open-2026"\ntitle = "Club Open 2026"\ncriteria = ["WIN", "SB"]\n'
        "playoff_for_first = false\n",
        encoding="utf-8",
    )
    path = tmp_path / "event.json"
    path.write_text(json.dumps(uzchess(lambda d: d.update(regulation="club-open-2026"))))
    run = playoff("standings", str(path), "--regulation", str(rules))
    assert run.returncode == 0, run.stderr
