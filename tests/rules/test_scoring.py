"""Bridge scoring scales: IMPs, WBF 2013 VPs, board-a-match, EBU rounding.

Published figures used here:
* the WBF IMP table (every step edge below);
* WBF 2013 continuous scale, 20 boards: 1 IMP → 10.28, 2 IMPs → 10.55 (quoted
  from the WBF scales by bcstar.nl, "Continue WP-schaal ingevoerd", 2013);
* WBF 2013 discrete scale as published by the EBU (White Book 3.1.1) for 5-16,
  20, 24, 28, 32, 40, 48, 56 and 64 boards (``PUBLISHED_DISCRETE`` below, band
  starts transcribed in rhindonltd/bridge-box-scorer,
  docs/imp-vp-conversion-table.txt). The discrete band edges invert the same
  curve as the continuous scale, so they also pin its constants.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from playoff_formats.scoring import (
    IMP_UPPER_BOUNDS,
    board_a_match,
    board_result_by_imps,
    discrete_vp_table,
    ebu_round,
    imps,
    point_a_board,
    victory_points,
    victory_points_discrete,
    vp_table,
)

# ------------------------------------------------------------------------ IMPs

# The WBF IMP table as printed: (lowest net score, highest net score, IMPs).
IMP_TABLE = [
    (0, 10, 0), (20, 40, 1), (50, 80, 2), (90, 120, 3), (130, 160, 4),
    (170, 210, 5), (220, 260, 6), (270, 310, 7), (320, 360, 8), (370, 420, 9),
    (430, 490, 10), (500, 590, 11), (600, 740, 12), (750, 890, 13),
    (900, 1090, 14), (1100, 1290, 15), (1300, 1490, 16), (1500, 1740, 17),
    (1750, 1990, 18), (2000, 2240, 19), (2250, 2490, 20), (2500, 2990, 21),
    (3000, 3490, 22), (3500, 3990, 23), (4000, 7600, 24),
]  # fmt: skip


@pytest.mark.parametrize(("low", "high", "expected"), IMP_TABLE)
def test_imps_at_both_edges_of_every_step(low: int, high: int, expected: int) -> None:
    assert imps(low) == expected
    assert imps(high) == expected
    assert imps(-low) == -expected
    assert imps(-high) == -expected


def test_imps_step_edges_named_in_the_brief() -> None:
    assert [imps(n) for n in (10, 20, 40, 50, 80, 90, 3990, 4000)] == [0, 1, 1, 2, 2, 3, 23, 24]
    assert [imps(n) for n in (-10, -20, -40, -50, -3990, -4000)] == [0, -1, -1, -2, -23, -24]


def test_imp_table_constant_matches_the_printed_table() -> None:
    assert tuple(high for _, high, _ in IMP_TABLE[:-1]) == IMP_UPPER_BOUNDS


@pytest.mark.parametrize("net", [5, -5, 15, 1, 4005, -3995])
def test_imps_refuses_scores_that_are_not_multiples_of_ten(net: int) -> None:
    with pytest.raises(ValueError, match="multiples of 10"):
        imps(net)


def test_imps_refuses_non_integers() -> None:
    with pytest.raises(TypeError):
        imps(20.0)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        imps(True)


@given(st.integers(min_value=-2000, max_value=2000).map(lambda k: 10 * k))
def test_imps_are_odd_monotone_and_bounded(net: int) -> None:
    assert imps(-net) == -imps(net)
    assert imps(net) <= imps(net + 10)
    assert -24 <= imps(net) <= 24


# ------------------------------------------------- WBF 2013 continuous VP scale

BOARD_COUNTS = st.integers(min_value=1, max_value=64)


def test_continuous_scale_matches_published_20_board_values() -> None:
    table = vp_table(20)
    assert table[:3] == (10.0, 10.28, 10.55)
    assert victory_points(1, 20) == (10.28, 9.72)
    assert victory_points(-2, 20) == (9.45, 10.55)


def test_continuous_scale_computed_values() -> None:
    # Computed from the report's formula (not read from a published table):
    # 16 boards, X = 60 exactly.
    assert vp_table(16)[:6] == (10.0, 10.31, 10.61, 10.91, 11.2, 11.48)
    assert vp_table(8)[:4] == (10.0, 10.44, 10.86, 11.27)
    assert vp_table(32)[:4] == (10.0, 10.22, 10.44, 10.65)


@pytest.mark.parametrize(
    ("boards", "blitz"),
    [(1, 15), (4, 30), (8, 43), (10, 48), (12, 52), (16, 60), (20, 68), (32, 85), (64, 120)],
)
def test_table_runs_from_a_draw_to_the_blitz(boards: int, blitz: int) -> None:
    table = vp_table(boards)
    assert blitz == math.ceil(15 * math.sqrt(boards))
    assert len(table) == blitz + 1
    assert table[0] == 10.0
    assert table[-1] == 20.0
    assert table[-2] < 20.0 or boards == 1
    assert victory_points(blitz, boards) == (20.0, 0.0)
    assert victory_points(-blitz, boards) == (0.0, 20.0)
    assert victory_points(blitz + 57, boards) == (20.0, 0.0)


def test_zero_imps_is_ten_all() -> None:
    for boards in (1, 7, 16, 64):
        assert victory_points(0, boards) == (10.0, 10.0)


def _rounded_formula(margin: int, boards: int) -> int:
    """The report's formula rounded to hundredths, with no concavity correction."""
    tau = (math.sqrt(5) - 1) / 2
    blitz = 15 * math.sqrt(boards)
    value = 10 + 10 * (1 - math.pow(tau, 3 * margin / blitz)) / (1 - tau**3)
    return min(2000, math.floor(100 * value + 0.5))


