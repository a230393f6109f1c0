"""Helpers shared by tests."""

from __future__ import annotations

import json
from typing import Any

from tests.support import ROOT

UZCHESS = ROOT / "tests" / "data" / "uzchess-cup-masters-2025.json"


def finished() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(UZCHESS.read_text(encoding="utf-8"))
    return data


def before_round_9() -> dict[str, Any]:
    data = finished()
    for game in data["games"]:
        if game["round"] == 9:
            game["result"] = "*"
            game.pop("ended_at", None)
    return data


def round_9() -> list[dict[str, Any]]:
    return [g for g in finished()["games"] if g["round"] == 9]



DE_TRF = """\
012 DE second rank
042 2026/03/15
001    1 m    Player, No 1                      2037 ENG    20000001 1990/01/01  3.0    1     3 w 1     4 b 1     2 w =     5 b =     7 w *
001    2 m    Player, No 2                      2074 ENG    20000002 1990/01/01  3.0    2     4 w 1     3 b =     1 b =     6 w 1     5 b *
001    3 m    Player, No 3                      2111 ENG    20000003 1990/01/01  3.0    3     1 b 0     2 w =     6 b 1     7 w 1     8 b *
001    4 m    Player, No 4                      2148 ENG    20000004 1990/01/01  3.0    4     2 b 0     1 w 0     7 w 1     8 b 1     6 w *
001    5 m    Player, No 5                      2185 ENG    20000005 1990/01/01  3.5    5     6 w 1     7 b 0     8 w 1     1 w =     2 w *
001    6 m    Player, No 6                      2222 ENG    20000006 1990/01/01  1.0    6     5 b 0     8 w 1     3 w 0     2 b 0     4 b *
001    7 m    Player, No 7                      2259 ENG    20000007 1990/01/01  2.5    7     8 w =     5 w 1     4 b 0     3 b 0     1 b *
001    8 m    Player, No 8                      2296 ENG    20000008 1990/01/01  1.0    8     7 b =     6 b 0     5 b 0     4 w 0     3 w *
"""  # noqa: E501

