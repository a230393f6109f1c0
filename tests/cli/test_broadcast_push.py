"""``playoff broadcast push``: the play-off's broadcast feed, read from the real
service with a broadcast key, pushed to a lichess stand-in that checks every push
as lichess documents it."""

from __future__ import annotations

import io
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email.utils import format_datetime
from pathlib import Path

import chess.pgn
import httpx
import pytest

from orchestrator.cli.broadcast import Refused, feed_urls
from orchestrator.cli.push import (
    Feed,
    Pusher,
    answer_lines,
    backoff_s,
    game_tags,
    push_body,
    rate_limited_wait_s,
    retry_after_s,
    split_games,
    split_pushes,
)
from orchestrator.core.timesource import ManualTime
from tests.support import ROOT
from tests.support.cli import playoff
from tests.support.lichess import ROUND_ID, TOKEN, UPSTREAM_ERROR, Answer, LichessStandIn
from tests.support.server import RunningServer, free_port, running_server
from tests.support.ws import Setup, make_playoff, ok

# ------------------------------------------------------------------ the pure parts


def a_game(number: int, moves: str = "1. e4 e5 *") -> str:
    return (
        f'[Event "Uzchess Cup, play-off"]\n[Round "10.1.1.{number}"]\n'
        f'[White "Abdusattorov, Nodirbek"]\n[Black "Sindarov, Javokhir"]\n'
        f'[Result "*"]\n\n{moves}\n'
    )


def test_250_games_go_in_pushes_of_100_100_and_50_whole_games() -> None:
    pgn = "\n".join(a_game(n) for n in range(1, 251))
    pushes = split_pushes(pgn)
    assert [len(push) for push in pushes] == [100, 100, 50]
    assert [game_tags(g)["Round"] for push in pushes for g in push] == [
        f"10.1.1.{n}" for n in range(1, 251)
    ]
    for push in pushes:
        # lichess reads each push back into the same games, each whole.
        assert split_games(push_body(push)) == push
        for game in push:
            read = chess.pgn.read_game(io.StringIO(game))
            assert read is not None and not read.errors
            assert len(list(read.mainline_moves())) == 2


def test_a_game_is_cut_only_where_lichess_cuts_games() -> None:
    # A blank line inside a comment does not start a game; "\r" is not a line of its own.
    first = a_game(1, "1. e4 {a long think\n\nthen} e5 *")
    second = a_game(2).replace("\n", "\r\n")
    games = split_games(f"{first}\n{second}\n\n\n")
    assert len(games) == 2
    assert "then} e5 *" in games[0]
    assert game_tags(games[1])["Round"] == "10.1.1.2"
    assert split_pushes("") == [] and split_pushes("\n\n") == []


def test_the_back_off_doubles_from_a_second_to_a_minute() -> None:
    assert [backoff_s(n, 0.5) for n in range(1, 10)] == [1, 2, 4, 8, 16, 32, 60, 60, 60]


def test_the_jitter_moves_a_wait_by_a_fifth_at_most_and_never_past_a_minute() -> None:
    assert backoff_s(3, 0.0) == pytest.approx(3.2)
    assert backoff_s(3, 0.999) == pytest.approx(4.8, abs=0.01)
    assert all(0.8 <= backoff_s(1, j / 10) <= 1.2 for j in range(10))
    assert max(backoff_s(n, 0.999) for n in range(1, 20)) == 60


def test_retry_after_is_read_in_seconds_or_as_an_http_date() -> None:
    now = datetime(2026, 5, 1, 12, 0, 0, tzinfo=UTC).timestamp()
    assert retry_after_s("7", now) == 7
    assert retry_after_s(" 120 ", now) == 120
    later = format_datetime(datetime(2026, 5, 1, 12, 1, 30, tzinfo=UTC), usegmt=True)
    assert retry_after_s(later, now) == 90
    assert retry_after_s("Fri, 01 May 2026 12:00:05 -0000", now) == 5
    assert retry_after_s("Fri, 01 May 2026 11:00:00 GMT", now) == 0  # already past
    assert retry_after_s(None, now) is None
    assert retry_after_s("soon", now) is None
    assert retry_after_s("-5", now) is None
    # A 429 waits a minute unless Retry-After says otherwise, even "0".
    assert rate_limited_wait_s(None, now) == 60
    assert rate_limited_wait_s("soon", now) == 60
    assert rate_limited_wait_s("0", now) == 0
    assert rate_limited_wait_s("5", now) == 5


