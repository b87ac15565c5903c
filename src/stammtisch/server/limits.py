"""What one client may cost the server: connections, WebSockets, new tables, waiting time.

A client is an address: the peer's, or behind a trusted proxy the last address of the header the
proxy sets (``Config.client_header``, opt-in: otherwise anybody could claim any address).

- ``guarded_protocol`` wraps uvicorn's HTTP protocol: open connections per peer address, and a
  deadline for each request's headers (a slowloris client that trickles them is cut off).
- ``ClientLimits`` counts WebSockets per client and the tables each client creates.

Every refusal is an answer with a status and a message (429 or 503, or a WebSocket error frame
and close code 4429), never a hang.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import Counter, deque
from collections.abc import Iterator
from typing import Any

from starlette.types import ASGIApp, Receive, Scope, Send

from stammtisch.server.config import Config
from stammtisch.server.messages import ApiError


def too_many(message: str) -> ApiError:
    return ApiError(429, "too_many", message)


def client_of(scope: Scope, header: str) -> str:
    """The client's address: the peer's, or the last entry of the trusted proxy's header."""
    if header:
        wanted = header.lower().encode()
        for name, value in scope.get("headers", ()):
            if name == wanted:
                last = value.decode("latin-1").split(",")[-1].strip()
                if last:
                    return last[:64]
    client = scope.get("client")
    return str(client[0]) if client else "?"


class ClientLimits:
    """Per-client counts of one server process."""

    def __init__(self, config: Config) -> None:
        self.config = config
        self.sockets: Counter[str] = Counter()
        self.created: dict[str, deque[float]] = {}  # creation times within the last minute
        self.open_tables: dict[str, list[str]] = {}  # tables a client created, while they may be open

    def client(self, scope: Scope) -> str:
        return client_of(scope, self.config.client_header)

    @contextlib.contextmanager
    def socket(self, client: str) -> Iterator[None]:
        if self.sockets[client] >= self.config.max_sockets:
            raise too_many(f"at most {self.config.max_sockets} WebSockets from one address; close some first")
        self.sockets[client] += 1
        try:
            yield
        finally:
            self.sockets[client] -= 1
            if self.sockets[client] <= 0:
                del self.sockets[client]

    def check_rate(self, client: str, now: float | None = None) -> None:
        now = time.monotonic() if now is None else now
        recent = self.created.setdefault(client, deque())
        while recent and recent[0] <= now - 60:
            recent.popleft()
        if len(recent) >= self.config.tables_per_minute:
            wait = int(recent[0] + 60 - now) + 1
            raise too_many(f"at most {self.config.tables_per_minute} new tables a minute from one address; "
                           f"try again in {wait} s")
        if len(self.created) > 10_000:  # forget clients that went quiet
            for other in [c for c, times in self.created.items() if not times or times[-1] <= now - 60]:
                del self.created[other]
            self.created.setdefault(client, recent)

    def check_open(self, client: str, still_open: list[str]) -> None:
        """``still_open``: of the client's tables, those that have not started."""
        self.open_tables[client] = still_open
        if len(still_open) >= self.config.max_open_tables:
            raise too_many(f"you have {len(still_open)} tables waiting for players (at most "
                           f"{self.config.max_open_tables}); start or fill one first")

    def created_table(self, client: str, table_id: str) -> None:
        self.created.setdefault(client, deque()).append(time.monotonic())
        self.open_tables.setdefault(client, []).append(table_id)


async def refuse_socket(receive: Receive, send: Send, error: ApiError) -> None:
    """Accept a WebSocket only to say why it is closed at once (browsers show no HTTP refusal)."""
    import orjson

    message = await receive()
    if message["type"] != "websocket.connect":
        return
    await send({"type": "websocket.accept"})
    await send({"type": "websocket.send", "text": orjson.dumps({"type": "error", **error.to_json()}).decode()})
    await send({"type": "websocket.close", "code": 4000 + error.status})


class SocketLimit:
    """ASGI middleware: at most ``max_sockets`` WebSockets per client."""

    def __init__(self, app: ASGIApp, limits: ClientLimits) -> None:
        self.app, self.limits = app, limits

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "websocket":
            await self.app(scope, receive, send)
            return
        try:
            slot = self.limits.socket(self.limits.client(scope))
            slot.__enter__()
        except ApiError as error:
            await refuse_socket(receive, send, error)
            return
        try:
            await self.app(scope, receive, send)
        finally:
            slot.__exit__(None, None, None)


def refusal(status: int, reason: str, message: str) -> bytes:
    body = message.encode()
    return (f"HTTP/1.1 {status} {reason}\r\ncontent-type: text/plain; charset=utf-8\r\n"
            f"content-length: {len(body)}\r\nconnection: close\r\n\r\n").encode() + body


def guarded_protocol(base: type[asyncio.Protocol], config: Config) -> type[asyncio.Protocol]:
    """uvicorn's HTTP protocol ``base`` with a limit of open connections per peer address and a
    deadline for the headers of each request (uvicorn's own keep-alive timeout only starts after a
    response; a connection that never completes a request would stay open for ever)."""
    per_peer: Counter[str] = Counter()
    count_peers = not config.client_header  # behind a proxy every connection comes from the proxy

    class Guarded(base):  # type: ignore[misc, valid-type]
        _peer: str | None = None
        _deadline: asyncio.TimerHandle | None = None

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            if count_peers:
                peer = transport.get_extra_info("peername")
                address = str(peer[0]) if peer else "?"
                if per_peer[address] >= config.max_connections:
                    transport.write(refusal(429, "Too Many Requests", f"at most {config.max_connections} "
                                                                      "connections from one address\n"))
                    transport.close()
                    return
                self._peer = address
                per_peer[address] += 1
            self._arm()

        def _arm(self) -> None:
            self._disarm()
            started = getattr(self, "cycle", None)
            self._deadline = asyncio.get_running_loop().call_later(config.read_timeout, self._too_slow, started)

        def _disarm(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None

        def _too_slow(self, started: Any) -> None:
            if getattr(self, "cycle", None) is started and not self.transport.is_closing():
                if started is None or started.response_complete:
                    self.transport.write(refusal(408, "Request Timeout", "the request took too long\n"))
                self.transport.close()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            self._arm()  # the next request's headers have as long again

        def handle_websocket_upgrade(self, *args: Any) -> None:
            self._disarm()
            self._release()  # from now on a WebSocket, counted by SocketLimit
            super().handle_websocket_upgrade(*args)
            # The WebSocket protocol has the connection now; this one is done. Its parser calls back
            # into it (a reference cycle uvicorn breaks only in connection_lost, which an upgraded
            # connection never gets): break it here, so that refcounting frees each connection's
            # objects when it ends instead of the garbage collector in one long pause per thousands.
            self.parser = None

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            self._release()
            super().connection_lost(exc)

        def _release(self) -> None:
            if self._peer is not None:
                per_peer[self._peer] -= 1
                if per_peer[self._peer] <= 0:
                    del per_peer[self._peer]
                self._peer = None

    Guarded.__name__ = f"Guarded{base.__name__}"
    return Guarded


def http_protocol(config: Config) -> type[asyncio.Protocol]:
    """The protocol uvicorn would choose (httptools when installed, else h11), guarded."""
    try:
        from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

        return guarded_protocol(HttpToolsProtocol, config)
    except ImportError:
        from uvicorn.protocols.http.h11_impl import H11Protocol

        return guarded_protocol(H11Protocol, config)
