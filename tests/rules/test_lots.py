"""Lots, coin tosses and cuts of cards: commit-reveal, verification, card ranking."""

from __future__ import annotations

import hashlib
import hmac
import json
from collections import Counter
from itertools import permutations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import TypeAdapter, ValidationError

from playoff_formats.errors import InputError, PlayoffError
from playoff_formats.lots import (
    Card,
    CardCut,
    CoinFace,
    CoinToss,
    Colours,
    Cut,
    Draw,
    DrawKind,
    DrawOrder,
    DrawRecord,
    PhysicalDraw,
    Rank,
    Suit,
    announce,
    coin_toss,
    commit,
    cut_of_cards,
    draw_order,
    game_one_colours,
    outcome_of,
    reveal,
    verify,
)

SEED = bytes.fromhex("5eed" * 16)
OTHER_SEED = bytes.fromhex("beef" * 16)
RECORDS: TypeAdapter[Draw | PhysicalDraw] = TypeAdapter(DrawRecord)


def seeds(count: int) -> list[bytes]:
    return [hashlib.sha256(f"fixed seed {i}".encode()).digest() for i in range(count)]


def card(text: str) -> Card:
    rank, suit = text[:-1], text[-1]
    suits = {"S": Suit.SPADES, "H": Suit.HEARTS, "D": Suit.DIAMONDS, "C": Suit.CLUBS}
    return Card(rank=Rank(rank), suit=suits[suit])


# -- commitment --------------------------------------------------------------------------


def test_commitment_is_sha256_of_the_domain_prefix_and_the_seed() -> None:
    expected = hashlib.sha256(b"playoff-lots/v1/commit\x00" + SEED).hexdigest()
    assert commit(SEED) == expected
    assert commit(SEED) != commit(OTHER_SEED)


def test_short_seeds_are_refused_because_they_could_be_guessed_from_the_hash() -> None:
    with pytest.raises(InputError, match="at least 16 bytes"):
        commit(b"1234")
    with pytest.raises(InputError):
        draw_order(b"short", "seeding", ["a", "b"])


def test_the_outcome_is_recomputable_from_the_documented_recipe() -> None:
    """An independent implementation of the module docstring gives the same order."""
    description = json.dumps(
        {"candidates": ["a", "b", "c"], "contributions": [], "kind": "order", "purpose": "p"},
        sort_keys=True,
        separators=(",", ":"),
    ).encode()
    words: list[int] = []
    for block in range(4):
        message = b"playoff-lots/v1/draw\x00" + description + block.to_bytes(4, "big")
        digest = hmac.new(SEED, message, hashlib.sha256).digest()
        words += [int.from_bytes(digest[i : i + 8], "big") for i in range(0, 32, 8)]

    def uniform(n: int) -> int:
        while True:
            word = words.pop(0)
            if word < 2**64 - 2**64 % n:
                return word % n

    items = ["a", "b", "c"]
    for i in range(2, 0, -1):
        j = uniform(i + 1)
        items[i], items[j] = items[j], items[i]
    assert draw_order(SEED, "p", ["a", "b", "c"]) == tuple(items)


# -- verification --------------------------------------------------------------------


def test_a_draw_is_verified_knowing_only_the_published_hash_and_the_revealed_seed() -> None:
    # Before: the arbiter publishes the commitment and what is drawn.
    published_hash = commit(SEED)
    announced = announce(
        DrawKind.ORDER, "GCT 2015 reg. 4 (e) seeding", ["p1", "p2", "p3"], published_hash
    )
    assert not announced.revealed
    published_before = announced.model_dump_json()

    # After: the record with the revealed seed goes out as JSON.
    before = RECORDS.validate_json(published_before)
    assert isinstance(before, Draw)
    revealed = reveal(before, SEED)
    published_after = revealed.model_dump_json()

    # A verifier holds the hash from before and the seed from the record.
    record = RECORDS.validate_json(published_after)
    assert isinstance(record, Draw)
    assert record.seed is not None
    revealed_seed = bytes.fromhex(record.seed)
    assert verify(published_hash, revealed_seed, record)
    assert record.outcome == DrawOrder(
        order=draw_order(revealed_seed, record.purpose, record.candidates)
    )


def test_a_wrong_seed_fails_verification() -> None:
    revealed = reveal(announce(DrawKind.ORDER, "seeding", ["a", "b", "c"], commit(SEED)), SEED)
    assert not verify(commit(SEED), OTHER_SEED, revealed)
    assert not verify(commit(OTHER_SEED), OTHER_SEED, revealed)
    assert not verify(commit(SEED), b"short", revealed)


