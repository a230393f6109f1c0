"""The machine's own time zone never matters: a service whose process has ``TZ`` set
to a POSIX string (``UZT-5``, which tzlocal refuses) builds and runs a play-off as
any other (the real command, in a process of its own)."""

from __future__ import annotations

from pathlib import Path

import httpx

from tests.support.events import ABDU, uzchess_json
from tests.support.server import service_process


def test_a_posix_tz_on_the_machine_changes_nothing(tmp_path: Path) -> None:
    with (tmp_path / "serve.log").open("wb") as log, service_process(
        tmp_path / "log.db", log, env={"TZ": "UZT-5"}
    ) as (_, base), httpx.Client(base_url=base, trust_env=False, timeout=30) as http:
        created = http.post("/api/events", content=uzchess_json().encode(),
                            headers={"Content-Type": "application/json"})
        assert created.status_code == 201, created.text
        chief = {"Authorization": f"Bearer {created.json()['chief_token']}"}
        playoff = http.post(f"/api/events/{created.json()['id']}/playoff", json={},
                            headers=chief)
        assert playoff.status_code == 201, playoff.text  # was 500: tzlocal refused UZT-5
        pid = playoff.json()["id"]
        for path, body in ((f"/api/playoffs/{pid}/matches/1/lots",
                            {"method": "physical", "white": ABDU}),
                           (f"/api/playoffs/{pid}/matches/1/games/1/start", None)):
            answer = http.post(path, json=body, headers=chief)
            assert answer.status_code == 201, answer.text
