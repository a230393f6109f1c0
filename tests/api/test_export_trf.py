"""The play-off's games for the rating report, over a real server: the FIDE World Cup
2015 tie-break ladder played to its Armageddon, exported as TRF16 and TRF-2026, a
file per rating list, read back by the project's TRF reader and by Gacrux with the
same results; the Armageddon (unequal times) in no list, and said so."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from playoff_formats.io.trf import parse_trf_document, read_trf
from playoff_formats.tiebreaks.index import EventIndex
from playoff_formats.values import Result
from tests.support.display import JSON, Playoff, SkippableTime, ok
from tests.support.gacrux import gacrux_or_skip, run_gacrux
from tests.support.ladder import ANAND, GIRI, WORLD_CUP_ROUND
from tests.support.server import RunningServer, running_server

PLAYERS = {
    ANAND: {"fide_id": "5000017", "title": "GM", "federation": "IND"},
    GIRI: {"fide_id": "24116068", "title": "GM", "federation": "NED"},
}


def world_cup_with_fide_ids() -> str:
    event: dict[str, Any] = json.loads(json.dumps(WORLD_CUP_ROUND))
    for player in event["players"]:
        player.update(PLAYERS[player["id"]])
    return json.dumps(event)


def play(playoff: Playoff, number: int, result: str) -> None:
    playoff.rest(40)
    playoff.game(1, number, "start")
    playoff.game(1, number, "result", {"result": result})


@pytest.fixture(scope="module")
def ladder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Playoff]:
    """The ladder played out: 1-1 in each rapid stage and the blitz, then the
    Armageddon drawn: Giri, Black with the draw odds, goes through."""
    db: Path = tmp_path_factory.mktemp("ratings") / "log.db"
    with running_server(db, SkippableTime()) as server:
        with server.client() as anonymous:
            created = ok(anonymous.post(
                "/api/events", content=world_cup_with_fide_ids().encode(), headers=JSON
            ))
        token = created["chief_token"]
        with server.client(token) as chief:
            made = ok(chief.post(f"/api/events/{created['id']}/playoff", json={}))
        playoff = Playoff(server, made["id"], token, "")
        results = {1: "1/2-1/2", 2: "1/2-1/2", 3: "1-0", 4: "1-0", 5: "0-1", 6: "0-1"}
        for first, white in ((1, ANAND), (3, GIRI), (5, ANAND)):
            playoff.post("/matches/1/lots", {"method": "physical", "white": white})
            play(playoff, first, results[first])
            play(playoff, first + 1, results[first + 1])
        playoff.post("/matches/1/coin-toss", {"method": "physical", "winner": GIRI})
        playoff.post("/matches/1/armageddon-colours", {"white": ANAND, "black": GIRI})
        play(playoff, 7, "1/2-1/2")
        yield playoff


def export(playoff: Playoff, token: str | None = None, **query: str) -> httpx.Response:
    with playoff.server.client(token or playoff.token) as http:
        return http.get(f"/api/playoffs/{playoff.id}/export.trf", params=query)


def ok_json(playoff: Playoff, path: str) -> dict[str, Any]:
    with playoff.server.client(playoff.token) as http:
        body: dict[str, Any] = ok(http.get(f"/api/playoffs/{playoff.id}{path}"))
    return body


def text_of(playoff: Playoff, **query: str) -> str:
    answer = export(playoff, **query)
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"].startswith("text/plain")
    assert "attachment" in answer.headers["content-disposition"]
    return answer.text


@pytest.mark.parametrize("edition", ["16", "2026"])
def test_each_rating_list_reads_back_with_the_games_played(
    ladder: Playoff, edition: str
) -> None:
    rapid = parse_trf_document(text_of(ladder, pool="rapid", trf=edition), "rapid.trf")
    blitz = parse_trf_document(text_of(ladder, pool="blitz", trf=edition), "blitz.trf")
    seeds = ok_json(ladder, "")["participants"]
    first = next(p["id"] for p in seeds if p["seed"] == 1)
    # Starting ranks follow the seeds (the two were level: seeded by lot).
    expected = {
        ANAND: ("Anand, Viswanathan", "5000017", "IND", "GM", 2803),
        GIRI: ("Giri, Anish", "24116068", "NED", "GM", 2798),
    }
    ids = {"1": first, "2": GIRI if first == ANAND else ANAND}
    for document in (rapid, blitz):
        players = {p.id: (p.name, p.fide_id, p.federation, p.title, p.rating)
                   for p in document.event.players}
        assert players == {number: expected[pid] for number, pid in ids.items()}
        assert document.header.start_date is not None
        assert len(document.header.round_dates) == document.header.rounds
    played = [(g.round, ids[g.white], ids[g.black], g.result) for g in rapid.event.games]
    assert played == [
        (1, ANAND, GIRI, Result.DRAW), (2, GIRI, ANAND, Result.DRAW),
        (3, GIRI, ANAND, Result.WHITE_WINS), (4, ANAND, GIRI, Result.WHITE_WINS),
    ]
    played = [(g.round, ids[g.white], ids[g.black], g.result) for g in blitz.event.games]
    assert played == [(1, ANAND, GIRI, Result.BLACK_WINS), (2, GIRI, ANAND, Result.BLACK_WINS)]
    assert rapid.header.allotted_time == "G/10+10; G/25+10"
    if edition == "2026":
        assert blitz.header.time_control == "300+3"  # record 222
        assert rapid.header.time_control is None  # two controls: no one record 222


def test_the_files_say_what_they_are_and_what_is_left_out(ladder: Playoff) -> None:
    text = text_of(ladder, pool="blitz")
    comments = [line for line in text.splitlines() if line.startswith("###")]
    assert comments[0].startswith(
        "### The play-off of FIDE World Cup 2015, round 4: its blitz games"
    )
    assert "### Ranks: the final places of the play-off." in comments
    assert any(
        line.startswith("### Not in any list: match 1, game 7 (Armageddon): White and Black "
                        "have different times") for line in comments
    )
    # The final ranks: Giri went through on the Armageddon's draw odds.
    ranks = {line[14:47].strip(): line[85:89].strip() for line in text.splitlines()
             if line.startswith("001")}
    assert ranks == {"Anand, Viswanathan": "2", "Giri, Anish": "1"}


def test_gacrux_reads_the_same_results(ladder: Playoff, tmp_path: Path) -> None:
    gacrux_or_skip()
    for edition in ("16", "2026"):
        for pool in ("rapid", "blitz"):
            text = text_of(ladder, pool=pool, trf=edition)
            index = EventIndex.of(read_trf(text, "report.trf"))
            theirs = run_gacrux(text, ["PTS", "WIN", "WON", "BPG", "BWG"], "swiss", tmp_path)
            for player, rounds in index.rounds_of.items():
                ours = [
                    index.scores[player],
                    sum(1 for r in rounds if r.points == 1.0),
                    sum(1 for r in rounds if r.won_over_the_board),
                    sum(1 for r in rounds if r.colour is not None and r.colour.value == "black"),
                    sum(1 for r in rounds if r.colour is not None and r.colour.value == "black"
                        and r.points == 1.0),
                ]
                assert [float(v) for v in theirs[player]] == ours, (edition, pool, player)


def test_a_stage_alone_and_its_list(ladder: Playoff) -> None:
    document = parse_trf_document(text_of(ladder, stage="rapid 10+10"), "stage.trf")
    assert [g.result for g in document.event.games] == [Result.WHITE_WINS, Result.WHITE_WINS]
    assert "stage Rapid 10+10" in text_of(ladder, stage="Rapid 10+10").splitlines()[1]


def test_what_cannot_be_exported_is_refused_in_words(ladder: Playoff) -> None:
    both = export(ladder)
    assert both.status_code == 422
    assert "games for the rapid and blitz lists, each reported apart: choose one with pool" in (
        both.json()["detail"][0]["msg"]
    )
    assert both.json()["detail"][0]["loc"] == ["query", "pool"]
    unknown = export(ladder, stage="Classical")
    assert unknown.status_code == 422
    assert unknown.json()["detail"][0]["msg"] == (
        "the play-off has no stage 'Classical'; its stages: Rapid 25+10, Rapid 10+10, "
        "Blitz 5+3, Armageddon"
    )
    armageddon = export(ladder, stage="Armageddon")
    assert armageddon.status_code == 409
    assert "no game of the play-off is for a rating list yet" in armageddon.json()["detail"]
    assert export(ladder, pool="standard", stage="Blitz 5+3").status_code == 422
    assert export(ladder, trf="17").status_code == 422


def test_a_broadcast_key_does_not_read_it(ladder: Playoff) -> None:
    server: RunningServer = ladder.server
    with server.client(ladder.token) as http:
        event_id = ok(http.get(f"/api/playoffs/{ladder.id}"))["event_id"]
        key = ok(http.post(f"/api/events/{event_id}/tokens", json={"role": "broadcast"}))
    assert export(ladder, token=key["token"], pool="rapid").status_code == 403
