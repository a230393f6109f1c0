"""A regulation of the other kind is refused in words: by the readers, the CLI, the API."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from orchestrator.core.timesource import ManualTime
from playoff_formats.errors import InputError
from playoff_formats.io.json_event import load_event, parse_event, parse_json_event
from playoff_formats.io.trf import parse_trf
from playoff_formats.regulations import get_regulation, regulation_names
from playoff_formats.regulations.kinds import INDIVIDUAL_CHESS, TEAM_BRIDGE, TEAM_CHESS
from tests.support import DATA
from tests.support.cli import Run, playoff, unwrapped
from tests.support.server import running_server

UZCHESS = DATA / "uzchess-cup-masters-2025.json"
COUNTY = DATA / "county-example-iii.json"
TRF = DATA / "io" / "sample-trf26.trf"


def individual(regulation: str | None) -> str:
    data = json.loads(UZCHESS.read_text(encoding="utf-8"))
    if regulation is None:
        data.pop("regulation", None)
    else:
        data["regulation"] = regulation
    return json.dumps(data)


def chess_teams(regulation: str | None) -> str:
    data = json.loads(COUNTY.read_text(encoding="utf-8"))
    if regulation is None:
        data.pop("regulation", None)
    else:
        data["regulation"] = regulation
    return json.dumps(data)


def bridge_teams(regulation: str | None) -> str:
    data: dict[str, Any] = {
        "name": "Knock-out",
        "kind": "team",
        "teams": [{"id": "N", "name": "North"}, {"id": "S", "name": "South"}],
        "matches": [
            {"round": 1, "home": "N", "away": "S", "venue": "neutral",
             "boards": [420, -50, 0, 10, -1430], "imps": [9, 18]},
        ],
    }
    if regulation is not None:
        data["regulation"] = regulation
    return json.dumps(data)


def said(run: Run) -> str:
    """What the command wrote to stderr, however the terminal wrapped it."""
    return " ".join(run.stderr.split())


def refusal_of(text: str) -> InputError:
    with pytest.raises(InputError) as caught:
        parse_event(text, "event.json")
    return caught.value


# --------------------------------------------------------------------------- declarations


def test_every_named_regulation_declares_the_kind_it_ranks() -> None:
    kinds = {name: get_regulation(name).ranks for name in regulation_names()}
    assert kinds == {
        "gct2015": INDIVIDUAL_CHESS,
        "county1980": TEAM_CHESS,
        "ebu-143.7": TEAM_BRIDGE,
        "ebu-143.7-pachabo": TEAM_BRIDGE,
        "ebu-143.7-swiss": TEAM_BRIDGE,
        "ebu-143.7-wins-and-draws": TEAM_BRIDGE,
        "ebu-143.2-triangle": TEAM_BRIDGE,
        "ebu-143.2-triangle-ordered": TEAM_BRIDGE,
        "ebu-143.2-triangle-2": TEAM_BRIDGE,
        "ebu-143.2-triangle-2-ordered": TEAM_BRIDGE,
        "fide-world-cup-2015": INDIVIDUAL_CHESS,
    }


def test_every_named_regulation_calls_itself_by_the_name_it_is_registered_under() -> None:
    assert all(get_regulation(name).name == name for name in regulation_names())


# --------------------------------------------------------------------------- the readers


def test_an_individual_event_under_a_team_regulation_is_refused_at_regulation() -> None:
    error = refusal_of(individual("county1980"))
    assert error.path == "regulation"
    assert error.reason.startswith(
        "county1980 ranks team events; this file is an individual event"
    )
    assert "gct2015" in error.reason  # what to write instead


def test_a_team_event_under_an_individual_regulation_is_refused() -> None:
    error = refusal_of(chess_teams("gct2015"))
    assert error.path == "regulation"
    assert error.reason.startswith("gct2015 ranks individual events; this file is a team event")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (chess_teams("ebu-143.7"),
         "ebu-143.7 ranks bridge team events; this file is a chess team event"),
        (bridge_teams("county1980"),
         "county1980 ranks chess team events; this file is a bridge team event"),
    ],
)
def test_chess_and_bridge_are_told_apart(text: str, expected: str) -> None:
    error = refusal_of(text)
    assert (error.path, error.reason.split(" (")[0]) == ("regulation", expected)


def test_a_bridge_event_naming_no_regulation_is_told_the_default_does_not_fit() -> None:
    error = refusal_of(bridge_teams(None))
    assert error.path == "regulation"
    assert "no regulation is named" in error.reason
    assert "ebu-143.7" in error.reason


def test_events_of_the_right_kind_still_read() -> None:
    assert parse_event(individual("gct2015")).regulation == "gct2015"
    assert parse_event(individual(None)).regulation == "gct2015"
    assert parse_event(chess_teams("county1980")).regulation == "county1980"
    assert parse_event(chess_teams(None)).regulation == "county1980"
    assert parse_event(bridge_teams("ebu-143.7")).regulation == "ebu-143.7"
    assert parse_event(bridge_teams("ebu-143.2-triangle")).regulation == "ebu-143.2-triangle"


def test_an_event_already_stored_is_read_back_unchecked() -> None:
    stored = parse_event(individual("county1980"), "stored event", check_regulation=False)
    assert stored.regulation == "county1980"
    stored = parse_event(bridge_teams(None), "stored event", check_regulation=False)
    assert stored.regulation == "county1980"


def test_an_unknown_name_is_left_to_the_regulation_file_that_may_define_it() -> None:
    assert parse_event(individual("club-open-2026")).regulation == "club-open-2026"


def test_every_reader_refuses_the_same() -> None:
    with pytest.raises(InputError) as by_name:
        load_event(individual("county1980"), "event.json")
    with pytest.raises(InputError) as by_text:
        load_event(individual("county1980"), "upload")
    with pytest.raises(InputError) as individual_reader:
        parse_json_event(individual("ebu-143.7"), "event.json")
    assert {by_name.value.path, by_text.value.path, individual_reader.value.path} == {
        "regulation"
    }
    # A TRF names no regulation: its events take gct2015, which ranks them.
    assert parse_trf(TRF.read_text(encoding="utf-8"), TRF.name).regulation == "gct2015"


# --------------------------------------------------------------------------- the command line


def test_standings_under_a_team_regulation_is_a_clear_error(tmp_path: Path) -> None:
    run = playoff("standings", str(UZCHESS), "--regulation", "county1980")
    assert run.returncode == 2
    assert "county1980 ranks team events; this file is an individual event" in said(run)
    assert "Traceback" not in run.stderr
    assert run.stdout == ""


@pytest.mark.parametrize("command", ["standings", "bracket"])
def test_every_command_checks_the_regulation_given(command: str) -> None:
    run = playoff(command, str(COUNTY), "--regulation", "ebu-143.7")
    assert run.returncode == 2
    assert "ebu-143.7 ranks bridge team events; this file is a chess team event" in said(run)
    assert "Traceback" not in run.stderr


def test_prizes_checks_the_regulation_given() -> None:
    run = playoff("prizes", str(COUNTY), "--prizes", "100,50", "--regulation", "gct2015")
    assert run.returncode == 2
    assert "gct2015 ranks individual events; this file is a team event" in said(run)
    assert "Traceback" not in run.stderr


def test_a_regulation_file_for_individuals_on_a_team_event(tmp_path: Path) -> None:
    rules = tmp_path / "club.toml"
    rules.write_text('name = "club-open-2026"\ncriteria = ["WIN", "SB"]\n', encoding="utf-8")
    run = playoff("standings", str(COUNTY), "--regulation", str(rules))
    assert run.returncode == 2
    assert "club-open-2026 ranks individual events; this file is a team event" in said(run)


def test_a_file_naming_a_regulation_of_the_other_kind(tmp_path: Path) -> None:
    wrong = tmp_path / "event.json"
    wrong.write_text(individual("county1980"), encoding="utf-8")
    run = playoff("standings", str(wrong))
    assert run.returncode == 2
    assert unwrapped(
        f"{wrong}, regulation: county1980 ranks team events; this file is an individual event"
    ) in unwrapped(said(run))
    assert "Traceback" not in run.stderr


# --------------------------------------------------------------------------- the API


def test_upload_of_the_other_kind_is_422_naming_the_field(tmp_path: Path) -> None:
    with running_server(tmp_path / "log.db", ManualTime()) as server:
        client = server.client()
        json_type = {"Content-Type": "application/json"}
        for text, expected in (
            (individual("county1980"), "county1980 ranks team events"),
            (chess_teams("gct2015"), "gct2015 ranks individual events"),
            (bridge_teams("county1980"), "county1980 ranks chess team events"),
        ):
            answer = client.post("/api/events", content=text, headers=json_type)
            assert answer.status_code == 422, answer.text
            (detail,) = answer.json()["detail"]
            assert detail["loc"] == ["body", "regulation"]
            assert expected in detail["msg"]
        # Nothing was stored, and events of the right kind still go in and rank.
        made = client.post("/api/events", content=chess_teams(None), headers=json_type)
        assert made.status_code == 201, made.text
        chief = server.client(made.json()["chief_token"])
        standings = chief.get(f"/api/events/{made.json()['id']}/standings")
        assert standings.status_code == 200
        assert standings.json()["regulation"] == "county1980"
