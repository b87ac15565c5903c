"""The browser client: its pages and static files, its UI texts, and the browser's WebSocket.

- ``/`` is the lobby, ``/play/{table_id}`` a table (waiting room, then the game); both are static
  HTML pages whose scripts (``/static/app.js``, ``/static/lobby.js``) do the rest.
- ``/api/i18n/{lang}`` gives the UI texts of ``stammtisch.web.strings`` and the word tables of the
  games' text modules, translated.
- ``/ws/play/{table_id}?lang=…&since=…`` speaks the protocol of ``/ws/tables/{id}``
  (docs/api.md; the first message authenticates) and adds to every state message the legal
  actions' labels and the events' sentences in the reader's language, and which seats are
  connected.  See docs/web.md.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from importlib import resources
from typing import Any

from starlette.requests import Request
from starlette.responses import FileResponse, Response
from starlette.routing import BaseRoute, Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket

from stammtisch import i18n
from stammtisch.engine.protocol import Action, Event, Game
from stammtisch.engine.record import action_from_json
from stammtisch.engine.registry import game_spec, games, make_game
from stammtisch.engine.step import step
from stammtisch.server.api import JSON, answer_requests, authenticate, hub_of, int_param, refuse, sender
from stammtisch.server.messages import ApiError
from stammtisch.server.tables import Hub, LiveTable, Subscriber
from stammtisch.web.strings import all_texts

STATIC = resources.files("stammtisch.web") / "static"
# Nothing from elsewhere: scripts, styles, images and sockets of this server only.
HEADERS = {
    "content-security-policy": "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
                               "img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'",
    "referrer-policy": "no-referrer",  # the page's address may hold an invitation (in its #fragment)
    "x-content-type-options": "nosniff",
    "cache-control": "no-cache",
}

# Browser sockets per table: they are told when somebody connects or leaves.
_watchers: dict[str, set[Subscriber]] = {}


def page(name: str) -> Callable[[Request], Any]:
    async def serve(request: Request) -> Response:
        return FileResponse(str(STATIC / name), media_type="text/html; charset=utf-8", headers=HEADERS)

    return serve


class Static(StaticFiles):
    def file_response(self, *args: Any, **kwargs: Any) -> Response:
        response = super().file_response(*args, **kwargs)
        response.headers.update({k: v for k, v in HEADERS.items() if k != "content-security-policy"})
        return response


# Texts.

def language_of(request_lang: str | None, accept: str | None) -> str:
    if request_lang:
        try:
            with i18n.using_language(request_lang) as code:
                return code
        except ValueError:
            pass
    return i18n.best_language(accept)


def word_tables(game: str) -> dict[str, Any]:
    """The module-level word tables (UPPER_CASE dicts and tuples of N_ texts) of a game's text
    module, translated into the current language."""
    module = game_spec(game).texts()
    tables: dict[str, Any] = {}
    for name, value in vars(module).items():
        if not name.isupper() or name.startswith("_"):
            continue
        if isinstance(value, dict) and all(isinstance(v, str) for v in value.values()):
            tables[name] = {k: i18n._(v) for k, v in value.items()}
        elif isinstance(value, tuple) and value and all(isinstance(v, str) for v in value):
            tables[name] = [i18n._(v) for v in value]
    return tables


async def ui_texts(request: Request) -> Response:
    code = language_of(request.path_params["lang"], request.headers.get("accept-language"))
    with i18n.using_language(code):
        texts = {text: i18n._(text) for text in all_texts()}
        terms = {game: word_tables(game) for game in games()}
    return JSON({"lang": code, "languages": i18n.LANGUAGES, "strings": texts, "terms": terms},
                headers={"cache-control": "no-cache"})


class Describer:
    """A game's sentences (engine/registry.py, GameText) with the fallback of a bare kind."""

    def __init__(self, game: str) -> None:
        self.text = game_spec(game).texts()

    def event(self, event: Event, view: dict[str, Any], names: list[str]) -> str:
        return self.text.describe_event(event, view, names)

    def action(self, action: Action, view: dict[str, Any], names: list[str]) -> str:
        return self.text.describe_action(action, view, names)


_describers: dict[str, Describer] = {}


def describer(game: str) -> Describer:
    found = _describers.get(game)
    if found is None:
        found = _describers[game] = Describer(game)
    return found


def sentence(text: Describer, event: Event, view: dict[str, Any], names: list[str]) -> str:
    try:
        if event.kind == "undo":
            seat = event.params.get("seat")
            name = names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"
            return i18n._("{name} takes back their last move").format(name=name)
        return text.event(event, view, names)
    except Exception:  # a sentence that cannot be written must not end the connection
        return event.kind.replace("_", " ")


