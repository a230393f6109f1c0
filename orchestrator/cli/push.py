"""Pushing a play-off's broadcast PGN to a lichess broadcast round.

lichess takes a round's games by ``POST /api/broadcast/round/{round}/push``, the
PGN as the body, for a round that has no source URL of its own. Its rules, which
shape what is here:

- at most 100 games a push: lichess keeps the first 100 and drops the rest without
  a word, so a longer PGN goes in several pushes, split where lichess splits games
  (a blank line before a ``[``), never inside a game;
- one request at a time, and after a 429 a wait of a minute (or what a
  ``Retry-After`` asks, should lichess ever send one);
- a refused token (401) or an account that may not write to the round (403) does
  not get better by asking again.

The decisions (how to split, how long to wait, what to say of an answer) are plain
functions of their inputs; :class:`Pusher` is the loop that reads the feed, pushes
and waits, with the clock, the sleep and the dice given to it.
"""

from __future__ import annotations

import email.utils
import json
import re
import urllib.error
import urllib.request
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC
from enum import Enum
from http.client import HTTPException
from typing import Any

MAX_GAMES_PER_PUSH = 100
"""lichess's limit: the games after the hundredth of a push are dropped unread."""

RATE_LIMITED_WAIT_S = 60.0
"""After a 429 without ``Retry-After``: lichess's API documentation asks for a minute."""

MAX_BACKOFF_S = 60.0
"""The longest wait between tries when lichess (or the service) does not answer."""

ONCE_TRIES = 5
"""How many times ``--once`` tries before it gives up on an unanswered push."""

HTTP_TIMEOUT_S = 30.0

UPSTREAM_REFUSAL = "upstream URL"
"""What lichess says when the round reads a source URL of its own ("The relay has an
upstream URL, and cannot be pushed to."): every push to it is refused alike."""

# lichess splits a push as its MultiPgn does: "\n\n(?=\[)" once "\r" is removed.
_GAME_BREAK = re.compile(r"\n\n(?=\[)")
_TAG_LINE = re.compile(r'^\[([A-Za-z0-9_]+)\s+"(.*)"\]\s*$', re.MULTILINE)
_PGN_ESCAPE = re.compile(r'\\([\\"])')


# ---------------------------------------------------------------- splitting the PGN


def split_games(pgn: str) -> list[str]:
    """The games of ``pgn`` as lichess reads them apart, each without the blank
    lines around it."""
    text = pgn.replace("\r", "")
    return [game.strip("\n") for game in _GAME_BREAK.split(text) if game.strip()]


def split_pushes(pgn: str, most: int = MAX_GAMES_PER_PUSH) -> list[list[str]]:
    """``pgn``'s games in pushes of at most ``most`` whole games, in order."""
    games = split_games(pgn)
    return [games[start:start + most] for start in range(0, len(games), most)]


def push_body(games: Sequence[str]) -> str:
    """The text of one push: its games separated by a blank line, as lichess asks."""
    return "\n\n".join(games) + "\n"


def game_tags(game: str) -> dict[str, str]:
    """The tag pairs of one game's PGN, their values unescaped as lichess reads them
    (PGN standard, section 7: ``\\"`` and ``\\\\``)."""
    return {
        name: _PGN_ESCAPE.sub(r"\1", value) for name, value in _TAG_LINE.findall(game)
    }


# ---------------------------------------------------------------- waiting


def backoff_s(failures: int, jitter: float) -> float:
    """The wait after ``failures`` unanswered tries in a row: 1, 2, 4 … up to 60 s,
    each moved by up to a fifth either way by ``jitter`` (0 to 1), so that pushers
    stopped by the same outage do not all come back in the same second."""
    base = min(MAX_BACKOFF_S, 2.0 ** max(0, failures - 1))
    return min(MAX_BACKOFF_S, base * (0.8 + 0.4 * jitter))


def retry_after_s(value: str | None, now: float) -> float | None:
    """The seconds a ``Retry-After`` header asks for (a number of seconds or an HTTP
    date, RFC 9110 10.2.3), counted from ``now`` (seconds since the epoch); None when
    there is none or it cannot be read."""
    if value is None:
        return None
    text = value.strip()
    if text.isascii() and text.isdigit():
        return float(int(text))
    try:
        when = email.utils.parsedate_to_datetime(text)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:  # "-0000": HTTP dates are in GMT whatever they say
        when = when.replace(tzinfo=UTC)
    return max(0.0, when.timestamp() - now)


