"""Metrics in Prometheus's text format (``GET /metrics``) and the health check (``GET /api/health``).

Every label takes its values from a fixed set — route templates (never paths), message kinds and
error codes the server knows, games and bot kinds of the registry — so no client can make the
server keep more series.  The page is built at most once a second however often it is asked for.
Nothing here reads a token, a view or an action: only names, counts and times.

The hub's hot paths are timed by wrapping them on the instance (``instrument``), so that the
modules of the game loop know nothing of metrics.
"""

from __future__ import annotations

import asyncio
import functools
import hmac
import re
import time
from collections.abc import Awaitable, Callable, Iterator
from typing import TYPE_CHECKING, Any

from prometheus_client import CollectorRegistry, Counter, Histogram, ProcessCollector, generate_latest
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector
from sqlalchemy import text
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from stammtisch.registry import games
from stammtisch.server.messages import ApiError

if TYPE_CHECKING:
    from stammtisch.server.livetable import LiveTable
    from stammtisch.server.tables import Hub

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
METRICS_TOKEN = "STAMMTISCH_METRICS_TOKEN"  # the environment variable with the token that reads /metrics
METHODS = frozenset({"GET", "POST", "PUT", "DELETE", "HEAD", "OPTIONS", "PATCH"})
# What clients send and what the server sends on a table's socket (server/api.py, server/web.py).
IN_KINDS = frozenset({"auth", "act", "undo", "hint", "ping", "leave", "claim"})
OUT_KINDS = frozenset({"state", "presence", "ok", "error", "pong", "hint", "texts"})
# The error codes of ApiError (server/messages.py and its callers).
ERROR_CODES = frozenset({"malformed", "no_token", "no_hints", "wrong_token", "not_found", "no_auth", "too_slow",
                         "conflict", "too_large", "illegal", "undo_refused", "busy", "too_many", "stalled", "server",
                         "http"})
OPERATIONS = frozenset({"read", "write", "_insert_batch", "prepare"})  # Store transactions by their function
_TYPE = re.compile(r'"type"\s*:\s*"([a-z_]{1,20})"')
_ERROR = re.compile(r'"error"\s*:\s*"([a-z_]{1,30})"')
LATENCY = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
THINKING = (0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0)


class Children:
    """A labelled metric's children, each made once: ``labels()`` checks and copies its values under a
    lock at every call, which the hot paths (every message, every move) need not pay.  The label
    values come from fixed sets, so this stays small."""

    def __init__(self, metric: Any) -> None:
        self.metric = metric
        self._made: dict[tuple[str, ...], Any] = {}

    def __call__(self, *values: str) -> Any:
        found = self._made.get(values)
        if found is None:
            found = self._made[values] = self.metric.labels(*values)
        return found


