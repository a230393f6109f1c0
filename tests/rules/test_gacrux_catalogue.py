"""Every FIDE C.07 code we share with Gacrux, FIDE's reference tie-break engine,
gives Gacrux's values on generated round robins and Swiss events (byes of every
kind, forfeits, late entries, withdrawals), each dated before and after
1 March 2026 and so ranked by its own edition; DE gives Gacrux's ranks. Team
events (round robins and Swiss events, on match points and on game points), read
from their TRF by the project's reader, give Gacrux's values, and its ranks for the
criteria it reports as places (DE, EDE and its Art. 13.3.2 forms, TBR, BBE); the
team Swiss events have byes of every kind, matches and boards forfeited and boards
left empty, in TRF16 (013) and TRF-2026 (310, 240, 330).

The only differences are where the text says otherwise (docs/policies.md): C.07
Art. 15.2 (a forfeit win in a round robin is a game for WON, BPG, BWG), Art.
16.5.1 (the cut of SB-C1), Art. 6.1.2 (players who met twice have met), Art. 12.1
(the lower board count ranks higher, in EDEC, EDEBT and EDEBB).
Gacrux is not shipped with the project: without it these tests are skipped.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.gacrux import (
    BOARD_COUNT_AFTER_EDE,
    KNOWN_DIFFERENCES,
    Generated,
    compare,
    compare_teams,
    events,
    gacrux_or_skip,
    team_events,
)

EVENTS = list(events())


@pytest.mark.parametrize("event", EVENTS, ids=[e.name for e in EVENTS])
def test_values_and_direct_encounter_ranks_agree_with_gacrux(
    tmp_path: Path, event: Generated
) -> None:
    gacrux_or_skip()
    compared, differences = compare(event, tmp_path)
    assert compared > 0
    unexplained = [d for d in differences if d.known is None]
    assert unexplained == []
    # A documented difference is confined to its own codes and kind of event.
    by_code = {(d.event_pairing, d.code) for d in differences if d.reason is None}
    assert by_code <= set(KNOWN_DIFFERENCES)


def test_the_events_cover_both_editions_and_every_kind_of_round() -> None:
    names = [e.name for e in EVENTS]
    assert any("-2024-" in n for n in names) and any("-2026-" in n for n in names)
    swiss_text = "".join(e.text for e in EVENTS if e.pairing == "swiss")
    for code in (" U", " H", " F", " Z", " +", " -"):
        assert f"0000 -{code}" in swiss_text or f" w{code}" in swiss_text, code
    assert any("042 2025/" in e.text for e in EVENTS)
    assert any("042 2026/" in e.text for e in EVENTS)


TEAM_EVENTS = list(team_events())


@pytest.mark.parametrize(("name", "trf", "document"), TEAM_EVENTS, ids=[t[0] for t in TEAM_EVENTS])
def test_team_values_on_match_and_game_points_agree_with_gacrux(
    tmp_path: Path, name: str, trf: str, document: str
) -> None:
    # MP and GP as the primary score and on the criteria (BH:GP...), MPVGP (C.07 Art.
    # 13.1), SSSC (13.4) and BC (12.1) by value; EDE (13.3), TBR (12.2) and BBE (12.3)
    # by the ranks they give.
    gacrux_or_skip()
    compared, differences = compare_teams(name, trf, document, tmp_path)
    assert compared > 0
    # The one documented difference: the board count of Art. 13.3.2 (EDEC, EDEBT,
    # EDEBB) ranks the lower count higher, as Art. 12.1 says.
    assert [d for d in differences if d.known is None] == []
    assert {d.code for d in differences} <= {f"{c} (rank)" for c in BOARD_COUNT_AFTER_EDE}


def test_the_team_events_have_every_kind_of_unplayed_board_and_round() -> None:
    from playoff_formats.model import BoardResult, ByeKind
    from tests.support.gacrux import read_team_trf

    events = [read_team_trf(trf, name) for name, trf, _ in TEAM_EVENTS]
    kinds = {b.kind for e in events for b in e.byes}
    assert kinds == set(ByeKind)
    boards = {b for e in events for m in e.matches for b in m.chess_boards}
    assert {
        BoardResult.HOME_WINS_BY_FORFEIT, BoardResult.AWAY_WINS_BY_FORFEIT,
        BoardResult.DOUBLE_FORFEIT,
    } <= boards
    assert any(not m.played for e in events for m in e.matches)  # forfeited whole
    texts = [trf for _, trf, _ in TEAM_EVENTS]
    assert any("\n330 " in t for t in texts) and any("\n240 " in t for t in texts)
    assert any("\n013 " in t for t in texts) and any("\n310 " in t for t in texts)
    # A board left empty: a forfeit won against nobody, in a round the team plays.
    assert any(" 0000 - +" in t for t in texts)
