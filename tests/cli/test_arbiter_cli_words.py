"""``playoff-arbiter`` says what happens in people's words, against the real server.

``watch`` writes the players' names, the results and the clocks (``m:ss``): piped
(the real command in a process of its own, its output a pipe) a plain line for
each change and no control codes; in a terminal, a board kept current. ``lots``
and ``toss`` say who won, by name; ``start --override REASON`` is the chief
arbiter's start before the time the players are owed or the chief arbiter set;
a refusal is the service's own sentence, never JSON or a traceback.
"""

from __future__ import annotations

import os
import pty
import queue
import re
import subprocess
import sys
import threading
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

from orchestrator.core.timesource import ManualTime
from tests.support import ROOT
from tests.support.arbiter import PROXIES, Playoff, playoff_of, two_way_tie

NAMES = {"A": "Player A", "B": "Player B"}


def cli_process(
    po: Playoff, *args: str, env: dict[str, str] | None = None, **options: Any
) -> subprocess.Popen[str]:
    """The real ``playoff-arbiter`` in a process of its own, its output piped (unless
    ``options`` say otherwise), with no proxy between it and the server."""
    env = {**{k: v for k, v in os.environ.items() if k not in PROXIES},
           "PLAYOFF_TOKEN": po.token, "PLAYOFF_SERVER": po.server.base_url, **(env or {})}
    return subprocess.Popen(
        [sys.executable, "-m", "clients.python.cli", *args], cwd=ROOT, env=env, text=True,
        **({"stdout": subprocess.PIPE, "stderr": subprocess.PIPE} | options),
    )


class Lines:
    """A process's output lines as they come."""

    def __init__(self, process: subprocess.Popen[str]) -> None:
        assert process.stdout is not None
        self.seen: list[str] = []
        self._queue: queue.Queue[str | None] = queue.Queue()
        stream = process.stdout

        def read() -> None:
            for line in stream:
                self._queue.put(line)
            self._queue.put(None)

        threading.Thread(target=read, daemon=True).start()

    def until(self, wanted: str, timeout: float = 10) -> None:
        """Read on until a line starts with ``wanted``."""
        deadline = time.monotonic() + timeout
        while not any(line.startswith(wanted) for line in self.seen):
            line = self._queue.get(timeout=max(0.01, deadline - time.monotonic()))
            assert line is not None, f"the output ended before {wanted!r}: {self.seen}"
            self.seen.append(line)

    def rest(self, timeout: float = 20) -> str:
        """Everything, once the output ends."""
        while True:
            line = self._queue.get(timeout=timeout)
            if line is None:
                return "".join(self.seen)
            self.seen.append(line)


def manual(po: Playoff) -> ManualTime:
    clock = po.server.service.time
    assert isinstance(clock, ManualTime)
    return clock


def lots_drawn(po: Playoff) -> tuple[str, str]:
    """Lots for game 1: the names ``lots`` says and the log holds (White, Black)."""
    run = po.run("lots", po.id)
    seq = po.logged(run, "lots-drawn")
    said = re.fullmatch(r"logged: seq \d+ \(lots-drawn\)\n"
                        r"Lots, Final: (Player [AB]) has White in game 1\n", run.stdout)
    assert said is not None, run.stdout
    log = po.chief.get(f"/api/playoffs/{po.id}/events?after={seq - 1}&limit=1").json()
    white = NAMES[log["events"][0]["data"]["white"]]
    assert said.group(1) == white
    return white, next(name for name in NAMES.values() if name != white)


def test_watch_through_a_pipe_writes_names_results_and_clocks_as_plain_lines(
    tmp_path: Path,
) -> None:
    with playoff_of(tmp_path, two_way_tie()) as po:
        clock = manual(po)
        watch = cli_process(po, "watch", po.id, "--count", "5")
        lines = Lines(watch)
        # How it stands, before anything happens: who plays, colours not drawn yet.
        lines.until("  Game 2: ")
        assert lines.seen[0] == (
            "Club final (play-off · Grand Chess Tour 2015 tiebreak regulations)\n"
        )
        assert any(re.fullmatch(r"  Game 1: Player [AB] – Player [AB] \(colours by lot\) · "
                                r"to play\n", line) for line in lines.seen), lines.seen

        white, black = lots_drawn(po)
        po.logged(po.run("start", po.id), "game-started")
        clock.advance(timedelta(seconds=83))
        po.logged(po.run("press", po.id, "white"), "clock-pressed")  # 25:00 - 1:23 + 0:05
        clock.advance(timedelta(seconds=7))
        po.logged(po.run("press", po.id, "black"), "clock-pressed")  # 25:00 - 0:07 + 0:05
        po.logged(po.run("result", po.id, "1-0"), "result-recorded")

        out = lines.rest()
        assert watch.wait(timeout=10) == 0
        assert watch.stderr is not None and watch.stderr.read() == ""
        game = f"  Game 1: {white} – {black}"
        for line in (
            f"Lots, Final: {white} has White in game 1",
            f"{game} · in play · White ({white}) 25:00 running, Black ({black}) 25:00",
            f"{game} · in play · White ({white}) 23:42, Black ({black}) 25:00 running",
            f"{game} · in play · White ({white}) 23:42 running, Black ({black}) 24:58",
            f"{game} 1-0 · played",
        ):
            assert f"\n{line}\n" in out, (line, out)
        final = re.findall(r"^Final: (Player [AB]) (\S+)–(\S+) (Player [AB])$", out, re.M)
        # White won game 1: White's name first, beside White's point.
        assert final[-1] == (white, "1", "0", black), final
        # Plain lines: no control codes, no JSON, no milliseconds.
        assert not re.search(r"[\x00-\x09\x0b-\x1f\x7f]", out), repr(out)
        assert "{" not in out and "_ms" not in out


