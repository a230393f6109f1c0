"""Errors raised for input that cannot be accepted.

Every refusal says where (a line and column, or a JSON path) and why, so that an
arbiter can fix the file without reading a traceback.
"""

from __future__ import annotations


class PlayoffError(Exception):
    """Base class for every error this package raises on purpose."""


class InputError(PlayoffError):
    """A file or document that is refused whole.

    ``line`` and ``column`` are 1-based positions in a text file; ``path`` is a
    JSON path such as ``games[3].white``. Either may be absent.
    """

    def __init__(
        self,
        reason: str,
        *,
        source: str | None = None,
        line: int | None = None,
        column: int | None = None,
        path: str | None = None,
    ) -> None:
        self.reason = reason
        self.source = source
        self.line = line
        self.column = column
        self.path = path
        super().__init__(self.describe())

    def describe(self) -> str:
        """The one-line message shown to the user."""
        where: list[str] = []
        if self.source:
            where.append(self.source)
        if self.line is not None:
            where.append(f"line {self.line}")
            if self.column is not None:
                where.append(f"column {self.column}")
        if self.path:
            where.append(self.path)
        prefix = ", ".join(where)
        return f"{prefix}: {self.reason}" if prefix else self.reason


class RegulationError(PlayoffError):
    """A regulation that cannot be used: unknown name, unknown criterion, bad file."""
