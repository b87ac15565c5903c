"""HTTP and WebSocket routes.  Requests become ``Hub`` calls; every failure is an ``ApiError``
with a status, a short code and a message, and changes nothing."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import orjson
from starlette.requests import HTTPConnection, Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from stammtisch import i18n
from stammtisch.engine.protocol import Seat
from stammtisch.server import players
from stammtisch.server.chat import catch_up, chat_of, say
from stammtisch.server.delta import delta_message, patch_base
from stammtisch.server.guide import guide_message
from stammtisch.server.limits import ClientLimits
from stammtisch.server.livetable import TABLE_ID, LiveTable, conflict
from stammtisch.server.messages import (
    Act,
    AddBot,
    ApiError,
    Away,
    Back,
    BindKey,
    Body,
    Chat,
    CreateTable,
    Invite,
    Join,
    KeyToken,
    NewPlayer,
    Notify,
    Rematch,
    Start,
    Undo,
    action_field,
    bad_request,
    field,
    move_no_field,
    parse_json,
    parse_ws,
    ws_ref,
)
from stammtisch.server.metrics import health_response
from stammtisch.server.tables import Hub

log = logging.getLogger("stammtisch.server")
STATUSES = ("open", "running", "finished", "interrupted")
CHAT_PAGE, MAX_CHAT_PAGE = 100, 200  # chat messages per page of GET …/chat: by default, at most


def dumps(data: Any) -> str:
    return dumps_bytes(data).decode()


def dumps_bytes(data: Any) -> bytes:
    """JSON; keys that are not strings (a few views' and options' numbers) are written as strings.
    orjson's option for those takes a slower path for every message, so it is used only when needed."""
    try:
        return orjson.dumps(data)
    except TypeError:
        return orjson.dumps(data, option=orjson.OPT_NON_STR_KEYS)


class JSON(JSONResponse):
    def render(self, content: Any) -> bytes:
        return dumps_bytes(content)


def hub_of(conn: HTTPConnection) -> Hub:
    hub: Hub = conn.app.state.hub
    return hub


def limits_of(conn: HTTPConnection) -> ClientLimits:
    limits: ClientLimits = conn.app.state.limits
    return limits


def token_of(conn: HTTPConnection) -> str | None:
    """The ``Authorization: Bearer`` token.  Never one in the URL: addresses end up in logs."""
    if "token" in conn.query_params:
        raise bad_request("send tokens in the Authorization header (Bearer …) or, on a WebSocket, in the first "
                          "message; never in the address, which is logged")
    header = conn.headers.get("authorization", "")
    if header.lower().startswith("bearer "):
        return header[7:].strip() or None
    return None


async def body_of(request: Request, schema: type[Body]) -> dict[str, Any]:
    limit = hub_of(request).config.max_message
    declared = request.headers.get("content-length")
    if declared and declared.isdigit() and int(declared) > limit:
        raise ApiError(413, "too_large", f"message of {declared} bytes; the limit is {limit}")
    data = b""
    timeout = hub_of(request).config.read_timeout
    try:
        async with asyncio.timeout(timeout):  # a client that trickles its body holds nothing for long
            async for chunk in request.stream():
                data += chunk
                if len(data) > limit:
                    raise ApiError(413, "too_large", f"message of more than {limit} bytes; the limit is {limit}")
    except TimeoutError:
        raise ApiError(408, "too_slow", f"the request's body took more than {timeout:g} s") from None
    return parse_json(data, limit, schema)


def int_param(value: str | None, name: str, default: int | None = None) -> int | None:
    if value is None or value == "":
        return default
    digits = value[1:] if value.startswith("-") else value
    if not (digits.isascii() and digits.isdigit() and len(digits) <= 15):
        raise bad_request(f"{name} must be a whole number of at most 15 digits, not {value[:20]!r}")
    return int(value)


async def table_of(request: HTTPConnection) -> LiveTable:
    return await hub_of(request).current(request.path_params["table_id"])


