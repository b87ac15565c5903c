"""Test helpers: real server processes on free loopback ports, an HTTP client and a WebSocket
client that records every frame it receives."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
from websockets.sync.client import ClientConnection, connect

# The tests' PostgreSQL database; with pytest-xdist each worker (gw0, gw1, …) has one of its own beside it
# (``worker_database`` in conftest.py makes it), so that one worker's tables never show in another's lobby
# and no worker's server plays the bots of another's tables.
WORKER = os.environ.get("PYTEST_XDIST_WORKER", "")


def _tests_database(url: str) -> str:
    if not WORKER:
        return url
    from sqlalchemy.engine import make_url

    parsed = make_url(url)
    return parsed.set(database=f"{parsed.database}_{WORKER}").render_as_string(hide_password=False)


POSTGRES_URL = _tests_database(os.environ.get("STAMMTISCH_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test"))
REDIS_URL = os.environ.get("STAMMTISCH_TEST_REDIS", "redis://127.0.0.1:6379/0")
LOOSE_LIMITS = ["--tables-per-minute", "100000", "--max-open-tables", "100000", "--max-connections", "10000",
                "--max-sockets", "10000"]
IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")


@contextmanager
def own_postgres(name: str) -> Iterator[str]:
    """A new, empty PostgreSQL database ``<tests' database>_<name>`` beside the tests' one, dropped after.
    A server plays the bots of every running table in its database: on the shared one, tables that
    earlier tests' killed servers left running would be played (and counted) too."""
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    base = make_url(POSTGRES_URL).set(drivername="postgresql+psycopg")
    database = f"{base.database}_{name}"
    admin = create_engine(base.set(database="postgres"), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)'))
        conn.execute(text(f'CREATE DATABASE "{database}"'))
    try:
        yield base.set(drivername="postgresql", database=database).render_as_string(hide_password=False)
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)'))
        admin.dispose()


def create_database(url: str) -> None:
    """Create the PostgreSQL database of ``url`` unless it exists."""
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    name = make_url(url).database
    admin = create_engine(make_url(url).set(drivername="postgresql+psycopg", database="postgres"),
                          isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            if conn.execute(text("SELECT 1 FROM pg_database WHERE datname = :name"), {"name": name}).first() is None:
                conn.execute(text(f'CREATE DATABASE "{name}"'))
    finally:
        admin.dispose()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def reachable(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=1):
            return True
    except OSError:
        return False


class ServerProcess:
    """``stammtisch serve`` in a subprocess on a free loopback port."""

    def __init__(self, data_dir: Path, database: str | None = None, redis: str | None = None,
                 bot_delay: float = 0.0, port: int | None = None, limits: list[str] | None = None,
                 log_level: str = "warning", extra: tuple[str, ...] = (), env: dict[str, str] | None = None) -> None:
        self.data_dir, self.database, self.redis, self.bot_delay = data_dir, database, redis, bot_delay
        self.log_level, self.extra = log_level, extra
        self.env = {**os.environ, **(env or {})}
        # Tests create many tables from one address: per-client limits far above what they do,
        # unless a test checks the limits themselves.
        self.limits = LOOSE_LIMITS if limits is None else limits
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = data_dir / f"server-{self.port}.log"

    def start(self) -> ServerProcess:
        args = [sys.executable, "-m", "stammtisch", "serve", "--port", str(self.port), "--data-dir",
                str(self.data_dir), "--bot-delay", str(self.bot_delay), "--log-level", self.log_level, *self.limits,
                *self.extra]
        if self.database:
            args += ["--database", self.database]
        if self.redis:
            args += ["--redis", self.redis]
        self.data_dir.mkdir(parents=True, exist_ok=True)
        with open(self.log, "ab") as log:
            self.proc = subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT, env=self.env)
        deadline = time.monotonic() + 90  # a bound for a busy machine, not a speed requirement
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited with {self.proc.returncode}: {self.log.read_text()[-2000:]}")
            try:
                if httpx.get(self.url + "/api/health", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.05)
        self.kill()  # no fixture stops a server that never came up
        raise RuntimeError(f"server did not start: {self.log.read_text()[-2000:]}")

    def kill(self) -> None:
        """SIGKILL: no shutdown, no flush; what was committed must survive."""
        if self.proc and self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()


