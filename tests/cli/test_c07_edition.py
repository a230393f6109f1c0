"""The edition of FIDE C.07 the standings apply, in words, through ``playoff standings``.

The 2024 edition came into force on 1 April 2024 (FIDE's announcement of 19 January
2024). An event that started on or after that day is told the edition in force; an
older one is ranked by the same edition, the earliest implemented, and is told that
it came into force after the event started, never that it was in force then.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.cli import playoff, playoff_process, unwrapped

TRF = (
    "012 Club Swiss\n042 {start}\n"
    "001    1 m    Alpha, A                          2000 ENG    10000001 2000/01/01  1.0"
    "    1     2 w 1\n"
    "001    2 m    Beta, B                           1900 ENG    10000002 2000/01/01  0.0"
    "    2     1 b 0\n"
)
REGULATION = 'name = "club-swiss"\ntitle = "Club Swiss"\ncriteria = ["BH", "SB"]\n'

IN_FORCE = (
    "The FIDE tie-break rules applied are those of the 2024 edition of C.07 (in force "
    "from 1 April 2024): the event started on {day}."
)
EARLIEST = (
    "The FIDE tie-break rules applied are those of the 2024 edition of C.07, the earliest "
    "edition implemented: the event started on {day}, before that edition came into "
    "force on 1 April 2024."
)


def files(tmp_path: Path, start: str) -> tuple[str, str]:
    event = tmp_path / "club.trf"
    event.write_text(TRF.format(start=start), encoding="utf-8")
    regulation = tmp_path / "club-swiss.toml"
    regulation.write_text(REGULATION, encoding="utf-8")
    return str(event), str(regulation)


@pytest.mark.parametrize(
    ("start", "said"),
    [
        ("2025/11/20", IN_FORCE.format(day="20 November 2025")),
        ("2024/04/01", IN_FORCE.format(day="1 April 2024")),
        ("2024/03/31", EARLIEST.format(day="31 March 2024")),
        ("2010/09/24", EARLIEST.format(day="24 September 2010")),
    ],
)
def test_the_standings_say_which_edition_is_applied_and_why(
    tmp_path: Path, start: str, said: str
) -> None:
    event, regulation = files(tmp_path, start)
    run = playoff("standings", event, "--regulation", regulation, "--format", "json")
    assert run.returncode == 0, run.stderr
    explanation = json.loads(run.stdout)["explanation"]
    assert explanation[0] == said
    # The table says the same, above the steps.
    table = playoff("standings", event, "--regulation", regulation)
    assert table.returncode == 0, table.stderr
    assert unwrapped(said) in unwrapped(table.stdout)


def test_an_event_of_2010_is_never_told_the_2024_edition_was_in_force(tmp_path: Path) -> None:
    event, regulation = files(tmp_path, "2010/09/24")
    run = playoff_process("standings", event, "--regulation", regulation)
    assert run.returncode == 0, run.stderr
    said = " ".join(run.stdout.split())
    assert "the earliest edition implemented" in said
    assert "the event started on 24 September 2010, before that edition came into force" in said
    assert "(in force from" not in said
