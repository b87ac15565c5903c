"""The database: tables, seats (tokens hashed) and the move log, which is the truth.

A table's state is rebuilt by replaying its log from (game, players, options, seed).  The
primary key (table_id, move_no) of the log makes racing writers safe, even across processes:
of two inserts of the same move number one fails, and its writer reloads and re-validates.
SQLite (the embedded default) and PostgreSQL share this code through SQLAlchemy Core.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import sqlite3
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from sqlalchemy import (
    BigInteger,
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    and_,
    create_engine,
    delete,
    event,
    exists,
    func,
    insert,
    literal,
    or_,
    select,
    text,
    update,
)
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine
from sqlalchemy.pool import StaticPool

from stammtisch.files import private_file
from stammtisch.server.schema import prepare

if TYPE_CHECKING:
    import psycopg

metadata = MetaData()
log = logging.getLogger("stammtisch.server")
T = TypeVar("T")

tables = Table(
    "stammtisch_tables", metadata,
    Column("id", String(32), primary_key=True),
    Column("game", String(32), nullable=False),
    Column("players", Integer, nullable=False),
    Column("options", Text, nullable=False),  # JSON
    Column("seed", BigInteger, nullable=False),
    Column("status", String(16), nullable=False),  # open, running, finished, interrupted (by an upgrade)
    Column("host_hash", String(64), nullable=False),
    Column("created", Float, nullable=False),
    # GameSpec.rules_version the game is played under (set again at the start); migration 0002
    Column("rules_version", Integer, nullable=False, server_default="1"),
    # Migration 0004: a finished table's rematch, and the table a rematch repeats
    Column("rematch", String(32)),
    Column("rematch_of", String(32)),
)  # fmt: skip

seats = Table(
    "stammtisch_seats", metadata,
    Column("table_id", String(32), ForeignKey("stammtisch_tables.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(16), nullable=False),  # human, invited, bot
    Column("name", String(64), nullable=False),
    Column("bot_kind", String(16)),
    Column("token_hash", String(64)),
    # Migration 0004 (server/players.py): the personal key the seat is bound to, and the hash of the
    # seat token that key derives for this seat
    Column("key_hash", String(64), index=True),
    Column("key_token_hash", String(64)),
)  # fmt: skip

# Migration 0004: the personal keys (server/players.py); only their hashes.
players = Table(
    "stammtisch_players", metadata,
    Column("key_hash", String(64), primary_key=True),
    Column("created", Float, nullable=False),
)  # fmt: skip

moves = Table(
    "stammtisch_moves", metadata,
    Column("table_id", String(32), ForeignKey("stammtisch_tables.id"), primary_key=True),
    Column("move_no", Integer, primary_key=True),  # 1, 2, … without gaps
    Column("seat", Integer, nullable=False),
    Column("action", Text),  # JSON list; NULL: the seat took back its last move
    # Migration 0003 (issue 15): when the entry was committed (NULL in logs of the releases before),
    # and the stand-in's bot kind when a stand-in made the move
    Column("at", Float),
    Column("standin", String(16)),
)  # fmt: skip


# Issue 15 (migration 0003): the pace and the seat changes.
paces = Table(
    "stammtisch_paces", metadata,
    Column("table_id", String(32), ForeignKey("stammtisch_tables.id"), primary_key=True),
    Column("pace", Text, nullable=False),  # JSON (server/pace.py)
    Column("standin", String(16), nullable=False),  # the bot kind of stand-ins
    Column("started", Float),  # when the game started (its first clocks began)
)  # fmt: skip

seat_changes = Table(
    "stammtisch_seat_changes", metadata,
    Column("table_id", String(32), ForeignKey("stammtisch_tables.id"), primary_key=True),
    Column("no", Integer, primary_key=True),  # 0, 1, … without gaps: two writers cannot both add one
    Column("seat", Integer, nullable=False),
    Column("move_no", Integer, nullable=False),  # the log entries before it
    Column("what", String(16), nullable=False),  # timeout, left, asked (a stand-in takes over), returned, handed
    Column("at", Float, nullable=False),
)  # fmt: skip


# Issue 15 (migration 0006): a seat's address for e-mail notices, and the notices (server/notify.py).
contacts = Table(
    "stammtisch_contacts", metadata,
    Column("table_id", String(32), ForeignKey("stammtisch_tables.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("email", String(254), nullable=False),  # never shown to anybody but the seat, never logged
    Column("lang", String(8), nullable=False),  # the language of the e-mails
)  # fmt: skip

notices = Table(
    "stammtisch_notices", metadata,
    Column("table_id", String(32), ForeignKey("stammtisch_tables.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(16), primary_key=True),  # turn, deadline
    Column("mark", BigInteger, primary_key=True),  # turn: the log entry after which it became the seat's turn;
    # deadline: the deadline in whole epoch seconds
    Column("due", Float, nullable=False),  # when it may be sent
    Column("lease", Float),  # a process sends it until then (another may take it over after)
    Column("tries", Integer, nullable=False, server_default="0"),
    Column("done", Float),  # sent or given up
    Column("outcome", String(16)),  # sent, skipped (no longer true when due), failed
    Index("stammtisch_notices_waiting", "done", "due"),
)  # fmt: skip

# PostgreSQL advisory locks of one table's log and seat changes (the two-number form: its keys never
# meet the single-number key of migrations).
TABLE_LOCK = 0x53746D54

# Issue 14 (migration 0005): the table chat.
chat = Table(
    "stammtisch_chat", metadata,
    Column("table_id", String(32), ForeignKey("stammtisch_tables.id"), primary_key=True),
    Column("no", Integer, primary_key=True),  # 0, 1, … without gaps: two writers cannot both add one
    Column("seat", Integer, nullable=False),
    Column("text", Text, nullable=False),
    Column("at", Float, nullable=False),
)  # fmt: skip


class Conflict(Exception):
    """Another writer got there first (a seat, a move number, a start)."""


@dataclass
class TableRow:
    id: str
    game: str
    players: int
    options: dict[str, Any]
    seed: int
    status: str
    host_hash: str
    created: float
    rules_version: int = 1
    pace: dict[str, Any] | None = None  # issue 15: a timed table's pace (server/pace.py)
    standin: str = ""  # the bot kind of stand-ins ("": the game's default)
    started: float | None = None  # when the game started
    rematch: str | None = None  # the table of its rematch, once one was asked for
    rematch_of: str | None = None  # the table this one is the rematch of


@dataclass
class SeatRow:
    seat: int
    kind: str
    name: str
    bot_kind: str | None
    token_hash: str | None
    key_hash: str | None = None  # the personal key holding the seat (server/players.py)
    key_token_hash: str | None = None  # the seat token that key derives

    def values(self) -> dict[str, Any]:
        """The seat's columns (who holds it), as written."""
        return {"kind": self.kind, "name": self.name, "bot_kind": self.bot_kind, "token_hash": self.token_hash,
                "key_hash": self.key_hash, "key_token_hash": self.key_token_hash}


