"""What an e-board's frames come to (``clients/python/dgt.py``): settled positions,
presses, flags; without a network, the time given."""

from __future__ import annotations

import chess
import pytest

from clients.python.dgt import (
    EBoardWatch,
    Flagged,
    MapError,
    Pressed,
    Settled,
    board_clock,
    lifted_from,
    parse_map,
)
from clients.python.livechess import DgtClock

START = chess.STARTING_BOARD_FEN


def after(*sans: str) -> str:
    board = chess.Board()
    for san in sans:
        board.push_san(san)
    return board.board_fen()


def without(placement: str, *squares: str) -> str:
    board = chess.BaseBoard(placement)
    for name in squares:
        board.remove_piece_at(chess.parse_square(name))
    return board.board_fen()


def settled_after(frames: list[tuple[str, int]], end_ms: int, *, sent: str = START
                  ) -> list[Settled | Pressed | Flagged]:
    """The placements ``frames`` (each with its arrival ms), then the clock at
    ``end_ms``: what goes out."""
    watch, out = EBoardWatch(settle_ms=300, seen=sent, sent=sent), []
    for placement, at in frames:
        watch, more = watch.placed(placement, at, at)
        out += more
    watch, more = watch.tick(end_ms)
    return out + more


def test_a_piece_lifted_then_put_down_elsewhere_is_one_position() -> None:
    e4 = after("e4")
    out = settled_after([(without(START, "e2"), 1000), (e4, 1400)], 1800)
    assert out == [Settled(e4, 1400)]


def test_a_position_is_not_sent_before_it_has_stood() -> None:
    e4 = after("e4")
    assert settled_after([(without(START, "e2"), 1000), (e4, 1400)], 1699) == []


def test_a_piece_held_in_the_air_is_never_a_position() -> None:
    # Held for ten seconds, then put back where it was: nothing happened.
    assert settled_after([(without(START, "e2"), 1000)], 11_000) == []
    assert settled_after([(without(START, "e2"), 1000), (START, 11_000)], 20_000) == []


def test_a_capture_lifts_two_pieces_and_is_one_position() -> None:
    before = after("e4", "d5")
    capture = after("e4", "d5", "exd5")
    frames = [(without(before, "e4"), 1000), (without(before, "e4", "d5"), 1500),
              (capture, 1900)]
    out = settled_after(frames, 2500, sent=before)
    assert out == [Settled(capture, 1900)]


def test_castling_king_then_rook_is_one_position() -> None:
    before = after("e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5")
    castled = after("e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5", "O-O")
    frames = [(without(before, "e1"), 1000), (without(before, "e1", "h1"), 1500),
              (castled, 1900)]
    assert settled_after(frames, 2300, sent=before) == [Settled(castled, 1900)]


def test_a_position_that_stood_settles_when_the_next_frame_arrives() -> None:
    # No clock tick in between: the arrival of the next frame says it stood.
    e4, e5 = after("e4"), after("e4", "e5")
    watch = EBoardWatch(settle_ms=300, seen=START, sent=START)
    watch, out = watch.placed(e4, 1000, 1000)
    assert out == []
    watch, out = watch.placed(without(e4, "e7"), 5000, 5000)
    assert out == [Settled(e4, 1000)]
    watch, out = watch.placed(e5, 5200, 5200)
    assert out == []
    assert watch.due_ms() == 5500


def clock(white: int, black: int, run: bool | None, at: int) -> DgtClock:
    return DgtClock(white_s=white, black_s=black, run=run, time_ms=at)


def test_a_press_sends_the_position_at_once_then_the_press() -> None:
    running = clock(900, 900, True, 500)
    watch = EBoardWatch(settle_ms=300, seen=START, sent=START, clock=running)
    e4 = after("e4")
    watch, out = watch.placed(without(START, "e2"), 1000, 1000)
    watch, out = watch.placed(e4, 1100, 1100)
    assert out == []
    pressed = clock(906, 900, False, 1150)  # 50 ms later: not settled yet, pressed
    watch, out = watch.clocked(pressed)
    assert out == [Settled(e4, 1100), Pressed("white", pressed)]
    assert watch.tick(10_000)[1] == []  # sent once
    # Black's move and press: false -> true is Black's press.
    e5 = after("e4", "e5")
    watch, out = watch.placed(e5, 4000, 4000)
    black_pressed = clock(906, 897, True, 4050)
    watch, out = watch.clocked(black_pressed)
    assert out == [Settled(e5, 4000), Pressed("black", black_pressed)]


def test_a_press_while_a_piece_is_in_the_air_sends_the_press_alone() -> None:
    running = clock(900, 900, True, 500)
    watch = EBoardWatch(settle_ms=300, seen=START, sent=START, clock=running)
    watch, _ = watch.placed(without(START, "e2"), 1000, 1000)
    pressed = clock(906, 900, False, 1050)
    watch, out = watch.clocked(pressed)
    assert out == [Pressed("white", pressed)]
    e4 = after("e4")
    watch, _ = watch.placed(e4, 1200, 1200)
    assert watch.tick(1500)[1] == [Settled(e4, 1200)]


def test_starting_pausing_and_ticking_are_no_press() -> None:
    watch = EBoardWatch(settle_ms=300, seen=START, sent=START)
    for reading in (clock(900, 900, None, 0), clock(900, 900, True, 1000),
                    clock(899, 900, True, 2000), clock(899, 900, None, 3000),
                    clock(899, 900, True, 9000)):
        watch, out = watch.clocked(reading)
        assert out == []


def test_a_flag_goes_out_once() -> None:
    watch = EBoardWatch(clock=clock(1, 30, True, 0))
    watch, out = watch.clocked(clock(0, 30, True, 1000))
    assert out == [Flagged("white", clock(0, 30, True, 1000))]
    watch, out = watch.clocked(clock(0, 30, True, 2000))
    assert out == []
    # The DGT clock stopping at the flag does not flag again; neither does Black's time.
    watch, out = watch.clocked(clock(0, 30, None, 3000))
    assert out == []


def test_a_clock_reading_as_the_service_takes_it() -> None:
    assert board_clock(clock(900, 893, False, 5)) == {"white_ms": 900_000, "black_ms": 893_000}


def test_a_lifted_piece_is_told_from_a_move() -> None:
    assert lifted_from(without(START, "e2"), START)
    assert lifted_from(without(START, "e2", "d7"), START)
    assert not lifted_from(after("e4"), START)
    assert not lifted_from(after("e4", "d5", "exd5"), after("e4", "d5"))


def test_the_map_option() -> None:
    assert parse_map(["23946=1", " 7425 = 2 ", "100=none"]) == {
        "23946": 1, "7425": 2, "100": None}
    for bad, words in (
        ("23946", "--map takes an e-board's serial number and a match, as 23946=1, not "
                  "'23946'"),
        ("=1", "as 23946=1"),
        ("23946=first", "the match is a number from 1 (or 'none'), not 'first'"),
        ("23946=0", "the match is a number from 1"),
    ):
        with pytest.raises(MapError) as caught:
            parse_map([bad])
        assert words in str(caught.value)
    with pytest.raises(MapError, match="board 23946 two matches"):
        parse_map(["23946=1", "23946=2"])
