"""Grand Chess Tour 2015 play-offs (regs. 6-10), built from the seeds.

The format itself is data (:data:`playoff_formats.formats.gct2015.GCT2015`, where
its readings of the text are given); this module builds it for ``seeds`` (player
ids, best seed first) with the builder every format uses
(:func:`playoff_formats.builders.format.build_playoff`).

- 2 players, reg. 6: one match at G/25+5.
- 3 players, reg. 7: seeds 2 v 3 at G/25+5; the winner then plays seed 1.
- 4 players, reg. 8: 1 v 4 and 2 v 3, then the winners meet; all at G/25+5.
- 5 to 8 players, reg. 9: the eight-player bracket at G/15+5 in which the
  missing seeds 8, 7, 6 are byes (a bye is a match of round 1 with one seed and
  no games, completed from the start; the seed with the bye sits directly in
  their round-2 match).
- More than eight players: ``generic=True`` builds the reg. 9 knock-out extended
  to the next power of two, outside the text; without it such a play-off is
  refused.
"""

from __future__ import annotations

from collections.abc import Sequence

from playoff_formats.builders.format import bracket_json
from playoff_formats.builders.format import build_playoff as _build
from playoff_formats.formats.gct2015 import GCT2015, REST_RULE
from playoff_formats.playoff import Playoff

__all__ = ["REST_RULE", "bracket_json", "gct2015_playoff"]

MAX_PLAYERS = 8


def gct2015_playoff(
    seeds: Sequence[str],
    *,
    generic: bool = False,
    playoff_id: str = "gct2015-playoff",
    name: str | None = None,
) -> Playoff:
    """The GCT 2015 play-off for the players ``seeds`` (best seed first).

    Raises ``PlayoffError`` for fewer than two players, a repeated or empty id,
    or more than eight players unless ``generic`` is true (which has no effect
    for eight or fewer: the text applies).
    """
    return _build(GCT2015, seeds, generic=generic, playoff_id=playoff_id, name=name)
