"""The play-off the printing tests print: the UzChess Cup Masters 2025 with its players
renamed in the scripts and letters a hall prints (Cyrillic, Greek, Uzbek Latin,
accents), in a hall at UTC+5 (Tashkent), and the play-off played to its end."""

from __future__ import annotations

import json
from datetime import timedelta

from orchestrator.core.timesource import ManualTime
from tests.support.events import ABDU, PRAGG, SINDAROV, uzchess_json
from tests.support.server import RunningServer
from tests.support.ws import Setup, ok

CYRILLIC = "Непомнящий, Ян"
GREEK = "Ζαφειρόπουλος, Γιώργος"
UZBEK = "Oʻzbekov, Shoʻxrux"
ACCENTED = "Đukić, Željko"
SEVERAL = "Rapport, Richárd"

RENAMED = {ABDU: CYRILLIC, SINDAROV: GREEK, PRAGG: UZBEK, "4168119": ACCENTED,
           "738590": SEVERAL}
"""Seed 2 (Cyrillic) and seed 3 (Greek) play match 1; seed 1 (Uzbek) waits in the
final; two others have accents in the standings."""

HALL = {"utc_offset": timedelta(hours=5)}
"""The service's settings: the hall's clock is five hours ahead of UTC."""

GAME_MS = 30 * 60_000
BETWEEN_MS = 10 * 60_000


def international_event(renamed: dict[str, str] | None = None) -> str:
    """The event, its players renamed (by :data:`RENAMED`, or ``renamed``)."""
    names = RENAMED if renamed is None else renamed
    data = json.loads(uzchess_json())
    for player in data["players"]:
        player["name"] = names.get(player["id"], player["name"])
    return json.dumps(data, ensure_ascii=False)


def printing_setup(
    server: RunningServer, renamed: dict[str, str] | None = None, **playoff: object
) -> Setup:
    """The event uploaded (its players ``renamed``, else by :data:`RENAMED`), its
    play-off built (``playoff``: its prizes and points), an arbiter's token and a
    display key; the lots of match 1 drawn (seed 2 White in game 1)."""
    with server.client() as anonymous:
        created = ok(anonymous.post(
            "/api/events", content=international_event(renamed).encode(),
            headers={"Content-Type": "application/json"},
        ))
    event_id, chief = created["id"], created["chief_token"]
    with server.client(chief) as http:
        playoff_id = ok(http.post(f"/api/events/{event_id}/playoff", json=playoff))["id"]
        arbiter = ok(http.post(f"/api/events/{event_id}/tokens", json={"role": "arbiter"}))[
            "token"]
        display = ok(http.post(f"/api/events/{event_id}/tokens", json={"role": "display"}))[
            "token"]
    setup = Setup(server, event_id, chief, arbiter, playoff_id, [display])
    setup.post("/1/lots", {"method": "physical", "white": ABDU})
    return setup


def play(setup: Setup, clock: ManualTime, match: int, results: list[str]) -> None:
    """Each game of ``match`` in turn: started, played for half an hour, its result."""
    for number, result in enumerate(results, start=1):
        setup.post(f"/{match}/games/{number}/start")
        clock.advance(GAME_MS)
        setup.post(f"/{match}/games/{number}/result", {"result": result})
        clock.advance(BETWEEN_MS)


def play_to_the_end(setup: Setup, clock: ManualTime) -> None:
    """Seed 2 beats seed 3 in two games, then seed 1 beats seed 2 in the final."""
    play(setup, clock, 1, ["1-0", "0-1"])
    setup.post("/2/lots", {"method": "physical", "white": PRAGG})
    play(setup, clock, 2, ["1-0", "0-1"])
