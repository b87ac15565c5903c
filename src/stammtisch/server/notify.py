"""E-mail notices (issue 15): when it becomes a seat's turn, and when its time runs low.

A seat's player may give an address on the table page (``PUT /api/tables/{id}/notify``): it is stored
for the seat, shown to nobody but that seat and never logged.  Every ``clock_tick`` each process looks
at the tables it holds: a seat with an address that became to act is owed a *turn* notice (sent
``notify_delay`` seconds later, if the player has not moved by then), a seat whose time reached its
warning (``Clocks.warning``: a quarter of the decision's time left) a *deadline* notice.  Each notice is
a row keyed by (table, seat, kind, mark) — the turn's log entry, or the deadline's second — so that of
several processes (or a restarted one) that find the same only one adds it.  A due row is sent by the
process that takes its lease (a conditional update), in a worker thread (smtplib), after checking that
it is still true; a failing SMTP server costs the notice another try later (three in all), never a move.
The one duplicate possible: a process killed after the SMTP server accepted the message and before it
marked the row sent; another process sends it again once the lease has passed.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import smtplib
import ssl
import time
from email.message import EmailMessage
from email.utils import formatdate, make_msgid
from typing import TYPE_CHECKING, Any

from stammtisch import i18n
from stammtisch.i18n import _
from stammtisch.registry import games
from stammtisch.server.config import Smtp
from stammtisch.server.messages import bad_request
from stammtisch.server.store import Contact, Notice

if TYPE_CHECKING:
    from stammtisch.server.livetable import LiveTable
    from stammtisch.server.tables import Hub

log = logging.getLogger("stammtisch.server")
LEASE = 120.0  # seconds a process has to send a notice it took before another may
TRIES = 3
RETRY = 60.0  # seconds before a failed notice is tried again (times the tries so far)
# One plain address: no display name, no list, nothing a header could be split at.
ADDRESS = re.compile(r"[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?")


def check_email(value: str) -> str:
    value = value.strip()
    if len(value) > 254 or not ADDRESS.fullmatch(value):
        raise bad_request("email must be one plain address like name@example.org (an international domain in "
                          "its xn-- form)")
    return value


def check_lang(value: str | None) -> str:
    if value is None:
        return i18n.SOURCE_LANGUAGE
    if value not in i18n.LANGUAGES:
        raise bad_request(f"lang must be one of {', '.join(i18n.LANGUAGES)}, not {value[:20]!r}")
    return value


def owed(table: LiveTable, now: float, delay: float) -> list[Notice]:
    """The notices the seats with an address are owed now: a turn (due after ``delay``), a deadline near."""
    if table.status != "running" or not table.contacts:
        return []
    found = [Notice(table.id, seat, "turn", entry, at + delay) for seat, (entry, at) in table.turn_since.items()
             if seat in table.contacts and not table.plays_itself(seat)]
    if table.clocks is not None:
        for seat in table.contacts:
            deadline, warning = table.clocks.deadline(seat), table.clocks.warning(seat)
            if (deadline is not None and warning is not None and warning <= now < deadline
                    and seat in table.turn_since and not table.plays_itself(seat)):
                found.append(Notice(table.id, seat, "deadline", int(deadline), now))
    return found


def still_true(table: LiveTable, notice: Notice, now: float) -> bool:
    """Whether the notice still holds when it is sent (a turn not yet played, the same deadline ahead)."""
    if table.status != "running" or table.plays_itself(notice.seat):
        return False
    if notice.kind == "turn":
        return table.turn_since.get(notice.seat, (-1, 0.0))[0] == notice.mark
    deadline = None if table.clocks is None else table.clocks.deadline(notice.seat)
    return deadline is not None and int(deadline) == notice.mark and deadline > now


def compose(table: LiveTable, notice: Notice, contact: Contact, smtp: Smtp, base: str) -> EmailMessage:
    """The e-mail in the seat's language: which table, what is due, the link; nothing else of the game."""
    link = f"{base.rstrip('/')}/play/{table.id}"
    with i18n.using_language(contact.lang):
        names = {"table": table.id, "game": _(games()[table.row.game].title)}
        if notice.kind == "turn":
            subject = _("Your turn at table {table} ({game})").format(**names)
            lead = _("It is your turn at table {table} ({game}).").format(**names)
        else:
            when = time.strftime("%Y-%m-%d %H:%M", time.gmtime(notice.mark))
            subject = _("Your time at table {table} ({game}) runs out soon").format(**names)
            lead = _("Your time for this decision at table {table} ({game}) runs out at {time} UTC; then a "
                     "stand-in plays your seat.").format(time=when, **names)
        body = "\n\n".join([lead, _("Open the table: {link}").format(link=link),
                            _("You get this e-mail because you gave your address at this table; remove it on the "
                              "table page to get no more.")])
    message = EmailMessage()
    message["From"] = smtp.sender
    message["To"] = contact.email
    message["Subject"] = subject
    message["Date"] = formatdate(localtime=False, usegmt=True)
    message["Message-ID"] = make_msgid(domain=smtp.sender.rpartition("@")[2] or "localhost")
    message.set_content(body + "\n")
    return message


