"""A stand-in for lichess's broadcast push, on a real port.

It takes ``POST /api/broadcast/round/{round}/push`` as lichess documents it (the
round's 8-character id, ``Authorization: Bearer`` with a token of ``study:write``, a
``text/plain`` PGN of at most 100 games separated by a blank line) and answers as
lichess does: ``{"games": [{"tags": {...}, "moves": N} | {"tags": {...}, "error":
"..."}]}``, 401 for a wrong token, 404 for an unknown round, 403 for an account that
is not a contributor, and the round with a source URL of its own refused game by
game. What lichess would take silently but a pusher must not do (more than 100
games in a push, two pushes at once, another content type) is noted in
``problems``, which a test expects empty.

Failures are scripted: each :class:`Answer` given to :meth:`LichessStandIn.script`
answers one push, in order (a 429 with or without ``Retry-After``, a 500, a 400, a
push held for a while, every game refused).
"""

from __future__ import annotations

import io
import json
import re
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import chess.pgn

ROUND_ID = "pLaYoFf1"
TOKEN = "lip_standInToken0123456789"
UPSTREAM_ERROR = "The relay has an upstream URL, and cannot be pushed to."
MAX_GAMES = 100

_PATH = re.compile(r"/api/broadcast/round/([^/]*)/push")
_GAME_BREAK = re.compile(r"\n\n(?=\[)")  # lichess's MultiPgn.split
_ESCAPE = re.compile(r'\\([\\"])')


@dataclass(frozen=True)
class Answer:
    """How the stand-in answers one push, in place of taking it."""

    status: int = 200
    retry_after: str | None = None
    error: str | None = None
    """A 400's reason; with 200, every game of the push refused with it."""
    hold_s: float = 0.0
    """How long the push waits before it is answered (taken, when status is 200)."""


@dataclass(frozen=True)
class Push:
    round_id: str
    body: str
    games: list[str]
    status: int
    at: float
    """``time.monotonic()`` when it arrived."""

    @property
    def tags(self) -> list[dict[str, str]]:
        return [read_game(game)[0] for game in self.games]


def split_games(body: str) -> list[str]:
    """The games of a push as lichess reads them apart."""
    return [g for g in _GAME_BREAK.split(body.replace("\r", "")) if g.strip()]


def read_game(text: str) -> tuple[dict[str, str], int | str]:
    """A game's tags (unescaped, as lichess reads them) and its number of plies, or
    why python-chess cannot read it."""
    game = chess.pgn.read_game(io.StringIO(text))
    if game is None:
        return {}, "no game"
    tags = {name: _ESCAPE.sub(r"\1", value) for name, value in game.headers.items()}
    if game.errors:
        return tags, f"Cannot parse moves: {game.errors[0]}"
    return tags, sum(1 for _ in game.mainline_moves())


