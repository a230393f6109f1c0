"""The ``playoff`` command: standings, prizes, schema and the demo."""

from __future__ import annotations

import errno
import json
import logging
import re
import sys
import textwrap
from collections.abc import Sequence
from enum import StrEnum
from itertools import pairwise
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

if TYPE_CHECKING:
    from rich.console import Console

from orchestrator.files import demo_event, read_event, resolve_regulation
from playoff_formats.errors import PlayoffError
from playoff_formats.regulations import CriteriaRegulation, Regulation
from playoff_formats.standings import Standings
from playoff_formats.tiebreaks.words import points as score_text

# Each command imports what only it needs (the play-off builders, the models, the
# service): loading them all made `playoff standings` start several times slower.
if TYPE_CHECKING:
    from fractions import Fraction

    from playoff_formats.placings import Awards

app = typer.Typer(
    help="Play-off scheduling and clock orchestration for events that end in a tie.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


class OutputFormat(StrEnum):
    table = "table"
    json = "json"


# Text, made a Path by the command: typer converts a Path argument through pydantic,
# whose import alone costs more than the standings of a 500-player Swiss.
FileArg = Annotated[str, typer.Argument(help="The event: a FIDE TRF (.trf) or JSON (.json) file")]
RegulationOpt = Annotated[
    str | None,
    typer.Option(
        "--regulation", "-r", help="A regulation name (gct2015...) or a .toml/.json file"
    ),
]
FormatOpt = Annotated[OutputFormat, typer.Option("--format", "-f")]
PortOpt = Annotated[int, typer.Option("--port", min=1, max=65535)]

GRACEFUL_STOP_S = 5
"""How long a stop (SIGTERM, Ctrl-C) waits for connections to finish before it cuts
them off: a screen that stopped reading must not keep the service from stopping."""

_SECRET_IN_URL = re.compile(r"(?i)([?&#](?:key|token)=)[^&#\s\"]*")


class RedactSecrets(logging.Filter):
    """Writes ``key=`` and ``token=`` values in logged URLs as ``[redacted]``: an
    old display link still carries its key in the query string, and a log is read
    by more people than the hall's screens are."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = _SECRET_IN_URL.sub(r"\1[redacted]", record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(
                _SECRET_IN_URL.sub(r"\1[redacted]", arg) if isinstance(arg, str) else arg
                for arg in record.args
            )
        return True


def _uvicorn_options(log_level: str) -> dict[str, Any]:
    """What ``playoff serve`` and ``playoff demo`` give uvicorn."""
    import copy

    from uvicorn.config import LOGGING_CONFIG

    logging_config = copy.deepcopy(LOGGING_CONFIG)
    logging_config.setdefault("filters", {})["redact"] = {"()": RedactSecrets}
    # uvicorn.error logs the path of every websocket it accepts.
    for name in ("uvicorn.access", "uvicorn.error"):
        logger = logging_config["loggers"].setdefault(name, {})
        logger["filters"] = [*logger.get("filters", []), "redact"]
    return {
        "log_level": log_level,
        "log_config": logging_config,
        "ws_max_size": 65536,
        "timeout_graceful_shutdown": GRACEFUL_STOP_S,
    }


KNOWN_COMPETITIONS = ("hubert-phillips-bowl",)
"""Competitions with an exception of their own to EBU 143.2.1: the names
:mod:`playoff_formats.builders.stanzas` knows (its ``HUBERT_PHILLIPS_BOWL``), written
out so that the options' help needs no import of the builders."""


def _competition_key(name: str) -> str:
    # As the stanza builder reads it: case, spaces and underscores do not matter.
    return "-".join(name.strip().lower().replace("_", " ").replace("-", " ").split())


def _fail(message: str) -> None:
    _console(stderr=True).print(f"[bold red]error:[/] {message}", highlight=False)
    raise typer.Exit(code=2)


def _console(*, stderr: bool = False) -> Console:
    # Loaded only to print for people: JSON for scripts never pays for it.
    from rich.console import Console

    return Console(stderr=stderr)


def _print_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")


@app.command()
def standings(
    file: FileArg, regulation: RegulationOpt = None, format: FormatOpt = OutputFormat.table
) -> None:
    """Compute the standings and explain every tie split."""
    try:
        event = read_event(Path(file))
        rules = resolve_regulation(regulation, event)
        result = rules.standings(event)
    except PlayoffError as exc:
        _fail(str(exc))
        return
    if format is OutputFormat.json:
        _print_json(result.to_json())
    else:
        print_standings(_console(), result, event.name, rules)


def _parse_amounts(text: str | None, option: str) -> list[str]:
    if not text:
        return []
    amounts = [part.strip() for part in text.split(",")]
    for i, amount in enumerate(amounts, start=1):
        try:
            if float(amount) < 0:
                raise ValueError
        except ValueError:
            _fail(f"{option}: item {i} ({amount!r}) is not a non-negative number")
    return amounts


@app.command()
def prizes(
    file: FileArg,
    prizes: Annotated[
        str, typer.Option("--prizes", help="Prize money by place, e.g. 100000,50000,30000")
    ],
    points: Annotated[
        str | None, typer.Option("--points", help="Tour points by place, e.g. 13,10,8")
    ] = None,
    playoff_winner: Annotated[
        str | None, typer.Option("--playoff-winner", help="Id of the play-off winner")
    ] = None,
    regulation: RegulationOpt = None,
    currency: Annotated[
        str | None,
        typer.Option("--currency", help="Shown with every amount: a code (USD) or a symbol ($)"),
    ] = None,
    format: FormatOpt = OutputFormat.table,
) -> None:
    """Divide prize money and tour points (GCT 2015 reg. 1)."""
    from playoff_formats.placings import award_prizes

    money = _parse_amounts(prizes, "--prizes")
    tour = _parse_amounts(points, "--points")
    try:
        event = read_event(Path(file))
        result = resolve_regulation(regulation, event).standings(event)
        awards = award_prizes(result, money, tour, playoff_winner)
    except PlayoffError as exc:
        _fail(str(exc))
        return
    if format is OutputFormat.json:
        _print_json(awards.to_json())
    else:
        print_awards(_console(), awards, currency)


@app.command()
def bracket(
    file: FileArg,
    regulation: RegulationOpt = None,
    format: FormatOpt = OutputFormat.table,
    generic: Annotated[
        bool,
        typer.Option(
            "--generic",
            help="Allow a generic seeded knock-out for more than 8 players (outside GCT 2015)",
        ),
    ] = False,
) -> None:
    """Show the play-off that the standings require (GCT 2015 regs. 6-10)."""
    from playoff_formats.builders.gct import bracket_json, gct2015_playoff

    try:
        event = read_event(Path(file))
        result = resolve_regulation(regulation, event).standings(event)
        if not result.playoff:
            _fail("nobody is tied for first place: there is no play-off")
            return
        if result.regulation != "gct2015":
            _fail(
                f"{result.regulation} does not prescribe a play-off format; the tie between "
                + ", ".join(result.playoff)
                + " must be played off as the organiser arranges"
            )
            return
        playoff = gct2015_playoff(result.playoff, generic=generic, name=event.name)
    except PlayoffError as exc:
        _fail(str(exc))
        return
    data = bracket_json(playoff)
    ties = [list(g) for g in result.groups if len(g) > 1 and set(g) <= set(result.playoff)]
    data["seeding_ties"] = ties
    names = {row.id: row.name for row in result.rows}
    for participant in data["participants"]:
        participant["name"] = names[participant["id"]]
    if format is OutputFormat.json:
        _print_json(data)
        return
    print_bracket(_console(), data, ties, names)


@app.command("extra-boards")
def extra_boards_command(
    scheduled: Annotated[
        int, typer.Option("--scheduled", min=1, help="Boards scheduled in the match")
    ],
    event: Annotated[
        str | None,
        typer.Option(
            "--event",
            help=f"A competition with its own exception: {', '.join(KNOWN_COMPETITIONS)}",
        ),
    ] = None,
    stage_boards: Annotated[
        int | None,
        typer.Option("--stage-boards", min=1, help="Boards of the stage, if not --scheduled"),
    ] = None,
) -> None:
    """Extra boards for a tied bridge knock-out match (EBU 143.2.1), as JSON."""
    from playoff_formats.builders.stanzas import extra_boards

    if event is not None and _competition_key(event) not in KNOWN_COMPETITIONS:
        _fail(
            f"--event: {event!r} is not a competition with its own exception; known: "
            f"{', '.join(KNOWN_COMPETITIONS)} (leave --event out for the standard rule)"
        )
    try:
        plan = extra_boards(scheduled, event=event, stage_boards=stage_boards)
    except PlayoffError as exc:
        _fail(str(exc))
        return
    _print_json(plan.to_json())


@app.command()
def schema(
    events: Annotated[
        bool, typer.Option("--events", help="The logged events of the service instead")
    ] = False,
    frames: Annotated[
        bool, typer.Option("--frames", help="The websocket frames, both ways, instead")
    ] = False,
) -> None:
    """Print a JSON Schema: of the event format (default), the log's events, or the frames."""
    if events and frames:
        _fail("choose --events or --frames")
    if events:
        from orchestrator.protocol import events_schema

        _print_json(events_schema())
    elif frames:
        from orchestrator.protocol import frames_schema
        from orchestrator.views import view_schemas

        _print_json(frames_schema(view_schemas()))
    else:
        from playoff_formats.io.json_event import event_json_schema

        _print_json(event_json_schema())


@app.command()
def serve(
    db: Annotated[Path, typer.Option("--db", help="The SQLite event log")] = Path("playoff.db"),
    host: Annotated[str, typer.Option("--host")] = "127.0.0.1",
    port: PortOpt = 8000,
) -> None:
    """Run the service."""
    _check_port(host, port)
    import uvicorn

    from orchestrator.app import create_app
    from orchestrator.settings import Settings

    settings = Settings(db_path=db, host=host, port=port)
    uvicorn.run(create_app(settings), host=host, port=port, **_uvicorn_options("info"))


@app.command()
def demo(
    serve: Annotated[
        bool, typer.Option("--serve/--no-serve", help="Run the service after showing the event")
    ] = True,
    db: Annotated[Path, typer.Option("--db", help="The demo's SQLite event log")] = Path(
        ".demo/playoff.db"
    ),
    fresh: Annotated[
        bool, typer.Option("--fresh", help="Delete the log at --db first, if there is one")
    ] = False,
    host: Annotated[str, typer.Option("--host")] = "127.0.0.1",
    port: PortOpt = 8000,
) -> None:
    """The demo: a real round robin that ended in a three-way tie, and its play-off."""
    from playoff_formats.builders.gct import bracket_json, gct2015_playoff

    made = None
    if serve:
        import asyncio

        from orchestrator.demo import DemoRefused, prepare_demo
        from orchestrator.timesource import SystemTime

        # Every refusal comes before anything is shown, and a refusal changes nothing.
        _check_port(host, port)
        try:
            made = asyncio.run(prepare_demo(db, SystemTime(), fresh=fresh))
        except DemoRefused as exc:
            _fail(str(exc))
            return
        except OSError as exc:
            _fail(f"{db}: cannot be written ({exc.strerror or exc}); choose another file with --db")
            return
    event = demo_event()
    rules = resolve_regulation(None, event)
    result = rules.standings(event)
    console = _console()
    print_standings(console, result, event.name, rules)
    playoff = gct2015_playoff(result.playoff, name=event.name)
    names = {row.id: row.name for row in result.rows}
    print_bracket(console, bracket_json(playoff), [], names)
    if made is None:
        return
    import uvicorn

    from orchestrator.app import create_app
    from orchestrator.settings import Settings

    settings = Settings(db_path=db, host=host, port=port)
    base = settings.base_url
    lines = [
        f"[bold]The service runs at {base}[/] (Ctrl-C stops it)",
        f"  API docs:        {base}/docs",
        f"  Hall display:    {base}/display/{made.playoff_id}#key={made.display_key}",
        f"  Arbiter console: {base}/arbiter/{made.playoff_id}",
        f"  Chief arbiter's token: {made.chief_token}",
        f"  Arbiter's token:       {made.arbiter_token}",
        f"  Play-off:        {base}/api/playoffs/{made.playoff_id}",
    ]
    console.print()
    for line in lines:  # one line each, however narrow the terminal: they are copied
        console.print(line, highlight=False, soft_wrap=True)
    uvicorn.run(create_app(settings), host=host, port=port, **_uvicorn_options("warning"))


def _check_port(host: str, port: int) -> None:
    """Refuse, in words, an address the service could not listen on."""
    import socket

    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as exc:
        _fail(f"--host {host}: {exc.strerror}")
        return
    family, kind, proto, _, address = found[0]
    with socket.socket(family, kind, proto) as probe:
        # As uvicorn binds: a port left in TIME_WAIT by a stopped server is free.
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                _fail(
                    f"port {port} is already in use on {host}; stop what uses it, or choose "
                    f"another port with --port (e.g. --port {port + 1 if port < 65535 else 8000})"
                )
            _fail(
                f"cannot listen on {host}:{port} ({exc.strerror}); choose another --port "
                "or --host"
            )


NOT_APPLIED = "—"


def print_standings(
    console: Console, result: Standings, title: str, regulation: Regulation | None = None
) -> None:
    columns = _columns(result, regulation)
    headers = ["Rank", "Name", "Score", *(key.replace("_", " ") for key in columns), "Play-off"]
    right = [True, False, True, *(True for _ in columns), False]
    # Chess scores read in halves (5½); bridge scores are VPs or HPs with decimals.
    show_score = _cell if result.regulation.startswith("ebu") else score_text
    not_applied = False
    rows: list[list[str]] = []
    for row in result.rows:
        cells = []
        for key in columns:
            value = row.tiebreaks.get(key)
            not_applied = not_applied or value is None
            cells.append(NOT_APPLIED if value is None else _cell(value))
        rows.append([
            str(row.rank), row.name, show_score(row.score), *cells,
            "yes" if row.playoff else "",
        ])
    console.print(f"[bold]{title} ({result.regulation})[/]", highlight=False)
    console.out(text_table(headers, right, rows), highlight=False)
    if not_applied:
        console.print(
            f"  {NOT_APPLIED} not applied: only players still tied when the regulation reaches "
            "a criterion are compared by it.",
            highlight=False,
        )
    if result.explanation:
        console.print("[bold]How the ties were split[/]")
        # Wrapped here, not by rich: a large Swiss has hundreds of these lines.
        width = max(40, console.width - 2)
        console.out("\n".join(
            textwrap.fill(line, width, initial_indent="  ", subsequent_indent="    ")
            for line in result.explanation
        ), highlight=False)


def _columns(result: Standings, regulation: Regulation | None) -> list[str]:
    """The tiebreak columns in the regulation's order of criteria.

    A list of criteria gives its order. A regulation that decides by rules of its
    own (county1980, EBU 143.7) applies them in order to each tie, so the order
    its steps took is its order; values that no step used keep the rows' order,
    before them.
    """
    keys: list[str] = []
    for row in result.rows:
        keys.extend(k for k in row.tiebreaks if k not in keys)
    if isinstance(regulation, CriteriaRegulation):
        order = [lc.criterion.key for lc in regulation.criteria]
    else:
        order = _order_of_steps(result)
    ranked = [k for k in order if k in keys]
    return [k for k in keys if k not in ranked] + ranked


def _order_of_steps(result: Standings) -> list[str]:
    """The criteria in the order each tie met them, merged over every tie."""
    sequences: dict[tuple[tuple[str, ...], int], list[str]] = {}
    first_seen: list[str] = []
    for step in result.steps:
        sequence = sequences.setdefault((tuple(step.tied), step.first_place), [])
        if step.criterion not in sequence:
            sequence.append(step.criterion)
        if step.criterion not in first_seen:
            first_seen.append(step.criterion)
    before: dict[str, set[str]] = {k: set() for k in first_seen}
    for sequence in sequences.values():
        for earlier, later in pairwise(sequence):
            before[later].add(earlier)
    order: list[str] = []
    while len(order) < len(first_seen):
        ready = [k for k in first_seen if k not in order and before[k] <= set(order)]
        # Ties that met criteria in contradictory orders: first come, first placed.
        order.append(ready[0] if ready else next(k for k in first_seen if k not in order))
    return order




def text_table(headers: list[str], right: list[bool], rows: list[list[str]]) -> str:
    """Columns of text, aligned: a standings table of hundreds of players at once
    (a rich ``Table`` measures every cell and takes the better part of a second)."""
    from rich.cells import cell_len

    widths = [cell_len(h) for h in headers]
    for row in rows:
        for i, cell in enumerate(row):
            widths[i] = max(widths[i], cell_len(cell))

    def line(cells: list[str]) -> str:
        padded = []
        for cell, width, is_right in zip(cells, widths, right, strict=True):
            gap = " " * (width - cell_len(cell))
            padded.append(gap + cell if is_right else cell + gap)
        return " │ ".join(padded)

    rule = "─┼─".join("─" * width for width in widths)
    return "\n".join([line(headers), rule, *(line(row) for row in rows)])


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, list):
        return " → ".join(_cell(v) for v in value)
    return f"{value:g}" if isinstance(value, float) else str(value)


