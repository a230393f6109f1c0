"""Play-off formats as data: the two built-in formats, the games a ladder has, the
colours of its stages, its deciders, and an organiser's own format read with clear
errors (a path and a reason)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from orchestrator.cli.files import read_playoff_format
from playoff_formats.builders.format import bracket_for, build_playoff
from playoff_formats.builders.gct import gct2015_playoff
from playoff_formats.errors import InputError, PlayoffError
from playoff_formats.formats import (
    BUILT_IN,
    GCT2015,
    Armageddon,
    ColourRule,
    DecidingLot,
    GameStage,
    Knockout,
    MatchFormat,
    PlayoffFormat,
    SuddenDeath,
)
from playoff_formats.formats.custom import format_from_text, playoff_format_schema
from playoff_formats.model import Result
from playoff_formats.playoff import (
    DecisionMethod,
    GameKind,
    MatchStatus,
    TransitionError,
    choose_decider_colours,
    correct_result,
    decide_by_lot,
    record_result,
    set_stage_colours,
)
from playoff_formats.regulations import get_regulation, playoff_format
from playoff_formats.schedule import Constraints, plan_playoff
from playoff_formats.timecontrol import TimeControl
from tests.support import DATA, ROOT
from tests.support.cli import playoff as run_playoff
from tests.support.ladder import LADDER, WORLD_CUP_ROUND

FORMATS = DATA / "formats"
D, W, B = Result.DRAW, Result.WHITE_WINS, Result.BLACK_WINS
WORLD_CUP = BUILT_IN["fide-world-cup-2015"]


def knockout_of(plays: MatchFormat) -> PlayoffFormat:
    return PlayoffFormat(
        name="club", title="Club", matches=(plays,),
        knockouts=(Knockout(players_from=2, name="Club ({n} players)", plays=plays.name),),
    )


# --------------------------------------------------------------------------- built in


def test_gct2015_as_data_builds_the_same_play_offs() -> None:
    for n in range(2, 9):
        built = build_playoff(GCT2015, [f"p{i}" for i in range(1, n + 1)],
                              playoff_id="gct2015-playoff")
        assert built == gct2015_playoff([f"p{i}" for i in range(1, n + 1)])
    assert GCT2015.player_counts() == "2 to 8"
    with pytest.raises(PlayoffError, match="2 to 8 players only; pass generic=True"):
        bracket_for(GCT2015, 9)
    assert len(bracket_for(GCT2015, 9, generic=True).rounds) == 4


def test_the_world_cup_regulation_prescribes_its_ladder_for_a_drawn_mini_match() -> None:
    from playoff_formats.io.json_event import parse_event

    event = parse_event(json.dumps(WORLD_CUP_ROUND), "round.json")
    regulation = get_regulation("fide-world-cup-2015")
    standings = regulation.standings(event)
    assert len(standings.playoff) == 2
    assert playoff_format(regulation, standings) is WORLD_CUP
    (plays,) = WORLD_CUP.matches
    assert [(s.name, str(s.time_control), s.games, s.colours) for s in plays.stages] == [
        (name, control, len(games), ColourRule.NEW_DRAWING) for name, control, games in LADDER
    ]
    decider = plays.decider
    assert isinstance(decider, Armageddon)
    assert str(decider.time_control) == "W 5' / B 4', +3 s from move 61"
    assert decider.draw_odds == "black"
    with pytest.raises(PlayoffError, match="give play-offs for 2 players only"):
        build_playoff(WORLD_CUP, ["a", "b", "c"])


def test_every_built_in_format_survives_its_own_json() -> None:
    for built in BUILT_IN.values():
        assert PlayoffFormat.model_validate_json(built.model_dump_json()) == built


# --------------------------------------------------------------------------- the ladder


def test_the_ladder_opens_each_pair_only_when_level_and_each_pair_is_drawn_anew() -> None:
    p = build_playoff(WORLD_CUP, ["a", "b"])
    assert [g.number for g in p.games] == [1, 2]
    with pytest.raises(TransitionError, match="lots for the colours of game 1"):
        record_result(p, 1, 1, D)
    p = set_stage_colours(p, 1, 1, "a", "b")
    p = record_result(record_result(p, 1, 1, W), 1, 2, W)  # 1-1
    assert [g.number for g in p.games] == [1, 2, 3, 4]
    assert p.game(1, 3).white is None  # type: ignore[union-attr]
    with pytest.raises(TransitionError, match="lots for the colours of game 3 have not been drawn"):
        record_result(p, 1, 3, D)
    with pytest.raises(TransitionError, match="lots are drawn for game 1, game 3, game 5"):
        set_stage_colours(p, 1, 4, "a", "b")
    p = set_stage_colours(p, 1, 3, "a", "b")
    assert (p.game(1, 4).white, p.game(1, 4).black) == ("b", "a")  # type: ignore[union-attr]
    p = record_result(record_result(p, 1, 3, D), 1, 4, W)  # b wins game 4 with White
    decision = p.match(1).decision
    assert decision is not None and decision.winner == "b"
    assert decision.method is DecisionMethod.REGULAR_GAMES
    assert decision.text == "b beat a 2½-1½ over four games (Rapid 25+10, Rapid 10+10)."
    # A correction that levels the match again opens the third pair.
    p = correct_result(p, 1, 4, D)
    assert p.match(1).status is MatchStatus.RUNNING
    assert [g.number for g in p.games] == [1, 2, 3, 4, 5, 6]


def test_all_pairs_drawn_then_the_armageddon_with_black_draw_odds() -> None:
    p = set_stage_colours(build_playoff(WORLD_CUP, ["a", "b"]), 1, 1, "a", "b")
    for first in (1, 3, 5):
        if first > 1:
            p = set_stage_colours(p, 1, first, "b", "a")
        p = record_result(record_result(p, 1, first, D), 1, first + 1, D)
    decider = p.game(1, 7)
    assert decider is not None and decider.kind is GameKind.ARMAGEDDON
    p = choose_decider_colours(p, 1, "a", "b")
    p = record_result(p, 1, 7, D)
    decision = p.match(1).decision
    assert decision is not None and decision.method is DecisionMethod.ARMAGEDDON_DRAW
    assert decision.winner == "b"
    with pytest.raises(TransitionError, match="already decided"):
        record_result(p, 1, 8, D)


def test_stages_that_alternate_or_reverse_take_their_colours_from_the_games_before() -> None:
    g10 = TimeControl.parse("G/10")
    for rule, second_white in ((ColourRule.ALTERNATE, "a"), (ColourRule.REVERSED, "b")):
        plays = MatchFormat(name="m", stages=(
            GameStage(name="One", games=2, time_control=g10),
            GameStage(name="Two", games=2, time_control=g10, colours=rule),
        ))
        p = set_stage_colours(build_playoff(knockout_of(plays), ["a", "b"]), 1, 1, "a", "b")
        p = record_result(record_result(p, 1, 1, D), 1, 2, D)
        # Game 2 had b White: alternate gives a White in game 3; reversed replays game 1
        # with colours swapped (b White).
        assert p.game(1, 3).white == second_white  # type: ignore[union-attr]
        assert p.game(1, 4).white != second_white  # type: ignore[union-attr]


def test_sudden_death_is_played_until_a_game_is_won() -> None:
    plays = MatchFormat(
        name="m",
        stages=(GameStage(name="Rapid", games=2, time_control=TimeControl.parse("G/15+5")),),
        decider=SuddenDeath(time_control=TimeControl.parse("G/3+2"), colours="lots"),
    )
    p = set_stage_colours(build_playoff(knockout_of(plays), ["a", "b"]), 1, 1, "a", "b")
    p = record_result(record_result(p, 1, 1, D), 1, 2, D)
    assert p.game(1, 3).kind is GameKind.SUDDEN_DEATH  # type: ignore[union-attr]
    p = set_stage_colours(p, 1, 3, "b", "a")
    p = record_result(p, 1, 3, D)
    assert p.game(1, 4) is not None and p.game(1, 4).white == "a"  # type: ignore[union-attr]
    p = record_result(p, 1, 4, B)
    decision = p.match(1).decision
    assert decision is not None and decision.method is DecisionMethod.SUDDEN_DEATH_WIN
    assert decision.winner == "b" and "sudden death game 4" in decision.text
    with pytest.raises(TransitionError, match="double forfeit"):
        record_result(correct_result(p, 1, 4, D), 1, 5, Result.DOUBLE_FORFEIT)


def test_a_lot_decides_a_level_match_and_a_correction_undoes_it() -> None:
    plays = MatchFormat(
        name="m",
        stages=(GameStage(name="Blitz", games=2, time_control=TimeControl.parse("G/5+3")),),
        decider=DecidingLot(),
    )
    p = set_stage_colours(build_playoff(knockout_of(plays), ["a", "b"]), 1, 1, "a", "b")
    with pytest.raises(TransitionError, match="no lot decides it now"):
        decide_by_lot(p, 1, "a")
    p = record_result(record_result(p, 1, 1, W), 1, 2, W)
    assert [g.number for g in p.games] == [1, 2]
    p = decide_by_lot(p, 1, "b")
    decision = p.match(1).decision
    assert decision is not None and decision.method is DecisionMethod.LOT
    assert correct_result(p, 1, 2, D).match(1).decision.winner == "a"  # type: ignore[union-attr]
    assert correct_result(correct_result(p, 1, 2, D), 1, 2, W).match(1).decision is None


def test_the_planner_places_every_stage_tentatively_with_a_break_before_each() -> None:
    from datetime import UTC, datetime, timedelta

    p = build_playoff(WORLD_CUP, ["a", "b"])
    start = datetime(2015, 9, 23, 10, tzinfo=UTC)
    breaks = WORLD_CUP.breaks
    plan = plan_playoff(p, Constraints(
        main_event_ended={"a": start, "b": start}, break_after_main_event=breaks.before,
        min_interval=breaks.interval, preferred_interval=breaks.preferred,
        stage_interval=breaks.stage_interval, stage_preferred_interval=breaks.stage_preferred,
    ))
    games = plan.games
    assert [g.game for g in games] == [1, 2, 3, 4, 5, 6, 7]
    assert [g.tentative for g in games] == [False, False, True, True, True, True, True]
    gaps = [games[i + 1].start - games[i].end for i in range(6)]
    assert gaps == [timedelta(minutes=m) for m in (10, 15, 10, 15, 10, 15)]
    assert "played only if the match is level after game 2" in games[2].reason


# --------------------------------------------------------------------------- own formats


def test_an_organisers_toml_format() -> None:
    own = read_playoff_format(str(FORMATS / "club-blitz.toml"))
    assert own.name == "club-blitz-2026"
    assert own.player_counts() == "2 or more"
    (plays,) = own.matches
    assert plays.summary() == (
        "2 games G/10+5, then Armageddon W 5' / B 4', +2 s (draw: Black wins)"
    )
    assert read_playoff_format("fide-world-cup-2015") is WORLD_CUP


@pytest.mark.parametrize(("change", "where", "why"), [
    (('"G/10+5"', '"G/ten"'), "matches[0].stages[0].time_control", "is not a time control"),
    (("games = 2", "games = 0"), "matches[0].stages[0].games", "greater than or equal to 1"),
    (('plays = "blitz"', 'plays = "rapid"'), "knockouts[0].plays",
     "'rapid' is no match format (known: 'blitz')"),
    (('colours = "lots"', 'colours = "alternate"'), "matches[0]",
     "the first stage's colours cannot be 'alternate'"),
    (('draw_odds = "black"', 'draw_odds = "red"'), "matches[0].decider.draw_odds",
     "'white' or 'black'"),
    (("between_games_preferred = 5", "between_games_preferred = 1"), "breaks",
     "between_games_preferred is shorter than between_games"),
    (("players_from = 2", "players_from = 2\nrounds = 3"), "knockouts[0].rounds",
     "unknown key 'rounds'"),
])
def test_a_bad_format_is_refused_with_its_path_and_reason(
    change: tuple[str, str], where: str, why: str
) -> None:
    text = (FORMATS / "club-blitz.toml").read_text()
    assert change[0] in text
    with pytest.raises(InputError) as caught:
        format_from_text(text.replace(*change, 1), "club.toml")
    assert caught.value.path == where
    assert why in caught.value.reason


def test_syntax_errors_give_the_line_and_column() -> None:
    with pytest.raises(InputError) as caught:
        format_from_text('name = "x"\n[[matches]\n', "own.toml")
    assert (caught.value.line, caught.value.column) == (2, 10)
    with pytest.raises(InputError, match="line 1, column 2"):
        format_from_text("{,}", "own.json")
    with pytest.raises(InputError, match=r"\.toml or a \.json"):
        format_from_text("", "own.yaml")


def test_the_schema_describes_a_format_document() -> None:
    schema = playoff_format_schema()
    assert schema["title"] == "Play-off format"
    assert {"name", "title", "matches"} <= set(schema["required"])
    run = run_playoff("schema", "--playoff-format")
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout) == schema


def test_bracket_prints_the_ladder_of_any_format(tmp_path: Path) -> None:
    event = tmp_path / "round.json"
    event.write_text(json.dumps(WORLD_CUP_ROUND))
    run = run_playoff("bracket", str(event))
    assert run.returncode == 0, run.stderr
    text = " ".join(run.stdout.split())
    assert "Rapid 25+10: games 1-2 at G/25+10 (a new drawing of colours)" in text
    assert "Blitz 5+3: games 5-6 at G/5+3" in text
    assert "then, if level: Armageddon at W 5' / B 4', +3 s from move 61" in text
    data = json.loads(run_playoff("bracket", str(event), "--format", "json").stdout)
    assert data["format"]["name"] == "fide-world-cup-2015"
    assert [s["time_control"] for s in data["matches"][0]["ladder"]["stages"]] == [
        "G/25+10", "G/10+10", "G/5+3"
    ]
    regulation = tmp_path / "club.toml"
    table = (FORMATS / "club-blitz.toml").read_text()
    table = table.replace("[[matches]]", "[[playoff.matches]]").replace(
        "[[knockouts]]", "[[playoff.knockouts]]").replace("[breaks]", "[playoff.breaks]")
    head, _, rest = table.partition("[[playoff.matches]]")
    head = "\n".join(f"playoff.{line}" if "=" in line else line for line in head.splitlines())
    regulation.write_text(
        'name = "club-open"\ncriteria = ["DE", "WIN"]\nplayoff_for_first = true\n'
        + head + "\n[[playoff.matches]]" + rest
    )
    uzchess = DATA / "uzchess-cup-masters-2025.json"
    run = run_playoff("bracket", str(uzchess), "--regulation", str(regulation))
    assert run.returncode == 0, run.stderr
    text = " ".join(run.stdout.split())
    assert "Blitz: games 1-2 at G/10+5 (colours by lot)" in text
    assert "(bye)" in text
    run = run_playoff("bracket", str(uzchess), "--playoff-format", "nonesuch")
    assert run.returncode == 2
    assert "no built-in play-off format 'nonesuch'" in " ".join(run.stderr.split())


def test_the_documented_formats_are_the_built_in_ones() -> None:
    """docs/formats.md gives both built-in formats as documents an organiser could copy."""
    docs = (ROOT / "docs" / "formats.md").read_text()
    blocks = docs.split("```toml\n")[1:]
    for built in BUILT_IN.values():
        documented = next(b.split("```")[0] for b in blocks if f'name = "{built.name}"' in b)
        assert format_from_text(documented, f"{built.name}.toml") == built
    own = next(b.split("```")[0] for b in blocks if 'name = "club-blitz-2026"' in b)
    assert format_from_text(own, "club.toml") == read_playoff_format(
        str(FORMATS / "club-blitz.toml")
    ).model_copy(update={"input": "a tie for first place"})