def _seat_row(s: Any) -> SeatRow:
    return SeatRow(s.seat, s.kind, s.name, s.bot_kind, s.token_hash, s.key_hash, s.key_token_hash)


@dataclass
class MoveRow:
    move_no: int
    seat: int
    action: list[Any] | None
    at: float | None = None  # when it was committed (None: before times were stored)
    standin: str | None = None  # the stand-in's bot kind, if a stand-in made it


@dataclass(frozen=True)
class SeatChange:
    no: int
    seat: int
    move_no: int
    what: str
    at: float


@dataclass(frozen=True)
class Contact:
    email: str
    lang: str


@dataclass(frozen=True)
class Notice:
    table_id: str
    seat: int
    kind: str
    mark: int
    due: float = 0.0
    tries: int = 0


@dataclass(frozen=True)
class ChatRow:
    no: int
    seat: int
    text: str
    at: float

    def to_json(self) -> dict[str, Any]:
        return {"no": self.no, "seat": self.seat, "text": self.text, "at": self.at}


class ChatRefused(Exception):
    """A chat message over the seat's rate (``wait``: seconds until the next one is allowed) or over
    the table's limit (``wait`` None)."""

    def __init__(self, wait: float | None) -> None:
        super().__init__("chat refused")
        self.wait = wait


@dataclass
class PaceRow:
    pace: dict[str, Any]
    standin: str
    started: float | None


def _table_row(row: Any) -> TableRow:
    return TableRow(row.id, row.game, row.players, json.loads(row.options), int(row.seed), row.status,
                    row.host_hash, row.created, row.rules_version, None if row.pace is None else json.loads(row.pace),
                    row.standin or "", row.started, row.rematch, row.rematch_of)


def _tables_with_pace() -> Any:
    return (select(tables, paces.c.pace, paces.c.standin, paces.c.started)
            .select_from(tables.outerjoin(paces, paces.c.table_id == tables.c.id)))


