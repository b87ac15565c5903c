"""Nothing an anonymous client does costs the server more than it costs the client (issue #9,
"Resources"): presence messages, no replay per connect, bounded memory, per-client limits,
timeouts, lobby pages, compressed static files."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import socket
import time
import weakref
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from uvicorn.server import ServerState

from stammtisch.server import web
from stammtisch.server.api import sender
from stammtisch.server.app import create_app
from stammtisch.server.collector import freeze_periodically
from stammtisch.server.config import Config
from stammtisch.server.limits import http_protocol
from stammtisch.server.tables import Hub
from stammtisch.server.web import History, history_of
from tests.server.helpers import ServerProcess


def app_client(tmp_path: Path, **limits: Any) -> TestClient:
    return TestClient(create_app(Config(data_dir=tmp_path, bot_delay=0.0, **limits)))


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with app_client(tmp_path) as client:
        yield client


@contextlib.contextmanager
def sock(client: TestClient, path: str, token: str | None = None, **kwargs: Any) -> Iterator[Any]:
    """A WebSocket that says who it is with its first message (no token: a spectator)."""
    with client.websocket_connect(path, **kwargs) as ws:
        ws.send_json({"type": "auth", "token": token} if token else {"type": "auth"})
        yield ws


def hub_of(client: TestClient) -> Hub:
    hub: Hub = client.app.state.hub  # type: ignore[attr-defined]
    return hub


def create(client: TestClient, players: int = 3) -> tuple[str, str]:
    response = client.post("/api/tables", json={"game": "diemacher", "players": players, "options": {}})
    assert response.status_code == 201, response.text
    data = response.json()
    return data["table_id"], data["host_token"]


def started(client: TestClient) -> tuple[str, list[str]]:
    """A Die Macher table of three people, started: nothing moves until somebody acts."""
    table_id, host = create(client)
    tokens = [client.post(f"/api/tables/{table_id}/seats/{seat}", json={"name": f"P{seat}"}).json()["token"]
              for seat in range(3)]
    assert client.post(f"/api/tables/{table_id}/start", json={},
                       headers={"authorization": f"Bearer {host}"}).status_code == 200
    return table_id, tokens


def state(ws: Any) -> dict[str, Any]:
    while True:
        message: dict[str, Any] = ws.receive_json()
        if message["type"] == "state":
            return message


def play(client: TestClient, table_id: str, tokens: list[str], moves: int) -> None:
    for _ in range(moves):
        view = client.get(f"/api/tables/{table_id}/view").json()
        seat = view["to_act"][0]
        mine = client.get(f"/api/tables/{table_id}/view", headers={"authorization": f"Bearer {tokens[seat]}"}).json()
        response = client.post(f"/api/tables/{table_id}/actions", json={"action": mine["legal"][0],
                                                                        "move_no": mine["move_no"]},
                               headers={"authorization": f"Bearer {tokens[seat]}"})
        assert response.status_code == 200, response.text


# Presence.

def test_a_seat_connecting_is_a_small_message_and_spectators_cost_the_others_nothing(client: TestClient) -> None:
    # issue #9 Resources item 1: presence changes are small messages, the fan-out linear
    table_id, tokens = started(client)
    with sock(client, f"/ws/play/{table_id}") as watcher:
        assert state(watcher)["connected"] == []
        with sock(client, f"/ws/play/{table_id}"), sock(client, f"/ws/play/{table_id}"):
            pass  # two spectators come and go: the watcher hears nothing of it
        with sock(client, f"/ws/play/{table_id}", tokens[1]) as seat:
            assert state(seat)["seat"] == 1
            assert watcher.receive_json() == {"type": "presence", "connected": [1]}
        assert watcher.receive_json() == {"type": "presence", "connected": []}


# No replay per connect.

def test_a_connect_replays_nothing_once_the_history_is_kept(client: TestClient, monkeypatch: Any) -> None:
    # issue #9 Resources item 2: a connect costs no replay; the kept history follows the moves
    table_id, tokens = started(client)
    with sock(client, f"/ws/play/{table_id}?lang=de") as first:
        seen = state(first)["sentences"]
        play(client, table_id, tokens, 12)
        message = {"move_no": 0}
        while message["move_no"] < 12:  # the pushes after each move: the history read so far goes on
            message = state(first)
            seen += message["sentences"]
    steps = []

    class Counted(web.Match):  # the history replays the log through a Match of its own
        def enter(self, *args: Any) -> Any:
            steps.append(1)
            return super().enter(*args)

    monkeypatch.setattr(web, "Match", Counted)
    with sock(client, f"/ws/play/{table_id}?lang=de") as second:
        kept = state(second)
    assert steps == [] and kept["history"] and kept["move_no"] == 12
    # The history kept move by move is the one a fresh replay writes.
    hub = hub_of(client)
    table = hub.tables[table_id]
    fresh = History()
    client.portal.call(fresh.get, table, None, "de")  # type: ignore[union-attr]
    assert steps and kept["sentences"] == fresh.lines[(None, "de")] == history_of(table).lines[(None, "de")]
    assert seen == kept["sentences"]


# Memory.

def test_tables_in_memory_are_bounded_and_read_again(tmp_path: Path) -> None:
    # issue #9 Resources item 3: memory for tables is bounded (evict, reload on demand)
    with app_client(tmp_path, max_tables=2) as client:
        hub = hub_of(client)
        watched, _ = create(client)
        with sock(client, f"/ws/play/{watched}"):
            ids = [create(client)[0] for _ in range(3)]
            assert len(hub.tables) <= 2 and watched in hub.tables  # a watched table stays
        for table_id in ids:
            assert client.get(f"/api/tables/{table_id}").json()["id"] == table_id
        assert len(hub.tables) <= 2


# Per-client limits.

def test_websockets_per_client_are_limited(tmp_path: Path) -> None:
    # issue #9 Resources item 4: at most max_sockets WebSockets from one address, a clear refusal
    with app_client(tmp_path, max_sockets=2) as client:
        table_id, _ = create(client)
        with sock(client, f"/ws/play/{table_id}") as a, sock(client, f"/ws/tables/{table_id}"):
            state(a)
            with client.websocket_connect(f"/ws/play/{table_id}") as refused:
                message = refused.receive_json()
                assert message["type"] == "error" and message["error"] == "too_many"
                with pytest.raises(WebSocketDisconnect) as closed:
                    refused.receive_json()
                assert closed.value.code == 4429
        with sock(client, f"/ws/play/{table_id}") as again:  # the slots are free again
            assert state(again)["type"] == "state"


def test_behind_a_trusted_proxy_the_client_is_the_forwarded_address(tmp_path: Path) -> None:
    # issue #9 Resources item 4: per-client limits by the proxy's header when configured (opt-in)
    with app_client(tmp_path, max_sockets=1, client_header="X-Forwarded-For") as client:
        table_id, _ = create(client)
        anna = {"x-forwarded-for": "198.51.100.7, 203.0.113.1"}  # the proxy appended the last one
        with sock(client, f"/ws/play/{table_id}", headers=anna) as first:
            state(first)
            with sock(client, f"/ws/play/{table_id}", headers={"x-forwarded-for": "203.0.113.2"}) as b:
                assert state(b)["type"] == "state"  # another client
            with client.websocket_connect(f"/ws/play/{table_id}", headers={"x-forwarded-for": "203.0.113.1"}) as c:
                assert c.receive_json()["error"] == "too_many"  # the same client as the first


def test_table_creation_rate_per_client(tmp_path: Path) -> None:
    # issue #9 Resources item 4: a creation loop is refused with 429 and creates nothing
    with app_client(tmp_path, tables_per_minute=3, max_open_tables=100) as client:
        for _ in range(3):
            create(client)
        refused = client.post("/api/tables", json={"game": "diemacher", "players": 3, "options": {}})
        assert refused.status_code == 429 and "3 new tables a minute" in refused.json()["message"]
        assert len(client.get("/api/tables?status=open").json()["tables"]) == 3


def test_open_tables_per_creator(tmp_path: Path) -> None:
    # issue #9 Resources item 4: at most max_open_tables waiting tables per creator
    with app_client(tmp_path, max_open_tables=2) as client:
        first, host = create(client)
        create(client)
        refused = client.post("/api/tables", json={"game": "diemacher", "players": 3, "options": {}})
        assert refused.status_code == 429 and "waiting for players" in refused.json()["message"]
        for seat in range(3):
            client.post(f"/api/tables/{first}/bots", json={"seat": seat, "kind": "random"},
                        headers={"authorization": f"Bearer {host}"})
        client.post(f"/api/tables/{first}/start", json={}, headers={"authorization": f"Bearer {host}"})
        create(client)  # one of them started: room for another


def test_lobby_pages_reach_every_table_once(tmp_path: Path) -> None:
    # issue #9 Resources item 4: lobby listing that spam cannot bury (pagination)
    with app_client(tmp_path, max_open_tables=100) as client:
        made = {create(client)[0] for _ in range(5)}
        seen: list[str] = []
        before = ""
        while True:
            page = client.get(f"/api/tables?status=open&limit=2&before={before}").json()
            assert len(page["tables"]) <= 2
            seen += [t["id"] for t in page["tables"]]
            if page["next"] is None:
                break
            before = page["next"]
        assert sorted(seen) == sorted(made)
        assert client.get("/api/tables?limit=0").status_code == 400
        assert client.get("/api/tables?before=x").status_code == 400


def test_a_websocket_client_that_does_not_read_is_cut_off() -> None:
    # issue #9 Resources item 4: slow-client timeout on the WebSocket
    class Stuck:
        client = ("203.0.113.9", 1)
        closed: list[int] = []

        async def send_text(self, text: str) -> None:
            await asyncio.sleep(3600)

        async def close(self, code: int, reason: str = "") -> None:
            self.closed.append(code)

    stuck = Stuck()
    with pytest.raises(WebSocketDisconnect):
        asyncio.run(sender(stuck, 0.05)({"type": "state"}))  # type: ignore[arg-type]
    assert stuck.closed == [1008]


def test_a_reply_to_a_socket_cut_off_meanwhile_ends_the_connection_quietly() -> None:
    # issue #9: a socket closed by the server (a push that waited too long) makes the next send a
    # disconnect, which ends the socket's loops, not an "Exception in ASGI application"
    class Closed:
        client = ("203.0.113.9", 1)

        async def send_text(self, text: str) -> None:
            raise RuntimeError('Cannot call "send" once a close message has been sent.')

    with pytest.raises(WebSocketDisconnect):
        asyncio.run(sender(Closed(), 1.0)({"type": "ok"}))  # type: ignore[arg-type]


class LoopbackTransport(asyncio.Transport):
    """Just enough of a connection for uvicorn's HTTP protocol to read a request and upgrade it."""

    def __init__(self) -> None:
        super().__init__()
        self.protocol: Any = None

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return ("127.0.0.1", 5000) if name in ("peername", "sockname") else default

    def set_protocol(self, protocol: Any) -> None:
        self.protocol = protocol

    def write(self, data: Any) -> None:
        pass

    def is_closing(self) -> bool:
        return False

    def close(self) -> None:
        pass