def base_url(request: Request) -> str:
    """The configured public address, or none: links relative to this server (never taken from the
    request's Host header, which the client chooses)."""
    return hub_of(request).config.public_url.rstrip("/")


# Lobby.

async def index(request: Request) -> Response:
    return PlainTextResponse("Stammtisch server. API: /api/games, /api/tables, WebSocket /ws/tables/{id}; "
                             "see docs/api.md.\n")


async def health(request: Request) -> Response:
    """Whether this process, its database and Redis (if used) answer: 200, else 503 (docs/operations.md)."""
    return await health_response(request.app.state.health)


async def games(request: Request) -> Response:
    """The games, their option labels in ``?lang=`` or the browser's language."""
    with i18n.using_language(asked_language(request)):
        return JSON(hub_of(request).games())


def asked_language(connection: HTTPConnection) -> str:
    """``?lang=`` if it is one of ours, else the best of the client's ``Accept-Language``."""
    lang = connection.query_params.get("lang")
    return lang if lang in i18n.LANGUAGES else i18n.best_language(connection.headers.get("accept-language"))


async def create_table(request: Request) -> Response:
    hub, limits = hub_of(request), limits_of(request)
    client = limits.client(request.scope)
    limits.check_rate(client)
    mine = limits.open_tables.get(client, [])
    if len(mine) >= limits.config.max_open_tables:  # maybe; the store knows which have started since
        limits.check_open(client, await hub.still_open(mine))
    created = await hub.create_table(await body_of(request, CreateTable))
    limits.created_table(client, created["table_id"])
    return JSON(created, status_code=201)


async def list_tables(request: Request) -> Response:
    """A page of tables, newest first; ``next`` (if any) is the ``before`` of the next page."""
    wanted = tuple(s for s in request.query_params.get("status", "open,running").split(",") if s)
    unknown = [s for s in wanted if s not in STATUSES]
    if unknown:
        raise bad_request(f"unknown status {unknown[0]!r}; choose from {', '.join(STATUSES)}")
    hub = hub_of(request)
    size = int_param(request.query_params.get("limit"), "limit", hub.config.page_size)
    assert size is not None
    if not 1 <= size <= 200:
        raise bad_request(f"limit must be from 1 to 200, not {size}")
    before = cursor(request.query_params.get("before"))
    tables = await hub.list_tables(wanted, size + 1, before)
    more = len(tables) > size
    tables = tables[:size]
    page: dict[str, Any] = {"tables": tables, "next": None}
    if more:
        page["next"] = f"{tables[-1]['created']!r}:{tables[-1]['id']}"
    return JSON(page)


def cursor(value: str | None) -> tuple[float, str] | None:
    if not value:
        return None
    created, _, table_id = value.partition(":")
    try:
        if not TABLE_ID.fullmatch(table_id[:32]):
            raise ValueError(table_id)
        return float(created), table_id[:32]
    except ValueError:
        raise bad_request("before must be the next value of the previous page") from None


async def get_table(request: Request) -> Response:
    return JSON((await table_of(request)).info())


async def join(request: Request) -> Response:
    seat = int_param(request.path_params["seat"], "seat")
    assert seat is not None
    body = await body_of(request, Join)
    return JSON(await hub_of(request).join(await table_of(request), seat, body, token_of(request)))


async def invites(request: Request) -> Response:
    body = await body_of(request, Invite)
    hub = hub_of(request)
    return JSON(await hub.invite(await table_of(request), token_of(request), body, base_url(request)))


async def bots(request: Request) -> Response:
    body = await body_of(request, AddBot)
    return JSON(await hub_of(request).add_bot(await table_of(request), token_of(request), body))


async def start(request: Request) -> Response:
    await body_of(request, Start)
    return JSON(await hub_of(request).start(await table_of(request), token_of(request)))


# Personal keys, my games, rematches (issue 15; server/keys.py, server/players.py).

