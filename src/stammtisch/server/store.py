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
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from sqlalchemy import (
    BigInteger,
    Column,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    and_,
    create_engine,
    event,
    func,
    insert,
    or_,
    select,
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
)  # fmt: skip

seats = Table(
    "stammtisch_seats", metadata,
    Column("table_id", String(32), ForeignKey("stammtisch_tables.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(16), nullable=False),  # human, invited, bot
    Column("name", String(64), nullable=False),
    Column("bot_kind", String(16)),
    Column("token_hash", String(64)),
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


@dataclass
class SeatRow:
    seat: int
    kind: str
    name: str
    bot_kind: str | None
    token_hash: str | None


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


@dataclass
class PaceRow:
    pace: dict[str, Any]
    standin: str
    started: float | None


def _table_row(row: Any) -> TableRow:
    return TableRow(row.id, row.game, row.players, json.loads(row.options), int(row.seed), row.status,
                    row.host_hash, row.created, row.rules_version, None if row.pace is None else json.loads(row.pace),
                    row.standin or "", row.started)


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
        # One statement for every batch, run with the batch's rows as parameters: compiled once (a
        # statement with the rows as values was compiled again for every batch, most of a move's cost).
        self._append = (self._insert(moves).on_conflict_do_nothing(index_elements=["table_id", "move_no"])
                        .returning(moves.c.table_id, moves.c.move_no))
        self._pending: list[tuple[dict[str, Any], bool, asyncio.Future[bool]]] = []
        self._writer: asyncio.Task[None] | None = None
        self._checkpointer: asyncio.Task[None] | None = None
        self._raw: Any = None  # SQLite's own connection (_run_raw)

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
        if self._writer is not None:
            with contextlib.suppress(BaseException):
                await asyncio.wait_for(self._writer, 5)
        if self.engine is not None:
            await self.engine.dispose()
        if self.sync_engine is not None:
            self.sync_engine.dispose()

    # Tables and seats.

    async def create_table(self, row: TableRow) -> None:
        def write(conn: Connection) -> None:
            conn.execute(insert(tables).values(
                id=row.id, game=row.game, players=row.players, options=json.dumps(row.options), seed=row.seed,
                status=row.status, host_hash=row.host_hash, created=row.created or time.time(),
                rules_version=row.rules_version))
            if row.pace is not None or row.standin:
                conn.execute(insert(paces).values(table_id=row.id, pace=json.dumps(row.pace or {}),
                                                  standin=row.standin))

        await self._run(write)

    async def table(self, table_id: str) -> tuple[TableRow, list[SeatRow]] | None:
        def read(conn: Connection) -> tuple[TableRow, list[SeatRow]] | None:
            row = conn.execute(_tables_with_pace().where(tables.c.id == table_id)).first()
            if row is None:
                return None
            seat_rows = conn.execute(select(seats).where(seats.c.table_id == table_id).order_by(seats.c.seat)).all()
            return _table_row(row), [SeatRow(s.seat, s.kind, s.name, s.bot_kind, s.token_hash) for s in seat_rows]

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
                by_table.setdefault(s.table_id, []).append(SeatRow(s.seat, s.kind, s.name, s.bot_kind, s.token_hash))
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
            conn.execute(insert(seats).values(table_id=table_id, seat=seat.seat, kind=seat.kind, name=seat.name,
                                              bot_kind=seat.bot_kind, token_hash=seat.token_hash))
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
                                 .values(kind=row.kind, name=row.name, token_hash=row.token_hash))
                    continue
                replaced = conn.execute(update(seats).where(seats.c.table_id == table_id, seats.c.seat == row.seat,
                                                            seats.c.kind == "invited")
                                        .values(token_hash=row.token_hash)).rowcount
                if replaced:
                    continue
                if status != "open":
                    raise Conflict("the table has started")
                conn.execute(insert(seats).values(table_id=table_id, seat=row.seat, kind=row.kind, name=row.name,
                                                  bot_kind=row.bot_kind, token_hash=row.token_hash))

        try:
            await self._run(write)
        except IntegrityError:
            raise Conflict("a seat was taken meanwhile") from None

    async def accept_invite(self, table_id: str, invite_hash: str, seat: SeatRow) -> None:
        """An invited seat becomes the player's, with its own token; Conflict if the invitation is gone."""
        def write(conn: Connection) -> None:
            result = conn.execute(update(seats).where(
                seats.c.table_id == table_id, seats.c.seat == seat.seat, seats.c.token_hash == invite_hash,
                seats.c.kind == "invited").values(kind=seat.kind, name=seat.name, token_hash=seat.token_hash))
            if result.rowcount != 1:
                raise Conflict(f"the invitation to seat {seat.seat} was used or replaced meanwhile")

        await self._run(write)

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
        ``no`` changes, only one adds the next; the other gets Conflict and reads again.  With ``seat``,
        the seat row is replaced in the same transaction (a seat handed to a new person)."""
        def write(conn: Connection) -> None:
            conn.execute(insert(seat_changes).values(table_id=table_id, no=change.no, seat=change.seat,
                                                     move_no=change.move_no, what=change.what, at=change.at))
            if seat is not None:
                conn.execute(update(seats).where(seats.c.table_id == table_id, seats.c.seat == seat.seat)
                             .values(kind=seat.kind, name=seat.name, bot_kind=seat.bot_kind,
                                     token_hash=seat.token_hash))

        try:
            await self._run(write)
        except IntegrityError:
            raise Conflict(f"seat change {change.no} was made by somebody else") from None

    async def append(self, table_id: str, move_no: int, seat: int, action: list[Any] | None, finished: bool,
                     at: float | None = None, standin: str | None = None) -> None:
        """Commit one log entry; Conflict if that move number exists already (somebody else moved).

        Entries of all tables are committed together in small batches (group commit), one
        transaction each, so that many tables do not wait for each other's round trips."""
        future: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        text = None if action is None else json.dumps(action, separators=(",", ":"))
        self._pending.append(({"table_id": table_id, "move_no": move_no, "seat": seat, "action": text,
                               "at": time.time() if at is None else at, "standin": standin}, finished, future))
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._write())
        if not await future:
            raise Conflict(f"move {move_no} was made by somebody else")

    async def _write(self) -> None:
        await asyncio.sleep(0)  # let the other tables of this loop iteration queue their entries
        while self._pending:
            batch, self._pending = self._pending[:BATCH], self._pending[BATCH:]
            try:
                rows = [(row, finished) for row, finished, _ in batch]
                inserted = (await self._run_raw(self._insert_batch_sqlite, rows) if self.sync_engine is not None
                            else await self._run(self._insert_batch, rows))
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

    def _insert_batch(self, conn: Connection, rows: list[tuple[dict[str, Any], bool]]) -> list[bool]:
        """One statement for the whole batch (SQLAlchemy sends its rows as one multi-row INSERT); a move
        number taken already inserts nothing (and is not returned) instead of failing the others."""
        inserted = {(r.table_id, r.move_no) for r in conn.execute(self._append, [row for row, _ in rows])}
        results = [(row["table_id"], row["move_no"]) in inserted for row, _ in rows]
        finished = [row["table_id"] for (row, done), ok in zip(rows, results, strict=True) if ok and done]
        if finished:
            conn.execute(update(tables).where(tables.c.id.in_(finished)).values(status="finished"))
        return results


BATCH = 200
APPEND_SQLITE = ("INSERT INTO stammtisch_moves (table_id, move_no, seat, action, at, standin) "
                 "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (table_id, move_no) DO NOTHING")


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    # WAL with synchronous=NORMAL: a committed move survives the server being killed (not a power cut).
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA wal_autocheckpoint=0")  # checkpoints run in a thread (Store._checkpoints)
    cursor.execute("PRAGMA busy_timeout=10000")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()
