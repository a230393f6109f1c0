"""Looking ahead before the last rounds: every outcome of the pending games.

A 10-player round robin (9 rounds) with its last two rounds pending: 10 games,
3^10 = 59,049 outcomes, each ranked under ``gct2015`` with the conditions for a
play-off written out. The seven rounds played are drawn at random (a fixed seed)
among results that keep the leaders close, so that many outcomes end in a tie.
A second case samples: 16 games pending (3^16 outcomes), 200,000 drawn.
"""

from __future__ import annotations

import json
import random
import statistics
import time
from typing import Any

from playoff_formats.foresight import foresee, parse_event_with_pending
from playoff_formats.regulations import get_regulation

TARGET_S = 2.0


def round_robin_before(players: int = 10, pending_rounds: int = 2, seed: int = 7) -> str:
    """The JSON of a round robin whose last ``pending_rounds`` rounds are pending."""
    rng = random.Random(seed)
    ids = [str(i + 1) for i in range(players)]
    ring = ids[1:]
    rounds = []
    for _ in range(players - 1):
        pairs = [(ids[0], ring[0])] + [(ring[i], ring[-i]) for i in range(1, players // 2)]
        rounds.append(pairs)
        ring = ring[1:] + ring[:1]
    games = []
    for number, pairs in enumerate(rounds, start=1):
        for white, black in pairs:
            if number > len(rounds) - pending_rounds:
                result = "*"
            else:
                result = rng.choices(["1-0", "1/2-1/2", "0-1"], weights=[3, 5, 2])[0]
            games.append({"round": number, "white": white, "black": black, "result": result})
    return json.dumps({
        "name": f"Round robin of {players}",
        "regulation": "gct2015",
        "players": [{"id": p, "name": f"Player {p}", "rating": 2650 + 10 * int(p)} for p in ids],
        "games": games,
    })


def _seconds(text: str, **options: Any) -> tuple[float, Any]:
    start = time.perf_counter()
    event, pending = parse_event_with_pending(text)
    result = foresee(event, pending, get_regulation("gct2015"), **options)
    return time.perf_counter() - start, result


def run(repeat: int = 5) -> list[dict[str, Any]]:
    text = round_robin_before()
    exact = [_seconds(text) for _ in range(repeat)]
    result = exact[0][1]
    sixteen = round_robin_before(players=8, pending_rounds=4)
    sampled = [_seconds(sixteen) for _ in range(max(1, repeat // 2))]
    return [
        {
            "benchmark": f"foresight, round robin of 10, last 2 rounds pending "
                         f"({result.outcomes:,} outcomes, {result.playoff_outcomes:,.0f} "
                         "with a play-off), gct2015",
            "value": statistics.median(s for s, _ in exact),
            "unit": "s",
            "target": TARGET_S,
        },
        {
            "benchmark": f"foresight, round robin of 8, last 4 rounds pending "
                         f"({sampled[0][1].outcomes:,} outcomes, "
                         f"{sampled[0][1].sample:,} sampled)",
            "value": statistics.median(s for s, _ in sampled),
            "unit": "s",
        },
    ]


if __name__ == "__main__":
    for row in run():
        print(f"{row['benchmark']}: {row['value']:.2f} {row['unit']}")