async def new_player(request: Request) -> Response:
    """A new personal key: limited like new tables (each is a row in the database)."""
    limits = limits_of(request)
    limits.check_rate(limits.client(request.scope))
    await body_of(request, NewPlayer)
    return JSON(await players.new_key(hub_of(request)), status_code=201)


async def my_tables(request: Request) -> Response:
    return JSON({"tables": await players.my_tables(hub_of(request), token_of(request))})


async def key_token(request: Request) -> Response:
    body = await body_of(request, KeyToken)
    table = await table_of(request)
    return JSON(await players.token_for(hub_of(request), table, token_of(request), body.get("seat")))


async def bind_key(request: Request) -> Response:
    body = await body_of(request, BindKey)
    table = await table_of(request)
    return JSON(await players.bind(hub_of(request), table, token_of(request), body["key"]))


async def rematch(request: Request) -> Response:
    body = await body_of(request, Rematch)
    table = await table_of(request)
    return JSON(await players.rematch(hub_of(request), table, token_of(request), body.get("key")))


# Playing.

async def away(request: Request) -> Response:
    """A stand-in takes the seat (issue 15): ``{leave: true}`` to leave the game for good."""
    hub = hub_of(request)
    body = await body_of(request, Away)
    table = await table_of(request)
    return JSON(await hub.away(table, hub.seat_of(table, token_of(request)), body))


async def back(request: Request) -> Response:
    """The seat's player takes it back from its stand-in."""
    hub = hub_of(request)
    await body_of(request, Back)
    table = await table_of(request)
    return JSON(await hub.back(table, hub.seat_of(table, token_of(request))))


async def notify(request: Request) -> Response:
    """GET: the seat's own e-mail settings; PUT: set them (issue 15, server/notify.py)."""
    hub = hub_of(request)
    body = await body_of(request, Notify) if request.method == "PUT" else None
    table = await table_of(request)
    seat = hub.seat_of(table, token_of(request))
    return JSON(hub.notify_info(table, seat) if body is None else await hub.set_contact(table, seat, body))


async def view(request: Request) -> Response:
    hub = hub_of(request)
    table = await table_of(request)
    seat = hub.viewer(table, token_of(request))
    since = int_param(request.query_params.get("since"), "since")
    message = hub.state_message(table, seat, None if since is None else table.entry_of(seat, since))
    with i18n.using_language(asked_language(request)):
        guide = guide_message(table, message["view"], table.shown_names())
    if guide is not None:  # a guided first game: its steps now, in ?lang= (docs/api.md, "Learn to play")
        message["guide"] = guide
    return JSON(message)


async def act(request: Request) -> Response:
    hub = hub_of(request)
    body = await body_of(request, Act)
    table = await table_of(request)
    seat = hub.seat_of(table, token_of(request))
    move_no = await hub.act(table, seat, action_field(body), move_no_field(body))
    return JSON({"ok": True, "move_no": move_no})


async def undo(request: Request) -> Response:
    hub = hub_of(request)
    body = await body_of(request, Undo)
    table = await table_of(request)
    seat = hub.seat_of(table, token_of(request))
    move_no = await hub.undo(table, seat, move_no_field(body))
    return JSON({"ok": True, "move_no": move_no})


async def hint(request: Request) -> Response:
    hub = hub_of(request)
    table = await table_of(request)
    return JSON(await hub.hint(table, hub.seat_of(table, token_of(request)), asked_language(request)))


async def record(request: Request) -> Response:
    table = await table_of(request)
    text = hub_of(request).record(table)
    return Response(text, media_type="application/x-ndjson",
                    headers={"content-disposition": f'attachment; filename="{table.row.game}-{table.id}.jsonl"'})


# The table chat (server/chat.py): anybody reads, a seat's player writes.

