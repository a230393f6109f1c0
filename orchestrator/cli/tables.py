"""The standings as text for people: a plain aligned table and the explanation.

Apart from the command line so that ``playoff standings`` can print without
loading the option parser (see :mod:`orchestrator.cli.entry`).
"""

from __future__ import annotations

import os
import re
import sys
from typing import TYPE_CHECKING, TextIO

from playoff_formats.regulations import Regulation
from playoff_formats.standings import Standings
from playoff_formats.tiebreaks.columns import (
    NOT_APPLIED,
    NOT_APPLIED_NOTE,
    TIES_HEADING,
    cell_text,
    standings_table,
)

if TYPE_CHECKING:
    from rich.console import Console

__all__ = [
    "NOT_APPLIED",
    "PlainConsole",
    "cell_text",
    "print_standings",
    "text_table",
    "wrapped",
    "write_plain",
]


class PlainConsole:
    """What :func:`print_standings` needs of rich's ``Console``, without loading rich:
    the same width (``COLUMNS``, else the terminal's, else 80) and bold only on a
    terminal, as rich writes them."""

    _MARKUP = re.compile(r"\[(?:bold|/)\]")

    def __init__(self, file: TextIO | None = None) -> None:
        self.file = file or sys.stdout
        self.terminal = self.file.isatty()
        columns = os.environ.get("COLUMNS", "")
        if columns.isdigit():
            self.width = int(columns)
        elif self.terminal:
            self.width = os.get_terminal_size(self.file.fileno()).columns
        else:
            self.width = 80

    def print(self, text: str, highlight: bool = False) -> None:
        if self.terminal:
            text = text.replace("[bold]", "\x1b[1m").replace("[/]", "\x1b[0m")
        else:
            text = self._MARKUP.sub("", text)
        self.file.write(text + "\n")


def print_standings(
    console: Console | PlainConsole,
    result: Standings,
    title: str,
    regulation: Regulation | None = None,
) -> None:
    table = standings_table(result, regulation)
    console.print(f"[bold]{title} ({result.regulation})[/]", highlight=False)
    # Written as it is: rich would measure every character of a 500-row table.
    write_plain(console, text_table(table.headers, table.right, table.rows))
    # Wrapped here, not by rich: a large Swiss has hundreds of these lines.
    width = max(40, console.width - 2)
    if table.not_applied:
        write_plain(console, wrapped(
            NOT_APPLIED_NOTE, width, initial_indent="  ", subsequent_indent="  "))
    if result.explanation:
        console.print(f"[bold]{TIES_HEADING}[/]")
        write_plain(console, "\n".join(
            f"  {line}" if len(line) <= width - 2
            else wrapped(line, width, initial_indent="  ", subsequent_indent="    ")
            for line in result.explanation
        ))


def wrapped(text: str, width: int, initial_indent: str = "", subsequent_indent: str = "") -> str:
    """``text`` in lines of at most ``width`` characters, broken at spaces only (a name
    such as Vachier-Lagrave is never split), a word longer than a line on its own.

    ``textwrap`` does more (hyphens, tabs) and takes most of the time of a standings
    table of hundreds of explanations.
    """
    lines: list[str] = []
    line = initial_indent
    empty = True
    for word in text.split():
        if not empty and len(line) + 1 + len(word) > width:
            lines.append(line)
            line, empty = subsequent_indent + word, False
        else:
            line = line + word if empty else f"{line} {word}"
            empty = False
    lines.append(line)
    return "\n".join(lines)


def write_plain(console: Console | PlainConsole, text: str) -> None:
    """Plain text to the console's output, with no markup or layout of rich's."""
    console.file.write(text + "\n")
    console.file.flush()


def text_table(headers: list[str], right: list[bool], rows: list[list[str]]) -> str:
    """Columns of text, aligned: a standings table of hundreds of players at once
    (a rich ``Table`` measures every cell and takes the better part of a second)."""
    from rich.cells import cell_len as rich_cell_len

    def cell_len(text: str) -> int:
        # Every ASCII character takes one cell; only other text needs rich's tables.
        return len(text) if text.isascii() else rich_cell_len(text)

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
