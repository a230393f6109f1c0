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
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from fastapi_offline import FastAPIOffline

from orchestrator.api import pages, ws
from orchestrator.api.routes import router
from orchestrator.bus import Bus, InProcessBus
from orchestrator.clocks import FlagTimers
from orchestrator.errors import ServiceError
from orchestrator.hub import Hub
from orchestrator.scheduler import PlayoffScheduler
from orchestrator.service import Service, new_id
from orchestrator.settings import Settings
from orchestrator.store import AsyncEventLog, AsyncEventStore, SqliteEventStore
from orchestrator.timesource import SystemTime, TimeSource
from playoff_formats.errors import InputError, PlayoffError


def create_app(
    settings: Settings,
    time: TimeSource | None = None,
    *,
    store: AsyncEventLog | None = None,
    bus: Bus | None = None,
    ids: Callable[[], str] = new_id,
) -> FastAPI:
    """The service as an ASGI app.

    ``store``: the event log (default: the SQLite file ``settings.db_path``, opened
    and closed with the app; a store passed in is left open). ``bus``: how
    published changes reach the hub, the flag timers and the scheduler (default:
    in this process).
    """
    clock = time or SystemTime()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        log = store if store is not None else AsyncEventStore(SqliteEventStore(settings.db_path))
        service = Service(
            log, clock, bus=bus or InProcessBus(), ids=ids, utc_offset=settings.hall_offset()
        )
        await service.load()
        scheduler = PlayoffScheduler(service, clock, settings)
        flags = FlagTimers(service, clock)
        hub = Hub(service, clock)
        # The hall first: fan-out is what the audience waits for.
        service.bus.subscribe(hub.on_published)
        service.bus.subscribe(flags.on_published)
        service.bus.subscribe(scheduler.on_published)
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
            if store is None:
                await log.aclose()

    # The API docs' scripts and styles are served from a packaged copy, not a CDN:
    # the docs work in a hall with no internet.
    app = FastAPIOffline(
        title="Play-off orchestrator",
        summary="Play-off scheduling and clock orchestration for events that end in a tie.",
        version="0.1.0",
        lifespan=lifespan,
    )
    app.include_router(router)
    app.include_router(pages.router(settings.clients_dir))
    for page in pages.PAGES:
        app.mount(
            f"/static/{page}", StaticFiles(directory=settings.clients_dir / page), name=page
        )
    app.include_router(ws.router)

    @app.exception_handler(RequestValidationError)
    async def invalid_request(request: Request, exc: RequestValidationError) -> JSONResponse:
        # Where a field's error knows its line and column (a time control), say them.
        detail = []
        for error in exc.errors():
            error = {k: v for k, v in error.items() if k != "url"}
            ctx = error.get("ctx") or {}
            for where in ("line", "column"):
                if isinstance(ctx, dict) and where in ctx:
                    error[where] = ctx[where]
            detail.append(error)
        return JSONResponse(status_code=422, content={"detail": jsonable_encoder(detail)})

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
