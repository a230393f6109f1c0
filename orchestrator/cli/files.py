"""Reading the files an arbiter names on the command line."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from playoff_formats.errors import InputError, RegulationError
from playoff_formats.io.trf import TrfEvent, has_team_records, read_trf
from playoff_formats.regulations import Regulation, get_regulation, kind_refusal

if TYPE_CHECKING:
    from playoff_formats.formats import PlayoffFormat
    from playoff_formats.model import Event, IndividualEvent

DEMO_EVENT = "uzchess-cup-masters-2025.json"

# As playoff_formats.io.json_event.load_event chooses between TRF and JSON.
_TRF_EXTENSIONS = (".trf", ".trfx", ".txt")
_JSON_EXTENSIONS = (".json",)


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


def read_event(path: Path) -> Event | TrfEvent:
    """The event in ``path``, read as :func:`~playoff_formats.io.json_event.load_event` reads it.

    A TRF comes back as plain data (:class:`~playoff_formats.io.trf.TrfEvent`), which
    every regulation for individual events ranks as it ranks the model; the models
    and their validation are loaded only for a JSON document.
    """
    text = read_text(path)
    if is_trf(str(path), text):
        return read_trf(text, str(path))
    from playoff_formats.io.json_event import load_event

    return load_event(text, str(path))


def read_ranked_event(
    path: Path, name_or_file: str | None
) -> tuple[Event | TrfEvent, Regulation]:
    """The event in ``path`` and the regulation that ranks it (:func:`resolve_regulation`).

    A TRF with team records is a team event for a regulation that ranks teams
    (:mod:`playoff_formats.io.trf_teams`), and the individual event its players'
    lines hold for any other.
    """
    text = read_text(path)
    if is_trf(str(path), text):
        if name_or_file is not None and has_team_records(text):
            regulation = _regulation(name_or_file, None)
            if regulation.ranks.structure == "team":
                from playoff_formats.io.trf_teams import read_team_event

                event: Event | TrfEvent = read_team_event(text, regulation.name, str(path))
                _check_kind(regulation, event)
                return event, regulation
        event = read_trf(text, str(path))
    else:
        from playoff_formats.io.json_event import load_event

        event = load_event(text, str(path))
    return event, resolve_regulation(name_or_file, event)


def is_trf(filename: str, text: str) -> bool:
    """Whether ``text`` is read as a TRF: by its file's extension, else by its start."""
    lowered = filename.lower()
    if lowered.endswith(_TRF_EXTENSIONS):
        return True
    if lowered.endswith(_JSON_EXTENSIONS):
        return False
    return not text.lstrip("\ufeff \t\r\n").startswith("{")


def demo_event_text() -> str:
    from importlib import resources

    return resources.files("orchestrator.data").joinpath(DEMO_EVENT).read_text(encoding="utf-8")


def demo_event() -> IndividualEvent:
    from playoff_formats.io.json_event import load_event
    from playoff_formats.model import IndividualEvent

    event = load_event(demo_event_text(), DEMO_EVENT)
    assert isinstance(event, IndividualEvent)
    return event


def resolve_regulation(name_or_file: str | None, event: Event | TrfEvent) -> Regulation:
    """A named regulation, a regulation file (``.toml``/``.json``), or the event's own.

    One that ranks another kind of event than ``event`` is a
    :class:`RegulationError` saying both kinds, before any rule reads the event.
    """
    regulation = _regulation(name_or_file, event)
    _check_kind(regulation, event)
    return regulation


def _check_kind(regulation: Regulation, event: Event | TrfEvent) -> None:
    problem = kind_refusal(regulation.name, regulation.ranks, event)
    if problem is not None:
        raise RegulationError(problem)


def _regulation(name_or_file: str | None, event: Event | TrfEvent | None) -> Regulation:
    if name_or_file is None:
        assert event is not None  # the event's own regulation
        return get_regulation(event.regulation)
    path = Path(name_or_file)
    if path.suffix.lower() in (".toml", ".json") or path.exists():
        from playoff_formats.regulations.custom import regulation_from_text

        return regulation_from_text(read_text(path), str(path))
    return get_regulation(name_or_file)


def read_playoff_format(name_or_file: str) -> PlayoffFormat:
    """A built-in play-off format by name, or an organiser's own from a ``.toml`` or
    ``.json`` file; an :class:`InputError` saying where and why if refused."""
    from playoff_formats.formats import BUILT_IN
    from playoff_formats.formats.custom import format_from_text

    path = Path(name_or_file)
    if path.suffix.lower() in (".toml", ".json") or path.exists():
        return format_from_text(read_text(path), str(path))
    found = BUILT_IN.get(name_or_file)
    if found is None:
        raise InputError(
            f"no built-in play-off format {name_or_file!r} and no such file; built in: "
            + ", ".join(BUILT_IN)
        )
    return found
