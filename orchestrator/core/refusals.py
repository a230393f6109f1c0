"""Refusals a screen tells apart: what was refused, as parts, and the sentence they make.

Most refusals are a sentence and nothing more. These carry a ``kind`` besides, so
that a screen can treat them as what they are without reading the sentence: a
second press of a clock already pressed (two consoles tapping at once) is no
mistake to alarm anyone with, and a start refused until a rest is over ends at a
known instant a console can count down to. Each is raised by the command that
governs it (its ``decide``), and its sentence is built here, from its parts, once:
REST answers it with its ``kind`` beside ``detail``, the websocket with its ``kind``
in the error frame, and the arbiter view words its controls from the same parts.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import ClassVar, Literal

from playoff_formats.errors import PlayoffError
from playoff_formats.model import Colour
from playoff_formats.phrase import Said
from playoff_formats.schedule.words import span
from playoff_formats.speech import ENGLISH, marked, speaking, tr

__all__ = ["ALREADY_PRESSED", "AlreadyPressed", "KnownRefusal", "RefusalKind", "TooEarly"]

RefusalKind = Literal["already-pressed", "too-early", "outage-too-long"]
"""``outage-too-long``: a board's press held through an outage past the allowance
(the arbiter sets the clocks);
``already-pressed``: the press was counted already (nothing to do);
``too-early``: a start refused until a rest or the chief arbiter's time is over."""


class KnownRefusal(PlayoffError):
    """A refusal with a ``kind`` and its sentence (``reason``)."""

    kind: ClassVar[RefusalKind]



ALREADY_PRESSED = {
    Colour.WHITE: marked(
        "White's clock was already pressed after move {move} (match {match}, game {game}): "
        "the press counts once"
    ),
    Colour.BLACK: marked(
        "Black's clock was already pressed after move {move} (match {match}, game {game}): "
        "the press counts once"
    ),
}
"""A second press, by side: each a whole sentence (a colour's word may change with
the sentence around it)."""


class AlreadyPressed(KnownRefusal):
    """``side``'s clock was pressed after ``move`` already: a second press for the
    same move (another console's, at the same moment) counts once."""

    kind: ClassVar[RefusalKind] = "already-pressed"

    def __init__(self, match: int, game: int, side: Colour, move: int) -> None:
        self.match, self.game, self.side, self.move = match, game, side, move
        super().__init__(Said.tr(ALREADY_PRESSED[side], move=move, match=match, game=game))


class TooEarly(KnownRefusal):
    """A start refused until ``until``: the rests (or the chief arbiter's time) it
    would cut short, in words (``rules``)."""

    kind: ClassVar[RefusalKind] = "too-early"

    def __init__(
        self, match: int, game: int, rules: tuple[str, ...], until: datetime, now: datetime
    ) -> None:
        self.match, self.game, self.rules, self.until = match, game, rules, until
        self.left = until - now
        with speaking(ENGLISH):
            english = self.sentence(span(self.left))
        super().__init__(english)

    def words(self, names: Mapping[str, str]) -> str:
        # Said when shown: the time left in the reader's words too.
        return self.sentence(span(self.left))

    def sentence(self, left: str) -> str:
        """The sentence in the language in force, with ``left`` the time left until
        the start is allowed (a console puts its own countdown there)."""
        return tr(
            "too early for match {match}, game {game}: {rests} ({left} from now). The chief "
            "arbiter may start it all the same, giving the reason.",
            match=self.match, game=self.game, rests="; ".join(self.rules), left=left,
        )
