"""The database: tables, seats (tokens hashed) and the move log, which is the truth.

A table's state is rebuilt by replaying its log from (game, players, options, seed).  The
primary key (table_id, move_no) of the log makes racing writers safe, even across processes:
of two inserts of the same move number one fails, and its writer reloads and re-validates.
SQLite (the embedded default) and PostgreSQL share this code through SQLAlchemy Core.
"""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import dataclass
from typing import Any

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
    event,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

metadata = MetaData()

tables = Table(
    "stammtisch_tables", metadata,
    Column("id", String(32), primary_key=True),
    Column("game", String(32), nullable=False),
    Column("players", Integer, nullable=False),
    Column("options", Text, nullable=False),  # JSON
    Column("seed", BigInteger, nullable=False),
    Column("status", String(16), nullable=False),  # open, running, finished
    Column("host_hash", String(64), nullable=False),
    Column("created", Float, nullable=False),
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


def _table_row(row: Any) -> TableRow:
    return TableRow(row.id, row.game, row.players, json.loads(row.options), int(row.seed), row.status,
                    row.host_hash, row.created)


class Store:
    def __init__(self, url: str) -> None:
        self.url = url
        self.sqlite = url.startswith("sqlite")
        if self.sqlite:
            # One connection: SQLite has one writer anyway, and this way no writer waits on a lock.
            self.engine: AsyncEngine = create_async_engine(url, pool_size=1, max_overflow=0, pool_timeout=60)
            event.listen(self.engine.sync_engine, "connect", _sqlite_pragmas)
        else:
            self.engine = create_async_engine(url, pool_size=8, max_overflow=8, pool_pre_ping=True)

    async def open(self) -> None:
        for attempt in range(5):  # several processes may create the schema at once
            try:
                async with self.engine.begin() as conn:
                    await conn.run_sync(metadata.create_all)
                return
            except (IntegrityError, OperationalError):
                if attempt == 4:
                    raise
                await asyncio.sleep(0.2 * (attempt + 1))
            except Exception as error:  # PostgreSQL reports a concurrent CREATE TABLE as ProgrammingError
                if attempt == 4 or "already exists" not in str(error):
                    raise
                await asyncio.sleep(0.2 * (attempt + 1))

    async def close(self) -> None:
        await self.engine.dispose()

    # Tables and seats.

    async def create_table(self, row: TableRow) -> None:
        async with self.engine.begin() as conn:
            await conn.execute(insert(tables).values(
                id=row.id, game=row.game, players=row.players, options=json.dumps(row.options), seed=row.seed,
                status=row.status, host_hash=row.host_hash, created=row.created or time.time()))

    async def table(self, table_id: str) -> tuple[TableRow, list[SeatRow]] | None:
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(tables).where(tables.c.id == table_id))).first()
            if row is None:
                return None
            seat_rows = (await conn.execute(select(seats).where(seats.c.table_id == table_id)
                                            .order_by(seats.c.seat))).all()
        return _table_row(row), [SeatRow(s.seat, s.kind, s.name, s.bot_kind, s.token_hash) for s in seat_rows]

    async def list_tables(self, statuses: tuple[str, ...], limit: int = 200) -> list[tuple[TableRow, list[SeatRow]]]:
        async with self.engine.connect() as conn:
            rows = (await conn.execute(select(tables).where(tables.c.status.in_(statuses))
                                       .order_by(tables.c.created.desc()).limit(limit))).all()
            ids = [r.id for r in rows]
            seat_rows = (await conn.execute(select(seats).where(seats.c.table_id.in_(ids)))).all() if ids else []
        by_table: dict[str, list[SeatRow]] = {}
        for s in sorted(seat_rows, key=lambda s: s.seat):
            by_table.setdefault(s.table_id, []).append(SeatRow(s.seat, s.kind, s.name, s.bot_kind, s.token_hash))
        return [(_table_row(r), by_table.get(r.id, [])) for r in rows]

    async def running_with_bots(self) -> list[str]:
        async with self.engine.connect() as conn:
            rows = (await conn.execute(
                select(tables.c.id).where(tables.c.status == "running")
                .where(tables.c.id.in_(select(seats.c.table_id).where(seats.c.kind == "bot"))))).all()
        return [r.id for r in rows]

    async def claim_seat(self, table_id: str, seat: SeatRow) -> None:
        """Take a free seat of an open table; Conflict if somebody has it or the table started."""
        try:
            async with self.engine.begin() as conn:
                await conn.execute(insert(seats).values(
                    table_id=table_id, seat=seat.seat, kind=seat.kind, name=seat.name, bot_kind=seat.bot_kind,
                    token_hash=seat.token_hash))
                status = (await conn.execute(select(tables.c.status).where(tables.c.id == table_id))).scalar()
                if status != "open":
                    raise Conflict("the table has started")
        except IntegrityError:
            raise Conflict(f"seat {seat.seat} is taken") from None

    async def accept_invite(self, table_id: str, seat: int, token_hash: str, name: str) -> None:
        async with self.engine.begin() as conn:
            await conn.execute(update(seats).where(seats.c.table_id == table_id, seats.c.seat == seat,
                                                   seats.c.token_hash == token_hash, seats.c.kind == "invited")
                               .values(kind="human", name=name))

    async def start(self, table_id: str, players: int) -> None:
        async with self.engine.begin() as conn:
            count = (await conn.execute(select(func.count()).select_from(seats)
                                        .where(seats.c.table_id == table_id))).scalar()
            if count != players:
                raise Conflict(f"{count} of {players} seats are taken; fill the others (join, invite or bots)")
            result = await conn.execute(update(tables).where(tables.c.id == table_id, tables.c.status == "open")
                                        .values(status="running"))
            if result.rowcount != 1:
                raise Conflict("the table has already started")

    # The move log.

    async def moves(self, table_id: str, after: int = 0) -> list[MoveRow]:
        async with self.engine.connect() as conn:
            rows = (await conn.execute(select(moves.c.move_no, moves.c.seat, moves.c.action)
                                       .where(moves.c.table_id == table_id, moves.c.move_no > after)
                                       .order_by(moves.c.move_no))).all()
        return [MoveRow(r.move_no, r.seat, None if r.action is None else json.loads(r.action)) for r in rows]

    async def append(self, table_id: str, move_no: int, seat: int, action: list[Any] | None, finished: bool) -> None:
        """Commit one log entry; Conflict if that move number exists already (somebody else moved)."""
        try:
            async with self.engine.begin() as conn:
                await conn.execute(insert(moves).values(
                    table_id=table_id, move_no=move_no, seat=seat,
                    action=None if action is None else json.dumps(action, separators=(",", ":"))))
                if finished:
                    await conn.execute(update(tables).where(tables.c.id == table_id).values(status="finished"))
        except IntegrityError:
            raise Conflict(f"move {move_no} was made by somebody else") from None


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    # WAL with synchronous=NORMAL: a committed move survives the server being killed (not a power cut).
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA busy_timeout=10000")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()