def seen_entries(record: Any, viewers: Any) -> dict[Any, list[int]]:
    """For each viewer (a seat, or None for spectators), the record's state index that each of its move
    numbers stands for: a viewer numbers only the moves it may know of (another seat's step in a sealed
    decision counts for it only if it shows the viewer an event; server/livetable.py ``LiveTable.seen``)."""
    from stammtisch.engine.match import replay
    from stammtisch.registry import make_game

    game = make_game(record.header.game, record.header.players, record.header.options)
    entries: dict[Any, list[int]] = {viewer: [0] for viewer in viewers}
    sealed_before = False
    for n, (match, seat, _action, events) in enumerate(replay(record, make_game)):
        state = match.state
        if seat is not None:
            for viewer, known in entries.items():
                if not sealed_before or viewer == seat or any(e.visible_to(viewer) for e in events):
                    known.append(n)
                else:
                    known[-1] = n
        sealed_before = game.sealed(state)
    return entries


class Cluster:
    """One or more server processes sharing one database; ``url(i)`` picks one (round robin)."""

    def __init__(self, name: str, servers: list[ServerProcess]) -> None:
        self.name = name
        self.servers = servers

    def url(self, i: int = 0) -> str:
        return self.servers[i % len(self.servers)].url

    def api(self, i: int = 0) -> Api:
        return Api(self.url(i))

    def ws(self, table_id: str, token: str | None = None, i: int = 0, since: int | None = None) -> Ws:
        """A socket on ``/ws/tables/{id}``, authenticated by its first message (no token: a spectator)."""
        base = self.url(i).replace("http://", "ws://")
        ws = Ws(f"{base}/ws/tables/{table_id}" + ("" if since is None else f"?since={since}"))
        ws.auth(token)
        return ws


class Api:
    def __init__(self, base: str) -> None:
        self.http = httpx.Client(base_url=base, timeout=20)

    def request(self, method: str, path: str, token: str | None = None, **kwargs: Any) -> httpx.Response:
        headers = kwargs.pop("headers", {})
        if token:
            headers["Authorization"] = f"Bearer {token}"
        return self.http.request(method, path, headers=headers, **kwargs)

    def ok(self, method: str, path: str, token: str | None = None, **kwargs: Any) -> Any:
        response = self.request(method, path, token, **kwargs)
        assert response.status_code < 300, (response.status_code, response.text)
        return response.json()

    def create(self, game: str, players: int, options: dict[str, Any] | None = None) -> tuple[str, str]:
        data = self.ok("POST", "/api/tables", json={"game": game, "players": players, "options": options or {}})
        return data["table_id"], data["host_token"]

    def join(self, table_id: str, seat: int, name: str | None = None) -> str:
        body = {"name": name} if name else {}
        token: str = self.ok("POST", f"/api/tables/{table_id}/seats/{seat}", json=body)["token"]
        return token

    def bot(self, table_id: str, host: str, seat: int, kind: str = "random") -> None:
        self.ok("POST", f"/api/tables/{table_id}/bots", host, json={"seat": seat, "kind": kind})

    def start(self, table_id: str, host: str) -> None:
        self.ok("POST", f"/api/tables/{table_id}/start", host)

    def view(self, table_id: str, token: str | None = None, since: int | None = None) -> dict[str, Any]:
        params = {} if since is None else {"since": since}
        result: dict[str, Any] = self.ok("GET", f"/api/tables/{table_id}/view", token, params=params)
        return result

    def act(self, table_id: str, token: str | None, action: Any, move_no: int) -> httpx.Response:
        return self.request("POST", f"/api/tables/{table_id}/actions", token,
                            json={"action": action, "move_no": move_no})

    def table(self, game: str, players: int, options: dict[str, Any] | None = None,
              bots: dict[int, str] | None = None) -> tuple[str, str, dict[int, str]]:
        """A started table: the given seats are bots, the others joined; returns (id, host, tokens)."""
        table_id, host = self.create(game, players, options)
        tokens = {}
        for seat in range(players):
            if bots and seat in bots:
                self.bot(table_id, host, seat, bots[seat])
            else:
                tokens[seat] = self.join(table_id, seat, f"P{seat}")
        self.start(table_id, host)
        return table_id, host, tokens


