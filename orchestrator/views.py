"""What the API shows of a play-off: its state as JSON."""

from __future__ import annotations

from typing import Any

from orchestrator.state import PlayoffState
from playoff_formats.builders.gct import bracket_json
from playoff_formats.clock import Clock
from playoff_formats.model import Colour
from playoff_formats.playoff import GameKind, champion


def playoff_view(state: PlayoffState, schedule: dict[str, Any] | None = None) -> dict[str, Any]:
    if state.extra is not None:
        return {
            "id": state.id,
            "kind": "extra-boards",
            "event_id": state.event_id,
            "seq": state.seq,
            "regulation": state.regulation,
            "name": " v ".join(state.names.get(t, t) for t in (state.extra.home, state.extra.away)),
            "names": state.names,
            "extra_boards": state.extra.scoreboard(),
            "schedule": schedule,
            "changes": list(state.changes),
            "updated_at": _iso(state.updated_at),
        }
    playoff = state.chess
    bracket = bracket_json(playoff)
    by_id = {m["id"]: m for m in bracket["matches"]}
    matches = []
    for match in playoff.matches:
        view = dict(by_id[match.id])
        view["status"] = match.status.value
        view["players"] = list(match.players)
        view["decision"] = (
            match.decision.model_dump(mode="json") if match.decision is not None else None
        )
        view["games"] = [
            {
                "number": g.number,
                "kind": g.kind.value,
                "white": g.white,
                "black": g.black,
                "result": g.result.value if g.result is not None else None,
                "started_at": _iso(state.started_at.get((g.match, g.number))),
                "ended_at": _iso(state.ended_at.get((g.match, g.number))),
                "armageddon": (
                    armageddon_view(state, match.id) if g.kind is GameKind.ARMAGEDDON else None
                ),
            }
            for g in playoff.games_of(match.id)
        ]
        matches.append(view)
    return {
        "id": state.id,
        "kind": "knock-out",
        "event_id": state.event_id,
        "seq": state.seq,
        "regulation": state.regulation,
        "name": playoff.name,
        "names": state.names,
        "participants": bracket["participants"],
        "matches": matches,
        "champion": champion(playoff),
        "deadline": _iso(state.deadline),
        "schedule": schedule,
        "draws": [{"seq": d.seq, "kind": d.kind, "match": d.match, **d.data} for d in state.draws],
        "changes": list(state.changes),
        "updated_at": _iso(state.updated_at),
    }


def _iso(value: Any) -> str | None:
    return None if value is None else str(value.isoformat())


def clock_view(key: tuple[int, int], clock: Clock, at_ms: int) -> dict[str, Any]:
    """A clock as displays get it: remaining ms per side at ``server_ms``, and who runs."""
    snap = clock.snapshot(at_ms)
    return {
        "match": key[0],
        "game": key[1],
        "white_ms": snap["white_ms"],
        "black_ms": snap["black_ms"],
        "running": snap["running"],
        "status": snap["status"],
        "server_ms": at_ms,
    }


def armageddon_view(state: PlayoffState, match_id: int) -> dict[str, Any] | None:
    """GCT 2015 reg. 10: who has White, the times, the increment, and the draw odds."""
    match = state.chess.match(match_id)
    game = state.chess.game(match_id, 3)
    decider = match.decider
    if game is None or decider is None:
        return None
    return {
        "white": game.white,
        "black": game.black,
        "white_ms": decider.initial_ms(Colour.WHITE),
        "black_ms": decider.initial_ms(Colour.BLACK),
        "time_control": str(decider),
        "increment": "+3 s from move 61",
        "draw_means": "black wins",
    }
