"""Long computations (the play-off watch, the printouts' PDFs) outside the service's
event loop and its interpreter: a pool of processes, with a limit for the whole
service and one per token.

The clocks are served by one event loop in one interpreter: a computation of
seconds in a thread of that interpreter still takes the interpreter's lock from the
loop, and a press's acknowledgement waits. Here each computation runs in a process
of its own pool (forked from a clean server process, not from the service), at most
``workers`` at once and ``queue`` more waiting; past that the service is busy (503,
"try again in a few seconds"), and a token with a computation under way waits for it
before it starts another (429).
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any, TypeVar

from orchestrator.core.errors import TooManyRequests, Unavailable

T = TypeVar("T")

PER_TOKEN = 1
"""Computations one token may have under way at once."""


NICENESS = 10
"""How much lower the computing processes run than the service: on a machine short of
cores, the clocks come first and the watch takes what is left."""


def _lower_priority() -> None:
    os.nice(NICENESS)


class Computations:
    """A pool of processes for long computations, with its limits."""

    def __init__(self, workers: int = 1, queue: int = 4) -> None:
        if workers < 1 or queue < 0:
            raise ValueError("need workers >= 1 and queue >= 0")
        self.workers = workers
        self.limit = workers + queue
        self._pool: ProcessPoolExecutor | None = None
        self._running = 0
        self._by_token: Counter[str] = Counter()

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            # forkserver: the workers fork from a small server process started clean,
            # never from this one (its threads, sockets and open log).
            context = multiprocessing.get_context("forkserver")
            context.set_forkserver_preload(["playoff_formats.foresight"])
            self._pool = ProcessPoolExecutor(
                max_workers=self.workers, mp_context=context,
                initializer=_lower_priority,
            )
        return self._pool

    async def run(
        self, who: str | None, work: Callable[..., T], *args: Any, what: str = "play-off watch"
    ) -> T:
        """``work(*args)`` in the pool (``work`` and its arguments are pickled): its
        result. 429 if ``who`` (a token's id) has one under way; 503 if the pool is
        full. ``what``: what is computed, as the refusals say it."""
        if who is not None and self._by_token[who] >= PER_TOKEN:
            raise TooManyRequests(
                f"a {what} asked for with this token is still being computed: "
                "wait for its answer before asking for another"
            )
        if self._running >= self.limit:
            raise Unavailable(  # the pool is shared: the watch's and the printouts'
                "the service is computing as many play-off watches and printouts as it may "
                "at once: try again in a few seconds"
            )
        self._running += 1
        if who is not None:
            self._by_token[who] += 1
        try:
            # Submitted from a thread: the first submission starts the pool's server
            # process and its workers, a tenth of a second the clocks must not wait.
            future = await asyncio.to_thread(lambda: self._executor().submit(work, *args))
            return await asyncio.wrap_future(future)
        finally:
            self._running -= 1
            if who is not None:
                self._by_token[who] -= 1
                if not self._by_token[who]:
                    del self._by_token[who]

    async def warm(self) -> None:
        """Start the pool's processes now, off the loop: where the watch may be asked
        for (an event with games pending), before anyone asks. Starting them forks
        this process, which stalls its every thread for a moment: better while the
        event's last round is played than during a play-off's presses."""
        if self._pool is None:
            pool = await asyncio.to_thread(self._executor)
            await asyncio.wrap_future(pool.submit(int))

    def close(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)
