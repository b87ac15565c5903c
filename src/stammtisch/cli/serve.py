"""``stammtisch serve``: the server for play in browsers and over the network."""

from __future__ import annotations

import argparse
import gc
import os
import shlex
import socket
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.console import Console

from stammtisch.cli.common import CliError, game_titles
from stammtisch.cli.database import add_database_options
from stammtisch.i18n import N_, _
from stammtisch.server.config import Config, Smtp, without_password

if TYPE_CHECKING:
    from stammtisch.server.holds import Hold


def add_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "serve", help=_("start the server: play the games ({games}) together over the network").format(
            games=game_titles()),
        description=_("Start the Stammtisch server (HTTP and WebSocket API; see docs/api.md). Games are stored "
                      "in an SQLite file in the data directory unless --database names a PostgreSQL server; "
                      "several server processes share live updates through --redis."),
    )
    parser.add_argument("--host", default="127.0.0.1", help=_("address to listen on (default: 127.0.0.1, this "
                                                              "machine only; 0.0.0.0 for the network)"))
    parser.add_argument("--port", type=int, default=8000, help=_("port (default: 8000)"))
    add_database_options(parser)
    parser.add_argument("--no-migrate", dest="migrate", action="store_false",
                        help=_("refuse to start on an older database schema instead of upgrading it (then run "
                               "'stammtisch migrate')"))
    parser.add_argument("--redis", metavar="URL", help=_("redis://host:port: share live updates between "
                                                         "several server processes"))
    parser.add_argument("--bot-delay", type=float, default=0.5, metavar="S",
                        help=_("seconds a bot waits before each action (default: 0.5)"))
    parser.add_argument("--public-url", default="", help=_("base URL of invite links, e.g. https://example.org "
                                                           "(default: links relative to this server)"))
    parser.add_argument("--compress", action="store_true",
                        help="compress WebSocket messages (permessage-deflate): less traffic, more CPU")
    parser.add_argument("--log-level", default="warning", help=_("uvicorn log level (default: warning)"))
    parser.add_argument("--log-format", choices=("text", "json"), default="text",
                        help=_("text, or json: one JSON object per line (default: text)"))
    parser.add_argument("--gc-freeze", type=float, default=1.0, metavar="S",
                        help=_("seconds between freezes of the garbage collector's heap, which keep its pauses "
                               "short; 0: never (default: 1)"))
    parser.add_argument("--gc-sweep", type=float, default=600.0, metavar="S",
                        help=_("seconds between full garbage collections of what was frozen (default: 600)"))
    mail = parser.add_argument_group(_("e-mail notices (docs/operations.md, \"E-mail notices\")"))
    mail.add_argument("--smtp", metavar="HOST:PORT",
                      help=_("send players who give their address an e-mail when it is their turn or their time "
                             "runs low, through this SMTP server (default: no e-mail)"))
    mail.add_argument("--smtp-from", metavar="ADDRESS",
                      help=_("the sender address of the e-mails (needed with --smtp)"))
    mail.add_argument("--smtp-user", metavar="NAME", default="",
                      help=_("log in to the SMTP server with this name; the password comes from the environment "
                             "variable STAMMTISCH_SMTP_PASSWORD"))
    mail.add_argument("--smtp-starttls", action="store_true",
                      help=_("secure the connection with STARTTLS before logging in"))
    mail.add_argument("--smtp-ssl", action="store_true", help=_("connect with TLS from the start (port 465)"))
    mail.add_argument("--notify-delay", type=float, default=Config.notify_delay, metavar="S",
                      help=_("seconds a turn's e-mail waits; a player who moves by then gets none (default: {value})")
                      .format(value=Config.notify_delay))
    limits = parser.add_argument_group(_("limits (docs/api.md, \"Limits\")"))
    for flag, name, kind, text in LIMITS:
        limits.add_argument(flag, dest=name, type=kind, default=getattr(Config, name),
                            metavar="S" if kind is float else "N",
                            help=_(text) + " " + _("(default: {value})").format(value=getattr(Config, name)))
    limits.add_argument("--client-header", default="", metavar="NAME",
                        help=_("behind a trusted proxy: take the client's address from this header (its last "
                               "entry), e.g. X-Forwarded-For; never set it without such a proxy"))
    limits.add_argument("--max-total-connections", type=int, default=2000, metavar="N",
                        help=_("open connections of all clients together; beyond them 503 (default: 2000)"))
    parser.set_defaults(run=run)


