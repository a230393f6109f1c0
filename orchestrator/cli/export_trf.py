"""``playoff export-trf``: the play-off's rated games as a TRF, from the service's log.

The play-off and its event are read from the service's SQLite log (``--db``), read
only (:class:`~orchestrator.store.sqlite.ReadOnlyLog`: the service may be running),
and folded by the service's own code: the file is the one
``GET /api/playoffs/{id}/export.trf`` answers for the same log. One file per rating
list: ``-o`` is the file; for a play-off with games on two lists and no ``--pool``,
each list's file is ``-o``'s name with the list before the extension
(``report-rapid.trf``, ``report-blitz.trf``). Nothing is written unless every file
can be.
"""

from __future__ import annotations

from pathlib import Path

from orchestrator.store.base import StoreError

__all__ = ["ExportRefused", "export_trf"]


class ExportRefused(Exception):
    """Why nothing was written, in words."""


def export_trf(
    playoff_id: str,
    output: Path,
    db: Path,
    edition: str,
    stage: str | None,
    pool: str | None,
) -> list[str]:
    """Write the files; what was written and what was left out, a line each."""
    from orchestrator.core.ratings import final_places, playoff_rating_reports
    from orchestrator.core.state import event_stream, playoff_stream
    from orchestrator.core.streams import event_streams, playoff_streams
    from orchestrator.store.sqlite import ReadOnlyLog
    from playoff_formats.errors import InputError, PlayoffError
    from playoff_formats.regulations import get_regulation

    try:
        with ReadOnlyLog(db) as log:
            stored = log.read(playoff_stream(playoff_id))
            if not stored:
                known = [s.removeprefix("playoff-") for s in log.streams("playoff-")]
                raise ExportRefused(
                    f"{db} has no play-off {playoff_id!r}; "
                    + (f"its play-offs: {', '.join(known)}" if known else "it has no play-off")
                )
            state = playoff_streams().fold(None, stored)
            event = event_streams().fold(None, log.read(event_stream(state.event_id)))
    except StoreError as exc:
        raise ExportRefused(str(exc)) from None
    try:
        places: dict[str, int | None] = {}
        if state.playoff is not None and not event.pending:
            try:
                standings = get_regulation(event.event.regulation).standings(event.event)
                places = final_places(standings, state)
            except PlayoffError:
                places = {}  # the ranks are left blank, as the service leaves them
        reports = playoff_rating_reports(
            state, event.event, places, "2026" if edition == "2026" else "16", stage
        )
    except (InputError, PlayoffError) as exc:
        raise ExportRefused(str(exc)) from None
    if not reports:
        raise ExportRefused(
            "no game of the play-off is for a rating list yet: none has a result"
            + (" in that stage" if stage else "")
            + ", or each was one no list rates"
        )
    chosen = [r for r in reports if pool is None or r.pool.value == pool]
    if not chosen:
        lists = " and ".join(r.pool.value for r in reports)
        raise ExportRefused(f"the play-off has no {pool} games for a rating list; it has {lists}")
    files = (
        [(output, chosen[0])] if len(chosen) == 1
        else [(output.with_name(f"{output.stem}-{r.pool.value}{output.suffix}"), r)
              for r in chosen]
    )
    if not output.parent.is_dir():
        raise ExportRefused(f"{output.parent}: no such folder")
    _write_all([(path, r.text) for path, r in files])
    said = [
        f"{path}: the {r.pool.value} list, {len(r.games)} game{'s' if len(r.games) != 1 else ''}"
        for path, r in files
    ]
    said += [f"Not in any list: {game.label}: {why}." for game, why in reports[0].left_out]
    return said


def _write_all(files: list[tuple[Path, str]]) -> None:
    """Every file written, or none: each is written beside its place, then moved there."""
    parts: list[tuple[Path, Path]] = []
    try:
        for path, text in files:
            part = path.with_name(f".{path.name}.part")
            part.write_text(text, encoding="utf-8", newline="\n")
            parts.append((part, path))
        for part, path in parts:
            part.replace(path)
    except OSError as exc:
        for part, _ in parts:
            part.unlink(missing_ok=True)
        raise ExportRefused(f"{exc.filename}: cannot be written ({exc.strerror or exc})") from None
