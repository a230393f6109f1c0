"""``playoff export-trf``: the rating report read from the service's log, while the
service runs, is the file its route answers; refusals in words, and nothing written."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from playoff_formats.io.trf import parse_trf_document
from tests.support import ROOT
from tests.support.cli import playoff as command
from tests.support.cli import playoff_process, unwrapped
from tests.support.display import JSON, Playoff, SkippableTime, ok
from tests.support.ladder import ANAND, GIRI, world_cup_json
from tests.support.server import running_server


def play(playoff: Playoff, number: int, result: str) -> None:
    playoff.rest(40)
    playoff.game(1, number, "start")
    playoff.game(1, number, "result", {"result": result})


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Playoff, Path]]:
    """The World Cup ladder to its blitz stage (rapid and blitz games), the service
    still running on its log."""
    db = tmp_path_factory.mktemp("export") / "log.db"
    with running_server(db, SkippableTime()) as server:
        with server.client() as anonymous:
            created = ok(anonymous.post(
                "/api/events", content=world_cup_json().encode(), headers=JSON
            ))
        token = created["chief_token"]
        with server.client(token) as chief:
            made = ok(chief.post(f"/api/events/{created['id']}/playoff", json={}))
        playoff = Playoff(server, made["id"], token, "")
        for first, white, results in ((1, ANAND, ("1/2-1/2", "1/2-1/2")),
                                      (3, GIRI, ("1-0", "1-0")), (5, ANAND, ("1-0",))):
            playoff.post("/matches/1/lots", {"method": "physical", "white": white})
            for n, result in enumerate(results):
                play(playoff, first + n, result)
        yield playoff, db


def from_the_route(playoff: Playoff, **query: str) -> str:
    with playoff.server.client(playoff.token) as http:
        answer = http.get(f"/api/playoffs/{playoff.id}/export.trf", params=query)
    assert answer.status_code == 200, answer.text
    return answer.text


@pytest.mark.parametrize("edition", ["16", "2026"])
def test_the_file_from_the_log_is_the_routes(
    served: tuple[Playoff, Path], tmp_path: Path, edition: str
) -> None:
    ladder, db = served
    out = tmp_path / "report.trf"
    done = playoff_process(
        "export-trf", ladder.id, "--db", str(db), "--trf", edition, "--pool", "rapid",
        "-o", str(out),
    )
    assert done.returncode == 0, done.stderr
    assert out.read_text(encoding="utf-8") == from_the_route(ladder, pool="rapid", trf=edition)
    assert unwrapped(f"{out}: the rapid list, 4 games") in unwrapped(done.stdout)


def test_each_list_in_a_file_of_its_own(served: tuple[Playoff, Path], tmp_path: Path) -> None:
    ladder, db = served
    done = command("export-trf", ladder.id, "--db", str(db), "-o", str(tmp_path / "report.trf"))
    assert done.returncode == 0, done.stderr
    rapid, blitz = tmp_path / "report-rapid.trf", tmp_path / "report-blitz.trf"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report-blitz.trf", "report-rapid.trf"]
    assert len(parse_trf_document(rapid.read_text(encoding="utf-8")).event.games) == 4
    assert blitz.read_text(encoding="utf-8") == from_the_route(ladder, pool="blitz")
    # The play-off is not finished: no final rank yet, and the file says so.
    assert "### Ranks: none yet: the play-off is not finished." in blitz.read_text(
        encoding="utf-8"
    ).splitlines()


def test_a_stage_alone(served: tuple[Playoff, Path], tmp_path: Path) -> None:
    ladder, db = served
    out = tmp_path / "stage.trf"
    done = command("export-trf", ladder.id, "--db", str(db), "--stage", "rapid 25+10", "-o",
                   str(out))
    assert done.returncode == 0, done.stderr
    assert out.read_text(encoding="utf-8") == from_the_route(ladder, stage="rapid 25+10")


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["nosuch"], "has no play-off 'nosuch'; its play-offs:"),
        (["{id}", "--stage", "Classical"],
         "the play-off has no stage 'Classical'; its stages: Rapid 25+10, Rapid 10+10, "
         "Blitz 5+3, Armageddon"),
        (["{id}", "--stage", "Armageddon"], "no game of the play-off is for a rating list"),
        (["{id}", "--pool", "standard"],
         "the play-off has no standard games for a rating list; it has rapid and blitz"),
    ],
    ids=["unknown play-off", "unknown stage", "no rated game", "no such list"],
)
def test_what_cannot_be_exported_is_refused_and_nothing_written(
    served: tuple[Playoff, Path], tmp_path: Path, args: list[str], words: str
) -> None:
    ladder, db = served
    args = [a.replace("{id}", ladder.id) for a in args]
    done = command("export-trf", *args, "--db", str(db), "-o", str(tmp_path / "r.trf"))
    assert done.returncode == 2
    assert unwrapped(words) in unwrapped(done.stderr)
    assert list(tmp_path.iterdir()) == []


def test_a_missing_log_is_refused_and_not_created(tmp_path: Path) -> None:
    db = tmp_path / "nowhere.db"
    done = command("export-trf", "abc", "--db", str(db), "-o", str(tmp_path / "r.trf"))
    assert done.returncode == 2
    assert unwrapped(f"{db}: no such file") in unwrapped(done.stderr)
    assert list(tmp_path.iterdir()) == []


def test_a_file_that_is_no_log_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "notes.db"
    db.write_text("not a database", encoding="utf-8")
    done = command("export-trf", "abc", "--db", str(db), "-o", str(tmp_path / "r.trf"))
    assert done.returncode == 2
    assert "not an SQLite event log" in " ".join(done.stderr.split())


def test_the_command_does_not_load_the_web_service() -> None:
    probe = (
        "import sys; from orchestrator.cli import export_trf; import orchestrator.core.ratings, "
        "orchestrator.core.streams, orchestrator.store.sqlite; "
        "print(sorted(m for m in ('fastapi', 'uvicorn', 'starlette', 'apscheduler', "
        "'orchestrator.core.service', 'orchestrator.app') if m in sys.modules))"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert done.stdout.strip() == "[]"