# Per-client limits and timeouts: (flag, Config field, type, help).
LIMITS: list[tuple[str, str, type, str]] = [
    ("--max-tables-in-memory", "max_tables", int,
     N_("tables kept in memory; the least recently used ones nobody watches are read again when asked for")),
    ("--max-connections", "max_connections", int, N_("open HTTP connections per client address")),
    ("--max-sockets", "max_sockets", int, N_("open WebSockets per client address")),
    ("--tables-per-minute", "tables_per_minute", int, N_("tables one client address may create per minute")),
    ("--max-open-tables", "max_open_tables", int,
     N_("tables one client address created that have not started yet")),
    ("--read-timeout", "read_timeout", float, N_("seconds for a request's headers, and again for its body")),
    ("--keep-alive", "keep_alive", float, N_("seconds an idle HTTP connection stays open")),
    ("--send-timeout", "send_timeout", float,
     N_("seconds a WebSocket message may wait for a client that does not read; then it is closed")),
    ("--ping-interval", "ping_interval", float, N_("seconds between WebSocket pings")),
    ("--ping-timeout", "ping_timeout", float, N_("seconds a WebSocket client has to answer a ping")),
    ("--page-size", "page_size", int, N_("tables per page of the lobby listing")),
    ("--bot-workers", "bot_workers", int, N_("worker processes in which search bots (easy, normal, hard) think")),
    ("--bot-timeout", "bot_timeout", float,
     N_("seconds a search bot may think; then the heuristic bot decides for it")),
    ("--clock-tick", "clock_tick", float,
     N_("seconds between looks for players whose time ran out (a stand-in then takes the seat)")),
    ("--chat-messages", "chat_messages", int, N_("chat messages one seat may send within --chat-seconds")),
    ("--chat-seconds", "chat_seconds", float, N_("seconds over which --chat-messages are counted")),
    ("--chat-max", "chat_max", int, N_("chat messages kept per table; beyond them the chat is full")),
]


def run(args: argparse.Namespace, console: Console) -> int:
    import uvicorn

    from stammtisch.server.app import create_app
    from stammtisch.server.limits import http_protocol
    from stammtisch.server.redact import log_config

    if args.bot_delay < 0:
        raise CliError(_("--bot-delay must not be negative"))
    for flag, name, _kind, _text in LIMITS:
        if getattr(args, name) <= 0:
            raise CliError(_("{flag} must be more than 0").format(flag=flag))
    if args.gc_freeze < 0 or args.gc_sweep <= 0:
        raise CliError(_("--gc-freeze must not be negative and --gc-sweep must be more than 0"))
    if not 1 <= args.page_size <= 200:
        raise CliError(_("{flag} must be from 1 to 200").format(flag="--page-size"))
    check_redis(args.redis)
    config = Config(data_dir=Path(args.data_dir) if args.data_dir else None, database=args.database,
                    redis=args.redis, bot_delay=args.bot_delay, public_url=args.public_url,
                    client_header=args.client_header, gc_freeze=args.gc_freeze, gc_sweep=args.gc_sweep,
                    migrate=args.migrate, smtp=smtp_config(args), notify_delay=args.notify_delay,
                    metrics_token=metrics_token(),
                    **{name: getattr(args, name) for _f, name, _k, _t in LIMITS})
    hold = prepare_database(config, console, migrate_command(args))
    try:
        listener = listen_on(args.host, args.port)  # before the server is announced: a busy port is one clear line
    except CliError:
        hold.close()
        raise
    port = listener.getsockname()[1]
    config.site_url = f"http://{args.host}:{port}"
    where = without_password(args.database or config.database_url().removeprefix("sqlite+aiosqlite:///"))
    text = (_("Stammtisch server on {url} — games in {where}, live updates through {redis}") if args.redis
            else _("Stammtisch server on {url} — games in {where}"))
    console.print(text.format(url=f"http://{args.host}:{port}/", where=where, redis=without_password(args.redis or "")),
                  markup=False)
    # Fewer, larger young collections and rare full ones: a full collection of a busy server's heap
    # takes tens of milliseconds, which every client waiting at that moment would feel.
    gc.set_threshold(50_000, 20, 100)
    gc.freeze()  # what is loaded by now (modules, texts) lives as long as the server: never scan it again
    server = uvicorn.Server(uvicorn.Config(
        create_app(config, hold), host=args.host, port=port, log_level=args.log_level,
        log_config=log_config(args.log_level, args.log_format),
        http=http_protocol(config), timeout_keep_alive=max(1, round(config.keep_alive)),
        limit_concurrency=args.max_total_connections,
        ws_max_size=max(config.max_message * 4, 1 << 20), ws_ping_interval=config.ping_interval,
        ws_ping_timeout=config.ping_timeout, ws_per_message_deflate=args.compress))
    server.run(sockets=[listener])
    return 0 if server.started else 3  # (3: uvicorn's code for a failed start)


