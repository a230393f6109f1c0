"""Lots, coin tosses and cuts of cards that nobody can dispute.

Design notes: docs/rules-notes.md (Lots, tosses and cuts).
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Iterator, Sequence
from enum import StrEnum
from typing import Annotated, Literal, Self

from pydantic import Field, model_validator

from playoff_formats.errors import InputError, PlayoffError
from playoff_formats.model import Frozen
from playoff_formats.phrase import Said

__all__ = [
    "MIN_SEED_BYTES",
    "Card",
    "CardCut",
    "CoinFace",
    "CoinToss",
    "Colours",
    "Cut",
    "Draw",
    "DrawKind",
    "DrawOrder",
    "DrawRecord",
    "Outcome",
    "PhysicalDraw",
    "Rank",
    "Suit",
    "announce",
    "coin_toss",
    "commit",
    "cut_of_cards",
    "draw_order",
    "game_one_colours",
    "outcome_of",
    "reveal",
    "verify",
]

MIN_SEED_BYTES = 16
_COMMIT_PREFIX = b"playoff-lots/v1/commit\x00"
_DRAW_PREFIX = b"playoff-lots/v1/draw\x00"
_WORD = 2**64


class DrawKind(StrEnum):
    ORDER = "order"
    GAME_ONE_COLOURS = "game-one-colours"
    COIN_TOSS = "coin-toss"
    CUT_OF_CARDS = "cut-of-cards"


class CoinFace(StrEnum):
    HEADS = "heads"
    TAILS = "tails"


class Suit(StrEnum):
    """Suits, lowest first: spades > hearts > diamonds > clubs (EBU 143.7.1)."""

    CLUBS = "clubs"
    DIAMONDS = "diamonds"
    HEARTS = "hearts"
    SPADES = "spades"

    @property
    def strength(self) -> int:
        return _SUITS.index(self)

    @property
    def symbol(self) -> str:
        return {"clubs": "♣", "diamonds": "♦", "hearts": "♥", "spades": "♠"}[self.value]


class Rank(StrEnum):
    """Ranks, lowest first; aces are high (EBU 143.7.1)."""

    TWO = "2"
    THREE = "3"
    FOUR = "4"
    FIVE = "5"
    SIX = "6"
    SEVEN = "7"
    EIGHT = "8"
    NINE = "9"
    TEN = "10"
    JACK = "J"
    QUEEN = "Q"
    KING = "K"
    ACE = "A"

    @property
    def strength(self) -> int:
        return _RANKS.index(self)


_SUITS = tuple(Suit)
_RANKS = tuple(Rank)


class Card(Frozen):
    """A playing card.

    EBU 143.7.1: "aces are high and ... suits rank downwards
    spades-hearts-diamonds-clubs". Read as: the rank decides first (ace high,
    then king, queen... two); the suit only breaks a tie between equal ranks. So
    the ace of spades beats the king of spades, and the two of spades loses to
    the ace of hearts; the ace of spades beats the ace of hearts.
    """

    rank: Rank
    suit: Suit

    @property
    def strength(self) -> int:
        """0 (two of clubs) to 51 (ace of spades): the higher card has more."""
        return self.rank.strength * 4 + self.suit.strength

    @classmethod
    def from_strength(cls, strength: int) -> Card:
        rank, suit = divmod(strength, 4)
        return cls(rank=_RANKS[rank], suit=_SUITS[suit])

    def beats(self, other: Card) -> bool:
        return self.strength > other.strength

    def __str__(self) -> str:
        return f"{self.rank.value}{self.suit.symbol}"


class Cut(Frozen):
    contestant: str
    card: Card


class DrawOrder(Frozen):
    """A random order of the candidates, the first drawn first."""

    kind: Literal["order"] = "order"
    order: tuple[str, ...]


class Colours(Frozen):
    """Who has White in the first game."""

    kind: Literal["game-one-colours"] = "game-one-colours"
    white: str
    black: str


class CoinToss(Frozen):
    """A coin toss: ``caller`` called ``call`` and the coin showed ``face``."""

    kind: Literal["coin-toss"] = "coin-toss"
    caller: str
    opponent: str
    call: CoinFace
    face: CoinFace
    winner: str

    @model_validator(mode="after")
    def _winner_follows_the_coin(self) -> Self:
        if self.caller == self.opponent:
            raise ValueError("the caller and the opponent must differ")
        expected = self.caller if self.face == self.call else self.opponent
        if self.winner != expected:
            raise ValueError(f"the winner of this toss is {expected!r}")
        return self


class CardCut(Frozen):
    """Each contestant's card, in the order they cut, and the winner (highest card)."""

    kind: Literal["cut-of-cards"] = "cut-of-cards"
    cuts: tuple[Cut, ...] = Field(min_length=2, max_length=52)
    winner: str

    @model_validator(mode="after")
    def _winner_has_the_highest_card(self) -> Self:
        cards = [cut.card for cut in self.cuts]
        if len(set(cards)) != len(cards):
            raise ValueError("a card was cut twice: a pack has each card once")
        contestants = [cut.contestant for cut in self.cuts]
        if len(set(contestants)) != len(contestants):
            raise ValueError("a contestant cut twice")
        best = max(self.cuts, key=lambda cut: cut.card.strength)
        if self.winner != best.contestant:
            raise ValueError(f"the highest card was cut by {best.contestant!r}")
        return self

    def ranking(self) -> tuple[str, ...]:
        """The contestants, highest card first."""
        ordered = sorted(self.cuts, key=lambda cut: cut.card.strength, reverse=True)
        return tuple(cut.contestant for cut in ordered)


