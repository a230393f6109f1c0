"""Before the last round: which results force a play-off, and how likely it is.

The games still to be played are *pending* (``"result": "*"`` in the JSON event
format, as in PGN). Every combination of their results is an *outcome*: with
``n`` pending games there are ``3 ** n``. Up to :data:`EXACT_LIMIT` outcomes
(3^12) each is looked at; beyond, outcomes are sampled (Monte Carlo), and the
sample size and the standard error of each figure are stated.

For each outcome the event's own regulation decides first place:

- one player alone on the top score is first outright, whatever the tie-breaks;
- players level on the top score go to a play-off when the regulation settles a
  tie for first by one (GCT 2015 reg. 2); under a regulation that does not, the
  tie-breaks of its standings decide, and a player separated by them is first
  outright (nobody is when they stay level).

Counts are over outcomes, each outcome counted once. Probabilities are under a
stated model (:class:`OutcomeModel`): Davidson's draw model on Elo strengths with
a White advantage, or probabilities the arbiter sets for a game by hand.

The conditions under which a play-off is needed are the set of play-off outcomes
written as a short union of *cubes*: each cube fixes, for some games, the results
that still allow it ("Gukesh does not lose to Nakamura"), and leaves the others
free. The cover is made greedily (each uncovered outcome grown into the largest
cube inside the set, then cubes covered by the others dropped): it is exact and
short, though not always the shortest possible.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import product
from typing import Any

from playoff_formats.errors import InputError, PlayoffError
from playoff_formats.model import Game, IndividualEvent
from playoff_formats.tiebreaks.index import EventIndex
from playoff_formats.tiebreaks.words import short_name
from playoff_formats.values import Result

__all__ = [
    "DRAW_RATES",
    "EXACT_LIMIT",
    "Foresight",
    "ForesightError",
    "OutcomeModel",
    "PendingGame",
    "PlayerForesight",
    "SpecialPrizeForesight",
    "chances_by_hand",
    "foresee",
    "parse_event_with_pending",
    "parse_trf_with_pending",
]

EXACT_LIMIT = 3**12
"""Up to this many outcomes every one is looked at; beyond, they are sampled."""

PENDING = "*"
"""The result of a game not yet finished, as in PGN."""

# The three results of a pending game, in this order everywhere (an outcome is a
# number in base 3, one digit a game, the first game the most significant).
WHITE_WINS, DRAW, BLACK_WINS = 0, 1, 2
_RESULTS = (Result.WHITE_WINS, Result.DRAW, Result.BLACK_WINS)
# Half-points to White and to Black: whole numbers, so that ties are exact.
_HALVES = ((2, 0), (1, 1), (0, 2))

DRAW_RATES = {"classical": 0.55, "rapid": 0.40, "blitz": 0.30}
"""The default share of draws between equal players, by time control: about the
rates of elite play in each (a setting: ``--draw-rate`` overrides it)."""

WHITE_ADVANTAGE_ELO = 35.0
"""White's first move, worth about 35 Elo points in expected score."""


class ForesightError(PlayoffError, ValueError):
    """A model or chances the watch cannot use, and why (still a ``ValueError`` for
    callers that take bad numbers as one)."""


@dataclass(frozen=True, slots=True)
class PendingGame:
    """A paired game of the event with no result yet."""

    round: int
    white: str
    black: str

    def to_json(self) -> dict[str, Any]:
        return {"round": self.round, "white": self.white, "black": self.black}


# --------------------------------------------------------------------------- reading


def parse_event_with_pending(
    text: str, source: str | None = None
) -> tuple[IndividualEvent, tuple[PendingGame, ...]]:
    """An individual event in the JSON format whose games may be pending.

    The whole document is checked as any event is (a pending game must name two
    players of the event, in a round where neither plays another game); what
    comes back is the event of the finished games and the pending ones apart.
    """
    from playoff_formats.io.json_event import parse_json_event
    from playoff_formats.io.strict_json import load_json

    data = load_json(text.removeprefix("\ufeff"), source)
    pending_at: list[int] = []
    if isinstance(data, dict) and isinstance(data.get("games"), list):
        for i, game in enumerate(data["games"]):
            if isinstance(game, dict) and game.get("result") == PENDING:
                # Checked as a draw would be: its players, its round, its pairing.
                game["result"] = Result.DRAW.value
                pending_at.append(i)
    event = parse_json_event(json.dumps(data), source)
    pending = tuple(
        PendingGame(event.games[i].round, event.games[i].white, event.games[i].black)
        for i in pending_at
    )
    skip = set(pending_at)
    finished = event.model_copy(
        update={"games": [g for i, g in enumerate(event.games) if i not in skip]}
    )
    return finished, pending


