"""The ``playoff`` command: standings, prizes, schema, printing and the demo."""

from __future__ import annotations

import contextlib
import errno
import json
import logging
import re
import sys
import textwrap
from collections.abc import Sequence
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

if TYPE_CHECKING:
    from rich.console import Console

from orchestrator.cli.broadcast import app as broadcast_app
from orchestrator.cli.files import demo_event, read_event, read_playoff_format, resolve_regulation
from orchestrator.cli.tables import cell_text as _cell
from orchestrator.cli.tables import (
    print_standings,
    text_table,
)
from orchestrator.cli.tables import write_plain as _write
from playoff_formats.errors import PlayoffError
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
# Only its options: what pushes is loaded when a push starts.
app.add_typer(broadcast_app, name="broadcast")


class OutputFormat(StrEnum):
    table = "table"
    json = "json"


# Text, made a Path by the command: typer converts a Path argument through pydantic,
# whose import alone costs more than the standings of a 500-player Swiss.
FileArg = Annotated[str, typer.Argument(help="The event: a FIDE TRF (.trf) or JSON (.json) file")]
RegulationOpt = Annotated[
    str | None,
    typer.Option(
        "--regulation", "-r", help="A named regulation or a .toml/.json regulation file"
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


def _uvicorn_options(log_level: str, settings: Any) -> dict[str, Any]:
    """What ``playoff serve`` and ``playoff demo`` give uvicorn."""
    import copy

    from uvicorn.config import LOGGING_CONFIG

    from orchestrator.settings import proxy_options

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
        **proxy_options(settings),
    }


def _run(app: Any, host: str, port: int, log_level: str, settings: Any) -> None:
    """uvicorn's ``run``, but a stop first answers the views held for a change (the
    event console's): uvicorn waits for every request before it stops."""
    import uvicorn

    class Server(uvicorn.Server):
        async def shutdown(self, sockets: Any = None) -> None:
            service = getattr(app.state, "service", None)
            if service is not None:
                service.release_held()
            await super().shutdown(sockets)

    server = Server(
        uvicorn.Config(app, host=host, port=port, **_uvicorn_options(log_level, settings))
    )
    with contextlib.suppress(KeyboardInterrupt):
        server.run()
    if not server.started:
        sys.exit(3)  # as uvicorn's own run: the service never started


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
    from orchestrator.cli.entry import standings as print_the_standings

    code = print_the_standings(file, regulation, format.value)
    if code:
        raise typer.Exit(code=code)


class TimeControlKind(StrEnum):
    classical = "classical"
    rapid = "rapid"
    blitz = "blitz"


@app.command()
def foresight(
    file: FileArg,
    regulation: RegulationOpt = None,
    draw_rate: Annotated[
        float | None,
        typer.Option("--draw-rate", min=0.0, max=0.99,
                     help="Share of draws between equal players (default: by --time-control)"),
    ] = None,
    time_control: Annotated[
        TimeControlKind, typer.Option("--time-control", help="Sets the default draw rate")
    ] = TimeControlKind.classical,
    white_advantage: Annotated[
        float, typer.Option("--white-advantage", help="White's edge in Elo points")
    ] = 35.0,
    probability: Annotated[
        list[str] | None,
        typer.Option("--probability", "-p",
                     help="A game's chances by hand: WHITE-BLACK=W/D/B (the players' ids), "
                          "e.g. 3-7=0.3/0.5/0.2"),
    ] = None,
    special_prize: Annotated[
        list[int] | None,
        typer.Option("--special-prize", min=2,
                     help="A position other than first with a special prize (repeatable)"),
    ] = None,
    format: FormatOpt = OutputFormat.table,
) -> None:
    """Before the last round: in which outcomes of the pending games (result "*")
    a play-off for first is needed, who would be in it, and how likely it is."""
    from orchestrator.cli.files import is_trf, read_text
    from playoff_formats.foresight import (
        DRAW_RATES,
        OutcomeModel,
        chances_by_hand,
        foresee,
        parse_event_with_pending,
        parse_trf_with_pending,
    )

    try:
        text = read_text(Path(file))
        read = parse_trf_with_pending if is_trf(file, text) else parse_event_with_pending
        event, pending = read(text, file)
        rules = resolve_regulation(regulation, event)
        model = OutcomeModel(
            draw_rate=DRAW_RATES[time_control.value] if draw_rate is None else draw_rate,
            white_advantage=white_advantage,
            by_hand=chances_by_hand(probability or []),
        )
        result = foresee(event, pending, rules, model, special_positions=special_prize or ())
    except (PlayoffError, ValueError) as exc:
        _fail(str(exc))
        return
    if format is OutputFormat.json:
        _print_json(result.to_json())
        return
    console = _console()
    console.print(f"[bold]{event.name} ({result.regulation}): before the last results[/]",
                  highlight=False)
    how = "every one looked at" if result.exact else (
        f"estimated from {result.sample:,} drawn at random, standard error at most "
        f"{result.error:.2%}")
    console.print(f"{len(result.pending)} pending games, {result.outcomes:,} outcomes ({how}).",
                  highlight=False)
    console.print(
        f"A play-off for first in {result.playoff_outcomes:,.0f} of them; "
        f"{result.probability:.1%} likely ({result.model}).", highlight=False)
    rows = [
        [p.name, f"{p.first_alone:,.0f}", f"{p.p_first_alone:.1%}", f"{p.in_playoff:,.0f}",
         f"{p.p_in_playoff:.1%}"]
        for p in sorted(result.players, key=lambda p: (-p.p_first_alone - p.p_in_playoff))
        if p.first_alone or p.in_playoff
    ]
    _write(console, text_table(
        ["Player", "First alone", "likely", "In the play-off", "likely"],
        [False, True, True, True, True], rows))
    for line in result.conditions:
        _write(console, textwrap.fill(line, max(40, console.width - 2), subsequent_indent="  "))
    names = {p.id: p.name for p in result.players}
    for prize in result.special_prizes:
        who = ", ".join(names[pid] for pid in prize.players) or "nobody"
        console.print(
            f"The special prize for position {prize.position} goes to a play-off in "
            f"{prize.playoff_outcomes:,.0f} outcomes ({prize.probability:.1%} likely); "
            f"who could be in it: {who}.", highlight=False)


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
        str | None,
        typer.Option("--playoff-winner", help="The play-off winner: a name (unique part) or id"),
    ] = None,
    regulation: RegulationOpt = None,
    currency: Annotated[
        str | None,
        typer.Option("--currency", help="Shown with every amount: a code (USD) or a symbol ($)"),
    ] = None,
    format: FormatOpt = OutputFormat.table,
) -> None:
    """Divide prize money and tour points as the regulation's prize rule says."""
    from playoff_formats.placings import award_prizes, player_named
    from playoff_formats.regulations import prize_rule, regulations_with_prizes

    money = _parse_amounts(prizes, "--prizes")
    tour = _parse_amounts(points, "--points")
    try:
        event = read_event(Path(file))
        rules = resolve_regulation(regulation, event)
        if prize_rule(rules) is None:
            # A division of prize money is a regulation's own text, not a general rule.
            named = ", ".join(regulations_with_prizes())
            _fail(
                f"{rules.name} says nothing of prize money, so there is no rule to divide "
                f"it by; the regulations that do: {named} (--regulation NAME)"
            )
            return
        result = rules.standings(event)
        winner = player_named(result, playoff_winner) if playoff_winner is not None else None
        awards = award_prizes(result, money, tour, winner)
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
            help="Allow the format's generic seeded knock-out beyond its brackets (outside "
            "the text), where it has one",
        ),
    ] = False,
    playoff_format: Annotated[
        str | None,
        typer.Option(
            "--playoff-format",
            help="The organiser's own play-off format (a .toml/.json file) or a built-in "
            "format's name, in place of the regulation's",
        ),
    ] = None,
) -> None:
    """Show the play-off that the standings require: its bracket and each match's ladder."""
    from playoff_formats.builders.format import bracket_json, build_playoff
    from playoff_formats.regulations import playoff_format as prescribed

    try:
        event = read_event(Path(file))
        rules = resolve_regulation(regulation, event)
        result = rules.standings(event)
        if not result.playoff:
            _fail("nobody is tied for first place: there is no play-off")
            return
        chosen = (
            read_playoff_format(playoff_format) if playoff_format is not None
            else prescribed(rules, result)
        )
        if chosen is None:
            _fail(
                f"{result.regulation} does not prescribe a play-off format; the tie between "
                + ", ".join(result.playoff)
                + " must be played off as the organiser arranges (--playoff-format FILE)"
            )
            return
        playoff = build_playoff(chosen, result.playoff, generic=generic, name=event.name)
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