Outcome = Annotated[DrawOrder | Colours | CoinToss | CardCut, Field(discriminator="kind")]

_OUTCOME_KIND: dict[DrawKind, type[DrawOrder | Colours | CoinToss | CardCut]] = {
    DrawKind.ORDER: DrawOrder,
    DrawKind.GAME_ONE_COLOURS: Colours,
    DrawKind.COIN_TOSS: CoinToss,
    DrawKind.CUT_OF_CARDS: CardCut,
}


def _candidate_problem(kind: DrawKind, candidates: Sequence[str]) -> str | None:
    if isinstance(candidates, str):
        return "candidates must be a list of ids, not one string"
    if any(not c for c in candidates):
        return "a candidate id is empty"
    if len(set(candidates)) != len(candidates):
        return "the candidates must be different"
    if kind in (DrawKind.GAME_ONE_COLOURS, DrawKind.COIN_TOSS) and len(candidates) != 2:
        return f"a {kind.value} draw is between exactly two candidates"
    if kind is DrawKind.ORDER and len(candidates) < 2:
        return "an order is drawn between at least two candidates"
    if kind is DrawKind.CUT_OF_CARDS and not 2 <= len(candidates) <= 52:
        return "a cut of cards is between 2 and 52 contestants"
    return None


def _check_candidates(kind: DrawKind, candidates: Sequence[str]) -> None:
    problem = _candidate_problem(kind, candidates)
    if problem is not None:
        raise InputError(problem)


def _check_outcome(
    kind: DrawKind,
    candidates: tuple[str, ...],
    outcome: DrawOrder | Colours | CoinToss | CardCut,
    call: CoinFace | None,
) -> None:
    if not isinstance(outcome, _OUTCOME_KIND[kind]):
        raise ValueError(f"the outcome of a {kind.value} draw must be a {kind.value} outcome")
    if isinstance(outcome, DrawOrder):
        if sorted(outcome.order) != sorted(candidates):
            raise ValueError("the order must list each candidate once")
    elif isinstance(outcome, Colours):
        if {outcome.white, outcome.black} != set(candidates) or outcome.white == outcome.black:
            raise ValueError("White and Black must be the two candidates")
    elif isinstance(outcome, CoinToss):
        if (outcome.caller, outcome.opponent) != candidates:
            raise ValueError("the candidates of a coin toss are the caller, then the opponent")
        if call is not None and outcome.call != call:
            raise ValueError("the outcome's call differs from the recorded call")
    elif tuple(cut.contestant for cut in outcome.cuts) != candidates:
        raise ValueError("the contestants must cut in the order of the candidates")


# -- the commitment and the stream ---------------------------------------------------


def _check_seed(seed: bytes) -> None:
    if not isinstance(seed, bytes):
        raise InputError("a seed is bytes")
    if len(seed) < MIN_SEED_BYTES:
        raise InputError(f"a seed has at least {MIN_SEED_BYTES} bytes, so that nobody can guess it")


def commit(seed: bytes) -> str:
    """The public commitment to ``seed``: hex SHA-256 of the prefix and the seed."""
    _check_seed(seed)
    return hashlib.sha256(_COMMIT_PREFIX + seed).hexdigest()


def _description(
    kind: DrawKind, purpose: str, candidates: Sequence[str], contributions: Sequence[str]
) -> bytes:
    document = {
        "candidates": list(candidates),
        "contributions": list(contributions),
        "kind": kind.value,
        "purpose": purpose,
    }
    text = json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return text.encode("utf-8")


