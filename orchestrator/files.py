"""Reading the files an arbiter names on the command line."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from playoff_formats.errors import InputError, RegulationError
from playoff_formats.io.json_event import load_event
from playoff_formats.model import Event, IndividualEvent
from playoff_formats.regulations import Regulation, get_regulation, kind_refusal
from playoff_formats.regulations.custom import regulation_from_text

DEMO_EVENT = "uzchess-cup-masters-2025.json"


def read_text(path: Path) -> str:
    """The text of ``path``; an unreadable file is an :class:`InputError`."""
    try:
        return path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise InputError("no such file", source=str(path)) from None
    except UnicodeDecodeError as exc:
        raise InputError(f"not UTF-8 text (byte {exc.start})", source=str(path)) from None
    except OSError as exc:
        raise InputError(f"cannot be read: {exc.strerror}", source=str(path)) from None


def read_event(path: Path) -> Event:
    return load_event(read_text(path), str(path))


def demo_event_text() -> str:
    return resources.files("orchestrator.data").joinpath(DEMO_EVENT).read_text(encoding="utf-8")


def demo_event() -> IndividualEvent:
    event = load_event(demo_event_text(), DEMO_EVENT)
    assert isinstance(event, IndividualEvent)
    return event


def resolve_regulation(name_or_file: str | None, event: Event) -> Regulation:
    """A named regulation, a regulation file (``.toml``/``.json``), or the event's own.

    One that ranks another kind of event than ``event`` is a
    :class:`RegulationError` saying both kinds, before any rule reads the event.
    """
    regulation = _regulation(name_or_file, event)
    problem = kind_refusal(regulation.name, regulation.ranks, event)
    if problem is not None:
        raise RegulationError(problem)
    return regulation


def _regulation(name_or_file: str | None, event: Event) -> Regulation:
    if name_or_file is None:
        return get_regulation(event.regulation)
    path = Path(name_or_file)
    if path.suffix.lower() in (".toml", ".json") or path.exists():
        return regulation_from_text(read_text(path), str(path))
    return get_regulation(name_or_file)
