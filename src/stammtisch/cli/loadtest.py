"""``stammtisch loadtest``: many concurrent tables played through the WebSocket API.

Starts a server in a subprocess on a free loopback port (or uses ``--server``, which must be a
loopback address), fills every table with client-side random bots that act after a think time,
and measures actions per second and the latency from submitting an action to receiving the
updated view.  Bounded in time and count; it sends traffic to this machine only.

The hostile mode adds what anonymous clients on the open internet do beside the games:
``--spectators`` browser sockets that keep connecting to the tables and leaving again, and
``--slow`` clients (half trickle request headers, half open WebSockets and never read).  It
reports how long a spectator waits for its first state and how fast ``/api/health`` answers.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import ipaddress
import json
import multiprocessing
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import orjson
from rich.console import Console

from stammtisch.cli.common import CliError
from stammtisch.registry import games as registered
from stammtisch.server.delta import apply_patch

MAX_TABLES = 1000
MAX_SPECTATORS = 2000
MAX_SLOW = 500
# The started server: every client here is 127.0.0.1, so the per-address limits must not count.
UNLIMITED = ["--max-sockets", "100000", "--max-connections", "100000", "--tables-per-minute", "100000",
             "--max-open-tables", "100000", "--max-total-connections", "20000"]
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
    parser.add_argument("--spectators", type=int, default=0, metavar="N",
                        help=f"hostile mode: N anonymous browser sockets connecting to the tables and leaving "
                             f"again (at most {MAX_SPECTATORS})")
    parser.add_argument("--stay", type=float, default=2.0, metavar="S",
                        help="mean seconds a spectator stays before it leaves and connects again (uniform "
                             "S/2..3S/2; default 2)")
    parser.add_argument("--slow", type=int, default=0, metavar="N",
                        help=f"hostile mode: N slow clients, half trickling request headers, half WebSockets "
                             f"that never read (at most {MAX_SLOW})")
    parser.add_argument("--deltas", action="store_true",
                        help="the bots' sockets ask for deltas (?deltas=1) instead of a full state after every "
                             "move; the hostile spectators always do, as browsers do")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.set_defaults(run=run)


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    actions: int = 0
    games: int = 0
    errors: dict[str, int] = field(default_factory=dict)
    measuring: bool = False
    tables: list[str] = field(default_factory=list)  # started tables, for spectators to watch
    first_states: list[float] = field(default_factory=list)  # spectator: connect → first state
    health: list[float] = field(default_factory=list)  # /api/health latencies
    slow_cut: int = 0  # slow clients the server closed
    server_cpu: float = float("nan")  # CPU seconds the started servers used per second measured
    client_cpu: float = float("nan")  # … this process (the bots' clients), per second measured
    hostile_cpu: float = float("nan")  # … the hostile clients' process, per second measured

    def error(self, kind: str) -> None:
        self.errors[kind] = self.errors.get(kind, 0) + 1


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
    if not 0 <= args.spectators <= MAX_SPECTATORS:
        raise CliError(f"--spectators must be from 0 to {MAX_SPECTATORS}")
    if args.stay <= 0:
        raise CliError("--stay must be more than 0")
    if not 0 <= args.slow <= MAX_SLOW:
        raise CliError(f"--slow must be from 0 to {MAX_SLOW}")
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
                       "--bot-delay", "0", *UNLIMITED]
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


def server_cpu(servers: list[subprocess.Popen[bytes]]) -> float:
    """CPU seconds the started server processes have used (Linux; NaN elsewhere)."""
    total = 0.0
    try:
        for server in servers:
            with open(f"/proc/{server.pid}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return float("nan")
    return total


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
        "server_cpu": round(stats.server_cpu, 2),
        "client_cpu": round(stats.client_cpu, 2),
    }
    if args.spectators or args.slow:
        figures.update(spectators=args.spectators, stay=args.stay, slow=args.slow,
                       spectator_connects=len(stats.first_states),
                       first_state_ms={p: round(percentile(stats.first_states, float(p[1:])) * 1000, 1)
                                       for p in ("p50", "p99")},
                       health_ms={p: round(percentile(stats.health, float(p[1:])) * 1000, 1)
                                  for p in ("p50", "p99", "p100")},
                       slow_clients_cut_off=stats.slow_cut, hostile_cpu=round(stats.hostile_cpu, 2))
    if args.json:
        console.print_json(json.dumps(figures))
        return
    lat = figures["latency_ms"]
    console.print(f"{args.tables} tables ({args.game}, think {args.think} s), {args.seconds:g} s on "
                  f"{figures['database']}, {figures['processes']} server process(es): {stats.actions} actions, "
                  f"{figures['actions_per_second']} actions/s, "
                  f"{stats.games} games finished")
    console.print(f"latency submit → updated view: p50 {lat['p50']} ms, p90 {lat['p90']} ms, "
                  f"p99 {lat['p99']} ms, max {lat['p100']} ms; server CPU {figures['server_cpu']} s per s "
                  f"(the bots' clients {figures['client_cpu']} s per s)")
    if args.spectators or args.slow:
        first, health = figures["first_state_ms"], figures["health_ms"]
        console.print(f"beside them {args.spectators} spectator sockets coming and going (staying "
                      f"{args.stay:g} s on average; {figures['spectator_connects']} connects, "
                      f"first state p50 {first['p50']} ms, "
                      f"p99 {first['p99']} ms) and {args.slow} slow clients ({stats.slow_cut} cut off by the server)")
        console.print(f"/api/health: p50 {health['p50']} ms, p99 {health['p99']} ms, max {health['p100']} ms; "
                      f"the hostile clients' CPU {figures['hostile_cpu']} s per s")
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
        seat_query = "?deltas=1" if args.deltas else ""
        tasks = [asyncio.create_task(table_loop(clients[i % len(urls)], urls[i % len(urls)], games[i % len(games)],
                                                args.think, rng, stats, stop, seat_query))
                 for i in range(args.tables)]
        warm_up = min(5.0, args.seconds / 4 + 1)  # tables created, first moves made
        hostile = None
        if args.spectators or args.slow:
            tasks.append(asyncio.create_task(health_loop(clients[0], stats, stop)))
            # In a process of its own: its work must not slow down the bots whose latency is measured.
            context = multiprocessing.get_context("spawn")
            receiver, sender = context.Pipe(duplex=False)
            hostile = context.Process(target=hostile_process, daemon=True, args=(
                urls, args.spectators, args.slow, args.stay, warm_up, args.seconds, sender))
            hostile.start()
        await asyncio.sleep(warm_up)
        stats.measuring = True
        cpu, mine = server_cpu(servers), time.process_time()
        await asyncio.sleep(args.seconds)
        stats.server_cpu = (server_cpu(servers) - cpu) / args.seconds
        stats.client_cpu = (time.process_time() - mine) / args.seconds
        stats.measuring = False
        stop.set()
        await asyncio.wait(tasks, timeout=10)
        for task in tasks:
            task.cancel()
        if hostile is not None:
            if await asyncio.to_thread(receiver.poll, 30):
                theirs: Stats = receiver.recv()
                stats.first_states, stats.slow_cut = theirs.first_states, theirs.slow_cut
                stats.hostile_cpu = theirs.hostile_cpu
                for kind, count in theirs.errors.items():
                    stats.errors[kind] = stats.errors.get(kind, 0) + count
            hostile.join(10)
            if hostile.is_alive():
                hostile.kill()
    return stats


async def table_loop(http: Any, url: str, game: str, think: float, rng: random.Random, stats: Stats,
                     stop: asyncio.Event, query: str) -> None:
    while not stop.is_set():
        try:
            await play_table(http, url, game, think, rng, stats, stop, query)
        except asyncio.CancelledError:
            raise
        except Exception as error:  # counted, and the slot starts a new table
            kind = type(error).__name__
            stats.errors[kind] = stats.errors.get(kind, 0) + 1
            await asyncio.sleep(0.5)


async def play_table(http: Any, url: str, game: str, think: float, rng: random.Random, stats: Stats,
                     stop: asyncio.Event, query: str) -> None:
    """One table of bots, each seat on its own socket (``query``: "?deltas=1" to ask for deltas)."""
    import websockets

    players = fewest_players()[game]
    created = (await http.post("/api/tables", json={"game": game, "players": players, "options": {}})).json()
    table_id, host = created["table_id"], created["host_token"]
    tokens = [(await http.post(f"/api/tables/{table_id}/seats/{seat}", json={"name": f"Load {seat}"})).json()["token"]
              for seat in range(players)]
    base = url.replace("http://", "ws://", 1)
    async with contextlib.AsyncExitStack() as stack:
        sockets = [await stack.enter_async_context(websockets.connect(
            f"{base}/ws/tables/{table_id}{query}", additional_headers={"Authorization": f"Bearer {token}"},
            max_size=None, ping_interval=None, compression=None))
            for token in tokens]
        await http.post(f"/api/tables/{table_id}/start", headers={"Authorization": f"Bearer {host}"})
        stats.tables.append(table_id)
        done = await asyncio.gather(*(seat_loop(ws, think, rng, stats, stop) for ws in sockets))
    if all(done):
        stats.games += 1 if stats.measuring else 0


async def seat_loop(ws: Any, think: float, rng: random.Random, stats: Stats, stop: asyncio.Event) -> bool:
    """Play one seat: act on each new decision after thinking; time each action until its view arrives."""
    latest: dict[str, Any] | None = None  # the last state, patched by the deltas since
    fresh = False  # a state came since this seat last acted
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
            if kind == "state" or kind == "delta":
                if kind == "delta":
                    latest, fresh = apply_patch(latest, message["patch"]), True
                elif latest is None or message["move_no"] >= latest["move_no"]:
                    latest, fresh = message, True
                if latest is not None and latest["status"] == "finished":
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
        if pending is None and fresh and latest is not None and latest["legal"] and latest["status"] == "running":
            if decide_at is None:
                decide_at = loop.time() + rng.uniform(0, 2 * think)
            if loop.time() >= decide_at:
                decide_at = None
                action = rng.choice(latest["legal"])
                pending = (loop.time(), None)
                await ws.send(json.dumps({"type": "act", "action": action, "move_no": latest["move_no"]}))
                fresh = False  # decide again only on a newer state
    return False




# The hostile mode.

def hostile_process(urls: list[str], spectators: int, slow: int, stay: float, warm_up: float, seconds: float,
                    sender: Any) -> None:
    # The hostile clients stand for other machines: on this one they yield the processor to the
    # server and to the measured bots (their own waits, e.g. for a first state, grow instead).
    with contextlib.suppress(OSError, AttributeError):
        os.nice(10)
    sender.send(asyncio.run(hostile(urls, spectators, slow, stay, warm_up, seconds)))


async def hostile(urls: list[str], spectators: int, slow: int, stay: float, warm_up: float,
                  seconds: float) -> Stats:
    stats, stop, rng = Stats(), asyncio.Event(), random.Random(2)
    tasks = [asyncio.create_task(watch_tables(urls[0], stats, stop))]
    tasks += [asyncio.create_task(spectator_loop(urls[i % len(urls)], stay, rng, stats, stop))
              for i in range(spectators)]
    tasks += [asyncio.create_task((slow_headers if i % 2 else slow_reader)(urls[i % len(urls)], stats, stop))
              for i in range(slow)]
    await asyncio.sleep(warm_up)
    stats.measuring = True
    mine = time.process_time()
    await asyncio.sleep(seconds)
    stats.hostile_cpu = (time.process_time() - mine) / seconds
    stats.measuring = False
    stop.set()
    await asyncio.wait(tasks, timeout=10)
    for task in tasks:
        task.cancel()
    return stats


async def watch_tables(url: str, stats: Stats, stop: asyncio.Event) -> None:
    """The running tables, as any visitor of the lobby sees them."""
    import httpx

    async with httpx.AsyncClient(base_url=url, timeout=30) as http:
        while not stop.is_set():
            with contextlib.suppress(Exception):
                page = (await http.get("/api/tables?status=running&limit=200")).json()
                stats.tables = [t["id"] for t in page["tables"]]
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), 2.0)

SPECTATOR_AUTH = '{"type": "auth"}'  # the first message of a socket: nobody's token, so a spectator


async def spectator_loop(url: str, stay: float, rng: random.Random, stats: Stats, stop: asyncio.Event) -> None:
    """An anonymous browser socket: connect to a table, read its first state, stay a moment, leave."""
    import websockets

    base = url.replace("http://", "ws://", 1)
    loop = asyncio.get_running_loop()
    await asyncio.sleep(rng.uniform(0, 2))
    while not stop.is_set():
        if not stats.tables:
            await asyncio.sleep(0.2)
            continue
        table_id = rng.choice(stats.tables)
        lang = rng.choice(("en", "de", "pl", "it", "ko"))
        started = loop.time()
        try:
            async with websockets.connect(f"{base}/ws/play/{table_id}?lang={lang}&deltas=1", max_size=None,
                                          ping_interval=None, compression=None, open_timeout=30) as ws:
                await ws.send(SPECTATOR_AUTH)
                while orjson.loads(await asyncio.wait_for(ws.recv(), 30))["type"] != "state":
                    pass
                if stats.measuring:
                    stats.first_states.append(loop.time() - started)
                until = loop.time() + rng.uniform(stay / 2, stay * 1.5)
                while not stop.is_set() and loop.time() < until:
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(ws.recv(), until - loop.time())
        except asyncio.CancelledError:
            raise
        except Exception as error:
            if stats.measuring:
                stats.error(f"spectator:{type(error).__name__}")
            await asyncio.sleep(0.5)


async def slow_headers(url: str, stats: Stats, stop: asyncio.Event) -> None:
    """Slowloris: send a request's headers a byte a second, never ending them."""
    split = urlsplit(url)
    while not stop.is_set():
        writer = None
        try:
            reader, writer = await asyncio.open_connection(split.hostname, split.port)
            writer.write(b"GET /api/health HTTP/1.1\r\nHost: load\r\n")
            while not stop.is_set():
                await writer.drain()
                try:
                    await asyncio.wait_for(reader.read(1000), 1.0)
                except TimeoutError:
                    writer.write(b"X")
                    continue
                stats.slow_cut += 1  # an answer (408) or a closed connection: the server gave up on us
                break
        except asyncio.CancelledError:
            raise
        except OSError:
            stats.slow_cut += 1
        finally:
            if writer is not None:
                writer.close()
        await asyncio.sleep(0.5)


