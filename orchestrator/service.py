"""The play-off service: commands in, durable events out, state kept as their fold.

Every command is checked by folding its events onto the current state with the
same pure functions that rebuild the state at start-up; only then is it
appended to the log, and only once the log has it durably is it acknowledged.
Listeners (the scheduler, the websocket hub) hear of every appended event.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from orchestrator.auth import Role, TokenRecord, digest, find_token, new_token
from orchestrator.errors import Conflict, Forbidden, NotFound, Unauthorized
from orchestrator.planner import (
    Actuals,
    Constraints,
    GameActual,
    PinnedStart,
    Plan,
    StanzaToPlace,
    plan_playoff,
    plan_stanzas,
)
from orchestrator.state import (
    EventState,
    PlayoffState,
    apply_event,
    apply_playoff,
    event_stream,
    fold_event,
    fold_playoff,
    playoff_stream,
)
from orchestrator.store import AsyncEventStore, NewEvent, StoredEvent
from orchestrator.timesource import TimeSource
from orchestrator.views import armageddon_view, clock_view
from playoff_formats import lots
from playoff_formats.builders.gct import gct2015_playoff
from playoff_formats.builders.stanzas import extra_boards
from playoff_formats.errors import PlayoffError
from playoff_formats.model import Event, IndividualEvent, TeamEvent
from playoff_formats.regulations import get_regulation
from playoff_formats.standings import Standings

Listener = Callable[[PlayoffState, Sequence[StoredEvent]], Awaitable[None]]


def new_id() -> str:
    return secrets.token_hex(4)


@dataclass(frozen=True)
class PlayoffOptions:
    """What the chief arbiter chooses when creating a play-off."""

    prizes: tuple[str, ...] = ()
    points: tuple[str, ...] = ()
    deadline: datetime | None = None
    not_before: datetime | None = None
    generic: bool = False


class Service:
    """Events and play-offs, their tokens, and the commands that change them."""

    def __init__(
        self,
        store: AsyncEventStore,
        time: TimeSource,
        ids: Callable[[], str] = new_id,
        seeds: Callable[[], bytes] = lambda: secrets.token_bytes(32),
    ) -> None:
        self.store = store
        self.time = time
        self._ids = ids
        self._seeds = seeds
        self._events: dict[str, EventState] = {}
        self._playoffs: dict[str, PlayoffState] = {}
        self._locks: dict[str, asyncio.Lock] = {}
        self._listeners: list[Listener] = []

    # ------------------------------------------------------------------ start-up

    async def load(self) -> None:
        """Rebuild every state from the log (at start-up)."""
        for stream in await self.store.streams("event-"):
            state = fold_event(await self.store.read(stream))
            self._events[state.id] = state
        for stream in await self.store.streams("playoff-"):
            playoff = fold_playoff(await self.store.read(stream))
            self._playoffs[playoff.id] = playoff

    def listen(self, listener: Listener) -> None:
        self._listeners.append(listener)

    # ------------------------------------------------------------------ reading

    def event(self, event_id: str) -> EventState:
        try:
            return self._events[event_id]
        except KeyError:
            raise NotFound(f"no event {event_id!r}") from None

    def playoff(self, playoff_id: str) -> PlayoffState:
        try:
            return self._playoffs[playoff_id]
        except KeyError:
            raise NotFound(f"no play-off {playoff_id!r}") from None

    def playoffs(self) -> list[PlayoffState]:
        return list(self._playoffs.values())

    def plan(self, state: PlayoffState) -> Plan:
        """The schedule as it stands: planned from the state and the time now."""
        constraints = Constraints(
            main_event_ended=state.main_event_ended,
            not_before=state.not_before,
            deadline=state.deadline,
        )
        actuals = Actuals(
            games=tuple(
                GameActual(
                    match=key[0], game=key[1], started_at=start,
                    ended_at=state.ended_at.get(key),
                )
                for key, start in sorted(state.started_at.items())
            ),
            pins=tuple(
                PinnedStart(match=key[0], game=key[1], start=at)
                for key, at in sorted(state.moved_starts.items())
                if key not in state.started_at and _still_to_play(state, key)
            ),
        )
        if state.extra is not None:
            extra = state.extra
            teams = (extra.home, extra.away)
            per_set = len(extra.plan.stanzas)
            sizes = list(extra.stanzas)
            if extra.winner is None:
                sizes += extra.plan.stanzas[(extra.current - 1) % per_set + 1 :]
            stanzas = tuple(
                StanzaToPlace(match=1, stanza=n, boards=size, teams=teams)
                for n, size in enumerate(sizes, start=1)
            )
            return plan_stanzas(
                stanzas,
                constraints.model_copy(
                    update={"break_after_main_event": timedelta(0), "rule": ""}
                ),
                Actuals(games=actuals.games),
                now=self.time.now(),
            )
        return plan_playoff(state.chess, constraints, actuals, now=self.time.now())

    def schedule_of(self, state: PlayoffState) -> dict[str, Any]:
        try:
            return self.plan(state).model_dump(mode="json")
        except (PlayoffError, ValueError) as exc:
            return {"error": exc.args[0] if exc.args else str(exc)}

    def planned_start(self, state: PlayoffState, match: int, game: int) -> datetime | None:
        for planned in self.plan(state).games:
            if (planned.match, planned.game) == (match, game):
                return planned.start
        return None

    def standings(self, event_id: str) -> Standings:
        event = self.event(event_id).event
        return get_regulation(event.regulation).standings(event)

    # ------------------------------------------------------------------ access

    def authorize(self, event_id: str, token: str | None, *, write: bool) -> TokenRecord:
        """The token's record; 401 if unknown, 403 if for another event or read-only."""
        if not token:
            raise Unauthorized("this needs a token: send 'Authorization: Bearer <token>'")
        state = self.event(event_id)
        record = find_token(list(state.tokens), token)
        if record is None:
            for other in self._events.values():
                if other.id != event_id and find_token(list(other.tokens), token):
                    raise Forbidden(f"this token is for another event, not {event_id!r}")
            raise Unauthorized("this token is not valid")
        if write and not record.role.may_write():
            raise Forbidden("a display key is read-only")
        return record

    def require_chief(self, record: TokenRecord) -> None:
        if record.role is not Role.CHIEF:
            raise Forbidden("only the chief arbiter may do this")

    # ------------------------------------------------------------------ events

    async def create_event(self, event: Event) -> tuple[EventState, str]:
        """Store an uploaded event; its id and the chief arbiter's token."""
        event_id = self._ids()
        token = new_token()
        data = {
            "id": event_id,
            "event_json": event.model_dump_json(exclude_none=True),
            "chief": {
                "token_id": "chief",
                "role": Role.CHIEF.value,
                "label": "chief arbiter",
                "digest": digest(token),
            },
        }
        stored = await self.store.append(
            event_stream(event_id), "event-created", data, actor="chief",
            recorded_at=self.time.now(), expected_seq=0,
        )
        state = apply_event(None, stored)
        self._events[event_id] = state
        return state, token

    async def issue_token(self, event_id: str, role: Role, label: str, actor: str) -> str:
        if role is Role.CHIEF:
            raise Conflict("there is one chief arbiter's token per event")
        token = new_token()
        data = {
            "token_id": self._ids(), "role": role.value, "label": label, "digest": digest(token),
        }
        await self._append_event(event_id, [NewEvent("token-issued", data)], actor)
        return token

    async def _append_event(
        self, event_id: str, events: list[NewEvent], actor: str
    ) -> list[StoredEvent]:
        async with self._lock(event_stream(event_id)):
            state = self.event(event_id)
            stored = await self.store.append_many(
                event_stream(event_id), events, actor=actor,
                recorded_at=self.time.now(), expected_seq=state.seq,
            )
            for logged in stored:
                state = apply_event(state, logged)
            self._events[event_id] = state
            return stored

    # ------------------------------------------------------------------ play-offs

    async def create_playoff(
        self, event_id: str, options: PlayoffOptions, actor: str
    ) -> PlayoffState:
        """Build the play-off the event's regulation requires, seeded by its tiebreaks."""
        state = self.event(event_id)
        event = state.event
        standings = self.standings(event_id)
        if not standings.playoff:
            raise Conflict("nobody is tied for first place: there is no play-off to create")
        if standings.regulation != "gct2015" or not isinstance(event, IndividualEvent):
            raise Conflict(
                f"{standings.regulation} prescribes no play-off format this service can build"
            )
        if state.playoffs:
            raise Conflict(f"event {event_id!r} already has its play-off {state.playoffs[0]!r}")
        playoff_id = self._ids()
        seeds, seeding_draw = self._seeds_by_lots(playoff_id, standings)
        try:
            playoff = gct2015_playoff(
                seeds, generic=options.generic, playoff_id=playoff_id, name=event.name
            )
        except PlayoffError as exc:
            raise Conflict(exc.args[0]) from None
        # A player whose last game has no end time is taken to have finished when
        # the play-off is created: the arbiter creates it after the last game.
        ended: dict[str, datetime] = dict.fromkeys(seeds, self.time.now())
        known: set[str] = set()
        for game in event.games:
            if game.ended_at is None:
                continue
            for player in (game.white, game.black):
                if player in seeds and (player not in known or game.ended_at > ended[player]):
                    ended[player] = game.ended_at
                    known.add(player)
        data: dict[str, Any] = {
            "id": playoff_id,
            "event_id": event_id,
            "regulation": standings.regulation,
            "playoff": playoff.model_dump(mode="json"),
            "names": {p: event.player(p).name for p in seeds},
            "main_event_ended": {p: t.isoformat() for p, t in ended.items()},
            "prizes": list(options.prizes),
            "points": list(options.points),
            "deadline": options.deadline.isoformat() if options.deadline else None,
            "not_before": options.not_before.isoformat() if options.not_before else None,
            "seeding_draw": seeding_draw,
        }
        stored = await self.store.append(
            playoff_stream(playoff_id), "playoff-created", data, actor=actor,
            recorded_at=self.time.now(), expected_seq=0,
        )
        created = apply_playoff(None, stored)
        self._playoffs[playoff_id] = created
        await self._append_event(
            event_id, [NewEvent("playoff-linked", {"playoff_id": playoff_id})], actor
        )
        await self._notify(created, [stored])
        return created

    async def create_extra_boards(
        self,
        event_id: str,
        home: str,
        away: str,
        scheduled: int,
        competition: str | None,
        stage_boards: int | None,
        actor: str,
    ) -> PlayoffState:
        """Extra boards for a tied bridge knock-out match (EBU 143.2.1)."""
        event = self.event(event_id).event
        if not isinstance(event, TeamEvent) or not event.is_bridge:
            raise Conflict("extra boards are for a bridge team event")
        teams = {t.id: t.name for t in event.teams}
        for team in (home, away):
            if team not in teams:
                raise Conflict(f"no team {team!r} in event {event_id!r}")
        if home == away:
            raise Conflict("a team cannot play itself")
        try:
            plan = extra_boards(scheduled, event=competition, stage_boards=stage_boards)
        except PlayoffError as exc:
            raise Conflict(exc.args[0] if exc.args else str(exc)) from None
        playoff_id = self._ids()
        data: dict[str, Any] = {
            "id": playoff_id,
            "event_id": event_id,
            "rule": plan.rule,
            "home": home,
            "away": away,
            "names": {home: teams[home], away: teams[away]},
            "plan": plan.to_json(),
            "scheduled": scheduled,
            "not_before": self.time.now().isoformat(),
        }
        stored = await self.store.append(
            playoff_stream(playoff_id), "extra-boards-created", data, actor=actor,
            recorded_at=self.time.now(), expected_seq=0,
        )
        created = apply_playoff(None, stored)
        self._playoffs[playoff_id] = created
        await self._append_event(
            event_id, [NewEvent("playoff-linked", {"playoff_id": playoff_id})], actor
        )
        await self._notify(created, [stored])
        return created

    def _seeds_by_lots(
        self, playoff_id: str, standings: Standings
    ) -> tuple[list[str], list[dict[str, Any]]]:
        """The seeds in tiebreak order; players level after every criterion drawn by lots."""
        seeds: list[str] = []
        draws: list[dict[str, Any]] = []
        chosen = set(standings.playoff)
        for group in standings.groups:
            members = [p for p in group if p in chosen]
            if len(members) > 1:
                seed = self._seeds()
                purpose = f"play-off {playoff_id}: seeding of players level after every tiebreak"
                announced = lots.announce(
                    lots.DrawKind.ORDER, purpose, members, lots.commit(seed)
                )
                revealed = lots.reveal(announced, seed)
                assert isinstance(revealed.outcome, lots.DrawOrder)
                members = list(revealed.outcome.order)
                draws.append(revealed.model_dump(mode="json"))
            seeds.extend(members)
        return seeds, draws

    async def command(
        self,
        playoff_id: str,
        events: Sequence[NewEvent],
        actor: str,
        command_id: str | None = None,
    ) -> list[StoredEvent]:
        """Check ``events`` against the play-off's state, log them, acknowledge.

        A command id already logged returns the events it logged then, unchanged.
        """
        stream = playoff_stream(playoff_id)
        async with self._lock(stream):
            state = self.playoff(playoff_id)
            now = self.time.now()
            if command_id is not None:
                earlier = await self.store.find_command(stream, command_id)
                if earlier is not None:
                    return earlier
            trial = state
            now_ms = self.time.server_ms()
            logged_events: list[NewEvent] = []
            for seq, event in enumerate(events, start=state.seq + 1):
                data = {**event.data, "at_ms": event.data.get("at_ms", now_ms)}
                probe = StoredEvent(stream, seq, event.type, data, actor, now)
                try:
                    trial = apply_playoff(trial, probe)
                except PlayoffError as exc:
                    raise Conflict(exc.args[0] if exc.args else str(exc)) from None
                logged_events.append(NewEvent(event.type, _enrich(trial, event.type, data)))
            if any(e.type in SCHEDULE_OVERRIDES for e in events):
                try:  # an override the schedule cannot follow is refused before it is logged
                    self.plan(trial)
                except (PlayoffError, ValueError) as exc:
                    raise Conflict(
                        f"the schedule cannot follow this: {exc.args[0] if exc.args else exc}"
                    ) from None
            follow = _stanza_follow_up(trial)
            if follow is not None:
                seq = state.seq + len(logged_events) + 1
                trial = apply_playoff(
                    trial, StoredEvent(stream, seq, follow.type, dict(follow.data), actor, now)
                )
                logged_events.append(follow)
            stored = await self.store.append_many(
                stream, logged_events, actor=actor, recorded_at=now,
                expected_seq=state.seq, command_id=command_id,
            )
            for logged in stored:
                state = apply_playoff(state, logged)
            self._playoffs[playoff_id] = state
        await self._notify(state, stored)
        return stored

    async def _notify(self, state: PlayoffState, stored: Sequence[StoredEvent]) -> None:
        for listener in self._listeners:
            await listener(state, stored)

    def _lock(self, stream: str) -> asyncio.Lock:
        return self._locks.setdefault(stream, asyncio.Lock())

    # ------------------------------------------------------------------ lots

    def draw_game_one_colours(self, state: PlayoffState, match_id: int) -> NewEvent:
        """Lots for White in game 1 (GCT 2015 regs. 6-9), drawn by commit and reveal."""
        match = state.chess.match(match_id)
        a, b = match.players
        if a is None or b is None:
            raise Conflict(f"match {match_id}: both players must be known before the lots")
        seed = self._seeds()
        purpose = f"play-off {state.id}, match {match_id}: White in game 1"
        announced = lots.announce(
            lots.DrawKind.GAME_ONE_COLOURS, purpose, (a, b), lots.commit(seed)
        )
        revealed = lots.reveal(announced, seed)
        assert isinstance(revealed.outcome, lots.Colours)
        return NewEvent("lots-drawn", {
            "match": match_id, "white": revealed.outcome.white, "black": revealed.outcome.black,
            "draw": revealed.model_dump(mode="json"),
        })

    def toss_coin(
        self, state: PlayoffState, match_id: int, caller: str, call: lots.CoinFace
    ) -> NewEvent:
        """The Armageddon coin toss (GCT 2015 reg. 10 c), by commit and reveal."""
        match = state.chess.match(match_id)
        if None in match.players:
            raise Conflict(f"match {match_id}: both players must be known before the toss")
        if caller not in match.players:
            raise Conflict(f"{caller} does not play in match {match_id}")
        opponent = next(p for p in match.players if p != caller)
        assert opponent is not None
        seed = self._seeds()
        purpose = f"play-off {state.id}, match {match_id}: Armageddon coin toss"
        announced = lots.announce(
            lots.DrawKind.COIN_TOSS, purpose, (caller, opponent), lots.commit(seed)
        )
        revealed = lots.reveal(announced, seed, call=call)
        assert isinstance(revealed.outcome, lots.CoinToss)
        return NewEvent("coin-tossed", {
            "match": match_id, "winner": revealed.outcome.winner,
            "draw": revealed.model_dump(mode="json"),
        })