def test_concavity_correction_raises_rounded_values() -> None:
    # 16 boards, 14 IMPs: the formula gives 13.7436 → 13.74; between 13.52 and
    # 13.97 the 15th IMP (0.23) would then be worth more than the 14th (0.22).
    # The corrected table has 13.75 (steps 0.23, 0.22).
    assert [_rounded_formula(m, 16) for m in (13, 14, 15)] == [1352, 1374, 1397]
    assert vp_table(16)[13:16] == (13.52, 13.75, 13.97)


def _corrected(values: list[int], order: str) -> list[int]:
    """Independent concavity correction, fixing violations in the given order."""
    values = list(values)
    while True:
        found = [
            i
            for i in range(1, len(values) - 1)
            if values[i + 1] - values[i] > values[i] - values[i - 1]
        ]
        if not found:
            return values
        if order == "bottom-up":
            values[found[0]] += 1
        elif order == "top-down":
            values[found[-1]] += 1
        else:  # every violation of this pass at once
            for i in found:
                values[i] += 1


@pytest.mark.parametrize("order", ["bottom-up", "top-down", "all-at-once"])
def test_correction_order_does_not_matter(order: str) -> None:
    for boards in range(1, 65):
        blitz = math.ceil(15 * math.sqrt(boards))
        rounded = [_rounded_formula(m, boards) for m in range(blitz + 1)]
        expected = [h / 100 for h in _corrected(rounded, order)]
        assert list(vp_table(boards)) == expected, boards


def _hundredths(values: tuple[float, ...]) -> list[int]:
    return [round(100 * v) for v in values]


@given(BOARD_COUNTS)
def test_continuous_scale_is_monotone_and_concave(boards: int) -> None:
    table = _hundredths(vp_table(boards))
    steps = [b - a for a, b in itertools.pairwise(table)]
    assert all(step >= 0 for step in steps)
    assert all(later <= earlier for earlier, later in itertools.pairwise(steps))
    assert all(1000 <= h <= 2000 for h in table)


