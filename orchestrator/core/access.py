"""Who may read or write which event: tokens looked up by their hash.

A token that is not valid (unknown or missing) is refused before anything is looked
up, always in the same words: nothing tells whether an id exists to someone without
a token. A valid token asking for an event or play-off that is not its own (another
event's, or one that does not exist) is told what it opens instead, its event and
its play-offs by the names and ids people know them by: that tells its holder
nothing they could not read with it already, and is the same answer whatever the id
asked for, so it probes nothing; and an arbiter who typed a wrong id is not sent to
retype a good token.

Failed attempts are counted per address; past a limit they are refused outright
for a while (429), so that tokens cannot be guessed at speed. A valid token is never
refused by that limit: the limit slows guessing, and must not let a stranger lock
out the arbiters and screens that share an address (behind a proxy, all of them).

The sentences of these refusals are all made here, from what the service knows.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import NoReturn

from orchestrator.core.auth import (
    ACTION_WORDS,
    Action,
    Role,
    TokenRecord,
    digest,
    not_permitted,
)
from orchestrator.core.errors import Conflict, Forbidden, TooManyRequests, Unauthorized
from orchestrator.core.state import EventState, PlayoffState
from playoff_formats.phrase import Phrase, Player, Said, phrase
from playoff_formats.speech import marked

__all__ = [
    "HALL_KEY_MADE",
    "HALL_KEY_TITLE",
    "HALL_KEY_WORDS",
    "NOT_VALID",
    "FailedAttempts",
    "KeyScope",
    "PlayoffKnownAs",
    "TokenIndex",
    "board_key_label",
    "display_key_request",
    "hall_screen_refusal",
    "not_for_a_hall_screen",
    "not_this_keys",
]

NOT_VALID = "this token is not valid"
NO_TOKEN = "this needs a token: send 'Authorization: Bearer <token>'"


@dataclass
class FailedAttempts:
    """At most ``limit`` failed attempts per address within ``window_s`` seconds."""

    limit: int = 30
    window_s: float = 60.0
    clock: Callable[[], float] = time.monotonic
    _failures: dict[str, deque[float]] = field(default_factory=dict)

    def check(self, address: str | None) -> None:
        """429 while ``address`` is past its limit."""
        if address is None:
            return
        recent = self._recent(address)
        if len(recent) >= self.limit:
            raise TooManyRequests(
                f"too many failed attempts from this address: wait {self.window_s:g} s"
            )

    def failed(self, address: str | None) -> None:
        if address is not None:
            self._recent(address).append(self.clock())

    def refuse(self, address: str | None, reason: str) -> NoReturn:
        """A failed attempt from ``address``: counted, and refused with ``reason``
        (401), or as too many (429) once the address is past its limit."""
        self.check(address)
        self.failed(address)
        raise Unauthorized(reason)

    def _recent(self, address: str) -> deque[float]:
        now = self.clock()
        recent = self._failures.setdefault(address, deque())
        while recent and now - recent[0] > self.window_s:
            recent.popleft()
        if not recent:
            self._failures.pop(address, None)
            recent = self._failures.setdefault(address, deque())
        return recent


@dataclass
class TokenIndex:
    """Every event's tokens, by the hash of the token (never the token itself)."""

    attempts: FailedAttempts = field(default_factory=FailedAttempts)
    _by_digest: dict[str, tuple[str, TokenRecord]] = field(default_factory=dict)

    def add(self, event_id: str, record: TokenRecord) -> None:
        self._by_digest[record.digest] = (event_id, record)

    def identify(
        self, token: str | None, *, address: str | None = None
    ) -> tuple[str, TokenRecord]:
        """The token's event and record: 401 if missing or unknown, 429 when the
        address has failed too often with tokens that are not valid."""
        found = self._by_digest.get(digest(token)) if token else None
        if found is None:
            # Only a failure is limited: a valid token is never refused for what
            # others sent from the same address (behind a proxy, every client's).
            self.attempts.refuse(address, NOT_VALID if token else NO_TOKEN)
        return found

    @staticmethod
    def permit(record: TokenRecord, action: Action, what: str | None = None) -> None:
        """403 if the token's role may not do ``action``
        (:data:`~orchestrator.core.auth.PERMISSIONS`; ``what`` says it in words)."""
        if not record.role.may(action):
            raise Forbidden(not_permitted(record.role, what or ACTION_WORDS[action]))


@dataclass(frozen=True)
class PlayoffKnownAs:
    """A play-off as people know it: its id (in its pages' addresses and in
    ``playoff-arbiter``), and who plays it."""

    id: str
    players: tuple[str, ...] = ()
    """Its players' or teams' names, best seed first (none: not loaded)."""
    extra_boards: bool = False


@dataclass(frozen=True)
class KeyScope:
    """What a token opens: its event (name and id) and the event's play-offs."""

    event_name: str
    event_id: str
    playoffs: tuple[PlayoffKnownAs, ...] = ()