# --------------------------------------------------------------------------- the model


@dataclass(frozen=True)
class OutcomeModel:
    """How likely each result of a pending game is.

    Davidson's model on Elo strengths: with ``γ = 10 ** (rating / 400)`` for each
    side (White's rating raised by ``white_advantage`` Elo points) and
    ``ν = 2d / (1 - d)`` for a draw rate ``d`` between equal players,
    ``P(1-0) = γw / S``, ``P(½-½) = ν·√(γw·γb) / S`` and ``P(0-1) = γb / S`` with
    ``S = γw + γb + ν·√(γw·γb)``. A player without a rating counts as the
    average rated player of the event. ``by_hand`` maps a game (White's id,
    Black's id) to the arbiter's own probabilities of 1-0, ½-½ and 0-1.
    """

    draw_rate: float = DRAW_RATES["classical"]
    white_advantage: float = WHITE_ADVANTAGE_ELO
    by_hand: Mapping[tuple[str, str], tuple[float, float, float]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not 0 <= self.draw_rate < 1:
            raise ForesightError(
                f"the draw rate must be at least 0 and below 1, not {self.draw_rate}"
            )
        for (white, black), chances in self.by_hand.items():
            if len(chances) != 3 or any(p < 0 for p in chances) or not math.isclose(
                sum(chances), 1, abs_tol=1e-9
            ):
                raise ForesightError(
                    f"the chances of {white}-{black} must be three numbers from 0 to 1 "
                    f"that add up to 1 (1-0, 1/2-1/2, 0-1), not {list(chances)}"
                )

    @property
    def name(self) -> str:
        """The model, as said beside every percentage."""
        words = (
            f"Davidson draw model, draw rate {self.draw_rate:.0%} between equal players, "
            f"Elo strengths with White +{self.white_advantage:g}"
        )
        if self.by_hand:
            words += f"; {len(self.by_hand)} game(s) set by hand"
        return words

    def chances(self, game: PendingGame, ratings: Mapping[str, float]) -> tuple[float, ...]:
        """The probabilities of 1-0, ½-½ and 0-1 in ``game``."""
        if (game.white, game.black) in self.by_hand:
            return tuple(self.by_hand[(game.white, game.black)])
        white = 10 ** ((ratings[game.white] + self.white_advantage) / 400)
        black = 10 ** (ratings[game.black] / 400)
        nu = 2 * self.draw_rate / (1 - self.draw_rate)
        draw = nu * math.sqrt(white * black)
        total = white + black + draw
        return (white / total, draw / total, black / total)


def chances_by_hand(items: Iterable[str]) -> dict[tuple[str, str], tuple[float, float, float]]:
    """The arbiter's chances for some games, each written ``WHITE-BLACK=W/D/B`` with the
    players' ids (``3-7=0.3/0.5/0.2``); a :class:`ForesightError` says how to write one."""
    chances: dict[tuple[str, str], tuple[float, float, float]] = {}
    for item in items:
        game, _, values = item.partition("=")
        white, _, black = game.partition("-")
        parts = values.split("/")
        try:
            if not white or not black or len(parts) != 3:
                raise ValueError
            numbers = (float(parts[0]), float(parts[1]), float(parts[2]))
        except ValueError:
            raise ForesightError(
                f"a game's chances {item!r}: write WHITE-BLACK=W/D/B with the players' ids, "
                "e.g. 3-7=0.3/0.5/0.2"
            ) from None
        chances[(white, black)] = numbers
    return chances


def _ratings(event: IndividualEvent) -> dict[str, float]:
    rated = [p.rating for p in event.players if p.rating]
    average = sum(rated) / len(rated) if rated else 2000.0
    return {p.id: float(p.rating) if p.rating else average for p in event.players}


# --------------------------------------------------------------------------- the result


@dataclass(frozen=True)
class PlayerForesight:
    """One player's outcomes: first alone, or in the play-off for first."""

    id: str
    name: str
    first_alone: float
    in_playoff: float
    p_first_alone: float
    p_in_playoff: float

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "first_alone": _count(self.first_alone),
            "in_playoff": _count(self.in_playoff),
            "p_first_alone": self.p_first_alone,
            "p_in_playoff": self.p_in_playoff,
        }


