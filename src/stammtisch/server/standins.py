"""Stand-ins (issue 15): the clocks' watch, a stand-in taking a seat, a player leaving or coming back."""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from stammtisch.engine.protocol import Seat
from stammtisch.server.hubcore import HubCore
from stammtisch.server.livetable import LiveTable, conflict, left_the_game
from stammtisch.server.messages import field as get_field
from stammtisch.server.store import Conflict, SeatChange, SeatRow

log = logging.getLogger("stammtisch.server")


class StandIns(HubCore):
    """The seat changes: a stand-in for a player out of time, away or gone; the player's return."""

    async def _watch_clocks(self) -> None:
        """Every ``clock_tick`` seconds: a stand-in for each seat whose time has run out, in the timed
        tables this process holds; now and then it looks for tables whose bots nobody plays.  The
        deadlines come from stored times, so after a restart the overdue seats are found at once."""
        ticks = 0
        while True:
            try:
                if ticks % 15 == 14:
                    await self._play_unplayed_bots()
                now = time.time()
                for table in [t for t in self.tables.values() if t.overdue(now)]:
                    for seat in table.overdue(now):
                        await self.stand_in(table, seat, "timeout")
            except Exception:
                log.exception("watching the clocks")
            ticks += 1
            await asyncio.sleep(self.config.clock_tick)

    async def stand_in(self, table: LiveTable, seat: Seat, why: str) -> bool:
        """A stand-in takes ``seat`` (why: timeout, left, asked).  The claim is the seat change's number
        in the database: of two processes (or a process and its restarted self) that find the same
        deadline passed, one adds the change, the other reads it; a timeout is checked again on the
        table as stored.  False if nothing changed."""
        async with table.lock:
            if self.shared:
                await self.refresh(table)
            # A timeout is claimed once (the clock watcher looks again); a player's own request is tried
            # again when a move came in between.
            for _attempt in range(1 if why == "timeout" else 10):
                if table.status != "running" or (seat in table.standins and why != "left" or
                                                 table.standins.get(seat) == "left"):
                    return False
                if why == "timeout" and seat not in table.overdue(time.time()):
                    return False
                if await self._add_change(table, seat, why):
                    break
            else:
                return False
        if why == "left":  # a player who left gets no more e-mail from this table
            await self._forget_contact(table, seat)
        log.info("table %s: a %s stand-in takes seat %s (%s)", table.id, table.standin_kind(), seat, why)
        await self.changed(table)
        return True

    async def _add_change(self, table: LiveTable, seat: Seat, what: str, row: SeatRow | None = None) -> bool:
        """Claim the next seat change (call with the table's lock held); False if another writer had it."""
        change = SeatChange(len(table.changes), seat, table.version, what, time.time())
        try:
            await self.store.add_seat_change(table.id, change, row)
        except Conflict:
            await self.refresh(table)
            return False
        if row is not None:
            table.seats[seat] = row
        table.change(change)
        return True

    async def away(self, table: LiveTable, seat: Seat, body: dict[str, Any]) -> dict[str, Any]:
        """The seat's player asks for a stand-in, or (``leave``) leaves the game for good."""
        leave = get_field(body, "leave", bool, False)
        if table.status != "running":
            raise conflict("stand-ins play running games only")
        await self.stand_in(table, seat, "left" if leave else "asked")
        return {"table_id": table.id, "seat": seat, "standin": table.standins.get(seat)}

    async def back(self, table: LiveTable, seat: Seat) -> dict[str, Any]:
        """The seat's player takes the seat back from its stand-in."""
        async with table.lock:
            await self.refresh(table)
            if table.left_for_good(seat):  # (a request that passed the token check before the leave)
                raise left_the_game()
            if seat not in table.standins:
                raise conflict("no stand-in plays your seat")
            while seat in table.standins:
                await self._add_change(table, seat, "returned")
        await self.changed(table)
        return {"table_id": table.id, "seat": seat, "standin": None}
