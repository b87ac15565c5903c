"""``stammtisch serve``: the server for play in browsers and over the network."""

from __future__ import annotations

import argparse
import gc
from pathlib import Path
from typing import Any

from rich.console import Console

from stammtisch.cli.common import CliError
from stammtisch.i18n import _


def add_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "serve", help=_("start the server: play Die Macher or Glück Auf together over the network"),
        description=_("Start the Stammtisch server (HTTP and WebSocket API; see docs/api.md). Games are stored "
                      "in an SQLite file in the data directory unless --database names a PostgreSQL server; "
                      "several server processes share live updates through --redis."),
    )
    parser.add_argument("--host", default="127.0.0.1", help=_("address to listen on (default: 127.0.0.1, this "
                                                              "machine only; 0.0.0.0 for the network)"))
    parser.add_argument("--port", type=int, default=8000, help=_("port (default: 8000)"))
    parser.add_argument("--data-dir", help=_("directory of the SQLite database (default: $STAMMTISCH_HOME or "
                                             "~/.local/share/stammtisch)"))
    parser.add_argument("--database", metavar="URL", help=_("database URL, e.g. postgresql://user@host/db "
                                                            "(default: SQLite in the data directory)"))
    parser.add_argument("--redis", metavar="URL", help=_("redis://host:port: share live updates between "
                                                         "several server processes"))
    parser.add_argument("--bot-delay", type=float, default=0.5, metavar="S",
                        help=_("seconds a bot waits before each action (default: 0.5)"))
    parser.add_argument("--public-url", default="", help=_("base URL of invite links, e.g. https://example.org "
                                                           "(default: links relative to this server)"))
    parser.add_argument("--compress", action="store_true",
                        help="compress WebSocket messages (permessage-deflate): less traffic, more CPU")
    parser.add_argument("--log-level", default="warning", help=_("uvicorn log level (default: warning)"))
    parser.set_defaults(run=run)


def run(args: argparse.Namespace, console: Console) -> int:
    import uvicorn

    from stammtisch.server.app import create_app
    from stammtisch.server.config import Config
    from stammtisch.server.redact import log_config

    if args.bot_delay < 0:
        raise CliError(_("--bot-delay must not be negative"))
    config = Config(data_dir=Path(args.data_dir) if args.data_dir else None, database=args.database,
                    redis=args.redis, bot_delay=args.bot_delay, public_url=args.public_url)
    where = args.database or config.database_url().removeprefix("sqlite+aiosqlite:///")
    text = (_("Stammtisch server on {url} — games in {where}, live updates through {redis}") if args.redis
            else _("Stammtisch server on {url} — games in {where}"))
    console.print(text.format(url=f"http://{args.host}:{args.port}/", where=where, redis=args.redis), markup=False)
    # Fewer, larger young collections and rare full ones: a full collection of a busy server's heap
    # takes tens of milliseconds, which every client waiting at that moment would feel.
    gc.set_threshold(50_000, 20, 100)
    uvicorn.run(create_app(config), host=args.host, port=args.port, log_level=args.log_level,
                log_config=log_config(args.log_level),
                ws_max_size=max(config.max_message * 4, 1 << 20), ws_ping_interval=20, ws_ping_timeout=30,
                ws_per_message_deflate=args.compress)
    return 0