class Store:
    """SQLite runs in the event loop's thread (a commit in WAL mode takes microseconds, and a
    thread per call would cost more than it saves); PostgreSQL runs on psycopg's asyncio driver."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.sqlite = url.startswith("sqlite")
        self.engine: AsyncEngine | None = None
        self.sync_engine: Engine | None = None
        if self.sqlite:
            self.sync_engine = create_engine(url.replace("+aiosqlite", ""), poolclass=StaticPool,
                                             connect_args={"check_same_thread": False})
            event.listen(self.sync_engine, "connect", _sqlite_pragmas)
        else:
            # No pre-ping (a round trip per transaction): a broken connection fails one batch and is replaced.
            self.engine = create_async_engine(url, pool_size=8, max_overflow=8, pool_recycle=1800)
        self._insert = sqlite_insert if self.sqlite else postgresql_insert
        self._pending: list[tuple[dict[str, Any], bool, asyncio.Future[bool]]] = []
        self._writers: set[asyncio.Task[None]] = set()
        self._gathering = False  # a writer is about to take the pending entries
        # PostgreSQL: a batch waits for its round trip and PostgreSQL's flush; meanwhile a second writer
        # (on a connection of its own) takes what came since, so an entry waits for one round trip, not two.
        self._most_writers = 1 if self.sqlite else LOG_WRITERS
        self._checkpointer: asyncio.Task[None] | None = None
        self._raw: Any = None  # SQLite's own connection (_run_raw)
        self._logs: list[Any] = []  # PostgreSQL: the move log's own psycopg connections, idle (_run_postgresql)

    async def _run(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(connection, *args)`` in one transaction, committed when it returns."""
        if self.sync_engine is not None:
            with self.sync_engine.begin() as conn:
                return fn(conn, *args)
        assert self.engine is not None
        async with self.engine.begin() as aconn:
            return await aconn.run_sync(fn, *args)

    async def open(self, upgrade: bool = True) -> None:
        """Check the schema's version and upgrade an older one (server/schema.py); SchemaError if the
        database is newer than this release, or older and ``upgrade`` is False."""
        self._make_private()
        for attempt in range(5):  # several SQLite processes may start at once (PostgreSQL takes a lock)
            try:
                found, now = await self._run(prepare, upgrade)
                break
            except OperationalError:
                if attempt == 4:
                    raise
                await asyncio.sleep(0.2 * (attempt + 1))
        if found.current != now or found.unversioned:
            log.warning("database schema upgraded from %s to %s", found.current or "nothing", now)
        if self.sync_engine is not None:
            self._checkpointer = asyncio.create_task(self._checkpoints())

    def _make_private(self) -> None:
        """The SQLite file (and so its -wal and -shm, which SQLite creates with the database's mode) 0600."""
        path = self.sync_engine.url.database if self.sync_engine is not None else None
        if not path or path == ":memory:" or path.startswith("file:"):
            return
        private_file(Path(path))
        for suffix in ("-wal", "-shm", "-journal"):
            companion = Path(path + suffix)
            if companion.exists():
                private_file(companion)

    async def _checkpoints(self) -> None:
        """Copy the SQLite write-ahead log into the database file in a thread of its own, every second,
        so that no commit in the event loop waits for a checkpoint's disk writes."""
        assert self.sync_engine is not None
        path = self.sync_engine.url.database
        if not path or path == ":memory:":
            return

        def checkpoint() -> None:
            connection = sqlite3.connect(path, timeout=10)
            try:
                connection.execute("PRAGMA wal_checkpoint(PASSIVE)")
            finally:
                connection.close()

        while True:
            await asyncio.sleep(1.0)
            try:
                await asyncio.to_thread(checkpoint)
            except sqlite3.Error:
                log.warning("SQLite checkpoint failed", exc_info=True)

    async def close(self) -> None:
        if self._checkpointer is not None:
            self._checkpointer.cancel()
            with contextlib.suppress(BaseException):
                await self._checkpointer
        if self._writers:
            with contextlib.suppress(BaseException):
                await asyncio.wait_for(asyncio.gather(*self._writers), 5)
        for connection in self._logs:
            with contextlib.suppress(Exception):
                await connection.close()
        if self.engine is not None:
            await self.engine.dispose()
        if self.sync_engine is not None:
            self.sync_engine.dispose()

    # Tables and seats.

    async def create_table(self, row: TableRow) -> None:
        await self._run(self._write_table, row)

    @staticmethod
    def _write_table(conn: Connection, row: TableRow) -> None:
        conn.execute(insert(tables).values(
            id=row.id, game=row.game, players=row.players, options=json.dumps(row.options), seed=row.seed,
            status=row.status, host_hash=row.host_hash, created=row.created or time.time(),
            rules_version=row.rules_version, rematch_of=row.rematch_of))
        if row.pace is not None or row.standin:
            conn.execute(insert(paces).values(table_id=row.id, pace=json.dumps(row.pace or {}), standin=row.standin))

    async def table(self, table_id: str) -> tuple[TableRow, list[SeatRow]] | None:
        def read(conn: Connection) -> tuple[TableRow, list[SeatRow]] | None:
            row = conn.execute(_tables_with_pace().where(tables.c.id == table_id)).first()
            if row is None:
                return None
            seat_rows = conn.execute(select(seats).where(seats.c.table_id == table_id).order_by(seats.c.seat)).all()
            return _table_row(row), [_seat_row(s) for s in seat_rows]

        return await self._run(read)

    async def list_tables(self, statuses: tuple[str, ...], limit: int = 200,
                          before: tuple[float, str] | None = None) -> list[tuple[TableRow, list[SeatRow]]]:
        """The newest tables first; ``before`` (created, id) of the last table of the previous page."""
        def read(conn: Connection) -> list[tuple[TableRow, list[SeatRow]]]:
            query = _tables_with_pace().where(tables.c.status.in_(statuses))
            if before is not None:
                query = query.where(or_(tables.c.created < before[0],
                                        and_(tables.c.created == before[0], tables.c.id < before[1])))
            rows = conn.execute(query.order_by(tables.c.created.desc(), tables.c.id.desc()).limit(limit)).all()
            ids = [r.id for r in rows]
            seat_rows = conn.execute(select(seats).where(seats.c.table_id.in_(ids))).all() if ids else []
            by_table: dict[str, list[SeatRow]] = {}
            for s in sorted(seat_rows, key=lambda s: s.seat):
                by_table.setdefault(s.table_id, []).append(_seat_row(s))
            return [(_table_row(r), by_table.get(r.id, [])) for r in rows]

        return await self._run(read)

    async def open_among(self, table_ids: list[str]) -> list[str]:
        def read(conn: Connection) -> list[str]:
            rows = conn.execute(select(tables.c.id).where(tables.c.id.in_(table_ids), tables.c.status == "open"))
            found = {r.id for r in rows}
            return [i for i in table_ids if i in found]

        return await self._run(read)

    async def running_with_bots(self) -> list[str]:
        """Running tables that go on without their players: with bots, or timed (stand-ins)."""
        def read(conn: Connection) -> list[str]:
            rows = conn.execute(select(tables.c.id).where(tables.c.status == "running")
                                .where(or_(tables.c.id.in_(select(seats.c.table_id).where(seats.c.kind == "bot")),
                                           tables.c.id.in_(select(paces.c.table_id).where(
                                               paces.c.pace.notlike('%"untimed"%')))))).all()
            return [r.id for r in rows]

        return await self._run(read)

    async def claim_seat(self, table_id: str, seat: SeatRow) -> None:
        """Take a free seat of an open table; Conflict if somebody has it or the table started."""
        def write(conn: Connection) -> None:
            conn.execute(insert(seats).values(table_id=table_id, seat=seat.seat, **seat.values()))
            status = conn.execute(select(tables.c.status).where(tables.c.id == table_id)).scalar()
            if status != "open":
                raise Conflict("the table has started")

        try:
            await self._run(write)
        except IntegrityError:
            raise Conflict(f"seat {seat.seat} is taken") from None

    async def invite(self, table_id: str, rows: list[SeatRow], abandoned: set[int] | frozenset[int] = frozenset()
                     ) -> None:
        """Invitations in one transaction: free seats of an open table are taken, an invited seat's old
        invitation is replaced, an ``abandoned`` seat (its player left a running game) becomes invited;
        Conflict (and nothing changed) if any seat is no longer so."""
        def write(conn: Connection) -> None:
            status = conn.execute(select(tables.c.status).where(tables.c.id == table_id)).scalar()
            for row in rows:
                if row.seat in abandoned and status == "running":
                    conn.execute(update(seats).where(seats.c.table_id == table_id, seats.c.seat == row.seat)
                                 .values(**row.values()))  # the leaver's key no longer holds it
                    continue
                replaced = conn.execute(update(seats).where(seats.c.table_id == table_id, seats.c.seat == row.seat,
                                                            seats.c.kind == "invited")
                                        .values(token_hash=row.token_hash, key_hash=None,
                                                key_token_hash=None)).rowcount
                if replaced:
                    continue
                if status != "open":
                    raise Conflict("the table has started")
                conn.execute(insert(seats).values(table_id=table_id, seat=row.seat, **row.values()))

        try:
            await self._run(write)
        except IntegrityError:
            raise Conflict("a seat was taken meanwhile") from None

    async def accept_invite(self, table_id: str, invite_hash: str, seat: SeatRow) -> None:
        """An invited seat becomes the player's, with its own token; Conflict if the invitation is gone."""
        def write(conn: Connection) -> None:
            result = conn.execute(update(seats).where(
                seats.c.table_id == table_id, seats.c.seat == seat.seat, seats.c.token_hash == invite_hash,
                seats.c.kind == "invited").values(**seat.values()))
            if result.rowcount != 1:
                raise Conflict(f"the invitation to seat {seat.seat} was used or replaced meanwhile")

        await self._run(write)

    # Personal keys (server/players.py) and rematches.

    async def add_player(self, key_hash: str) -> None:
        def write(conn: Connection) -> None:
            conn.execute(insert(players).values(key_hash=key_hash, created=time.time()))

        await self._run(write)

    async def player_known(self, key_hash: str) -> bool:
        def read(conn: Connection) -> bool:
            return conn.execute(select(players.c.key_hash).where(players.c.key_hash == key_hash)).first() is not None

        return await self._run(read)

    async def tables_of_key(self, key_hash: str, statuses: tuple[str, ...], limit: int
                            ) -> list[tuple[TableRow, list[SeatRow]]]:
        """The newest ``limit`` tables of these statuses where the key holds a seat, with all their seats."""
        def read(conn: Connection) -> list[tuple[TableRow, list[SeatRow]]]:
            held = select(seats.c.table_id).where(seats.c.key_hash == key_hash)
            rows = conn.execute(_tables_with_pace().where(tables.c.id.in_(held), tables.c.status.in_(statuses))
                                .order_by(tables.c.created.desc(), tables.c.id.desc()).limit(limit)).all()
            ids = [r.id for r in rows]
            seat_rows = conn.execute(select(seats).where(seats.c.table_id.in_(ids))
                                     .order_by(seats.c.seat)).all() if ids else []
            by_table: dict[str, list[SeatRow]] = {}
            for s in seat_rows:
                by_table.setdefault(s.table_id, []).append(_seat_row(s))
            return [(_table_row(r), by_table.get(r.id, [])) for r in rows]

        return await self._run(read)

    async def bind_key(self, table_id: str, seat: SeatRow) -> None:
        """Bind the seat to ``seat.key_hash`` while its token is still ``seat.token_hash``; Conflict if not."""
        def write(conn: Connection) -> None:
            result = conn.execute(update(seats).where(
                seats.c.table_id == table_id, seats.c.seat == seat.seat, seats.c.token_hash == seat.token_hash)
                .values(key_hash=seat.key_hash, key_token_hash=seat.key_token_hash))
            if result.rowcount != 1:
                raise Conflict(f"seat {seat.seat} changed hands meanwhile")

        await self._run(write)

    async def replace_seat(self, table_id: str, before: SeatRow, after: SeatRow) -> None:
        """Give a seat to ``after``'s holder if it is still as in ``before`` (kind and token); Conflict if not."""
        def write(conn: Connection) -> None:
            token = (seats.c.token_hash.is_(None) if before.token_hash is None
                     else seats.c.token_hash == before.token_hash)
            result = conn.execute(update(seats).where(seats.c.table_id == table_id, seats.c.seat == before.seat,
                                                      seats.c.kind == before.kind, token).values(**after.values()))
            if result.rowcount != 1:
                raise Conflict(f"seat {before.seat} changed hands meanwhile")

        await self._run(write)

    async def add_rematch(self, table_id: str, row: TableRow, seat_rows: list[SeatRow]) -> str:
        """Create ``row`` with its seats as the rematch of ``table_id``, unless that table has one already:
        the rematch's id either way (the table's one rematch, whichever process asked first)."""
        def write(conn: Connection) -> None:
            self._write_table(conn, row)
            for seat in seat_rows:
                conn.execute(insert(seats).values(table_id=row.id, seat=seat.seat, **seat.values()))
            named = conn.execute(update(tables).where(tables.c.id == table_id, tables.c.rematch.is_(None),
                                                      tables.c.status == "finished").values(rematch=row.id))
            if named.rowcount != 1:
                raise Conflict("the table has its rematch already")  # rolls the new table back

        try:
            await self._run(write)
            return row.id
        except Conflict:
            def read(conn: Connection) -> str | None:
                found: str | None = conn.execute(select(tables.c.rematch).where(tables.c.id == table_id)).scalar()
                return found

            found = await self._run(read)
            if found is None:
                raise
            return found

    async def running(self) -> list[TableRow]:
        def read(conn: Connection) -> list[TableRow]:
            return [_table_row(r) for r in conn.execute(_tables_with_pace().where(tables.c.status == "running"))]

        return await self._run(read)

    async def interrupt(self, table_id: str) -> bool:
        """A running game that cannot go on under this release's rules ends as "interrupted"."""
        def write(conn: Connection) -> bool:
            return bool(conn.execute(update(tables).where(tables.c.id == table_id, tables.c.status == "running")
                                     .values(status="interrupted")).rowcount)

        return await self._run(write)

    async def start(self, table_id: str, players: int, rules_version: int = 1) -> None:
        def write(conn: Connection) -> None:
            count = conn.execute(select(func.count()).select_from(seats).where(seats.c.table_id == table_id)).scalar()
            if count != players:
                raise Conflict(f"{count} of {players} seats are taken; fill the others (join, invite or bots)")
            result = conn.execute(update(tables).where(tables.c.id == table_id, tables.c.status == "open")
                                  .values(status="running", rules_version=rules_version))
            if result.rowcount != 1:
                raise Conflict("the table has already started")
            conn.execute(update(paces).where(paces.c.table_id == table_id).values(started=time.time()))

        await self._run(write)

    # The move log.

    async def moves(self, table_id: str, after: int = 0) -> list[MoveRow]:
        def read(conn: Connection) -> list[MoveRow]:
            rows = conn.execute(select(moves.c.move_no, moves.c.seat, moves.c.action, moves.c.at, moves.c.standin)
                                .where(moves.c.table_id == table_id, moves.c.move_no > after)
                                .order_by(moves.c.move_no)).all()
            return [MoveRow(r.move_no, r.seat, None if r.action is None else json.loads(r.action), r.at, r.standin)
                    for r in rows]

        return await self._run(read)

    async def seat_changes(self, table_id: str, after: int = 0) -> list[SeatChange]:
        """The table's seat changes from number ``after`` on."""
        def read(conn: Connection) -> list[SeatChange]:
            rows = conn.execute(select(seat_changes).where(seat_changes.c.table_id == table_id,
                                                           seat_changes.c.no >= after)
                                .order_by(seat_changes.c.no)).all()
            return [SeatChange(r.no, r.seat, r.move_no, r.what, r.at) for r in rows]

        return await self._run(read)

    async def add_seat_change(self, table_id: str, change: SeatChange, seat: SeatRow | None = None) -> None:
        """Claim change number ``change.no``: of two writers (processes, or a restart) that both saw
        ``no`` changes, only one adds the next; the other gets Conflict and reads again.  The change is
        added only while the log has exactly ``change.move_no`` entries: a deadline claim that races a
        player's move in another process loses if the move came first (``append_checked`` is the other
        half).  With ``seat``, the seat row is replaced in the same transaction (a seat handed to a new
        person)."""
        def write(conn: Connection) -> None:
            self._lock_table(conn, table_id)
            later = exists().where(moves.c.table_id == table_id, moves.c.move_no > change.move_no)
            values = select(literal(table_id), literal(change.no), literal(change.seat), literal(change.move_no),
                            literal(change.what), literal(change.at)).where(~later)
            added = conn.execute(insert(seat_changes).from_select(  # (rowcount of INSERT … SELECT: not on psycopg)
                ["table_id", "no", "seat", "move_no", "what", "at"], values).returning(seat_changes.c.no)).all()
            if len(added) != 1:
                raise Conflict(f"the table moved on past entry {change.move_no}")
            if seat is not None:
                conn.execute(update(seats).where(seats.c.table_id == table_id, seats.c.seat == seat.seat)
                             .values(**seat.values()))

        try:
            await self._run(write)
        except IntegrityError:
            raise Conflict(f"seat change {change.no} was made by somebody else") from None

    def _lock_table(self, conn: Connection, table_id: str) -> None:
        """PostgreSQL: one writer of this table's log and seat changes at a time until the transaction
        ends, so that their conditions (SQLite writers queue anyway) see what the other committed."""
        if not self.sqlite:
            conn.execute(text("SELECT pg_advisory_xact_lock(:key, hashtext(:table))"),
                         {"key": TABLE_LOCK, "table": table_id})

    async def append_checked(self, table_id: str, move_no: int, seat: int, action: list[Any], finished: bool,
                             at: float, standin: str | None, changes: int) -> None:
        """Commit one move made while the table had ``changes`` seat changes, in a transaction of its
        own; Conflict if the move number is taken or a seat change was added meanwhile (a stand-in
        took the seat, or its player took it back): exactly one of a deadline claim and a player's
        move wins.  For the moves of timed tables' players and of stand-ins, which can race seat changes."""
        def write(conn: Connection) -> int:
            self._lock_table(conn, table_id)
            known = select(func.count()).select_from(seat_changes).where(
                seat_changes.c.table_id == table_id).scalar_subquery()
            values = select(literal(table_id), literal(move_no), literal(seat),
                            literal(json.dumps(action, separators=(",", ":"))), literal(at),
                            literal(standin, String(16))).where(known == changes)
            added = len(conn.execute(self._insert(moves).from_select(
                ["table_id", "move_no", "seat", "action", "at", "standin"], values)
                .on_conflict_do_nothing(index_elements=["table_id", "move_no"]).returning(moves.c.move_no)).all())
            if added == 1 and finished:
                conn.execute(update(tables).where(tables.c.id == table_id).values(status="finished"))
            return added

        if await self._run(write) != 1:
            raise Conflict(f"move {move_no} was made by somebody else, or the seat changed hands")

    # Contacts and notices (issue 15, server/notify.py).

    async def contacts(self, table_id: str) -> dict[int, Contact]:
        def read(conn: Connection) -> dict[int, Contact]:
            rows = conn.execute(select(contacts).where(contacts.c.table_id == table_id)).all()
            return {r.seat: Contact(r.email, r.lang) for r in rows}

        return await self._run(read)

    async def set_contact(self, table_id: str, seat: int, contact: Contact | None) -> None:
        """Store (or with None forget) the seat's address."""
        def write(conn: Connection) -> None:
            conn.execute(delete(contacts).where(contacts.c.table_id == table_id, contacts.c.seat == seat))
            if contact is not None:
                conn.execute(insert(contacts).values(table_id=table_id, seat=seat, email=contact.email,
                                                     lang=contact.lang))

        await self._run(write)

    async def running_with_contacts(self) -> list[str]:
        def read(conn: Connection) -> list[str]:
            rows = conn.execute(select(tables.c.id).where(tables.c.status == "running", tables.c.id.in_(
                select(contacts.c.table_id)))).all()
            return [r.id for r in rows]

        return await self._run(read)

    async def add_notices(self, found: list[Notice]) -> int:
        """Add the notices not added yet (by this process or another); the number added."""
        def write(conn: Connection) -> int:
            statement = self._insert(notices).on_conflict_do_nothing(
                index_elements=["table_id", "seat", "kind", "mark"])
            return int(conn.execute(statement, [{"table_id": n.table_id, "seat": n.seat, "kind": n.kind,
                                                 "mark": n.mark, "due": n.due, "tries": 0} for n in found]).rowcount)

        return await self._run(write) if found else 0

    async def due_notices(self, now: float, limit: int = 20) -> list[Notice]:
        def read(conn: Connection) -> list[Notice]:
            rows = conn.execute(select(notices).where(notices.c.done.is_(None), notices.c.due <= now,
                                                      or_(notices.c.lease.is_(None), notices.c.lease < now))
                                .order_by(notices.c.due).limit(limit)).all()
            return [Notice(r.table_id, r.seat, r.kind, int(r.mark), r.due, r.tries) for r in rows]

        return await self._run(read)

    async def lease_notice(self, notice: Notice, now: float, until: float) -> bool:
        """Take the notice to send it until ``until``; False if another process has it or it is done."""
        def write(conn: Connection) -> bool:
            return bool(conn.execute(update(notices).where(
                *_notice_key(notice), notices.c.done.is_(None), notices.c.tries == notice.tries,
                or_(notices.c.lease.is_(None), notices.c.lease < now)).values(
                lease=until, tries=notice.tries + 1)).rowcount)

        return await self._run(write)

    async def end_notice(self, notice: Notice, outcome: str | None, at: float) -> None:
        """Mark the notice done (``outcome``), or with None give it back to be tried again at ``at``."""
        def write(conn: Connection) -> None:
            values: dict[str, Any] = {"done": at, "outcome": outcome} if outcome else {"lease": None, "due": at}
            conn.execute(update(notices).where(*_notice_key(notice)).values(**values))

        await self._run(write)

    async def notices(self, table_id: str) -> list[tuple[Notice, str | None]]:
        """A table's notices with their outcomes (for tests and operators)."""
        def read(conn: Connection) -> list[tuple[Notice, str | None]]:
            rows = conn.execute(select(notices).where(notices.c.table_id == table_id)).all()
            return [(Notice(r.table_id, r.seat, r.kind, int(r.mark), r.due, r.tries), r.outcome) for r in rows]

        return await self._run(read)
    # The chat (issue 14).

    async def chat(self, table_id: str, after: int = 0) -> list[ChatRow]:
        """The table's chat messages from number ``after`` on."""
        def read(conn: Connection) -> list[ChatRow]:
            rows = conn.execute(select(chat).where(chat.c.table_id == table_id, chat.c.no >= after)
                                .order_by(chat.c.no)).all()
            return [ChatRow(r.no, r.seat, r.text, r.at) for r in rows]

        return await self._run(read)

    async def add_chat(self, table_id: str, row: ChatRow, most: int, seconds: float, cap: int) -> None:
        """Add message number ``row.no``, unless its seat sent ``most`` messages in the last ``seconds``
        or the table holds ``cap`` (ChatRefused); Conflict if another writer added that number first.
        The count and the insert are one transaction, and every writer of the table's next number
        conflicts with every other: the rate holds across processes."""
        def write(conn: Connection) -> None:
            if row.no >= cap:
                raise ChatRefused(None)
            recent = conn.execute(select(func.count(), func.min(chat.c.at)).where(
                chat.c.table_id == table_id, chat.c.seat == row.seat, chat.c.at > row.at - seconds)).one()
            if recent[0] >= most:
                raise ChatRefused(max(0.0, recent[1] + seconds - row.at))
            conn.execute(insert(chat).values(table_id=table_id, no=row.no, seat=row.seat, text=row.text, at=row.at))

        try:
            await self._run(write)
        except IntegrityError:
            raise Conflict(f"chat message {row.no} was added by somebody else") from None

    async def append(self, table_id: str, move_no: int, seat: int, action: list[Any] | None, finished: bool,
                     at: float | None = None, standin: str | None = None) -> None:
        """Commit one log entry; Conflict if that move number exists already (somebody else moved).

        Entries of all tables are committed together in small batches (group commit), one
        transaction each, so that many tables do not wait for each other's round trips."""
        future: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        text = None if action is None else json.dumps(action, separators=(",", ":"))
        self._pending.append(({"table_id": table_id, "move_no": move_no, "seat": seat, "action": text,
                               "at": time.time() if at is None else at, "standin": standin}, finished, future))
        if not self._gathering and len(self._writers) < self._most_writers:
            self._gathering = True
            self._writers.add(asyncio.create_task(self._write()))
        if not await future:
            raise Conflict(f"move {move_no} was made by somebody else")

    async def _write(self) -> None:
        try:
            try:
                await asyncio.sleep(0)  # let the other tables of this loop iteration queue their entries
            finally:  # entries that come from now on go into this writer's next batch, or another writer's
                self._gathering = False
            await self._write_pending()
        finally:  # (at once: a done callback would run later, and an entry meanwhile would find no writer)
            self._writers.discard(asyncio.current_task())

    async def _write_pending(self) -> None:
        while self._pending:
            batch, self._pending = self._pending[:BATCH], self._pending[BATCH:]
            try:
                rows = [(row, finished) for row, finished, _ in batch]
                inserted = (await self._run_raw(self._insert_batch_sqlite, rows) if self.sync_engine is not None
                            else await self._run_postgresql(self._insert_batch_postgresql, rows))
            except Exception as error:  # nothing of the batch was committed
                for *_, future in batch:
                    if not future.done():
                        future.set_exception(error)
                continue
            for (*_, future), ok in zip(batch, inserted, strict=True):
                if not future.done():
                    future.set_result(ok)

    async def _run_raw(self, fn: Callable[..., T], *args: Any) -> T:
        """SQLite: ``fn(dbapi_connection, *args)`` in one transaction, committed when it returns.  The
        move log's batches take this way: SQLAlchemy's work around one small insert (checking the
        connection out, compiling, wrapping the rows) cost several times SQLite's own."""
        assert self.sync_engine is not None
        if self._raw is None:
            proxied = self.sync_engine.raw_connection()  # StaticPool: the one connection every _run uses too
            self._raw = proxied.dbapi_connection
            proxied.close()
        try:
            result = fn(self._raw, *args)
            self._raw.commit()
        except BaseException:
            self._raw.rollback()
            raise
        return result

    async def _run_postgresql(self, fn: Callable[..., Awaitable[T]], *args: Any) -> T:
        """PostgreSQL: ``await fn(connection, *args)`` on the move log's own connection, in autocommit mode:
        each statement ``fn`` sends is its own transaction, committed (and flushed, with PostgreSQL's
        ``synchronous_commit``) before its result comes back.  The move log's batches take this way: a
        batch through SQLAlchemy's pool took three round trips (BEGIN, the insert, COMMIT), each a turn of
        a busy event loop.  Each writer uses a connection of its own; one that fails is closed, and the next
        batch opens a new one."""
        if self._logs:
            connection = self._logs.pop()
        else:
            import psycopg  # (not for SQLite)

            assert self.engine is not None
            url = self.engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
            # prepare_threshold 0: the one statement is prepared on the server at its first use
            connection = await psycopg.AsyncConnection.connect(url, autocommit=True, prepare_threshold=0)
        try:
            result = await fn(connection, *args)
        except BaseException:
            with contextlib.suppress(Exception):
                await connection.close()
            raise
        self._logs.append(connection)
        return result

    @staticmethod
    async def _insert_batch_postgresql(conn: psycopg.AsyncConnection[Any],
                                       rows: list[tuple[dict[str, Any], bool]]) -> list[bool]:
        """``_insert_batch`` as one statement (one round trip, one transaction): the rows travel as arrays, so
        the statement is the same for every batch and stays prepared."""
        columns: list[list[Any]] = [[row[name] for row, _ in rows] for name in LOG_COLUMNS]
        cursor = await conn.execute(APPEND_POSTGRESQL, [*columns, [done for _, done in rows]])
        inserted = {(table_id, move_no) for table_id, move_no in await cursor.fetchall()}
        return [(row["table_id"], row["move_no"]) in inserted for row, _ in rows]

    def _insert_batch_sqlite(self, conn: sqlite3.Connection, rows: list[tuple[dict[str, Any], bool]]) -> list[bool]:
        """``_insert_batch`` on SQLite's own connection: a move number taken already inserts nothing."""
        results = []
        for row, _ in rows:
            cursor = conn.execute(APPEND_SQLITE, (row["table_id"], row["move_no"], row["seat"], row["action"],
                                                  row["at"], row["standin"]))
            results.append(cursor.rowcount == 1)
        finished = [(row["table_id"],) for (row, done), ok in zip(rows, results, strict=True) if ok and done]
        if finished:
            conn.executemany("UPDATE stammtisch_tables SET status = 'finished' WHERE id = ?", finished)
        return results