def rate_limited_wait_s(retry_after: str | None, now: float) -> float:
    """How long to wait after a 429: as ``Retry-After`` says, else a minute."""
    asked = retry_after_s(retry_after, now)
    return RATE_LIMITED_WAIT_S if asked is None else asked


# ---------------------------------------------------------------- lichess's answer


class Verdict(Enum):
    TAKEN = "taken"
    """lichess answered the push (some of its games may have been refused)."""
    REFUSED = "refused"
    """lichess refused this push as a whole (400): the next change is pushed again."""
    WAIT = "wait"
    """No answer, a server error or a rate limit: the push is tried again later."""
    STOP = "stop"
    """Asking again cannot help (a refused token, no such round, a round with a
    source URL): the pusher stops."""


@dataclass(frozen=True)
class Outcome:
    verdict: Verdict
    lines: list[str]
    every_game_taken: bool = False
    wait_s: float = 0.0
    unanswered: bool = False
    """No answer, or a server error: the next wait is longer (a 429 is an answer)."""


def surname(name: str) -> str:
    """How a broadcast names a player in a line: the surname of "Surname, Given"."""
    return name.split(",", 1)[0].strip() or name


def game_title(tags: Mapping[str, str]) -> str | None:
    """A game as the broadcaster names it: "Round 3.1 Abdusattorov v Sindarov";
    None when the tags say nothing of it."""
    white, black = tags.get("White"), tags.get("Black")
    rnd = tags.get("Round", "").strip()
    words = []
    if rnd and rnd not in ("?", "-"):
        words.append(f"Round {rnd}")
    if white or black:
        words.append(f"{surname(white or '?')} v {surname(black or '?')}")
    return " ".join(words) or None


def moves_words(plies: int) -> str:
    return "1 move" if plies == 1 else f"{plies} moves"


def answer_lines(sent: Sequence[str], games: Sequence[Mapping[str, Any]]) -> tuple[list[str], bool]:
    """One line per game of lichess's answer to a push of the games ``sent``
    ("Round 3.1 Abdusattorov v Sindarov: 34 moves", "...: refused: Cannot parse
    moves"), and whether every game sent was taken.

    lichess names each game by the tags it read; a game it could not read may come
    back without tags, and is then named by the tags it was sent with."""
    lines = []
    taken = 0
    for number, entry in enumerate(games, start=1):
        raw_tags = entry.get("tags")
        tags = {str(k): str(v) for k, v in raw_tags.items()} if isinstance(raw_tags, dict) else {}
        if not tags and len(games) == len(sent):
            tags = game_tags(sent[number - 1])
        title = game_title(tags) or (f"Game {number}" if len(games) == len(sent) else "The push")
        error = entry.get("error")
        moves = entry.get("moves")
        if error is not None:
            lines.append(f"{title}: refused: {error}")
        elif isinstance(moves, int) and not isinstance(moves, bool):
            taken += 1
            lines.append(f"{title}: {moves_words(moves)}")
        else:
            taken += 1  # taken, without saying how far it read
            lines.append(f"{title}: taken")
    if len(games) < len(sent):
        missing = len(sent) - len(games)
        lines.append(
            f"lichess answered for {len(games)} of the {len(sent)} games pushed; "
            f"{missing} {'was' if missing == 1 else 'were'} not taken"
        )
    return lines, bool(sent) and taken == len(sent)


def header(headers: Mapping[str, str], name: str) -> str | None:
    """A header's value, whatever the case of its name."""
    wanted = name.lower()
    return next((v for k, v in headers.items() if k.lower() == wanted), None)


def _json_error(body: bytes) -> str | None:
    try:
        data = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return None
    error = data.get("error") if isinstance(data, dict) else None
    return error if isinstance(error, str) else None