UPGRADE = (b"GET /ws/play HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
           b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")


def test_an_upgraded_connection_leaves_no_reference_cycle_for_the_garbage_collector() -> None:
    # issue #9: under spectator churn the HTTP protocols left behind by WebSocket upgrades (each a
    # cycle through its parser) piled up until one collection freed thousands at once.
    async def app(scope: Any, receive: Any, send: Any) -> None:
        return None

    async def upgrade() -> weakref.ref[Any]:
        config = uvicorn.Config(app, lifespan="off", log_level="critical")
        config.load()
        transport = LoopbackTransport()
        guarded: Any = http_protocol(Config())  # uvicorn's HttpToolsProtocol, as `serve` runs it
        protocol = guarded(config=config, server_state=ServerState(), app_state={})
        protocol.connection_made(transport)
        protocol.data_received(UPGRADE)
        assert transport.protocol is not protocol  # the WebSocket protocol has the connection now
        return weakref.ref(protocol)

    gc.disable()
    try:
        left = asyncio.run(upgrade())
        assert left() is None  # freed by reference counting alone
    finally:
        gc.enable()



class Knot:
    """A reference cycle: only the garbage collector frees it."""

    def __init__(self) -> None:
        self.me = self


def test_the_collector_freezes_the_heap_and_sweeps_the_cycles_left_in_it() -> None:
    # issue #9: young collections stay small because what lives is frozen; cycles that die frozen
    # are freed at the next sweep.
    async def run() -> tuple[bool, bool]:
        knot = Knot()
        gone = weakref.ref(knot)
        collector = asyncio.create_task(freeze_periodically(0.01, 0.3))
        await asyncio.sleep(0.05)  # frozen by now, then dropped
        del knot
        gc.collect()
        kept_until_the_sweep = gone() is not None
        await asyncio.sleep(0.4)
        collector.cancel()
        return kept_until_the_sweep, gone() is None

    try:
        kept_until_the_sweep, swept = asyncio.run(run())
    finally:
        gc.unfreeze()
    assert kept_until_the_sweep
    assert swept


@pytest.fixture(scope="module")
def strict(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    server = ServerProcess(tmp_path_factory.mktemp("strict"), limits=[
        "--max-connections", "3", "--read-timeout", "1"]).start()
    try:
        yield server
    finally:
        server.stop()


def test_connections_per_address_are_limited(strict: ServerProcess) -> None:
    # issue #9 Resources item 4: at most max_connections open connections from one address
    held = [socket.create_connection(("127.0.0.1", strict.port)) for _ in range(3)]
    try:
        time.sleep(0.2)
        with socket.create_connection(("127.0.0.1", strict.port), timeout=10) as extra:
            assert extra.recv(1000).startswith(b"HTTP/1.1 429")
    finally:
        for conn in held:
            conn.close()
    time.sleep(0.2)
    assert httpx.get(strict.url + "/api/health").status_code == 200


def test_slowloris_headers_are_cut_off(strict: ServerProcess) -> None:
    # issue #9 Resources item 4: a client trickling its headers is answered 408 and closed
    with socket.create_connection(("127.0.0.1", strict.port), timeout=10) as conn:
        conn.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\n")
        for _ in range(2):  # a byte now and then, never the end of the headers
            time.sleep(0.2)
            conn.sendall(b"X")
        assert conn.recv(1000).startswith(b"HTTP/1.1 408")


def test_a_trickled_body_is_answered_408(strict: ServerProcess) -> None:
    # issue #9 Resources item 4: header/body read timeout
    with socket.create_connection(("127.0.0.1", strict.port), timeout=10) as conn:
        conn.sendall(b"POST /api/tables HTTP/1.1\r\nHost: x\r\ncontent-type: application/json\r\n"
                     b"content-length: 100\r\n\r\n{\"game\":")
        answer = b""
        while b"too_slow" not in answer and (part := conn.recv(1000)):
            answer += part
        assert answer.startswith(b"HTTP/1.1 408") and b"too_slow" in answer


# Static files.

def test_static_files_are_compressed_and_revalidated(client: TestClient) -> None:
    # issue #9 Resources item 5: gzip, ETag/Last-Modified, 304 on If-None-Match
    plain = (Path(str(web.STATIC)) / "app.js").read_bytes()
    raw = client.get("/static/app.js", headers={"accept-encoding": "gzip"})
    assert raw.headers["content-encoding"] == "gzip" and raw.headers["vary"] == "Accept-Encoding"
    assert raw.content == plain and int(raw.headers["content-length"]) < len(plain) / 2
    etag, modified = raw.headers["etag"], raw.headers["last-modified"]
    again = client.get("/static/app.js", headers={"accept-encoding": "gzip", "if-none-match": etag})
    assert again.status_code == 304 and again.content == b"" and again.headers["etag"] == etag
    assert client.get("/static/app.js", headers={"if-modified-since": modified}).status_code == 304
    identity = client.get("/static/app.js", headers={"accept-encoding": "identity"})
    assert "content-encoding" not in identity.headers and identity.content == plain
    assert identity.headers["etag"] != etag
    page = client.get("/", headers={"accept-encoding": "gzip"})
    assert page.headers["content-encoding"] == "gzip" and "content-security-policy" in page.headers
    assert client.get("/static/../server/api.py").status_code == 404
    assert client.get("/static/nothing.js").status_code == 404


def test_histories_in_many_languages_at_once_are_each_built(client: TestClient) -> None:
    # issue #9 Resources item 2: readers waiting for histories in five languages at once all get
    # theirs (a history somebody waits for is never dropped as idle); histories nobody reads any
    # more are followed only for a while
    table_id, tokens = started(client)
    play(client, table_id, tokens, 5)
    hub = hub_of(client)
    table = hub.tables[table_id]
    history = history_of(table)
    keys = [(None, lang) for lang in ("en", "de", "pl", "it", "ko")] * 3

    async def read_all() -> list[list[str]]:
        return await asyncio.wait_for(asyncio.gather(*(history.get(table, *key) for key in keys)), 60)

    found = client.portal.call(read_all)  # type: ignore[union-attr]
    assert all(found) and found[0] != found[1]  # English, German
    for key in keys[:5]:
        history.leave(key)
    assert len(history.lines) == 5  # still read by the others, and kept a while after
    history.keep_seconds = 0
    for key in keys[5:]:
        history.leave(key)
    assert history.lines == {} and history.readers == {}
