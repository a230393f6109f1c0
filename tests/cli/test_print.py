"""``playoff print``: a printout as a PDF file, from the service's log (read without
writing a byte to it) or from the service itself, read back as text and as page
images like those the service serves."""

from __future__ import annotations

import hashlib
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from orchestrator.core.timesource import ManualTime
from playoff_formats.speech import pseudo
from tests.support import ROOT, pdf
from tests.support.cli import playoff, unwrapped
from tests.support.printing import ACCENTED, CYRILLIC, GREEK, HALL, UZBEK, printing_setup
from tests.support.server import running_server


@dataclass
class Logged:
    """A log left by a service that has stopped, and the ids and token it holds."""

    db: Path
    event_id: str
    playoff_id: str
    arbiter: str


@pytest.fixture(scope="module")
def logged(tmp_path_factory: pytest.TempPathFactory) -> Logged:
    db = tmp_path_factory.mktemp("log") / "playoff.db"
    clock = ManualTime()
    with running_server(db, clock, settings=HALL) as server:
        setup = printing_setup(server)
        setup.post("/1/games/1/start")  # at 12:00 UTC: 17:00 in the hall
    return Logged(db, setup.event_id, setup.playoff_id, setup.arbiter)


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_slips_from_the_log_without_writing_to_it(logged: Logged, tmp_path: Path) -> None:
    before = digest(logged.db)
    out = tmp_path / "slips.pdf"
    run = playoff("print", logged.playoff_id, "slips", "--db", str(logged.db), "-o", str(out))
    assert run.returncode == 0, run.stderr
    assert unwrapped(f"slips (a4) written to {out}") in unwrapped(run.stderr)
    assert digest(logged.db) == before
    document = out.read_bytes()
    pdf.assert_on_paper(document, "A4")
    text = pdf.text(document)
    # Game 1 is in play, started at the hall's 17:00: its slip is printed, with the rest.
    assert text.count("Result slip Board 1") == 3
    assert (
        "Match 1 (Seeds 2 v 3) · Game 1 Board 1 Time Started 17:00, Saturday 28 June 2025"
    ) in text
    assert f"White {CYRILLIC} seed 2 Black {GREEK} seed 3" in text
    assert "Armageddon: White 6′ · Black 5′ · draw = Black wins" in text


def test_one_slip_on_letter_paper(logged: Logged, tmp_path: Path) -> None:
    out = tmp_path / "one.pdf"
    run = playoff("print", logged.playoff_id, "slips", "--paper", "letter", "--match", "1",
                  "--game", "2", "--db", str(logged.db), "-o", str(out))
    assert run.returncode == 0, run.stderr
    document = out.read_bytes()
    pdf.assert_on_paper(document, "Letter")
    text = pdf.text(document)
    assert text.count("Result slip Board 1") == 1
    assert f"White {GREEK} seed 3 Black {CYRILLIC} seed 2" in text


def test_the_standings_of_the_event_from_the_log(logged: Logged, tmp_path: Path) -> None:
    for ident in (logged.playoff_id, logged.event_id):
        out = tmp_path / f"standings-{ident}.pdf"
        run = playoff("print", ident, "standings", "--db", str(logged.db), "-o", str(out))
        assert run.returncode == 0, run.stderr
        text = pdf.text(out.read_bytes())
        pdf.assert_on_paper(out.read_bytes(), "A4")
        for name in (CYRILLIC, GREEK, UZBEK, ACCENTED):
            assert name in text
        assert "How the ties were split" in text


def test_the_same_printout_from_the_service(logged: Logged, tmp_path: Path) -> None:
    with running_server(logged.db, ManualTime(), settings=HALL) as server:
        for ident, what in ((logged.playoff_id, "bracket"), (logged.event_id, "standings")):
            out = tmp_path / f"{what}.pdf"
            run = playoff("print", ident, what, "--service", server.base_url,
                          "--token", logged.arbiter, "-o", str(out))
            assert run.returncode == 0, run.stderr
            pdf.assert_on_paper(out.read_bytes(), "A4")
        text = pdf.text((tmp_path / "bracket.pdf").read_bytes())
        assert "Schedule (the hall's time, UTC+5)" in text
        assert f"17:00–18:00 Seeds 2 v 3 (reg. 7) · game 1 {CYRILLIC} – {GREEK} G/25+5 in play" \
            in text
        refused = playoff("print", logged.playoff_id, "placings", "--service", server.base_url,
                          "--token", logged.arbiter, "-o", str(tmp_path / "p.pdf"))
        assert refused.returncode == 2
        assert unwrapped("printed once the play-off has its champion") in unwrapped(
            refused.stderr
        )
        assert not (tmp_path / "p.pdf").exists()


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["slips", "-o", "x.pdf"], "say where the play-off is read"),
        (["slips", "-o", "x.pdf", "--service", "http://127.0.0.1:9"],
         "--service needs a token of the event"),
        (["cards", "--game", "1", "--match", "1", "-o", "x.pdf", "--db", "{db}"],
         "one game is printed on a result slip only"),
        (["slips", "--game", "1", "-o", "x.pdf", "--db", "{db}"], "say the game's match too"),
        (["bracket", "--match", "1", "-o", "x.pdf", "--db", "{db}"],
         "one match is printed on slips or a card only"),
        (["slips", "--match", "9", "-o", "x.pdf", "--db", "{db}"], "there is no match 9"),
        (["slips", "-o", "x.pdf", "--db", "{missing}"], "no such file"),
        (["slips", "-o", "x.pdf", "--db", "{notes}"], "not an SQLite event log"),
        (["placings", "-o", "x.pdf", "--db", "{db}"], "once the play-off has its champion"),
    ],
)
def test_a_refusal_says_why_and_writes_nothing(
    logged: Logged, tmp_path: Path, args: list[str], words: str
) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("the arbiters' notes, not a log\n" * 100)
    filled = [
        a.replace("{db}", str(logged.db)).replace("{missing}", str(tmp_path / "none.db"))
        .replace("{notes}", str(notes)).replace("x.pdf", str(tmp_path / "x.pdf"))
        for a in args
    ]
    run = playoff("print", logged.playoff_id, *filled)
    assert run.returncode == 2
    assert unwrapped(words) in unwrapped(run.stderr)
    assert not (tmp_path / "x.pdf").exists()
    assert not (tmp_path / "none.db").exists()