class TrfEdition(StrEnum):
    trf16 = "16"
    trf2026 = "2026"


class RatingList(StrEnum):
    standard = "standard"
    rapid = "rapid"
    blitz = "blitz"


@app.command("export-trf")
def export_trf(
    playoff: Annotated[str, typer.Argument(help="The play-off's id")],
    output: Annotated[str, typer.Option("--output", "-o", help="The TRF file to write")],
    db: Annotated[
        str, typer.Option("--db", help="The service's SQLite event log [default: playoff.db]")
    ] = "playoff.db",
    stage: Annotated[
        str | None,
        typer.Option("--stage", help="One stage's games, by its name (\"Rapid 25+10\")"),
    ] = None,
    trf: Annotated[TrfEdition, typer.Option("--trf", help="TRF16 or TRF-2026")] = (
        TrfEdition.trf16
    ),
    pool: Annotated[
        RatingList | None,
        typer.Option("--pool", help="One rating list, where the games are on more than one"),
    ] = None,
) -> None:
    """The play-off's rated games as a TRF for FIDE's rating report, read from the
    service's log: a file per rating list (rapid apart from blitz); a game no list
    rates (an Armageddon with unequal times) is named in a comment."""
    from orchestrator.cli.export_trf import ExportRefused
    from orchestrator.cli.export_trf import export_trf as write_reports

    try:
        said = write_reports(
            playoff, Path(output), Path(db), trf.value, stage,
            pool.value if pool is not None else None,
        )
    except ExportRefused as exc:
        _fail(str(exc))
        return
    for line in said:
        _console().print(line, highlight=False, soft_wrap=True)


