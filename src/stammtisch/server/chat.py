"""The table chat (issue 14): short plain-text messages of the players at a table.

- Only a seat's player writes (its token); spectators read.  The server stores the text as sent
  (trimmed): it is plain text, never markup, and every client shows it as text.
- A message is checked (``messages.chat_text``: length, no control or format characters) and the
  seat's rate (``Config.chat_messages`` per ``chat_seconds``) and the table's limit (``chat_max``)
  are checked in the transaction that stores it, so they hold however many processes serve the
  table.  A refused message is an ``ApiError`` and stores nothing.
- Messages are numbered per table (the primary key): of two processes adding the same number, one
  conflicts, reads what it missed and tries again.  A new message is told to this process's
  listeners (the browser sockets, server/web.py) and, through the broker, to the other processes.
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from stammtisch.engine.protocol import Seat
from stammtisch.server.messages import ApiError, chat_text
from stammtisch.server.store import ChatRefused, ChatRow, Conflict

if TYPE_CHECKING:
    from stammtisch.server.livetable import LiveTable
    from stammtisch.server.tables import Hub

log = logging.getLogger("stammtisch.server")


@dataclass(eq=False)
class TableChat:
    """The messages of one table this process has read, in order."""

    rows: list[ChatRow] = field(default_factory=list)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    listeners: list[Callable[[LiveTable], None]] = field(default_factory=list)  # told of new rows

    def tell(self, table: LiveTable) -> None:
        for listener in self.listeners:
            try:
                listener(table)
            except Exception:  # a socket that cannot be told must not undo a stored message
                log.exception("table %s: chat listener", table.id)


async def chat_of(hub: Hub, table: LiveTable) -> TableChat:
    """The table's chat, read from the store the first time it is asked for."""
    if table.chat is None:
        rows = await hub.store.chat(table.id)
        if table.chat is None:  # nobody read it meanwhile
            table.chat = TableChat(rows)
    return table.chat


async def catch_up(hub: Hub, table: LiveTable) -> None:
    """Read the messages other processes added; tell the listeners if there are any."""
    if table.chat is None:
        return
    chat = table.chat
    async with chat.lock:
        found = await hub.store.chat(table.id, len(chat.rows))
        if found:
            chat.rows.extend(found)
    if found:
        chat.tell(table)


async def say(hub: Hub, table: LiveTable, seat: Seat | None, text: str) -> ChatRow:
    """Store a message of ``seat``'s player and tell everybody watching; an ApiError changes nothing."""
    if seat is None:
        raise ApiError(403, "spectator", "spectators read the chat; only the players at the table write")
    text = chat_text(text)
    config = hub.config
    chat = await chat_of(hub, table)
    async with chat.lock:
        for _attempt in range(10):
            row = ChatRow(len(chat.rows), seat, text, time.time())
            try:
                await hub.store.add_chat(table.id, row, config.chat_messages, config.chat_seconds, config.chat_max)
            except ChatRefused as refused:
                raise refusal(refused, config.chat_messages, config.chat_seconds, config.chat_max) from None
            except Conflict:  # another process added this number: read what it added, try again
                chat.rows.extend(await hub.store.chat(table.id, len(chat.rows)))
                continue
            chat.rows.append(row)
            break
        else:
            raise ApiError(409, "conflict", "the chat is busy; try again")
    chat.tell(table)
    try:
        await hub.broker.publish_chat(table.id)
    except Exception:  # stored: the other processes catch up on their next look
        log.exception("publishing a chat message of table %s", table.id)
    return row


def refusal(refused: ChatRefused, most: int, seconds: float, cap: int) -> ApiError:
    if refused.wait is None:
        return ApiError(409, "chat_full", f"this table's chat holds its limit of {cap} messages")
    wait = max(1, math.ceil(refused.wait))
    return ApiError(429, "chat_rate", f"at most {most} chat messages in {seconds:g} s from one seat; "
                                      f"try again in {wait} s", retry_after=wait)


async def remote_chat(hub: Hub, table_id: str) -> None:
    """Another process stored a message at this table."""
    table = hub.tables.get(table_id)
    if table is not None:
        await catch_up(hub, table)