def test_an_unknown_id_names_the_play_offs_of_the_log(logged: Logged, tmp_path: Path) -> None:
    run = playoff("print", "nosuch", "slips", "--db", str(logged.db), "-o", str(tmp_path / "x"))
    assert run.returncode == 2
    assert unwrapped(f"its play-offs: {logged.playoff_id}") in unwrapped(run.stderr)


MODULES_LOADED = (
    "print(sorted(m for m in ('fastapi', 'uvicorn', 'starlette', 'apscheduler', "
    "'weasyprint', 'orchestrator.printing', 'orchestrator.app') if m in sys.modules), "
    "file=sys.stderr)\n"
)
"""A probe's last line: which of the service's and the printouts' modules it loaded."""


def test_printing_is_loaded_by_the_print_command_alone(logged: Logged, tmp_path: Path) -> None:
    """The other commands never load WeasyPrint; `playoff print` loads it, and still
    none of the web service."""
    probe = "import sys, orchestrator.cli.main\n" + MODULES_LOADED
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          cwd=ROOT, check=True, timeout=60)
    assert done.stderr.strip() == "[]"
    out = tmp_path / "cards.pdf"
    probe = (
        "import sys\nfrom orchestrator.cli.entry import main\ntry:\n"
        f"    main(['print', {logged.playoff_id!r}, 'cards', '--db', {str(logged.db)!r}, "
        f"'-o', {str(out)!r}])\n"
        "except SystemExit as stop:\n    assert not stop.code, stop.code\n" + MODULES_LOADED
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stderr.strip().splitlines()[-1] == "['orchestrator.printing', 'weasyprint']"
    assert pdf.text(out.read_bytes()).count("Board 1") >= 1


def test_a_log_of_an_older_schema_is_refused_not_brought_up_to_date(tmp_path: Path) -> None:
    """Bringing a log up to date is writing to it: the service's to do, not a printout's."""
    db = tmp_path / "old.db"
    db.write_bytes((ROOT / "tests" / "data" / "legacy" / "playoff-log-2d46fb4.db").read_bytes())
    before = digest(db)
    run = playoff("print", "id004", "slips", "--db", str(db), "-o", str(tmp_path / "x.pdf"))
    assert run.returncode == 2
    assert unwrapped("event log schema version 1, not this program's") in unwrapped(run.stderr)
    assert unwrapped("serve it once with this program") in unwrapped(run.stderr)
    assert digest(db) == before


def test_a_printout_in_the_language_asked_for(logged: Logged, tmp_path: Path) -> None:
    out = tmp_path / "slips.pdf"
    run = playoff("print", logged.playoff_id, "slips", "--db", str(logged.db), "--lang",
                  "en-XA", "-o", str(out))
    assert run.returncode == 0, run.stderr
    text = pdf.text(out.read_bytes())
    assert pseudo("Result slip") in text and "Result slip" not in text
    # The hall's dates with the language's names of the days and months.
    run = playoff("print", logged.playoff_id, "slips", "--db", str(logged.db), "--lang", "es",
                  "-o", str(out))
    assert run.returncode == 0, run.stderr
    assert "sábado, 28 de junio de 2025" in pdf.text(out.read_bytes())
    with running_server(logged.db, ManualTime(), settings=HALL) as server:
        run = playoff("print", logged.event_id, "standings", "--service", server.base_url,
                      "--token", logged.arbiter, "--lang", "en-XA", "-o", str(out))
        assert run.returncode == 0, run.stderr
    assert pseudo("Standings") in pdf.text(out.read_bytes())


def test_a_language_the_service_does_not_speak_is_refused(logged: Logged, tmp_path: Path) -> None:
    run = playoff("print", logged.playoff_id, "slips", "--db", str(logged.db), "--lang", "xx",
                  "-o", str(tmp_path / "x.pdf"))
    assert run.returncode == 2
    assert unwrapped("--lang xx: not a language the service speaks; it speaks en, es, fr, de, "
                     "ru, en-XA") in unwrapped(run.stderr)
    assert not (tmp_path / "x.pdf").exists()
