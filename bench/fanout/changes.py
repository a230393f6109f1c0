"""The results-heavy run: the chief arbiter's changes while the presses go on."""

from __future__ import annotations

import asyncio
import math
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from bench.fanout.harness import (
    CHANGE_EVERY_S,
    RATE,
    Arbiter,
    Displays,
    prepare,
    start_ours,
    vm_rss_kib,
)
from bench.fanout.latency import FanOut, _conclude, _connected, _press_block, percentile

# --------------------------------------------------------------------------- results


@dataclass
class Changes:
    """The results-heavy run: the presses (``run``) and the changes sent between them."""

    run: FanOut
    sent: int = 0
    refused: list[str] = field(default_factory=list)
    event_p50_ms: float = math.nan  # a change's send -> a display has its event
    event_p99_ms: float = math.nan
    view_p50_ms: float = math.nan  # a change's send -> a display has the view after it
    view_p99_ms: float = math.nan
    views: int = 0  # view frames the displays received in all
    view_bytes: float = math.nan  # their mean size
    display_http: int = -1  # the displays' HTTP requests beyond their handshakes
    server_http: int = -1  # HTTP requests in the server's access log during the run
    error: str = ""


ACCESS_LINE = re.compile(rb'"(?:GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS) ')


def _http_requests(log: Path, start: int, end: int | None = None) -> int:
    with open(log, "rb") as f:
        f.seek(start)
        text = f.read() if end is None else f.read(end - start)
    return len(ACCESS_LINE.findall(text))


def change(k: int, now: datetime) -> dict[str, Any]:
    """The ``k``-th change of the results-heavy run: match 1, game 1 was won by White
    and game 2 is under way; match 2 waits for its winner."""
    step = k % 4
    if step in (0, 2):
        return {"type": "correct", "match": 1, "game": 1,
                "result": "0-1" if step == 0 else "1-0",
                "reason": "bench: the result corrected", "confirm": True}
    if step == 1:
        return {"type": "postpone", "match": 2, "game": 1, "minutes": 5,
                "reason": "bench: the game postponed"}
    return {"type": "deadline", "deadline": (now + timedelta(days=1, minutes=k)).isoformat(),
            "reason": "bench: the deadline moved"}


async def _send_changes(
    chief: Arbiter, count: int, sent: list[tuple[tuple[int, ...], int]], refused: list[str]
) -> list[int]:
    """``count`` changes, one every CHANGE_EVERY_S, half a period after the presses
    begin; each (seqs, send ns) acknowledged goes to ``sent``."""
    loop = asyncio.get_running_loop()
    start = loop.time() + CHANGE_EVERY_S / 2
    for k in range(count):
        await asyncio.sleep(max(0.0, start + k * CHANGE_EVERY_S - loop.time()))
        _, at, waiter = await chief.send(change(k, datetime.now(UTC)))
        try:
            message, _ = await asyncio.wait_for(waiter, 10)
        except TimeoutError:
            refused.append("no answer within 10 s")
            continue
        if message["t"] == "ack":
            sent.append((tuple(message["d"]["seqs"]), at))
        else:
            refused.append(str(message["d"].get("reason", message["d"])))
    return [seqs[-1] for seqs, _ in sent]


def _analyse_changes(
    found: Changes, taken: list[dict[str, Any]], sent: list[tuple[tuple[int, ...], int]]
) -> None:
    events: list[float] = []
    views: list[float] = []
    view_bytes = requests = 0
    for display in taken:
        arrived = dict(zip(display["seqs"], display["times"], strict=True))
        viewed: dict[int, int] = {}
        for seq, at in zip(display["view_seqs"], display["view_times"], strict=True):
            viewed.setdefault(seq, at)
        for seqs, at in sent:
            if seqs[0] in arrived:
                events.append((arrived[seqs[0]] - at) / 1e6)
            if seqs[-1] in viewed:
                views.append((viewed[seqs[-1]] - at) / 1e6)
        found.views += len(display["view_seqs"])
        view_bytes += display["view_bytes"]
        requests += display["http_requests"]
    events.sort()
    views.sort()
    found.sent = len(sent)
    found.event_p50_ms, found.event_p99_ms = percentile(events, 0.5), percentile(events, 0.99)
    found.view_p50_ms, found.view_p99_ms = percentile(views, 0.5), percentile(views, 0.99)
    found.view_bytes = view_bytes / found.views if found.views else math.nan
    found.display_http = requests - found.run.connected


async def fan_out_results(n: int, presses: int, folder: Path) -> Changes:
    """Presses at RATE to ``n`` displays, with a view-changing command every
    CHANGE_EVERY_S from the chief arbiter."""
    found = Changes(FanOut("ours", n, RATE))
    run = found.run
    server = await start_ours(folder, f"results-{n}")
    arbiter = chief = displays = None
    try:
        setup = await prepare(server.http)
        arbiter = Arbiter(server.ws(setup.playoff_id), setup.arbiter)
        chief = Arbiter(server.ws(setup.playoff_id), setup.chief)
        await arbiter.open()
        await chief.open()
        await arbiter.command({"type": "start-clock", "match": 1, "game": 1})
        await arbiter.command({"type": "result", "match": 1, "game": 1, "result": "1-0"})
        # Within the 5 minutes of GCT 2015 reg. 5 after game 1: the chief arbiter's.
        await chief.command({"type": "start-clock", "match": 1, "game": 2,
                             "override": "bench: the games follow at once"})
        await asyncio.sleep(0.5)
        run.rss_before_kib = vm_rss_kib(server.pid)
        displays = await Displays.start(server.ws(setup.playoff_id), setup.display_key, n,
                                        folder / f"displays-results-{n}.log")
        _connected(run, displays)
        await asyncio.sleep(1.0)
        run.rss_after_kib = vm_rss_kib(server.pid)
        # The access log has the set-up's requests: it is on, and a zero below means none.
        mark = server.log.stat().st_size
        logging_on = _http_requests(server.log, 0, mark) > 0
        sent: list[tuple[tuple[int, ...], int]] = []
        count = max(1, int(presses / RATE / CHANGE_EVERY_S))
        await _press_block(
            run, arbiter, displays, server.pid, presses, folder,
            alongside=_send_changes(chief, count, sent, found.refused), game=2,
        )
        taken = _conclude(run, arbiter)
        found.server_http = _http_requests(server.log, mark) if logging_on else -1
        _analyse_changes(found, taken, sent)
    finally:
        if displays is not None:
            await displays.quit()
        for client in (arbiter, chief):
            if client is not None:
                await client.close()
        server.stop()
    return found
