"""Before the last round: which results force a play-off, and how likely it is.

The counts are checked against a brute force written here apart: every outcome
of the pending games written into the event's JSON as finished results, read by
the ordinary reader and ranked by the regulation's ordinary standings.
"""

from __future__ import annotations

import json
import math
from itertools import product
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from playoff_formats.foresight import (
    DRAW_RATES,
    OutcomeModel,
    PendingGame,
    foresee,
    minimal_cover,
    parse_event_with_pending,
)
from playoff_formats.io.json_event import parse_json_event
from playoff_formats.regulations import get_regulation
from playoff_formats.regulations.custom import regulation_from_text
from tests.support import ROOT
from tests.support.cli import playoff
from tests.support.foresight import DE_TRF

UZCHESS = ROOT / "tests" / "data" / "uzchess-cup-masters-2025.json"
RESULTS = ("1-0", "1/2-1/2", "0-1")


def before_round(data: dict[str, Any], last: int) -> dict[str, Any]:
    """The event as it stood before round ``last``: its games pending ("*")."""
    data = json.loads(json.dumps(data))
    for game in data["games"]:
        if game["round"] >= last:
            game["result"] = "*"
            game.pop("ended_at", None)
    return data


def brute_force(data: dict[str, Any], regulation: Any) -> dict[str, Any]:
    """Every outcome played into the document and ranked the ordinary way."""
    pending = [i for i, g in enumerate(data["games"]) if g["result"] == "*"]
    first: dict[str, int] = {}
    in_playoff: dict[str, int] = {}
    playoffs = 0
    for results in product(RESULTS, repeat=len(pending)):
        finished = json.loads(json.dumps(data))
        for i, result in zip(pending, results, strict=True):
            finished["games"][i]["result"] = result
        standings = regulation.standings(parse_json_event(json.dumps(finished)))
        if standings.playoff:
            playoffs += 1
            for pid in standings.playoff:
                in_playoff[pid] = in_playoff.get(pid, 0) + 1
        elif len(standings.groups[0]) == 1:
            pid = standings.groups[0][0]
            first[pid] = first.get(pid, 0) + 1
    return {"outcomes": 3 ** len(pending), "playoffs": playoffs, "first": first,
            "in_playoff": in_playoff}


def counts(result: Any) -> dict[str, Any]:
    return {
        "outcomes": result.outcomes,
        "playoffs": result.playoff_outcomes,
        "first": {p.id: p.first_alone for p in result.players if p.first_alone},
        "in_playoff": {p.id: p.in_playoff for p in result.players if p.in_playoff},
    }


def uzchess_before_round_9() -> dict[str, Any]:
    return before_round(json.loads(UZCHESS.read_text(encoding="utf-8")), 9)


# --------------------------------------------------------------------------- the UzChess Cup


def test_the_uzchess_cup_before_its_last_round_agrees_with_the_brute_force() -> None:
    data = uzchess_before_round_9()
    event, pending = parse_event_with_pending(json.dumps(data))
    assert len(pending) == 5 and {g.round for g in pending} == {9}
    gct = get_regulation("gct2015")
    result = foresee(event, pending, gct)
    assert result.exact
    assert counts(result) == brute_force(data, gct)
    # GCT 2015 reg. 2: a tie for first is a play-off, so every outcome has either a
    # play-off or a winner alone.
    alone = sum(p.first_alone for p in result.players)
    assert alone + result.playoff_outcomes == result.outcomes == 243


def test_the_conditions_say_exactly_the_play_off_outcomes_in_words() -> None:
    data = uzchess_before_round_9()
    event, pending = parse_event_with_pending(json.dumps(data))
    result = foresee(event, pending, get_regulation("gct2015"))
    # Round 9 as it was played: Abdusattorov-Praggnanandhaa drawn, Sindarov beat
    # Maghsoodloo: the three-way tie of the real event.
    assert result.conditions == (
        "A play-off for first is needed if Abdusattorov draws with Praggnanandhaa R "
        "and Sindarov beats Maghsoodloo.",
        "A play-off for first is needed if Praggnanandhaa R beats Abdusattorov "
        "and Maghsoodloo does not lose to Sindarov.",
    )


def test_a_regulation_without_a_play_off_lets_the_tie_breaks_decide() -> None:
    """Under FIDE criteria a tie for first is split by them: nobody plays off, and a
    player separated by the tie-breaks is first alone."""
    data = uzchess_before_round_9()
    data["regulation"] = "gct2015"
    fide = regulation_from_text('name = "fide"\ncriteria = ["WON", "DE", "SB"]\n', "fide.toml")
    event, pending = parse_event_with_pending(json.dumps(data))
    result = foresee(event, pending, fide)
    assert result.playoff_outcomes == 0
    assert counts(result) == brute_force(data, fide)