def print_bracket(
    console: Console, data: dict[str, Any], ties: list[list[str]], names: dict[str, str]
) -> None:
    seeds = {p["seed"]: p["id"] for p in data["participants"]}
    from rich.table import Table

    table = Table(title=f"Play-off: {data['name']}")
    table.add_column("Match", justify="right")
    table.add_column("Round", justify="right")
    table.add_column("Pairing")
    table.add_column("Time control")
    table.add_column("Decider")
    for match in data["matches"]:
        sides = [f"{s} {names[seeds[s]]}" for s in match["seeds"]]
        sides += [f"winner of match {m}" for m in match["feeds"]]
        pairing = f"{sides[0]} (bye)" if match["bye"] else " v ".join(sides)
        table.add_row(
            str(match["id"]),
            str(match["round"]),
            pairing,
            match["time_control"] or "",
            match["decider"] or "",
        )
    console.print(table)
    for tie in ties:
        console.print(
            f"  {', '.join(names[p] for p in tie)} are level after every tiebreak: "
            "their seeds are to be drawn by lots.",
            highlight=False,
        )


class Money:
    """Amounts as an arbiter reads them: thousands separated, cents only where some
    amount has them, and the currency only when the organiser gave one."""

    def __init__(self, amounts: Sequence[Fraction | None], currency: str | None) -> None:
        self.cents = any(a is not None and (a * 100) % 100 for a in amounts)
        self.currency = (currency or "").strip()

    def __call__(self, amount: Fraction | float) -> str:
        figure = f"{float(amount):,.2f}" if self.cents else f"{round(float(amount)):,}"
        if not self.currency:
            return figure
        if self.currency.isalpha():
            return f"{self.currency} {figure}"
        return f"{self.currency}{figure}"


