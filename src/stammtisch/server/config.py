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


@dataclass
class Config:
    data_dir: Path | None = None
    database: str | None = None  # an SQLAlchemy or plain URL; default: SQLite in data_dir
    redis: str | None = None  # redis://… lets several server processes share live updates
    bot_delay: float = 0.5  # seconds a server bot waits before it acts
    max_message: int = MAX_MESSAGE
    public_url: str = ""  # base of invite links; default: none (links relative to this server)
    auth_timeout: float = 10.0  # seconds a new WebSocket has to send its auth message

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