BATCH = 200
LOG_WRITERS = 2  # PostgreSQL: batches in flight at once
LOG_COLUMNS = ("table_id", "move_no", "seat", "action", "at", "standin")
APPEND_SQLITE = ("INSERT INTO stammtisch_moves (table_id, move_no, seat, action, at, standin) "
                 "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (table_id, move_no) DO NOTHING")


# The batch's rows as arrays, the last one whether the row ends its game; a move number taken already
# inserts nothing (and is not returned), and a table is marked finished only by a row that was inserted.
APPEND_POSTGRESQL = """
WITH batch AS (
    SELECT * FROM unnest(%s::text[], %s::int[], %s::int[], %s::text[], %s::float8[], %s::text[], %s::bool[])
        AS b (table_id, move_no, seat, action, at, standin, ends)),
added AS (
    INSERT INTO stammtisch_moves (table_id, move_no, seat, action, at, standin)
    SELECT table_id, move_no, seat, action, at, standin FROM batch
    ON CONFLICT (table_id, move_no) DO NOTHING
    RETURNING table_id, move_no),
finished AS (
    UPDATE stammtisch_tables SET status = 'finished'
    WHERE id IN (SELECT batch.table_id FROM batch JOIN added USING (table_id, move_no) WHERE batch.ends))
SELECT table_id, move_no FROM added"""


def _notice_key(notice: Notice) -> list[Any]:
    return [notices.c.table_id == notice.table_id, notices.c.seat == notice.seat, notices.c.kind == notice.kind,
            notices.c.mark == notice.mark]


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    # WAL with synchronous=NORMAL: a committed move survives the server being killed (not a power cut).
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA wal_autocheckpoint=0")  # checkpoints run in a thread (Store._checkpoints)
    cursor.execute("PRAGMA busy_timeout=10000")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()
