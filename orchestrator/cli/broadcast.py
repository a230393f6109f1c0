"""``playoff broadcast``: the play-off's games on a broadcast platform.

``playoff broadcast push`` reads the play-off's broadcast PGN from the service and
pushes every change to a lichess broadcast round (:mod:`orchestrator.cli.push`).
This module holds only the options and their checks: it is loaded with the rest
of the command line, and what pushes is loaded when a push starts.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Annotated, NoReturn
from urllib.parse import parse_qsl, quote, urlencode, urlsplit, urlunsplit

import typer

app = typer.Typer(
    help="The play-off's games on a broadcast platform (lichess).",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

LICHESS = "https://lichess.org"
SERVICE = "http://127.0.0.1:8000"

_ROUND_ID = re.compile(r"[A-Za-z0-9]{8}")
_PLAYOFF_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
_SECRET = re.compile(r"[\x21-\x7e]+")
"""A token or a key: printable ASCII without spaces, as an HTTP header carries it."""


class Refused(Exception):
    """An option that cannot be used, in words."""


def _fail(message: str) -> NoReturn:
    sys.stderr.write(f"error: {message}\n")
    raise typer.Exit(code=2)


def base_url(url: str, option: str) -> str:
    """An http(s) address given as an option, without its trailing ``/``."""
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise Refused(f"{option}: {url!r} is not an http:// or https:// address")
    return urlunsplit((parts.scheme, parts.netloc, parts.path.rstrip("/"), "", ""))


def feed_urls(playoff: str, service: str | None, key: str | None) -> tuple[str, str]:
    """The address of the play-off's broadcast PGN, and the same with its key hidden
    (to be shown): from the play-off's id and ``--service``, or from the feed's
    address as the console shows it, whole or from its ``/api/...``."""
    text = playoff.strip()
    if text.startswith(("http://", "https://", "/")):
        if text.startswith("/"):
            text = base_url(service or SERVICE, "--service") + text
        elif service is not None:
            raise Refused(
                "--service: the feed's address already names the service; give one or "
                "the other"
            )
        parts = urlsplit(text)
        if not parts.netloc:
            raise Refused(f"PLAYOFF: {playoff!r} is not an address")
        query = parse_qsl(parts.query, keep_blank_values=True)
        if key is not None:
            if any(name == "key" for name, _ in query):
                raise Refused(
                    "--key: the feed's address already carries a key; give one or the other"
                )
            query.append(("key", key))
        url = urlunsplit((parts.scheme, parts.netloc, parts.path, urlencode(query), ""))
        shown = [(name, "[key]" if name == "key" else value) for name, value in query]
        return url, urlunsplit(
            (parts.scheme, parts.netloc, parts.path, urlencode(shown, safe="[]"), "")
        )
    if not _PLAYOFF_ID.fullmatch(text):
        raise Refused(
            f"PLAYOFF: {playoff!r} is neither a play-off's id nor the address of its "
            "broadcast feed"
        )
    base = base_url(service or SERVICE, "--service")
    path = f"{base}/api/playoffs/{quote(text, safe='')}/broadcast.pgn"
    if key is None:
        return path, path
    return f"{path}?{urlencode({'key': key})}", f"{path}?key=[key]"


def read_secret(path: Path, option: str, what: str) -> str:
    """The first line of a file that holds a token or a key, never shown back."""
    try:
        first = path.read_text(encoding="utf-8").split("\n", 1)[0].strip()
    except FileNotFoundError:
        raise Refused(f"{option} {path}: there is no such file") from None
    except IsADirectoryError:
        raise Refused(f"{option} {path}: is a folder, not a file") from None
    except UnicodeDecodeError:
        raise Refused(f"{option} {path}: is not a text file holding {what}") from None
    except OSError as exc:
        raise Refused(f"{option} {path}: cannot be read ({exc.strerror or exc})") from None
    if not first:
        raise Refused(f"{option} {path}: the file is empty; put {what} on its first line")
    if not _SECRET.fullmatch(first):
        raise Refused(
            f"{option} {path}: its first line is not {what} (no spaces, letters, digits "
            "and punctuation only)"
        )
    return first


def round_id(text: str) -> str:
    if not _ROUND_ID.fullmatch(text.strip()):
        raise Refused(
            f"--round: {text!r} is not a lichess round id: 8 letters and digits, the end "
            "of the round's address (https://lichess.org/broadcast/<tour>/<round>/<id>)"
        )
    return text.strip()


@app.command()
def push(
    playoff: Annotated[
        str,
        typer.Argument(
            help="The play-off's id, or its broadcast feed's address as the console "
            "shows it (with ?key=)",
            show_default=False,
        ),
    ],
    round: Annotated[
        str,
        typer.Option("--round", help="The lichess broadcast round's id (8 characters)",
                     show_default=False),
    ],
    token_file: Annotated[
        Path,
        typer.Option("--token-file",
                     help="A file whose first line is a lichess token with study:write",
                     show_default=False),
    ],
    to: Annotated[str, typer.Option("--to", help="The lichess server")] = LICHESS,
    service: Annotated[
        str | None,
        typer.Option("--service", help=f"The play-off service (default {SERVICE})",
                     show_default=False),
    ] = None,
    key: Annotated[
        str | None,
        typer.Option("--key", help="The broadcast key, minted on the event console",
                     show_default=False),
    ] = None,
    key_file: Annotated[
        Path | None,
        typer.Option("--key-file", help="A file whose first line is the broadcast key",
                     show_default=False),
    ] = None,
    every: Annotated[
        float,
        typer.Option("--every", min=0.1, max=3600.0,
                     help="Seconds between two readings of the feed"),
    ] = 1.0,
    once: Annotated[
        bool,
        typer.Option("--once", help="Push the feed as it is now, once; exit 0 if lichess "
                     "took every game, 1 if not"),
    ] = False,
) -> None:
    """Push the play-off's broadcast PGN to a lichess broadcast round, and every
    change to it, until stopped (Ctrl-C)."""
    try:
        lichess_round = round_id(round)
        lichess = base_url(to, "--to")
        token = read_secret(token_file, "--token-file", "a lichess token")
        if key is not None and key_file is not None:
            raise Refused("--key and --key-file: give the broadcast key once")
        if key_file is not None:
            key = read_secret(key_file, "--key-file", "the broadcast key")
        elif key is not None and not key.strip():
            raise Refused("--key: the broadcast key is empty")
        elif key is not None and not _SECRET.fullmatch(key.strip()):
            raise Refused("--key: a broadcast key has no spaces")
        url, shown = feed_urls(playoff, service, key.strip() if key is not None else None)
    except Refused as exc:
        _fail(str(exc))

    import random
    import time

    from orchestrator.cli.push import Feed, Pusher

    def say(line: str) -> None:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    def warn(line: str) -> None:
        sys.stderr.write(line + "\n")
        sys.stderr.flush()

    pusher = Pusher(
        feed=Feed(url, shown),
        push_url=f"{lichess}/api/broadcast/round/{lichess_round}/push",
        round_id=lichess_round,
        token=token,
        say=say,
        warn=warn,
        sleep=time.sleep,
        now=time.time,
        jitter=random.random,
        every_s=every,
    )
    if not once:
        warn(f"pushing {shown} to {lichess} round {lichess_round}; Ctrl-C stops")
    try:
        code = pusher.run(once=once)
    except KeyboardInterrupt:
        code = 0
    raise typer.Exit(code=code)
