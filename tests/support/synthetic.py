"""Deterministic synthetic events, for the tests and the benchmarks."""

from __future__ import annotations

import random

from playoff_formats.model import Game, IndividualEvent, Player, Result

_RESULTS = [Result.WHITE_WINS, Result.DRAW, Result.BLACK_WINS]
_WEIGHTS = [0.38, 0.3, 0.32]


def swiss_trf(
    players: int,
    rounds: int,
    seed: int = 1,
    forfeits: float = 0.01,
    absences: float = 0.0,
    balanced_colours: bool = False,
) -> str:
    """A TRF of a Swiss-like event: each round pairs neighbours in the score order.

    Not a FIDE Dutch pairing (rematches are avoided greedily, nothing more), but
    the score groups, byes and forfeits look like a real open's. ``forfeits`` is
    the share of pairings decided by forfeit. ``absences`` is the chance that a
    player misses a round (a half-point or zero-point bye, or a blank) or, in the
    second half, withdraws for good; absences draw from a random stream of their
    own, so that the default event stays the same. The higher-placed player of a
    pairing has White, or with ``balanced_colours`` the one who had White less often
    (a long run of one colour is what no real pairing gives, and some readers refuse).
    """
    rng = random.Random(seed)
    away = random.Random(seed + 1_000_003)
    score = {i: 0.0 for i in range(1, players + 1)}
    met: dict[int, set[int]] = {i: set() for i in score}
    cells: dict[int, list[str]] = {i: [] for i in score}
    withdrawn: set[int] = set()
    whites = dict.fromkeys(score, 0)
    for number in range(1, rounds + 1):
        order = sorted(score, key=lambda i: (-score[i], i))
        if absences:
            for i in list(order):
                if i not in withdrawn and number > rounds // 2 and away.random() < absences / 4:
                    withdrawn.add(i)
                if i in withdrawn:
                    cells[i].append("        ")
                    order.remove(i)
                elif away.random() < absences:
                    code = away.choice("HZ ")
                    cells[i].append(f"0000 - {code}")
                    score[i] += 0.5 if code == "H" else 0.0
                    order.remove(i)
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
            if balanced_colours and whites[b] < whites[a]:
                a, b = b, a
            whites[a] += 1
            if rng.random() < forfeits:
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
