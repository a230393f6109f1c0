"""A play-off built from its format (:mod:`playoff_formats.formats`) and the seeds.

``seeds`` lists player ids, best seed first (``Standings.playoff``). The bracket
for that many players comes from the format: a bracket given round by round, or
a seeded knock-out rule (the bracket of the next power of two; in every round
the best remaining position plays the worst; byes to the top seeds in round 1).
A number of players the format has no play-off for is refused, unless
``generic`` is asked for and the format allows a generic knock-out beyond.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from playoff_formats.errors import PlayoffError
from playoff_formats.formats.model import (
    Bracket,
    BracketMatch,
    BracketRound,
    BracketSlot,
    Knockout,
    MatchFormat,
    PlayoffFormat,
)
from playoff_formats.playoff import Match, Playoff, Round, Slot, Stage, new_playoff
from playoff_formats.words import count

__all__ = ["bracket_for", "bracket_json", "build_playoff", "knockout_bracket", "ladder_json"]


def build_playoff(
    format: PlayoffFormat,
    seeds: Sequence[str],
    *,
    generic: bool = False,
    playoff_id: str = "playoff",
    name: str | None = None,
) -> Playoff:
    """The play-off ``format`` prescribes for the players ``seeds`` (best seed first).

    Raises ``PlayoffError`` for fewer than two players, a repeated or empty id, or
    a number of players the format has no bracket for.
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
    bracket = bracket_for(format, n, generic=generic)
    stage_name = bracket.name
    rounds = [
        Round(stage=1, number=r, name=rnd.name) for r, rnd in enumerate(bracket.rounds, 1)
    ]
    matches: list[Match] = []
    for r, rnd in enumerate(bracket.rounds, 1):
        for number, spec in enumerate(rnd.matches, 1):
            matches.append(_match(format, spec, r, number))
    return new_playoff(
        id=playoff_id,
        name=name if name is not None else stage_name,
        seeds=players,
        stages=[Stage(id=1, name=stage_name)],
        rounds=rounds,
        matches=matches,
        format=format,
    )


def bracket_for(format: PlayoffFormat, n: int, *, generic: bool = False) -> Bracket:
    """The bracket of ``n`` players; ``PlayoffError`` saying which counts the format
    has when it has none for ``n``."""
    for bracket in format.brackets:
        if bracket.players == n:
            return bracket
    for rule in format.knockouts:
        if rule.covers(n):
            return knockout_bracket(n, rule)
    if generic and format.generic is not None and format.generic.covers(n):
        return knockout_bracket(n, format.generic)
    rule_words = format.bracket_rule or format.title
    message = (
        f"{n} players are tied, but {rule_words} give play-offs for "
        f"{format.player_counts()} players only"
    )
    if format.generic is not None and format.generic.covers(n):
        plays = format.match_format(format.generic.plays)
        message += (
            "; pass generic=True for a seeded knock-out outside the text "
            f"({_generic_words(plays)}, byes to the top seeds)"
        )
    raise PlayoffError(message)


def _generic_words(plays: MatchFormat) -> str:
    stage = plays.stages[0]
    words = f"{stage.time_control} {count(stage.games)}-game matches"
    if plays.decider is not None:
        words += f", {plays.decider.name}"
    return words


def _match(format: PlayoffFormat, spec: BracketMatch, round_number: int, number: int) -> Match:
    first, second = spec.slots
    slots = (
        Slot(seed=first.seed, winner_of=first.winner_of),
        None if second is None else Slot(seed=second.seed, winner_of=second.winner_of),
    )
    if spec.bye or spec.plays is None:
        return Match(
            id=spec.id, stage=1, round=round_number, number=number, slots=slots, bye=True
        )
    plays = format.match_format(spec.plays)
    return Match(
        id=spec.id,
        stage=1,
        round=round_number,
        number=number,
        slots=slots,
        time_control=plays.stages[0].time_control,
        decider=plays.decider_control(),
        format=plays,
    )


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


def knockout_bracket(n: int, rule: Knockout) -> Bracket:
    """The seeded knock-out of ``n`` players in the bracket of the next power of two.

    Positions are "virtual seeds": in every round the best position ``t`` plays
    the worst ``m + 1 - t`` of the ``m`` left, and the winner takes position
    ``t``. Round 1 positions above ``n`` are missing players: their opponents
    have a bye and take their position directly. Matches are numbered round by
    round, and within a round by their best position.
    """
    size = 1 << (n - 1).bit_length()
    count = size.bit_length() - 1
    rounds: list[BracketRound] = []
    position: dict[int, BracketSlot] = {t: BracketSlot(seed=t) for t in range(1, size + 1)}
    next_id = 1
    left = size
    for round_number, round_name in enumerate(_round_names(count), 1):
        following: dict[int, BracketSlot] = {}
        matches: list[BracketMatch] = []
        for t in range(1, left // 2 + 1):
            opponent = left + 1 - t
            if round_number == 1 and opponent > n:
                matches.append(BracketMatch(id=next_id, slots=(BracketSlot(seed=t), None)))
                following[t] = BracketSlot(seed=t)
            else:
                matches.append(
                    BracketMatch(
                        id=next_id, slots=(position[t], position[opponent]), plays=rule.plays
                    )
                )
                following[t] = BracketSlot(winner_of=next_id)
            next_id += 1
        rounds.append(BracketRound(name=round_name, matches=tuple(matches)))
        position, left = following, left // 2
    return Bracket(players=n, name=rule.name.replace("{n}", str(n)), rounds=tuple(rounds))


def ladder_json(plays: MatchFormat) -> dict[str, Any]:
    """A match format as displays and the API show it: its stages with their game
    numbers, time controls and colour rule, then its decider."""
    stages = []
    for first, stage in plays.stage_starts():
        stages.append(
            {
                "name": stage.name,
                "games": list(range(first, first + stage.games)),
                "time_control": str(stage.time_control),
                "colours": stage.colours.value,
                "colours_words": stage.colours.words,
            }
        )
    decider = plays.decider
    decider_json: dict[str, Any] | None = None
    if decider is not None:
        decider_json = {"kind": decider.kind, "name": decider.name, "game": plays.decider_number}
        control, colours = decider.control, decider.colours_by
        if control is not None:
            decider_json["time_control"] = str(control)
            decider_json["increment"] = control.increment_words()
        if colours is not None:
            decider_json["colours"] = colours.value
        if decider.draw_odds_colour is not None:
            decider_json["draw_odds"] = decider.draw_odds_colour
        if decider.game_kind is None:
            decider_json["game"] = None
    return {
        "name": plays.name,
        "summary": plays.summary(),
        "stages": stages,
        "decider": decider_json,
    }


def bracket_json(playoff: Playoff) -> dict[str, Any]:
    """The bracket as drawn, for displays and the API.

    ``matches``: each with ``id``; ``round`` (1-based, within its stage);
    ``bye``; ``seeds`` (the seed numbers placed in the match by the draw: two,
    or one for a bye or for a seed waiting for the winner of another match, or
    none when both come from earlier matches); ``feeds`` (ids of the matches
    whose winners meet here); ``time_control`` and ``decider`` (printed
    notation of the first stage and of the decider game, ``decider`` null when
    there is none); ``ladder`` (every stage and the decider, null for a bye).
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
                "ladder": None if m.bye else ladder_json(m.rules),
            }
        )
    rules = playoff.rules
    return {
        "id": playoff.id,
        "name": playoff.name,
        "format": {"name": rules.name, "title": rules.title},
        "participants": [{"seed": p.seed, "id": p.id} for p in playoff.participants],
        "matches": matches,
    }
