"""Who holds a server's database (issue 26; docs/operations.md, "What is refused").

A running server holds its database; ``stammtisch restore`` and ``stammtisch migrate`` need it alone,
and are refused while any server holds it: a restore under a running server corrupted its tables.

- SQLite serves one process: the server holds a lock file beside the database (``stammtisch.db.lock``,
  ``flock``) alone, so a second server, a restore or a migrate of that file is refused.
- PostgreSQL serves several processes: each server holds an advisory lock shared, on a connection of
  its own; a restore or a migrate takes it alone.  The same connection holds one lock per table whose
  bots and stand-ins the process plays, so that one process plays them (``take_table``).

The operating system lets go of a lock file when its process ends, PostgreSQL of a session's locks
when its connection ends: a killed server holds nothing.  The holder writes what it is into the lock
file (SQLite), so that a refusal can say who holds the database, and a restore or migrate waits a
moment for another one instead of being refused.
"""

from __future__ import annotations

import contextlib
import fcntl
import logging
import os
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from stammtisch.files import PRIVATE_FILE, private_dir
from stammtisch.server.config import without_password

SERVING = "stammtisch serve"  # what a server writes into the lock file
DATA_LOCK = 0x53746448  # PostgreSQL advisory lock (single key): held shared by servers, alone by restore/migrate
TABLE_BOTS = 0x53744274  # two-key form with hashtext(table id): the process that plays a table's bots
# Held alone by a server without live updates (no --redis), shared by the servers with them: a server
# that hears nothing from the others would never see their moves (a table waited for ever for a bot
# played by a process that never learnt the player had moved).
LONE_SERVER = 0x53744c6e


T = TypeVar("T")
log = logging.getLogger("stammtisch.server")


class DatabaseInUse(Exception):
    """Somebody else holds the database; the message says who and what to do."""


class FileHold:
    """An SQLite database's lock file; a server holds it alone."""

    shared = False  # one process serves an SQLite database

    def __init__(self, database: Path) -> None:
        self.path = database.with_name(database.name + ".lock")
        self.where = str(database)
        self._fd: int | None = None

    def take(self, alone: bool, what: str) -> bool:
        """Take the lock without waiting; False if somebody holds it (``alone`` is always so here)."""
        if self._fd is None:
            self._fd = os.open(private_dir(self.path.parent) / self.path.name, os.O_RDWR | os.O_CREAT, PRIVATE_FILE)
        try:
            fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        os.ftruncate(self._fd, 0)
        os.pwrite(self._fd, f"{what}, process {os.getpid()}\n".encode(), 0)
        return True

    def share(self) -> None:
        """After preparing the database alone, go on holding it as a server (SQLite: alone still)."""

    def servers(self) -> bool:
        """Whether servers hold the database (rather than a restore or a migrate)."""
        return self.holder().startswith(SERVING)

    def holder(self) -> str:
        """What holds the lock, as its holder wrote it (e.g. ``stammtisch serve, process 1234``)."""
        try:
            return self.path.read_text(encoding="utf-8").strip()
        except OSError:
            return ""

    def keep_company(self, live_updates: bool) -> bool:
        return True  # the only process

    def take_table(self, table_id: str) -> bool:
        return True  # the only process

    def release_table(self, table_id: str) -> None:
        return None

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # (and so the lock)
            self._fd = None


class AdvisoryHold:
    """A PostgreSQL database's advisory locks, on a connection of their own."""

    shared = True  # several processes serve one PostgreSQL database

    def __init__(self, url: str) -> None:
        import psycopg

        self.url = url
        self.where = without_password(url)  # (never a password in a message)
        self._conn = psycopg.connect(url, autocommit=True)
        self._serving = False  # holding the data lock shared, as a server
        self._live_updates: bool | None = None  # keep_company's, once taken
        self._asking = threading.RLock()  # (re-entered by _reconnect → take)

    def _ask(self, sql: str, *params: Any) -> Any:
        with self._asking:  # one statement at a time: claims and releases come from several threads
            if self._conn.broken:  # PostgreSQL restarted: the locks ended with the old connection
                self._reconnect()
            row = self._conn.execute(sql, params).fetchone()
            return None if row is None else row[0]

    def _reconnect(self) -> None:
        import psycopg

        self.close()
        self._conn = psycopg.connect(self.url, autocommit=True)
        if self._serving and not self.take(False, SERVING):
            log.error("the database %s is held by a restore or a migration while this server runs", self.where)
        if self._live_updates is not None and not self.keep_company(self._live_updates):
            log.error("the database %s is used by a server %s live updates while this one runs", self.where,
                      "with" if not self._live_updates else "without")

    def take(self, alone: bool, what: str) -> bool:
        function = "pg_try_advisory_lock" if alone else "pg_try_advisory_lock_shared"
        taken = bool(self._ask(f"SELECT {function}(%s)", DATA_LOCK))
        self._serving = self._serving or (taken and not alone and what == SERVING)
        return taken

    def share(self) -> None:
        """Taken alone to prepare the schema; now shared with the other servers (never let go between)."""
        self._ask("SELECT pg_advisory_lock_shared(%s)", DATA_LOCK)
        self._ask("SELECT pg_advisory_unlock(%s)", DATA_LOCK)
        self._serving = True

    def servers(self) -> bool:
        if not self.take(False, "a look"):  # somebody holds it alone: a restore, a migrate, a server upgrading
            return False
        self._ask("SELECT pg_advisory_unlock_shared(%s)", DATA_LOCK)
        return True

    def holder(self) -> str:
        return SERVING if self.servers() else "a restore, a migration or a starting server"

    def keep_company(self, live_updates: bool) -> bool:
        """Serve beside the other servers: all with live updates (Redis), or this one alone without."""
        function = "pg_try_advisory_lock_shared" if live_updates else "pg_try_advisory_lock"
        kept = bool(self._ask(f"SELECT {function}(%s)", LONE_SERVER))
        self._live_updates = live_updates if kept else self._live_updates
        return kept

    def take_table(self, table_id: str) -> bool:
        return bool(self._ask("SELECT pg_try_advisory_lock(%s, hashtext(%s))", TABLE_BOTS, table_id))

    def release_table(self, table_id: str) -> None:
        with contextlib.suppress(Exception):  # (a connection that broke has let go of it already)
            self._ask("SELECT pg_advisory_unlock(%s, hashtext(%s))", TABLE_BOTS, table_id)

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self._conn.close()


