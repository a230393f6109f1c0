"""The ``playoff`` command line: standings, prizes, schema, demo and its errors."""

from __future__ import annotations

import json
from pathlib import Path

from tests.cli import playoff

DATA = Path(__file__).parent / "data"
UZCHESS = DATA / "uzchess-cup-masters-2025.json"
PRAGG, ABDU, SINDAROV = "25059530", "14204118", "14205483"


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
    assert "not in the play-off" in run.stderr
    assert "Traceback" not in run.stderr


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
