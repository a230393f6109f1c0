"""An organiser's own play-off format written in TOML, sent to the service as it is
(``application/toml``), as the README's ``curl`` sends it; a malformed one refused
with the line, the column and the reason in words, never with the file echoed."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.support import ROOT
from tests.support.events import ABDU, PRAGG, SINDAROV, uzchess_json
from tests.support.server import RunningServer, running_server

CLUB_BLITZ = ROOT / "tests" / "data" / "formats" / "club-blitz.toml"
TOML = {"Content-Type": "application/toml"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Any:
    with running_server(tmp_path_factory.mktemp("toml") / "log.db") as running:
        yield running


def upload(server: RunningServer) -> tuple[str, str]:
    """A new UzChess Cup Masters 2025 (three tied for first): its id and chief's token."""
    with server.client() as anonymous:
        made = anonymous.post(
            "/api/events", content=uzchess_json(),
            headers={"Content-Type": "application/json"},
        )
    assert made.status_code == 201, made.text
    return made.json()["id"], made.json()["chief_token"]


def the_readme_curl() -> str:
    """The README's command that sends a TOML format, as it is printed there."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```sh\n(.*?)```", readme, flags=re.S)
    found = [b for b in blocks if "application/toml" in b]
    assert len(found) == 1, "the README shows how to send a TOML format with curl"
    return found[0]


def test_the_readme_curl_sends_a_toml_format_that_plays_the_tie_off(
    server: RunningServer, tmp_path: Path
) -> None:
    curl = shutil.which("curl")
    assert curl is not None, "curl is missing: the README's example is a curl command"
    event_id, chief = upload(server)
    shutil.copy(CLUB_BLITZ, tmp_path / "club-blitz.toml")
    run = subprocess.run(
        ["bash", "-c", "set -e\n" + the_readme_curl()],
        cwd=tmp_path, capture_output=True, text=True, timeout=30,
        env={**os.environ, "SERVER": server.base_url, "EVENT": event_id, "CHIEF": chief,
             "no_proxy": "*"},
    )
    assert run.returncode == 0, run.stderr
    with server.client(chief) as http:
        (playoff_id,) = http.get(f"/api/events/{event_id}").json()["playoffs"]
        made = http.get(f"/api/playoffs/{playoff_id}").json()
        log = http.get(f"/api/playoffs/{playoff_id}/events").json()["events"]
    assert made["id"] in run.stdout
    assert made["format"] == {"name": "club-blitz-2026", "title": "Club blitz play-off"}
    bye, semi, _ = made["matches"]
    assert bye["bye"] and bye["players"] == [PRAGG, None]
    assert set(semi["players"]) == {ABDU, SINDAROV}
    assert semi["ladder"]["summary"] == (
        "2 games G/10+5, then Armageddon W 5' / B 4', +2 s (draw: Black wins)"
    )
    # The options in the address are the play-off's, as a JSON body's would be.
    created = log[0]["data"]
    assert [float(p) for p in created["prizes"]] == [100000, 50000]


def test_the_options_of_a_toml_format_are_checked_as_a_json_bodys(
    server: RunningServer,
) -> None:
    event_id, chief = upload(server)
    with server.client(chief) as http:
        refused = http.post(
            f"/api/events/{event_id}/playoff", params={"prizes": "-5"},
            content=CLUB_BLITZ.read_bytes(), headers=TOML,
        )
        assert refused.status_code == 422, refused.text
        assert refused.json()["detail"][0]["loc"][:2] == ["query", "prizes"]
        made = http.post(
            f"/api/events/{event_id}/playoff",
            params={"deadline": "2030-01-01T18:00:00+05:00", "points": ["13", "10"]},
            content=CLUB_BLITZ.read_bytes(), headers=TOML,
        )
        assert made.status_code == 201, made.text
        assert made.json()["deadline"] == "2030-01-01T18:00:00+05:00"
        # A JSON body holds its options itself: the same in the address is refused.
        second_id, second_chief = upload(server)
    with server.client(second_chief) as http:
        mixed = http.post(
            f"/api/events/{second_id}/playoff", params={"prizes": "100"}, json={}
        )
        assert mixed.status_code == 422
        (problem,) = mixed.json()["detail"]
        assert problem["loc"] == ["query", "prizes"]
        assert "a field of the body" in problem["msg"]
        assert http.get(f"/api/events/{second_id}").json()["playoffs"] == []


def test_a_malformed_toml_format_is_refused_at_its_line_and_column_in_words(
    server: RunningServer,
) -> None:
    event_id, chief = upload(server)
    text = CLUB_BLITZ.read_text(encoding="utf-8")
    broken = text.replace('games = 2, time_control = "G/10+5"', 'games = 2 time_control = "G/10+5"')
    assert broken != text
    line, column = next(
        (i, row.index("time_control") + 1)
        for i, row in enumerate(broken.splitlines(), 1) if "games = 2 time" in row
    )
    with server.client(chief) as http:
        refused = http.post(
            f"/api/events/{event_id}/playoff", content=broken.encode(), headers=TOML
        )
        assert refused.status_code == 422, refused.text
        (problem,) = refused.json()["detail"]
        assert problem["loc"] == ["body"]
        assert (problem["line"], problem["column"]) == (line, column)
        assert problem["msg"] == (
            "TOML syntax: a table {...} is not closed, or two of its keys lack a comma "
            "between them"
        )
        # Nothing of the file comes back: not its comments, not its names.
        assert "organiser" not in refused.text and "club-blitz" not in refused.text
        # What the document says, checked as the command line checks it: the path
        # is the document's own.
        wrong = http.post(
            f"/api/events/{event_id}/playoff", headers=TOML,
            content=text.replace('"G/10+5"', '"G/ten"').encode(),
        )
        assert wrong.status_code == 422
        (problem,) = wrong.json()["detail"]
        assert problem["loc"] == ["body", "matches", 0, "stages", 0, "time_control"]
        assert "'G/ten' is not a time control" in problem["msg"]
        assert http.get(f"/api/events/{event_id}").json()["playoffs"] == []


def test_a_toml_file_sent_as_a_json_name_is_refused_without_its_text(
    server: RunningServer,
) -> None:
    event_id, chief = upload(server)
    text = CLUB_BLITZ.read_text(encoding="utf-8")
    with server.client(chief) as http:
        refused = http.post(f"/api/events/{event_id}/playoff", json={"format": text})
        assert refused.status_code == 422, refused.text
        (problem,) = refused.json()["detail"]
        assert problem["loc"] == ["body", "format"]
        assert "Content-Type: application/toml" in problem["msg"]
        assert "gct2015" in problem["msg"]  # the built-in names it could have been
        assert "organiser" not in refused.text and "[[matches]]" not in refused.text
        assert len(refused.text) < 400


@pytest.mark.parametrize("kind", ["text/plain", "application/x-www-form-urlencoded"])
def test_another_media_type_is_refused_naming_those_accepted(
    server: RunningServer, kind: str
) -> None:
    event_id, chief = upload(server)
    with server.client(chief) as http:
        refused = http.post(
            f"/api/events/{event_id}/playoff", content=CLUB_BLITZ.read_bytes(),
            headers={"Content-Type": kind},
        )
    assert refused.status_code == 422, refused.text
    (problem,) = refused.json()["detail"]
    assert "application/json" in problem["msg"]
    assert "application/toml" in problem["msg"]
    assert repr(kind) in problem["msg"]


def test_a_formats_name_is_refused_in_words_not_with_its_pattern(
    server: RunningServer,
) -> None:
    event_id, chief = upload(server)
    text = CLUB_BLITZ.read_text(encoding="utf-8")
    with server.client(chief) as http:
        refused = http.post(
            f"/api/events/{event_id}/playoff", headers=TOML,
            content=text.replace('name = "club-blitz-2026"', 'name = "Club Blitz!"').encode(),
        )
    assert refused.status_code == 422, refused.text
    (problem,) = refused.json()["detail"]
    assert problem["msg"] == (
        "'Club Blitz!' cannot be a format's name: use lower-case letters, digits, dots and "
        "hyphens, starting with a letter or a digit (like 'club-2026')"
    )
    assert "pattern" not in refused.text and "^" not in refused.text
