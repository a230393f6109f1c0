"""Reader of team events in the JSON format (DESIGN.md, "Interchange formats").

Each match lists its boards in order (board 1 first), results from the home
team's side: ``"1-0"``, ``"1/2-1/2"`` or ``"0-1"`` for chess, the home team's net
score for bridge. Bad input is refused whole with a JSON path and a reason that
names the match and board, e.g. ``matches[2].boards[4]: match 3 (round 2,
Lancashire v Yorkshire), board 5: '2-0' is not a board result...``.
"""

from __future__ import annotations

from typing import Any, NoReturn

from pydantic import ValidationError

from playoff_formats.errors import InputError
from playoff_formats.io.reasons import clip, generic_reason, json_path, show
from playoff_formats.model import BoardResult, TeamEvent, TeamMatch, stored_context
from playoff_formats.scoring import imps as imps_of
from playoff_formats.tiebreaks.words import points

_BOARD_HINT = (
    "use 1-0, 1/2-1/2 or 0-1 for chess (+/-, -/+ or -/- for a board not played), or the "
    "home team's net score for bridge"
)


def parse_team_event(
    data: dict[str, Any], text: str, source: str | None = None, *, stored: bool = False
) -> TeamEvent:
    """Validate a team event already read as JSON ``data`` (``text`` is its source text).

    ``stored``: an event read back from the log, for which the bounds on what
    enters are waived (:func:`~playoff_formats.model.stored_context`).
    """
    try:
        event = TeamEvent.model_validate_json(
            text, strict=True, context=stored_context() if stored else None
        )
    except ValidationError as error:
        _refuse(error, data, source)
    check_team_event(event, source)
    return event


def check_team_event(event: TeamEvent, source: str | None = None) -> None:
    """Refuse an event whose matches contradict themselves or name unknown teams."""
    ids: dict[str, int] = {}
    for i, team in enumerate(event.teams):
        if team.id in ids:
            raise InputError(
                f"team id {team.id!r} is used twice (also teams[{ids[team.id]}])",
                source=source,
                path=f"teams[{i}].id",
            )
        ids[team.id] = i
    kinds: set[str] = set()
    for i, match in enumerate(event.matches):
        where = f"match {i + 1} (round {match.round}, {match.home} v {match.away})"
        for side in ("home", "away"):
            team = getattr(match, side)
            if team not in ids:
                raise InputError(
                    f"{where}: unknown team {team!r}; the teams are {', '.join(ids)}",
                    source=source,
                    path=f"matches[{i}].{side}",
                )
        if match.home == match.away:
            raise InputError(
                f"{where}: a team cannot play itself", source=source, path=f"matches[{i}].away"
            )
        _check_boards(match, i, where, source)
        kinds.add("bridge" if match.is_bridge else "chess")
    if len(kinds) > 1:
        raise InputError(
            "the event mixes chess matches and bridge matches", source=source, path="matches"
        )
    _check_byes(event, ids, "bridge" in kinds, source)


def _check_byes(event: TeamEvent, ids: dict[str, int], bridge: bool, source: str | None) -> None:
    """A bye names a team of the event, in a round it has no match and no other bye."""
    busy: dict[tuple[int, str], str] = {}
    for i, match in enumerate(event.matches):
        for team in (match.home, match.away):
            busy.setdefault((match.round, team), f"a match (match {i + 1})")
    for i, bye in enumerate(event.byes):
        path = f"byes[{i}]"
        if bridge:
            raise InputError(
                "a bye is for chess team events; the bridge regulations have no rule for it",
                source=source,
                path=path,
            )
        if bye.team not in ids:
            raise InputError(
                f"bye {i + 1} (round {bye.round}): unknown team {bye.team!r}; the teams are "
                f"{', '.join(ids)}",
                source=source,
                path=f"{path}.team",
            )
        taken = busy.get((bye.round, bye.team))
        if taken is not None:
            raise InputError(
                f"bye {i + 1}: team {bye.team} already has {taken} in round {bye.round}",
                source=source,
                path=f"{path}.round",
            )
        busy[(bye.round, bye.team)] = f"a bye (bye {i + 1})"