def test_lichess_answer_in_words_a_line_per_game() -> None:
    sent = [a_game(1, "1. e4 e5 2. Nf3 *"), a_game(2, "1. e4 e5 2. Qh5 *"), a_game(3)]
    answer = [
        {"tags": {"Round": "10.1.1.1", "White": "Abdusattorov, Nodirbek",
                  "Black": "Sindarov, Javokhir", "Result": "*"}, "moves": 34},
        {"tags": {}, "error": "Cannot parse moves"},  # named by the tags it was sent with
        {"tags": {"White": "Sindarov, Javokhir", "Black": "Abdusattorov, Nodirbek"},
         "moves": 1},
    ]
    lines, every = answer_lines(sent, answer)
    assert lines == [
        "Round 10.1.1.1 Abdusattorov v Sindarov: 34 moves",
        "Round 10.1.1.2 Abdusattorov v Sindarov: refused: Cannot parse moves",
        "Sindarov v Abdusattorov: 1 move",
    ]
    assert not every
    taken, every = answer_lines(sent[:1], answer[:1])
    assert every and taken == ["Round 10.1.1.1 Abdusattorov v Sindarov: 34 moves"]
    short, every = answer_lines(sent, answer[:1])
    assert not every
    assert short[-1] == "lichess answered for 1 of the 3 games pushed; 2 were not taken"


def test_the_feed_from_an_id_a_link_or_an_address() -> None:
    assert feed_urls("9d41c07e", None, "k3y") == (
        "http://127.0.0.1:8000/api/playoffs/9d41c07e/broadcast.pgn?key=k3y",
        "http://127.0.0.1:8000/api/playoffs/9d41c07e/broadcast.pgn?key=[key]",
    )
    link = "/api/playoffs/9d41c07e/broadcast.pgn?key=k3y"
    assert feed_urls(link, "https://hall.example/", None)[0] == f"https://hall.example{link}"
    whole = f"https://hall.example{link}"
    assert feed_urls(whole, None, None) == (whole, whole.replace("k3y", "[key]"))
    with pytest.raises(Refused, match="already carries a key"):
        feed_urls(whole, None, "other")
    with pytest.raises(Refused, match="already names the service"):
        feed_urls(whole, "https://other.example", None)


# ------------------------------------------------------------------ the real service


@dataclass
class Broadcast:
    """A play-off on the real service, game 1 of match 1 started, its feed open to a
    broadcast key; and the lichess stand-in."""

    setup: Setup
    clock: ManualTime
    key: str
    link: str
    lichess: LichessStandIn
    tmp: Path
    moves: dict[str, int] = field(default_factory=lambda: {"white": 0, "black": 0})

    @property
    def server(self) -> RunningServer:
        return self.setup.server

    @property
    def feed_url(self) -> str:
        return self.server.base_url + self.link

    def feed(self) -> str:
        with httpx.Client(trust_env=False, timeout=10) as http:
            answer = http.get(self.feed_url)
        assert answer.status_code == 200, answer.text
        return answer.text

    def press(self) -> None:
        """The side to move presses the clock, a few seconds after the last press."""
        side = "white" if self.moves["white"] == self.moves["black"] else "black"
        self.moves[side] += 1
        self.clock.advance(3_000)
        with self.server.client(self.setup.arbiter) as http:
            ok(http.post(f"/api/playoffs/{self.setup.playoff_id}/commands", json={
                "type": "press", "match": 1, "game": 1, "side": side,
                "move": self.moves[side],
            }))

    def token_file(self, token: str = TOKEN) -> Path:
        path = self.tmp / "lichess-token"
        path.write_text(f"{token}\n", encoding="utf-8")
        return path

    def command(self, *extra: str, token: str = TOKEN) -> list[str]:
        """``playoff broadcast push`` for this play-off, by its id and key."""
        return [
            "broadcast", "push", self.setup.playoff_id, "--service", self.server.base_url,
            "--key", self.key, "--round", ROUND_ID, "--token-file", str(self.token_file(token)),
            "--to", self.lichess.url, *extra,
        ]

    def pusher(
        self, sleeps: list[float], said: list[str], *, to: str | None = None,
        on_sleep: list[object] | None = None,
    ) -> Pusher:
        """The loop in this process, its sleeps recorded and returning at once."""

        def sleep(seconds: float) -> None:
            sleeps.append(seconds)
            if on_sleep:
                action = on_sleep.pop(0)
                assert callable(action)
                action()

        lichess = to or self.lichess.url
        return Pusher(
            feed=Feed(self.feed_url, self.feed_url),
            push_url=f"{lichess}/api/broadcast/round/{ROUND_ID}/push",
            round_id=ROUND_ID, token=TOKEN, say=said.append, warn=said.append,
            sleep=sleep, now=time.time, jitter=lambda: 0.5,
        )


