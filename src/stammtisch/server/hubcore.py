"""What every part of the hub shares: its state, and the cached live tables: loading them, catching
up with other processes, waking their subscribers."""

from __future__ import annotations

import asyncio
import logging
from abc import ABC, abstractmethod
from collections import OrderedDict

from stammtisch.engine.protocol import Action, Seat
from stammtisch.server.config import Config
from stammtisch.server.holds import Hold
from stammtisch.server.live import make_broker
from stammtisch.server.livetable import TABLE_ID, LiveTable, Subscriber, replay_gently
from stammtisch.server.messages import ApiError
from stammtisch.server.notify import Notifier
from stammtisch.server.store import SeatRow, Store
from stammtisch.server.thinking import Thinkers
from stammtisch.server.upgrade import INTERRUPTED, moves_in_force

log = logging.getLogger("stammtisch.server")


class HubCore(ABC):
    """The hub's state, which every part shares (the store, the broker, the cached live tables), and
    the tables' loading, catching up and subscribers; the Hub (server/tables.py) composes the parts."""

    def __init__(self, config: Config, hold: Hold | None = None) -> None:
        self.config = config
        self.hold = hold  # the database, held while this process serves it (server/holds.py)
        self._bot_tables: set[str] = set()  # tables whose bots (and stand-ins) this process plays
        self._elsewhere: dict[str, float] = {}  # tables another process played when last asked → ask again after
        self._letting_go: set[asyncio.Task[None]] = set()
        self.thinkers = Thinkers(config.bot_workers, config.bot_timeout)
        self.store = Store(config.database_url())
        self.broker = make_broker(config.redis)
        self.shared = config.redis is not None  # other processes write to the same database
        self.tables: OrderedDict[str, LiveTable] = OrderedDict()  # least recently used first
        self._loads: dict[str, asyncio.Future[LiveTable]] = {}
        self._closing = False
        self._poller: asyncio.Task[None] | None = None
        self._clock_watch: asyncio.Task[None] | None = None
        self.notifier: Notifier | None = None  # (server/tables.py: with --smtp)

    # Loading and catching up.

    async def get(self, table_id: str) -> LiveTable:
        table = self.tables.get(table_id)
        if table is not None:
            self.tables.move_to_end(table_id)
            return table
        loading = self._loads.get(table_id)
        if loading is None:  # one load per table, however many ask at once; other tables need not wait
            loading = self._loads[table_id] = asyncio.ensure_future(self._load(table_id))
            loading.add_done_callback(lambda _: self._loads.pop(table_id, None))
        table = await asyncio.shield(loading)
        if table_id not in self.tables:
            self.keep(table)
        return table

    def keep(self, table: LiveTable) -> None:
        """Cache a table, forgetting the least recently used unwatched ones beyond ``max_tables``
        (they are read again when asked for)."""
        self.tables[table.id] = table
        excess = len(self.tables) - self.config.max_tables
        if excess <= 0:
            return
        for other in list(self.tables.values()):
            if excess <= 0:
                break
            if other is not table and not other.busy():
                del self.tables[other.id]
                self._let_go_of_bots(other.id)
                excess -= 1

    async def _load(self, table_id: str) -> LiveTable:
        if len(table_id) > 32 or not TABLE_ID.fullmatch(table_id):  # (PostgreSQL refuses a NUL in a text)
            raise ApiError(404, "not_found", f"no table {table_id[:40]!r}")
        found = await self.store.table(table_id)
        if found is None:
            raise ApiError(404, "not_found", f"no table {table_id!r}")
        table = LiveTable(*found)
        if table.status == INTERRUPTED or not table.installed:  # its rules are gone: its record, never a board
            table.kept_moves = moves_in_force(await self.store.moves(table_id))
        elif table.status != "open":
            table.begin()
            changes = await self.store.seat_changes(table_id)
            await replay_gently(table, await self.store.moves(table_id), changes)
            if self.notifier is not None:
                table.contacts = await self.store.contacts(table_id)
        return table

    async def refresh(self, table: LiveTable) -> bool:
        """Catch up with the database (changes by other processes); call with the table's lock held.
        Whatever it finds is pushed to this process's subscribers."""
        found = await self.store.table(table.id)
        if found is None:
            return False
        before = (table.version, table.status, [(s.seat, s.kind, s.name) for s in table.seats.values()],
                  len(table.changes), table.row.rematch)
        row, seat_rows = found
        table.seats = {s.seat: s for s in seat_rows}
        table.row.rematch = row.rematch
        if row.status == INTERRUPTED and table.status != INTERRUPTED:  # by another process's start
            self.tables.pop(table.id, None)  # read again (its record) when next asked for
            table.row.status, table.match = row.status, None
            self.wake(table)
            return True
        if table.game is None and row.status != "open" and table.installed:
            table.row.status = row.status
            table.row.started = row.started
            table.begin()
        elif table.status == "open":
            table.row.status = row.status
        if table.game is not None:
            entries = await self.store.moves(table.id, after=table.version)
            table.catch_up(entries, await self.store.seat_changes(table.id, len(table.changes)))
            if self.notifier is not None:
                table.contacts = await self.store.contacts(table.id)
        changed = before != (table.version, table.status, [(s.seat, s.kind, s.name) for s in table.seats.values()],
                             len(table.changes), table.row.rematch)
        if changed:
            self.wake(table)
            self.kick_bots(table)
        return changed

    async def current(self, table_id: str) -> LiveTable:
        """The table, caught up with other processes when there are any."""
        table = await self.get(table_id)
        if self.shared:
            async with table.lock:
                await self.refresh(table)
        return table

    async def on_remote_change(self, table_id: str) -> None:
        table = self.tables.get(table_id)
        if table is None:
            return
        async with table.lock:
            await self.refresh(table)

    async def changed(self, table: LiveTable) -> None:
        self.wake(table)
        try:
            await self.broker.publish(table.id)
        except Exception:  # the change is committed; other processes catch up on their next read
            log.exception("publishing a change of table %s", table.id)
        self.kick_bots(table)

    def wake(self, table: LiveTable) -> None:
        for sub in table.subscribers:
            sub.changed.set()

    def subscribe(self, table: LiveTable, seat: Seat | None, since: int, token: str | None = None) -> Subscriber:
        sub = Subscriber(seat, since, token)
        table.subscribers.add(sub)
        if seat is not None:
            table.watching[seat] += 1
        sub.changed.set()
        return sub

    def unsubscribe(self, table: LiveTable, sub: Subscriber) -> None:
        if sub in table.subscribers and sub.seat is not None:
            table.watching[sub.seat] -= 1
            if table.watching[sub.seat] <= 0:
                del table.watching[sub.seat]
        table.subscribers.discard(sub)

    # What the other parts provide (server/tables.py composes them into the Hub).

    @abstractmethod
    def kick_bots(self, table: LiveTable) -> None:
        """Play the table's bots and stand-ins, if this process does (server/botplay.py)."""

    @abstractmethod
    def _let_go_of_bots(self, table_id: str) -> None:
        """Stop playing a forgotten table's bots (server/botplay.py)."""

    @abstractmethod
    async def _play_unplayed_bots(self) -> None:
        """Play the running tables' bots that no process plays (server/botplay.py)."""

    @abstractmethod
    async def act(self, table: LiveTable, seat: Seat, action: Action, move_no: int, standin: str | None = None) -> int:
        """Validate, commit, then apply a move (server/playing.py)."""

    @abstractmethod
    async def _add_change(self, table: LiveTable, seat: Seat, what: str, row: SeatRow | None = None) -> bool:
        """Claim the next seat change (server/standins.py)."""

    @abstractmethod
    async def _forget_contact(self, table: LiveTable, seat: Seat) -> None:
        """Forget a seat's address for e-mail notices (server/contacts.py)."""
