"""Exceptions raised by the play-off websocket client (protocol v1, docs/protocol.md)."""

from __future__ import annotations


class ClientError(Exception):
    """Base class of every error this client raises on purpose."""


class ConnectError(ClientError):
    """The first connection could not be opened (network, HTTP handshake, timeout,
    or the server closed it before `welcome`). The cause is chained as `__cause__`."""


class AuthError(ClientError):
    """The server refused the token: an `error` frame, then close code 4401.

    Never retried: reconnecting with the same token cannot succeed."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class NotFound(ClientError):
    """Not this token's play-off (another event's, or none): close code 4404, the
    `reason` saying what the token opens. Never retried."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class Disconnected(ClientError):
    """The connection was lost and the client does not reconnect (`reconnect=False`)."""

    def __init__(self, code: int, reason: str) -> None:
        super().__init__(f"connection closed ({code}){': ' + reason if reason else ''}")
        self.code = code
        self.reason = reason


class ClientClosed(ClientError):
    """The client was closed with `close()` (or left its `async with` block)."""


class CommandError(ClientError):
    """The server answered a command with an `error` frame carrying its id.

    `code` is one of the protocol's error codes (`bad-frame`, `bad-command`,
    `read-only`, `forbidden`, `conflict`, `rate-limited`, `too-large`,
    `unavailable`); the protocol guarantees that a refused command changed nothing
    (after `unavailable`, send it again with the same id)."""

    def __init__(self, code: str, reason: str, id: str) -> None:
        super().__init__(f"{code}: {reason} (command {id})")
        self.code = code
        self.reason = reason
        self.id = id


class ProtocolViolation(ClientError):
    """The server broke the protocol (a gap in `seq`, a frame that is not a JSON
    object...). Internally this makes the client drop the connection and resume;
    it only reaches the caller when the client does not reconnect."""