@contextmanager
def broadcast(tmp_path: Path, *, upstream: bool = False) -> Iterator[Broadcast]:
    clock = ManualTime()
    with (
        running_server(tmp_path / "playoff.db", clock) as server,
        LichessStandIn(upstream=upstream).running() as lichess,
    ):
        setup = make_playoff(server, displays=0)
        with server.client(setup.chief) as http:
            minted = ok(http.post(
                f"/api/events/{setup.event_id}/tokens", json={"role": "broadcast"}
            ))
        link = next(f["link"] for f in minted["feeds"] if f["playoff"] == setup.playoff_id)
        setup.post("/1/games/1/start")
        made = Broadcast(setup, clock, minted["token"], link, lichess, tmp_path)
        yield made
        assert lichess.problems == []


def pushed_games(body: str) -> list[str]:
    return [game.strip() for game in split_games(body)]


def start(args: list[str]) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "orchestrator.cli", *args], cwd=ROOT, text=True,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )


def stop(process: subprocess.Popen[str]) -> tuple[str, str]:
    if process.poll() is None:
        process.send_signal(signal.SIGINT)
    try:
        out, err = process.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()
        out, err = process.communicate()
    return out, err


def line_of_game_1(feed: str, words: str) -> str:
    tags = game_tags(split_games(feed)[0])
    assert re.fullmatch(r"\d+\.1\.1\.1", tags["Round"]), tags
    return f"Round {tags['Round']} Abdusattorov v Sindarov: {words}"


def test_each_press_reaches_lichess_within_seconds(tmp_path: Path) -> None:
    with broadcast(tmp_path) as b:
        process = start(b.command())
        try:
            first = b.lichess.wait_for_pushes(1, timeout=30)
            assert len(first) == 1, "the play-off's first game was not pushed"
            assert pushed_games(first[0].body) == pushed_games(b.feed())
            for n in range(2, 5):
                b.press()
                pressed = time.monotonic()
                pushes = b.lichess.wait_for_pushes(n, timeout=10)
                assert len(pushes) == n, f"press {n - 1} was not pushed in 10 s"
                # A poll a second, then the push: two seconds, and margin for a loaded machine.
                assert pushes[-1].at - pressed < 5
                assert pushed_games(pushes[-1].body) == pushed_games(b.feed())
            time.sleep(2.5)  # nothing changed since: nothing more is pushed
            assert len(b.lichess.pushes) == 4
            assert {p.status for p in b.lichess.pushes} == {200}
        finally:
            out, err = stop(process)
        assert out.splitlines().count(line_of_game_1(b.feed(), "0 moves")) == 4, out + err
        assert TOKEN not in out + err
        assert b.key not in out + err