@given(BOARD_COUNTS, st.integers(min_value=-200, max_value=200))
def test_continuous_pairs_are_symmetric_and_sum_to_twenty(boards: int, margin: int) -> None:
    home, away = victory_points(margin, boards)
    assert home + away == 20.0
    assert victory_points(-margin, boards) == (away, home)
    assert (home > away) == (margin > 0)
    table = vp_table(boards)
    winner = table[min(abs(margin), len(table) - 1)]
    assert max(home, away) == winner


@given(BOARD_COUNTS, st.integers(min_value=-200, max_value=199))
def test_continuous_home_score_never_falls_as_the_margin_grows(boards: int, margin: int) -> None:
    assert victory_points(margin, boards)[0] <= victory_points(margin + 1, boards)[0]


def test_continuous_scale_refuses_bad_arguments() -> None:
    with pytest.raises(ValueError, match="at least one board"):
        vp_table(0)
    with pytest.raises(ValueError):
        victory_points(3, -4)
    with pytest.raises(TypeError):
        victory_points(2.5, 16)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        vp_table(16.0)  # type: ignore[arg-type]


# --------------------------------------------------- WBF 2013 discrete VP scale

# Published EBU/WBF discrete scale: for each board count, the smallest winning
# margin that scores 10, 11, ..., 20 VPs.
PUBLISHED_DISCRETE: dict[int, list[int]] = {
    5: [0, 1, 3, 5, 7, 10, 13, 16, 20, 25, 31],
    6: [0, 1, 3, 5, 8, 11, 14, 18, 22, 27, 33],
    7: [0, 1, 3, 6, 9, 12, 15, 19, 24, 29, 36],
    8: [0, 1, 4, 7, 10, 13, 17, 21, 26, 31, 39],
    9: [0, 1, 4, 7, 10, 13, 17, 22, 27, 33, 41],
    10: [0, 1, 4, 7, 10, 14, 18, 23, 28, 35, 43],
    11: [0, 2, 5, 8, 11, 15, 19, 24, 30, 37, 45],
    12: [0, 2, 5, 8, 12, 16, 20, 25, 31, 38, 47],
    13: [0, 2, 5, 8, 12, 16, 21, 26, 32, 40, 49],
    14: [0, 2, 5, 9, 13, 17, 22, 27, 34, 41, 51],
    15: [0, 2, 5, 9, 13, 17, 22, 28, 35, 43, 53],
    16: [0, 2, 5, 9, 13, 18, 23, 29, 36, 44, 54],
    20: [0, 2, 6, 10, 15, 20, 26, 32, 40, 49, 61],
    24: [0, 2, 6, 11, 16, 22, 28, 35, 44, 54, 66],
    28: [0, 2, 7, 12, 18, 24, 30, 38, 47, 58, 72],
    32: [0, 3, 8, 13, 19, 25, 33, 41, 51, 62, 77],
    40: [0, 3, 8, 14, 21, 28, 36, 46, 56, 69, 86],
    48: [0, 3, 9, 16, 23, 31, 40, 50, 62, 76, 94],
    56: [0, 3, 10, 17, 25, 33, 43, 54, 67, 82, 101],
    64: [0, 4, 11, 18, 26, 36, 46, 58, 71, 88, 108],
}


@pytest.mark.parametrize("boards", sorted(PUBLISHED_DISCRETE))
def test_discrete_scale_matches_the_published_table(boards: int) -> None:
    starts = PUBLISHED_DISCRETE[boards]
    expected: list[int] = []
    for vp, (start, end) in enumerate(
        zip(starts, [*starts[1:], starts[-1] + 1], strict=True), start=10
    ):
        expected.extend([vp] * (end - start))
    assert list(discrete_vp_table(boards)) == expected
    for margin in range(starts[-1] + 5):
        vp = 10 + sum(1 for start in starts[1:] if margin >= start)
        assert victory_points_discrete(margin, boards) == (vp, 20 - vp)
        assert victory_points_discrete(-margin, boards) == (20 - vp, vp)


