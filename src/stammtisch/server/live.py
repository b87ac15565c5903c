"""Live updates between server processes: "table X changed" → every process re-reads and pushes;
"table X has a new chat message" → every process reads it (server/chat.py).

One process needs nothing but itself (``LocalBroker``); several processes behind a load
balancer share one Redis (``RedisBroker``, publish/subscribe on one channel).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from collections.abc import Awaitable, Callable
from typing import Any

Listener = Callable[[str], Awaitable[None]]
CHANNEL = "stammtisch:changes"
log = logging.getLogger("stammtisch.server")


class LocalBroker:
    """Within one process the hub pushes its own changes; there is nobody else to tell."""

    async def start(self, listener: Listener, chat_listener: Listener | None = None) -> None:
        self.listener = listener

    async def publish(self, table_id: str) -> None:
        return None

    async def publish_chat(self, table_id: str) -> None:
        return None

    async def close(self) -> None:
        return None


class RedisBroker:
    """While Redis does not answer, the server goes on (each process re-reads the tables its clients
    watch, server/tables.py ``Hub._poll``): the outage is logged once when it begins and once when it
    ends, never at every message or move (issue 26)."""

    retry_after = 1.0  # seconds between tries to read from a Redis that does not answer

    def __init__(self, url: str) -> None:
        import redis.asyncio as redis

        self.client: Any = redis.from_url(url)
        self.origin = secrets.token_hex(8)
        self.task: asyncio.Task[None] | None = None
        self.lost = False  # Redis did not answer the last time it was asked

    async def start(self, listener: Listener, chat_listener: Listener | None = None) -> None:
        self.listener = listener
        self.chat_listener = chat_listener
        await self.client.ping()
        self.pubsub = self.client.pubsub(ignore_subscribe_messages=True)
        await self.pubsub.subscribe(CHANNEL)
        self.task = asyncio.create_task(self._listen())

    async def publish(self, table_id: str) -> None:
        await self._publish({"origin": self.origin, "table": table_id})

    async def publish_chat(self, table_id: str) -> None:
        await self._publish({"origin": self.origin, "table": table_id, "chat": True})

    async def _publish(self, message: dict[str, Any]) -> None:
        """Tell the other processes; while Redis does not answer they find the change on their next read."""
        try:
            await self.client.publish(CHANNEL, json.dumps(message))
        except Exception as error:
            self._lose(error)
        else:
            self._regain()

    def _lose(self, error: Exception) -> None:
        if not self.lost:
            self.lost = True
            log.warning("Redis does not answer (%s: %s): live updates between the server processes wait for it; "
                        "meanwhile each process re-reads the tables its clients watch", type(error).__name__, error)

    def _regain(self) -> None:
        if self.lost:
            self.lost = False
            log.warning("Redis answers again: live updates between the server processes go on")

    async def _listen(self) -> None:
        while True:
            try:
                message = await self.pubsub.get_message(timeout=1.0)
            except Exception as error:  # a lost connection must not end live updates: try again
                self._lose(error)
                await asyncio.sleep(self.retry_after)
                continue
            self._regain()
            if message is None:
                continue
            try:
                data = json.loads(message["data"])
                if data.get("origin") == self.origin:
                    continue
                if data.get("chat"):
                    if self.chat_listener is not None:
                        await self.chat_listener(str(data["table"]))
                else:
                    await self.listener(str(data["table"]))
            except Exception:  # a bad message must not end live updates
                log.exception("live updates from Redis")

    async def close(self) -> None:
        if self.task:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.task
        with contextlib.suppress(Exception):
            await self.pubsub.aclose()
        with contextlib.suppress(Exception):
            await self.client.aclose()


def make_broker(redis_url: str | None) -> LocalBroker | RedisBroker:
    return RedisBroker(redis_url) if redis_url else LocalBroker()
