"""The ASGI application: ``create_app(config)``, run by uvicorn (``stammtisch serve``)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route, WebSocketRoute

from stammtisch.server.api import JSON, routes
from stammtisch.server.collector import freeze_periodically
from stammtisch.server.config import Config
from stammtisch.server.holds import Hold
from stammtisch.server.limits import ClientLimits, SocketLimit
from stammtisch.server.messages import ApiError
from stammtisch.server.metrics import Health, Metrics, MetricsMiddleware, instrument, metrics_endpoint
from stammtisch.server.tables import Hub
from stammtisch.server.web import routes as web_routes

log = logging.getLogger("stammtisch.server")


async def api_error(request: Request, error: Exception) -> Response:
    assert isinstance(error, ApiError)
    return JSON(error.to_json(), status_code=error.status)


async def http_error(request: Request, error: Exception) -> Response:
    assert isinstance(error, HTTPException)
    return JSON({"error": "http", "message": str(error.detail)}, status_code=error.status_code)


async def server_error(request: Request, error: Exception) -> Response:
    log.exception("request %s %s", request.method, request.url.path, exc_info=error)
    return JSON({"error": "server", "message": "the server failed on this request (it is logged); "
                                               "reload to see what holds now"}, status_code=500)


def create_app(config: Config | None = None, hold: Hold | None = None) -> Starlette:
    """The application; ``hold``: the database, held for it already (``serve``; server/holds.py)."""
    config = config or Config()
    limits = ClientLimits(config)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        hub = Hub(config, hold)
        instrument(hub, metrics)
        await hub.open()
        app.state.hub = hub
        app.state.health = Health(hub)
        app.state.limits = limits
        collector = (asyncio.create_task(freeze_periodically(config.gc_freeze, config.gc_sweep))
                     if config.gc_freeze > 0 else None)
        try:
            yield
        finally:
            if collector is not None:
                collector.cancel()
            await hub.close()

    metrics = Metrics()
    every = [*web_routes, *routes, Route("/metrics", metrics_endpoint(metrics, config.metrics_token))]
    templates = {route.endpoint: route.path for route in every if isinstance(route, (Route, WebSocketRoute))}
    return Starlette(routes=every, lifespan=lifespan, middleware=[
        Middleware(MetricsMiddleware, metrics=metrics, routes=templates), Middleware(SocketLimit, limits=limits)],
        exception_handlers={
        ApiError: api_error, HTTPException: http_error, Exception: server_error})
