"""Snapshots of folded states: a restart folds only the events after them.

A snapshot is a cache of the fold, never the record: the log stays the truth. It is
written by this very code and read back only by it: :data:`VERSION` is a hash of
the source of every module whose classes make up a state or fold events (and of
the Python and pydantic versions), so any change to them makes the older snapshots
unused, and the next start folds the log whole, as before snapshots existed. A
snapshot that cannot be read back is ignored the same way.

Pickle is used because the states are plain values of this code's own classes and
the snapshot is read only by the process that could have written it; the log
itself is JSON, readable by anything.
"""

from __future__ import annotations

import hashlib
import importlib
import pickle
import platform
from pathlib import Path
from typing import TypeVar

import pydantic

from orchestrator.core.state import EventState, PlayoffState

__all__ = ["VERSION", "dump", "load"]

_FOLDING = (
    "orchestrator.core.auth",
    "orchestrator.core.events",
    "orchestrator.core.state",
    "playoff_formats.builders.stanzas",
    "playoff_formats.clock",
    "playoff_formats.extra_boards",
    "playoff_formats.foresight",
    "playoff_formats.lots",
    "playoff_formats.model",
    "playoff_formats.playoff",
    "playoff_formats.schedule.model",
    "playoff_formats.schedule.overrides",
    "playoff_formats.scoring",
    "playoff_formats.timecontrol",
)
"""The modules (and packages, with all their modules) whose code decides what a
folded state is."""


def folding_files() -> list[Path]:
    """The source files of the modules that decide a folded state.

    A package counts with every module in it: a change to any of them (a transition
    of the bracket, an event's fold) makes older snapshots stale.
    """
    files: list[Path] = []
    for name in _FOLDING:
        module = importlib.import_module(name)
        source = Path(str(module.__file__))
        package = hasattr(module, "__path__")
        files.extend(sorted(source.parent.rglob("*.py")) if package else [source])
    return files


def _version() -> str:
    digest = hashlib.sha256()
    digest.update(f"{platform.python_version()} {pydantic.VERSION}".encode())
    for path in folding_files():
        digest.update(f"{path.parent.name}/{path.name}".encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:32]


S = TypeVar("S", PlayoffState, EventState)

VERSION = _version()
"""Which code made a snapshot: only the same code reads it back."""


def dump(state: PlayoffState | EventState) -> bytes:
    return pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL)


def load(data: bytes, kind: type[S]) -> S:
    """The state of a snapshot; ``ValueError`` if it is not one of ``kind``."""
    state = pickle.loads(data)
    if not isinstance(state, kind):
        raise ValueError(f"a snapshot of {type(state).__name__}, not of {kind.__name__}")
    return state