class Ws:
    """A WebSocket client that keeps every frame it receives, as received."""

    def __init__(self, url: str, headers: dict[str, str] | None = None) -> None:
        self.conn: ClientConnection = connect(url, open_timeout=10, max_size=None, additional_headers=headers)
        self.conn.__enter__()
        self.frames: list[str] = []
        self.latest: dict[str, Any] | None = None  # the newest state received

    def recv(self, timeout: float = 20) -> dict[str, Any]:
        raw = self.conn.recv(timeout=timeout)
        text = raw if isinstance(raw, str) else raw.decode()
        self.frames.append(text)
        message: dict[str, Any] = json.loads(text)
        if message.get("type") == "state" and (self.latest is None or message["move_no"] >= self.latest["move_no"]):
            self.latest = message
        return message

    def send(self, message: dict[str, Any] | str) -> None:
        self.conn.send(message if isinstance(message, str) else json.dumps(message))

    def auth(self, token: str | None) -> dict[str, Any]:
        """The first message: who this socket is (no token: a spectator)."""
        self.send({"type": "auth", "token": token} if token else {"type": "auth"})
        reply = self.recv()
        assert reply["type"] == "ok", reply
        return reply

    def until(self, predicate: Any, timeout: float = 30) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("no matching message")
            message = self.recv(left)
            if predicate(message):
                return message

    def reply(self, timeout: float = 20) -> dict[str, Any]:
        """The next answer to a request (ok, error or pong), skipping state pushes."""
        return self.until(lambda m: m["type"] != "state", timeout)

    def turn(self, after: int = -1, timeout: float = 30) -> dict[str, Any]:
        """The newest state from move ``after`` on in which this seat decides, or the game no longer runs."""

        def ready(m: dict[str, Any] | None) -> bool:
            return (m is not None and m["move_no"] >= after and m["status"] != "open"
                    and (bool(m["legal"]) or m["status"] != "running"))

        if not ready(self.latest):
            self.until(lambda m: m["type"] == "state" and ready(self.latest), timeout)
        assert self.latest is not None
        return self.latest

    def play(self, choose: Any, timeout: float = 30) -> list[dict[str, Any]]:
        """Play this seat to the end of the game; returns the error replies (races lost, if any)."""
        errors = []
        after = -1
        while True:
            state = self.turn(after, timeout)
            if state["status"] != "running":
                return errors
            self.send({"type": "act", "action": choose(state), "move_no": state["move_no"]})
            reply = self.reply(timeout)
            if reply["type"] == "ok":
                after = reply["move_no"]
            else:
                errors.append(reply)
                after = state["move_no"] + 1

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> Ws:
        return self

    def __exit__(self, *_: Any) -> None:
        self.close()


def wait_for(check: Any, what: str, seconds: float = 60) -> Any:
    """Poll until ``check()`` is truthy (a bound on waiting for the server, not a timing assertion)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.05)
    raise AssertionError(f"no {what} within {seconds} s")


def wait_finished(api: Api, table_id: str, timeout: float = 120) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        view = api.view(table_id)
        if view["status"] == "finished":
            return view
        time.sleep(0.05)
    raise TimeoutError(f"table {table_id} did not finish")


def two_humans(api: Api, keys: dict[int, str] | None = None, options: dict[str, Any] | None = None,
               pace: dict[str, Any] | None = None) -> tuple[str, str, dict[int, str]]:
    """A started two-player Glück Auf table of two people; ``keys``: seat → the key it is taken with."""
    body: dict[str, Any] = {"game": "glueckauf", "players": 2, "options": options or {}, "standin": "random"}
    if pace:
        body["pace"] = pace
    created = api.ok("POST", "/api/tables", json=body)
    table_id, host = created["table_id"], created["host_token"]
    tokens = {}
    for seat in range(2):
        join: dict[str, Any] = {"name": f"P{seat}"}
        if keys and seat in keys:
            join["key"] = keys[seat]
        tokens[seat] = api.ok("POST", f"/api/tables/{table_id}/seats/{seat}", json=join)["token"]
    api.start(table_id, host)
    return table_id, host, tokens


def finished(api: Api, tokens: dict[int, str], table_id: str) -> None:
    """Every person hands the seat to a (random) stand-in; wait for the end."""
    for token in tokens.values():
        api.ok("POST", f"/api/tables/{table_id}/away", token, json={})
    wait_for(lambda: api.view(table_id)["status"] == "finished", "the end", 120)
