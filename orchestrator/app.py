"""The app factory: a FastAPI app with its event log, scheduler and routes.

Nothing lives at module level: everything the app needs is made in
:func:`create_app` and its lifespan, so tests can start as many as they like.
Request bodies are bounded (:class:`BodyLimit`, sizes in :class:`Settings`).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI, HTTPException, Request
from fastapi.encoders import jsonable_encoder
from fastapi.exception_handlers import http_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from fastapi_offline import FastAPIOffline
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.responses import Response
from starlette.routing import Match
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from orchestrator.api import admin, broadcast, languages, pages, printing, ratings, ws
from orchestrator.api.openapi import complete_openapi
from orchestrator.api.problems import error_responses, problems, refusal_words
from orchestrator.api.routes import router
from orchestrator.core.bus import Bus, InProcessBus, SharedBus
from orchestrator.core.computations import Computations
from orchestrator.core.errors import ServiceError
from orchestrator.core.languages import Catalogs
from orchestrator.core.service import Service, new_id
from orchestrator.core.timesource import SystemTime, TimeSource
from orchestrator.core.words import error_words
from orchestrator.runtime.clocks import BoardHeard, FlagTimers
from orchestrator.runtime.hub import Hub
from orchestrator.runtime.scheduler import PlayoffScheduler
from orchestrator.settings import Settings
from orchestrator.store import (
    AsyncEventLog,
    ConcurrencyError,
    Leadership,
    StoreUnavailableError,
    open_log,
)
from orchestrator.views.start import api_address_page, wants_a_page
from playoff_formats.errors import InputError, PlayoffError

STORE_WAIT_S = 5.0
"""How long a request waits for a connection to the PostgreSQL log before it is
refused as unavailable (503, or an ``unavailable`` frame)."""


def create_app(
    settings: Settings,
    time: TimeSource | None = None,
    *,
    store: AsyncEventLog | None = None,
    bus: Bus | None = None,
    ids: Callable[[], str] = new_id,
    leadership: Leadership | None = None,
) -> FastAPI:
    """The service as an ASGI app.

    ``store``: the event log (default: the PostgreSQL database ``settings.store_url``
    if set, else the SQLite file ``settings.db_path``, opened and closed with the
    app; a store passed in is left open). ``bus``: how published changes reach the
    hub, the flag timers and the scheduler (default: through Redis at
    ``settings.redis_url`` if set, else in this process). With a bus shared between
    workers, only the worker that holds ``leadership`` runs the timers (default: a
    lease in the PostgreSQL log); otherwise this process runs them.
    """
    clock = time or SystemTime()
    catalogs = Catalogs()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        log = store if store is not None else _open_log(settings)
        shared = bus if bus is not None else _bus_of(settings)
        lease = leadership
        if isinstance(shared, SharedBus):
            lease = lease or _lease_of(log, settings)
            await shared.open()
            log = shared.announcing(log)
        service = Service(
            log, clock, bus=shared, ids=ids, utc_offset=settings.hall_offset(),
            computations=Computations(workers=settings.foresight_workers),
        )
        service.tokens.attempts.limit = settings.failed_token_limit
        await service.load()
        scheduler = PlayoffScheduler(service, clock, settings)
        flags = FlagTimers(service, clock)
        hub = Hub(
            service, clock, max_per_token=settings.max_connections_per_token,
            max_per_address=settings.max_connections_per_address,
            openings_per_s=settings.openings_per_s,
            openings_burst=max(1, round(5 * settings.openings_per_s)),
            catalogs=catalogs,
        )
        # A game with a board clock waits the board's presses before its flag.
        flags.board = lambda playoff_id, match: BoardHeard(
            hub.board_online(playoff_id, match), hub.board_heard_ms(playoff_id, match),
            hub.board_through_ms(playoff_id, match),
        )
        hub.on_board_through = flags.board_through
        if isinstance(shared, SharedBus):  # the leader's flags wait for every worker's boards
            hub.share_board = shared.share_board
            shared.on_board = hub.board_news
        # The hall first: fan-out is what the audience waits for.
        service.bus.subscribe(hub.on_published)
        service.bus.subscribe(flags.on_published)
        service.bus.subscribe(scheduler.on_published)
        leading: asyncio.Task[None] | None = None
        if lease is None:  # this process alone: its timers run from the start
            scheduler.start()
            flags.sync_all()
        else:
            flags.active = scheduler.active = False
            scheduler.start()

            async def elected() -> None:
                # What the others logged up to now, before any timer is armed from it.
                await service.catch_up_all()
                flags.activate()
                scheduler.activate()

            def deposed() -> None:
                flags.deactivate()
                scheduler.deactivate()

            leading = asyncio.create_task(lease.run(elected, deposed), name="leader-lease")
        if isinstance(shared, SharedBus):
            shared.follow(service)
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
        app.state.leadership = lease
        heartbeats = asyncio.create_task(hub.run_heartbeats())
        keeping = asyncio.create_task(_keep_snapshots(service, settings.snapshot_every_s))
        try:
            yield
        finally:
            heartbeats.cancel()
            keeping.cancel()
            if leading is not None:  # the lease is let go at once: another takes over
                leading.cancel()
                with contextlib.suppress(BaseException):
                    await leading
            if isinstance(shared, SharedBus):
                await shared.aclose()
            flags.cancel_all()
            await hub.close_all()
            scheduler.shutdown()
            try:  # the next start folds only what comes after these
                await service.save_snapshots()
            except Exception:
                logging.getLogger(__name__).exception("snapshots not saved at shutdown")
            service.computations.close()
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
    app.state.catalogs = catalogs
    app.include_router(router)
    app.include_router(languages.router)
    app.include_router(broadcast.router)
    app.include_router(printing.router)
    app.include_router(ratings.router)
    app.include_router(pages.router(settings.clients_dir))
    for page in pages.PAGES:
        app.mount(
            f"/static/{page}", StaticFiles(directory=settings.clients_dir / page), name=page
        )
    app.include_router(ws.router)
    app.include_router(admin.router, responses=error_responses(401, 404, 413, 422))

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
            error["message"] = error_words(error)  # what a person is shown
            detail.append(error)
        return JSONResponse(status_code=422, content={"detail": jsonable_encoder(detail)})

    @app.exception_handler(ServiceError)
    async def service_error(request: Request, exc: ServiceError) -> Response:
        retry = getattr(exc, "retry_after_s", None)
        headers = {"Retry-After": str(retry)} if retry is not None else None
        if exc.status == 401 and wants_a_page(
            request.method, request.headers.get("accept", "")
        ):
            # A person opened an address of the API in a browser (one the demo prints):
            # the same refusal, as a page that says where to go instead.
            return HTMLResponse(
                api_address_page(request.url.path, str(request.url)), status_code=401,
                headers={"Vary": "Accept"},
            )
        content: dict[str, str] = {"detail": refusal_words(request, exc)}
        if exc.kind is not None:
            content["kind"] = exc.kind
        return JSONResponse(status_code=exc.status, content=content, headers=headers)

    @app.exception_handler(ConcurrencyError)
    async def concurrent_write(request: Request, exc: ConcurrencyError) -> JSONResponse:
        # Workers sharing a log: another logged to the same event at the same moment
        # (a play-off's commands are decided again by the service; these are not).
        return JSONResponse(status_code=409, content={
            "detail": "another worker changed this event at the same moment: send the "
                      "request again (with the same Idempotency-Key, if it had one)"
        })

    @app.exception_handler(StoreUnavailableError)
    async def log_unreachable(request: Request, exc: StoreUnavailableError) -> JSONResponse:
        return JSONResponse(status_code=503, headers={"Retry-After": "2"}, content={
            "detail": "the log cannot be reached at the moment (its database is restarting "
                      "or out of reach): try again in a few seconds"
        })

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        if exc.status_code != 405:
            return await http_exception_handler(request, exc)
        # Every method the path takes (a path may have a route per method), not only
        # those of the first route that matched it.
        allowed: set[str] = set()
        for route in app.router.routes:
            match, _ = route.matches({**request.scope, "method": "GET"})
            methods = getattr(route, "methods", None)
            if match is not Match.NONE and methods:
                allowed |= set(methods)
        allow = ", ".join(sorted(allowed))
        return JSONResponse(
            status_code=405, content={"detail": f"this address takes {allow}"},
            headers={"Allow": allow},
        )

    @app.exception_handler(InputError)
    async def input_error(request: Request, exc: InputError) -> JSONResponse:
        return JSONResponse(status_code=422, content={"detail": problems(exc)})

    @app.exception_handler(PlayoffError)
    async def playoff_error(request: Request, exc: PlayoffError) -> JSONResponse:
        return JSONResponse(status_code=409, content={"detail": refusal_words(request, exc)})

    app.add_middleware(
        BodyLimit, upload=settings.max_upload_bytes, other=settings.max_body_bytes
    )
    # Ahead of every middleware: a display's connection, for hours and by the
    # thousand, holds no more of the stack than it needs.
    build_stack = app.build_middleware_stack
    app.build_middleware_stack = lambda: ws.WebSockets(build_stack())  # type: ignore[method-assign]

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = complete_openapi(FastAPI.openapi(app))
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
    return app


UPLOAD = ("POST", "/api/events")
"""The one route whose body is an event file, with a limit of its own."""


class BodyTooLarge(HTTPException):
    """A body past its limit. An :class:`HTTPException`, so that FastAPI's reading
    of a body passes it on as it is, to be answered 413 with the reason."""

    def __init__(self, limit: int, what: str) -> None:
        super().__init__(
            status_code=413,
            detail=f"the body is larger than {_size(limit)}, the limit for {what}",
        )


class BodyLimit:
    """Refuses a request body past its limit with 413, without reading it whole: at
    once when its Content-Length says so, otherwise as soon as the bytes received
    pass the limit. What was received is dropped; nothing is logged."""

    def __init__(self, app: ASGIApp, *, upload: int, other: int) -> None:
        self.app = app
        self.upload = upload
        self.other = other

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        is_upload = (scope["method"], scope["path"]) == UPLOAD
        limit = self.upload if is_upload else self.other
        what = "an event file" if is_upload else "this request"
        declared = _content_length(scope)
        if declared is not None and declared > limit:
            await _refuse(send, BodyTooLarge(limit, what))
            return
        received = 0
        started = False

        async def counted() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    raise BodyTooLarge(limit, what)
            return message

        async def watched(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, counted, watched)
        except BodyTooLarge as exc:
            # A body read outside a route, where nothing answered the refusal.
            if started:
                raise
            await _refuse(send, exc)


async def _keep_snapshots(service: Service, every_s: float) -> None:
    """Snapshots of the states that moved on, now and then: a start after a crash then
    folds only the last few minutes of the log."""
    while True:
        try:  # at once too: a start that folded a long log keeps what it folded
            await service.save_snapshots(min_new_events=SNAPSHOT_AFTER_EVENTS)
        except Exception:  # a cache: never worth stopping anything for
            logging.getLogger(__name__).exception("snapshots not saved")
        await asyncio.sleep(every_s)


SNAPSHOT_AFTER_EVENTS = 200
"""A state gets a new snapshot once this many events came after its last one."""


def _content_length(scope: Scope) -> int | None:
    for name, value in scope["headers"]:
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None


async def _refuse(send: Send, exc: BodyTooLarge) -> None:
    response = JSONResponse(status_code=exc.status_code, content={"detail": exc.detail})
    await send({
        "type": "http.response.start",
        "status": response.status_code,
        "headers": response.raw_headers,
    })
    await send({"type": "http.response.body", "body": response.body})


def _size(limit: int) -> str:
    for unit, name in ((1024 * 1024, "MiB"), (1024, "KiB")):
        if limit >= unit and limit % unit == 0:
            return f"{limit // unit} {name} ({limit:,} bytes)"
    return f"{limit:,} bytes"


def _open_log(settings: Settings) -> AsyncEventLog:
    url = settings.store_url if settings.store_url is not None else f"sqlite:{settings.db_path}"
    return open_log(url, wait_s=STORE_WAIT_S)


def _bus_of(settings: Settings) -> Bus:
    if settings.redis_url is None:
        return InProcessBus()
    from orchestrator.runtime.redis_bus import RedisBus

    return RedisBus(settings.redis_url, reconcile_s=settings.reconcile_s)


def _lease_of(log: AsyncEventLog, settings: Settings) -> Leadership:
    lease = log.lease(poll_s=settings.leader_poll_s)
    if lease is None:
        raise ValueError(
            "workers that share a bus must share a PostgreSQL log (--store postgresql://...), "
            "whose lease elects the one that runs the timers"
        )
    return lease
