"""The live tables of one server process: the Hub, composed of its parts by concern.

- server/livetable.py: one live table (``LiveTable``), its seats, match, clocks, stand-ins and viewers;
- server/hubcore.py: the hub's state and the cached tables: loading, catching up, waking subscribers;
- server/seating.py: the lobby: creating tables, seats, invitations, the start;
- server/playing.py: moves and take-backs, the state messages, hints, the record;
- server/standins.py: the clocks' watch and the stand-ins; server/contacts.py: e-mail notices' addresses;
- server/botplay.py: the bots and stand-ins this process plays.

Every action goes through the table's ``engine.match.Match``: checked on a copy of the state
(``prepare``), committed to the move log, and only then put in force (``accept``) and
acknowledged.  A process that loses a race for a move number (another client, another process)
reloads the log and validates again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from stammtisch.server.botplay import BotPlaying
from stammtisch.server.chat import catch_up, remote_chat
from stammtisch.server.config import Config
from stammtisch.server.contacts import Contacts
from stammtisch.server.holds import Hold, hold_for_serving
from stammtisch.server.hubcore import HubCore
from stammtisch.server.notify import Notifier
from stammtisch.server.playing import Playing
from stammtisch.server.seating import Seating
from stammtisch.server.standins import StandIns
from stammtisch.server.upgrade import interrupt_outdated

log = logging.getLogger("stammtisch.server")


class Hub(Seating, Playing, StandIns, Contacts, BotPlaying, HubCore):
    """Everything one server process knows: the store, the broker, the cached live tables; its parts
    (above) each take one concern, and this class starts and stops them."""

    def __init__(self, config: Config, hold: Hold | None = None) -> None:
        super().__init__(config, hold)
        self.notifier = Notifier(self, config.smtp) if config.smtp is not None else None

    async def open(self) -> None:
        if self.hold is None:  # (``serve`` holds it before: its refusal is a clear line)
            self.hold = await asyncio.to_thread(hold_for_serving, self.store.url, lambda alone: None,
                                                  self.config.redis is not None)
        await self.store.open(self.config.migrate)
        await interrupt_outdated(self.store)  # games the new rules cannot go on with end visibly
        await self.broker.start(self.on_remote_change, lambda table_id: remote_chat(self, table_id))
        for table_id in await self.store.running_with_bots():  # games with bots go on after a restart
            with contextlib.suppress(Exception):
                self.kick_bots(await self.get(table_id))
        if self.shared:
            self._poller = asyncio.create_task(self._poll())
        self._clock_watch = asyncio.create_task(self._watch_clocks())
        if self.notifier is not None:  # tables whose players want e-mail are watched from the start
            for table_id in await self.store.running_with_contacts():
                with contextlib.suppress(Exception):
                    await self.get(table_id)
            self.notifier.start()

    async def _poll(self, every: float = 2.0) -> None:
        """With several processes: re-read the watched tables now and then, in case a live update
        was lost (Redis restarting, say); normally there is nothing new."""
        while True:
            await asyncio.sleep(every)
            for table in [t for t in self.tables.values() if t.subscribers or t.bot_task]:
                try:
                    async with table.lock:
                        await self.refresh(table)
                    await catch_up(self, table)
                except Exception:
                    log.exception("re-reading table %s", table.id)

    async def close(self) -> None:
        self._closing = True
        if self._poller is not None:
            self._poller.cancel()
        if self._clock_watch is not None:
            self._clock_watch.cancel()
        if self.notifier is not None:
            await self.notifier.close()
        tasks = [t.bot_task for t in self.tables.values() if t.bot_task and not t.bot_task.done()]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task
        await self.broker.close()
        await self.store.close()
        self.thinkers.close()
        if self.hold is not None:
            self.hold.close()
