"""The bracket's refusals are kept as messages when raised and said where they are
shown: English as ever in their reason, the reader's language at a door that speaks
another (here the pseudo-language, whose every message is in brackets)."""

from __future__ import annotations

import pytest

from playoff_formats.builders.gct import gct2015_playoff
from playoff_formats.model import Result
from playoff_formats.playoff import (
    TransitionError,
    correct_result,
    record_result,
    set_game_one_colours,
    start_match,
)
from playoff_formats.speech import PSEUDO, speaking

NAMES = {"A": "Anand", "B": "Bu", "C": "Carlsen", "D": "Ding"}


def test_a_locked_match_refused_whole_in_the_readers_language() -> None:
    p = gct2015_playoff(["A", "B", "C", "D"])
    with pytest.raises(TransitionError) as refused:
        start_match(p, 3)
    assert refused.value.reason == (
        "match 3 cannot start: it is locked: the winner of match 1 and the winner of "
        "match 2 are not known yet"
    )
    with speaking(PSEUDO):
        said = refused.value.words(NAMES)
    assert said.startswith("[måţçĥ 3 çåññöţ šţåŕţ: ")
    assert "[îţ îš ļöçķéd: ţĥé ŵîññéŕ" in said  # the reason inside said in the same language
    assert refused.value.words(NAMES) == refused.value.reason


def test_players_named_in_a_refusal_are_put_in_by_name_in_any_language() -> None:
    p = gct2015_playoff(["A", "B", "C", "D"])
    with pytest.raises(TransitionError) as refused:
        set_game_one_colours(p, 1, "A", "B")
    assert "participants A and D, one each (got White A, Black B)" in refused.value.reason
    with speaking(PSEUDO):
        said = refused.value.words(NAMES)
    assert said.startswith("[") and "Anand" in said and "Ding" in said and " A " not in said


def test_the_model_and_the_checks_speak_the_readers_language() -> None:
    p = gct2015_playoff(["A", "B", "C", "D"])
    with pytest.raises(TransitionError) as no_match:
        p.match(9)
    assert no_match.value.reason == "there is no match 9"
    with pytest.raises(TransitionError) as no_result:
        correct_result(p, 1, 1, Result.DRAW)
    p = set_game_one_colours(p, 1, "A", "D")
    with pytest.raises(TransitionError) as too_far:
        record_result(p, 1, 7, Result.DRAW)
    assert too_far.value.reason.startswith(
        "match 1 has no game 7: a two-game match has no further regular games"
    )
    with speaking(PSEUDO):
        for refused in (no_match, no_result, too_far):
            assert refused.value.words({}).startswith("[")
    with speaking(PSEUDO):
        assert "[ţŵö" in too_far.value.words({})  # the count in words, said too
