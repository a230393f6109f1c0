"""When a flag is logged, with and without a board clock at the game (docs/policies.md,
"The flag wait"): never before a press stamped before it can have arrived."""

from __future__ import annotations

from orchestrator.runtime.clocks import BoardHeard, flag_logged_at
from playoff_formats.stamps import ALLOWANCES

FLAG = 1_000_000


def test_a_game_without_a_board_logs_its_flag_at_its_instant() -> None:
    assert flag_logged_at(FLAG, FLAG, BoardHeard(False, None)) == FLAG


def test_a_board_not_heard_for_longer_than_an_outage_is_not_waited_for() -> None:
    heard = FLAG - ALLOWANCES.outage_ms - 1
    assert flag_logged_at(FLAG, FLAG, BoardHeard(False, heard)) == FLAG


def test_a_connected_board_is_waited_for_the_lag_allowance() -> None:
    assert flag_logged_at(FLAG, FLAG, BoardHeard(True, FLAG - 200)) == FLAG + ALLOWANCES.lag_ms


def test_a_board_heard_but_offline_is_waited_for_the_outage_allowance() -> None:
    # It may come back with presses it held, stamped before the flag.
    heard = FLAG - 5_000
    assert flag_logged_at(FLAG, FLAG, BoardHeard(False, heard)) == FLAG + ALLOWANCES.outage_ms
    # Gone off line after the flag: the outage counts from when it was last heard.
    assert flag_logged_at(FLAG, FLAG + 300, BoardHeard(False, FLAG + 300)) == (
        FLAG + 300 + ALLOWANCES.outage_ms
    )


def test_a_board_that_sent_every_press_through_the_flag_is_not_waited_for() -> None:
    assert flag_logged_at(FLAG, FLAG + 3, BoardHeard(True, FLAG + 3, FLAG)) == FLAG
    assert flag_logged_at(FLAG, FLAG + 3, BoardHeard(False, FLAG + 3, FLAG + 1)) == FLAG


def test_a_board_that_sent_its_presses_only_up_to_before_the_flag_is_still_waited_for() -> None:
    board = BoardHeard(True, FLAG - 1, FLAG - 1)
    assert flag_logged_at(FLAG, FLAG, board) == FLAG + ALLOWANCES.lag_ms