async def read_chat(request: Request) -> Response:
    """A page of the table's chat: at most ``limit`` messages from number ``after`` on (default: from the
    first); ``next`` is the ``after`` of the next page, None after the last (a whole chat can be 4 MB)."""
    hub = hub_of(request)
    table = await table_of(request)
    after = max(0, int_param(request.query_params.get("after"), "after", 0) or 0)
    limit = int_param(request.query_params.get("limit"), "limit", CHAT_PAGE)
    if limit is None or not 1 <= limit <= MAX_CHAT_PAGE:
        raise bad_request(f"limit must be from 1 to {MAX_CHAT_PAGE}")
    chat = await chat_of(hub, table)
    if hub.shared:
        await catch_up(hub, table)  # other processes' messages
    rows = chat.rows[after:after + limit]
    more = after + len(rows) < len(chat.rows)
    return JSON({"messages": [row.to_json() for row in rows], "next": after + len(rows) if more else None})


async def write_chat(request: Request) -> Response:
    hub = hub_of(request)
    body = await body_of(request, Chat)
    table = await table_of(request)
    row = await say(hub, table, hub.seat_of(table, token_of(request)), body["text"])
    return JSON({"ok": True, "no": row.no}, status_code=201)


# The WebSocket: the seat's state on connecting and after every change; auth, act, undo, ping.

Send = Callable[[dict[str, Any] | str], Awaitable[None]]
Auth = tuple[str | None, Seat | None]  # the socket's token and the seat it holds (None: a spectator)


async def refuse(websocket: WebSocket, send: Send, error: ApiError) -> None:
    await send({"type": "error", **error.to_json()})
    await websocket.close(code=4000 + error.status)


async def receive_message(websocket: WebSocket, timeout: float | None = None) -> str | bytes | None:
    """The next message's text, or None once the client has gone."""
    received = await asyncio.wait_for(websocket.receive(), timeout)
    if received["type"] == "websocket.disconnect":
        return None
    data: str | bytes | None = received.get("text")
    return data if data is not None else received.get("bytes") or b""


async def authenticate(websocket: WebSocket, hub: Hub, table: LiveTable, send: Send) -> Auth | None:
    """Who is on this socket: (token, seat), or None when the client has gone.  The token comes from
    the Authorization header (clients that can send headers), else from the first message
    ``{"type": "auth", "token": …}`` (browsers; no token: a spectator).  Never from the URL."""
    if "authorization" in websocket.headers or "token" in websocket.query_params:
        try:
            token = token_of(websocket)
            return token, hub.viewer(table, token)
        except ApiError as error:
            await refuse(websocket, send, error)
            return None
    loop = asyncio.get_running_loop()
    deadline = loop.time() + hub.config.auth_timeout
    while True:
        try:
            data = await receive_message(websocket, max(0.0, deadline - loop.time()))
        except TimeoutError:
            with contextlib.suppress(Exception):
                await refuse(websocket, send, ApiError(408, "no_auth", "no auth message came; the first message "
                                                                       'must be {"type": "auth", "token": …}'))
            return None
        if data is None:
            return None
        reply, auth = answer_auth(hub, table, data)
        await send(reply)
        if auth is not None:
            return auth


def answer_auth(hub: Hub, table: LiveTable, data: str | bytes) -> tuple[dict[str, Any], Auth | None]:
    """The answer to a message before the socket is authenticated, and who it is once it is."""
    ref: Any = None
    auth: Auth | None = None
    try:
        message = parse_ws(data, hub.config.max_message)
        ref = message.get("id")
        if message["type"] == "ping":
            reply: dict[str, Any] = {"type": "pong"}
        elif message["type"] != "auth":
            raise ApiError(401, "no_token", 'authenticate first: send {"type": "auth", "token": TOKEN} '
                                            "(without a token to watch)")
        else:
            token = field(message, "token", str, None)
            auth = token, hub.viewer(table, token)
            reply = {"type": "ok", "seat": auth[1]}
    except ApiError as error:
        reply = {"type": "error", **error.to_json()}
    if ref is not None:
        reply["id"] = ref
    return reply, auth


