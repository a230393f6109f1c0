"""Deterministic synthetic events for the benchmarks."""

from __future__ import annotations

import random

from playoff_formats.model import Game, IndividualEvent, Player, Result

_RESULTS = [Result.WHITE_WINS, Result.DRAW, Result.BLACK_WINS]
_WEIGHTS = [0.38, 0.3, 0.32]


def swiss_trf(players: int, rounds: int, seed: int = 1) -> str:
    """A TRF of a Swiss-like event: each round pairs neighbours in the score order.

    Not a FIDE Dutch pairing (rematches are avoided greedily, nothing more), but
    the score groups, byes and forfeits look like a real open's.
    """
    rng = random.Random(seed)
    score = {i: 0.0 for i in range(1, players + 1)}
    met: dict[int, set[int]] = {i: set() for i in score}
    cells: dict[int, list[str]] = {i: [] for i in score}
    for _ in range(rounds):
        order = sorted(score, key=lambda i: (-score[i], i))
        if len(order) % 2:
            bye = order.pop()
            cells[bye].append("0000 - U")
            score[bye] += 1
        while order:
            a = order.pop(0)
            b = next((x for x in order if x not in met[a]), order[0])
            order.remove(b)
            met[a].add(b)
            met[b].add(a)
            if rng.random() < 0.01:
                cells[a].append(f"{b:04d} w +")
                cells[b].append(f"{a:04d} b -")
                score[a] += 1
                continue
            result = rng.choices(_RESULTS, _WEIGHTS)[0]
            code_a = {"1-0": "1", "0-1": "0", "1/2-1/2": "="}[result.value]
            code_b = {"1": "0", "0": "1", "=": "="}[code_a]
            cells[a].append(f"{b:04d} w {code_a}")
            cells[b].append(f"{a:04d} b {code_b}")
            score[a] += result.white_points
            score[b] += result.black_points
    lines = ["012 Generated Swiss", "042 2026/01/01", "052 2026/01/11", "102 Arbiter, Chief"]
    for i in score:
        name = f"Player{i:04d}, Test"
        head = (
            f"001 {i:4d} m    {name:<33} {2000 + (i * 37) % 700:4d} ENG "
            f"{10000000 + i:>11} 2000/01/01 {score[i]:4.1f} {i:4d}"
        )
        lines.append(head + "  " + "".join(f"{cell}  " for cell in cells[i]).rstrip())
    return "\n".join(lines) + "\n"


def double_round_robin(players: int, seed: int = 2) -> IndividualEvent:
    """A double round robin (Berger tables) with random results."""
    rng = random.Random(seed)
    ids = [str(i) for i in range(1, players + 1)]
    ring = ids[:]
    games: list[Game] = []
    n = len(ring)
    for leg in range(2):
        for rnd in range(n - 1):
            for k in range(n // 2):
                a, b = ring[k], ring[n - 1 - k]
                white, black = (a, b) if (rnd + leg) % 2 == 0 else (b, a)
                result = rng.choices(_RESULTS, _WEIGHTS)[0]
                number = leg * (n - 1) + rnd + 1
                games.append(Game(round=number, white=white, black=black, result=result))
            ring = [ring[0], ring[-1], *ring[1:-1]]
    return IndividualEvent(
        name="Generated double round robin",
        players=[Player(id=i, name=f"Player {i}") for i in ids],
        games=games,
    )
