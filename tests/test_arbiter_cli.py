"""``playoff-arbiter``: commands for scripts, and ``watch``, against the real server."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from orchestrator.timesource import ManualTime
from tests.server import running_server

DATA = Path(__file__).parent / "data" / "uzchess-cup-masters-2025.json"


def arbiter(*args: str, token: str, server: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "clients.python.cli", *args, "--server", server],
        capture_output=True, text=True, timeout=60, env={"PLAYOFF_TOKEN": token, "PATH": ""},
    )


def test_commands_and_watch(tmp_path: Path) -> None:
    with running_server(tmp_path / "log.db", ManualTime()) as server:
        made = server.client().post(
            "/api/events", content=DATA.read_bytes(), headers={"Content-Type": "application/json"}
        ).json()
        token = made["chief_token"]
        chief = server.client(token)
        playoff = chief.post(f"/api/events/{made['id']}/playoff").json()["id"]

        lots = arbiter("lots", playoff, "--match", "1", token=token, server=server.base_url)
        assert lots.returncode == 0, lots.stderr
        assert json.loads(lots.stdout)["seqs"] == [2]
        start = arbiter("start", playoff, "-m", "1", "-g", "1", "--id", "go",
                        token=token, server=server.base_url)
        assert start.returncode == 0, start.stderr
        again = arbiter("start", playoff, "-m", "1", "-g", "1", "--id", "go",
                        token=token, server=server.base_url)
        assert json.loads(again.stdout) == json.loads(start.stdout)  # applied once
        wrong = arbiter("press", playoff, "black", "1", token=token, server=server.base_url)
        assert wrong.returncode == 1
        assert "refused (conflict)" in wrong.stderr
        assert arbiter("press", playoff, "white", "1", token=token,
                       server=server.base_url).returncode == 0
        # Without a move number, the server counts: Black's move 1, then White's move 2.
        for side in ("black", "white"):
            pressed = arbiter("press", playoff, side, token=token, server=server.base_url)
            assert pressed.returncode == 0, pressed.stderr
        moves = chief.get(f"/api/playoffs/{playoff}/view").json()["clocks"]["1:1"]["moves"]
        assert moves == {"white": 2, "black": 1}

        watch = arbiter("watch", playoff, "--count", "0", token=token, server=server.base_url)
        assert watch.returncode == 0, watch.stderr
        assert "snapshot" in watch.stdout
        bad = arbiter("lots", playoff, token="not-a-token", server=server.base_url)
        assert bad.returncode == 2
        assert "Traceback" not in bad.stderr