def judge(
    status: int, headers: Mapping[str, str], body: bytes, sent: Sequence[str], round_id: str,
    *, now: float, failures: int, jitter: float,
) -> Outcome:
    """What lichess's answer to a push of ``sent`` means, in words; ``failures``
    counts the unanswered tries before this one (for the back-off)."""
    error = _json_error(body)
    if status == 200:
        try:
            games = json.loads(body.decode("utf-8"))["games"]
            if not isinstance(games, list) or not all(isinstance(g, dict) for g in games):
                raise TypeError
        except (UnicodeDecodeError, ValueError, KeyError, TypeError):
            wait = backoff_s(failures + 1, jitter)
            return Outcome(Verdict.WAIT, [
                f"lichess's answer to the push could not be read; trying again in {wait:.0f} s"
            ], wait_s=wait, unanswered=True)
        upstream = next(
            (str(g["error"]) for g in games if UPSTREAM_REFUSAL in str(g.get("error", ""))),
            None,
        )
        if upstream is not None:
            return Outcome(Verdict.STOP, [
                f"lichess refused the push: {upstream}",
                f"lichess round {round_id} reads a source URL of its own, so it takes no "
                "push: remove the round's source URL on lichess, or let lichess read the "
                "play-off's feed as that source instead of pushing",
            ])
        lines, every = answer_lines(sent, games)
        return Outcome(Verdict.TAKEN, lines, every_game_taken=every)
    if status == 400:
        return Outcome(Verdict.REFUSED, [
            f"lichess refused the push of {len(sent)} {_games(len(sent))}: "
            f"{error or 'no reason given'}"
        ])
    if status == 401:
        return Outcome(Verdict.STOP, [
            "lichess refused the token (401): it is wrong, expired or revoked; make one "
            "with the study:write scope at https://lichess.org/account/oauth/token/create "
            "and put it in the --token-file"
        ])
    if status == 403:
        return Outcome(Verdict.STOP, [
            f"lichess refused the push to round {round_id} (403): the token lacks the "
            "study:write scope, or its account is not a contributor of the broadcast"
        ])
    if status == 404:
        return Outcome(Verdict.STOP, [
            f"lichess has no broadcast round {round_id} (404): take the 8 letters and "
            "digits at the end of the round's address on lichess"
        ])
    if status == 429:
        wait = rate_limited_wait_s(header(headers, "Retry-After"), now)
        return Outcome(Verdict.WAIT, [
            f"lichess asks to slow down (429): pushing again in {wait:.0f} s"
        ], wait_s=wait)
    if status >= 500:
        wait = backoff_s(failures + 1, jitter)
        return Outcome(Verdict.WAIT, [
            f"lichess could not take the push (HTTP {status}); trying again in {wait:.0f} s"
        ], wait_s=wait, unanswered=True)
    return Outcome(Verdict.STOP, [
        f"lichess refused the push (HTTP {status}): {error or 'no reason given'}"
    ])


def _games(count: int) -> str:
    return "game" if count == 1 else "games"


# ---------------------------------------------------------------- the loop


@dataclass(frozen=True)
class Reply:
    status: int
    headers: dict[str, str]
    body: bytes


def http(
    method: str, url: str, headers: Mapping[str, str], body: bytes | None = None,
    timeout: float = HTTP_TIMEOUT_S,
) -> Reply:
    """One HTTP request; every status is a :class:`Reply`, and a network failure an
    ``OSError`` (with lichess's and the service's words left to the caller)."""
    request = urllib.request.Request(url, data=body, method=method, headers=dict(headers))
    # No proxy from the environment: the service usually runs beside the pusher.
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    try:
        with opener.open(request, timeout=timeout) as response:
            return Reply(response.status, dict(response.headers.items()), response.read())
    except urllib.error.HTTPError as exc:
        with exc:
            return Reply(exc.code, dict(exc.headers.items()), exc.read())
    except HTTPException as exc:  # a connection cut mid-answer, a garbled one
        raise OSError(f"{type(exc).__name__} {exc}".strip()) from exc


class Stopped(Exception):
    """The pusher cannot go on: the service or lichess refused it for good."""

    def __init__(self, message: str, code: int) -> None:
        super().__init__(message)
        self.code = code


@dataclass
class Feed:
    """The play-off's broadcast PGN, read again only when it changed (``ETag``)."""

    url: str
    shown_url: str
    request: Callable[..., Reply] = http
    etag: str | None = None
    text: str = ""

    def read(self) -> bool:
        """Read the feed; True when its PGN changed. Raises ``OSError`` when the
        service does not answer, :class:`Stopped` when it refuses."""
        headers = {"Accept": "application/x-chess-pgn"}
        if self.etag is not None:
            headers["If-None-Match"] = self.etag
        reply = self.request("GET", self.url, headers)
        if reply.status == 304:
            return False
        if reply.status == 200:
            self.etag = header(reply.headers, "ETag")
            text = reply.body.decode("utf-8", errors="replace")
            changed = text != self.text
            self.text = text
            return changed
        if reply.status in (401, 403):
            raise Stopped(
                f"the service refused to show the play-off's feed ({reply.status}): give "
                "the broadcast key (--key or --key-file), minted on the event console, or "
                "the feed's whole address with its key",
                code=2,
            )
        if reply.status == 404:
            raise Stopped(
                f"the service has no play-off feed at {self.shown_url} (404): check the "
                "play-off's id and --service",
                code=2,
            )
        raise OSError(f"the service answered HTTP {reply.status}")