def test_a_tampered_outcome_or_description_fails_verification() -> None:
    revealed = reveal(announce(DrawKind.ORDER, "seeding", ["a", "b", "c"], commit(SEED)), SEED)
    assert isinstance(revealed.outcome, DrawOrder)
    other_order = next(p for p in permutations(["a", "b", "c"]) if p != revealed.outcome.order)
    forged = revealed.model_copy(update={"outcome": DrawOrder(order=other_order)})
    assert not verify(commit(SEED), SEED, forged)
    # The purpose is part of the description: the same seed gives another draw.
    purpose = next(
        f"draw {n}"
        for n in range(100)
        if draw_order(SEED, f"draw {n}", ["a", "b", "c"]) != revealed.outcome.order
    )
    assert not verify(commit(SEED), SEED, revealed.model_copy(update={"purpose": purpose}))


def test_reveal_refuses_a_seed_that_does_not_match_the_commitment() -> None:
    announced = announce(DrawKind.GAME_ONE_COLOURS, "final game 1", ["a", "b"], commit(SEED))
    with pytest.raises(PlayoffError, match="does not match"):
        reveal(announced, OTHER_SEED)
    revealed = reveal(announced, SEED)
    with pytest.raises(PlayoffError, match="already revealed"):
        reveal(revealed, SEED)


def test_contributions_made_after_the_commitment_change_the_outcome_and_are_verified() -> None:
    outcomes = {
        draw_order(SEED, "seeding", ["a", "b", "c", "d"], contributions=[str(n)]) for n in range(40)
    }
    assert len(outcomes) > 1
    announced = announce(DrawKind.ORDER, "seeding", ["a", "b", "c", "d"], commit(SEED))
    revealed = reveal(announced, SEED, contributions=["17", "42"])
    assert revealed.contributions == ("17", "42")
    assert verify(commit(SEED), SEED, revealed)
    dropped = revealed.model_copy(update={"contributions": ("17",)})
    assert not verify(commit(SEED), SEED, dropped)


def test_a_coin_toss_is_revealed_with_the_call_and_verified() -> None:
    announced = announce(
        DrawKind.COIN_TOSS, "Armageddon colours", ["carlsen", "nakamura"], commit(SEED)
    )
    with pytest.raises(InputError, match="call"):
        reveal(announced, SEED)
    revealed = reveal(announced, SEED, call=CoinFace.TAILS)
    assert verify(commit(SEED), SEED, revealed)
    assert isinstance(revealed.outcome, CoinToss)
    assert revealed.outcome.call is CoinFace.TAILS
    # The face does not depend on the call.
    heads = coin_toss(
        SEED, "Armageddon colours", "carlsen", opponent="nakamura", call=CoinFace.HEADS
    )
    assert heads.face == revealed.outcome.face
    assert heads.winner != revealed.outcome.winner


# -- outcomes and their distribution --------------------------------------------------


def test_draw_order_reaches_every_permutation_of_three() -> None:
    counts = Counter(draw_order(seed, "seeding", ["a", "b", "c"]) for seed in seeds(600))
    assert set(counts) == set(permutations(["a", "b", "c"]))
    assert all(60 <= n <= 140 for n in counts.values()), counts


def test_game_one_colours_gives_white_to_either_player() -> None:
    counts = Counter(game_one_colours(seed, "m1", "a", "b") for seed in seeds(400))
    assert set(counts) == {("a", "b"), ("b", "a")}
    assert all(150 <= n <= 250 for n in counts.values()), counts


def test_coin_toss_shows_both_faces_and_the_caller_wins_on_a_right_call() -> None:
    tosses = [coin_toss(s, "arm", "a", opponent="b", call=CoinFace.HEADS) for s in seeds(400)]
    faces = Counter(t.face for t in tosses)
    assert set(faces) == {CoinFace.HEADS, CoinFace.TAILS}
    assert all(150 <= n <= 250 for n in faces.values()), faces
    for toss in tosses:
        assert toss.winner == ("a" if toss.face is CoinFace.HEADS else "b")


def test_cut_of_cards_reaches_every_card_and_never_repeats_one() -> None:
    cuts = [cut_of_cards(seed, "cut", ["a", "b", "c", "d"]) for seed in seeds(500)]
    seen = {c.card for cut in cuts for c in cut.cuts}
    assert len(seen) == 52
    for cut in cuts:
        assert len({c.card for c in cut.cuts}) == 4
        assert cut.winner == cut.ranking()[0]
    assert set(Counter(cut.winner for cut in cuts)) == {"a", "b", "c", "d"}


@given(st.binary(min_size=16, max_size=64), st.text(max_size=20))
def test_draws_are_deterministic_and_permutations(seed: bytes, purpose: str) -> None:
    candidates = ["p1", "p2", "p3", "p4", "p5"]
    order = draw_order(seed, purpose, candidates)
    assert order == draw_order(seed, purpose, candidates)
    assert sorted(order) == candidates
    white, black = game_one_colours(seed, purpose, "x", "y")
    assert {white, black} == {"x", "y"}
    cut = cut_of_cards(seed, purpose, candidates)
    assert cut == cut_of_cards(seed, purpose, candidates)