def test_discrete_scale_examples() -> None:
    # 8 boards: rounding alone would give 0-1 → 10 and 2-3 → 11, a narrower
    # band after a wider one; the published scale (and this) has 0 → 10-10.
    assert victory_points_discrete(1, 8) == (11, 9)
    assert victory_points_discrete(0, 8) == (10, 10)
    # 20 boards: 0-1 IMP 10-10, 2-5 11-9, 6-9 12-8 (also quoted by bcstar.nl).
    assert [victory_points_discrete(m, 20)[0] for m in range(11)] == [
        10, 10, 11, 11, 11, 11, 12, 12, 12, 12, 13,
    ]  # fmt: skip
    assert victory_points_discrete(61, 20) == (20, 0)
    assert victory_points_discrete(-60, 20) == (1, 19)


def _band_widths(table: tuple[int, ...]) -> list[int]:
    """Margins per VP, the 10-10 band counted on both sides of zero."""
    widths = [table.count(vp) for vp in range(10, 20)]
    widths[0] = 2 * widths[0] - 1
    return widths


@given(BOARD_COUNTS)
def test_discrete_scale_is_monotone_with_non_narrowing_bands(boards: int) -> None:
    table = discrete_vp_table(boards)
    assert table[0] == 10
    assert table[-1] == 20
    assert table.count(20) == 1
    assert all(a <= b <= a + 1 for a, b in itertools.pairwise(table))
    widths = _band_widths(table)
    assert all(w >= 1 for w in widths)
    assert widths == sorted(widths)


@given(BOARD_COUNTS, st.integers(min_value=-150, max_value=150))
def test_discrete_pairs_are_symmetric_and_close_to_continuous(boards: int, margin: int) -> None:
    home, away = victory_points_discrete(margin, boards)
    assert isinstance(home, int)
    assert home + away == 20
    assert victory_points_discrete(-margin, boards) == (away, home)
    assert abs(home - victory_points(margin, boards)[0]) < 1


# --------------------------------------------------------------- board-a-match


def test_board_a_match_scores_win_draw_loss_on_the_raw_score() -> None:
    assert [board_a_match(n) for n in (10, 620, 0, -10, -4000)] == [1.0, 1.0, 0.5, 0.0, 0.0]


def test_ten_point_difference_is_a_drawn_board_by_imps() -> None:
    # EBU 143.7.1 (d): won/drawn/lost by the basic method (IMPs): 10 = 0 IMPs.
    assert board_result_by_imps(10) == 0.5
    assert board_result_by_imps(-10) == 0.5
    assert board_result_by_imps(0) == 0.5
    assert board_result_by_imps(20) == 1.0
    assert board_result_by_imps(-20) == 0.0
    assert board_a_match(10) == 1.0  # but a win at board-a-match scoring


def test_point_a_board_totals_a_match() -> None:
    boards = [10, 0, -20, 430, -10]
    assert point_a_board(boards) == (2.5, 2.5)
    assert point_a_board(boards, by_imps=True) == (2.5, 2.5)
    assert point_a_board([10, 10, -20]) == (2.0, 1.0)
    assert point_a_board([10, 10, -20], by_imps=True) == (1.0, 2.0)
    assert point_a_board([]) == (0.0, 0.0)


def test_point_a_board_refuses_impossible_scores() -> None:
    with pytest.raises(ValueError, match="multiples of 10"):
        point_a_board([10, 25])
    with pytest.raises(ValueError, match="multiples of 10"):
        board_result_by_imps(-5)


@given(st.lists(st.integers(min_value=-500, max_value=500).map(lambda k: 10 * k), max_size=40))
def test_point_a_board_shares_one_point_per_board(boards: list[int]) -> None:
    for by_imps in (False, True):
        home, away = point_a_board(boards, by_imps=by_imps)
        assert home + away == len(boards)
        assert point_a_board([-n for n in boards], by_imps=by_imps) == (away, home)
    # Judged by IMPs, only ±10 boards change (to draws).
    raw_home, _ = point_a_board(boards)
    imp_home, _ = point_a_board(boards, by_imps=True)
    assert raw_home - imp_home == 0.5 * boards.count(10) - 0.5 * boards.count(-10)


