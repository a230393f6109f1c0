"""Sentences that speak of players, put in people's words where they are shown.

The rules know players by their ids; people know them by their names. A
:class:`Phrase` keeps each player it speaks of as a :class:`Player` among its
words, so the door that shows it (a refusal, a view, a PGN comment) puts the
names in with :meth:`Phrase.text`, and nothing ever looks for ids in a sentence.

A sentence raised before anyone knows who will read it (a refusal: decided once,
shown on a console in one language and answered over REST in another) is kept as
a :class:`Said`: its message and its named parameters, said in the language in
force when it is shown. ``Said.tr("match {match} has no clock", match=3)`` is such
a sentence, as a :class:`Phrase`; a parameter may be a :class:`Player` or another
phrase, said in the same language. ``str()`` of a phrase is its English, the
words a log or an exception keeps.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from playoff_formats.speech import ENGLISH, ntr, speaking, tr

__all__ = ["Phrase", "Player", "Said", "and_list", "phrase"]


@dataclass(frozen=True, slots=True)
class Player:
    """A player (or team) a sentence speaks of, by id."""

    id: str


@dataclass(frozen=True, slots=True)
class Said:
    """A message and its named parameters, said when shown (:meth:`text`) in the
    language then in force: the English ``message`` (``plural`` too, for a counted
    one, with its ``count``), each parameter a value shown as given, a
    :class:`Player`, or a phrase said in the same language.

    Made with :meth:`tr` and :meth:`ntr`, which the catalogs' extractor reads as it
    reads :func:`~playoff_formats.speech.tr` and :func:`~playoff_formats.speech.ntr`.
    """

    message: str
    params: tuple[tuple[str, Any], ...] = ()
    plural: str | None = None
    count: int = 0

    @staticmethod
    def tr(message: str, /, **params: Any) -> Phrase:
        """``message`` with its ``{parameters}``, to be said when shown."""
        return Phrase((Said(message, tuple(params.items())),))

    @staticmethod
    def ntr(singular: str, plural: str, n: int, /, **params: Any) -> Phrase:
        """A counted message (``{n}`` is the count), to be said when shown."""
        return Phrase((Said(singular, tuple(params.items()), plural, n),))

    def text(self, names: Mapping[str, str]) -> str:
        """The message in the language in force, the players by their names."""
        values = {key: _shown(value, names) for key, value in self.params}
        if self.plural is not None:
            return ntr(self.message, self.plural, self.count, **values)
        return tr(self.message, **values)


def _shown(value: Any, names: Mapping[str, str]) -> Any:
    if isinstance(value, Player):
        return names.get(value.id, value.id)
    if isinstance(value, Phrase | Said):
        return value.text(names)
    return value


@dataclass(frozen=True, slots=True)
class Phrase:
    """Words, players and messages said when shown, in order."""

    parts: tuple[str | Player | Said, ...]

    def text(self, names: Mapping[str, str]) -> str:
        """The sentence with each player's name (the id of a player not named), its
        messages in the language in force."""
        return "".join(
            p if isinstance(p, str) else _shown(p, names) for p in self.parts
        )

    def english(self, names: Mapping[str, str]) -> str:
        """The sentence in English, whatever the language in force (what is logged)."""
        with speaking(ENGLISH):
            return self.text(names)

    def __str__(self) -> str:
        return self.english({})

    def __add__(self, other: Phrase | str) -> Phrase:
        tail = other.parts if isinstance(other, Phrase) else (other,)
        return Phrase(self.parts + tail)

    def __radd__(self, other: str) -> Phrase:
        return Phrase((other, *self.parts))


def phrase(*parts: str | Player | Phrase) -> Phrase:
    """``phrase(Player(w), " beat ", Player(lo), " 2-0")``."""
    flat: list[str | Player | Said] = []
    for part in parts:
        flat.extend(part.parts if isinstance(part, Phrase) else (part,))
    return Phrase(tuple(flat))


def and_list(items: Iterable[str]) -> str:
    """ "A, B and C": a list of names (or anything) in words."""
    listed = list(items)
    if len(listed) <= 1:
        return "".join(listed)
    return tr("{first} and {last}", first=", ".join(listed[:-1]), last=listed[-1])
