"""Python client library of the play-off websocket protocol v1 (docs/protocol.md).

Arbiters' scripts, the tests and the benchmarks use it::

    async with PlayoffClient("http://localhost:8000", "po-1", token) as client:
        ack = await client.command("start-clock", match=1, game=1)
        async for message in client.messages():
            ...
"""

from .client import Ack, Message, PlayoffClient, parse_frame, websocket_url
from .clock import display_remaining_ms, wall_ms
from .errors import (
    AuthError,
    ClientClosed,
    ClientError,
    CommandError,
    ConnectError,
    Disconnected,
    NotFound,
    ProtocolViolation,
)

__all__ = [
    "Ack",
    "AuthError",
    "ClientClosed",
    "ClientError",
    "CommandError",
    "ConnectError",
    "Disconnected",
    "Message",
    "NotFound",
    "PlayoffClient",
    "ProtocolViolation",
    "display_remaining_ms",
    "parse_frame",
    "wall_ms",
    "websocket_url",
]