async def slow_reader(url: str, stats: Stats, stop: asyncio.Event) -> None:
    """A spectator that never reads: the server's messages pile up until it cuts the socket off."""
    import websockets

    base = url.replace("http://", "ws://", 1)
    while not stop.is_set():
        if not stats.tables:
            await asyncio.sleep(0.2)
            continue
        try:
            async with websockets.connect(f"{base}/ws/play/{random.choice(stats.tables)}", max_size=None,
                                          max_queue=1, ping_interval=None, compression=None) as ws:
                await ws.send(SPECTATOR_AUTH)
                waits = [asyncio.ensure_future(stop.wait()), asyncio.ensure_future(ws.wait_closed())]
                await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
                for wait in waits:
                    wait.cancel()
                if not stop.is_set():
                    stats.slow_cut += 1
        except asyncio.CancelledError:
            raise
        except Exception:
            await asyncio.sleep(0.5)


async def health_loop(http: Any, stats: Stats, stop: asyncio.Event) -> None:
    """How fast the server answers the lightest request while all this goes on."""
    loop = asyncio.get_running_loop()
    while not stop.is_set():
        started = loop.time()
        try:
            await http.get("/api/health")
            if stats.measuring:
                stats.health.append(loop.time() - started)
        except Exception as error:
            stats.error(f"health:{type(error).__name__}")
        await asyncio.sleep(0.1)
