"""``playoff standings`` is read without the option parser; everything else goes to
the full command line, which answers as before."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from orchestrator.cli.entry import plain_standings
from tests.support import ROOT
from tests.support.cli import playoff

UZCHESS = str(ROOT / "tests" / "data" / "uzchess-cup-masters-2025.json")


@pytest.mark.parametrize(
    ("args", "read"),
    [
        (["standings", "e.trf"], {"file": "e.trf", "format": "table"}),
        (["standings", "e.trf", "-f", "json"], {"file": "e.trf", "format": "json"}),
        (["standings", "--format=json", "e.trf", "--regulation", "r.toml"],
         {"file": "e.trf", "format": "json", "regulation": "r.toml"}),
        (["standings", "e.trf", "-r", "gct2015", "--format", "table"],
         {"file": "e.trf", "format": "table", "regulation": "gct2015"}),
        # Everything else is the full command line's to answer.
        (["standings"], None),
        (["standings", "--help"], None),
        (["standings", "e.trf", "--format", "xml"], None),
        (["standings", "e.trf", "--format"], None),
        (["standings", "e.trf", "f.trf"], None),
        (["standings", "e.trf", "-r", "a", "-r", "b"], None),
        (["standings", "e.trf", "--regulation", "--format"], None),
        (["prizes", "e.trf"], None),
        ([], None),
    ],
)
def test_only_a_plain_standings_call_is_read_apart(
    args: list[str], read: dict[str, str] | None
) -> None:
    assert plain_standings(args) == read


@pytest.mark.parametrize("format", ["json", "table"])
def test_the_program_prints_what_the_full_command_line_prints(format: str) -> None:
    program = subprocess.run(
        [sys.executable, "-m", "orchestrator.cli.entry", "standings", UZCHESS, "-f", format],
        capture_output=True, text=True, cwd=ROOT, timeout=60, env={"COLUMNS": "80", "PATH": ""},
    )
    full = playoff("standings", UZCHESS, "--format", format)
    assert program.returncode == full.returncode == 0, program.stderr
    assert program.stdout == full.stdout
    assert "Sindarov" in program.stdout


def test_a_refusal_is_the_same_error_on_both_paths(tmp_path: Path) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text('{"name": "x", "players": []}', encoding="utf-8")
    program = subprocess.run(
        [sys.executable, "-m", "orchestrator.cli.entry", "standings", str(broken)],
        capture_output=True, text=True, cwd=ROOT, timeout=60, env={"COLUMNS": "80", "PATH": ""},
    )
    full = playoff("standings", str(broken))
    assert program.returncode == full.returncode == 2
    assert " ".join(program.stderr.split()) == " ".join(full.stderr.split())
    assert "players" in program.stderr


def test_the_standings_load_neither_the_option_parser_nor_the_service() -> None:
    probe = (
        "import sys\n"
        "from orchestrator.cli.entry import main\n"
        "try:\n"
        f"    main(['standings', {UZCHESS!r}, '-f', 'json'])\n"
        "except SystemExit as stop:\n"
        "    assert stop.code == 0, stop.code\n"
        "print(sorted(m for m in ('typer', 'click', 'fastapi', 'pydantic', 'orchestrator.cli.main')"
        " if m in sys.modules), file=sys.stderr)\n"
    )
    run = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         cwd=ROOT, timeout=60)
    assert run.returncode == 0, run.stderr
    # A JSON event is validated by its models (pydantic); nothing else is loaded.
    assert run.stderr.strip().splitlines()[-1] == "['pydantic']"


def test_anything_else_goes_to_the_full_command_line() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "orchestrator.cli.entry", "standings", "--help"],
        capture_output=True, text=True, cwd=ROOT, timeout=60, env={"COLUMNS": "80", "PATH": ""},
    )
    assert run.returncode == 0
    assert "Compute the standings and explain every tie split" in run.stdout


@pytest.mark.parametrize("event", ["uzchess-cup-masters-2025.json", "county-example-iii.json"])
def test_the_plain_console_writes_what_rich_writes(
    event: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    import io

    from rich.console import Console

    from orchestrator.cli.files import read_event, resolve_regulation
    from orchestrator.cli.tables import PlainConsole, print_standings

    monkeypatch.setenv("COLUMNS", "72")
    loaded = read_event(ROOT / "tests" / "data" / event)
    rules = resolve_regulation(None, loaded)
    result = rules.standings(loaded)
    by_rich, by_plain = io.StringIO(), io.StringIO()
    print_standings(Console(file=by_rich, width=72), result, loaded.name, rules)
    print_standings(PlainConsole(by_plain), result, loaded.name, rules)
    assert by_plain.getvalue() == by_rich.getvalue()
    assert "How the ties were split" in by_plain.getvalue()


def test_the_json_text_reads_back_as_the_same_data() -> None:
    import json

    from orchestrator.cli.entry import json_text
    from orchestrator.cli.files import read_event, resolve_regulation

    loaded = read_event(ROOT / "tests" / "data" / "uzchess-cup-masters-2025.json")
    data = resolve_regulation(None, loaded).standings(loaded).to_json()
    data["empty"], data["odd"] = [], {"ü": ["a\nb", None, 1.5]}
    text = json_text(data)
    assert json.loads(text) == data
    # A player's row on a line of its own.
    assert sum(1 for line in text.splitlines() if '"rank": ' in line) == len(data["standings"])


@pytest.mark.parametrize("width", [20, 40, 78])
def test_explanations_wrap_at_spaces_as_textwrap_does_without_breaking_names(width: int) -> None:
    import textwrap

    from orchestrator.cli.tables import wrapped

    text = ("Vachier-Lagrave, Abdusattorov and Praggnanandhaa R are tied on 5½ points for "
            "places 1-3. Supercalifragilisticexpialidocious-Wordsworth stays whole.")
    ours = wrapped(text, width, "  ", "    ")
    assert ours == textwrap.fill(text, width, initial_indent="  ", subsequent_indent="    ",
                                 break_on_hyphens=False, break_long_words=False)
    assert "Vachier-Lagrave," in ours.replace("\n", " ")
    assert all(len(line) <= width for line in ours.splitlines() if " " in line.strip())