@dataclass
class Pusher:
    """Reads the feed every ``every_s`` seconds and pushes what changed.

    A change that comes while a push is under way, or while waiting to try again,
    is not queued behind it: the next push (or the next try) sends the feed as it
    is then, so a burst of changes costs one push, of the latest PGN."""

    feed: Feed
    push_url: str
    round_id: str
    token: str
    say: Callable[[str], None]
    """Where lichess's answers go, a line per game."""
    warn: Callable[[str], None]
    """Where waits, refusals and stops go."""
    sleep: Callable[[float], None]
    now: Callable[[], float]
    jitter: Callable[[], float]
    every_s: float = 1.0
    request: Callable[..., Reply] = http
    taken: list[str] = field(default_factory=list)
    """The text of each push lichess last took, by its place: an unchanged hundred
    games are not sent again."""

    def run(self, *, once: bool = False) -> int:
        """Push until stopped (or, ``once``, the feed as it is now); the exit code:
        0 when every game pushed was taken, 1 when not, 2 when the feed is refused."""
        unanswered = 0  # tries in a row that got no answer: the back-off's count
        tries = 0  # tries in a row that did not get the push through
        every_game_taken = True
        said_empty = False
        while True:
            try:
                self.feed.read()
            except OSError as exc:
                unanswered += 1
                tries += 1
                if once and tries >= ONCE_TRIES:
                    self.warn(f"the service did not answer ({_reason(exc)}); giving up")
                    return 1
                wait = backoff_s(unanswered, self.jitter())
                self.warn(
                    f"the service did not answer ({_reason(exc)}); reading the feed again "
                    f"in {wait:.0f} s"
                )
                self.sleep(wait)
                continue
            except Stopped as stop:
                self.warn(str(stop))
                return stop.code
            pushes = [push_body(games) for games in split_pushes(self.feed.text)]
            del self.taken[len(pushes):]
            if not pushes and not said_empty:
                self.warn("no game in the play-off's feed yet: nothing to push")
                said_empty = True
            todo = next(
                (n for n, body in enumerate(pushes)
                 if n >= len(self.taken) or self.taken[n] != body),
                None,
            )
            if todo is None:
                unanswered = tries = 0
                if once:
                    return 0 if every_game_taken else 1
                self.sleep(self.every_s)
                continue
            outcome = self._push(pushes[todo], todo, len(pushes), unanswered)
            for line in outcome.lines:
                (self.say if outcome.verdict is Verdict.TAKEN else self.warn)(line)
            if outcome.verdict is Verdict.STOP:
                return 1
            if outcome.verdict is Verdict.WAIT:
                unanswered = unanswered + 1 if outcome.unanswered else 0
                tries += 1
                if once and tries >= ONCE_TRIES:
                    self.warn(f"lichess did not take the push after {tries} tries; giving up")
                    return 1
                self.sleep(outcome.wait_s)
                continue
            unanswered = tries = 0
            every_game_taken = every_game_taken and outcome.every_game_taken
            # Every push before this one is as lichess last took it.
            if todo < len(self.taken):
                self.taken[todo] = pushes[todo]
            else:
                self.taken.append(pushes[todo])

    def _push(self, body: str, index: int, count: int, unanswered: int) -> Outcome:
        sent = split_games(body)
        try:
            reply = self.request(
                "POST", self.push_url,
                {"Authorization": f"Bearer {self.token}",
                 "Content-Type": "text/plain; charset=utf-8",
                 "Accept": "application/json",
                 "User-Agent": "playoff-orchestrator broadcast push"},
                body.encode("utf-8"),
            )
        except OSError as exc:
            wait = backoff_s(unanswered + 1, self.jitter())
            return Outcome(Verdict.WAIT, [
                f"lichess did not answer ({_reason(exc)}); trying again in {wait:.0f} s"
            ], wait_s=wait, unanswered=True)
        outcome = judge(
            reply.status, reply.headers, reply.body, sent, self.round_id,
            now=self.now(), failures=unanswered, jitter=self.jitter(),
        )
        lines = outcome.lines
        if count > 1 and outcome.verdict is Verdict.TAKEN:
            first = index * MAX_GAMES_PER_PUSH + 1
            lines = [f"games {first} to {first + len(sent) - 1} of the feed:", *lines]
        # Nothing lichess says is printed with the token in it, whatever it echoes.
        return replace(outcome, lines=[line.replace(self.token, "[token]") for line in lines])


def _reason(exc: OSError) -> str:
    reason = getattr(exc, "reason", None) or exc.strerror or str(exc) or type(exc).__name__
    return str(reason)
