"""``playoff-arbiter``: the arbiter's command line, built on the client library.

``watch`` follows a play-off: its matches with the players' names, the results and
the clocks (``m:ss``), as the server words them in the console's view; in a
terminal a board kept current, and when its output is not a terminal (a pipe, a
file) a plain line for each change, with no control codes. The other commands each
send one command over the websocket and say what the server logged (``logged: seq
12 (clock-pressed)``), and for a drawing of lots or a coin toss who won it, by name;
with ``--json`` they print the acknowledgement for scripts. A refusal is said in the
service's own words (``refused: it is Black's turn``), never as JSON or a traceback.
``dgt`` forwards the moves and clocks of DGT e-boards, read by DGT LiveChess
(``clients/python/dgt.py``), until Ctrl-C.
The token comes from ``--token`` or the ``PLAYOFF_TOKEN`` environment variable,
never from the URL. A play-off of more than one match needs ``-m/--match`` on
every command about a match: a press on the wrong board's clock is worse than a
refusal.
"""

from __future__ import annotations

import asyncio
import json
import sys
import urllib.error
import urllib.request
import uuid
from collections.abc import Awaitable, Callable
from typing import Annotated, Any, TypeVar
from urllib.parse import quote, urlsplit, urlunsplit

import typer
from rich.console import Console, Group
from rich.live import Live
from rich.text import Text

from clients.python import board
from clients.python.client import PlayoffClient
from clients.python.errors import ClientError, CommandError

