"""A start before the time the chief arbiter moved or postponed a game to is the
chief arbiter's decision, as the rests are, the same at every door (REST, the
websocket, ``playoff-arbiter``): refused for an arbiter, and the chief arbiter starts
it only giving the reason."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from pathlib import Path
from typing import Any

from orchestrator.timesource import ManualTime
from tests.server import running_server
from tests.test_arbiter_cli import arbiter
from tests.test_ws_streams import cmd, make_playoff, raw_frames, raw_hello


async def _ws_answer(url: str, token: str, command_id: str, **command: Any) -> dict[str, Any]:
    ws, _ = await raw_hello(url, token)
    await ws.send(cmd(command_id, **command))
    frame = (await raw_frames(ws, lambda f: f.get("id") == command_id))[-1]
    await ws.close()
    return frame


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
        frame = await _ws_answer(url, setup.arbiter, "s1", type="start-clock", match=1, game=1,
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
        # Past the postponed time, anyone starts the next game as usual.
        clock.advance(timedelta(hours=3))


def test_the_rules_words_say_times_in_the_halls_clock(tmp_path: Path) -> None:
    """The refusal names the time the chief arbiter chose, as the hall reads it."""
    from playoff_formats.schedule import Overrides, Postponement, chief_time_breaches

    clock = ManualTime()
    later = clock.now() + timedelta(minutes=44)
    overrides = Overrides(postponements=(Postponement(not_before=later, match=2, game=1),))
    (breach,) = chief_time_breaches(2, 1, clock.now(), overrides, timedelta(hours=5))
    assert breach.binding and breach.until == later
    assert breach.text == "the chief arbiter postponed it to 17:44"  # a postponement of all
    assert chief_time_breaches(2, 2, clock.now(), overrides, timedelta(0)) == ()
    assert chief_time_breaches(2, 1, later, overrides, timedelta(0)) == ()