class SendWatch:
    """One watchdog for the sends of all sockets (instead of a timer per send): a send that has
    waited more than its timeout (the client reads nothing, so the transport stays paused) is
    cancelled, as ``asyncio.timeout`` would.  A send to a client that reads never waits at all."""

    def __init__(self) -> None:
        self.sending: dict[Sending, None] = {}  # sends in progress
        self.period = 1.0
        self.task: asyncio.Task[None] | None = None

    def start(self, sending: Sending) -> None:
        self.sending[sending] = None
        if sending.timeout / 4 < self.period:
            self.period = sending.timeout / 4
        if self.task is None or self.task.done() or self.task.get_loop() is not sending.loop:
            if self.task is not None and self.task.get_loop() is not sending.loop:
                self.sending = {sending: None}  # (tests: another event loop; the old one's sends are gone)
            self.task = sending.loop.create_task(self._watch(sending.loop))

    def stop(self, sending: Sending) -> None:
        self.sending.pop(sending, None)

    async def _watch(self, loop: asyncio.AbstractEventLoop) -> None:
        idle = 0
        while idle < 30:  # ends after a while without sends; the next send starts it again
            await asyncio.sleep(self.period)
            idle = 0 if self.sending else idle + 1
            now = loop.time()
            for sending in list(self.sending):
                if now - sending.since > sending.timeout and not sending.cut:
                    sending.cut = True
                    sending.task.cancel()


@dataclass(eq=False)
class Sending:
    loop: asyncio.AbstractEventLoop
    task: asyncio.Task[Any]
    since: float
    timeout: float
    cut: bool = False


WATCH = SendWatch()


def sender(websocket: WebSocket, timeout: float) -> Send:
    """Send messages one at a time; a client that reads none for ``timeout`` seconds is cut off
    (its messages would pile up in the server's memory)."""
    send_lock = asyncio.Lock()

    async def send(data: dict[str, Any] | str) -> None:
        async with send_lock:
            loop = asyncio.get_running_loop()
            task = asyncio.current_task()
            assert task is not None
            sending = Sending(loop, task, loop.time(), timeout)
            WATCH.start(sending)
            try:
                await websocket.send_text(data if isinstance(data, str) else dumps(data))
            except asyncio.CancelledError:
                if not sending.cut or task.uncancel() > 0:
                    raise
                log.info("WebSocket of %s reads too slowly: closed", websocket.client)
                with contextlib.suppress(Exception):  # the receiving loop then ends too
                    await asyncio.wait_for(websocket.close(1008, "too slow"), 5)
                raise WebSocketDisconnect(1008) from None
            except RuntimeError:  # Starlette's "closed already" (cut off above by another send): gone
                raise WebSocketDisconnect(1006) from None
            finally:
                WATCH.stop(sending)

    return send


async def table_socket(websocket: WebSocket) -> None:
    hub = hub_of(websocket)
    await websocket.accept()
    send = sender(websocket, hub.config.send_timeout)

    try:
        table = await hub.current(websocket.path_params["table_id"])
        since = int_param(websocket.query_params.get("since"), "since")
    except ApiError as error:
        await refuse(websocket, send, error)
        return
    auth = await authenticate(websocket, hub, table, send)
    if auth is None:
        return
    token, seat = auth
    if since is None or table.game is None:
        since = table.version if table.game is not None else -1
    else:
        since = table.entry_of(seat, since)
    sub = hub.subscribe(table, seat, since, token)
    deltas = wants_deltas(websocket)
    base: list[dict[str, Any] | None] = [None]  # the state the next delta patches (None: send a full state)

    async def push() -> None:
        while True:
            await sub.changed.wait()
            sub.changed.clear()
            if (lost := hub.seat_lost(table, sub)) is not None:
                await refuse(websocket, send, lost)
                return
            message = hub.state_message(table, seat, sub.sent)
            sub.sent = table.version if table.game is not None else -1  # before the start: setup events next
            if base[0] is None:
                text = dumps(message)
                if not sub.is_news(text):
                    continue
            else:
                delta = delta_message(base[0], message)
                if not delta["patch"] and not delta["events"]:
                    continue
                text = dumps(delta)
            base[0] = patch_base(message) if deltas else None
            await send(text)

    def resync() -> None:
        base[0], sub.last = None, ""
        sub.changed.set()

    pusher = asyncio.create_task(push())
    try:
        await answer_requests(websocket, hub, table, token, send, resync)
    finally:
        hub.unsubscribe(table, sub)
        pusher.cancel()
        with contextlib.suppress(BaseException):
            await pusher


