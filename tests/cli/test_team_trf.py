"""`playoff standings FILE --regulation R`: a TRF with team records is a team event for a
team regulation, the individual event of its players for any other."""

from __future__ import annotations

import json
from pathlib import Path

from playoff_formats.io.json_event import load_event
from playoff_formats.regulations.custom import regulation_from_text
from tests.support.cli import playoff, playoff_process, unwrapped
from tests.support.gacrux import team_event, team_swiss_unplayed

TEAM_SWISS = 'name = "team-swiss"\nscore = "{score}"\npairing = "swiss"\ncriteria = {codes}\n'


def write(folder: Path, name: str, text: str) -> str:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_a_team_swiss_from_its_trf_ranks_as_its_team_json(tmp_path: Path) -> None:
    trf, document = team_swiss_unplayed(31, 11, 4, 7, trf2026=True)
    for score, codes in (("MP", '["GP", "EDE", "BH", "SB"]'), ("GP", '["MP", "BH:MP", "BC"]')):
        regulation = TEAM_SWISS.format(score=score, codes=codes)
        done = playoff_process(
            "standings", write(tmp_path, "league.trf", trf),
            "--regulation", write(tmp_path, "team.toml", regulation), "--format", "json",
        )
        assert done.returncode == 0, done.stderr
        table = json.loads(done.stdout)
        expected = regulation_from_text(regulation, "team.toml").standings(
            load_event(document, "league.json")  # type: ignore[arg-type]
        )
        assert [(r["id"], r["rank"], r["score"]) for r in table["standings"]] == [
            (r.id, r.rank, r.score) for r in expected.rows
        ]
        assert table["standings"][0]["name"].startswith("Team ")


def test_the_table_names_the_teams_and_explains_the_ties(tmp_path: Path) -> None:
    trf, _ = team_event(3, 8, 4, None, False)  # a round robin of eight teams, TRF16
    done = playoff(
        "standings", write(tmp_path, "league.trf", trf), "--regulation",
        write(tmp_path, "t.toml", 'name = "league"\nscore = "MP"\ncriteria = ["GP", "DE"]\n'),
    )
    assert done.returncode == 0, done.stderr
    assert "Teams are ranked by match points, then by the criteria in order." in done.stdout
    assert "Team 1" in done.stdout and "Player0001" not in done.stdout


def test_an_individual_regulation_ranks_the_players_as_before(tmp_path: Path) -> None:
    trf, _ = team_event(3, 8, 4, None, False)
    done = playoff("standings", write(tmp_path, "league.trf", trf), "--format", "json")
    assert done.returncode == 0, done.stderr
    rows = json.loads(done.stdout)["standings"]
    assert len(rows) == 32 and rows[0]["name"].startswith("Player")


def test_a_bridge_regulation_is_refused_in_words(tmp_path: Path) -> None:
    trf, _ = team_event(3, 8, 4, None, False)
    done = playoff("standings", write(tmp_path, "league.trf", trf), "-r", "ebu-143.7")
    assert done.returncode == 2
    assert "ebu-143.7 ranks bridge team events; this file is a chess team event" in (
        " ".join(done.stderr.split())
    )


def test_team_records_that_cannot_be_read_are_refused_with_line_and_column(
    tmp_path: Path,
) -> None:
    trf, _ = team_event(3, 8, 4, None, False)
    # Team 2 lists player 1, already Team 1's.
    broken = trf.replace(f"013 {'Team 2':<32}   5", f"013 {'Team 2':<32}   1")
    assert broken != trf
    path = write(tmp_path, "league.trf", broken)
    done = playoff("standings", path, "-r", write(
        tmp_path, "t.toml", 'name = "league"\nscore = "MP"\ncriteria = ["GP"]\n'
    ))
    assert done.returncode == 2
    said = unwrapped(done.stderr)
    assert unwrapped("line 37, column 37: player 1 is already in team 1 (Team 1, line 36)") in said
    assert Path(path).read_text(encoding="utf-8") == broken