def test_watch_in_a_terminal_keeps_one_board_current(tmp_path: Path) -> None:
    with playoff_of(tmp_path, two_way_tie()) as po:
        white, black = lots_drawn(po)
        po.logged(po.run("start", po.id), "game-started")
        screen, terminal = pty.openpty()
        watch = cli_process(po, "watch", po.id, "--count", "1", stdout=terminal,
                            stderr=terminal, env={"TERM": "xterm", "COLUMNS": "160"})
        os.close(terminal)
        out = b""
        deadline = time.monotonic() + 10
        while b"Game 2" not in out and time.monotonic() < deadline:
            out += os.read(screen, 65536)
        po.logged(po.run("press", po.id, "white"), "clock-pressed")
        assert watch.wait(timeout=10) == 0
        while True:
            try:
                chunk = os.read(screen, 65536)
            except OSError:  # the terminal's other end closed with the process
                break
            if not chunk:
                break
            out += chunk
        os.close(screen)
        text = out.decode()
        # The board is drawn again in place (cursor moves), with the clock running down.
        assert "\x1b[" in text
        board = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", text)
        assert re.search(rf"White \({white}\) 2[45]:\d\d, Black \({black}\) 2[45]:\d\d running",
                         board), board


def test_lots_and_the_coin_toss_say_who_won_by_name(tmp_path: Path) -> None:
    with playoff_of(tmp_path, two_way_tie()) as po:
        lots_drawn(po)
        for game in (1, 2):
            po.logged(po.run("start", po.id, "-g", str(game)), "game-started")
            po.logged(po.run("result", po.id, "1/2-1/2", "-g", str(game)), "result-recorded")
            manual(po).advance(timedelta(minutes=15))  # the interval between games
        run = po.run("toss", po.id, "A", "heads")
        seq = po.logged(run, "coin-tossed")
        said = re.fullmatch(
            r"logged: seq \d+ \(coin-tossed\)\nArmageddon coin toss, Final: Player A called "
            r"heads, the coin showed (heads|tails); won by (Player [AB])\n", run.stdout)
        assert said is not None, run.stdout
        log = po.chief.get(f"/api/playoffs/{po.id}/events?after={seq - 1}&limit=1").json()
        winner = NAMES[log["events"][0]["data"]["winner"]]
        assert said.group(2) == winner
        assert (said.group(1) == "heads") == (winner == "Player A")


def test_the_chief_arbiter_starts_before_the_set_time_with_override(tmp_path: Path) -> None:
    with playoff_of(tmp_path, two_way_tie()) as po:
        lots_drawn(po)
        event_id = po.chief.get(f"/api/playoffs/{po.id}").json()["event_id"]
        postponed = po.chief.post(f"/api/playoffs/{po.id}/matches/1/games/1/postpone",
                                  json={"minutes": 20, "reason": "the hall's lights"})
        assert postponed.status_code == 201, postponed.text
        deputy = po.chief.post(f"/api/events/{event_id}/tokens",
                               json={"role": "arbiter"}).json()["token"]
        before = po.seq()

        plain = po.run("start", po.id, token=deputy)
        assert plain.returncode == 1
        assert plain.stderr == (
            "refused: too early for match 1, game 1: the chief arbiter set its start for "
            "12:20 (20 minutes from now). The chief arbiter may start it all the same, giving "
            "the reason.\n"
        )
        # An arbiter may not give the reason: that is the chief arbiter's decision.
        overridden = po.run("start", po.id, "--override", "the players are ready", token=deputy)
        assert overridden.returncode == 1
        assert overridden.stderr.startswith("refused: only the chief arbiter may start a game")
        assert po.seq() == before

        started = po.run("start", po.id, "--override", "the players are ready")
        seq = po.logged(started, "game-started")
        log = po.chief.get(f"/api/playoffs/{po.id}/events?after={seq - 1}&limit=1").json()
        data = log["events"][0]["data"]
        assert data["override"] == "the players are ready"
        assert data["overridden"] == ["the chief arbiter set its start for 12:20"]


def test_a_refusal_is_the_services_own_sentence(tmp_path: Path) -> None:
    with playoff_of(tmp_path, two_way_tie()) as po:
        lots_drawn(po)
        po.logged(po.run("start", po.id), "game-started")
        before = po.seq()
        wrong = po.run("press", po.id, "black")
        rest = po.chief.post(f"/api/playoffs/{po.id}/commands",
                             json={"type": "press", "match": 1, "game": 1, "side": "black"})
        assert rest.status_code == 409
        assert wrong.returncode == 1
        assert wrong.stderr == f"refused: {rest.json()['detail']}\n"
        # A value the command does not take: the field by its name, not by a path.
        bad = po.run("result", po.id, "2-0")
        assert bad.returncode == 1
        assert bad.stderr.startswith(
            "refused: result must be one of 1-0, 0-1, 1/2-1/2, +/-, -/+ or -/-")
        assert po.seq() == before
        for run in (wrong, bad):
            assert "Traceback" not in run.stderr and "{" not in run.stderr
            assert run.stdout == ""