@app.command()
def schema(
    events: Annotated[
        bool, typer.Option("--events", help="The logged events of the service instead")
    ] = False,
    frames: Annotated[
        bool, typer.Option("--frames", help="The websocket frames, both ways, instead")
    ] = False,
    playoff_format: Annotated[
        bool,
        typer.Option("--playoff-format", help="An organiser's own play-off format, instead"),
    ] = False,
) -> None:
    """Print a JSON Schema: of the event format (default), the log's events, the frames,
    or a play-off format."""
    if events + frames + playoff_format > 1:
        _fail("choose one of --events, --frames and --playoff-format")
    if playoff_format:
        from playoff_formats.formats.custom import playoff_format_schema

        _print_json(playoff_format_schema())
    elif events:
        from orchestrator.core.protocol import events_schema

        _print_json(events_schema())
    elif frames:
        from orchestrator.core.protocol import frames_schema
        from orchestrator.views import view_schemas

        _print_json(frames_schema(view_schemas()))
    else:
        from playoff_formats.io.json_event import event_json_schema

        _print_json(event_json_schema())


class Printout(StrEnum):
    slips = "slips"
    cards = "cards"
    standings = "standings"
    bracket = "bracket"
    placings = "placings"


class PaperKind(StrEnum):
    a4 = "a4"
    letter = "letter"


@app.command("print")
def print_command(
    ident: Annotated[
        str, typer.Argument(metavar="ID", help="A play-off's id (an event's, for its standings)")
    ],
    what: Annotated[Printout, typer.Argument(help="What to print")],
    output: Annotated[str, typer.Option("--output", "-o", help="The PDF file to write")],
    paper: Annotated[PaperKind, typer.Option("--paper", help="A4 or US Letter")] = PaperKind.a4,
    db: Annotated[
        str | None,
        typer.Option("--db", help="The service's SQLite log, read without writing to it"),
    ] = None,
    service: Annotated[
        str | None, typer.Option("--service", help="The service's address, instead of --db")
    ] = None,
    token: Annotated[
        str | None,
        typer.Option("--token", "-t", envvar="PLAYOFF_TOKEN", show_envvar=True,
                     help="A token of the event (with --service)"),
    ] = None,
    match: Annotated[
        int | None, typer.Option("--match", "-m", min=1, help="One match: its slips or card")
    ] = None,
    game: Annotated[
        int | None, typer.Option("--game", "-g", min=1, help="One game's slip (with --match)")
    ] = None,
    lang: Annotated[
        str | None,
        typer.Option("--lang", help="The language it is worded in: en, es, fr, de, ru or "
                     "en-XA [default: en]"),
    ] = None,
) -> None:
    """Print to PDF: result slips, board cards, standings, the bracket and schedule, or
    the placings and prizes, from the service's log (--db) or the service (--service)."""
    from orchestrator.cli.printing import PrintRefused, fetch_printout, printout_from_log

    if (db is None) == (service is None):
        _fail("say where the play-off is read: --db FILE (the service's log) or --service URL")
    if service is not None and not token:
        _fail("--service needs a token of the event: --token T (or PLAYOFF_TOKEN)")
    if game is not None and what is not Printout.slips:
        _fail(f"--game: one game is printed on a result slip only, not on {what.value}")
    if game is not None and match is None:
        _fail("--game: say the game's match too (--match)")
    if match is not None and what not in (Printout.slips, Printout.cards):
        _fail(f"--match: one match is printed on slips or a card only, not on {what.value}")
    target = Path(output)
    if target.is_dir():
        _fail(f"-o {output}: a folder; name the PDF file to write")
    try:
        if db is not None:
            pdf = printout_from_log(Path(db), ident, what.value, paper.value, match, game, lang)
        else:
            assert service is not None and token is not None
            pdf = fetch_printout(
                service, token, ident, what.value, paper.value, match, game, lang
            )
    except PrintRefused as exc:
        _fail(str(exc))
        return
    try:
        target.write_bytes(pdf)
    except OSError as exc:
        _fail(f"-o {output}: cannot be written ({exc.strerror or exc})")
    _console(stderr=True).print(
        f"{what.value} ({paper.value}) written to {output}", highlight=False
    )