def _check_boards(match: TeamMatch, i: int, where: str, source: str | None) -> None:
    path = f"matches[{i}]"
    if not match.boards and match.score is None and match.imps is None and match.vps is None:
        raise InputError(f"{where}: give the boards", source=source, path=f"{path}.boards")
    first_is_bridge = bool(match.boards) and isinstance(match.boards[0], int)
    for n, board in enumerate(match.boards):
        if isinstance(board, int) != first_is_bridge:
            raise InputError(
                f"{where}, board {n + 1}: mixes chess results and bridge scores in one match",
                source=source,
                path=f"{path}.boards[{n}]",
            )
        if isinstance(board, int) and board % 10:
            raise InputError(
                f"{where}, board {n + 1}: {board} is not a bridge score "
                "(bridge scores are multiples of 10)",
                source=source,
                path=f"{path}.boards[{n}]",
            )
    if match.is_bridge:
        if match.score is not None:
            raise InputError(
                f"{where}: a bridge match gives imps or vps, not a game-point score",
                source=source,
                path=f"{path}.score",
            )
        _check_bridge_totals(match, path, where, source)
        return
    if match.imps is not None or match.vps is not None:
        raise InputError(
            f"{where}: a chess match has no imps or vps", source=source, path=f"{path}.imps"
        )
    if match.score is not None and match.boards:
        home = sum(b.home_points for b in match.chess_boards)
        away = sum(b.away_points for b in match.chess_boards)
        if (home, away) != tuple(match.score):
            raise InputError(
                f"{where}: the score {points(match.score[0])}–{points(match.score[1])} "
                f"contradicts the boards, which add up to {points(home)}–{points(away)}",
                source=source,
                path=f"{path}.score",
            )


def _check_bridge_totals(match: TeamMatch, path: str, where: str, source: str | None) -> None:

    if match.imps is not None and match.boards:
        per_board = [imps_of(b) for b in match.bridge_boards]
        home = sum(i for i in per_board if i > 0)
        away = -sum(i for i in per_board if i < 0)
        if match.imps[0] - match.imps[1] != home - away:
            raise InputError(
                f"{where}: the imps {match.imps[0]:g}–{match.imps[1]:g} contradict the boards, "
                f"which give {home}–{away}",
                source=source,
                path=f"{path}.imps",
            )
    if match.vps is not None and abs(sum(match.vps) - 20) > 1e-6:
        raise InputError(
            f"{where}: the vps {match.vps[0]:g}–{match.vps[1]:g} do not add up to 20",
            source=source,
            path=f"{path}.vps",
        )


def _refuse(error: ValidationError, data: dict[str, Any], source: str | None) -> NoReturn:
    errors = error.errors(include_url=False)
    first = errors[0]
    loc = [part for part in first["loc"] if not _is_union_tag(part)]
    value = first.get("input")
    if isinstance(value, int) and not isinstance(value, bool):
        # A number on a board is a bridge score: say what is wrong with it as one.
        first = next(
            (e for e in errors
             if [part for part in e["loc"] if not _is_union_tag(part)] == loc
             and "int" in str(e["loc"][-1])),
            first,
        )
    path = json_path(loc)
    reason = _reason(first, loc, data)
    raise InputError(reason, source=source, path=path or None) from None


def _is_union_tag(part: int | str) -> bool:
    return isinstance(part, str) and (
        part in ("int", "float") or "[" in part or part.startswith("function-")
    )


def _reason(error: Any, loc: list[int | str], data: dict[str, Any]) -> str:
    value = error.get("input")
    if len(loc) >= 4 and loc[0] == "matches" and loc[2] == "boards":
        i, n = int(loc[1]), int(loc[3])
        match = data["matches"][i]
        where = (
            f"match {i + 1} (round {_field(match, 'round')}, {_field(match, 'home')} v "
            f"{_field(match, 'away')}), board {n + 1}"
        )
        if isinstance(value, int) and not isinstance(value, bool):
            return f"{where}: {generic_reason(error)}"
        return f"{where}: {show(value)} is not a board result; {_BOARD_HINT}"
    if error["type"] == "extra_forbidden":
        return f"unknown field '{clip(str(loc[-1]))}'"
    if error["type"] == "enum" and loc and loc[-1] == "venue":
        return f"{show(value)} is not a venue; use home or neutral"
    return generic_reason(error)


def _field(match: object, name: str) -> str:
    value = match.get(name) if isinstance(match, dict) else None
    return clip(str(value), 30)


__all__ = ["BoardResult", "check_team_event", "parse_team_event"]