# The notes word amounts as plain decimals (100000.0); shown here as the table shows them.
_AMOUNT_IN_NOTE = re.compile(r"(?<![\w.])\d+\.\d+(?!\w|\.\d)")


def print_awards(console: Console, awards: Awards, currency: str | None = None) -> None:
    money = Money(
        [a.money for a in awards.players]
        + [awards.pending_first_prize, awards.pending_each_loser],
        currency,
    )
    from rich.table import Table

    table = Table(title="Prize money and tour points")
    table.add_column("Place", justify="right")
    table.add_column("Player")
    table.add_column("Score", justify="right")
    table.add_column("Money", justify="right")
    table.add_column("Points", justify="right")
    for award in awards.players:
        table.add_row(
            "awaiting" if award.place is None else str(award.place),
            award.name,
            score_text(award.score),
            "awaiting play-off" if award.money is None else money(award.money),
            "" if award.points is None else _cell(_plain_points(award.points)),
        )
    console.print(table)
    from fractions import Fraction

    for note in awards.notes:
        shown = _AMOUNT_IN_NOTE.sub(lambda m: money(Fraction(m.group(0))), note)
        console.print(f"  {shown}", highlight=False)


def _plain_points(points: Fraction) -> float | int:
    return int(points) if points.denominator == 1 else round(float(points), 4)


def main() -> None:
    app()


if __name__ == "__main__":
    main()
