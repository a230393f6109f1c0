"""Grand Chess Tour 2015 play-offs (regs. 6-10), built from the seeds.

``seeds`` lists player ids, best seed first (``Standings.playoff``). Every match
is a two-game Rapidplay match with an Armageddon decider (reg. 10) when level.

- 2 players, reg. 6: one match at G/25+5.
- 3 players, reg. 7: seeds 2 v 3 at G/25+5; the winner then plays seed 1 under
  reg. 6 (G/25+5). Seed 1 simply waits: the text gives no bye match, so none is
  built.
- 4 players, reg. 8: 1 v 4 and 2 v 3, then the winners meet under reg. 6; all
  at G/25+5.
- 8 players, reg. 9: 1 v 8, 2 v 7, 3 v 6, 4 v 5 (matches 1-4, in that order);
  then W(1 v 8) v W(4 v 5) and W(2 v 7) v W(3 v 6) (matches 5 and 6); then the
  final (match 7).
- 5, 6 or 7 players, reg. 9: the eight-player bracket in which the missing
  seeds 8, 7, 6 are byes: the top 3, 2, 1 seeds have a first-round bye. A bye is
  a match of round 1 with one seed and no games, completed from the start; the
  seed with the bye sits directly in their round-2 match (it is not fed by the
  bye), so that match shows one seed and one feeder until the other is known.

Reading of reg. 9 chosen: the final of the knock-out is also G/15+5. The text
says "A knockout tournament with two game Rapidplay matches shall be contested
at a time limit of Game / 15 mins + 5 secs / move throughout", and unlike regs. 7
and 8 it never sends its last match back to "the procedure for two players
specified in Regulation 6" (G/25+5). "Throughout" covers every round. The chief
arbiter may still shorten time limits (reg. 5); that is a schedule change, not
part of the bracket.

More than eight players: the text has no procedure. ``generic=True`` builds a
seeded knock-out outside the text: the standard bracket of the next power of
two (in every round the best remaining position plays the worst), byes to the
top seeds in round 1, G/15+5 and an Armageddon decider in every match, as
reg. 9 would extend. Without it such a play-off is refused.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from playoff_formats.errors import PlayoffError
from playoff_formats.playoff import Match, Playoff, Round, Slot, Stage, new_playoff
from playoff_formats.timecontrol import ARMAGEDDON, RAPID_15_5, RAPID_25_5, TimeControl

__all__ = ["bracket_json", "gct2015_playoff"]

MAX_PLAYERS = 8

REST_RULE = "GCT 2015 reg. 5"
"""Where the play-off's breaks come from: 30 minutes after the main event, and
between games not less than 5 minutes and if possible at least 10."""


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
    players = list(seeds)
    n = len(players)
    if n < 2:
        raise PlayoffError(
            f"a play-off needs at least two players; {n} {'was' if n == 1 else 'were'} given"
        )
    if any(not p for p in players):
        raise PlayoffError("a player id in the play-off seeds is empty")
    repeated = sorted({p for p in players if players.count(p) > 1})
    if repeated:
        raise PlayoffError(f"a player is seeded twice in the play-off: {', '.join(repeated)}")
    if n > MAX_PLAYERS and not generic:
        raise PlayoffError(
            f"{n} players are tied, but GCT 2015 regs. 6-9 give play-offs for 2 to "
            f"{MAX_PLAYERS} players only; pass generic=True for a seeded knock-out outside "
            "the text (G/15+5 two-game matches, Armageddon, byes to the top seeds)"
        )

    if n == 3:
        stage_name = "GCT 2015 play-off, reg. 7 (three players)"
        rounds, matches = _three_players()
    elif n <= 4:
        clause = "reg. 6 (two players)" if n == 2 else "reg. 8 (four players)"
        stage_name = f"GCT 2015 play-off, {clause}"
        rounds, matches = _knockout(n, RAPID_25_5)
    else:
        if n <= MAX_PLAYERS:
            stage_name = f"GCT 2015 play-off, reg. 9 knock-out ({n} players)"
        else:
            stage_name = f"Seeded knock-out of {n} players (outside GCT 2015 regs. 6-9)"
        rounds, matches = _knockout(n, RAPID_15_5)
    return new_playoff(
        id=playoff_id,
        name=name if name is not None else stage_name,
        seeds=players,
        stages=[Stage(id=1, name=stage_name)],
        rounds=rounds,
        matches=matches,
    )


def _match(
    match_id: int, round_number: int, number: int, first: Slot, second: Slot, tc: TimeControl
) -> Match:
    return Match(
        id=match_id,
        stage=1,
        round=round_number,
        number=number,
        slots=(first, second),
        time_control=tc,
        decider=ARMAGEDDON,
    )


def _three_players() -> tuple[list[Round], list[Match]]:
    """Reg. 7: seeds 2 v 3, then the winner v seed 1 (reg. 6)."""
    rounds = [
        Round(stage=1, number=1, name="Seeds 2 v 3 (reg. 7)"),
        Round(stage=1, number=2, name="Final (reg. 6)"),
    ]
    matches = [
        _match(1, 1, 1, Slot(seed=2), Slot(seed=3), RAPID_25_5),
        _match(2, 2, 1, Slot(seed=1), Slot(winner_of=1), RAPID_25_5),
    ]
    return rounds, matches


def _round_names(count: int) -> list[str]:
    names = []
    for number in range(1, count + 1):
        left = count - number
        if left == 0:
            names.append("Final")
        elif left == 1:
            names.append("Semi-finals")
        elif left == 2:
            names.append("Quarter-finals")
        else:
            names.append(f"Round {number}")
    return names


def _knockout(n: int, tc: TimeControl) -> tuple[list[Round], list[Match]]:
    """A seeded knock-out of ``n`` players in the bracket of the next power of two.

    Positions are "virtual seeds": in every round the best position ``t`` plays
    the worst ``m + 1 - t`` of the ``m`` left, and the winner takes position
    ``t``. Round 1 positions above ``n`` are missing players: their opponents
    have a bye and take their position directly. Matches are numbered round by
    round, and within a round by their best position.
    """
    size = 1 << (n - 1).bit_length()
    count = size.bit_length() - 1
    rounds = [Round(stage=1, number=r, name=name) for r, name in enumerate(_round_names(count), 1)]
    matches: list[Match] = []
    position: dict[int, Slot] = {t: Slot(seed=t) for t in range(1, size + 1)}
    next_id = 1
    left = size
    for round_number in range(1, count + 1):
        following: dict[int, Slot] = {}
        for t in range(1, left // 2 + 1):
            opponent = left + 1 - t
            if round_number == 1 and opponent > n:
                matches.append(
                    Match(
                        id=next_id, stage=1, round=1, number=t, slots=(Slot(seed=t), None), bye=True
                    )
                )
                following[t] = Slot(seed=t)
            else:
                matches.append(
                    _match(next_id, round_number, t, position[t], position[opponent], tc)
                )
                following[t] = Slot(winner_of=next_id)
            next_id += 1
        position, left = following, left // 2
    return rounds, matches


def bracket_json(playoff: Playoff) -> dict[str, Any]:
    """The bracket as drawn, for displays and the API.

    ``matches``: each with ``id``; ``round`` (1-based, within its stage);
    ``bye``; ``seeds`` (the seed numbers placed in the match by the draw: two,
    or one for a bye or for a seed waiting for the winner of another match, or
    none when both come from earlier matches); ``feeds`` (ids of the matches
    whose winners meet here); ``time_control`` and ``decider`` (printed
    notation, ``decider`` null when there is none).
    """
    matches = []
    for m in playoff.matches:
        slots = [s for s in m.slots if s is not None]
        matches.append(
            {
                "id": m.id,
                "round": m.round,
                "bye": m.bye,
                "seeds": [s.seed for s in slots if s.seed is not None],
                "feeds": [s.winner_of for s in slots if s.winner_of is not None],
                "time_control": str(m.time_control) if m.time_control is not None else None,
                "decider": str(m.decider) if m.decider is not None else None,
            }
        )
    return {
        "id": playoff.id,
        "name": playoff.name,
        "participants": [{"seed": p.seed, "id": p.id} for p in playoff.participants],
        "matches": matches,
    }
