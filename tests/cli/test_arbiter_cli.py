"""``playoff-arbiter``: commands for scripts, and ``watch``, against the real server."""

from __future__ import annotations

import json
from pathlib import Path

from orchestrator.cli.demo import demo_event_at
from orchestrator.core.timesource import ManualTime
from tests.support.arbiter import (
    arbiter,
    playoff_of,
    two_way_tie,
)
from tests.support.server import running_server


def three_way_tie() -> str:
    """The demo event: three tied for first, so a play-off of two matches."""
    return demo_event_at(ManualTime().now()).model_dump_json(exclude_none=True)




def test_commands_and_watch(tmp_path: Path) -> None:
    with playoff_of(tmp_path, three_way_tie()) as po:
        po.logged(po.run("lots", po.id, "--match", "1"), "lots-drawn")
        start = po.run("start", po.id, "-m", "1", "-g", "1", "--id", "go", "--json")
        assert start.returncode == 0, start.stderr
        ack = json.loads(start.stdout)
        assert ack["ack"] == "go"
        assert len(ack["seqs"]) == 1
        again = po.run("start", po.id, "-m", "1", "-g", "1", "--id", "go", "--json")
        assert json.loads(again.stdout) == json.loads(start.stdout)  # applied once
        wrong = po.run("press", po.id, "black", "1", "-m", "1")
        assert wrong.returncode == 1
        assert wrong.stderr.startswith("refused: ")
        po.logged(po.run("press", po.id, "white", "1", "-m", "1"), "clock-pressed")
        # Without a move number, the server counts: Black's move 1, then White's move 2.
        for side in ("black", "white"):
            po.logged(po.run("press", po.id, side, "-m", "1"), "clock-pressed")
        moves = po.chief.get(f"/api/playoffs/{po.id}/view").json()["clocks"]["1:1"]["moves"]
        assert moves == {"white": 2, "black": 1}

        watch = po.run("watch", po.id, "--count", "0")
        assert watch.returncode == 0, watch.stderr
        assert "UzChess Cup Masters 2025" in watch.stdout
        bad = po.run("lots", po.id, "-m", "1", token="not-a-token")
        assert bad.returncode == 2
        assert "Traceback" not in bad.stderr


def test_a_playoff_of_several_matches_needs_the_match_said(tmp_path: Path) -> None:
    with playoff_of(tmp_path, three_way_tie()) as po:
        before = po.seq()
        for args in (("lots", po.id), ("start", po.id), ("press", po.id, "white"),
                     ("result", po.id, "1-0"), ("correct", po.id, "1-0", "-r", "slip")):
            run = po.run(*args)
            assert run.returncode == 2, args
            message = " ".join(run.stderr.split())
            assert "this play-off has 2 matches (1, 2): say which one with -m/--match" in message
            assert "Traceback" not in run.stderr
            assert run.stdout == ""
        assert po.seq() == before  # nothing was sent
        bad = po.run("lots", po.id, token="not-a-token")
        assert bad.returncode == 2
        assert "this token is not valid" in bad.stderr
        assert "Traceback" not in bad.stderr


def test_a_playoff_of_one_match_needs_no_match_option(tmp_path: Path) -> None:
    with playoff_of(tmp_path, two_way_tie()) as po:
        po.logged(po.run("lots", po.id), "lots-drawn")
        po.logged(po.run("start", po.id), "game-started")
        po.logged(po.run("press", po.id, "white"), "clock-pressed")


def test_correct_a_result_with_its_reason(tmp_path: Path) -> None:
    with playoff_of(tmp_path, three_way_tie()) as po:
        po.logged(po.run("lots", po.id, "-m", "1"), "lots-drawn")
        po.logged(po.run("start", po.id, "-m", "1"), "game-started")
        po.logged(po.run("result", po.id, "1-0", "-m", "1", "-g", "1"), "result-recorded")

        unexplained = po.run("correct", po.id, "0-1", "-m", "1", "-g", "1")
        assert unexplained.returncode == 2
        assert "--reason" in unexplained.stderr
        assert po.game(1, 1)["result"] == "1-0"

        corrected = po.run("correct", po.id, "0-1", "-m", "1", "-g", "1",
                           "--reason", "the score sheet was signed 0-1")
        seq = po.logged(corrected, "result-corrected")
        assert po.game(1, 1)["result"] == "0-1"
        log = po.chief.get(f"/api/playoffs/{po.id}/events?after={seq - 1}").json()["events"]
        assert log[0]["data"]["reason"] == "the score sheet was signed 0-1"

        scripted = po.run("correct", po.id, "1/2-1/2", "-m", "1", "-r", "agreed", "--json")
        (seq,) = json.loads(scripted.stdout)["seqs"]
        log = po.chief.get(f"/api/playoffs/{po.id}/events?after={seq - 1}&limit=1").json()
        assert log["events"][0]["type"] == "result-corrected"
        assert po.game(1, 1)["result"] == "1/2-1/2"


# --------------------------------------------------------------------------- before the play-off


def test_the_last_round_recorded_from_the_command_line_with_the_foresight_after_each(
    tmp_path: Path,
) -> None:
    from tests.support.foresight import before_round_9, round_9

    with running_server(tmp_path / "log.db", ManualTime()) as server:
        made = server.client().post(
            "/api/events", content=json.dumps(before_round_9()),
            headers={"Content-Type": "application/json"},
        ).json()
        event, token = made["id"], made["chief_token"]
        base = server.base_url

        seen = arbiter("foresight", event, "--json", token=token, server=base)
        assert seen.returncode == 0, seen.stderr
        assert json.loads(seen.stdout)["outcomes"] == 243
        said = arbiter("foresight", event, "--time-control", "blitz", token=token, server=base)
        assert "243 outcomes: a play-off for first in 81" in " ".join(said.stdout.split())
        assert "draw rate 30%" in said.stdout
        first = round_9()[0]
        sure = json.loads(arbiter(
            "foresight", event, "--json", "-p", f"{first['white']}-{first['black']}=1/0/0",
            token=token, server=base).stdout)
        assert "set by hand" in sure["model"] and sure["probability"] == 0

        games = round_9()
        for left, game in zip(range(4, -1, -1), games, strict=True):
            run = arbiter("event-result", event, str(game["round"]), game["white"],
                          game["black"], game["result"], "--id", f"r9-{game['white']}",
                          token=token, server=base)
            assert run.returncode == 0, run.stderr
            assert run.stdout.endswith(f"{left} game{'s' if left != 1 else ''} still pending\n")
        # Sent again with its id: answered, logged once.
        again = arbiter("event-result", event, "9", games[0]["white"], games[0]["black"],
                        games[0]["result"], "--id", f"r9-{games[0]['white']}",
                        token=token, server=base)
        assert again.returncode == 0, again.stderr
        final = json.loads(arbiter("foresight", event, "--json", token=token,
                                   server=base).stdout)
        assert final["outcomes"] == 1 and final["pending"] == []
        # A game that is not pending is refused in the server's words; nothing changes.
        before = server.client(token).get(f"/api/events/{event}").json()["seq"]
        refused = arbiter("event-result", event, "9", games[0]["white"], games[0]["black"],
                          "1-0", token=token, server=base)
        assert refused.returncode == 1
        assert refused.stderr.startswith("refused: ")
        assert "HTTP" not in refused.stderr
        assert server.client(token).get(f"/api/events/{event}").json()["seq"] == before
