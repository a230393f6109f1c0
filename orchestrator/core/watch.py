"""What a main event's results lead to: its standings and the play-off watch, each
computed once per set of results."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

from orchestrator.core.computations import Computations
from orchestrator.core.errors import Conflict
from orchestrator.core.reasons import not_final_words, reason
from orchestrator.core.state import EventState
from playoff_formats.errors import PlayoffError
from playoff_formats.foresight import (
    DRAW_RATES,
    Foresight,
    OutcomeModel,
    PendingGame,
    chances_by_hand,
    foresee,
)
from playoff_formats.model import Event, IndividualEvent
from playoff_formats.regulations import get_regulation
from playoff_formats.standings import Standings

__all__ = ["DRAW_RATE_DIGITS", "Watch"]

DRAW_RATE_DIGITS = 2
"""A draw rate asked for is taken to this many decimals (a hundredth)."""


class Watch:
    """The standings and the play-off watch of the main events, kept while their
    results stay the same."""

    def __init__(self, computations: Computations) -> None:
        self.computations = computations
        self._standings: dict[str, tuple[Event, Standings]] = {}
        # By event, draw rate, time control and the chances set by hand.
        self._foresights: dict[
            tuple[str, float | None, str, tuple[Any, ...]],
            tuple[Event, tuple[PendingGame, ...], Foresight],
        ] = {}
        self._locks: dict[str, asyncio.Lock] = {}

    def standings(self, state: EventState) -> Standings:
        """The main event's standings under its regulation (computed once per set of
        results); 409 while a game is pending: they are not final."""
        event_id = state.id
        if state.pending:
            raise Conflict(not_final_words(state))
        cached = self._standings.get(event_id)
        if cached is None or cached[0] is not state.event:
            event = state.event
            cached = (event, get_regulation(event.regulation).standings(event))
            self._standings[event_id] = cached
        return cached[1]

    async def foresight(
        self, state: EventState, draw_rate: float | None = None,
        time_control: str = "classical", chances: Sequence[str] = (), *, who: str | None = None,
    ) -> Foresight:
        """Every outcome of the event's pending games under its regulation, and how
        likely each is (computed once per set of results and model). ``chances``: the
        arbiter's own for some games, ``WHITE-BLACK=W/D/B``. The draw rate is taken
        to the hundredth (0.300001 is 0.30: one computation, one cached answer).
        Computed in the pool of :attr:`computations`, within its limits for the
        service and for ``who`` (a token's id)."""
        if draw_rate is not None:
            draw_rate = round(draw_rate, DRAW_RATE_DIGITS)
        event_id = state.id
        event = state.event
        if not isinstance(event, IndividualEvent):
            raise Conflict(
                "the play-off watch is for individual events: a team event has no pending "
                "games"
            )
        if time_control not in DRAW_RATES:
            raise Conflict(
                f"no draw rate is known for {time_control} games: "
                + ", ".join(DRAW_RATES)
            )
        try:
            by_hand = chances_by_hand(chances)
            model = OutcomeModel(
                draw_rate=DRAW_RATES[time_control] if draw_rate is None else draw_rate,
                by_hand=by_hand,
            )
        except PlayoffError as exc:
            raise Conflict(reason(exc)) from None
        ids = {p.id for p in event.players}
        for white, black in by_hand:
            if not any((g.white, g.black) == (white, black) for g in state.pending):
                known = white in ids and black in ids
                raise Conflict(
                    f"{white}-{black} is not a pending game of the event"
                    + ("" if known else " (the ids are the players' ids)")
                )
        key = (event_id, draw_rate, time_control, tuple(sorted(by_hand.items())))
        # Every console watching the event asks at once after a result: one counts.
        async with self._lock(f"foresight:{event_id}"):
            cached = self._foresights.get(key)
            if cached is not None and cached[0] is event and cached[1] == state.pending:
                return cached[2]
            regulation = get_regulation(event.regulation)
            try:
                # Thousands of outcomes, each ranked: off the loop and its interpreter,
                # which serve the clocks.
                found = await self.computations.run(
                    who, foresee, event, state.pending, regulation, model
                )
            except PlayoffError as exc:
                raise Conflict(reason(exc)) from None
            if len(self._foresights) > 64:
                self._foresights.clear()
            self._foresights[key] = (event, state.pending, found)
        return found

    def _lock(self, key: str) -> asyncio.Lock:
        return self._locks.setdefault(key, asyncio.Lock())
