"""The FIDE C.07 tie-break codes a regulation can list, with their modifiers.

A code is written ``NAME``, ``NAME/MODIFIER`` or, as the 2024 edition prints the
cuts, ``NAME-MODIFIER``: ``BH``, ``BH/C1``, ``BH-C1``, ``BH/M2``, ``ARO/C1``,
``KS/L60``, ``PS/C1``. The modifiers are those of C.07 Art. 14: ``Cn`` cuts the
n least significant values, ``Mn`` (a median) the n least and the n most
significant, ``Ln`` sets the limit of Koya to n% of the maximum score. Each
code accepts only the modifiers its article defines.

Team events (:mod:`playoff_formats.tiebreaks.team`) have codes of their own,
and some name the score they are computed on: ``BH:GP``, ``SB:MP/C1``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING

from playoff_formats.tiebreaks import fide
from playoff_formats.tiebreaks.core import Criterion
from playoff_formats.tiebreaks.editions import Edition
from playoff_formats.tiebreaks.fide import Pairing

if TYPE_CHECKING:
    from playoff_formats.tiebreaks.team import Points

__all__ = [
    "BUCHHOLZ_FAMILY",
    "CODES",
    "REPEATABLE",
    "TEAM_CODES",
    "Code",
    "Settings",
    "criterion_of",
    "parse_code",
    "team_criterion_of",
]


@dataclass(frozen=True)
class Settings:
    """What a regulation settles for every criterion it lists.

    ``pairing``: how unplayed rounds count (Art. 15 or 16). ``edition``: the C.07
    edition named by the regulation, or ``None`` to follow the event's start date.
    ``unrated_rating``: the rating an unrated participant counts with in the
    rating-based criteria (Art. 10), or ``None`` for none.
    """

    pairing: Pairing = "swiss"
    edition: Edition | None = None
    unrated_rating: int | None = None


@dataclass(frozen=True)
class Code:
    """A parsed code: its name, its modifiers, and how it was written (the trace's label)."""

    name: str
    written: str
    cut: int = 0
    top: int = 0
    limit: int | None = None
    points: Points | None = None


Factory = Callable[[Code, Settings], Criterion]

_FACTORIES: dict[str, tuple[str, Factory]] = {
    # code: (modifiers it accepts, factory)
    "DE": ("", lambda c, s: fide.DirectEncounter(s.pairing)),
    "WIN": ("", lambda c, s: fide.Wins()),
    "WON": ("", lambda c, s: fide.GamesWon(s.pairing)),
    "BPG": ("", lambda c, s: fide.GamesWithBlack(s.pairing)),
    "BWG": ("", lambda c, s: fide.WinsWithBlack(s.pairing)),
    "GE": ("", lambda c, s: fide.RoundsElectedToPlay()),
    "REP": ("", lambda c, s: fide.RoundsElectedToPlay()),
    "VUR": ("", lambda c, s: fide.FewestUnplayed()),
    "PS": ("C", lambda c, s: fide.ProgressiveScore(c.cut)),
    "STD": ("", lambda c, s: fide.StandardPoints()),
    "TPN": ("", lambda c, s: fide.PairingNumber()),
    "BH": ("CM", lambda c, s: fide.Buchholz(s.pairing, s.edition, c.cut, c.top)),
    "FB": ("CM", lambda c, s: fide.ForeBuchholz(s.pairing, s.edition, c.cut, c.top)),
    "AOB": ("", lambda c, s: fide.AverageOfOpponentsBuchholz(s.pairing, s.edition)),
    "SB": ("C", lambda c, s: fide.SonnebornBerger(s.pairing, s.edition, c.cut, c.top)),
    "KS": ("L", lambda c, s: fide.Koya(s.pairing, 50 if c.limit is None else c.limit)),
    "ARO": (
        "CM",
        lambda c, s: _ratings().AverageRatingOfOpponents(s.pairing, s.unrated_rating, c.cut, c.top),
    ),
    "TPR": ("", lambda c, s: _ratings().TournamentPerformanceRating(s.pairing, s.unrated_rating)),
    "PTP": ("", lambda c, s: _ratings().PerfectTournamentPerformance(s.pairing, s.unrated_rating)),
    "APRO": (
        "",
        lambda c, s: _ratings().AveragePerformanceOfOpponents(s.pairing, s.unrated_rating),
    ),
    "APPO": (
        "",
        lambda c, s: _ratings().AveragePerfectPerformanceOfOpponents(s.pairing, s.unrated_rating),
    ),
    "RTNG": ("", lambda c, s: _ratings().Rating(s.pairing, s.unrated_rating)),
}

CODES: tuple[str, ...] = tuple(_FACTORIES)
"""Every code a regulation can name, without modifiers."""

REPEATABLE: frozenset[str] = frozenset({"DE"})
"""Type A criteria, which a list may name more than once (C.07 Art. 4.3)."""

BUCHHOLZ_FAMILY: frozenset[str] = frozenset({"BH", "FB", "AOB"})
"""C.07 Art. 8 note (2026): Buchholz and its variants must not be used in round robins."""

_POINTS = ("MP", "GP")


def _ratings() -> ModuleType:
    # Loaded when a rating criterion is made: ranking by other codes never needs it.
    from playoff_formats.tiebreaks import ratings

    return ratings


def _team() -> ModuleType:
    from playoff_formats.tiebreaks import team

    return team


_MODIFIER = re.compile(r"([CML])([0-9]{1,2})")
_WORDS = {"C": "a cut (Cn)", "M": "a median (Mn)", "L": "a limit (Ln)"}


def parse_code(text: str, teams: bool = False) -> Code:
    """The code ``text`` names; :class:`ValueError` with the reason if it names none.

    With ``teams``, the codes of team events, which may name their score
    (``BH:GP``, C.07 Art. 12).
    """
    written = text.strip().upper()
    head, *modifiers = (part.strip() for part in re.split(r"[/-]", written))
    name, _, suffix = head.partition(":")
    name = name.strip()
    known = _TEAM_FACTORIES if teams else _FACTORIES
    if name not in known:
        raise ValueError(
            f"unknown tie-break code {text!r}; known codes: {', '.join(known)}"
        )
    points: Points | None = None
    if suffix:
        if not teams:
            raise ValueError(f"{text!r}: a score (:MP, :GP) is named only in team events")
        if suffix.strip() not in _POINTS or name not in _SCORED:
            raise ValueError(
                f"{text!r}: only {', '.join(sorted(_SCORED))} name a score, :MP or :GP"
            )
        points = "MP" if suffix.strip() == "MP" else "GP"
    accepted = known[name][0]
    cut = top = 0
    limit: int | None = None
    for part in modifiers:
        found = _MODIFIER.fullmatch(part)
        if found is None:
            raise ValueError(f"{text!r}: {part!r} is not a modifier such as C1, M1 or L60")
        kind, amount = found.group(1), int(found.group(2))
        if kind not in accepted:
            allowed = " or ".join(_WORDS[k] for k in accepted) if accepted else "no modifier"
            raise ValueError(f"{text!r}: {name} takes {allowed} (FIDE C.07 Art. 14)")
        if kind == "C":
            cut = amount
        elif kind == "M":
            cut = top = amount
        elif not 0 < amount <= 100:
            raise ValueError(f"{text!r}: a limit is a percentage from 1 to 100")
        else:
            limit = amount
    return Code(name=name, written=written, cut=cut, top=top, limit=limit, points=points)


def criterion_of(code: Code, settings: Settings) -> Criterion:
    """A fresh criterion for ``code`` under ``settings``."""
    return _FACTORIES[code.name][1](code, settings)


def team_criterion_of(
    code: Code, primary: Points, pairing: Pairing = "round-robin"
) -> Criterion:
    """A fresh criterion for ``code`` in a team event ranked by ``primary``, paired as
    ``pairing`` says: how unplayed rounds count, as for individuals (C.07 Art. 15.2
    in a round robin, Art. 16 in a Swiss). A league's matches are a round robin's."""
    return _TEAM_FACTORIES[code.name][1](code, primary, pairing)


TeamFactory = Callable[[Code, "Points", Pairing], Criterion]


def _scored(inner: Callable[[Points], Criterion]) -> TeamFactory:
    """A criterion on the code's score, or the primary one when it names none."""
    return lambda c, primary, pairing: _team().OnScore(
        inner(c.points or primary), c.points or primary, c.points is not None
    )


def _team_buchholz(code: Code, pairing: Pairing) -> Criterion:
    return fide.Buchholz(pairing, None, code.cut, code.top)


def _team_sonneborn_berger(code: Code, pairing: Pairing) -> Criterion:
    return fide.SonnebornBerger(pairing, None, code.cut)


_TEAM_FACTORIES: dict[str, tuple[str, TeamFactory]] = {
    "MP": ("", lambda c, p, g: _team().OtherScore("MP")),
    "GP": ("", lambda c, p, g: _team().OtherScore("GP")),
    "MPVGP": ("", lambda c, p, g: _team().OtherScore("GP" if p == "MP" else "MP")),
    "DE": ("", lambda c, p, g: _scored(lambda s: _team().TeamDirectEncounter(s, g))(c, p, g)),
    "WIN": ("", lambda c, p, g: _team().MatchesWon()),
    "BH": ("CM", lambda c, p, g: _scored(lambda s: _team_buchholz(c, g))(c, p, g)),
    "SB": ("C", lambda c, p, g: _scored(lambda s: _team_sonneborn_berger(c, g))(c, p, g)),
    "EMMSB": ("", lambda c, p, g: _team().ExtendedSonnebornBerger("MP", "MP", g)),
    "EMGSB": ("", lambda c, p, g: _team().ExtendedSonnebornBerger("MP", "GP", g)),
    "EGMSB": ("", lambda c, p, g: _team().ExtendedSonnebornBerger("GP", "MP", g)),
    "EGGSB": ("", lambda c, p, g: _team().ExtendedSonnebornBerger("GP", "GP", g)),
    "BC": ("", lambda c, p, g: _team().BoardCount()),
    "TBR": ("", lambda c, p, g: _team().TopBoardResults()),
    "BBE": ("", lambda c, p, g: _team().BottomBoardElimination()),
    "EDE": ("", lambda c, p, g: _team().ExtendedDirectEncounter(p, "", g)),
    "SSSC": ("", lambda c, p, g: _team().ScoreStrengthCombination(p, g)),
    "EDEC": ("", lambda c, p, g: _team().ExtendedDirectEncounter(p, "C", g)),
    "EDET": ("", lambda c, p, g: _team().ExtendedDirectEncounter(p, "T", g)),
    "EDEB": ("", lambda c, p, g: _team().ExtendedDirectEncounter(p, "B", g)),
    "EDEBT": ("", lambda c, p, g: _team().ExtendedDirectEncounter(p, "CT", g)),
    "EDEBB": ("", lambda c, p, g: _team().ExtendedDirectEncounter(p, "CB", g)),
}
_SCORED = frozenset({"DE", "BH", "SB"})
TEAM_CODES: tuple[str, ...] = tuple(_TEAM_FACTORIES)
"""Every code a team regulation can name, without its score or modifiers."""