def test_a_burst_of_changes_is_one_push_of_the_latest(tmp_path: Path) -> None:
    with broadcast(tmp_path) as b:
        b.lichess.script(Answer(hold_s=3))  # lichess slow to take the first push
        process = start(b.command())
        try:
            assert b.lichess.wait_for_arrivals(1, timeout=30) == 1
            for _ in range(5):
                b.press()
            pushes = b.lichess.wait_for_pushes(2, timeout=15)
            assert len(pushes) == 2
            time.sleep(3)  # the burst is not pushed a press at a time after it
            assert len(b.lichess.pushes) == 2
            assert pushed_games(b.lichess.pushes[-1].body) == pushed_games(b.feed())
        finally:
            stop(process)


@pytest.mark.parametrize(("retry_after", "waited"), [(None, 60.0), ("7", 7.0)])
def test_a_rate_limit_waits_a_minute_or_as_retry_after_says(
    tmp_path: Path, retry_after: str | None, waited: float
) -> None:
    with broadcast(tmp_path) as b:
        b.lichess.script(Answer(429, retry_after=retry_after))
        sleeps: list[float] = []
        said: list[str] = []
        assert b.pusher(sleeps, said).run(once=True) == 0
        assert sleeps == [waited]
        assert [p.status for p in b.lichess.pushes] == [429, 200]
        assert f"lichess asks to slow down (429): pushing again in {waited:.0f} s" in said


def test_a_server_error_is_tried_again_after_1_2_4_seconds(tmp_path: Path) -> None:
    with broadcast(tmp_path) as b:
        b.lichess.script(Answer(500), Answer(502), Answer(503))
        sleeps: list[float] = []
        said: list[str] = []
        assert b.pusher(sleeps, said).run(once=True) == 0
        assert sleeps == [1, 2, 4]
        assert [p.status for p in b.lichess.pushes] == [500, 502, 503, 200]
        assert said[:2] == [
            "lichess could not take the push (HTTP 500); trying again in 1 s",
            "lichess could not take the push (HTTP 502); trying again in 2 s",
        ]
        assert said[-1] == line_of_game_1(b.feed(), "0 moves")


def test_lichess_out_of_reach_is_tried_again_then_given_up_once(tmp_path: Path) -> None:
    with broadcast(tmp_path) as b:
        sleeps: list[float] = []
        said: list[str] = []
        nobody = f"http://127.0.0.1:{free_port()}"
        assert b.pusher(sleeps, said, to=nobody).run(once=True) == 1
        assert sleeps == [1, 2, 4, 8]
        assert said[0].startswith("lichess did not answer (")
        assert said[-1] == "lichess did not take the push after 5 tries; giving up"


def test_a_change_while_waiting_is_pushed_after_the_wait(tmp_path: Path) -> None:
    with broadcast(tmp_path) as b:
        b.lichess.script(Answer(500))
        sleeps: list[float] = []
        said: list[str] = []
        pusher = b.pusher(sleeps, said, on_sleep=[b.press, b.press])
        assert pusher.run(once=True) == 0
        first, second = b.lichess.pushes
        assert (first.status, second.status) == (500, 200)
        assert pushed_games(second.body) == pushed_games(b.feed())
        assert pushed_games(second.body) != pushed_games(first.body)


def test_a_refused_token_stops_the_push_with_words(tmp_path: Path) -> None:
    with broadcast(tmp_path) as b:
        wrong = "lip_notTheRightToken42"
        process = start(b.command(token=wrong))
        try:
            code = process.wait(timeout=60)  # stops by itself, without --once
        finally:
            out, err = stop(process)
        assert code == 1
        assert "lichess refused the token (401)" in err
        assert "study:write" in err
        assert [p.status for p in b.lichess.pushes] == [401]  # not asked again
        assert wrong not in out + err