# ---------------------------------------------------------------- EBU rounding


@pytest.mark.parametrize(
    ("value", "average", "places", "ebu", "python"),
    [
        (2.5, 0, 0, 3, 2),  # above the average: up; round() goes to even
        (0.5, 0, 0, 1, 0),
        (-2.5, 0, 0, -3, -2),  # below the average: down
        (1.5, 2, 0, 1, 2),  # below an average of 2: down
        (12.5, 10, 0, 13, 12),  # VPs on a 20-0 scale, average 10
        (7.5, 10, 0, 7, 8),
        (425, 0, -1, 430, 420),  # Butler datum to 10 points: exact 5s away
        (-425, 0, -1, -430, -420),
        (2.675, 0, 2, Fraction(268, 100), 2.67),  # round() sees the binary value
    ],
)
def test_ebu_round_against_python_round(
    value: float, average: float, places: int, ebu: Fraction | int, python: float
) -> None:
    assert ebu_round(value, average, places) == ebu
    assert round(value, places) == python


def test_ebu_round_agrees_with_round_where_there_is_no_half() -> None:
    assert ebu_round(2.4, 100) == 2
    assert ebu_round(2.6, -100) == 3
    assert ebu_round(3.5, 2) == 4 == round(3.5)
    assert ebu_round(Fraction(1, 3), 0, 2) == Fraction(33, 100)


def test_ebu_round_at_the_average_rounds_away_from_zero() -> None:
    assert ebu_round(2.5, 2.5) == 3
    assert ebu_round(-2.5, -2.5) == -3
    assert ebu_round(Fraction(1, 20), Fraction(1, 20), 1) == Fraction(1, 10)


def test_ebu_round_returns_exact_fractions() -> None:
    result = ebu_round(Fraction(123455, 100000), 0, 4)  # Neuberg: to 0.0001
    assert isinstance(result, Fraction)
    assert result == Fraction(12346, 10000)
    assert ebu_round(Fraction(123455, 100000), 2, 4) == Fraction(12345, 10000)
    assert ebu_round(0.15, 0, 1) == Fraction(2, 10)  # the float read as 0.15


def test_ebu_round_refuses_bad_arguments() -> None:
    with pytest.raises(ValueError, match="finite"):
        ebu_round(math.nan, 0)
    with pytest.raises(ValueError, match="finite"):
        ebu_round(1.0, math.inf)
    with pytest.raises(TypeError):
        ebu_round("2.5", 0)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        ebu_round(2.5, 0, 1.0)  # type: ignore[arg-type]


FRACTIONS = st.fractions(min_value=-1000, max_value=1000, max_denominator=400)


@given(FRACTIONS, FRACTIONS, st.integers(min_value=-2, max_value=4))
def test_ebu_round_is_nearest_and_antisymmetric(
    value: Fraction, average: Fraction, places: int
) -> None:
    unit = Fraction(10) ** -places
    result = ebu_round(value, average, places)
    assert (result / unit).denominator == 1
    assert abs(result - value) <= unit / 2
    assert ebu_round(-value, -average, places) == -result
    if abs(result - value) == unit / 2 and value != average:
        assert (result > value) == (value > average)


@given(st.integers(min_value=-200, max_value=200), FRACTIONS, st.integers(0, 3))
def test_ebu_round_is_symmetric_about_an_average_on_the_unit(
    average_units: int, offset: Fraction, places: int
) -> None:
    unit = Fraction(10) ** -places
    average = average_units * unit
    above = ebu_round(average + offset, average, places) - average
    below = ebu_round(average - offset, average, places) - average
    assert above == -below