def _still_to_play(state: PlayoffState, key: tuple[int, int]) -> bool:
    """A pinned start still matters: its match is undecided (an Armageddon pinned in
    advance is dropped when the match is decided in two games)."""
    if state.playoff is None:
        return True
    return state.playoff.match(key[0]).decision is None


def _stanza_follow_up(state: PlayoffState) -> NewEvent | None:
    """When a stanza of extra boards is complete: decided, or the next stanza opens."""
    if state.extra is None:
        return None
    outcome = state.extra.outcome()
    if outcome is None:
        return None
    data = outcome.to_json()
    data["stanza"] = state.extra.current
    data["imps"] = list(state.extra.set_imps(state.extra.current))
    if outcome.decided:
        data["winner_team"] = state.extra.home if outcome.winner == "home" else state.extra.away
    return NewEvent("stanza-advanced", data)


SCHEDULE_OVERRIDES = frozenset({
    "start-moved", "postponed", "time-control-shortened", "deadline-set",
})
"""The arbiter's changes to the schedule: each is refused when the plan cannot follow."""

CLOCK_EVENTS = frozenset({
    "game-started", "clock-pressed", "clock-paused", "clock-resumed", "clock-adjusted",
    "flag-fell", "result-recorded",
})


def _enrich(state: PlayoffState, type_: str, data: dict[str, Any]) -> dict[str, Any]:
    """The event's data as logged and streamed: with the clock as it is after it, and
    for an Armageddon, who has White, the times and that a draw means Black wins."""
    if type_ == "armageddon-colours-chosen":
        return {**data, "armageddon": armageddon_view(state, int(data["match"]))}
    if type_ not in CLOCK_EVENTS or "match" not in data or "game" not in data:
        return data
    key = (int(data["match"]), int(data["game"]))
    clock = state.clocks.get(key)
    if clock is None:
        return data
    enriched = {**data, "clock": clock_view(key, clock, int(data["at_ms"]))}
    if type_ == "game-started" and key[1] == 3:
        enriched["armageddon"] = armageddon_view(state, key[0])
    return enriched


def physical(kind: str, outcome: Mapping[str, Any], conducted_by: str) -> dict[str, Any]:
    """The record of a draw made by hand and entered by the arbiter."""
    return {"method": "physical", "kind": kind, "conducted_by": conducted_by, **outcome}
