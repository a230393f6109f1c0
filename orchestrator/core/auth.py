"""Tokens: who may do what to which event.

Creating an event returns a chief arbiter's token. The chief arbiter issues
arbiter tokens and read-only display keys scoped to that event. Only a hash of a
token is stored (SHA-256: tokens are long random strings, so a slow hash adds
nothing), and tokens are compared in constant time.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from enum import StrEnum

from playoff_formats.phrase import Phrase, Said
from playoff_formats.speech import marked


class Role(StrEnum):
    CHIEF = "chief"
    ARBITER = "arbiter"
    DISPLAY = "display"
    BOARD = "board"
    """A board clock's key: one match of one play-off (its clock, the call for the
    arbiter, and reading its board)."""
    BROADCAST = "broadcast"
    """A broadcast key: reads the broadcast feed of the event's play-offs, nothing else
    (a platform polls a URL, the key in its query)."""

    def may(self, action: Action) -> bool:
        """Whether this role may do ``action`` (:data:`PERMISSIONS`)."""
        return self in PERMISSIONS[action]

    def may_write(self) -> bool:
        return self.may(Action.COMMAND)


class Action(StrEnum):
    """What a token is used for: each route and each command needs one."""

    READ = "read"
    AUDIT = "audit"
    FORESEE = "foresee"
    COMMAND = "command"
    OVERRIDE = "override"
    CREATE = "create"
    ISSUE_TOKENS = "issue-tokens"
    PRESS = "press"
    ISSUE_BOARD_KEYS = "issue-board-keys"
    BROADCAST = "broadcast"


PERMISSIONS: dict[Action, frozenset[Role]] = {
    Action.READ: frozenset({Role.CHIEF, Role.ARBITER, Role.DISPLAY, Role.BOARD}),
    Action.AUDIT: frozenset({Role.CHIEF, Role.ARBITER}),
    Action.FORESEE: frozenset({Role.CHIEF, Role.ARBITER}),
    Action.COMMAND: frozenset({Role.CHIEF, Role.ARBITER}),
    Action.OVERRIDE: frozenset({Role.CHIEF}),
    Action.CREATE: frozenset({Role.CHIEF, Role.ARBITER}),
    Action.ISSUE_TOKENS: frozenset({Role.CHIEF}),
    Action.PRESS: frozenset({Role.CHIEF, Role.ARBITER, Role.BOARD}),
    Action.ISSUE_BOARD_KEYS: frozenset({Role.CHIEF, Role.ARBITER}),
    Action.BROADCAST: frozenset({Role.CHIEF, Role.ARBITER, Role.BROADCAST}),
}
"""Who may do what: the one table the routes, the websocket and the commands enforce
(``docs/protocol.md``, "Roles", is this table in words; a test holds them equal)."""

ACTION_WORDS: dict[Action, str] = {
    Action.READ: marked("read the event, its play-off, their views, standings, PGN and placings"),
    Action.AUDIT: marked("read the play-off's log and its timed jobs"),
    Action.FORESEE: marked("compute the play-off watch with a model of its own"),
    Action.COMMAND: marked("send commands: clocks, results, corrections, lots, tosses, colours"),
    Action.OVERRIDE: marked(
        "override the schedule and the rules' defaults: move a start, postpone, set the "
        "deadline, shorten or restore the time control, show the watch in the hall"
    ),
    Action.CREATE: marked("build the play-off or extra boards, and record the event's results"),
    Action.ISSUE_TOKENS: marked("issue arbiter tokens, display keys and broadcast keys"),
    Action.PRESS: marked(
        "press the clock of a running game, call the arbiter to a board, and say a board's "
        "battery (a board key: its own match only)"
    ),
    Action.ISSUE_BOARD_KEYS: marked("issue board keys, one per board of a match"),
    Action.BROADCAST: marked(
        "read the broadcast feed: the play-off's games as PGN, with clocks and moves"
    ),
}
"""Each action in words, for a refusal: marked for the catalogs, said when shown."""


def not_permitted(role: Role, what: str | Phrase) -> Phrase:
    """Why ``role`` may not do ``what``: a marked message such as "move a game's start"
    (:data:`ACTION_WORDS`), or a phrase; said in the reader's language when shown."""
    action = Phrase((Said(what),)) if isinstance(what, str) else what
    if role is Role.DISPLAY:
        return Said.tr("a display key is read-only: it may not {action}", action=action)
    if role is Role.BOARD:
        return Said.tr(
            "a board key only presses its board's clock and calls the arbiter: "
            "it may not {action}", action=action,
        )
    if role is Role.BROADCAST:
        return Said.tr(
            "a broadcast key only reads the broadcast feed: it may not {action}", action=action
        )
    return Said.tr("only the chief arbiter may {action}", action=action)


@dataclass(frozen=True, slots=True)
class Actor:
    """Who sent a command: the role it came with and the id of its token (none for the
    service's own: the clocks' "server", the "scheduler").

    The log keeps it as text, ``role:token_id`` (or the role alone): :meth:`logged`
    writes that text and :meth:`parse` reads it back, so the stored form never
    changes.
    """

    role: str
    token_id: str | None = None
    match: int | None = None
    """A board key's match (never logged: the token names it)."""

    @classmethod
    def of(cls, record: TokenRecord) -> Actor:
        return cls(record.role.value, record.token_id, record.match)

    @classmethod
    def parse(cls, text: str) -> Actor:
        role, colon, token_id = text.partition(":")
        return cls(role, token_id if colon else None)

    def logged(self) -> str:
        """The actor as the log writes it."""
        return self.role if self.token_id is None else f"{self.role}:{self.token_id}"


@dataclass(frozen=True)
class TokenRecord:
    """A token as stored: its id, role, label and hash; never the token itself. A
    board key names its play-off and match."""

    token_id: str
    role: Role
    label: str
    digest: str
    playoff: str | None = None
    match: int | None = None
    language: str | None = None
    """The language a display key's screens (or a board key's tablet) speak."""


def new_token() -> str:
    return secrets.token_urlsafe(24)


def digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()

