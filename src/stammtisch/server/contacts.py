"""E-mail notices' addresses (issue 15, server/notify.py): what a seat gave, set, and forgotten."""

from __future__ import annotations

import logging
from typing import Any

from stammtisch.engine.protocol import Seat
from stammtisch.server.hubcore import HubCore
from stammtisch.server.livetable import LiveTable, conflict
from stammtisch.server.messages import field as get_field
from stammtisch.server.notify import check_email, check_lang
from stammtisch.server.store import Contact
from stammtisch.server.upgrade import INTERRUPTED

log = logging.getLogger("stammtisch.server")


class Contacts(HubCore):
    """The seats' addresses for e-mail notices."""

    def notify_info(self, table: LiveTable, seat: Seat) -> dict[str, Any]:
        """For the seat's own player only: whether this server sends e-mail, and the seat's address."""
        contact = table.contacts.get(seat) if self.notifier is not None else None
        return {"table_id": table.id, "seat": seat, "email_available": self.notifier is not None,
                "email": contact.email if contact else None, "lang": contact.lang if contact else None}

    async def set_contact(self, table: LiveTable, seat: Seat, body: dict[str, Any]) -> dict[str, Any]:
        """The seat's address for e-mail notices (``email`` None: no more e-mail) and their language."""
        address = get_field(body, "email", str, None)
        contact = None if address is None else Contact(check_email(address), check_lang(body.get("lang")))
        if contact is not None and self.notifier is None:
            raise conflict("this server sends no e-mail (it was started without --smtp)")
        if contact is not None and table.status in ("finished", INTERRUPTED):
            raise conflict("the game is over")
        async with table.lock:
            await self.store.set_contact(table.id, seat, contact)
            if contact is None:
                table.contacts.pop(seat, None)
            else:
                table.contacts[seat] = contact
        await self.changed(table)  # other processes read the table's addresses again
        return self.notify_info(table, seat)

    async def _forget_contact(self, table: LiveTable, seat: Seat) -> None:
        try:
            await self.store.set_contact(table.id, seat, None)
        except Exception:  # the seat changed hands all the same; the notice is checked again when due
            log.exception("forgetting the address of table %s seat %s", table.id, seat)
        table.contacts.pop(seat, None)
