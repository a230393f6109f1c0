"""Errors raised for input that cannot be accepted.

Every refusal says where (a line and column, or a JSON path) and why, so that an
arbiter can fix the file without reading a traceback.
"""

from __future__ import annotations

from collections.abc import Mapping

from playoff_formats.phrase import Phrase


class PlayoffError(Exception):
    """Base class for every error this package raises on purpose.

    Every one is raised with its reason, a sentence for people. A refusal that
    speaks of players is raised with its :class:`Phrase`; the door that shows it
    puts the players' names in (:meth:`words`).
    """

    def __init__(self, reason: str | Phrase) -> None:
        self.phrase = reason if isinstance(reason, Phrase) else None
        self.reason = str(reason)
        super().__init__(self.reason)

    def words(self, names: Mapping[str, str]) -> str:
        """The refusal in people's words: the players by their names."""
        if self.phrase is not None:
            return self.phrase.text(names)
        return self.reason


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
        super().__init__(reason)
        self.source = source
        self.line = line
        self.column = column
        self.path = path
        # Shown whole (where, then why); :meth:`words` says why alone.
        self.args = (self.describe(),)

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