def test_bad_candidates_are_refused() -> None:
    with pytest.raises(InputError, match="different"):
        draw_order(SEED, "p", ["a", "a"])
    with pytest.raises(InputError, match="at least two"):
        draw_order(SEED, "p", ["a"])
    with pytest.raises(InputError, match="exactly two"):
        announce(DrawKind.COIN_TOSS, "p", ["a", "b", "c"], commit(SEED))
    with pytest.raises(InputError, match="2 and 52"):
        cut_of_cards(SEED, "p", [str(i) for i in range(53)])
    with pytest.raises(InputError, match="not one string"):
        draw_order(SEED, "p", "ab")


# -- card ranking (EBU 143.7.1) ------------------------------------------------------


def test_ace_of_spades_beats_king_of_spades() -> None:
    assert card("AS").beats(card("KS"))


def test_rank_comes_first_two_of_spades_loses_to_ace_of_hearts() -> None:
    assert card("AH").beats(card("2S"))
    assert not card("2S").beats(card("AH"))


def test_suits_break_equal_ranks_spades_hearts_diamonds_clubs() -> None:
    assert card("AS").beats(card("AH"))
    assert card("7H").beats(card("7D"))
    assert card("2D").beats(card("2C"))
    ordered = sorted([card("QC"), card("QS"), card("QD"), card("QH")], key=lambda c: c.strength)
    assert [c.suit for c in ordered] == [Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES]


def test_aces_are_high() -> None:
    assert card("AC").beats(card("KS"))
    assert card("10C").beats(card("9S"))
    assert [Card.from_strength(s) for s in (0, 51)] == [card("2C"), card("AS")]
    assert str(card("10H")) == "10♥"


def test_the_highest_card_wins_the_cut() -> None:
    cut = CardCut(
        cuts=(Cut(contestant="A", card=card("2S")), Cut(contestant="B", card=card("AH"))),
        winner="B",
    )
    assert cut.ranking() == ("B", "A")
    with pytest.raises(ValidationError, match="highest card"):
        CardCut(
            cuts=(Cut(contestant="A", card=card("2S")), Cut(contestant="B", card=card("AH"))),
            winner="A",
        )
    with pytest.raises(ValidationError, match="cut twice"):
        CardCut(
            cuts=(Cut(contestant="A", card=card("2S")), Cut(contestant="B", card=card("2S"))),
            winner="A",
        )


# -- physical draws ------------------------------------------------------------------


def test_a_physical_draw_is_recorded_as_physical_and_checked_for_consistency() -> None:
    toss = CoinToss(caller="a", opponent="b", call=CoinFace.HEADS, face=CoinFace.TAILS, winner="b")
    record = PhysicalDraw(
        kind=DrawKind.COIN_TOSS,
        purpose="Armageddon colours (GCT 2015 reg. 10 c)",
        candidates=("a", "b"),
        outcome=toss,
        conducted_by="Chief Arbiter",
        witnesses=("a", "b"),
    )
    parsed = RECORDS.validate_json(record.model_dump_json())
    assert parsed == record
    assert json.loads(record.model_dump_json())["method"] == "physical"
    assert "seed" not in json.loads(record.model_dump_json())

    with pytest.raises(ValidationError, match="winner of this toss"):
        CoinToss(caller="a", opponent="b", call=CoinFace.HEADS, face=CoinFace.TAILS, winner="a")
    with pytest.raises(ValidationError, match="each candidate once"):
        PhysicalDraw(
            kind=DrawKind.ORDER,
            purpose="seeding",
            candidates=("a", "b", "c"),
            outcome=DrawOrder(order=("a", "b", "b")),
            conducted_by="CA",
        )
    with pytest.raises(ValidationError, match="must be a"):
        PhysicalDraw(
            kind=DrawKind.ORDER,
            purpose="seeding",
            candidates=("a", "b"),
            outcome=Colours(white="a", black="b"),
            conducted_by="CA",
        )


def test_outcome_of_matches_the_individual_draw_functions() -> None:
    assert outcome_of(SEED, DrawKind.GAME_ONE_COLOURS, "g1", ["a", "b"]) == Colours(
        white=game_one_colours(SEED, "g1", "a", "b")[0],
        black=game_one_colours(SEED, "g1", "a", "b")[1],
    )
    assert outcome_of(SEED, DrawKind.CUT_OF_CARDS, "cut", ["a", "b"]) == cut_of_cards(
        SEED, "cut", ["a", "b"]
    )


def test_a_draw_record_refuses_a_seed_without_an_outcome() -> None:
    with pytest.raises(ValidationError, match="revealed together"):
        Draw(
            kind=DrawKind.ORDER,
            purpose="p",
            candidates=("a", "b"),
            commitment=commit(SEED),
            seed=SEED.hex(),
        )