@app.command()
def serve(
    db: Annotated[
        Path | None, typer.Option("--db", help="The SQLite event log [default: playoff.db]")
    ] = None,
    store: Annotated[
        str | None,
        typer.Option(
            "--store", envvar="PLAYOFF_STORE", show_envvar=True,
            help="A PostgreSQL event log (postgresql://...), in place of --db",
        ),
    ] = None,
    redis: Annotated[
        str | None,
        typer.Option(
            "--redis", envvar="PLAYOFF_REDIS", show_envvar=True,
            help="Redis (redis://...) for several workers sharing the --store log "
            "(docs/deploy.md)",
        ),
    ] = None,
    host: Annotated[str, typer.Option("--host")] = "127.0.0.1",
    port: PortOpt = 8000,
    leader_poll: Annotated[
        float,
        typer.Option(
            "--leader-poll", envvar="PLAYOFF_LEADER_POLL_S", show_envvar=True,
            min=0.05, max=60.0,
            help="Seconds between a worker's tries for the lead of the timers (--redis)",
        ),
    ] = 1.0,
    reconcile: Annotated[
        float,
        typer.Option(
            "--reconcile", envvar="PLAYOFF_RECONCILE_S", show_envvar=True,
            min=0.1, max=3600.0,
            help="Seconds between a worker's own reads of the log's new events (--redis)",
        ),
    ] = 5.0,
    forwarded_allow_ips: Annotated[
        str | None,
        typer.Option(
            "--forwarded-allow-ips", envvar="PLAYOFF_FORWARDED_ALLOW_IPS", show_envvar=True,
            help="The proxies whose X-Forwarded-For is believed (addresses or networks, "
            "comma-separated); none by default (docs/deploy.md)",
        ),
    ] = None,
    per_address: Annotated[
        int,
        typer.Option(
            "--max-connections-per-address", envvar="PLAYOFF_MAX_CONNECTIONS_PER_ADDRESS",
            show_envvar=True, min=1,
            help="Websockets one address may hold at once (screens behind one router "
            "share an address)",
        ),
    ] = 300,
    per_token: Annotated[
        int,
        typer.Option(
            "--max-connections-per-token", envvar="PLAYOFF_MAX_CONNECTIONS_PER_TOKEN",
            show_envvar=True, min=1, help="Websockets one token or display key may hold at once",
        ),
    ] = 100,
    openings_per_s: Annotated[
        float,
        typer.Option(
            "--openings-per-s", envvar="PLAYOFF_OPENINGS_PER_S", show_envvar=True,
            min=0.1, help="Websockets one address may open a second (bursts of five seconds')",
        ),
    ] = 10.0,
) -> None:
    """Run the service."""
    from orchestrator.settings import DeploymentError, check_deployment

    try:
        check_deployment(store, redis, db)
    except DeploymentError as exc:
        _fail(str(exc))
    _check_port(host, port)

    from orchestrator.app import create_app
    from orchestrator.settings import Settings

    settings = Settings(
        db_path=db or Path("playoff.db"), store_url=store, redis_url=redis, host=host, port=port,
        leader_poll_s=leader_poll, reconcile_s=reconcile,
        forwarded_allow_ips=forwarded_allow_ips or None,
        max_connections_per_address=per_address, max_connections_per_token=per_token,
        openings_per_s=openings_per_s,
    )
    _warn_open_uploads(settings)
    _run(create_app(settings), host, port, "info", settings)


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
    from playoff_formats.builders.format import bracket_json, build_playoff
    from playoff_formats.regulations import playoff_format as prescribed

    made = None
    if serve:
        import asyncio

        from orchestrator.cli.demo import DemoRefused, prepare_demo
        from orchestrator.core.timesource import SystemTime

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
    demo_format = prescribed(rules, result)
    assert demo_format is not None  # the demo's event ends in a tie its regulation plays off
    playoff = build_playoff(demo_format, result.playoff, name=event.name)
    names = {row.id: row.name for row in result.rows}
    print_bracket(console, bracket_json(playoff), [], names)
    if made is None:
        return

    from orchestrator.app import create_app
    from orchestrator.settings import Settings

    settings = Settings(db_path=db, host=host, port=port)
    _warn_open_uploads(settings)
    base = settings.base_url
    lines = [
        f"[bold]The service runs at {base}[/] (Ctrl-C stops it)",
        f"  Start page:      {base}/",
        f"  API docs:        {base}/docs",
        f"  Hall display:    {base}/display/{made.playoff_id}#key={made.display_key}",
        f"  Arbiter console: {base}/arbiter/{made.playoff_id}",
        f"  Event console:   {base}/arbiter/events/{made.event_id}",
        *(
            f"  Board clock, match {match}: {base}/clock/{made.playoff_id}#key={key}"
            for match, key in made.board_keys
        ),
        f"  Chief arbiter's token: {made.chief_token}",
        f"  Arbiter's token:       {made.arbiter_token}",
        f"  Resume:          {resume_command(db, host, port)} (after a stop or a crash: "
        "the same log, tokens and addresses)",
        f"  Play-off:        {base}/api/playoffs/{made.playoff_id}",
    ]
    console.print()
    for line in lines:  # one line each, however narrow the terminal: they are copied
        console.print(line, highlight=False, soft_wrap=True)
    _run(create_app(settings), host, port, "warning", settings)