Hold = FileHold | AdvisoryHold


def hold_of(url: str) -> Hold:
    """The hold of a database URL (SQLAlchemy's, or plain)."""
    for prefix in ("sqlite+aiosqlite:///", "sqlite:///"):
        if url.startswith(prefix):
            return FileHold(Path(url[len(prefix):]))
    return AdvisoryHold(url.replace("postgresql+psycopg://", "postgresql://"))


def hold_for_serving(url: str, prepare: Callable[[bool], object], live_updates: bool, wait: float = 60.0) -> Hold:
    """Hold the database for a server, once ``prepare(alone)`` has checked its schema (an upgrade is
    for a server that holds the database alone).  DatabaseInUse at once while another server holds
    an SQLite database, or when servers with and without live updates (``live_updates``: Redis) would
    share a PostgreSQL one; a restore or a migration running is waited for (up to ``wait`` seconds)."""
    hold = hold_of(url)
    try:
        alone = _wait_for(hold, wait, lambda: _take_for_serving(hold), refuse_servers=not hold.shared)
        _wait_for_company(hold, live_updates)
        prepare(alone)
        if alone:
            hold.share()
        return hold
    except BaseException:
        hold.close()
        raise


def _wait_for_company(hold: Hold, live_updates: bool, wait: float = 2.0) -> None:
    """Keep company with the other servers, waiting a moment: a killed server's locks outlive it for up
    to a few hundred milliseconds (docs/operations.md)."""
    deadline = time.monotonic() + wait
    while not hold.keep_company(live_updates):
        if time.monotonic() > deadline:
            raise DatabaseInUse(_mixed_company(hold.where, live_updates))
        time.sleep(0.1)


def _mixed_company(where: str, live_updates: bool) -> str:
    if live_updates:
        return (f"a Stammtisch server without --redis is using the database {where}: it would never hear of "
                "this server's moves. Give every server on one database the same --redis")
    return (f"other Stammtisch servers are using the database {where}: several servers on one database "
            "need the same --redis (live updates), and this one has none")


def _take_for_serving(hold: Hold) -> bool | None:
    """True: taken alone; False: shared with other servers (PostgreSQL); None: not taken."""
    if hold.take(True, SERVING):
        return True
    if hold.shared and hold.take(False, SERVING):
        return False
    return None


def hold_alone(url: str, what: str, wait: float = 60.0) -> Hold:
    """Hold the database alone for ``what`` (a restore, a migration): DatabaseInUse at once while a
    server holds it; another restore or migration is waited for (up to ``wait`` seconds)."""
    hold = hold_of(url)
    try:
        _wait_for(hold, wait, lambda: hold.take(True, what) or None, refuse_servers=True)
        return hold
    except BaseException:
        hold.close()
        raise


def _wait_for(hold: Hold, wait: float, take: Callable[[], T | None], refuse_servers: bool) -> T:
    """What ``take()`` gives once it gives something; DatabaseInUse at once if ``refuse_servers`` and
    servers hold the database, or once somebody else has held it for ``wait`` seconds."""
    deadline = time.monotonic() + wait
    while (taken := take()) is None:
        if refuse_servers and hold.servers():
            raise DatabaseInUse(f"a Stammtisch server is using the database {hold.where}: stop it first "
                                f"(held by {hold.holder()})")
        if time.monotonic() > deadline:
            raise DatabaseInUse(f"the database {hold.where} has been held for {wait:g} s by {hold.holder()}; "
                                "try again when it is done")
        time.sleep(0.1)
    return taken
