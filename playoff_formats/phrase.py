"""Sentences that speak of players, put in people's words where they are shown.

The rules know players by their ids; people know them by their names. A
:class:`Phrase` keeps each player it speaks of as a :class:`Player` among its
words, so the door that shows it (a refusal, a view, a PGN comment) puts the
names in with :meth:`Phrase.text`, and nothing ever looks for ids in a sentence.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from playoff_formats.speech import tr

__all__ = ["Phrase", "Player", "and_list", "phrase"]


@dataclass(frozen=True, slots=True)
class Player:
    """A player (or team) a sentence speaks of, by id."""

    id: str


@dataclass(frozen=True, slots=True)
class Phrase:
    """Words and players, in order."""

    parts: tuple[str | Player, ...]

    def text(self, names: Mapping[str, str]) -> str:
        """The sentence with each player's name (the id of a player not named)."""
        return "".join(
            names.get(p.id, p.id) if isinstance(p, Player) else p for p in self.parts
        )

    def __str__(self) -> str:
        return self.text({})

    def __add__(self, other: Phrase | str) -> Phrase:
        tail = other.parts if isinstance(other, Phrase) else (other,)
        return Phrase(self.parts + tail)

    def __radd__(self, other: str) -> Phrase:
        return Phrase((other, *self.parts))


def phrase(*parts: str | Player | Phrase) -> Phrase:
    """``phrase(Player(w), " beat ", Player(lo), " 2-0")``."""
    flat: list[str | Player] = []
    for part in parts:
        flat.extend(part.parts if isinstance(part, Phrase) else (part,))
    return Phrase(tuple(flat))



def and_list(items: Iterable[str]) -> str:
    """ "A, B and C": a list of names (or anything) in words."""
    listed = list(items)
    if len(listed) <= 1:
        return "".join(listed)
    return tr("{first} and {last}", first=", ".join(listed[:-1]), last=listed[-1])
