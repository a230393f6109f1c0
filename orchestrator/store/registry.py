"""The log's back-ends, chosen by the scheme of the log's URL.

A back-end is one module with an ``open_log(url, *, wait_s)`` function that answers
an :class:`~orchestrator.store.base.AsyncEventLog`, and one line in
:data:`BACKENDS`. Its module is imported only when chosen: PostgreSQL's driver
takes a tenth of a second to load, which a service on SQLite need not pay.
"""

from __future__ import annotations

import importlib
from typing import Protocol

from orchestrator.store.base import AsyncEventLog

BACKENDS: dict[str, str] = {
    "sqlite": "orchestrator.store.sqlite",
    "postgresql": "orchestrator.store.postgres",
    "postgres": "orchestrator.store.postgres",
}
"""Each URL scheme and the module of its back-end."""


class Opener(Protocol):
    def __call__(self, url: str, *, wait_s: float) -> AsyncEventLog: ...


def scheme_of(url: str) -> str:
    """The scheme of ``url`` (``postgresql`` of ``postgresql://host/db``), lower case."""
    scheme, colon, _ = url.partition(":")
    return scheme.lower() if colon else ""


def open_log(url: str, *, wait_s: float) -> AsyncEventLog:
    """The log ``url`` names, by the back-end of its scheme. ``wait_s``: how long a
    command waits for a connection to a log out of reach before it is refused."""
    scheme = scheme_of(url)
    if scheme not in BACKENDS:
        known = ", ".join(f"{name}:" for name in sorted(BACKENDS))
        # The URL itself is not shown: it may hold a password.
        raise ValueError(f"no event log is known by the scheme {scheme + ':'!r} ({known})")
    opener: Opener = importlib.import_module(BACKENDS[scheme]).open_log
    return opener(url, wait_s=wait_s)


__all__ = ["BACKENDS", "open_log", "scheme_of"]