@pytest.mark.parametrize(
    ("answer", "upstream", "code", "words"),
    [
        (None, False, 0, "0 moves"),
        (Answer(error="Cannot parse moves"), False, 1, "refused: Cannot parse moves"),
        (Answer(400, error="Cannot parse moves"), False, 1,
         "lichess refused the push of 1 game: Cannot parse moves"),
        (None, True, 1, f"lichess refused the push: {UPSTREAM_ERROR}"),
    ],
    ids=["taken", "games-refused", "push-refused", "source-url"],
)
def test_once_pushes_once_and_says_whether_every_game_was_taken(
    tmp_path: Path, answer: Answer | None, upstream: bool, code: int, words: str
) -> None:
    with broadcast(tmp_path, upstream=upstream) as b:
        if answer is not None:
            b.lichess.script(answer)
        done = subprocess.run(
            [sys.executable, "-m", "orchestrator.cli", *b.command("--once")],
            cwd=ROOT, capture_output=True, text=True, timeout=60,
        )
        assert done.returncode == code, done.stderr
        assert len(b.lichess.pushes) == 1
        said = done.stdout + done.stderr
        if words.startswith("lichess"):
            assert words in done.stderr.splitlines()
        else:  # lichess's answer for each game, refused or not
            assert line_of_game_1(b.feed(), words) in done.stdout.splitlines()
        if upstream:
            assert "source URL" in done.stderr
        assert TOKEN not in said


def test_the_feed_address_as_the_console_shows_it(tmp_path: Path) -> None:
    with broadcast(tmp_path) as b:
        run = playoff(
            "broadcast", "push", b.feed_url, "--round", ROUND_ID,
            "--token-file", str(b.token_file()), "--to", b.lichess.url, "--once",
        )
        assert run.returncode == 0, run.stderr
        assert run.stdout.splitlines() == [line_of_game_1(b.feed(), "0 moves")]


def test_a_wrong_broadcast_key_is_refused_by_the_service(tmp_path: Path) -> None:
    with broadcast(tmp_path) as b:
        run = playoff(*[("not-the-key" if word == b.key else word)
                        for word in b.command("--once")])
        assert run.returncode == 2
        assert "the service refused to show the play-off's feed" in run.stderr
        assert "not-the-key" not in run.stderr
        assert b.lichess.pushes == []


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"--token-file": "missing"}, "--token-file {tmp}/missing: there is no such file"),
        ({"--token-file": "empty"},
         "--token-file {tmp}/empty: the file is empty; put a lichess token on its first line"),
        ({"--token-file": "spaced"},
         "--token-file {tmp}/spaced: its first line is not a lichess token"),
        ({"--round": "round-1"}, "--round: 'round-1' is not a lichess round id"),
        ({"--to": "lichess.org"}, "--to: 'lichess.org' is not an http:// or https:// address"),
        ({"--key-file": "key"}, "--key and --key-file: give the broadcast key once"),
        ({"PLAYOFF": "a play-off"}, "PLAYOFF: 'a play-off' is neither a play-off's id"),
        ({"--every": "0"}, "--every"),
    ],
)
def test_a_wrong_option_is_refused_in_words_and_nothing_is_pushed(
    tmp_path: Path, change: dict[str, str], words: str
) -> None:
    (tmp_path / "empty").write_text("\n\n", encoding="utf-8")
    (tmp_path / "spaced").write_text("lip_secret part two\n", encoding="utf-8")
    (tmp_path / "key").write_text("a-key\n", encoding="utf-8")
    with LichessStandIn().running() as lichess:
        token = tmp_path / "token"
        token.write_text(TOKEN, encoding="utf-8")
        options = {"PLAYOFF": "9d41c07e", "--round": ROUND_ID, "--token-file": str(token),
                   "--to": lichess.url, "--key": "a-key", "--service": lichess.url}
        for name, value in change.items():
            known = (tmp_path / value) if name.endswith("-file") else None
            options[name] = str(known) if known is not None else value
        args = ["broadcast", "push", options.pop("PLAYOFF")]
        for name, value in options.items():
            args += [name, value]
        run = playoff(*args, "--once")
        assert run.returncode == 2
        assert words.format(tmp=tmp_path) in " ".join(run.stderr.split())
        assert "secret" not in run.stderr and TOKEN not in run.stderr
        assert lichess.pushes == []


def test_the_command_line_loads_the_pusher_only_to_push() -> None:
    probe = (
        "import sys, orchestrator.cli.main; "
        "print(sorted(m for m in ('orchestrator.cli.push', 'urllib.request', 'chess') "
        "if m in sys.modules))"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert done.stdout.strip() == "[]"