# --------------------------------------------------------------------------- the model


def test_probabilities_follow_davidson_on_elo_strengths() -> None:
    model = OutcomeModel(draw_rate=0.5, white_advantage=0)
    equal = model.chances(PendingGame(1, "a", "b"), {"a": 2700, "b": 2700})
    assert equal == pytest.approx((0.25, 0.5, 0.25))
    stronger = model.chances(PendingGame(1, "a", "b"), {"a": 2800, "b": 2600})
    assert stronger[0] > stronger[2] and sum(stronger) == pytest.approx(1)
    # White's edge is worth as many Elo points as it says.
    edged = OutcomeModel(draw_rate=0.5, white_advantage=200).chances(
        PendingGame(1, "a", "b"), {"a": 2600, "b": 2600})
    assert edged == pytest.approx(stronger)


def test_chances_set_by_hand_replace_the_model_for_that_game() -> None:
    data = uzchess_before_round_9()
    event, pending = parse_event_with_pending(json.dumps(data))
    game = pending[0]
    # Abdusattorov certain to beat Praggnanandhaa: he is first alone in every outcome.
    model = OutcomeModel(by_hand={(game.white, game.black): (1.0, 0.0, 0.0)})
    result = foresee(event, pending, get_regulation("gct2015"), model)
    assert result.probability == pytest.approx(0)
    leader = next(p for p in result.players if p.id == game.white)
    assert leader.p_first_alone == pytest.approx(1)
    assert "set by hand" in result.model
    with pytest.raises(ValueError, match="add up to 1"):
        OutcomeModel(by_hand={("a", "b"): (0.5, 0.5, 0.5)})


def test_beyond_the_exact_limit_the_sample_estimates_the_counts() -> None:
    data = uzchess_before_round_9()
    event, pending = parse_event_with_pending(json.dumps(data))
    gct = get_regulation("gct2015")
    exact = foresee(event, pending, gct)
    sampled = foresee(event, pending, gct, exact_limit=10, sample=20_000)
    assert not sampled.exact and sampled.sample == 20_000 and sampled.error is not None
    # Within four standard errors, as shares of the outcomes and as probabilities.
    assert abs(sampled.playoff_outcomes - exact.playoff_outcomes) / 243 < 4 * sampled.error
    assert abs(sampled.probability - exact.probability) < 4 * sampled.error
    assert "sample" in sampled.to_json() and "error" in sampled.to_json()


# --------------------------------------------------------------------------- properties


def small_event(draws: list[int], pending_count: int) -> dict[str, Any]:
    """A six-player round robin of five rounds: rounds from ``6 - pending_count`` on
    pending, earlier results from ``draws`` (0 1-0, 1 draw, 2 0-1)."""
    players = "ABCDEF"
    # The circle method: five rounds of three games.
    rounds = []
    ring = list(players[1:])
    for _ in range(5):
        pairs = [(players[0], ring[0]), (ring[1], ring[4]), (ring[2], ring[3])]
        rounds.append(pairs)
        ring = ring[1:] + ring[:1]
    games = []
    k = 0
    for number, pairs in enumerate(rounds, start=1):
        for white, black in pairs:
            pending = number > 5 - pending_count
            result = "*" if pending else RESULTS[draws[k % len(draws)]]
            k += 1
            games.append({"round": number, "white": white, "black": black, "result": result})
    return {
        "name": "Six",
        "regulation": "gct2015",
        "players": [{"id": p, "name": f"Player {p}", "rating": 2600 + 20 * i}
                    for i, p in enumerate(players)],
        "games": games,
    }


