"""Server settings: where games are stored, how processes share live updates, how fast bots play."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from stammtisch.files import private_dir

MAX_MESSAGE = 16 * 1024  # bytes of one client message (WebSocket frame or HTTP body)


def default_data_dir() -> Path:
    home = os.environ.get("STAMMTISCH_HOME")
    if home:
        return Path(home)
    return Path.home() / ".local" / "share" / "stammtisch"


@dataclass(frozen=True)
class Smtp:
    """The SMTP server e-mail notices go through (``serve --smtp``; server/notify.py)."""

    host: str
    port: int
    sender: str  # the From address
    user: str = ""  # log in with this name (and password) when given
    password: str = ""
    starttls: bool = False  # upgrade the connection with STARTTLS before logging in
    ssl: bool = False  # TLS from the first byte (port 465)
    timeout: float = 20.0

    @staticmethod
    def address(value: str) -> tuple[str, int]:
        """``host:port`` (``[::1]:25`` for IPv6); ValueError with the reason otherwise."""
        host, sep, port = value.rpartition(":")
        host = host.removeprefix("[").removesuffix("]")
        if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
            raise ValueError(f"--smtp wants host:port, not {value!r}")
        return host, int(port)


@dataclass
class Config:
    data_dir: Path | None = None
    database: str | None = None  # an SQLAlchemy or plain URL; default: SQLite in data_dir
    redis: str | None = None  # redis://… lets several server processes share live updates
    bot_delay: float = 0.5  # seconds a server bot waits before it acts
    bot_workers: int = 1  # processes in which search bots think (server/thinking.py)
    bot_timeout: float = 5.0  # seconds a search bot may think before the heuristic bot decides instead
    max_message: int = MAX_MESSAGE
    public_url: str = ""  # base of invite links; default: none (links relative to this server)
    auth_timeout: float = 10.0  # seconds a new WebSocket has to send its auth message
    # Resources (docs/api.md, "Limits"): what one client may hold, how long the server waits.
    max_tables: int = 300  # tables kept in memory; the least recently used unwatched ones are read again
    client_header: str = ""  # e.g. x-forwarded-for: behind a trusted proxy, the client address comes from it
    max_connections: int = 100  # open HTTP connections per client address (counted at the socket)
    max_sockets: int = 50  # open WebSockets per client address
    tables_per_minute: int = 10  # tables one client may create per minute
    max_open_tables: int = 5  # tables one client created that have not started
    read_timeout: float = 10.0  # seconds for a request's headers, and again for its body
    keep_alive: float = 5.0  # seconds an idle HTTP connection stays open
    send_timeout: float = 30.0  # seconds a WebSocket message may wait for a client that does not read
    ping_interval: float = 20.0  # WebSocket pings; a client that does not answer within ping_timeout is closed
    ping_timeout: float = 30.0
    page_size: int = 50  # tables per page of the lobby listing (at most 200)
    # Garbage collector (server/collector.py): freeze what is alive every gc_freeze seconds (0: never),
    # and collect the frozen objects' cycles every gc_sweep seconds.  `serve` turns it on.
    gc_freeze: float = 0.0
    gc_sweep: float = 600.0
    # The table chat (server/chat.py): messages one seat may send per chat_seconds, messages kept per table.
    chat_messages: int = 5
    chat_seconds: float = 10.0
    chat_max: int = 2000
    clock_tick: float = 1.0  # seconds between looks for seats whose time ran out (issue 15)
    migrate: bool = True  # upgrade an older database schema on start (server/schema.py)
    # E-mail notices (issue 15, server/notify.py): none without an SMTP server.  A turn's e-mail waits
    # notify_delay seconds (a player who moves by then gets none); links start with public_url, or
    # else with site_url (the address the server listens on).
    smtp: Smtp | None = None
    notify_delay: float = 120.0
    site_url: str = ""
    metrics_token: str = ""  # who sends it reads /metrics; "": nobody (server/metrics.py)

    def database_url(self) -> str:
        """The SQLAlchemy URL with an async driver: aiosqlite for SQLite, psycopg 3 for PostgreSQL."""
        url = self.database
        if not url:
            directory = self.data_dir or default_data_dir()
            private_dir(directory)
            return f"sqlite+aiosqlite:///{directory / 'stammtisch.db'}"
        for plain, driver in (("postgresql://", "postgresql+psycopg://"), ("postgres://", "postgresql+psycopg://"),
                              ("sqlite://", "sqlite+aiosqlite://")):
            if url.startswith(plain):
                return driver + url[len(plain):]
        return url


def without_password(url: str) -> str:
    """The URL with its password (if any) replaced by ***: a message may be seen by others."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    try:
        parsed = make_url(url)
    except ArgumentError:
        return url
    return parsed.render_as_string(hide_password=True) if parsed.password else url
