"""No text rewrites a game record: names, an organiser's decider name and rules, and
decision texts are written into the PGN as the PGN standard allows (8.1.1), and
control characters are refused in names at upload.

python-chess 1.11 reads tag values without undoing the standard's escapes: the tests
read the tags with python-chess and decode the escapes themselves.
"""

from __future__ import annotations

import io
import json
import re
from datetime import timedelta
from pathlib import Path
from typing import Any

import chess.pgn
import pytest

from orchestrator.cli.files import read_playoff_format
from orchestrator.core.pgn import comment_text, tag_value
from orchestrator.core.timesource import ManualTime
from tests.support import DATA
from tests.support.events import ABDU, SINDAROV, UZCHESS, uzchess_json
from tests.support.ladder import create
from tests.support.server import running_server
from tests.support.ws import ok

FORMATS = DATA / "formats"
JSON = {"Content-Type": "application/json"}

HOSTILE_ABDU = 'Abdusattorov"] [WhiteElo "3999'
HOSTILE_SINDAROV = 'Sindarov \\"} {" \\\\'
DECIDER_NAME = 'Arma"geddon ] [Result "1-0'
DRAW_RULE = 'club rule "7" \\ }'


def decoded(value: str) -> str:
    """A tag value as the PGN standard means it: ``\\"`` is ``"``, ``\\\\`` is ``\\``."""
    return re.sub(r"\\(.)", r"\1", value)


def test_tag_values_and_comments_are_written_as_the_standard_allows() -> None:
    assert tag_value('a "b" \\ c') == 'a \\"b\\" \\\\ c'
    assert tag_value("line\nbreak\ttab\x00nul") == "line break tab nul"
    assert decoded(tag_value(HOSTILE_ABDU)) == HOSTILE_ABDU
    assert comment_text("wins } on { time\n") == "wins ) on ( time "


def test_names_and_an_organisers_texts_cannot_rewrite_the_pgn(tmp_path: Path) -> None:
    data = json.loads(uzchess_json(ended_at=None))
    names = {ABDU: HOSTILE_ABDU, SINDAROV: HOSTILE_SINDAROV}
    for player in data["players"]:
        player["name"] = names.get(player["id"], player["name"])
    own = read_playoff_format(str(FORMATS / "club-blitz.toml")).model_dump(mode="json")
    decider = own["matches"][0]["decider"]
    decider["name"] = DECIDER_NAME
    decider["draw_rule"] = DRAW_RULE
    clock = ManualTime()
    with running_server(tmp_path / "log.db", clock) as server:
        playoff_id, chief, _, _ = create(server, json.dumps(data), format=own)
        with server.client(chief) as http:
            def send(**command: Any) -> None:
                ok(http.post(f"/api/playoffs/{playoff_id}/commands", json=command))

            clock.advance(timedelta(minutes=15))
            send(type="lots", match=2, method="physical", white=ABDU)
            for number, result in ((1, "1-0"), (2, "1-0")):
                send(type="start-clock", match=2, game=number)
                clock.advance(timedelta(minutes=20))
                send(type="result", match=2, game=number, result=result)
                clock.advance(timedelta(minutes=5))
            send(type="coin-toss", match=2, method="physical", winner=SINDAROV)
            send(type="armageddon-colours", match=2, white=ABDU, black=SINDAROV)
            send(type="start-clock", match=2, game=3)
            clock.advance(timedelta(minutes=10))
            send(type="result", match=2, game=3, result="1/2-1/2")
            answer = http.get(f"/api/playoffs/{playoff_id}/pgn")
    assert answer.status_code == 200, answer.text
    games = []
    text = io.StringIO(answer.text)
    while (game := chess.pgn.read_game(text)) is not None:
        games.append(game)
    assert len(games) == 3
    for game in games:
        tags = dict(game.headers)
        # The seven tags, the service's own, once each: nothing added by a name.
        assert set(tags) <= {
            "Event", "Site", "Date", "Round", "White", "Black", "Result", "TimeControl",
            "PlayoffTimeControl", "PlayoffStage", "Armageddon", "Termination",
        }, tags
        assert "WhiteElo" not in tags and list(game.headers).count("Result") == 1
        assert {decoded(tags["White"]), decoded(tags["Black"])} == {HOSTILE_ABDU, HOSTILE_SINDAROV}
        assert tags["Result"] in ("1-0", "0-1", "1/2-1/2")
    armageddon = games[2]
    assert decoded(armageddon.headers["Armageddon"]) == (
        f"A draw means Black wins ({DRAW_RULE})"
    )
    assert armageddon.headers["Result"] == "1/2-1/2"
    # The decision, in a comment that no brace of a name can end early.
    comment = armageddon.comment
    assert DRAW_RULE.replace("}", ")") in comment  # whole: python-chess dropped nothing
    assert "{" not in comment and "}" not in comment
    movetext = "".join(line for line in answer.text.splitlines() if not line.startswith("["))
    assert movetext.count("{") == movetext.count("}") == 1  # the one comment, whole


@pytest.mark.parametrize("name", [
    'Sindarov"]\n[WhiteElo "3999"]', "Tab\there", "Nul\x00", "Escape\x1b[31m",
    "Override\u202emoc.evil", "Line\u2028separator", "C1\x85control",
])
def test_control_characters_in_names_are_refused_at_upload(tmp_path: Path, name: str) -> None:
    data = json.loads(UZCHESS.read_text(encoding="utf-8"))
    data["players"][1]["name"] = name
    with running_server(tmp_path / "log.db", ManualTime()) as server, server.client() as http:
        refused = http.post("/api/events", content=json.dumps(data), headers=JSON)
        assert refused.status_code == 422
        (problem,) = refused.json()["detail"]
        assert problem["loc"][-3:] == ["players", 1, "name"]
        assert "no control characters" in problem["msg"]
        assert not server.service._events
    # The same in a TRF line: refused with its line and column.
    trf = f"012 {name}\n"
    with running_server(tmp_path / "log2.db", ManualTime()) as server, server.client() as http:
        refused = http.post(
            "/api/events", content=trf.encode(), headers={"Content-Type": "text/plain"}
        )
        assert refused.status_code == 422, refused.text