@dataclass(frozen=True)
class Foresight:
    """Every outcome of the pending games, and what the regulation makes of each.

    ``outcomes`` is ``3 ** len(pending)``. When ``exact`` is false the counts are
    estimates from ``sample`` outcomes drawn at random (each equally likely) and
    the probabilities from ``sample`` drawn under the model; ``error`` is the
    largest standard error of a share or a probability.
    """

    regulation: str
    pending: tuple[PendingGame, ...]
    outcomes: int
    exact: bool
    playoff_outcomes: float
    probability: float
    model: str
    players: tuple[PlayerForesight, ...]
    conditions: tuple[str, ...]
    sample: int | None = None
    error: float | None = None
    special_prizes: tuple[SpecialPrizeForesight, ...] = ()

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "regulation": self.regulation,
            "pending": [g.to_json() for g in self.pending],
            "outcomes": self.outcomes,
            "exact": self.exact,
            "playoff_outcomes": _count(self.playoff_outcomes),
            "probability": self.probability,
            "model": self.model,
            "players": [p.to_json() for p in self.players],
            "conditions": list(self.conditions),
        }
        if self.special_prizes:
            data["special_prizes"] = [p.to_json() for p in self.special_prizes]
        if not self.exact:
            data["sample"] = self.sample
            data["error"] = self.error
        return data


@dataclass(frozen=True)
class SpecialPrizeForesight:
    """A special prize for a position other than first: in how many outcomes (and how
    likely) the tiebreaks leave its winner undetermined, so that it goes to a play-off,
    and who could be in one."""

    position: int
    playoff_outcomes: float
    probability: float
    players: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "position": self.position,
            "playoff_outcomes": _count(self.playoff_outcomes),
            "probability": self.probability,
            "players": list(self.players),
        }


def _count(value: float) -> float | int:
    return int(value) if float(value).is_integer() else round(value, 1)


# --------------------------------------------------------------------------- looking ahead


Decision = tuple[str | None, tuple[str, ...]]
"""Who is first alone (or None), and who plays off for first (or nobody)."""