@dataclass
class LichessStandIn:
    token: str = TOKEN
    round_id: str = ROUND_ID
    upstream: bool = False
    """The round reads a source URL of its own: lichess refuses every push to it."""
    contributor: bool = True
    """Whether the token's account may write to the round's study."""
    pushes: list[Push] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    url: str = ""
    arrivals: int = 0
    """Pushes received, answered or not yet."""
    _script: list[Answer] = field(default_factory=list)
    _lock: threading.Condition = field(default_factory=threading.Condition)
    _in_flight: int = 0

    def script(self, *answers: Answer) -> None:
        with self._lock:
            self._script.extend(answers)

    def wait_for_pushes(self, count: int, timeout: float) -> list[Push]:
        """The pushes answered, once there are ``count`` of them (or at ``timeout``)."""
        with self._lock:
            self._lock.wait_for(lambda: len(self.pushes) >= count, timeout)
            return list(self.pushes)

    def wait_for_arrivals(self, count: int, timeout: float) -> int:
        """The pushes received (some perhaps still held), once there are ``count``."""
        with self._lock:
            self._lock.wait_for(lambda: self.arrivals >= count, timeout)
            return self.arrivals

    def taken(self) -> list[Push]:
        """The pushes lichess answered with its games (200)."""
        with self._lock:
            return [p for p in self.pushes if p.status == 200]

    # -------------------------------------------------------------- answering

    def handle(
        self, method: str, path: str, headers: Any, body: bytes
    ) -> tuple[int, dict[str, str], bytes]:
        """The answer to one request; a push to the right address is recorded, however
        it is answered."""
        at = time.monotonic()
        status, extra, reply = self._handle(method, path, headers, body)
        found = _PATH.fullmatch(path)
        if method == "POST" and found is not None:
            text = body.decode("utf-8", errors="replace")
            with self._lock:
                self.pushes.append(Push(found.group(1), text, split_games(text), status, at))
                self._lock.notify_all()
        return status, extra, reply

    def _handle(
        self, method: str, path: str, headers: Any, body: bytes
    ) -> tuple[int, dict[str, str], bytes]:
        if method != "POST":
            self.problems.append(f"{method} {path}: lichess takes a push by POST")
            return _json(405, {"error": "Method not allowed"})
        found = _PATH.fullmatch(path)
        if found is None:
            self.problems.append(f"POST {path}: not the push's address")
            return _json(404, {"error": "Not found"})
        round_id = found.group(1)
        if len(round_id) != 8:
            self.problems.append(f"round id {round_id!r}: lichess's are 8 characters")
            return _json(404, {"error": "Not found"})
        authorization = headers.get("Authorization", "")
        if authorization != f"Bearer {self.token}":
            if not authorization.startswith("Bearer "):
                self.problems.append("a push without Authorization: Bearer")
            return _json(401, {"error": "No such token"})
        if round_id != self.round_id:
            return _json(404, {"error": "Not found"})
        if not self.contributor:
            return _json(403, {"error": "Forbidden"})
        media, _, parameters = (headers.get("Content-Type") or "").partition(";")
        charset = parameters.strip().lower().removeprefix("charset=") or "utf-8"
        if media.strip().lower() != "text/plain" or charset != "utf-8":
            self.problems.append(f"Content-Type {headers.get('Content-Type')!r}: not text/plain")
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError:
            self.problems.append("a push that is not UTF-8 text")
            return _json(400, {"error": "Cannot parse PGN"})
        games = split_games(text)
        if not games:
            self.problems.append("an empty push")
        if len(games) > MAX_GAMES:
            self.problems.append(
                f"{len(games)} games in one push: lichess drops every game after the 100th"
            )
        with self._lock:
            answer = self._script.pop(0) if self._script else Answer()
        if answer.hold_s:
            time.sleep(answer.hold_s)
        return self._answer(answer, games[:MAX_GAMES])

    def _answer(self, answer: Answer, games: list[str]) -> tuple[int, dict[str, str], bytes]:
        if answer.status == 429:
            status, extra, body = _json(429, {"error": "Too many requests. Try again later."})
            if answer.retry_after is not None:
                extra["Retry-After"] = answer.retry_after
            return status, extra, body
        if answer.status >= 500:
            return answer.status, {"Content-Type": "text/html"}, b"<h1>Internal error</h1>"
        if answer.status == 400:
            return _json(400, {"error": answer.error or "Cannot parse moves"})
        if answer.status != 200:
            return _json(answer.status, {"error": answer.error or "Error"})
        if self.upstream:
            return _json(200, {"games": [{"tags": {}, "error": UPSTREAM_ERROR}]})
        entries: list[dict[str, Any]] = []
        for game in games:
            tags, moves = read_game(game)
            if answer.error is not None:
                entries.append({"tags": tags, "error": answer.error})
            elif isinstance(moves, str):
                entries.append({"tags": tags, "error": moves})
            else:
                entries.append({"tags": tags, "moves": moves})
        return _json(200, {"games": entries})

    # -------------------------------------------------------------- serving

    @contextmanager
    def running(self) -> Iterator[LichessStandIn]:
        stand_in = self

        class Handler(BaseHTTPRequestHandler):
            def _any(self) -> None:
                with stand_in._lock:
                    stand_in._in_flight += 1
                    stand_in.arrivals += 1
                    stand_in._lock.notify_all()
                    if stand_in._in_flight > 1:
                        stand_in.problems.append("two requests at once")
                try:
                    length = int(self.headers.get("Content-Length") or 0)
                    body = self.rfile.read(length)
                    status, extra, reply = stand_in.handle(
                        self.command, self.path, self.headers, body
                    )
                finally:
                    with stand_in._lock:
                        stand_in._in_flight -= 1
                self.send_response(status)
                for name, value in extra.items():
                    self.send_header(name, value)
                self.send_header("Access-Control-Allow-Origin", "*")
                self.send_header("Content-Length", str(len(reply)))
                self.end_headers()
                self.wfile.write(reply)

            do_POST = do_GET = do_PUT = _any

            def log_message(self, format: str, *args: Any) -> None:
                pass

        server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        server.daemon_threads = True
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        self.url = f"http://127.0.0.1:{server.server_address[1]}"
        try:
            yield self
        finally:
            server.shutdown()
            server.server_close()
            thread.join(timeout=10)


def _json(status: int, data: Any) -> tuple[int, dict[str, str], bytes]:
    return status, {"Content-Type": "application/json"}, json.dumps(data).encode("utf-8")
