"""Custom regulations read from TOML or JSON: the list of FIDE C.07 codes, and
every refusal with where it happened."""

from __future__ import annotations

import pytest

from playoff_formats.errors import InputError
from playoff_formats.regulations.custom import regulation_from_text
from playoff_formats.tiebreaks.catalogue import CODES
from playoff_formats.tiebreaks.fide import (
    Buchholz,
    DirectEncounter,
    SonnebornBerger,
    Wins,
)
from tests.support.events import swiss

CLUB_OPEN = """\
name = "club-open-2026"
title = "Club Open 2026"
criteria = ["DE", "WIN", "BH-C1", "BH", "SB"]
playoff_for_first = false
"""


def refusal(text: str, filename: str) -> InputError:
    with pytest.raises(InputError) as caught:
        regulation_from_text(text, filename)
    return caught.value


def test_toml_gives_the_codes_in_order_as_labels() -> None:
    regulation = regulation_from_text(CLUB_OPEN, "club.toml")
    assert regulation.name == "club-open-2026"
    assert regulation.title == "Club Open 2026"
    assert not regulation.playoff_for_first
    assert [c.label for c in regulation.criteria] == ["DE", "WIN", "BH-C1", "BH", "SB"]
    assert isinstance(regulation.criteria[0].criterion, DirectEncounter)
    assert isinstance(regulation.criteria[1].criterion, Wins)
    cut = regulation.criteria[2].criterion
    assert isinstance(cut, Buchholz) and cut.cut == 1


def test_json_with_defaults_and_a_round_robin() -> None:
    text = '{"name": "rr", "criteria": ["sb", " DE "], "pairing": "round-robin",\n'
    text += ' "playoff_for_first": true, "unresolved": "they share the prize"}'
    regulation = regulation_from_text(text, "RR.JSON")
    assert regulation.title == "rr"  # the name, when there is no title
    assert regulation.playoff_for_first
    assert regulation.unresolved == "they share the prize"
    assert [c.label for c in regulation.criteria] == ["SB", "DE"]
    sb = regulation.criteria[0].criterion
    assert isinstance(sb, SonnebornBerger) and sb.pairing == "round-robin"


def test_standings_trace_each_step_by_its_code() -> None:
    # The Swiss of tests/rules/test_fide_criteria.py: A and E on 3, C and F on 1½.
    # DE: A beat E. C and F never met (not applied), then WIN: F 1, C 0.
    regulation = regulation_from_text(CLUB_OPEN, "club.toml")
    standings = regulation.standings(swiss())
    assert [s.label for s in standings.steps] == ["DE", "DE", "WIN"]
    assert standings.ranks == {"A": 1, "E": 2, "B": 3, "F": 4, "C": 5, "D": 6}
    assert standings.explanation[2].startswith("DE results between the tied players:")


def test_standings_by_buchholz_cut_1_from_json() -> None:
    # BH-C1: A 6½ against E 5½; F 6½ against C 6.
    text = '{"name": "cut", "criteria": ["BH-C1", "SB-C1"]}'
    standings = regulation_from_text(text, "cut.json").standings(swiss())
    assert [s.label for s in standings.steps] == ["BH-C1", "BH-C1"]
    assert standings.row("A").tiebreaks["buchholz_cut1"] == 6.5
    assert standings.ranks == {"A": 1, "E": 2, "B": 3, "F": 4, "C": 5, "D": 6}


def test_toml_syntax_error_gives_line_and_column() -> None:
    error = refusal('name = "x"\ncriteria = ["DE",, "WIN"]\n', "bad.toml")
    assert (error.source, error.line, error.column) == ("bad.toml", 2, 18)
    assert error.reason.startswith("TOML syntax:")


def test_toml_syntax_error_at_the_end_of_the_file() -> None:
    error = refusal('name = "x"\ncriteria = ["DE",', "bad.toml")
    assert (error.line, error.column) == (2, 18)


def test_json_syntax_error_gives_line_and_column() -> None:
    error = refusal('{"name": "x",\n "criteria": [DE]}', "bad.json")
    assert (error.source, error.line, error.column) == ("bad.json", 2, 15)
    assert error.reason.startswith("JSON syntax:")


def test_unknown_code_names_its_place_and_the_known_codes() -> None:
    error = refusal('name = "x"\ncriteria = ["DE", "WIN", "BHC1"]\n', "club.toml")
    assert error.path == "criteria[2]"
    assert "'BHC1'" in error.reason
    assert all(code in error.reason for code in CODES)
    assert error.describe().startswith("club.toml, criteria[2]: unknown tie-break code")


@pytest.mark.parametrize("missing", ["name", "criteria"])
def test_missing_name_or_criteria(missing: str) -> None:
    document = {"name": '"x"', "criteria": '["DE"]'}
    del document[missing]
    text = "".join(f"{k} = {v}\n" for k, v in document.items())
    error = refusal(text, "club.toml")
    assert error.path == missing
    assert error.reason == f"missing {missing!r}"


@pytest.mark.parametrize(
    ("text", "path", "words"),
    [
        ('name = "x"\ncriteria = "DE"\n', "criteria", "must be a list"),
        ('name = "x"\ncriteria = []\n', "criteria", "names no tie-break"),
        ('name = "x"\ncriteria = ["DE", 3]\n', "criteria[1]", "the number 3"),
        ('name = 7\ncriteria = ["DE"]\n', "name", "must be a string"),
        ('name = "  "\ncriteria = ["DE"]\n', "name", "must not be empty"),
        (
            'name = "x"\ncriteria = ["DE"]\nplayoff_for_first = "no"\n',
            "playoff_for_first",
            "true or false",
        ),
        ('name = "x"\ncriteria = ["DE"]\npairing = "knockout"\n', "pairing", "'knockout'"),
        (
            'name = "x"\ncriteria = ["DE"]\nplayoff_for_frist = true\n',
            "playoff_for_frist",
            "unknown key",
        ),
    ],
)
def test_wrong_values_are_refused_where_they_are(text: str, path: str, words: str) -> None:
    error = refusal(text, "club.toml")
    assert error.path == path
    assert words in error.reason


def test_a_code_listed_twice_is_refused_except_direct_encounter() -> None:
    error = refusal('name = "x"\ncriteria = ["BH", "SB", "bh"]\n', "club.toml")
    assert error.path == "criteria[2]"
    assert "criteria[0]" in error.reason
    regulation = regulation_from_text('name = "x"\ncriteria = ["DE", "BH", "DE"]\n', "ok.toml")
    assert [c.label for c in regulation.criteria] == ["DE", "BH", "DE"]


def test_buchholz_is_refused_in_a_round_robin() -> None:
    # C.07 Art. 8, note (2026): Buchholz must not be used in round robins.
    text = 'name = "x"\ncriteria = ["DE", "BH-C1"]\npairing = "round-robin"\n'
    error = refusal(text, "club.toml")
    assert error.path == "criteria[1]"
    assert "round robin" in error.reason


def test_a_json_document_that_is_not_an_object() -> None:
    error = refusal('["DE", "WIN"]', "list.json")
    assert error.source == "list.json"
    assert "a list" in error.reason


def test_a_file_that_is_neither_toml_nor_json() -> None:
    error = refusal(CLUB_OPEN, "club.yaml")
    assert error.source == "club.yaml"
    assert ".toml" in error.reason and ".json" in error.reason
