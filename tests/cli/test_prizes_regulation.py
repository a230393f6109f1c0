"""``playoff prizes`` divides money by GCT 2015 reg. 1 only under a regulation that
says so: under any other it refuses, instead of applying one text's rule to all."""

from __future__ import annotations

from pathlib import Path

from playoff_formats.regulations import get_regulation, prize_rule, regulation_names
from playoff_formats.regulations.custom import regulation_from_text
from tests.support import DATA
from tests.support.cli import playoff

UZCHESS = DATA / "uzchess-cup-masters-2025.json"
COUNTY = DATA / "county-example-iii.json"


def test_only_gct2015_says_how_prize_money_is_divided() -> None:
    # GCT 2015 reg. 1; no other text at hand speaks of prize money.
    rules = {n: prize_rule(get_regulation(n)) for n in regulation_names()}
    assert {n: r for n, r in rules.items() if r} == {"gct2015": "GCT 2015 reg. 1"}
    # A file that calls itself gct2015 is still a list of codes, not the GCT text.
    impostor = regulation_from_text('name = "gct2015"\ncriteria = ["WIN"]\n', "x.toml")
    assert prize_rule(impostor) is None


def test_prizes_under_gct2015_reg_1() -> None:
    run = playoff("prizes", str(UZCHESS), "--prizes", "100000,50000,30000", "--format", "json")
    assert run.returncode == 0, run.stderr


def test_prizes_refused_under_a_regulation_without_prizes(tmp_path: Path) -> None:
    run = playoff("prizes", str(COUNTY), "--prizes", "100,50")
    assert run.returncode == 2
    assert "county1980 says nothing of prize money" in run.stderr
    # The regulations that do are read from their data, not written into the command.
    assert "the regulations that do: gct2015" in " ".join(run.stderr.split())
    assert "Traceback" not in run.stderr
    club = tmp_path / "club.toml"
    club.write_text('name = "club"\ncriteria = ["WIN", "BH"]\n', encoding="utf-8")
    run = playoff("prizes", str(UZCHESS), "--prizes", "100,50", "--regulation", str(club))
    assert run.returncode == 2
    assert "club says nothing of prize money" in run.stderr