_NOT_THIS = {
    ("event", 0): marked(
        "this key is for {name} (event {event}), not for event {asked}: it has no play-off "
        "yet"),
    ("event", 1): marked(
        "this key is for {name} (event {event}), not for event {asked}: its play-off is "
        "{playoffs}"),
    ("event", 2): marked(
        "this key is for {name} (event {event}), not for event {asked}: its play-offs are "
        "{playoffs}"),
    ("play-off", 0): marked(
        "this key is for {name} (event {event}), not for play-off {asked}: it has no "
        "play-off yet"),
    ("play-off", 1): marked(
        "this key is for {name} (event {event}), not for play-off {asked}: its play-off is "
        "{playoffs}"),
    ("play-off", 2): marked(
        "this key is for {name} (event {event}), not for play-off {asked}: its play-offs "
        "are {playoffs}"),
}


def not_this_keys(scope: KeyScope, asked: str, kind: str) -> Phrase:
    """Why a valid token does not open the ``kind`` ("event" or "play-off") ``asked``:
    what it opens instead. The same words whatever ``asked`` is, an id of another
    event or one that does not exist."""
    described = [_known_as(p) for p in scope.playoffs]
    return Said.tr(
        _NOT_THIS[kind, min(len(described), 2)], name=scope.event_name,
        event=scope.event_id, asked=repr(asked[:64]), playoffs=_listed(described),
    )


def _listed(items: list[str | Phrase]) -> str | Phrase:
    """``A``; ``A and B``; ``A, B and C``, said when shown."""
    if len(items) <= 1:
        return items[0] if items else ""
    head: list[str | Player | Phrase] = []
    for i, item in enumerate(items[:-1]):
        head.extend(([", "] if i else []) + [item])
    return Said.tr("{first} and {last}", first=phrase(*head), last=items[-1])


def _known_as(playoff: PlayoffKnownAs) -> str | Phrase:
    if not playoff.players:
        return playoff.id
    if playoff.extra_boards:
        return Said.tr("{playoff} (extra boards, {players})", playoff=playoff.id,
                       players=" v ".join(playoff.players))
    return Said.tr("{playoff} ({players})", playoff=playoff.id,
                   players=_listed(list(playoff.players)))


HALL_KEY_TITLE = marked("Hall display key")
"""The arbiter console's panel where the chief arbiter makes display keys."""
HALL_KEY_WORDS = marked(
    "A hall screen takes a display key, which only shows the play-off: make one for each "
    "screen and open its address there. A token that can send commands never goes in a "
    "hall screen's address, which everyone in the hall can read."
)
HALL_KEY_MADE = marked("Open this address on the hall screen (it holds the new display key):")


def display_key_request(event_id: str) -> dict[str, object]:
    """The request that makes a display key for the event's hall screens."""
    return {
        "method": "POST", "path": f"/api/events/{event_id}/tokens",
        "body": {"role": "display", "label": "hall screen"},
    }


def not_for_a_hall_screen(role: Role, event_id: str, playoff_id: str | None = None) -> str | None:
    """Why a key of ``role`` must not open a hall screen (None: it may), in the
    language in force (:func:`hall_screen_refusal`)."""
    refusal = hall_screen_refusal(role, event_id, playoff_id)
    return refusal.text({}) if refusal is not None else None


def hall_screen_refusal(
    role: Role, event_id: str, playoff_id: str | None = None
) -> Phrase | None:
    """Why a key of ``role`` must not open a hall screen (None: it may), said when shown.

    A hall screen's address holds its key and is seen by everyone in the hall: a
    token that can send commands (an arbiter's, the chief arbiter's) would be
    anybody's who reads it, so a screen takes a display key only, and the refusal
    says how to make one."""
    if not role.may(Action.COMMAND):
        return None
    message = marked(
        "this key can send commands (the chief arbiter's token): a hall screen shows its "
        "address to everyone, so it takes a display key, which only shows. The chief arbiter "
        "makes one in the arbiter console (\"{panel}\"), or with POST {path} and the body "
        "{body}; then open {page}#key= followed by that key"
    ) if role is Role.CHIEF else marked(
        "this key can send commands (an arbiter's token): a hall screen shows its address to "
        "everyone, so it takes a display key, which only shows. The chief arbiter makes one "
        "in the arbiter console (\"{panel}\"), or with POST {path} and the body {body}; then "
        "open {page}#key= followed by that key"
    )
    return Said.tr(
        message, panel=Said.tr(HALL_KEY_TITLE), path=f"/api/events/{event_id}/tokens",
        body='{"role": "display"}',
        page=f"/display/{playoff_id}" if playoff_id else f"/display/events/{event_id}",
    )


def board_key_label(
    event: EventState, playoff: str | None, match: int | None,
    playoff_state: Callable[[str], PlayoffState],
) -> str:
    """The label of a board key for ``match`` of ``playoff``; refused (409) unless
    that is a match played in a chess play-off of ``event``."""
    if playoff is None or match is None:
        raise Conflict(Said.tr("a board key is for one match: say its play-off and its match"))
    if playoff not in event.playoffs:
        raise Conflict(Said.tr("play-off {playoff} is not one of this event's",
                               playoff=repr(playoff[:64])))
    state = playoff_state(playoff)
    if state.playoff is None:
        raise Conflict(
            Said.tr("bridge extra boards have no board clocks: they are not chess games")
        )
    found = next((m for m in state.chess.matches if m.id == match and not m.bye), None)
    if found is None:
        played = ", ".join(str(m.id) for m in state.chess.matches if not m.bye)
        raise Conflict(Said.tr("play-off {playoff} has no match {match} to play: its "
                               "matches are {played}", playoff=playoff, match=match,
                               played=played))
    return f"board of match {match}"
