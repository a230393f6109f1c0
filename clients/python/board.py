"""A play-off as lines of text, for ``playoff-arbiter watch``.

Everything comes from the view the server sends (its words, its names, its
results); this module only lays it out in lines and writes the clocks as people
read them (``m:ss``). The console's view (``view: "arbiter"``) gives the matches
and every game; a display key gets the hall's (``view: "hall"``), which gives the
games on the board and the next one.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

Clocks = Mapping[str, Mapping[str, Any]]
Remaining = Callable[[Mapping[str, Any], str], int]
"""The time to show for a side of a clock, in milliseconds."""

SIDES = (("white", "White"), ("black", "Black"))


def as_sent(clock: Mapping[str, Any], side: str) -> int:
    """A side's time as the server sent it (at the clock's ``server_ms``)."""
    return max(0, int(clock.get(f"{side}_ms", 0)))


def clock_text(ms: int) -> str:
    """``m:ss`` (``h:mm:ss`` from an hour), cut to the second as a chess clock shows it."""
    seconds = max(0, ms) // 1000
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{hours}:{minutes:02}:{seconds:02}" if hours else f"{minutes}:{seconds:02}"


def lines(
    view: Mapping[str, Any] | None, clocks: Clocks, remaining: Remaining = as_sent
) -> list[str]:
    """The play-off as lines: the console's view, or the hall's."""
    if not view:
        return []
    if view.get("view") == "arbiter":
        return _arbiter_lines(view, clocks, remaining)
    return _hall_lines(view, clocks, remaining)


def _arbiter_lines(view: Mapping[str, Any], clocks: Clocks, remaining: Remaining) -> list[str]:
    words: Mapping[str, str] = view.get("status_words") or {}
    out = [_heading(view)]
    for match in view.get("matches") or []:
        # The score carries its names (the one ahead first): never points beside
        # names in another order.
        out.append(
            f"{match['round_name']}: {match['score']}" if match.get("score")
            else match["title"]
        )
        faces = {
            (panel["game"], face["side"]): face["player"]
            for panel in match.get("panels") or [] for face in panel.get("faces") or []
        }
        for game in match.get("games") or []:
            names = {
                "white": faces.get((game["number"], "white"), game.get("white") or ""),
                "black": faces.get((game["number"], "black"), game.get("black") or ""),
            }
            label = f" ({game['label']})" if game.get("label") else ""
            line = f"  Game {game['number']}{label}: {game['players']}"
            if game.get("result"):
                line += f" {game['result']}"
            line += f" · {game['state']}"
            clock = clocks.get(f"{match['id']}:{game['number']}")
            if clock is not None and game.get("state") == "in play":
                line += " · " + _clock_line(clock, names, words, remaining)
            out.append(line)
        decision = match.get("decision")
        if decision:
            out.append(f"  {decision['headline']}")
        if match.get("note"):
            out.append(f"  {match['note']}")
    out.extend(draw["text"] for draw in view.get("draws") or [])
    champion = view.get("champion")
    if champion:
        out.append(champion["text"])
    for row in view.get("placings") or []:
        money = f", {row['money']}" if row.get("money") else ""
        out.append(f"  {row['place']}. {row['player']} {row['score']}{money}")
    return out


def _hall_lines(view: Mapping[str, Any], clocks: Clocks, remaining: Remaining) -> list[str]:
    words: Mapping[str, str] = view.get("clock_status_text") or {}
    out = [_heading(view)]
    for game in view.get("live") or []:
        names = {side: (game.get(side) or {}).get("name", "") for side, _ in SIDES}
        line = f"{game['title']}: {names['white']} – {names['black']}"
        clock = clocks.get(game["clock"])
        if clock is not None:
            line += " · " + _clock_line(clock, names, words, remaining)
        out.append(line)
    upcoming = view.get("next")
    if upcoming:
        out.append(f"Next: {upcoming['label']}, {upcoming['vs']}, {upcoming['when']}")
    champion = view.get("champion")
    if champion:
        out.append(f"Champion: {champion.get('name', '')}")
    return out


def _heading(view: Mapping[str, Any]) -> str:
    subtitle = view.get("subtitle")
    return f"{view['title']} ({subtitle})" if subtitle else str(view["title"])


def _clock_line(
    clock: Mapping[str, Any], names: Mapping[str, str], words: Mapping[str, str],
    remaining: Remaining,
) -> str:
    """``White (Sindarov) 24:10 running, Black (Abdusattorov) 25:00``: the running side
    marked, and the clock's status when it is not running (paused, flag fell...)."""
    faces = []
    for side, said in SIDES:
        face = f"{said} ({names[side]}) {clock_text(remaining(clock, side))}" if names.get(side) \
            else f"{said} {clock_text(remaining(clock, side))}"
        if clock.get("running") == side:
            face += f" {words.get('running') or 'running'}"
        faces.append(face)
    status = clock.get("status")
    said_status = words.get(str(status), "") if status != "running" else ""
    return ", ".join(faces) + (f" ({said_status})" if said_status else "")
