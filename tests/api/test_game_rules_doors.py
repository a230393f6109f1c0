"""Rules of a game's start and result, the same at every door (REST, the websocket,
``playoff-arbiter``).

A start before the time the chief arbiter moved or postponed a game to is the chief
arbiter's decision, as the rests are: refused for an arbiter, and the chief arbiter
starts it only giving the reason. A game never started has no played result: before
its start only a forfeit is a result."""

from __future__ import annotations

import asyncio
from datetime import timedelta, timezone
from pathlib import Path

from orchestrator.core.timesource import ManualTime
from tests.support.arbiter import arbiter
from tests.support.server import running_server
from tests.support.ws import make_playoff, ws_answer


async def test_a_start_before_the_chief_arbiters_postponement_is_the_chiefs(
    tmp_path: Path,
) -> None:
    clock = ManualTime()
    with running_server(tmp_path / "log.db", clock) as server:
        setup = await asyncio.to_thread(make_playoff, server, 1)
        with server.client(setup.chief) as chief:
            postponed = chief.post(f"{setup.base}/1/games/1/postpone", json={
                "minutes": 20, "reason": "the hall's lights",
            })
            assert postponed.status_code == 201, postponed.text
        words = "the chief arbiter set its start for 12:20"
        with server.client(setup.arbiter) as http:
            refused = http.post(f"{setup.base}/1/games/1/start")
            assert refused.status_code == 409, refused.text
            assert words in refused.json()["detail"]
            assert "The chief arbiter may start it all the same" in refused.json()["detail"]
            # Nor may an arbiter give the reason: that decision is the chief arbiter's.
            overridden = http.post(f"{setup.base}/1/games/1/start",
                                   json={"override": "the players are ready"})
            assert overridden.status_code == 403
            assert overridden.json()["detail"].startswith("only the chief arbiter may start")
        url = server.base_url.replace("http", "ws") + f"/ws/playoffs/{setup.playoff_id}"
        frame = await ws_answer(url, setup.arbiter, type="start-clock", match=1, game=1,
                                 override="the players are ready")
        assert frame["t"] == "error" and frame["d"]["code"] == "forbidden"
        assert words in frame["d"]["reason"]
        run = await asyncio.to_thread(
            lambda: arbiter("start", setup.playoff_id, "-m", "1", "-g", "1",
                            server=server.base_url, token=setup.arbiter)
        )
        assert run.returncode != 0 and words in " ".join((run.stdout + run.stderr).split())
        with server.client(setup.chief) as chief:
            # The chief arbiter too must say why, and then may.
            plain = chief.post(f"{setup.base}/1/games/1/start")
            assert plain.status_code == 409 and words in plain.json()["detail"]
            assert "giving the reason" in plain.json()["detail"]
            started = chief.post(f"{setup.base}/1/games/1/start",
                                 json={"override": "the players are ready early"})
            assert started.status_code == 201, started.text
            logged = started.json()["events"][0]["data"]
            assert any(words in text for text in logged["overridden"])


async def test_a_game_never_started_has_only_a_forfeit_for_a_result(tmp_path: Path) -> None:
    with running_server(tmp_path / "log.db", ManualTime()) as server:
        setup = await asyncio.to_thread(make_playoff, server, 1)
        words = ("match 1, game 1 has not started, so it has no played result: start it "
                 "first, or record a forfeit")
        for token in (setup.arbiter, setup.chief):  # the chief arbiter no less
            with server.client(token) as http:
                for result in ("1-0", "1/2-1/2", "0-1"):
                    refused = http.post(f"{setup.base}/1/games/1/result",
                                        json={"result": result})
                    assert refused.status_code == 409, refused.text
                    assert refused.json()["detail"].startswith(words)
        url = server.base_url.replace("http", "ws") + f"/ws/playoffs/{setup.playoff_id}"
        frame = await ws_answer(url, setup.arbiter, type="result", match=1, game=1,
                                 result="1-0")
        assert frame["t"] == "error" and frame["d"]["reason"].startswith(words)
        run = await asyncio.to_thread(
            lambda: arbiter("result", setup.playoff_id, "1-0", "-m", "1", "-g", "1",
                            server=server.base_url, token=setup.arbiter)
        )
        assert run.returncode != 0 and words in " ".join((run.stdout + run.stderr).split())
        with server.client(setup.chief) as chief:
            assert chief.get(f"/api/playoffs/{setup.playoff_id}/events").json()["events"][-1][
                "type"] == "lots-drawn"  # nothing of the refusals was logged
            # A player who does not come: the forfeit is a result before any start.
            forfeit = chief.post(f"{setup.base}/1/games/1/result", json={"result": "+/-"})
            assert forfeit.status_code == 201, forfeit.text
            # Once started, a game is played to its result.
            started = chief.post(f"{setup.base}/1/games/2/start",
                                 json={"override": "the players are at the board"})
            assert started.status_code == 201, started.text
            played = chief.post(f"{setup.base}/1/games/2/result", json={"result": "1/2-1/2"})
            assert played.status_code == 201, played.text


def test_the_rules_words_say_times_in_the_halls_clock(tmp_path: Path) -> None:
    """The refusal names the time the chief arbiter chose, as the hall reads it."""
    from playoff_formats.schedule import Overrides, Postponement, chief_time_breaches

    clock = ManualTime()
    later = clock.now() + timedelta(minutes=44)
    overrides = Overrides(postponements=(Postponement(not_before=later, match=2, game=1),))
    hall = timezone(timedelta(hours=5))
    (breach,) = chief_time_breaches(2, 1, clock.now(), overrides, hall)
    assert breach.binding and breach.until == later
    assert breach.text == "the chief arbiter postponed it to 17:44"  # a postponement of all
    assert chief_time_breaches(2, 2, clock.now(), overrides, hall) == ()
    assert chief_time_breaches(2, 1, later, overrides, hall) == ()