def wants_deltas(websocket: WebSocket) -> bool:
    """``?deltas=1``: after the first full state, only what changed (``server/delta.py``)."""
    return websocket.query_params.get("deltas") == "1"


async def answer_requests(websocket: WebSocket, hub: Hub, table: LiveTable, token: str | None, send: Send,
                          resync: Callable[[], None]) -> None:
    """Answer the client's act, undo, hint, resync and ping messages until it disconnects."""
    try:
        while True:
            data = await receive_message(websocket)
            if data is None:
                return
            ref: Any = None
            try:
                message = parse_ws(data, hub.config.max_message)
                ref = message.get("id")
                reply: dict[str, Any] = {"type": "pong"} if message["type"] == "ping" else {"type": "ok"}
                if message["type"] == "act":
                    reply["move_no"] = await hub.act(table, hub.seat_of(table, token),
                                                     action_field(message), move_no_field(message))
                elif message["type"] == "undo":
                    reply["move_no"] = await hub.undo(table, hub.seat_of(table, token), move_no_field(message))
                elif message["type"] == "hint":
                    found = await hub.hint(table, hub.seat_of(table, token), asked_language(websocket))
                    reply = {"type": "hint", **found}
                elif message["type"] == "resync":
                    resync()
                elif message["type"] == "chat":
                    reply["no"] = (await say(hub, table, hub.viewer(table, token), message["text"])).no
                elif message["type"] == "auth":
                    raise conflict("this connection is authenticated already; to change seats, connect again")
            except ApiError as error:
                reply = {"type": "error", **error.to_json()}
                ref = ref if ref is not None else ws_ref(data)
            if ref is not None:
                reply["id"] = ref
            await send(reply)
    except WebSocketDisconnect:
        return


routes = [
    Route("/", index),
    Route("/api/health", health),
    Route("/api/games", games),
    Route("/api/tables", create_table, methods=["POST"]),
    Route("/api/tables", list_tables, methods=["GET"]),
    Route("/api/tables/{table_id}", get_table),
    Route("/api/tables/{table_id}/seats/{seat}", join, methods=["POST"]),
    Route("/api/tables/{table_id}/invites", invites, methods=["POST"]),
    Route("/api/tables/{table_id}/bots", bots, methods=["POST"]),
    Route("/api/tables/{table_id}/start", start, methods=["POST"]),
    Route("/api/tables/{table_id}/key", bind_key, methods=["POST"]),
    Route("/api/tables/{table_id}/rematch", rematch, methods=["POST"]),
    Route("/api/players", new_player, methods=["POST"]),
    Route("/api/players/me/tables", my_tables),
    Route("/api/players/me/tables/{table_id}/token", key_token, methods=["POST"]),
    Route("/api/tables/{table_id}/away", away, methods=["POST"]),
    Route("/api/tables/{table_id}/back", back, methods=["POST"]),
    Route("/api/tables/{table_id}/notify", notify, methods=["GET", "PUT"]),
    Route("/api/tables/{table_id}/view", view),
    Route("/api/tables/{table_id}/actions", act, methods=["POST"]),
    Route("/api/tables/{table_id}/undo", undo, methods=["POST"]),
    Route("/api/tables/{table_id}/record", record),
    Route("/api/tables/{table_id}/hint", hint),
    Route("/api/tables/{table_id}/chat", read_chat, methods=["GET"]),
    Route("/api/tables/{table_id}/chat", write_chat, methods=["POST"]),
    WebSocketRoute("/ws/tables/{table_id}", table_socket),
]