def foresee(
    event: IndividualEvent,
    pending: Sequence[PendingGame],
    regulation: Any,
    model: OutcomeModel | None = None,
    *,
    exact_limit: int = EXACT_LIMIT,
    sample: int = 200_000,
    seed: int = 2026,
    special_positions: Sequence[int] = (),
) -> Foresight:
    """Every outcome of ``pending`` under ``regulation`` (exactly up to ``exact_limit``).

    ``event`` holds the finished games; ``regulation`` is the event's own (a
    :class:`~playoff_formats.regulations.base.CriteriaRegulation`).
    ``special_positions``: the positions other than first that carry a special prize,
    under a regulation that settles one by play-off when its tiebreaks cannot (GCT
    2015 reg. 3); each outcome's standings are then computed whole, which takes about
    a millisecond an outcome.
    """
    model = model or OutcomeModel()
    special = sorted({p for p in special_positions})
    if special:
        if not getattr(regulation, "special_prize_playoffs", False):
            raise ForesightError(
                f"{getattr(regulation, 'name', regulation)} settles no special prize by a "
                "play-off: its tiebreaks decide every position"
            )
        if special[0] < 2 or special[-1] > len(event.players):
            raise ForesightError(
                f"a special prize's position must be from 2 to {len(event.players)} "
                "(first place has its own play-off)"
            )
    _check_pending(event, pending)
    ratings = _ratings(event)
    chances = [model.chances(game, ratings) for game in pending]
    decide = _decider(event, pending, regulation)
    base = EventIndex.of(event).scores
    order = [p.id for p in event.players]
    column = {pid: i for i, pid in enumerate(order)}
    start = [round(2 * base[pid]) for pid in order]
    sides = [(column[g.white], column[g.black]) for g in pending]
    total = 3 ** len(pending)

    first_count = dict.fromkeys(order, 0.0)
    playoff_count = dict.fromkeys(order, 0.0)
    first_p = dict.fromkeys(order, 0.0)
    playoff_p = dict.fromkeys(order, 0.0)
    playoff_outcomes: set[int] = set()
    if total <= exact_limit:
        count_playoffs = 0.0
        probability = 0.0
        for code, digits, p in _every_outcome(chances):
            first, playoff = decide(start, sides, digits, order)
            if playoff:
                count_playoffs += 1
                probability += p
                playoff_outcomes.add(code)
                for pid in playoff:
                    playoff_count[pid] += 1
                    playoff_p[pid] += p
            elif first is not None:
                first_count[first] += 1
                first_p[first] += p
        conditions = _conditions(playoff_outcomes, pending, event, total)
        error = None
        drawn = None
    else:
        rng = random.Random(seed)
        uniform = [(1 / 3, 1 / 3, 1 / 3)] * len(pending)
        count_playoffs = 0.0
        for digits in _sampled(uniform, sample, rng):
            first, playoff = decide(start, sides, digits, order)
            if playoff:
                count_playoffs += 1
                for pid in playoff:
                    playoff_count[pid] += 1
            elif first is not None:
                first_count[first] += 1
        hits = 0
        for digits in _sampled(chances, sample, rng):
            first, playoff = decide(start, sides, digits, order)
            if playoff:
                hits += 1
                for pid in playoff:
                    playoff_p[pid] += 1
            elif first is not None:
                first_p[first] += 1
        scale = total / sample
        count_playoffs *= scale
        for pid in order:
            first_count[pid] *= scale
            playoff_count[pid] *= scale
            first_p[pid] /= sample
            playoff_p[pid] /= sample
        probability = hits / sample
        # The standard error of a share estimated from the sample is at most
        # sqrt(1/4 / sample), at a share of one half.
        error = math.sqrt(0.25 / sample)
        drawn = sample
        conditions = (
            f"{len(pending)} games are pending ({total:,} outcomes): too many to write "
            "the conditions exactly; the figures are estimates from a sample.",
        )
    players = tuple(
        PlayerForesight(
            id=pid,
            name=event.player(pid).name,
            first_alone=first_count[pid],
            in_playoff=playoff_count[pid],
            p_first_alone=first_p[pid],
            p_in_playoff=playoff_p[pid],
        )
        for pid in order
    )
    specials = (
        _special_prizes(event, pending, regulation, special, chances, exact_limit, sample, seed)
        if special else ()
    )
    return Foresight(
        special_prizes=specials,
        regulation=getattr(regulation, "name", str(regulation)),
        pending=tuple(pending),
        outcomes=total,
        exact=total <= exact_limit,
        playoff_outcomes=count_playoffs,
        probability=probability,
        model=model.name,
        players=players,
        conditions=conditions,
        sample=drawn,
        error=error,
    )


def _check_pending(event: IndividualEvent, pending: Sequence[PendingGame]) -> None:
    ids = {p.id for p in event.players}
    busy = {(g.round, pid) for g in event.games for pid in (g.white, g.black)}
    busy |= {(b.round, b.player) for b in event.byes}
    for i, game in enumerate(pending):
        for pid in (game.white, game.black):
            if pid not in ids:
                raise InputError(f"pending game {i + 1}: no player {pid!r} in the event")
            if (game.round, pid) in busy:
                raise InputError(
                    f"pending game {i + 1}: {pid!r} already has a result in round {game.round}"
                )
            busy.add((game.round, pid))


def _every_outcome(
    chances: Sequence[Sequence[float]],
) -> Iterable[tuple[int, tuple[int, ...], float]]:
    """Each outcome: its code (base 3), its digits, its probability under the model."""
    for code, digits in enumerate(product((WHITE_WINS, DRAW, BLACK_WINS), repeat=len(chances))):
        p = 1.0
        for game, digit in enumerate(digits):
            p *= chances[game][digit]
        yield code, digits, p


def _sampled(
    chances: Sequence[Sequence[float]], count: int, rng: random.Random
) -> Iterable[tuple[int, ...]]:
    choices = (WHITE_WINS, DRAW, BLACK_WINS)
    columns = [rng.choices(choices, weights=c, k=count) for c in chances]
    return zip(*columns, strict=True) if columns else iter([()] * count)


Decide = Callable[[list[int], list[tuple[int, int]], Sequence[int], list[str]], Decision]


