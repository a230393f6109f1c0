"""The app factory: a FastAPI app with its event log, scheduler and routes.

Nothing lives at module level: everything the app needs is made in
:func:`create_app` and its lifespan, so tests can start as many as they like.
"""

from __future__ import annotations

import asyncio
import gc
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles

from orchestrator.api import pages, ws
from orchestrator.api.routes import router
from orchestrator.clocks import FlagTimers
from orchestrator.errors import ServiceError
from orchestrator.hub import Hub
from orchestrator.scheduler import PlayoffScheduler
from orchestrator.service import Service, new_id
from orchestrator.settings import Settings
from orchestrator.store import AsyncEventStore, SqliteEventStore
from orchestrator.timesource import SystemTime, TimeSource
from playoff_formats.errors import InputError, PlayoffError


def create_app(
    settings: Settings,
    time: TimeSource | None = None,
    *,
    ids: Callable[[], str] = new_id,
) -> FastAPI:
    clock = time or SystemTime()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = AsyncEventStore(SqliteEventStore(settings.db_path))
        service = Service(store, clock, ids=ids)
        await service.load()
        scheduler = PlayoffScheduler(service, clock, settings)
        flags = FlagTimers(service, clock)
        hub = Hub(service, clock)
        # The hall first: fan-out is what the audience waits for.
        service.listen(hub.on_events)
        service.listen(flags.on_events)
        service.listen(scheduler.on_events)
        scheduler.start()
        flags.sync_all()
        # What start-up built lives as long as the service: keep it out of every
        # later collection, which would otherwise pause the fan-out for 100 ms.
        gc.collect()
        gc.freeze()
        app.state.loop = asyncio.get_running_loop()
        app.state.service = service
        app.state.scheduler = scheduler
        app.state.flags = flags
        app.state.hub = hub
        app.state.settings = settings
        heartbeats = asyncio.create_task(hub.run_heartbeats())
        try:
            yield
        finally:
            heartbeats.cancel()
            flags.cancel_all()
            await hub.close_all()
            scheduler.shutdown()
            await store.aclose()

    app = FastAPI(
        title="Play-off orchestrator",
        summary="Play-off scheduling and clock orchestration for events that end in a tie.",
        version="0.1.0",
        lifespan=lifespan,
    )
    app.include_router(router)
    app.include_router(pages.router)
    app.mount("/static/display", StaticFiles(directory=pages.DISPLAY), name="display")
    app.mount("/static/console", StaticFiles(directory=pages.CONSOLE), name="console")
    app.include_router(ws.router)

    @app.exception_handler(ServiceError)
    async def service_error(request: Request, exc: ServiceError) -> JSONResponse:
        return JSONResponse(status_code=exc.status, content={"detail": exc.reason})

    @app.exception_handler(InputError)
    async def input_error(request: Request, exc: InputError) -> JSONResponse:
        detail = {
            "loc": ["body", *_path_parts(exc.path)],
            "msg": exc.reason,
            "type": "input_error",
            "line": exc.line,
            "column": exc.column,
        }
        return JSONResponse(status_code=422, content={"detail": [detail]})

    @app.exception_handler(PlayoffError)
    async def playoff_error(request: Request, exc: PlayoffError) -> JSONResponse:
        reason = getattr(exc, "reason", None) or (exc.args[0] if exc.args else str(exc))
        return JSONResponse(status_code=409, content={"detail": reason})

    return app


def _path_parts(path: str | None) -> list[str | int]:
    if not path:
        return []
    parts: list[str | int] = []
    for piece in path.replace("]", "").replace("[", ".").split("."):
        if piece:
            parts.append(int(piece) if piece.isdigit() else piece)
    return parts
