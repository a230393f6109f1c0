"""The ``playoff`` command: standings, prizes, schema and the demo."""

from __future__ import annotations

import asyncio
import json
import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from orchestrator.files import demo_event, read_event, resolve_regulation
from playoff_formats.builders.gct import bracket_json, gct2015_playoff
from playoff_formats.builders.stanzas import extra_boards
from playoff_formats.errors import PlayoffError
from playoff_formats.io.json_event import event_json_schema
from playoff_formats.placings import Awards, award_prizes
from playoff_formats.standings import Standings
from playoff_formats.tiebreaks.words import points as score_text

app = typer.Typer(
    help="Play-off scheduling and clock orchestration for events that end in a tie.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


class OutputFormat(StrEnum):
    table = "table"
    json = "json"


FileArg = Annotated[Path, typer.Argument(help="The event: a FIDE TRF (.trf) or JSON (.json) file")]
RegulationOpt = Annotated[
    str | None,
    typer.Option(
        "--regulation", "-r", help="A regulation name (gct2015...) or a .toml/.json file"
    ),
]
FormatOpt = Annotated[OutputFormat, typer.Option("--format", "-f")]


def _fail(message: str) -> None:
    Console(stderr=True).print(f"[bold red]error:[/] {message}", highlight=False)
    raise typer.Exit(code=2)


def _print_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")


@app.command()
def standings(
    file: FileArg, regulation: RegulationOpt = None, format: FormatOpt = OutputFormat.table
) -> None:
    """Compute the standings and explain every tie split."""
    try:
        event = read_event(file)
        result = resolve_regulation(regulation, event).standings(event)
    except PlayoffError as exc:
        _fail(str(exc))
        return
    if format is OutputFormat.json:
        _print_json(result.to_json())
    else:
        print_standings(Console(), result, event.name)


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
    format: FormatOpt = OutputFormat.table,
) -> None:
    """Divide prize money and tour points (GCT 2015 reg. 1)."""
    money = _parse_amounts(prizes, "--prizes")
    tour = _parse_amounts(points, "--points")
    try:
        event = read_event(file)
        result = resolve_regulation(regulation, event).standings(event)
        awards = award_prizes(result, money, tour, playoff_winner)
    except PlayoffError as exc:
        _fail(str(exc))
        return
    if format is OutputFormat.json:
        _print_json(awards.to_json())
    else:
        print_awards(Console(), awards)


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
    try:
        event = read_event(file)
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
    print_bracket(Console(), data, ties, names)


@app.command("extra-boards")
def extra_boards_command(
    scheduled: Annotated[
        int, typer.Option("--scheduled", min=1, help="Boards scheduled in the match")
    ],
    event: Annotated[
        str | None, typer.Option("--event", help="hubert-phillips-bowl for its exception")
    ] = None,
    stage_boards: Annotated[
        int | None,
        typer.Option("--stage-boards", min=1, help="Boards of the stage, if not --scheduled"),
    ] = None,
) -> None:
    """Extra boards for a tied bridge knock-out match (EBU 143.2.1), as JSON."""
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
        _print_json(event_json_schema())


@app.command()
def serve(
    db: Annotated[Path, typer.Option("--db", help="The SQLite event log")] = Path("playoff.db"),
    host: Annotated[str, typer.Option("--host")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port")] = 8000,
) -> None:
    """Run the service."""
    import uvicorn

    from orchestrator.app import create_app
    from orchestrator.settings import Settings

    settings = Settings(db_path=db, host=host, port=port)
    uvicorn.run(
        create_app(settings), host=host, port=port, log_level="info", ws_max_size=65536
    )


@app.command()
def demo(
    serve: Annotated[
        bool, typer.Option("--serve/--no-serve", help="Run the service after showing the event")
    ] = True,
    db: Annotated[Path, typer.Option("--db")] = Path(".demo/playoff.db"),
    host: Annotated[str, typer.Option("--host")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port")] = 8000,
) -> None:
    """The demo: a real round robin that ended in a three-way tie, and its play-off."""
    event = demo_event()
    result = resolve_regulation(None, event).standings(event)
    console = Console()
    print_standings(console, result, event.name)
    playoff = gct2015_playoff(result.playoff, name=event.name)
    names = {row.id: row.name for row in result.rows}
    print_bracket(console, bracket_json(playoff), [], names)
    if not serve:
        return
    import uvicorn

    from orchestrator.app import create_app
    from orchestrator.demo import prepare_demo
    from orchestrator.settings import Settings
    from orchestrator.timesource import SystemTime

    settings = Settings(db_path=db, host=host, port=port)
    made = asyncio.run(prepare_demo(db, SystemTime()))
    base = settings.base_url
    lines = [
        f"[bold]The service runs at {base}[/] (Ctrl-C stops it)",
        f"  API docs:        {base}/docs",
        f"  Hall display:    {base}/display/{made.playoff_id}?key={made.display_key}",
        f"  Arbiter console: {base}/arbiter/{made.playoff_id}",
        f"  Chief arbiter's token: {made.chief_token}",
        f"  Arbiter's token:       {made.arbiter_token}",
        f"  Play-off:        {base}/api/playoffs/{made.playoff_id}",
    ]
    console.print()
    for line in lines:  # one line each, however narrow the terminal: they are copied
        console.print(line, highlight=False, soft_wrap=True)
    uvicorn.run(
        create_app(settings), host=host, port=port, log_level="warning", ws_max_size=65536
    )


def print_standings(console: Console, result: Standings, title: str) -> None:
    keys: list[str] = []
    for row in result.rows:
        keys.extend(k for k in row.tiebreaks if k not in keys)
    table = Table(title=f"{title} ({result.regulation})")
    table.add_column("Rank", justify="right")
    table.add_column("Name")
    table.add_column("Score", justify="right")
    for key in keys:
        table.add_column(key.replace("_", " "), justify="right")
    table.add_column("Play-off")
    # Chess scores read in halves (5½); bridge scores are VPs or HPs with decimals.
    show_score = _cell if result.regulation.startswith("ebu") else score_text
    for row in result.rows:
        cells = [_cell(row.tiebreaks.get(k)) for k in keys]
        table.add_row(
            str(row.rank),
            row.name,
            show_score(row.score),
            *cells,
            "yes" if row.playoff else "",
        )
    console.print(table)
    console.print("[bold]How the ties were split[/]")
    for line in result.explanation:
        console.print(f"  {line}", highlight=False)


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


def print_awards(console: Console, awards: Awards) -> None:
    table = Table(title="Prize money and tour points")
    table.add_column("Place", justify="right")
    table.add_column("Player")
    table.add_column("Score", justify="right")
    table.add_column("Money", justify="right")
    table.add_column("Points", justify="right")
    for award in awards.to_json()["players"]:
        table.add_row(
            "awaiting" if award["place"] is None else str(award["place"]),
            award["name"],
            score_text(award["score"]),
            "awaiting play-off" if award["money"] is None else f"{award['money']:,.2f}",
            "" if award["points"] is None else _cell(award["points"]),
        )
    console.print(table)
    for note in awards.notes:
        console.print(f"  {note}", highlight=False)


def main() -> None:
    app()


if __name__ == "__main__":
    main()