def _decider(
    event: IndividualEvent, pending: Sequence[PendingGame], regulation: Any
) -> Decide:
    """How first place is settled in one outcome, under ``regulation``."""
    playoff_for_first = bool(getattr(regulation, "playoff_for_first", False))
    memo: dict[tuple[int, ...], Decision] = {}

    def decide(
        start: list[int], sides: list[tuple[int, int]], digits: Sequence[int], order: list[str]
    ) -> Decision:
        scores = list(start)
        for (white, black), digit in zip(sides, digits, strict=True):
            to_white, to_black = _HALVES[digit]
            scores[white] += to_white
            scores[black] += to_black
        top = max(scores)
        leaders = tuple(order[i] for i, s in enumerate(scores) if s == top)
        if len(leaders) == 1:
            return leaders[0], ()
        if playoff_for_first:
            return None, leaders
        # The tie-breaks decide: the regulation's standings of this outcome.
        key = tuple(digits)
        if key not in memo:
            memo[key] = _first_by_standings(event, pending, digits, regulation)
        return memo[key]

    return decide


def _first_by_standings(
    event: IndividualEvent, pending: Sequence[PendingGame], digits: Sequence[int], regulation: Any
) -> Decision:
    standings = _standings_of(event, pending, digits, regulation)
    if standings.playoff:
        return None, tuple(standings.playoff)
    first = standings.groups[0]
    return (first[0], ()) if len(first) == 1 else (None, ())


def _standings_of(
    event: IndividualEvent, pending: Sequence[PendingGame], digits: Sequence[int], regulation: Any
) -> Any:
    played = [
        Game(round=g.round, white=g.white, black=g.black, result=_RESULTS[d])
        for g, d in zip(pending, digits, strict=True)
    ]
    return regulation.standings(event.model_copy(update={"games": [*event.games, *played]}))


def _special_prizes(
    event: IndividualEvent,
    pending: Sequence[PendingGame],
    regulation: Any,
    positions: Sequence[int],
    chances: Sequence[Sequence[float]],
    exact_limit: int,
    sample: int,
    seed: int,
) -> tuple[SpecialPrizeForesight, ...]:
    from playoff_formats.regulations.gct2015 import special_prize_playoffs

    total = 3 ** len(pending)
    counts = dict.fromkeys(positions, 0.0)
    likely = dict.fromkeys(positions, 0.0)
    who: dict[int, set[str]] = {p: set() for p in positions}

    def look(digits: Sequence[int], weight: float, p: float) -> None:
        standings = _standings_of(event, pending, digits, regulation)
        for position in positions:
            groups = special_prize_playoffs(standings, [position])
            if groups:
                counts[position] += weight
                likely[position] += p
                who[position].update(groups[0])

    if total <= exact_limit:
        for _, digits, p in _every_outcome(chances):
            look(digits, 1.0, p)
    else:
        # Fewer draws than for first place: each outcome is ranked whole here.
        drawn = min(sample, 20_000)
        rng = random.Random(seed)
        for digits in _sampled([(1 / 3, 1 / 3, 1 / 3)] * len(pending), drawn, rng):
            look(digits, total / drawn, 0.0)
        for digits in _sampled(chances, drawn, rng):
            look(digits, 0.0, 1 / drawn)
    order = [p.id for p in event.players]
    return tuple(
        SpecialPrizeForesight(
            position=position,
            playoff_outcomes=counts[position],
            probability=likely[position],
            players=tuple(pid for pid in order if pid in who[position]),
        )
        for position in positions
    )


# --------------------------------------------------------------------------- in words


Cube = tuple[frozenset[int], ...]


def _conditions(
    on: set[int], pending: Sequence[PendingGame], event: IndividualEvent, total: int
) -> tuple[str, ...]:
    if not on:
        return ("No outcome of the pending games needs a play-off for first.",)
    if len(on) == total:
        return ("Every outcome of the pending games needs a play-off for first.",)
    short = [short_name(p.name) for p in event.players]
    # The surname alone where it names one player; the full name where two share it.
    names = {
        p.id: name if short.count(name) == 1 else p.name
        for p, name in zip(event.players, short, strict=True)
    }
    cubes = minimal_cover(on, len(pending))
    return tuple(
        "A play-off for first is needed if "
        + " and ".join(
            _in_words(game, allowed, names)
            for game, allowed in zip(pending, cube, strict=True)
            if len(allowed) < 3
        )
        + "."
        for cube in cubes
    )


def _in_words(game: PendingGame, allowed: frozenset[int], names: Mapping[str, str]) -> str:
    white, black = names[game.white], names[game.black]
    if allowed == {WHITE_WINS}:
        return f"{white} beats {black}"
    if allowed == {BLACK_WINS}:
        return f"{black} beats {white}"
    if allowed == {DRAW}:
        return f"{white} draws with {black}"
    if allowed == {WHITE_WINS, DRAW}:
        return f"{white} does not lose to {black}"
    if allowed == {BLACK_WINS, DRAW}:
        return f"{black} does not lose to {white}"
    return f"{white}-{black} is not drawn"