class Metrics:
    """One process's metrics, in a registry of their own (one per app, so tests can make several)."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        r = self.registry
        self.requests = Counter("stammtisch_http_requests", "HTTP requests by route template, method and status",
                                ["route", "method", "status"], registry=r)
        self.request_seconds = Histogram("stammtisch_http_request_seconds", "HTTP request duration by route",
                                         ["route"], buckets=LATENCY, registry=r)
        self.messages = Counter("stammtisch_websocket_messages", "WebSocket messages by direction and kind",
                                ["direction", "kind"], registry=r)
        self.errors = Counter("stammtisch_websocket_errors", "Error replies on WebSockets by error code",
                              ["code"], registry=r)
        self.actions = Histogram("stammtisch_action_seconds", "Time to check, commit and apply an action or "
                                 "take-back", ["game", "outcome"], buckets=LATENCY, registry=r)
        self.thinking = Histogram("stammtisch_bot_think_seconds", "Time a bot took to choose its move",
                                  ["game", "bot"], buckets=THINKING, registry=r)
        self.commits = Histogram("stammtisch_db_transaction_seconds", "Database transactions (to their commit) "
                                 "by operation", ["operation"], buckets=LATENCY, registry=r)
        self.sockets = 0
        self.hub: Hub | None = None
        self.requests_of, self.request_seconds_of = Children(self.requests), Children(self.request_seconds)
        self.messages_of, self.errors_of = Children(self.messages), Children(self.errors)
        self.actions_of, self.thinking_of = Children(self.actions), Children(self.thinking)
        self.commits_of = Children(self.commits)
        r.register(_Live(self))
        ProcessCollector(registry=r)  # the process's CPU seconds, memory, open files (process_*; on Linux)
        self._page: tuple[float, bytes] = (0.0, b"")

    def page(self) -> bytes:
        now = time.monotonic()
        if now - self._page[0] >= 1.0:
            self._page = (now, generate_latest(self.registry))
        return self._page[1]


class _Live(Collector):
    """Gauges read at scrape time: tables in memory, watched, played by bots; open sockets."""

    def __init__(self, metrics: Metrics) -> None:
        self.metrics = metrics

    def collect(self) -> Iterator[GaugeMetricFamily]:
        hub = self.metrics.hub
        tables = list(hub.tables.values()) if hub is not None else []
        yield GaugeMetricFamily("stammtisch_tables_in_memory", "Live tables this process keeps in memory",
                                value=len(tables))
        yield GaugeMetricFamily("stammtisch_tables_watched", "Live tables with at least one open socket",
                                value=sum(1 for t in tables if t.subscribers))
        yield GaugeMetricFamily("stammtisch_tables_with_bots_playing", "Live tables whose bots are playing",
                                value=sum(1 for t in tables if t.bot_task is not None and not t.bot_task.done()))
        yield GaugeMetricFamily("stammtisch_websockets", "Open WebSocket connections", value=self.metrics.sockets)


def _game(table: LiveTable) -> str:
    return table.row.game if table.row.game in games() else "other"


def instrument(hub: Hub, metrics: Metrics) -> None:
    """Time the hub's actions, bot decisions and database transactions."""
    metrics.hub = hub

    def timed_move(fn: Callable[..., Awaitable[int]]) -> Callable[..., Awaitable[int]]:
        @functools.wraps(fn)
        async def wrapper(table: LiveTable, *args: Any) -> int:
            start, outcome = time.perf_counter(), "error"
            try:
                result = await fn(table, *args)
                outcome = "ok"
                return result
            finally:
                metrics.actions_of(_game(table), outcome).observe(time.perf_counter() - start)

        return wrapper

    bot_move = hub._bot_move

    @functools.wraps(bot_move)
    async def timed_bot(table: LiveTable, seat: int) -> Any:
        start = time.perf_counter()
        try:
            return await bot_move(table, seat)
        finally:
            row = table.seats.get(seat)
            kind = row.bot_kind if row is not None and row.bot_kind else "other"
            spec = games().get(table.row.game)
            kind = kind if spec is not None and kind in spec.bot_kinds() else "other"
            metrics.thinking_of(_game(table), kind).observe(time.perf_counter() - start)

    def timed_run(run: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
        @functools.wraps(run)
        async def timed(fn: Callable[..., Any], *args: Any) -> Any:
            start = time.perf_counter()
            try:
                return await run(fn, *args)
            finally:
                name = getattr(fn, "__name__", "")  # the move log's batch on either database: _insert_batch
                name = name.removesuffix("_sqlite").removesuffix("_postgresql")
                metrics.commits_of(name if name in OPERATIONS else "other").observe(time.perf_counter() - start)

        return timed

    hub.act = timed_move(hub.act)  # type: ignore[method-assign, assignment]
    hub.undo = timed_move(hub.undo)  # type: ignore[method-assign, assignment]
    hub._bot_move = timed_bot  # type: ignore[method-assign]
    hub.store._run = timed_run(hub.store._run)  # type: ignore[method-assign, assignment]
    hub.store._run_raw = timed_run(hub.store._run_raw)  # type: ignore[method-assign, assignment]
    hub.store._run_postgresql = timed_run(hub.store._run_postgresql)  # type: ignore[method-assign, assignment]


class MetricsMiddleware:
    """ASGI middleware: counts HTTP requests (by the route template that matched) and WebSocket
    messages (by the kind in their ``type``), and keeps the number of open sockets."""

    def __init__(self, app: ASGIApp, metrics: Metrics, routes: dict[Any, str]) -> None:
        self.app, self.metrics, self.routes = app, metrics, routes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            await self._http(scope, receive, send)
        elif scope["type"] == "websocket":
            await self._websocket(scope, receive, send)
        else:
            await self.app(scope, receive, send)

    def route(self, scope: Scope) -> str:
        return self.routes.get(scope.get("endpoint"), "unmatched")

    async def _http(self, scope: Scope, receive: Receive, send: Send) -> None:
        start, status = time.perf_counter(), 500

        async def sending(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
            await send(message)

        try:
            await self.app(scope, receive, sending)
        finally:
            route = self.route(scope)
            method = scope.get("method", "")
            self.metrics.requests_of(route, method if method in METHODS else "other", str(status)).inc()
            self.metrics.request_seconds_of(route).observe(time.perf_counter() - start)

    async def _websocket(self, scope: Scope, receive: Receive, send: Send) -> None:
        metrics = self.metrics
        accepted = False

        async def receiving() -> Message:
            message = await receive()
            if message["type"] == "websocket.receive":
                metrics.messages_of("in", _kind(message, IN_KINDS, search=True)).inc()
            return message

        async def sending(message: Message) -> None:
            nonlocal accepted
            if message["type"] == "websocket.send":
                kind = _kind(message, OUT_KINDS, search=False)
                metrics.messages_of("out", kind).inc()
                if kind == "error":
                    metrics.errors_of(_error_code(message)).inc()
            elif message["type"] == "websocket.accept" and not accepted:
                accepted = True
                metrics.sockets += 1
            await send(message)

        try:
            await self.app(scope, receiving, sending)
        finally:
            if accepted:
                metrics.sockets -= 1


def _text(message: Message) -> str:
    data = message.get("text")
    if data is None:
        raw = message.get("bytes") or b""
        data = raw[:65536].decode("utf-8", "replace")
    return str(data)


def _kind(message: Message, known: frozenset[str], search: bool) -> str:
    """The message's ``type`` if the server knows it (the server writes it first: only the start
    of an outgoing message is read; a client's message, at most max_message long, is searched)."""
    data = _text(message)
    found = _TYPE.search(data if search else data[:64])
    return found.group(1) if found and found.group(1) in known else "other"


def _error_code(message: Message) -> str:
    found = _ERROR.search(_text(message)[:200])
    return found.group(1) if found and found.group(1) in ERROR_CODES else "other"


def metrics_endpoint(metrics: Metrics, token: str) -> Callable[[Request], Awaitable[Response]]:
    """The page for whoever sends the metrics token (``Authorization: Bearer …``), for nobody without
    one: its counters move with every step, a hidden one of a sealed decision too (issue 26)."""
    async def endpoint(request: Request) -> Response:
        refused = refusal(request.headers.get("authorization", ""), token)
        if refused is not None:
            raise refused
        return Response(metrics.page(), media_type=CONTENT_TYPE)

    return endpoint


def refusal(authorization: str, token: str) -> ApiError | None:
    """Why a request with this Authorization header may not read the metrics, or None."""
    if not token:
        return ApiError(403, "metrics_off", "metrics are off: start the server with the environment variable "
                                            f"{METRICS_TOKEN} set and scrape with that token (docs/operations.md)")
    scheme, _, given = authorization.partition(" ")
    if scheme.lower() != "bearer" or not given.strip():
        return ApiError(401, "no_token", "the metrics need the metrics token (Authorization: Bearer …)")
    if not hmac.compare_digest(given.strip().encode(), token.encode()):
        return ApiError(403, "wrong_token", "that is not the metrics token")
    return None


class Health:
    """Whether the database and Redis answer, asked at most once a second (a client asking often
    costs one cached answer, not a query each)."""

    def __init__(self, hub: Hub, timeout: float = 2.0) -> None:
        self.hub, self.timeout = hub, timeout
        self._last: tuple[float, dict[str, Any]] = (0.0, {})
        self._lock = asyncio.Lock()

    async def report(self) -> dict[str, Any]:
        async with self._lock:
            now = time.monotonic()
            if now - self._last[0] >= 1.0:
                self._last = (time.monotonic(), await self._check())
            return self._last[1]

    async def _check(self) -> dict[str, Any]:
        database = await self._reachable(self.hub.store._run(lambda conn: conn.execute(text("SELECT 1"))))
        client = getattr(self.hub.broker, "client", None)
        redis = "off" if client is None else await self._reachable(client.ping())
        return {"ok": database == "ok" and redis in ("ok", "off"), "database": database, "redis": redis}

    async def _reachable(self, check: Awaitable[Any]) -> str:
        try:
            await asyncio.wait_for(check, self.timeout)
            return "ok"
        except Exception:
            return "unreachable"


async def health_response(health: Health) -> Response:
    report = await health.report()
    return JSONResponse(report, status_code=200 if report["ok"] else 503)