class _Stream:
    """Uniform integers from HMAC-SHA256 blocks (see the module docstring)."""

    def __init__(self, seed: bytes, description: bytes) -> None:
        self._words = self._generate(seed, description)

    @staticmethod
    def _generate(seed: bytes, description: bytes) -> Iterator[int]:
        block = 0
        while True:
            message = _DRAW_PREFIX + description + block.to_bytes(4, "big")
            digest = hmac.new(seed, message, hashlib.sha256).digest()
            for offset in range(0, len(digest), 8):
                yield int.from_bytes(digest[offset : offset + 8], "big")
            block += 1

    def uniform(self, n: int) -> int:
        if n < 1:
            raise ValueError("uniform(n) needs n >= 1")
        limit = _WORD - _WORD % n
        while True:
            word = next(self._words)
            if word < limit:
                return word % n


def _stream(
    seed: bytes,
    kind: DrawKind,
    purpose: str,
    candidates: Sequence[str],
    contributions: Sequence[str],
) -> _Stream:
    _check_seed(seed)
    _check_candidates(kind, candidates)
    return _Stream(seed, _description(kind, purpose, candidates, contributions))


# -- the draws ---------------------------------------------------------------------


def draw_order(
    seed: bytes, purpose: str, candidates: Sequence[str], *, contributions: Sequence[str] = ()
) -> tuple[str, ...]:
    """A random order of ``candidates`` (Fisher-Yates), the first drawn first."""
    stream = _stream(seed, DrawKind.ORDER, purpose, candidates, contributions)
    items = list(candidates)
    for i in range(len(items) - 1, 0, -1):
        j = stream.uniform(i + 1)
        items[i], items[j] = items[j], items[i]
    return tuple(items)


def game_one_colours(
    seed: bytes,
    purpose: str,
    player_a: str,
    player_b: str,
    *,
    contributions: Sequence[str] = (),
) -> tuple[str, str]:
    """``(white, black)`` for the first game of a match (GCT 2015 regs. 6-9)."""
    stream = _stream(seed, DrawKind.GAME_ONE_COLOURS, purpose, (player_a, player_b), contributions)
    return (player_a, player_b) if stream.uniform(2) == 0 else (player_b, player_a)


def coin_toss(
    seed: bytes,
    purpose: str,
    caller: str,
    *,
    opponent: str,
    call: CoinFace,
    contributions: Sequence[str] = (),
) -> CoinToss:
    """Toss a coin that ``caller`` called (GCT 2015 reg. 10 c).

    The face depends only on the seed and the description (kind, purpose,
    ``(caller, opponent)``, contributions), not on the call.
    """
    stream = _stream(seed, DrawKind.COIN_TOSS, purpose, (caller, opponent), contributions)
    face = CoinFace.HEADS if stream.uniform(2) == 0 else CoinFace.TAILS
    winner = caller if face == call else opponent
    return CoinToss(caller=caller, opponent=opponent, call=call, face=face, winner=winner)


def cut_of_cards(
    seed: bytes,
    purpose: str,
    contestants: Sequence[str],
    *,
    contributions: Sequence[str] = (),
) -> CardCut:
    """Each contestant cuts one card from one pack, in turn; the highest card wins."""
    stream = _stream(seed, DrawKind.CUT_OF_CARDS, purpose, contestants, contributions)
    pack = list(range(52))
    cuts: list[Cut] = []
    for contestant in contestants:
        strength = pack.pop(stream.uniform(len(pack)))
        cuts.append(Cut(contestant=contestant, card=Card.from_strength(strength)))
    best = max(cuts, key=lambda cut: cut.card.strength)
    return CardCut(cuts=tuple(cuts), winner=best.contestant)


# -- records -------------------------------------------------------------------------


class Draw(Frozen):
    """The public record of a commit-reveal draw.

    Announced: ``seed`` and ``outcome`` are ``None``. Revealed: ``seed`` is the
    hex of the seed and ``outcome`` follows from it (:func:`verify`).
    ``contributions`` and ``call`` (coin toss only) are fixed at the reveal; they
    were made after the commitment was published.
    """

    method: Literal["commit-reveal"] = "commit-reveal"
    kind: DrawKind
    purpose: str
    candidates: tuple[str, ...]
    commitment: str = Field(pattern=r"^[0-9a-f]{64}$")
    contributions: tuple[str, ...] = ()
    call: CoinFace | None = None
    seed: str | None = Field(default=None, pattern=r"^(?:[0-9a-f]{2})+$")
    outcome: Outcome | None = None

    @model_validator(mode="after")
    def _consistent(self) -> Self:
        problem = _candidate_problem(self.kind, self.candidates)
        if problem is not None:
            raise ValueError(problem)
        if (self.seed is None) != (self.outcome is None):
            raise ValueError("the seed and the outcome are revealed together")
        if self.call is not None and self.kind is not DrawKind.COIN_TOSS:
            raise ValueError("only a coin toss has a call")
        if self.outcome is not None:
            if self.kind is DrawKind.COIN_TOSS and self.call is None:
                raise ValueError("a revealed coin toss records the call")
            _check_outcome(self.kind, self.candidates, self.outcome, self.call)
        return self

    @property
    def revealed(self) -> bool:
        return self.seed is not None