def _digits(code: int, n: int) -> list[int]:
    digits = [0] * n
    for i in range(n - 1, -1, -1):
        code, digits[i] = divmod(code, 3)
    return digits


def _members(cube: Cube) -> Iterable[int]:
    for digits in product(*(sorted(values) for values in cube)):
        code = 0
        for d in digits:
            code = code * 3 + d
        yield code


def minimal_cover(on: set[int], n: int) -> list[Cube]:
    """Cubes whose union is exactly ``on`` (outcomes in base 3, ``n`` games), few.

    Each outcome not yet covered is grown into a cube inside ``on``: first every
    game that can be left free is, then each game still fixed takes a second
    result where it can; cubes that the others cover are dropped at the end.
    """
    cubes: list[Cube] = []
    covered: set[int] = set()
    for code in sorted(on):
        if code in covered:
            continue
        cube: Cube = tuple(frozenset({d}) for d in _digits(code, n))
        for i in range(n):
            wider = (*cube[:i], frozenset({WHITE_WINS, DRAW, BLACK_WINS}), *cube[i + 1 :])
            if all(m in on for m in _members(wider)):
                cube = wider
        for i in range(n):
            if len(cube[i]) != 1:
                continue
            for extra in (WHITE_WINS, DRAW, BLACK_WINS):
                if extra in cube[i]:
                    continue
                wider = (*cube[:i], cube[i] | {extra}, *cube[i + 1 :])
                if all(m in on for m in _members(wider)):
                    cube = wider
                    break
        cubes.append(cube)
        covered.update(_members(cube))
    # Drop a cube whose every outcome another one covers (the smallest first).
    times: dict[int, int] = {}
    for cube in cubes:
        for m in _members(cube):
            times[m] = times.get(m, 0) + 1
    kept = []
    for cube in sorted(cubes, key=lambda c: math.prod(len(v) for v in c)):
        members = list(_members(cube))
        if all(times[m] > 1 for m in members):
            for m in members:
                times[m] -= 1
        else:
            kept.append(cube)
    return sorted(kept, key=cubes.index)


# --------------------------------------------------------------------------- TRF


_TRF_ROUNDS_AT = 91  # round 1's ten columns start at column 92
_TRF_ROUND_WIDTH = 10
_TRF_RESULT_AT = 7  # the result code, eighth of a round's columns
_TRF_POINTS = slice(80, 84)  # the points so far, columns 81-84


def parse_trf_with_pending(
    text: str, source: str | None = None
) -> tuple[IndividualEvent, tuple[PendingGame, ...]]:
    """A FIDE TRF whose paired games may be pending: result code ``*`` (as in PGN)
    in both players' lines, with the opponent and colour written as for any game.

    TRF has no code for a game not yet finished; ``*`` is this project's. A line
    with a pending game may keep its points so far or leave columns 81-84 blank.
    """
    from playoff_formats.io.trf import parse_trf

    lines = text.split("\n")
    marked: set[tuple[int, int]] = set()  # (starting rank, round)
    for n, line in enumerate(lines):
        if not line.startswith("001") or len(line) <= _TRF_ROUNDS_AT:
            continue
        chars = list(line)
        rank_text = line[4:8].strip()
        for start in range(_TRF_ROUNDS_AT, len(line), _TRF_ROUND_WIDTH):
            at = start + _TRF_RESULT_AT
            if at < len(chars) and chars[at] == PENDING:
                # Read as a draw for its pairing; set apart below.
                chars[at] = "="
                if rank_text.isdigit():
                    marked.add((int(rank_text), (start - _TRF_ROUNDS_AT) // _TRF_ROUND_WIDTH + 1))
                chars[_TRF_POINTS] = " " * 4
        lines[n] = "".join(chars)
    event = parse_trf("\n".join(lines), source)
    pending_at = {
        i for i, g in enumerate(event.games)
        if (int(g.white), g.round) in marked or (int(g.black), g.round) in marked
    }
    pending = tuple(PendingGame(event.games[i].round, event.games[i].white, event.games[i].black)
                    for i in sorted(pending_at))
    finished = event.model_copy(
        update={"games": [g for i, g in enumerate(event.games) if i not in pending_at]}
    )
    return finished, pending
