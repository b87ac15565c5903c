"""``stammtisch loadtest``: many concurrent tables played through the WebSocket API.

Starts a server in a subprocess on a free loopback port (or uses ``--server``, which must be a
loopback address), fills every table with client-side random bots that act after a think time,
and measures actions per second and the latency from submitting an action to receiving the
updated view.  Bounded in time and count; it sends traffic to this machine only.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import ipaddress
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import orjson
from rich.console import Console

from stammtisch.cli.common import CliError
from stammtisch.engine.registry import games as registered

MAX_TABLES = 1000
MAX_SECONDS = 600

def fewest_players() -> dict[str, int]:
    """Each registered game at its smallest table."""
    return {name: spec.min_players for name, spec in registered().items()}


def add_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "loadtest", help="measure the server: many bot tables played over WebSockets",
        description="Start a server on a free loopback port (or use --server on this machine), play many "
                    "concurrent tables with client-side random bots through the WebSocket API, and report "
                    "actions per second and the latency from submitting an action to the updated view.",
    )
    parser.add_argument("--tables", type=int, default=50, help=f"concurrent tables (default 50, at most {MAX_TABLES})")
    parser.add_argument("--seconds", type=float, default=20, help=f"measuring time (default 20, at most {MAX_SECONDS})")
    parser.add_argument("--think", type=float, default=1.0, metavar="S",
                        help="mean seconds a bot thinks before acting (uniform 0..2×S; default 1)")
    parser.add_argument("--game", choices=[*registered(), "mixed"], default="mixed", help="game of the tables "
                                                                                 "(default: mixed)")
    parser.add_argument("--database", metavar="URL", help="database of the started server (default: SQLite in a "
                                                          "temporary directory)")
    parser.add_argument("--redis", metavar="URL", help="Redis of the started server")
    parser.add_argument("--processes", type=int, default=1, help="server processes to start (default 1; more "
                                                                 "need PostgreSQL and Redis)")
    parser.add_argument("--server", metavar="URL", help="use this running server instead (loopback only)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.set_defaults(run=run)


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    actions: int = 0
    games: int = 0
    errors: dict[str, int] = field(default_factory=dict)
    measuring: bool = False


def loopback(url: str) -> bool:
    host = urlsplit(url).hostname or ""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def run(args: argparse.Namespace, console: Console) -> int:
    if not 1 <= args.tables <= MAX_TABLES:
        raise CliError(f"--tables must be from 1 to {MAX_TABLES}")
    if not 0 < args.seconds <= MAX_SECONDS:
        raise CliError(f"--seconds must be more than 0 and at most {MAX_SECONDS}")
    if args.think < 0:
        raise CliError("--think must not be negative")
    if args.server and not loopback(args.server):
        raise CliError("--server must be on this machine (127.0.0.0/8, ::1 or localhost)")
    if args.processes < 1 or args.processes > 8:
        raise CliError("--processes must be from 1 to 8")
    if args.processes > 1 and (args.server or not args.redis or not (args.database or "").startswith("postgres")):
        raise CliError("--processes above 1 needs --database postgresql://… and --redis redis://… (and no --server)")
    servers: list[subprocess.Popen[bytes]] = []
    urls = [args.server.rstrip("/")] if args.server else []
    with tempfile.TemporaryDirectory(prefix="stammtisch-load-") as tmp, \
            open(os.path.join(tmp, "server.log"), "wb") as log:
        for _ in range(0 if args.server else args.processes):
            port = free_port()
            urls.append(f"http://127.0.0.1:{port}")
            command = [sys.executable, "-m", "stammtisch", "serve", "--port", str(port), "--data-dir", tmp,
                       "--bot-delay", "0"]
            if args.database:
                command += ["--database", args.database]
            if args.redis:
                command += ["--redis", args.redis]
            servers.append(subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT))
        try:
            stats = asyncio.run(load(urls, args, servers))
        finally:
            for server in servers:
                server.terminate()
            for server in servers:
                with contextlib.suppress(subprocess.TimeoutExpired):
                    server.wait(10)
                if server.poll() is None:
                    server.kill()
    report(stats, args, console)
    return 0


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def report(stats: Stats, args: argparse.Namespace, console: Console) -> None:
    figures = {
        "tables": args.tables, "seconds": args.seconds, "think": args.think, "game": args.game,
        "processes": 1 if args.server else args.processes,
        "database": "postgresql" if (args.database or "").startswith("postgres") else "sqlite",
        "actions": stats.actions, "actions_per_second": round(stats.actions / args.seconds, 1),
        "games_finished": stats.games,
        "latency_ms": {p: round(percentile(stats.latencies, float(p[1:])) * 1000, 1)
                       for p in ("p50", "p90", "p99", "p100")},
        "errors": stats.errors,
    }
    if args.json:
        console.print_json(json.dumps(figures))
        return
    lat = figures["latency_ms"]
    console.print(f"{args.tables} tables ({args.game}, think {args.think} s), {args.seconds:g} s on "
                  f"{figures['database']}, {figures['processes']} server process(es): {stats.actions} actions, "
                  f"{figures['actions_per_second']} actions/s, "
                  f"{stats.games} games finished")
    console.print(f"latency submit → updated view: p50 {lat['p50']} ms, p90 {lat['p90']} ms, "
                  f"p99 {lat['p99']} ms, max {lat['p100']} ms")
    if stats.errors:
        console.print(f"errors: {stats.errors}")


async def load(urls: list[str], args: argparse.Namespace, servers: list[subprocess.Popen[bytes]]) -> Stats:
    import httpx

    stats = Stats()
    async with contextlib.AsyncExitStack() as stack:
        clients = [await stack.enter_async_context(httpx.AsyncClient(base_url=url, timeout=30)) for url in urls]
        for http in clients:
            for _ in range(300):
                if any(server.poll() is not None for server in servers):
                    raise CliError("the server stopped; see stammtisch serve's messages")
                with contextlib.suppress(httpx.HTTPError):
                    if (await http.get("/api/health")).status_code == 200:
                        break
                await asyncio.sleep(0.1)
            else:
                raise CliError("the server did not start")
        stop = asyncio.Event()
        rng = random.Random(1)
        games = list(registered()) if args.game == "mixed" else [args.game]
        tasks = [asyncio.create_task(table_loop(clients[i % len(urls)], urls[i % len(urls)], games[i % len(games)],
                                                args.think, rng, stats, stop))
                 for i in range(args.tables)]
        await asyncio.sleep(min(5.0, args.seconds / 4 + 1))  # warm up: tables created, first moves made
        stats.measuring = True
        await asyncio.sleep(args.seconds)
        stats.measuring = False
        stop.set()
        await asyncio.wait(tasks, timeout=10)
        for task in tasks:
            task.cancel()
    return stats


async def table_loop(http: Any, url: str, game: str, think: float, rng: random.Random, stats: Stats,
                     stop: asyncio.Event) -> None:
    while not stop.is_set():
        try:
            await play_table(http, url, game, think, rng, stats, stop)
        except asyncio.CancelledError:
            raise
        except Exception as error:  # counted, and the slot starts a new table
            kind = type(error).__name__
            stats.errors[kind] = stats.errors.get(kind, 0) + 1
            await asyncio.sleep(0.5)


async def play_table(http: Any, url: str, game: str, think: float, rng: random.Random, stats: Stats,
                     stop: asyncio.Event) -> None:
    import websockets

    players = fewest_players()[game]
    created = (await http.post("/api/tables", json={"game": game, "players": players, "options": {}})).json()
    table_id, host = created["table_id"], created["host_token"]
    tokens = [(await http.post(f"/api/tables/{table_id}/seats/{seat}", json={"name": f"Load {seat}"})).json()["token"]
              for seat in range(players)]
    base = url.replace("http://", "ws://", 1)
    async with contextlib.AsyncExitStack() as stack:
        sockets = [await stack.enter_async_context(websockets.connect(
            f"{base}/ws/tables/{table_id}", additional_headers={"Authorization": f"Bearer {token}"}, max_size=None,
            ping_interval=None, compression=None))
            for token in tokens]
        await http.post(f"/api/tables/{table_id}/start", headers={"Authorization": f"Bearer {host}"})
        done = await asyncio.gather(*(seat_loop(ws, think, rng, stats, stop) for ws in sockets))
    if all(done):
        stats.games += 1 if stats.measuring else 0


async def seat_loop(ws: Any, think: float, rng: random.Random, stats: Stats, stop: asyncio.Event) -> bool:
    """Play one seat: act on each new decision after thinking; time each action until its view arrives."""
    latest: dict[str, Any] | None = None
    pending: tuple[float, int | None] | None = None  # (sent at, acknowledged move number)
    decide_at: float | None = None
    loop = asyncio.get_running_loop()
    while not stop.is_set():
        timeout = None if decide_at is None else max(0.0, decide_at - loop.time())
        try:
            raw = await asyncio.wait_for(ws.recv(), timeout=timeout if timeout is not None else 5.0)
        except TimeoutError:
            raw = None
        if raw is not None:
            message = orjson.loads(raw)
            kind = message["type"]
            if kind == "state":
                if latest is None or message["move_no"] >= latest["move_no"]:
                    latest = message
                if latest["status"] == "finished":
                    return True
            elif kind == "ok" and pending is not None:
                pending = (pending[0], message["move_no"])
            elif kind == "error" and pending is not None:
                pending = None
                if stats.measuring:
                    code = f"api:{message['error']}"
                    stats.errors[code] = stats.errors.get(code, 0) + 1
        if pending is not None and pending[1] is not None and latest is not None and latest["move_no"] >= pending[1]:
            if stats.measuring:
                stats.latencies.append(loop.time() - pending[0])
                stats.actions += 1
            pending = None
        if pending is None and latest is not None and latest["legal"] and latest["status"] == "running":
            if decide_at is None:
                decide_at = loop.time() + rng.uniform(0, 2 * think)
            if loop.time() >= decide_at:
                decide_at = None
                action = rng.choice(latest["legal"])
                pending = (loop.time(), None)
                await ws.send(json.dumps({"type": "act", "action": action, "move_no": latest["move_no"]}))
                latest = dict(latest, legal=[])  # decide again only on a newer state
    return False


