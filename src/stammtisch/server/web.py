"""The browser client: its pages and static files, its UI texts, and the browser's WebSocket.

- ``/`` is the lobby, ``/play/{table_id}`` a table (waiting room, then the game), ``/my-games`` the
  tables of the browser's personal key; static HTML pages whose scripts (``/static/app.js``,
  ``/static/lobby.js``, ``/static/mygames.js``) do the rest.
- ``/api/i18n/{lang}`` gives the UI texts of ``stammtisch.web.strings`` and the word tables of the
  games' text modules, translated (made once per language, gzipped, with an ETag).
- ``/ws/play/{table_id}?lang=…&since=…`` speaks the protocol of ``/ws/tables/{id}``
  (docs/api.md; the first message authenticates) and adds to every state message the legal
  actions' labels and the events' sentences in the reader's language, and which seats are
  connected; when only that changes, a small ``presence`` message says so.  See docs/web.md.

A connect costs no replay: each table keeps the history a page shows per (seat, language), built
once by a replay that lets other tasks run, then followed entry by entry (``History``).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import Counter, OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from functools import cache, partial
from importlib import resources
from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route, WebSocketRoute
from starlette.websockets import WebSocket

from stammtisch import i18n
from stammtisch.engine.match import Match
from stammtisch.engine.protocol import Action, Event, Game, Seat
from stammtisch.engine.record import action_from_json
from stammtisch.i18n import _
from stammtisch.registry import game_spec, games
from stammtisch.server.api import (
    JSON,
    answer_requests,
    authenticate,
    dumps,
    dumps_bytes,
    hub_of,
    int_param,
    refuse,
    sender,
    token_of,
    wants_deltas,
)
from stammtisch.server.chat import chat_of
from stammtisch.server.delta import ViewPatches, delta_message, patch_base
from stammtisch.server.guide import guide_message
from stammtisch.server.livetable import LiveTable, Subscriber
from stammtisch.server.messages import ApiError
from stammtisch.server.replay import Replays, replay_answer, seat_replay
from stammtisch.server.static import StaticFile, StaticFiles, packed, served
from stammtisch.server.tables import Hub
from stammtisch.web.rules import rules_html
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

FILES = StaticFiles(Path(str(STATIC)), {k: v for k, v in HEADERS.items() if k != "content-security-policy"})


def page(name: str) -> Callable[[Request], Any]:
    async def serve(request: Request) -> Response:
        return FILES.response(request, name, HEADERS, "text/html; charset=utf-8")

    return serve


@cache
def game_files() -> dict[str, StaticFiles]:
    """The browser module and stylesheet of each game installed from another distribution, by name."""
    found: dict[str, StaticFiles] = {}
    for spec in games().values():
        if spec.browser_files:
            folder = StaticFiles(Path(str(spec.static_folder())), FILES.headers)
            found |= dict.fromkeys((spec.browser, spec.browser.removesuffix(".js") + ".css"), folder)
    return found


async def static_file(request: Request) -> Response:
    name = request.path_params["name"]
    return game_files().get(name, FILES).response(request, name)


# Texts.

def language_of(request_lang: str | None, accept: str | None) -> str:
    if request_lang in i18n.LANGUAGES:  # the usual case, asked at every connect: no need to normalize
        return request_lang
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


_texts: dict[str, StaticFile] = {}  # language → its texts, made once per process (the catalogs are read once too)


def texts_of(code: str) -> StaticFile:
    """The UI texts and word tables of one language as ``/api/i18n`` sends them: made, compressed and tagged
    once (issue 25: 34–37 KB went uncompressed on every page load)."""
    found = _texts.get(code)
    if found is None:
        with i18n.using_language(code):
            texts = {text: i18n._(text) for text in all_texts()}
            terms = {game: word_tables(game) for game in games()}
        body = dumps_bytes({"lang": code, "languages": i18n.LANGUAGES, "strings": texts, "terms": terms})
        found = _texts[code] = packed(body, "application/json", time.time())
    return found


async def ui_texts(request: Request) -> Response:
    """Gzipped where the browser takes it; revalidated on every load (the texts change with an upgrade), a copy
    the browser holds answered by 304 without a body (its ETag)."""
    code = language_of(request.path_params["lang"], request.headers.get("accept-language"))
    return served(request, texts_of(code), {"cache-control": "no-cache"})


async def rules_page(request: Request) -> Response:
    """A game's short rules page in the reader's language (``?lang=``, else the browser's)."""
    spec = games().get(request.path_params["game"])
    if spec is None or not spec.rules_page:
        return Response("no such game", status_code=404, media_type="text/plain; charset=utf-8", headers=HEADERS)
    code = language_of(request.query_params.get("lang"), request.headers.get("accept-language"))
    with i18n.using_language(code):
        return Response(rules_html(spec), media_type="text/html; charset=utf-8", headers=HEADERS)


class Describer:
    """A game's sentences (registry.py, GameText) with the fallback of a bare kind."""

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


def translate(message: dict[str, Any], table: LiveTable, lang: str,
              sentences: list[str] | None = None) -> dict[str, Any]:
    """Add ``labels`` (parallel to ``legal``) and ``sentences`` (parallel to ``events``) in ``lang``
    (``sentences`` when they are already written)."""
    view = message.get("view")
    if view is None:  # (no board: not started, over without its rules, or a game this server no longer has)
        message["labels"], message["sentences"] = [], []
        return message
    text = describer(table.row.game)
    with i18n.using_language(lang):
        names = table.shown_names()
        message["labels"] = [label(text, a, view, names) for a in message["legal"]]
        message["sentences"] = sentences if sentences is not None else [
            by_standin(sentence(text, Event(e["kind"], e["params"]), view, names), "standin" in e)
            for e in message["events"]]
        guide = guide_message(table, view, names)
        if guide is not None:  # a guided first game (docs/web.md, "Learn to play")
            message["guide"] = guide
    return message


@dataclass
class History:
    """The sentences a page shows of one table, per (seat, language): every sentence that seat may
    read from the start, each written with the view of its own time (states leave and enter the
    boards: "Saarland leaves the game" must name the state of then).

    Each move extends the histories that sockets read now and, for ``keep_seconds``, those read
    before (at most ``max_idle`` of them): the rest are dropped and built again when somebody asks.
    So a move costs as many renderings as there are (seat, language) pairs watching lately, however
    many sockets came and went."""

    keep_seconds: float = 60.0
    max_idle: int = 10
    lines: dict[tuple[Seat | None, str], list[str]] = field(default_factory=dict)
    # parallel to ``lines``: each line's event as a state message sends it (kind, params, entry, by)
    events: dict[tuple[Seat | None, str], list[dict[str, Any]]] = field(default_factory=dict)
    building: dict[tuple[Seat | None, str], asyncio.Future[None]] = field(default_factory=dict)
    readers: Counter[tuple[Seat | None, str]] = field(default_factory=Counter)
    added: dict[tuple[Seat | None, str], tuple[int, int]] = field(default_factory=dict)  # (entry, its lines)
    idle: OrderedDict[tuple[Seat | None, str], float] = field(default_factory=OrderedDict)  # key → left at

    def enter(self, key: tuple[Seat | None, str]) -> None:
        self.readers[key] += 1
        self.idle.pop(key, None)

    def leave(self, key: tuple[Seat | None, str]) -> None:
        self.readers[key] -= 1
        if self.readers[key] > 0:
            return
        del self.readers[key]
        self.idle[key] = time.monotonic()
        self.forget_idle()

    def forget_idle(self) -> None:
        too_old = time.monotonic() - self.keep_seconds
        while self.idle and (len(self.idle) > self.max_idle or next(iter(self.idle.values())) <= too_old):
            dropped, _ = self.idle.popitem(last=False)
            self.lines.pop(dropped, None)
            self.events.pop(dropped, None)
            self.added.pop(dropped, None)

    def follow(self, table: LiveTable, events: list[Event]) -> None:
        """After each entry (the table's state is the one after it): extend every kept history."""
        assert table.game is not None
        self.forget_idle()
        text = describer(table.row.game)
        standin = table.version in table.standin_entries
        assert table.match is not None
        by = table.match.log[-1][0]
        for (seat, lang), lines in self.lines.items():
            visible = [e for e in events if e.visible_to(seat)]
            if visible:
                view = table.view(seat)
                with i18n.using_language(lang):
                    names = table.shown_names()
                    lines.extend(by_standin(sentence(text, e, view, names), standin) for e in visible)
                self.events[(seat, lang)].extend(logged(e, table.version, by, standin) for e in visible)
            self.added[(seat, lang)] = (table.version, len(visible))

    def last_entry(self, table: LiveTable, seat: Seat | None, lang: str) -> list[str] | None:
        """The sentences of the table's last entry, if this history has them written."""
        lines = self.lines.get((seat, lang))
        entry, count = self.added.get((seat, lang), (-1, 0))
        if lines is None or entry != table.version:
            return None
        return lines[len(lines) - count:] if count else []

    async def get(self, table: LiveTable, seat: Seat | None, lang: str) -> list[str]:
        """The history up to the table's current entry, kept so from then on: the caller reads it
        until it calls ``leave``."""
        key = (seat, lang)
        self.enter(key)  # before waiting: a history somebody waits for is never dropped
        try:
            while key not in self.lines:
                building = self.building.get(key)
                if building is None:
                    building = self.building[key] = asyncio.ensure_future(self._build(table, seat, lang))
                    building.add_done_callback(lambda _: self.building.pop(key, None))
                await asyncio.shield(building)
        except BaseException:
            self.leave(key)
            raise
        return self.lines[key]

    async def _build(self, table: LiveTable, seat: Seat | None, lang: str,
                     slice_seconds: float = 0.004) -> None:
        """Replay the log beside the table, letting other tasks run every few milliseconds, until it
        reaches the table's entry; from then on ``follow`` keeps it."""
        assert table.match is not None
        match = Match(table.match.game, table.row.seed, undo=True)  # take-backs are entries of the log too
        text = describer(table.row.game)
        with i18n.using_language(lang):
            names = table.shown_names()
        lines: list[str] = []
        logged_events: list[dict[str, Any]] = []

        def add(events: list[Event], entry: int = 0, by: Seat | None = None, standin: bool = False) -> None:
            visible = [e for e in events if e.visible_to(seat)]
            if visible:
                view = match.view(seat)
                lines.extend(by_standin(sentence(text, e, view, names), standin) for e in visible)
                logged_events.extend(logged(e, entry, by, standin) for e in visible)

        with i18n.using_language(lang):
            add(list(match.setup_events))
            deadline = time.perf_counter() + slice_seconds
            while match.version < table.version:  # the table's own log: no database, and it may grow meanwhile
                entry = match.version + 1
                seat_of_entry, action = table.match.log[entry - 1]
                add(match.enter(seat_of_entry, action), entry, seat_of_entry, entry in table.standin_entries)
                if time.perf_counter() > deadline:
                    await asyncio.sleep(0)
                    deadline = time.perf_counter() + slice_seconds
        self.lines[(seat, lang)] = lines  # at the table's entry: no await since the last check
        self.events[(seat, lang)] = logged_events


def logged(event: Event, entry: int, by: Seat | None, standin: bool) -> dict[str, Any]:
    """A history line's event, as a state message sends it (``TableHub.state_message``)."""
    data = {**event.to_json(), "entry": entry, "by": by}
    if standin:
        data["standin"] = True
    return data


def by_standin(line: str, standin: bool) -> str:
    """A log line of a move a stand-in made for an absent player is marked so (issue 15)."""
    return _("{line} (stand-in)").format(line=line) if standin else line


def history_of(table: LiveTable) -> History:
    found: History | None = table.caches.get("history")
    if found is None:
        found = table.caches["history"] = History()
        table.on_entry.append(found.follow)
    return found


def connected(table: LiveTable) -> list[int]:
    return sorted(table.watching)


Built = list[Any]  # [a state message, its text once asked for (full_text)]
StateCache = tuple[tuple[Any, ...], dict[tuple[Seat | None, str, int], Built],
                   dict[tuple[Seat | None, int], dict[str, Any]], dict[tuple[Seat | None, str], Built],
                   dict[tuple[int, int], tuple[dict[str, Any], str]], ViewPatches]


def _state_cache(table: LiveTable) -> StateCache:
    """The messages built since the table last changed (a move, a seat's connect or leave, a seat
    taken): messages per (seat, language, entry seen), their language-free bases per (seat, entry
    seen), first states per (seat, language), deltas per (message before, message now) and the
    patches of their views (shared by the languages of one seat).  Keyed
    by seat: a seat's message is only ever sent to sockets of that same seat."""
    stamp = (table.version, table.status, tuple(connected(table)),
             tuple((s.seat, s.kind, s.name) for s in table.seats.values()), len(table.changes), table.row.rematch)
    cached: StateCache | None = table.caches.get("states")
    if cached is None or cached[0] != stamp:
        cached = table.caches["states"] = (stamp, {}, {}, {}, {}, {})
    return cached


def _base(hub: Hub, table: LiveTable, cached: StateCache, seat: Seat | None, since: int) -> dict[str, Any]:
    """The view is the same in every language: built once, translated per language."""
    base = cached[2].get((seat, since))
    if base is None:
        base = cached[2][(seat, since)] = hub.state_message(table, seat, since, entries=True)
    return base


def state_text(hub: Hub, table: LiveTable, seat: Seat | None, lang: str, since: int) -> Built:
    """The state message for a socket that has seen entries up to ``since``: the same for every
    spectator in one language, so it is built once per change, not once per socket."""
    cached = _state_cache(table)
    key = (seat, lang, since)
    built = cached[1].get(key)
    if built is None:
        history: History | None = table.caches.get("history")
        written = history.last_entry(table, seat, lang) if history and since == table.version - 1 else None
        message = translate(dict(_base(hub, table, cached, seat, since)), table, lang, written)
        message["connected"] = list(cached[0][2])
        message["lang"] = lang
        built = cached[1][key] = [message, None]
    return built


def first_state_text(hub: Hub, table: LiveTable, seat: Seat | None, lang: str, lines: list[str],
                     log_events: list[dict[str, Any]]) -> Built:
    """A socket's first state: the history so far (``lines`` and their events, at the table's current
    entry) and what never changes at the table.  The same for every socket of one (seat, language) until the table
    changes, so another connect costs a look-up."""
    assert table.game is not None
    cached = _state_cache(table)
    built = cached[3].get((seat, lang))
    if built is None:
        message = translate(dict(_base(hub, table, cached, seat, table.version)), table, lang, lines)
        message.update(events=[], history=True, log_events=log_events, connected=list(cached[0][2]), lang=lang,
                       describe=described(table.game, lang))
        built = cached[3][(seat, lang)] = [message, None]
    return built


def full_text(built: Built) -> str:
    """A built message's text, made once for every socket that sends it whole (a socket that asked
    for deltas seldom does: a delta costs no full text)."""
    if built[1] is None:
        built[1] = dumps(built[0])
    text: str = built[1]
    return text


def delta_text(table: LiveTable, before: dict[str, Any], message: dict[str, Any]) -> str | None:
    """The delta from the state message ``before`` to ``message`` (both of one seat and language), or
    None when it would change nothing; built once for all sockets that were sent the same ``before``."""
    cached = _state_cache(table)
    key = (id(before), id(message))
    found = cached[4].get(key)
    if found is None or found[0] is not before:
        delta = delta_message(patch_base(before), message, cached[5])
        text = dumps(delta) if delta["patch"] or delta["events"] else ""
        found = cached[4][key] = (before, text)  # holds ``before``: its id is not reused meanwhile
    return found[1] or None


_described: dict[tuple[int, str], tuple[Game[Any], dict[str, Any]]] = {}


def described(game: Game[Any], lang: str) -> dict[str, Any]:
    """``game.describe()`` in ``lang``, once per game object (tables of one configuration share it)."""
    found = _described.get((id(game), lang))
    if found is None or found[0] is not game:
        if len(_described) >= 1024:
            _described.clear()
        with i18n.using_language(lang):
            found = _described[(id(game), lang)] = (game, game.describe())
    return found[1]


# Replays (issue 14; server/replay.py): positions as the spectators saw them; a seat's own (issue 25).

_replays = Replays()


async def replay(request: Request) -> Response:
    """``GET /api/tables/{id}/replay?move=N&lang=``: position N of the game for spectators (docs/api.md)."""
    token_of(request)  # refuses a token in the address; the answer is the same for everybody
    table = await hub_of(request).current(request.path_params["table_id"])
    move = int_param(request.query_params.get("move"), "move")
    lang = language_of(request.query_params.get("lang"), request.headers.get("accept-language"))
    answer = await replay_answer(_replays, table, move, lang, partial(sentence, describer(table.row.game)))
    # A finished game's positions never change; a running game's latest one does
    cache = "max-age=86400" if table.status == "finished" and move is not None else "no-cache"
    return JSON(answer, headers={"cache-control": cache})


async def replay_of_seat(request: Request) -> Response:
    """``GET /api/tables/{id}/replay/seat?lang=`` with a seat token: the seat's whole replay of the
    finished game (docs/api.md); never stored by a cache, sent gzipped to a client that takes it."""
    hub = hub_of(request)
    table = await hub.current(request.path_params["table_id"])
    seat = hub.seat_of(table, token_of(request))
    lang = language_of(request.query_params.get("lang"), request.headers.get("accept-language"))
    plain, gzipped = await seat_replay(_replays, table, seat, lang, partial(sentence, describer(table.row.game)))
    headers = {"cache-control": "no-store", "vary": "accept-encoding"}
    if "gzip" in request.headers.get("accept-encoding", ""):
        return Response(gzipped, media_type="application/json", headers={**headers, "content-encoding": "gzip"})
    return Response(plain, media_type="application/json", headers=headers)


# Browser sockets per table, each with its send: a seat's connect or leave is a small message to them.
@dataclass(eq=False)
class Watcher:
    sub: Subscriber
    send: Callable[[dict[str, Any] | str], Awaitable[None]]
    telling: asyncio.Task[None] | None = None
    chat_sent: int = -1  # chat messages sent so far (-1: none, not even the history)
    chatting: asyncio.Task[None] | None = None


_watchers: dict[str, set[Watcher]] = {}


def tell_presence(table: LiveTable, watchers: set[Watcher], before: list[int]) -> None:
    """One small message to each socket of the table when the connected seats changed (spectators
    coming and going change nothing); a socket already being told gets the newest list."""
    if connected(table) == before:
        return
    for watcher in watchers:
        if watcher.telling is None or watcher.telling.done():
            watcher.telling = asyncio.create_task(_presence(table, watcher))


async def _presence(table: LiveTable, watcher: Watcher) -> None:
    with contextlib.suppress(Exception):
        await watcher.send({"type": "presence", "connected": connected(table)})


# The table chat (server/chat.py): the last CHAT_HISTORY messages once, then each new one.
CHAT_HISTORY = 200


def chat_listener(table: LiveTable) -> None:
    for watcher in _watchers.get(table.id, ()):
        tell_chat(table, watcher)


def tell_chat(table: LiveTable, watcher: Watcher) -> None:
    if watcher.chatting is None or watcher.chatting.done():
        watcher.chatting = asyncio.create_task(_chat(table, watcher))


async def _chat(table: LiveTable, watcher: Watcher) -> None:
    """``{"type": "chat", "messages": [...]}`` with what this socket has not had yet; the first one
    (``history: true``) replaces what the page shows."""
    chat = table.chat
    with contextlib.suppress(Exception):
        while chat is not None and watcher.chat_sent < len(chat.rows):
            first = watcher.chat_sent < 0
            rows = chat.rows[max(0, len(chat.rows) - CHAT_HISTORY) if first else watcher.chat_sent:]
            watcher.chat_sent = len(chat.rows)
            message: dict[str, Any] = {"type": "chat", "messages": [row.to_json() for row in rows]}
            if first:
                message["history"] = True
            await watcher.send(message)


async def watch_chat(hub: Hub, table: LiveTable, watcher: Watcher) -> None:
    chat = await chat_of(hub, table)
    if chat_listener not in chat.listeners:
        chat.listeners.append(chat_listener)
    tell_chat(table, watcher)


# The browser's socket.

async def play_socket(websocket: WebSocket) -> None:
    hub = hub_of(websocket)
    await websocket.accept()
    send = sender(websocket, hub.config.send_timeout)
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
    before = connected(table)
    sub = hub.subscribe(table, seat, table.version if full else min(table.entry_of(seat, since), table.version), token)
    watchers = _watchers.setdefault(table.id, set())
    watcher = Watcher(sub, send)
    watchers.add(watcher)
    tell_presence(table, watchers - {watcher}, before)
    if websocket.query_params.get("chat") == "1":  # the page shows the table chat
        with contextlib.suppress(Exception):  # a chat that cannot be read leaves the game playable
            await watch_chat(hub, table, watcher)

    deltas = wants_deltas(websocket)
    last_state: list[dict[str, Any] | None] = [None]  # the state the next delta patches (None: send a full state)

    async def push() -> None:
        first = full
        while True:
            await sub.changed.wait()
            sub.changed.clear()
            if (lost := hub.seat_lost(table, sub)) is not None:  # (issue 26: the seat is no longer this token's)
                await refuse(websocket, send, lost)
                return
            if first and table.game is not None:
                history = history_of(table)
                lines = await history.get(table, seat, lang)
                reading.append(history)
                built = first_state_text(hub, table, seat, lang, lines, history.events[(seat, lang)])
                whole, first = True, False  # the history and describe() go whole, never in a delta
            else:
                built = state_text(hub, table, seat, lang, sub.sent)
                whole = False
            sub.sent = table.version if table.game is not None else -1
            if not whole and last_state[0] is not None:
                text = delta_text(table, last_state[0], built[0])
                if text is None:
                    continue
            else:
                text = full_text(built)
                if not sub.is_news(text):
                    continue
            last_state[0] = built[0] if deltas else None
            await send(text)

    def resync() -> None:
        last_state[0], sub.last = None, ""
        sub.changed.set()

    reading: list[History] = []  # the history this socket reads, once it has had it
    pusher = asyncio.create_task(push())
    try:
        await answer_requests(websocket, hub, table, token, send, resync)
    finally:
        for history in reading:
            history.leave((seat, lang))
        before = connected(table)
        hub.unsubscribe(table, sub)
        watchers.discard(watcher)
        if not watchers and _watchers.get(table.id) is watchers:
            _watchers.pop(table.id, None)
        tell_presence(table, watchers, before)
        if watcher.chatting is not None:
            watcher.chatting.cancel()
        pusher.cancel()
        with contextlib.suppress(BaseException):
            await pusher


routes: list[BaseRoute] = [
    Route("/", page("lobby.html")),
    Route("/play/{table_id}", page("game.html")),
    Route("/my-games", page("mygames.html")),
    Route("/rules/{game}", rules_page),
    Route("/api/i18n/{lang}", ui_texts),
    Route("/api/tables/{table_id}/replay", replay),
    Route("/api/tables/{table_id}/replay/seat", replay_of_seat),
    WebSocketRoute("/ws/play/{table_id}", play_socket),
    Route("/static/{name}", static_file, name="static"),
]
