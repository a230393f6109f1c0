"""The ``playoff`` program: ``playoff standings`` at once, the rest through the full
command line (:mod:`orchestrator.cli.main`).

Loading the option parser costs about a third of the standings of a 500-player
Swiss, and ``playoff standings`` is what an arbiter runs again and again while
a last round ends. So a plain ``playoff standings FILE [--regulation R]
[--format table|json]`` is read here, with nothing else loaded; anything else
(help, another command, an option spelt another way, a value out of place) goes
to the full command line, which answers exactly as before.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

__all__ = ["main"]

_OPTIONS = {
    "--regulation": "regulation",
    "-r": "regulation",
    "--format": "format",
    "-f": "format",
}
_FORMATS = ("table", "json")


def plain_standings(args: Sequence[str]) -> dict[str, str] | None:
    """The file, regulation and format of a plain ``standings`` call, else None."""
    if not args or args[0] != "standings":
        return None
    found: dict[str, str] = {}
    rest = list(args[1:])
    while rest:
        word = rest.pop(0)
        name, equals, value = word.partition("=")
        if name in _OPTIONS:
            key = _OPTIONS[name]
            if not equals:
                if not rest:
                    return None
                value = rest.pop(0)
            if key in found or not value or value.startswith("-"):
                return None
            found[key] = value
        elif word.startswith("-") or "file" in found:
            return None
        else:
            found["file"] = word
    if "file" not in found or found.setdefault("format", "table") not in _FORMATS:
        return None
    return found


def standings(file: str, regulation: str | None, format: str) -> int:
    """``playoff standings``, as :func:`orchestrator.cli.standings` does it."""
    from pathlib import Path

    from orchestrator.cli.files import read_ranked_event
    from playoff_formats.errors import PlayoffError

    try:
        event, rules = read_ranked_event(Path(file), regulation)
        result = rules.standings(event)
    except PlayoffError as exc:
        from rich.console import Console

        Console(stderr=True).print(f"[bold red]error:[/] {exc}", highlight=False)
        return 2
    if format == "json":
        sys.stdout.write(json_text(result.to_json()) + "\n")
    else:
        from orchestrator.cli.tables import PlainConsole, print_standings

        print_standings(PlainConsole(), result, event.name, rules)
    return 0


def json_text(data: dict[str, Any]) -> str:
    """``data`` as JSON for people and scripts alike: a key a line, and each item of a
    list (a player's row, a step) on a line of its own.

    Python's JSON encoder is written in C only for output without indentation; with
    it, a 500-player table takes longer to write than to rank.
    """
    import json

    def one(value: Any) -> str:
        return json.dumps(value, ensure_ascii=False)

    fields = []
    for key, value in data.items():
        if isinstance(value, list) and value:
            items = ",\n".join(f"    {one(item)}" for item in value)
            fields.append(f"  {one(key)}: [\n{items}\n  ]")
        else:
            fields.append(f"  {one(key)}: {one(value)}")
    return "{\n" + ",\n".join(fields) + "\n}"


def main(argv: Sequence[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else list(argv)
    plain = plain_standings(args)
    if plain is not None:
        sys.exit(standings(plain["file"], plain.get("regulation"), plain["format"]))
    from orchestrator.cli.main import app

    app(args=args)


if __name__ == "__main__":
    main()