class PhysicalDraw(Frozen):
    """A draw made by hand and entered by the arbiter: no seed, nothing to verify.

    The outcome is checked for consistency (a coin's winner follows the call, the
    highest card wins, an order lists each candidate once), not for chance.
    """

    method: Literal["physical"] = "physical"
    kind: DrawKind
    purpose: str
    candidates: tuple[str, ...]
    outcome: Outcome
    conducted_by: str = Field(min_length=1, description="The arbiter who made the draw")
    witnesses: tuple[str, ...] = ()
    note: str = ""

    @model_validator(mode="after")
    def _consistent(self) -> Self:
        problem = _candidate_problem(self.kind, self.candidates)
        if problem is not None:
            raise ValueError(problem)
        _check_outcome(self.kind, self.candidates, self.outcome, None)
        return self


DrawRecord = Annotated[Draw | PhysicalDraw, Field(discriminator="method")]


def announce(kind: DrawKind, purpose: str, candidates: Sequence[str], commitment: str) -> Draw:
    """The record published before the draw: what is drawn, and the commitment."""
    _check_candidates(kind, candidates)
    return Draw(kind=kind, purpose=purpose, candidates=tuple(candidates), commitment=commitment)


def outcome_of(
    seed: bytes,
    kind: DrawKind,
    purpose: str,
    candidates: Sequence[str],
    *,
    contributions: Sequence[str] = (),
    call: CoinFace | None = None,
) -> DrawOrder | Colours | CoinToss | CardCut:
    """The outcome that ``seed`` gives for this public description."""
    if kind is DrawKind.ORDER:
        order = draw_order(seed, purpose, candidates, contributions=contributions)
        return DrawOrder(order=order)
    if kind is DrawKind.GAME_ONE_COLOURS:
        _check_candidates(kind, candidates)
        white, black = game_one_colours(
            seed, purpose, candidates[0], candidates[1], contributions=contributions
        )
        return Colours(white=white, black=black)
    if kind is DrawKind.COIN_TOSS:
        _check_candidates(kind, candidates)
        if call is None:
            raise InputError("a coin toss needs the caller's call")
        return coin_toss(
            seed,
            purpose,
            candidates[0],
            opponent=candidates[1],
            call=call,
            contributions=contributions,
        )
    return cut_of_cards(seed, purpose, candidates, contributions=contributions)


def reveal(
    announced: Draw,
    seed: bytes,
    *,
    contributions: Sequence[str] = (),
    call: CoinFace | None = None,
) -> Draw:
    """The announced draw with its seed and outcome. Refuses a seed that does not
    match the commitment."""
    if announced.revealed:
        raise PlayoffError(Said.tr("this draw is already revealed"))
    if commit(seed) != announced.commitment:
        raise PlayoffError(Said.tr("the seed does not match the published commitment"))
    outcome = outcome_of(
        seed,
        announced.kind,
        announced.purpose,
        announced.candidates,
        contributions=contributions,
        call=call,
    )
    return Draw(
        kind=announced.kind,
        purpose=announced.purpose,
        candidates=announced.candidates,
        commitment=announced.commitment,
        contributions=tuple(contributions),
        call=call,
        seed=seed.hex(),
        outcome=outcome,
    )


def verify(commitment: str, seed: bytes, draw: Draw) -> bool:
    """True when ``seed`` matches ``commitment`` (the published hash), the record
    carries that commitment and seed, and its outcome is the one the seed gives
    for the record's public description. Any mismatch gives False."""
    if len(seed) < MIN_SEED_BYTES or commit(seed) != commitment:
        return False
    if draw.commitment != commitment or draw.outcome is None:
        return False
    if draw.seed is not None and draw.seed != seed.hex():
        return False
    try:
        expected = outcome_of(
            seed,
            draw.kind,
            draw.purpose,
            draw.candidates,
            contributions=draw.contributions,
            call=draw.call,
        )
    except PlayoffError:
        return False
    return expected == draw.outcome
