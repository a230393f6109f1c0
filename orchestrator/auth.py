"""Tokens: who may do what to which event.

Creating an event returns a chief arbiter's token. The chief arbiter issues
arbiter tokens and read-only display keys scoped to that event. Only a hash of a
token is stored (SHA-256: tokens are long random strings, so a slow hash adds
nothing), and tokens are compared in constant time.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from enum import StrEnum


class Role(StrEnum):
    CHIEF = "chief"
    ARBITER = "arbiter"
    DISPLAY = "display"

    def may_write(self) -> bool:
        return self is not Role.DISPLAY


@dataclass(frozen=True)
class TokenRecord:
    """A token as stored: its id, role, label and hash; never the token itself."""

    token_id: str
    role: Role
    label: str
    digest: str


def new_token() -> str:
    return secrets.token_urlsafe(24)


def digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def find_token(records: list[TokenRecord], token: str) -> TokenRecord | None:
    """The record whose hash matches ``token``, comparing every record in constant time."""
    wanted = digest(token)
    found = None
    for record in records:
        if hmac.compare_digest(record.digest, wanted):
            found = record
    return found