def listen_on(host: str, port: int) -> socket.socket:
    """The server's socket, bound; a CliError (one line) if it cannot be, e.g. the port is in use."""
    try:
        family = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0][0]
        listener = socket.socket(family, socket.SOCK_STREAM)
        try:
            listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            listener.bind((host, port))
        except OSError:
            listener.close()
            raise
    except OSError as error:
        raise CliError(_("cannot listen on {host}:{port}: {reason} (another server there? choose another port "
                         "with --port)").format(host=host, port=port, reason=error.strerror or error)) from None
    return listener


def check_redis(url: str | None) -> None:
    """A Redis that does not answer at start is one clear line, not a traceback."""
    if not url:
        return
    import redis

    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=5, socket_timeout=5)
        try:
            client.ping()
        finally:
            client.close()
    except (redis.RedisError, ValueError, OSError) as error:
        raise CliError(_("Redis at {url} does not answer ({reason}): start it, or serve without --redis").format(
            url=without_password(url), reason=error)) from None


def smtp_config(args: argparse.Namespace) -> Smtp | None:
    """The SMTP server of ``--smtp`` and its flags (checked: a clear error for anything off)."""
    if not args.smtp:
        if args.smtp_from or args.smtp_user or args.smtp_starttls or args.smtp_ssl:
            raise CliError(_("--smtp-from, --smtp-user, --smtp-starttls and --smtp-ssl need --smtp"))
        return None
    try:
        host, port = Smtp.address(args.smtp)
    except ValueError:
        raise CliError(_("--smtp wants HOST:PORT, e.g. mail.example.org:587")) from None
    if not args.smtp_from or "@" not in args.smtp_from:
        raise CliError(_("--smtp needs --smtp-from, the sender address of the e-mails"))
    if args.smtp_starttls and args.smtp_ssl:
        raise CliError(_("choose --smtp-starttls or --smtp-ssl, not both"))
    if args.notify_delay < 0:
        raise CliError(_("--notify-delay must not be negative"))
    if args.host in ("0.0.0.0", "::") and not args.public_url:
        raise CliError(_("--smtp needs --public-url when the server listens on every address: the e-mails link "
                         "to the table with it"))
    password = os.environ.get("STAMMTISCH_SMTP_PASSWORD", "")
    if args.smtp_user and not password:
        raise CliError(_("--smtp-user needs the password in the environment variable STAMMTISCH_SMTP_PASSWORD"))
    return Smtp(host, port, args.smtp_from, args.smtp_user, password, args.smtp_starttls, args.smtp_ssl)


def metrics_token() -> str:
    """The token that reads /metrics, from the environment (never a flag: command lines are visible to
    every user of the machine); "": nobody reads them."""
    from stammtisch.server.metrics import METRICS_TOKEN

    token = os.environ.get(METRICS_TOKEN, "").strip()
    if token and len(token) < 16:
        raise CliError(_("{variable} must be at least 16 characters long").format(variable=METRICS_TOKEN))
    return token


def prepare_database(config: Config, console: Console, command: str) -> Hold:
    """Hold the database for this server (server/holds.py) and check (and upgrade) its schema before
    serving, so that a refusal is one clear line; ``command`` upgrades the schema (named by a refusal)."""
    from stammtisch.server.holds import DatabaseInUse, hold_for_serving
    from stammtisch.server.schema import SchemaError, prepare_url

    def prepare(alone: bool) -> None:  # an upgrade only with the database alone (no other server on it)
        found, now = prepare_url(config.database_url(), upgrade=config.migrate and alone, command=command)
        if found.current != now or found.unversioned:
            console.print(_("The database schema was upgraded from revision {old} to {new}.").format(
                old=found.current or "-", new=now))

    try:
        return hold_for_serving(config.database_url(), prepare, config.redis is not None)
    except (SchemaError, DatabaseInUse) as error:
        raise CliError(str(error)) from None


def migrate_command(args: argparse.Namespace) -> str:
    """``stammtisch migrate`` of the same database as this server's (issue 26: without its --data-dir it
    would upgrade, or create, another one)."""
    if args.database:
        return f"stammtisch migrate --database {shlex.quote(without_password(args.database))}"
    if args.data_dir:
        return f"stammtisch migrate --data-dir {shlex.quote(args.data_dir)}"
    return "stammtisch migrate"