app = typer.Typer(
    help="The arbiter's command line for a running play-off.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
T = TypeVar("T")

Server = Annotated[str, typer.Option("--server", "-s", envvar="PLAYOFF_SERVER")]
Token = Annotated[str, typer.Option("--token", "-t", envvar="PLAYOFF_TOKEN")]
PlayoffArg = Annotated[str, typer.Argument(help="The play-off id")]
MatchOpt = Annotated[
    int | None,
    typer.Option("--match", "-m", min=1, help="The match (needed when there are several)"),
]
GameOpt = Annotated[int, typer.Option("--game", "-g", min=1)]
CommandId = Annotated[
    str | None, typer.Option("--id", help="Command id (a resent id is applied once)")
]
JsonOpt = Annotated[
    bool, typer.Option("--json", help="Print the acknowledgement as JSON, for scripts")
]

DEFAULT_SERVER = "http://127.0.0.1:8000"


class UsageError(ClientError):
    """What the arbiter asked for cannot be sent as it stands."""


def _run(work: Callable[[], Awaitable[T]]) -> T:
    """Run ``work``: a refusal of the command exits 1, any other failure (the token,
    the play-off, the server out of reach) 2, each said in the server's words on one
    line, however long (a script greps it)."""
    try:
        return asyncio.run(_await(work))
    except CommandError as exc:
        _say("refused: ", exc.reason)
        raise typer.Exit(code=1) from None
    except ClientError as exc:
        _say("error: ", str(exc))
        raise typer.Exit(code=2) from None


def _say(what: str, words: str) -> None:
    Console(stderr=True, soft_wrap=True).print(
        Text.assemble((what, "bold red"), words), highlight=False
    )


async def _await(work: Callable[[], Awaitable[T]]) -> T:
    return await work()


def _http_base(server: str) -> str:
    parts = urlsplit(server)
    scheme = {"ws": "http", "wss": "https"}.get(parts.scheme.lower(), parts.scheme.lower())
    if scheme not in ("http", "https") or not parts.netloc:
        raise UsageError(f"--server must be an http(s):// URL, not {server!r}")
    return urlunsplit((scheme, parts.netloc, parts.path.rstrip("/"), "", ""))


def _get(server: str, token: str, path: str) -> Any:
    """``GET`` a JSON resource of the API with the token; a refusal in the server's words."""
    request = urllib.request.Request(
        _http_base(server) + path,
        headers={"Authorization": f"Bearer {token}", "Accept": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.loads(response.read().decode("utf-8"))
    except urllib.error.HTTPError as exc:
        raise ClientError(_detail(exc)) from None
    except OSError as exc:  # URLError, refused connections, time-outs
        reason = getattr(exc, "reason", exc)
        raise ClientError(f"cannot reach {server}: {reason}") from None
    except ValueError:
        raise ClientError(
            f"{server} did not answer with JSON; is it the play-off service?"
        ) from None


def _post(server: str, token: str, path: str, body: dict[str, Any], key: str) -> Any:
    """``POST`` JSON with the token and an idempotency key: sent again with the same
    key, the server answers as the first time and logs nothing more."""
    request = urllib.request.Request(
        _http_base(server) + path, data=json.dumps(body).encode("utf-8"), method="POST",
        headers={"Authorization": f"Bearer {token}", "Accept": "application/json",
                 "Content-Type": "application/json", "Idempotency-Key": key},
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.loads(response.read().decode("utf-8"))
    except urllib.error.HTTPError as exc:
        if exc.code in REFUSALS:  # the command itself refused: nothing was logged
            raise CommandError(f"HTTP {exc.code}", _detail(exc), key) from None
        raise ClientError(_detail(exc)) from None
    except OSError as exc:
        reason = getattr(exc, "reason", exc)
        raise ClientError(f"cannot reach {server}: {reason}") from None


REFUSALS = (403, 409, 422)
"""The answers that refuse a command (its role, its rule, a field); the others say
the token, the address or the server is wrong."""


def _detail(exc: urllib.error.HTTPError) -> str:
    """The server's reason for refusing, as it words it."""
    try:
        detail = json.loads(exc.read().decode("utf-8")).get("detail", exc.reason)
    except (ValueError, AttributeError):
        detail = exc.reason
    if isinstance(detail, list):  # a 422: each field and what is wrong with it
        detail = "; ".join(str(d.get("message") or d.get("msg")) for d in detail)
    return str(detail)


def _event_path(event: str) -> str:
    return f"/api/events/{quote(event, safe='')}"


def _playoff_path(playoff: str) -> str:
    return f"/api/playoffs/{quote(playoff, safe='')}"


def _which_match(server: str, token: str, playoff: str, match: int | None) -> int:
    """The match the command is about: the one given, or the play-off's only match."""
    if match is not None:
        return match
    view = _get(server, token, _playoff_path(playoff))
    playable = [m["id"] for m in view.get("matches", []) if not m.get("bye")]
    if len(playable) > 1:
        listed = ", ".join(str(m) for m in playable)
        raise UsageError(
            f"this play-off has {len(playable)} matches ({listed}): say which one with "
            "-m/--match"
        )
    return playable[0] if playable else 1


def _logged_types(server: str, token: str, playoff: str, seqs: list[int]) -> dict[int, str]:
    """What the server logged at ``seqs``; empty if the log cannot be read now."""
    if not seqs:
        return {}
    after, limit = min(seqs) - 1, max(seqs) - min(seqs) + 1
    try:
        log = _get(server, token, f"{_playoff_path(playoff)}/events?after={after}&limit={limit}")
    except ClientError:
        return {}  # the command is logged all the same: say so without the names
    return {e["seq"]: e["type"] for e in log.get("events", []) if e.get("seq") in seqs}


def _drawn(server: str, token: str, playoff: str, seqs: list[int]) -> list[str]:
    """What the lots or coin tosses logged at ``seqs`` drew, in the console's words
    ("Lots, Final: Sindarov has White in game 1"); empty if it cannot be read now."""
    try:
        view = _get(server, token, f"{_playoff_path(playoff)}/view?kind=arbiter")
    except ClientError:
        return []
    return [d["text"] for d in view.get("draws", []) if d.get("seq") in seqs]


def _send(server: str, token: str, playoff: str, type_: str, command_id: str | None,
          as_json: bool = False, *, tell_draw: bool = False, **fields: Any) -> None:
    async def work() -> list[int]:
        if "match" in fields:
            fields["match"] = _which_match(server, token, playoff, fields["match"])
        async with PlayoffClient(server, playoff, token, name="playoff-arbiter",
                                 reconnect=False) as client:
            ack = await client.command(type_, id=command_id or uuid.uuid4().hex, **fields)
        if as_json:
            sys.stdout.write(json.dumps({"ack": ack.id, "seqs": list(ack.seqs)}) + "\n")
        return list(ack.seqs)

    seqs = _run(work)
    if as_json:
        return
    if not seqs:
        sys.stdout.write("accepted: nothing to log\n")
        return
    types = _logged_types(server, token, playoff, seqs)
    for seq in seqs:
        what = f" ({types[seq]})" if seq in types else ""
        sys.stdout.write(f"logged: seq {seq}{what}\n")
    if tell_draw:
        for text in _drawn(server, token, playoff, seqs):
            sys.stdout.write(f"{text}\n")


@app.command()
def press(
    playoff: PlayoffArg, side: Annotated[str, typer.Argument(help="white or black")],
    move: Annotated[
        int | None,
        typer.Argument(min=1, help="The move the side completed (default: its next move)"),
    ] = None,
    match: MatchOpt = None, game: GameOpt = 1, server: Server = DEFAULT_SERVER,
    token: Token = "", command_id: CommandId = None, as_json: JsonOpt = False,
) -> None:
    """Press a side's clock after its move (the server counts the moves)."""
    fields: dict[str, Any] = {"match": match, "game": game, "side": side}
    if move is not None:
        fields["move"] = move
    _send(server, token, playoff, "press", command_id, as_json, **fields)


@app.command()
def start(
    playoff: PlayoffArg, match: MatchOpt = None, game: GameOpt = 1,
    override: Annotated[str | None, typer.Option(
        "--override", metavar="REASON",
        help="The chief arbiter's reason to start before the rest the players are owed, "
        "or before the time the chief arbiter set (logged and listed)",
    )] = None,
    server: Server = DEFAULT_SERVER, token: Token = "", command_id: CommandId = None,
    as_json: JsonOpt = False,
) -> None:
    """Start a game and White's clock."""
    fields: dict[str, Any] = {"match": match, "game": game}
    if override is not None:
        fields["override"] = override
    _send(server, token, playoff, "start-clock", command_id, as_json, **fields)


@app.command()
def pause(playoff: PlayoffArg, match: MatchOpt = None, game: GameOpt = 1,
          server: Server = DEFAULT_SERVER, token: Token = "", command_id: CommandId = None,
          as_json: JsonOpt = False) -> None:
    """Pause the running clock."""
    _send(server, token, playoff, "pause", command_id, as_json, match=match, game=game)


@app.command()
def resume(
    playoff: PlayoffArg, match: MatchOpt = None, game: GameOpt = 1,
    server: Server = DEFAULT_SERVER, token: Token = "", command_id: CommandId = None,
    as_json: JsonOpt = False,
) -> None:
    """Resume a paused clock."""
    _send(server, token, playoff, "resume", command_id, as_json, match=match, game=game)


@app.command()
def adjust(
    playoff: PlayoffArg, side: Annotated[str, typer.Argument()],
    seconds: Annotated[float, typer.Argument(help="Positive gives, negative takes")],
    reason: Annotated[str, typer.Option("--reason", "-r")],
    match: MatchOpt = None, game: GameOpt = 1, server: Server = DEFAULT_SERVER,
    token: Token = "", command_id: CommandId = None, as_json: JsonOpt = False,
) -> None:
    """Give or take time, with a reason that goes into the log."""
    _send(server, token, playoff, "adjust", command_id, as_json, match=match, game=game,
          side=side, delta_ms=round(seconds * 1000), reason=reason)


@app.command()
def result(
    playoff: PlayoffArg, outcome: Annotated[str, typer.Argument(help="1-0, 0-1, 1/2-1/2, +/-…")],
    match: MatchOpt = None, game: GameOpt = 1, server: Server = DEFAULT_SERVER,
    token: Token = "", command_id: CommandId = None, as_json: JsonOpt = False,
) -> None:
    """Record a game's result."""
    _send(server, token, playoff, "result", command_id, as_json, match=match, game=game,
          result=outcome)


@app.command()
def correct(
    playoff: PlayoffArg,
    outcome: Annotated[str, typer.Argument(help="The right result: 1-0, 0-1, 1/2-1/2, +/-…")],
    reason: Annotated[str, typer.Option("--reason", "-r", help="Why, for the log")],
    match: MatchOpt = None, game: GameOpt = 1, server: Server = DEFAULT_SERVER,
    token: Token = "", command_id: CommandId = None, as_json: JsonOpt = False,
) -> None:
    """Correct an earlier result, with a reason; the bracket follows the new result."""
    _send(server, token, playoff, "correct", command_id, as_json, match=match, game=game,
          result=outcome, reason=reason)


@app.command()
def lots(playoff: PlayoffArg, match: MatchOpt = None, server: Server = DEFAULT_SERVER,
         token: Token = "", command_id: CommandId = None, as_json: JsonOpt = False) -> None:
    """Draw lots for White in game 1 (commit and reveal), and say who has White."""
    _send(server, token, playoff, "lots", command_id, as_json, tell_draw=True, match=match)


@app.command()
def toss(
    playoff: PlayoffArg, caller: Annotated[str, typer.Argument()],
    call: Annotated[str, typer.Argument(help="heads or tails")],
    match: MatchOpt = None, server: Server = DEFAULT_SERVER, token: Token = "",
    command_id: CommandId = None, as_json: JsonOpt = False,
) -> None:
    """The Armageddon coin toss, and who won it."""
    _send(server, token, playoff, "coin-toss", command_id, as_json, tell_draw=True,
          match=match, caller=caller, call=call)


@app.command()
def colours(
    playoff: PlayoffArg, white: Annotated[str, typer.Argument()],
    black: Annotated[str, typer.Argument()], match: MatchOpt = None,
    server: Server = DEFAULT_SERVER, token: Token = "", command_id: CommandId = None,
    as_json: JsonOpt = False,
) -> None:
    """The toss winner's choice of Armageddon colours."""
    _send(server, token, playoff, "armageddon-colours", command_id, as_json, match=match,
          white=white, black=black)


EventArg = Annotated[str, typer.Argument(help="The event id")]


@app.command("event-result")
def event_result(
    event: EventArg,
    round: Annotated[int, typer.Argument(min=1, help="The round")],
    white: Annotated[str, typer.Argument(help="White's id")],
    black: Annotated[str, typer.Argument(help="Black's id")],
    outcome: Annotated[str, typer.Argument(help="1-0, 0-1, 1/2-1/2, +/-…")],
    server: Server = DEFAULT_SERVER, token: Token = "", command_id: CommandId = None,
    as_json: JsonOpt = False,
) -> None:
    """Record the result of a pending game of the event (before its play-off)."""
    key = command_id or str(uuid.uuid4())

    async def work() -> Any:
        return _post(server, token, f"{_event_path(event)}/results",
                     {"round": round, "white": white, "black": black, "result": outcome}, key)

    answer = _run(work)
    if as_json:
        sys.stdout.write(json.dumps(answer) + "\n")
        return
    left = len(answer.get("pending", []))
    sys.stdout.write(f"logged: seq {answer['seq']} (game-result-recorded); "
                     f"{left} game{'s' if left != 1 else ''} still pending\n")


@app.command()
def foresight(
    event: EventArg,
    draw_rate: Annotated[
        float | None, typer.Option("--draw-rate", min=0.0, max=0.99,
                                   help="Share of draws between equal players")] = None,
    time_control: Annotated[str, typer.Option(
        "--time-control", help="classical, rapid or blitz: the default draw rate")] = "classical",
    probability: Annotated[list[str] | None, typer.Option(
        "--probability", "-p",
        help="A game's chances by hand: WHITE-BLACK=W/D/B (ids), repeatable")] = None,
    server: Server = DEFAULT_SERVER, token: Token = "", as_json: JsonOpt = False,
) -> None:
    """Which outcomes of the pending games need a play-off for first, and how likely."""
    query = f"?time_control={quote(time_control)}"
    if draw_rate is not None:
        query += f"&draw_rate={draw_rate}"
    for chances in probability or []:
        query += f"&chances={quote(chances)}"

    async def work() -> Any:
        return _get(server, token, f"{_event_path(event)}/foresight{query}")

    found = _run(work)
    if as_json:
        sys.stdout.write(json.dumps(found) + "\n")
        return
    console = Console()
    console.print(
        f"{len(found['pending'])} pending games, {found['outcomes']:,} outcomes: a play-off "
        f"for first in {found['playoff_outcomes']:,}, {found['probability']:.1%} likely "
        f"({found['model']}).", highlight=False)
    for player in found["players"]:
        if player["first_alone"] or player["in_playoff"]:
            console.print(
                f"  {player['name']}: first alone in {player['first_alone']:,} "
                f"({player['p_first_alone']:.1%}), in the play-off in "
                f"{player['in_playoff']:,} ({player['p_in_playoff']:.1%})", highlight=False)
    for line in found["conditions"]:
        console.print(line, highlight=False)


WATCH_SETTLE_S = 1.0
"""After the last event ``--count`` asks for, how long ``watch`` waits for the view
that shows it (a press changes only its clock, and brings none)."""


@app.command()
def watch(
    playoff: PlayoffArg, server: Server = DEFAULT_SERVER, token: Token = "",
    count: Annotated[
        int | None, typer.Option(
            "--count", help="Stop after this many events (0: say how it stands, and stop)")
    ] = None,
) -> None:
    """Follow a play-off: the matches, the players' names, the results and the clocks.

    In a terminal, a board kept current; otherwise (a pipe, a file) a plain line
    for each change."""
    live = sys.stdout.isatty()

    async def work() -> None:
        view: dict[str, Any] | None = None
        clocks: dict[str, dict[str, Any]] = {}
        shown: list[str] = []
        seen = 0
        last_seq: int | None = None  # of the event that reached --count
        loop = asyncio.get_running_loop()
        stop_by: float | None = None
        async with PlayoffClient(server, playoff, token, name="playoff-arbiter watch",
                                 view="arbiter") as client:
            def now_lines() -> list[str]:
                return board.lines(view, clocks, client.remaining_ms if live else board.as_sent)

            screen = Live(
                console=Console(), refresh_per_second=4,
                get_renderable=lambda: Group(*map(Text, now_lines())),
            ) if live else None
            if screen is not None:
                screen.start()
            messages = client.messages()
            try:
                while True:
                    wait = None if stop_by is None else max(0.0, stop_by - loop.time())
                    try:
                        message = await asyncio.wait_for(anext(messages), wait)
                    except (TimeoutError, StopAsyncIteration):
                        return
                    if message.t == "view":
                        view = message.d
                        clocks = dict(view.get("clocks") or {})
                    elif message.t == "event":
                        seen += 1
                        clock = message.d.get("clock")
                        if clock:
                            clocks[f"{clock['match']}:{clock['game']}"] = clock
                    elif message.t == "reconnected" and not live:
                        _write(["… the connection dropped; resumed"])
                    if view is None:
                        continue
                    if not live:  # a line for each change: what was not said already
                        lines = now_lines()
                        _write([line for line in lines if line not in shown])
                        shown = lines
                    if count is not None and seen >= count:
                        if message.t == "view" and (last_seq is None or message.seq is None
                                                    or message.seq >= last_seq):
                            return
                        if last_seq is None and message.t == "event":
                            last_seq = message.seq
                            stop_by = loop.time() + WATCH_SETTLE_S
            finally:
                if screen is not None:
                    screen.stop()

    _run(work)


@app.command()
def dgt(
    playoff: PlayoffArg,
    livechess: Annotated[str, typer.Option(
        "--livechess", metavar="URL",
        help="DGT LiveChess's websocket API, ws://HOST:1982/api/v1.0")] = (
        "ws://127.0.0.1:1982/api/v1.0"),
    server: Server = DEFAULT_SERVER, token: Token = "",
    maps: Annotated[list[str] | None, typer.Option(
        "--map", metavar="SERIAL=MATCH",
        help="The match an e-board plays (23946=1; 23946=none: no match), repeatable")] = None,
    settle_ms: Annotated[int, typer.Option(
        "--settle-ms", min=0, max=10_000,
        help="How long a position stands before it is a move (a press sends it at once)",
    )] = 300,
    list_only: Annotated[bool, typer.Option(
        "--list", help="List LiveChess's e-boards and the matches they play, and stop")] = False,
) -> None:
    """Forward moves and clocks from DGT e-boards (read by DGT LiveChess) to the play-off.

    Lists the boards first; then forwards until Ctrl-C, with a line for each move the
    service made of a board's position and for each refusal."""
    from clients.python.dgt import Forwarder, MapError, parse_map
    from clients.python.livechess import LiveChess

    try:
        given = parse_map(maps or [])
    except MapError as exc:
        _say("error: ", str(exc))
        raise typer.Exit(code=2) from None
    if urlsplit(livechess).scheme.lower() not in ("ws", "wss"):
        _say("error: ", f"--livechess must be a ws:// URL such as "
             f"ws://127.0.0.1:1982/api/v1.0, not {livechess!r}")
        raise typer.Exit(code=2)

    async def work() -> None:
        view = _get(server, token, f"{_playoff_path(playoff)}/view?kind=arbiter")
        mapped: dict[str, int | None] = {
            str(e["serial"]): e.get("match") for e in view.get("eboards") or []
            if isinstance(e, dict) and "serial" in e
        }
        mapped.update(given)
        async with LiveChess(livechess) as live:
            boards = await live.eboards()
        _boards_table(boards, mapped)
        if list_only:
            return
        forwarder = Forwarder(server, playoff, token, livechess, mapping=given,
                              settle_ms=settle_ms, say=lambda line: _write([line]))
        await forwarder.run()

    try:
        _run(work)
    except KeyboardInterrupt:
        _write(["stopped"])


def _boards_table(boards: list[Any], mapped: dict[str, int | None]) -> None:
    """LiveChess's boards: serial, state, battery and the match each one plays."""
    from rich.table import Table

    if not boards:
        _write(["LiveChess knows no e-board: connect the boards in LiveChess first"])
        return
    table = Table("E-board", "State", "Battery", "Match")
    for found in boards:
        match = mapped.get(found.serial)
        table.add_row(found.serial, found.state or "not activated", found.battery or "",
                      str(match) if match is not None else "not mapped: not forwarded")
    Console().print(table)


def _write(lines: list[str]) -> None:
    for line in lines:
        sys.stdout.write(line + "\n")
    sys.stdout.flush()


def main() -> None:
    app()


if __name__ == "__main__":
    main()
