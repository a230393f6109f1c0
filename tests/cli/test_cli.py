"""The ``playoff`` command line: standings, prizes, schema, demo and its errors."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.support import DATA, ROOT
from tests.support.cli import playoff
from tests.support.events import ABDU, PRAGG, SINDAROV

UZCHESS = DATA / "uzchess-cup-masters-2025.json"


def test_standings_json_contract() -> None:
    run = playoff("standings", str(UZCHESS), "--format", "json")
    assert run.returncode == 0, run.stderr
    data = json.loads(run.stdout)
    assert data["regulation"] == "gct2015"
    top = data["standings"][:3]
    assert [r["id"] for r in top] == [PRAGG, ABDU, SINDAROV]
    assert [r["playoff"] for r in data["standings"]].count(True) == 3
    assert top[0]["tiebreaks"] == {
        "wins": 4, "sonneborn_berger": 25.25, "koya": [3.5], "direct_encounter": 1
    }
    assert any("Sindarov is third: 3 wins against 4." in s for s in data["explanation"])


def test_standings_table_shows_explanation() -> None:
    run = playoff("standings", str(UZCHESS))
    assert run.returncode == 0, run.stderr
    assert "Praggnanandhaa R" in run.stdout
    assert "Sindarov is third: 3 wins against 4." in run.stdout


def test_demo_shows_standings_and_seeding() -> None:
    run = playoff("demo", "--no-serve")
    assert run.returncode == 0, run.stderr
    assert "UzChess Cup Masters 2025" in run.stdout
    assert "1 Praggnanandhaa R, 2 Abdusattorov, 3 Sindarov" in run.stdout


def test_prizes_json_awaiting_the_playoff() -> None:
    run = playoff(
        "prizes", str(UZCHESS), "--prizes", "100000,50000,30000,20000",
        "--points", "13,10,8,7", "--format", "json",
    )
    assert run.returncode == 0, run.stderr
    data = json.loads(run.stdout)
    players = {p["id"]: p for p in data["players"]}
    assert players[PRAGG]["money"] is None
    assert data["awaiting_playoff"] == [PRAGG, ABDU, SINDAROV]
    # Erigaisi alone on 5: fourth, 20000 and 7 points.
    assert players["35009192"]["money"] == 20000
    assert players["35009192"]["points"] == 7


def test_prizes_json_with_the_playoff_winner() -> None:
    run = playoff(
        "prizes", str(UZCHESS), "--prizes", "100000,50000,30000",
        "--points", "13,10,8", "--playoff-winner", ABDU, "--format", "json",
    )
    assert run.returncode == 0, run.stderr
    players = {p["id"]: p for p in json.loads(run.stdout)["players"]}
    assert (players[ABDU]["money"], players[ABDU]["points"]) == (100000, 13)
    assert (players[PRAGG]["money"], players[PRAGG]["points"]) == (40000, 10)
    assert (players[SINDAROV]["money"], players[SINDAROV]["points"]) == (40000, 8)


def test_prizes_refuses_a_winner_outside_the_playoff() -> None:
    run = playoff("prizes", str(UZCHESS), "--prizes", "1,1", "--playoff-winner", "738590")
    assert run.returncode == 2
    said = " ".join(run.stderr.split())
    # Names, not FIDE ids.
    assert "is not in the play-off; the play-off players are Praggnanandhaa R, " in said
    assert "Abdusattorov, Nodirbek and Sindarov, Javokhir" in said
    assert PRAGG not in said and "Traceback" not in said


def test_the_playoff_winner_is_named_by_a_unique_part_of_the_name() -> None:
    run = playoff(
        "prizes", str(UZCHESS), "--prizes", "100000,50000,30000", "--playoff-winner",
        "sindarov", "--format", "json",
    )
    assert run.returncode == 0, run.stderr
    players = {p["id"]: p for p in json.loads(run.stdout)["players"]}
    assert players[SINDAROV]["place"] == 1 and players[SINDAROV]["money"] == 100000
    assert players[SINDAROV]["basis_text"] == "won the play-off"
    assert players[ABDU]["basis"] == "play-off-loser"
    ambiguous = playoff("prizes", str(UZCHESS), "--prizes", "1,1", "--playoff-winner", "ov")
    assert ambiguous.returncode == 2
    assert "give more of the name" in " ".join(ambiguous.stderr.split())


def test_prizes_refuses_a_bad_amount() -> None:
    run = playoff("prizes", str(UZCHESS), "--prizes", "100000,lots")
    assert run.returncode == 2
    assert "--prizes: item 2 ('lots') is not a non-negative number" in run.stderr


def test_schema_is_a_json_schema_of_the_event_format() -> None:
    run = playoff("schema")
    assert run.returncode == 0, run.stderr
    schema = json.loads(run.stdout)
    assert "players" in json.dumps(schema)
    assert "1/2-1/2" in json.dumps(schema)


def test_missing_file_is_a_clear_error(tmp_path: Path) -> None:
    run = playoff("standings", str(tmp_path / "nope.json"))
    assert run.returncode == 2
    assert "no such file" in run.stderr
    assert "Traceback" not in run.stderr


def test_bad_json_names_line_and_column(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"name": "x",\n  "kind": "individual",\n  "players": [}\n')
    run = playoff("standings", str(bad))
    assert run.returncode == 2
    assert "line 3" in run.stderr
    assert "Traceback" not in run.stderr


def test_unknown_regulation_is_refused() -> None:
    run = playoff("standings", str(UZCHESS), "--regulation", "fide1900")
    assert run.returncode == 2
    assert "unknown regulation 'fide1900'" in run.stderr


def test_trf_input(tmp_path: Path) -> None:
    trf = tmp_path / "rr.trf"
    lines = [
        "012 Little Round Robin",
        "001    1 m    Alpha, Ann                        2100 ENG    10000001 1990/01/01  1.5    1"
        "     2 w 1  0000 - Z     3 b =",
        "001    2 m    Beta, Bob                         2000 ENG    10000002 1990/01/01  1.0    2"
        "     1 b 0     3 w 1  0000 - Z",
        "001    3 m    Gamma, Cy                         1900 ENG    10000003 1990/01/01  0.5    3"
        "  0000 - Z     2 b 0     1 w =",
    ]
    trf.write_text("\n".join(lines) + "\n")
    run = playoff("standings", str(trf), "--format", "json")
    assert run.returncode == 0, run.stderr
    data = json.loads(run.stdout)
    assert [r["id"] for r in data["standings"]] == ["1", "2", "3"]
    assert data["standings"][0]["name"] == "Alpha, Ann"


def test_custom_regulation_file(tmp_path: Path) -> None:
    regulation = tmp_path / "club.toml"
    regulation.write_text(
        'name = "club-2026"\ntitle = "Club 2026"\ncriteria = ["SB", "WON"]\n'
        'pairing = "round-robin"\n'
    )
    run = playoff("standings", str(UZCHESS), "--regulation", str(regulation), "--format", "json")
    assert run.returncode == 0, run.stderr
    data = json.loads(run.stdout)
    assert data["regulation"] == "club-2026"
    # Sonneborn-Berger first: 25.25, 22.5, 22.25 orders the three leaders.
    assert [r["id"] for r in data["standings"][:3]] == [PRAGG, ABDU, SINDAROV]
    assert not any(r["playoff"] for r in data["standings"])
    assert data["steps"][0]["label"] == "SB"


def test_custom_regulation_file_with_an_unknown_code(tmp_path: Path) -> None:
    regulation = tmp_path / "bad.toml"
    regulation.write_text('name = "x"\ncriteria = ["SB", "XYZ"]\n')
    run = playoff("standings", str(UZCHESS), "--regulation", str(regulation))
    assert run.returncode == 2
    assert "criteria[1]" in run.stderr
    assert "Traceback" not in run.stderr


def test_team_event_standings() -> None:
    run = playoff("standings", str(DATA / "county-example-iii.json"), "--format", "json")
    assert run.returncode == 0, run.stderr
    data = json.loads(run.stdout)
    assert data["regulation"] == "county1980"
    assert [r["id"] for r in data["standings"]] == ["B", "C", "A"]
    assert [r["score"] for r in data["standings"]] == [2, 2, 2]
    assert data["standings"][0]["tiebreaks"]["rule_2"] == 2
    assert any(
        "Rule 2: Lancashire v Yorkshire is still drawn on board count 31–31" in line
        for line in data["explanation"]
    )


def test_bracket_json_for_three_tied_players() -> None:
    run = playoff("bracket", str(UZCHESS), "--format", "json")
    assert run.returncode == 0, run.stderr
    data = json.loads(run.stdout)
    first, final = data["matches"]
    # GCT 2015 reg. 7: the two lowest seeds play first; the winner meets seed 1.
    assert (first["round"], first["seeds"], first["feeds"]) == (1, [2, 3], [])
    assert (final["round"], final["seeds"], final["feeds"]) == (2, [1], [first["id"]])
    assert first["time_control"] == final["time_control"] == "G/25+5"
    assert first["decider"] == "W 6' / B 5', +3 s from move 61"
    assert data["seeding_ties"] == []


def test_bracket_without_a_tie_for_first(tmp_path: Path) -> None:
    event = json.loads(UZCHESS.read_text(encoding="utf-8"))
    for game in event["games"]:
        if game["round"] == 1 and game["black"] == PRAGG:  # a draw, now a win
            game["result"] = "0-1"
    clear = tmp_path / "clear.json"
    clear.write_text(json.dumps(event))
    run = playoff("bracket", str(clear))
    assert run.returncode == 2
    assert "there is no play-off" in run.stderr


def test_extra_boards_standard_and_hubert_phillips() -> None:
    run = playoff("extra-boards", "--scheduled", "20")
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["boards"] == 3
    assert json.loads(run.stdout)["stanzas"] == [3]
    run = playoff("extra-boards", "--scheduled", "48", "--event", "hubert-phillips-bowl")
    data = json.loads(run.stdout)
    assert (data["boards"], data["stanzas"]) == (6, [2, 2, 2])
    run = playoff("extra-boards", "--scheduled", "0")
    assert run.returncode == 2


def test_extra_boards_event_typo_lists_the_known_values() -> None:
    run = playoff("extra-boards", "--scheduled", "48", "--event", "hubert-philips-bowl")
    assert run.returncode == 2
    message = " ".join(run.stderr.split())
    assert "--event: 'hubert-philips-bowl' is not a competition" in message
    assert "known: hubert-phillips-bowl" in message
    assert "Traceback" not in run.stderr
    assert run.stdout == ""
    # Written as people write it, it is the same competition.
    run = playoff("extra-boards", "--scheduled", "48", "--event", "Hubert Phillips_Bowl")
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["stanzas"] == [2, 2, 2]


# --------------------------------------------------------------------------- tables


def _header_and_rows(stdout: str) -> tuple[list[str], dict[str, list[str]]]:
    """A table's header cells and each row's cells, by the name in its second column."""
    # Plain tables (│ between columns) and rich's boxed ones (┃ header, │ around rows).
    lines = [
        line.replace("┃", "│").strip().strip("│")
        for line in stdout.splitlines() if "│" in line or "┃" in line
    ]
    cells = [c.strip() for c in lines[0].split("│")]
    rows: dict[str, list[str]] = {}
    for line in lines[1:]:
        row = [c.strip() for c in line.split("│")]
        rows[row[1]] = row
    return cells, rows


def test_standings_columns_follow_the_regulation_and_mark_what_was_not_applied(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    run = playoff("standings", str(UZCHESS))
    assert run.returncode == 0, run.stderr
    header, rows = _header_and_rows(run.stdout)
    # GCT 2015 reg. 4: (a) wins, (b) direct encounter, (c) Sonneborn-Berger, (d) Koya.
    assert header == [
        "Rank", "Name", "Score", "wins", "direct encounter", "sonneborn berger", "koya",
        "Play-off",
    ]
    # Sindarov was third on wins: the direct encounter was never applied to him.
    assert rows["Sindarov, Javokhir"][3:7] == ["3", "—", "22.25", "3"]
    assert rows["Praggnanandhaa R"][3:7] == ["4", "1", "25.25", "3.5"]
    assert "— not applied" in run.stdout
    assert "How the ties were split" in run.stdout


def test_no_tie_no_empty_heading(tmp_path: Path) -> None:
    players = [{"id": p, "name": f"Player {p}"} for p in "ABC"]
    games = [
        {"round": 1, "white": "A", "black": "B", "result": "1-0"},
        {"round": 2, "white": "C", "black": "A", "result": "0-1"},
        {"round": 3, "white": "B", "black": "C", "result": "1-0"},
    ]
    event = tmp_path / "clear.json"
    event.write_text(json.dumps({"name": "No ties", "players": players, "games": games}))
    run = playoff("standings", str(event))
    assert run.returncode == 0, run.stderr
    assert "Player A" in run.stdout
    assert "How the ties were split" not in run.stdout


def test_team_table_puts_the_rules_in_their_order(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    run = playoff("standings", str(DATA / "county-example-iii.json"))
    assert run.returncode == 0, run.stderr
    header, _ = _header_and_rows(run.stdout)
    assert header[3:] == ["game points", "rule 1", "rule 2", "Play-off"]


def test_prize_money_reads_with_thousands_and_no_currency_unless_given(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    prizes = "100000,50000,30000,20000,15000,10000,8000"
    run = playoff("prizes", str(UZCHESS), "--prizes", prizes)
    assert run.returncode == 0, run.stderr
    out = " ".join(run.stdout.split())
    assert "undivided first prize of 100,000, each loser 40,000." in out
    assert "3 players receive 11,000 each" in out
    assert "100000.0" not in out
    _, rows = _header_and_rows(run.stdout)
    assert rows["Erigaisi Arjun"][3] == "20,000"
    assert rows["Vokhidov, Shamsiddin"][3] == "0"

    run = playoff("prizes", str(UZCHESS), "--prizes", prizes, "--currency", "USD")
    out = " ".join(run.stdout.split())
    assert "undivided first prize of USD 100,000, each loser USD 40,000." in out
    _, rows = _header_and_rows(run.stdout)
    assert rows["Erigaisi Arjun"][3] == "USD 20,000"

    # Cents appear when some amount has them, and then on every amount.
    run = playoff("prizes", str(UZCHESS), "--prizes", "100000,50000,30000.50,20000",
                  "--currency", "$")
    _, rows = _header_and_rows(run.stdout)
    assert rows["Erigaisi Arjun"][3] == "$20,000.00"
    assert "each loser $40,000.25." in " ".join(run.stdout.split())


# --------------------------------------------------------------------------- the documentation


def _doc_examples() -> list[str]:
    text = (ROOT / "docs" / "formats.md").read_text(encoding="utf-8")
    return re.findall(r"```json\n(.*?)```", text, re.S)


def test_the_formats_document_has_examples_of_every_kind() -> None:
    kinds = [(json.loads(e)["kind"], json.loads(e)["regulation"]) for e in _doc_examples()]
    assert kinds == [
        ("individual", "gct2015"), ("team", "county1980"), ("team", "ebu-143.7")
    ]


@pytest.mark.parametrize("index", range(3))
def test_every_json_example_in_the_formats_document_ranks(tmp_path: Path, index: int) -> None:
    example = tmp_path / "example.json"
    example.write_text(_doc_examples()[index], encoding="utf-8")
    run = playoff("standings", str(example), "--format", "json")
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["standings"]