EVENTS = st.builds(
    small_event,
    st.lists(st.integers(0, 2), min_size=12, max_size=12),
    st.integers(1, 2),
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(EVENTS, st.floats(0.0, 0.9))
def test_probabilities_sum_to_one(data: dict[str, Any], draw_rate: float) -> None:
    event, pending = parse_event_with_pending(json.dumps(data))
    result = foresee(event, pending, get_regulation("gct2015"), OutcomeModel(draw_rate=draw_rate))
    alone = sum(p.p_first_alone for p in result.players)
    assert alone + result.probability == pytest.approx(1)
    # A play-off has at least two players, each counted in it.
    assert sum(p.p_in_playoff for p in result.players) >= 2 * result.probability - 1e-9


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(EVENTS, st.permutations(range(6)))
def test_counts_depend_on_neither_the_order_nor_the_labels_of_players(
    data: dict[str, Any], order: list[int]
) -> None:
    event, pending = parse_event_with_pending(json.dumps(data))
    result = foresee(event, pending, get_regulation("gct2015"))
    relabel = {p["id"]: f"x{order[i]}" for i, p in enumerate(data["players"])}
    other = json.loads(json.dumps(data))
    for player in other["players"]:
        player["id"] = relabel[player["id"]]
    other["players"] = [other["players"][i] for i in order]
    for game in other["games"]:
        game["white"], game["black"] = relabel[game["white"]], relabel[game["black"]]
    event2, pending2 = parse_event_with_pending(json.dumps(other))
    result2 = foresee(event2, pending2, get_regulation("gct2015"))
    assert result2.playoff_outcomes == result.playoff_outcomes
    assert result2.probability == pytest.approx(result.probability)
    by_label = {relabel[p.id]: (p.first_alone, p.in_playoff) for p in result.players}
    assert {p.id: (p.first_alone, p.in_playoff) for p in result2.players} == by_label


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(EVENTS, st.lists(st.integers(0, 2), min_size=6, max_size=6))
def test_with_every_game_fixed_it_is_the_standings_of_the_finished_event(
    data: dict[str, Any], fixed: list[int]
) -> None:
    finished = json.loads(json.dumps(data))
    pending = [g for g in finished["games"] if g["result"] == "*"]
    for game, digit in zip(pending, fixed, strict=False):
        game["result"] = RESULTS[digit]
    gct = get_regulation("gct2015")
    event, none_left = parse_event_with_pending(json.dumps(finished))
    assert none_left == ()
    result = foresee(event, none_left, gct)
    standings = gct.standings(parse_json_event(json.dumps(finished)))
    assert result.outcomes == 1 and result.probability in (0, 1)
    assert {p.id for p in result.players if p.in_playoff} == set(standings.playoff)
    alone = [p.id for p in result.players if p.first_alone]
    assert alone == ([] if standings.playoff else [standings.groups[0][0]])


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 5).flatmap(
    lambda n: st.tuples(st.just(n), st.sets(st.integers(0, 3**n - 1)))))
def test_the_cover_is_exactly_the_set_it_describes(case: tuple[int, set[int]]) -> None:
    n, on = case
    cubes = minimal_cover(on, n)
    covered: set[int] = set()
    for cube in cubes:
        for digits in product(*(sorted(v) for v in cube)):
            covered.add(int("".join(map(str, digits)) or "0", 3))
    assert covered == on
    assert len(cubes) <= len(on)


# ------------------------------------------------------------------ reading and the command


def test_a_pending_game_is_checked_like_any_other() -> None:
    data = uzchess_before_round_9()
    data["games"][-1]["black"] = "nobody"
    with pytest.raises(Exception, match=r"games\[44\]\.black"):
        parse_event_with_pending(json.dumps(data), "event.json")


def test_standings_refuse_an_event_with_pending_games_as_not_final(tmp_path: Path) -> None:
    path = tmp_path / "before.json"
    path.write_text(json.dumps(uzchess_before_round_9()), encoding="utf-8")
    run = playoff("standings", str(path))
    assert run.returncode == 2
    assert "not finished" in run.stderr and "playoff foresight" in " ".join(run.stderr.split())


def test_the_command_prints_the_json_contract(tmp_path: Path) -> None:
    path = tmp_path / "before.json"
    path.write_text(json.dumps(uzchess_before_round_9()), encoding="utf-8")
    run = playoff("foresight", str(path), "--format", "json", "--draw-rate", "0.5")
    assert run.returncode == 0, run.stderr
    data = json.loads(run.stdout)
    assert set(data) >= {"pending", "outcomes", "exact", "playoff_outcomes", "probability",
                         "model", "players", "conditions"}
    assert data["outcomes"] == 243 and data["exact"] is True and data["playoff_outcomes"] == 81
    assert "draw rate 50%" in data["model"]
    assert set(data["players"][0]) == {"id", "name", "first_alone", "in_playoff",
                                       "p_first_alone", "p_in_playoff"}
    assert math.isclose(sum(p["p_first_alone"] for p in data["players"])
                        + data["probability"], 1)


