"""Websocket fan-out: press-to-display latency at 100 to 5,000 displays, against a baseline.

``python -m bench.fanout [--quick] [--n 100,1000,5000]`` prints its own tables, each
target beside its figure; ``run(quick=False)`` gives the rows to ``python -m bench``.
``--workers W`` instead compares one worker with ``W`` workers sharing a throwaway
PostgreSQL and Redis (``python -m bench fanout --workers W`` too): the same displays,
spread evenly over the workers, the same presses, sent to the first worker, whose
events reach the others through Redis (docs/deploy.md).

Three processes on this machine, all on loopback:

- the server, alone in its process: ``python -m orchestrator.cli serve`` (system time,
  a fresh SQLite log in a temporary folder for every N), prepared over HTTP as an
  organiser would: the UzChess Cup event uploaded, its GCT play-off built, a display
  key and an arbiter token issued, the lots of match 1 drawn;
- N read-only displays in another process (``bench/displays.py``: raw websocket
  connections, each recording the arrival time of every ``event`` frame and
  checking the seqs come in order without a gap), opened in batches;
- the arbiter, in this process: it starts game 1 over the websocket, then presses
  at a steady rate (open loop: each press is sent on schedule, whatever the
  answers), alternating sides, move numbers increasing, timestamping each send.

A press's latency to a display is the display's arrival time of the press's event
(matched by seq, from the press's ``ack``) minus the press's send time; the same
wall clock (``time.time_ns``) on both sides. The percentiles are over every
(press, display) pair. The server's memory per connection is its VmRSS after the
displays are connected minus before, over the displays connected.

The baseline is ``bench/bare_server.py`` (``websockets.broadcast`` of a frame of the
same size and shape, nothing else) under the same harness, at 20 messages a second
(the rate of the figures the hub is compared with) and at the arbiter's 10 presses
a second, like for like. Both servers run at once, each with its own N displays, and
are pressed in turn, a block of presses at a time (ours, bare 10/s, bare 20/s, then
the other way round): other work on the machine weighs on both alike. The targets:
our p99 at most 1.2 times the baseline's at the same rate, at every N; every event
delivered in order; the server's memory under 20 KiB a connection.

Results-heavy: 1,000 displays (100 with ``--quick``) while the arbiter presses as
above and the chief arbiter, on another connection, sends a result, a correction
or a schedule change every 2 s: match 1's game 1 won by White and its game 2 under
way (the presses), then in turn corrections of game 1's result, postponements of
match 2 and deadlines. Each changes the views: the hub
computes the hall view once for its seq and sends a ``view`` frame to every
display. Reported: the presses' p99 as above, and for the changes, the send to a
display's arrival of the change's event and of the view that follows it. The
displays make no HTTP request but their handshakes (``bench/displays.py`` counts
them), and the server's access log shows none during the run.

Flags: on a fresh server, the arbiter starts a game and takes (``adjust``) all of
White's time but ~100 ms, and does not press; a few watching displays record when
the ``flag-fell`` frame arrives. Its ``at_ms`` is the exact flag instant on the
server's clock, so arrival minus ``at_ms`` bounds the server's lateness from above
(timer, durable append, fan-out and the hop). The server's clock (``server_ms``) is
its monotonic clock set to the wall clock at start-up, with whole milliseconds: its
offset to this process's wall clock is measured with ``ping``/``pong`` and taken
out. The targets: at the displays p99 under 5 ms; at the server (the flag instant
to the ``at`` of the ``flag-fell`` event, when the server begins logging it) p99
under 2 ms. Each play-off gives six flags (games 1-3 of both matches: a 1-1 then an
Armageddon lost on time, twice); more play-offs give more.
"""


from __future__ import annotations

import argparse
import asyncio
import json

from bench.fanout.runs import _measure, rows, run
from bench.fanout.tables import print_tables
from bench.fanout.workers import (
    QUICK_WORKERS_N,
    QUICK_WORKERS_PRESSES,
    WORKERS_N,
    WORKERS_PRESSES,
    measure_spread,
    print_spread,
    run_workers,
    spread_rows,
)

__all__ = ["main", "run", "run_workers"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true",
                        help="100 displays, 50 presses, one play-off of flags")
    parser.add_argument("--n", help="display counts, e.g. 100,1000,5000")
    parser.add_argument("--results-n", type=int,
                        help="displays of the results-heavy run (0: none; default 1,000, "
                             "100 with --quick)")
    parser.add_argument("--json", action="store_true", help="print the rows as JSON too")
    parser.add_argument("--workers", type=int,
                        help="instead: one worker against this many, sharing a throwaway "
                             "PostgreSQL and Redis (--n: the displays, default 1,000)")
    args = parser.parse_args(argv)
    ns = [int(part) for part in args.n.split(",")] if args.n else None
    if args.workers is not None:
        if args.workers < 1:
            parser.error("--workers takes a count of 1 or more")
        n = ns[0] if ns else (QUICK_WORKERS_N if args.quick else WORKERS_N)
        presses = QUICK_WORKERS_PRESSES if args.quick else WORKERS_PRESSES
        spread = asyncio.run(measure_spread(args.workers, n, presses))
        print_spread(spread)
        if args.json:
            print(json.dumps(spread_rows(spread), indent=1))
        return 0
    results = _measure(args.quick, ns, args.results_n)
    print_tables(results)
    if args.json:
        print(json.dumps(rows(results), indent=1))
    return 0