def send(smtp: Smtp, message: EmailMessage) -> None:
    """Hand one message to the SMTP server (blocking: runs in a worker thread)."""
    client_class = smtplib.SMTP_SSL if smtp.ssl else smtplib.SMTP
    with client_class(smtp.host, smtp.port, timeout=smtp.timeout) as client:
        if smtp.starttls:
            client.starttls(context=ssl.create_default_context())
        if smtp.user:
            client.login(smtp.user, smtp.password)
        client.send_message(message)


def reason(error: BaseException) -> str:
    """What went wrong, without the SMTP server's words, which may repeat the address."""
    if isinstance(error, smtplib.SMTPResponseException):
        return f"{type(error).__name__} {error.smtp_code}"
    if isinstance(error, smtplib.SMTPException):
        return type(error).__name__
    if isinstance(error, OSError):
        return f"{type(error).__name__} {error.strerror or ''}".strip()
    return type(error).__name__


class Notifier:
    """One per server process with ``--smtp``: finds owed notices and sends the due ones."""

    def __init__(self, hub: Hub, smtp: Smtp) -> None:
        self.hub = hub
        self.smtp = smtp
        self.task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self.task = asyncio.create_task(self._loop())

    async def close(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(BaseException):
                await self.task

    async def _loop(self) -> None:
        ticks = 0
        while True:
            try:
                if ticks % 60 == 59:  # tables with addresses that another (maybe stopped) process held
                    for table_id in await self.hub.store.running_with_contacts():
                        if table_id not in self.hub.tables:
                            await self.hub.get(table_id)
                await self.look(time.time())
                await self.send_due(time.time())
            except Exception:
                log.exception("e-mail notices")
            ticks += 1
            await asyncio.sleep(self.hub.config.clock_tick)

    async def look(self, now: float) -> None:
        """Add the notices owed at the tables this process holds (once each: another process's or an
        earlier run's row stays as it is)."""
        new: list[tuple[Any, Notice]] = []
        for table in list(self.hub.tables.values()):
            for notice in owed(table, now, self.hub.config.notify_delay):
                key = (notice.seat, notice.kind, notice.mark)
                if key not in table.noticed:
                    new.append((table, notice))
        if not new:
            return
        await self.hub.store.add_notices([notice for _table, notice in new])
        for table, notice in new:
            if len(table.noticed) > 500:
                table.noticed.clear()
            table.noticed.add((notice.seat, notice.kind, notice.mark))

    async def send_due(self, now: float) -> None:
        store = self.hub.store
        for notice in await store.due_notices(now):
            if not await store.lease_notice(notice, now, now + LEASE):
                continue  # another process has it
            outcome = await self.deliver(notice)
            if outcome is None and notice.tries + 1 >= TRIES:
                outcome = "failed"
            later = time.time() + RETRY * (notice.tries + 1)
            await store.end_notice(notice, outcome, time.time() if outcome else later)

    async def deliver(self, notice: Notice) -> str | None:
        """Send the notice if it still holds: "sent", "skipped", or None to try again later."""
        try:
            table = await self.hub.current(notice.table_id)
        except Exception:
            return "skipped"
        contact = table.contacts.get(notice.seat)
        if contact is None or not still_true(table, notice, time.time()):
            return "skipped"
        base = self.hub.config.public_url or self.hub.config.site_url
        message = compose(table, notice, contact, self.smtp, base)
        try:
            await asyncio.to_thread(send, self.smtp, message)
        except Exception as error:  # the SMTP server's trouble never reaches the game
            log.warning("e-mail notice (%s) for table %s seat %s not sent: %s", notice.kind, table.id, notice.seat,
                        reason(error))
            return None
        log.info("e-mail notice (%s) for table %s seat %s sent", notice.kind, table.id, notice.seat)
        return "sent"