def test_the_command_table_names_the_model_and_the_conditions(tmp_path: Path) -> None:
    path = tmp_path / "before.json"
    path.write_text(json.dumps(uzchess_before_round_9()), encoding="utf-8")
    run = playoff("foresight", str(path), "--time-control", "blitz")
    assert run.returncode == 0, run.stderr
    text = " ".join(run.stdout.split())
    assert f"draw rate {DRAW_RATES['blitz']:.0%}" in text
    assert "A play-off for first in 81 of them" in text
    assert "Sindarov beats Maghsoodloo" in text


def test_a_bad_probability_is_refused_in_words(tmp_path: Path) -> None:
    path = tmp_path / "before.json"
    path.write_text(json.dumps(uzchess_before_round_9()), encoding="utf-8")
    run = playoff("foresight", str(path), "--probability", "a-b=0.5")
    assert run.returncode == 2
    assert "WHITE-BLACK=W/D/B" in run.stderr




def test_a_trf_marks_a_pending_game_with_an_asterisk_in_both_lines(tmp_path: Path) -> None:
    from playoff_formats.foresight import parse_trf_with_pending

    event, pending = parse_trf_with_pending(DE_TRF, "de.trf")
    assert [(g.round, g.white, g.black) for g in pending] == [
        (5, "1", "7"), (5, "5", "2"), (5, "8", "3"), (5, "4", "6")]
    assert len(event.games) == 16
    result = foresee(event, pending, get_regulation("gct2015"))
    # The brute force, on the JSON of the same event.
    data = {
        "name": event.name, "regulation": "gct2015",
        "players": [{"id": p.id, "name": p.name, "rating": p.rating} for p in event.players],
        "games": [{"round": g.round, "white": g.white, "black": g.black,
                   "result": g.result.value} for g in event.games]
        + [{**g.to_json(), "result": "*"} for g in pending],
    }
    assert counts(result) == brute_force(data, get_regulation("gct2015"))
    # Two players share the surname "Player": the conditions use the full names.
    assert all("Player, No" in line for line in result.conditions)
    path = tmp_path / "de.trf"
    path.write_text(DE_TRF, encoding="utf-8")
    run = playoff("foresight", str(path), "--format", "json")
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["outcomes"] == 81


def drawn_round_robin() -> dict[str, Any]:
    """Four players, three rounds, every game of rounds 1-2 drawn, round 3 pending."""
    pairs = [[("A", "B"), ("C", "D")], [("A", "C"), ("B", "D")], [("D", "A"), ("B", "C")]]
    games = [
        {"round": r, "white": w, "black": b, "result": "*" if r == 3 else "1/2-1/2"}
        for r, pairings in enumerate(pairs, start=1) for w, b in pairings
    ]
    return {"name": "Drawn", "regulation": "gct2015", "games": games,
            "players": [{"id": p, "name": f"Player {p}", "rating": 2600} for p in "ABCD"]}


def test_gct_3_a_special_prize_goes_to_a_play_off_only_when_the_tiebreaks_cannot_decide() -> None:
    """GCT 2015 reg. 3: a special prize for a position other than first goes to a play-off
    when its winner "cannot be determined by the application of the mathematical
    tiebreaks"; counted against the regulation's own standings of every outcome."""
    from playoff_formats.regulations.gct2015 import special_prize_playoffs

    data = drawn_round_robin()
    event, pending = parse_event_with_pending(json.dumps(data))
    gct = get_regulation("gct2015")
    result = foresee(event, pending, gct, special_positions=[2, 3])
    expected: dict[int, int] = {2: 0, 3: 0}
    indices = [i for i, g in enumerate(data["games"]) if g["result"] == "*"]
    for results in product(RESULTS, repeat=len(indices)):
        finished = json.loads(json.dumps(data))
        for i, r in zip(indices, results, strict=True):
            finished["games"][i]["result"] = r
        standings = gct.standings(parse_json_event(json.dumps(finished)))
        for position in expected:
            expected[position] += bool(special_prize_playoffs(standings, [position]))
    assert {p.position: p.playoff_outcomes for p in result.special_prizes} == expected
    assert expected[2] >= 1  # both last games drawn: all four level on everything
    assert "special_prizes" in result.to_json()


def test_a_special_prize_is_refused_where_the_regulation_settles_none_by_play_off() -> None:
    data = drawn_round_robin()
    event, pending = parse_event_with_pending(json.dumps(data))
    fide = regulation_from_text('name = "fide"\ncriteria = ["WON", "SB"]\n', "fide.toml")
    with pytest.raises(ValueError, match="settles no special prize"):
        foresee(event, pending, fide, special_positions=[2])
    with pytest.raises(ValueError, match="from 2 to 4"):
        foresee(event, pending, get_regulation("gct2015"), special_positions=[9])