def resume_command(db: Path, host: str, port: int) -> str:
    """The command that serves the demo's log again, where the demo served it."""
    import shlex
    import sys

    # As the demo was started (`make demo` runs .venv/bin/playoff), else by its name.
    program = sys.argv[0] if Path(sys.argv[0]).name == "playoff" else "playoff"
    words = [program, "serve", "--db", str(db)]
    if host != "127.0.0.1":
        words += ["--host", host]
    if port != 8000:
        words += ["--port", str(port)]
    return shlex.join(words)


def _warn_open_uploads(settings: Any) -> None:
    from orchestrator.settings import open_uploads_warning

    warning = open_uploads_warning(settings)
    if warning is not None:
        _console(stderr=True).print(f"[bold yellow]{warning}[/]", highlight=False)


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
                free = _free_port_after(family, kind, proto, address, port)
                suggestion = f": --port {free} is free now" if free is not None else ""
                _fail(
                    f"port {port} is already in use on {host}; stop what uses it, or choose "
                    f"another port with --port{suggestion}"
                )
            _fail(
                f"cannot listen on {host}:{port} ({exc.strerror}); choose another --port "
                "or --host"
            )


def _free_port_after(
    family: int, kind: int, proto: int, address: Any, taken: int, tries: int = 20
) -> int | None:
    """The first port after ``taken`` that the service could listen on now, within
    ``tries``; None if none of them is free."""
    import socket

    for port in range(taken + 1, min(taken + 1 + tries, 65536)):
        with socket.socket(family, kind, proto) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                probe.bind((address[0], port, *address[2:]))
            except OSError:
                continue
            return port
    return None


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
    shown: list[dict[str, Any]] = []
    for match in data["matches"]:
        ladder = match.get("ladder")
        if ladder is not None and ladder not in shown:
            shown.append(ladder)
    for ladder in shown:
        played_by = [str(m["id"]) for m in data["matches"] if m.get("ladder") == ladder]
        which = "match" if len(played_by) == 1 else "matches"
        console.print(f"  {which.capitalize()} {', '.join(played_by)}:", highlight=False)
        for stage in ladder["stages"]:
            games = stage["games"]
            numbers = f"game {games[0]}" if len(games) == 1 else f"games {games[0]}-{games[-1]}"
            console.print(
                f"    {stage['name']}: {numbers} at {stage['time_control']} "
                f"({stage['colours_words']})",
                highlight=False,
            )
        decider = ladder["decider"]
        if decider is not None:
            at = f" at {decider['time_control']}" if "time_control" in decider else ""
            odds = (
                f", a draw counts as a win for {decider['draw_odds'].capitalize()}"
                if "draw_odds" in decider else ""
            )
            console.print(f"    then, if level: {decider['name']}{at}{odds}", highlight=False)
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
        from playoff_formats.words import money

        return money(amount, self.currency, cents=self.cents)


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