def label(text: Describer, action: list[Any], view: dict[str, Any], names: list[str]) -> str:
    try:
        return text.action(action_from_json(action), view, names)
    except Exception:
        return " ".join(str(x) for x in action)


def translate(message: dict[str, Any], table: LiveTable, lang: str) -> dict[str, Any]:
    """Add ``labels`` (parallel to ``legal``) and ``sentences`` (parallel to ``events``) in ``lang``."""
    view = message.get("view")
    names = table.names()
    text = describer(table.row.game)
    with i18n.using_language(lang):
        if view is None:
            message["labels"], message["sentences"] = [], []
            return message
        message["labels"] = [label(text, a, view, names) for a in message["legal"]]
        message["sentences"] = [sentence(text, Event(e["kind"], e["params"]), view, names) for e in message["events"]]
    return message


async def history(hub: Hub, table: LiveTable, seat: int | None, lang: str, upto: int) -> list[str]:
    """Every sentence this seat may read from the start, each written with the view of its own time
    (states leave and enter the boards: "Saarland leaves the game" must name the state of then)."""
    if table.game is None:
        return []
    game: Game[Any] = make_game(table.row.game, table.row.players, table.row.options)
    state, setup = game.new_state(table.row.seed)
    names = table.names()
    text = describer(table.row.game)
    sentences: list[str] = []
    before: list[Any] = []

    def add(events: list[Event]) -> None:
        visible = [e for e in events if e.visible_to(seat)]
        if visible:
            view = game.view(state, seat)
            sentences.extend(sentence(text, e, view, names) for e in visible)

    entries = await hub.store.moves(table.id)
    with i18n.using_language(lang):
        add(list(setup))
        for entry in entries[:upto]:
            if entry.action is None:  # a take-back
                if before:
                    state = before.pop()
                add([Event("undo", {"seat": entry.seat})])
                continue
            before.append(game.copy(state))
            add(step(game, state, entry.seat, action_from_json(entry.action)))
    return sentences


def connected(table: LiveTable) -> list[int]:
    return sorted({sub.seat for sub in table.subscribers if sub.seat is not None})


def tell_watchers(table: LiveTable) -> None:
    for sub in _watchers.get(table.id, ()):
        sub.changed.set()


# The browser's socket.

async def play_socket(websocket: WebSocket) -> None:
    hub = hub_of(websocket)
    await websocket.accept()
    send = sender(websocket)
    lang = language_of(websocket.query_params.get("lang"), websocket.headers.get("accept-language"))
    try:
        table = await hub.current(websocket.path_params["table_id"])
        since = int_param(websocket.query_params.get("since"), "since", -1)
    except ApiError as error:
        await refuse(websocket, send, error)
        return
    auth = await authenticate(websocket, hub, table, send)
    if auth is None:
        return
    token, seat = auth
    assert since is not None
    full = since < 0 or table.game is None
    sub = hub.subscribe(table, seat, table.version if full else min(since, table.version))
    watchers = _watchers.setdefault(table.id, set())
    watchers.add(sub)
    tell_watchers(table)

    async def push() -> None:
        first = full
        while True:
            await sub.changed.wait()
            sub.changed.clear()
            message = hub.state_message(table, seat, sub.sent)
            sub.sent = table.version if table.game is not None else -1
            translate(message, table, lang)
            if first and table.game is not None:
                with i18n.using_language(lang):
                    message["describe"] = table.game.describe()  # what never changes at this table, once
                message["sentences"] = await history(hub, table, seat, lang, message["move_no"])
                message["events"] = []
                message["history"] = True
                first = False
            message["connected"] = connected(table)
            message["lang"] = lang
            await send(message)

    pusher = asyncio.create_task(push())
    try:
        await answer_requests(websocket, hub, table, token, send)
    finally:
        hub.unsubscribe(table, sub)
        watchers.discard(sub)
        if not watchers:
            _watchers.pop(table.id, None)
        tell_watchers(table)
        pusher.cancel()
        with contextlib.suppress(BaseException):
            await pusher


routes: list[BaseRoute] = [
    Route("/", page("lobby.html")),
    Route("/play/{table_id}", page("game.html")),
    Route("/api/i18n/{lang}", ui_texts),
    WebSocketRoute("/ws/play/{table_id}", play_socket),
    Mount("/static", app=Static(directory=str(STATIC)), name="static"),
]
