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
    def __init__(self, url: str) -> None:
        import redis.asyncio as redis

        self.client: Any = redis.from_url(url)
        self.origin = secrets.token_hex(8)
        self.task: asyncio.Task[None] | None = None

    async def start(self, listener: Listener, chat_listener: Listener | None = None) -> None:
        self.listener = listener
        self.chat_listener = chat_listener
        await self.client.ping()
        self.pubsub = self.client.pubsub(ignore_subscribe_messages=True)
        await self.pubsub.subscribe(CHANNEL)
        self.task = asyncio.create_task(self._listen())

    async def publish(self, table_id: str) -> None:
        await self.client.publish(CHANNEL, json.dumps({"origin": self.origin, "table": table_id}))

    async def publish_chat(self, table_id: str) -> None:
        await self.client.publish(CHANNEL, json.dumps({"origin": self.origin, "table": table_id, "chat": True}))

    async def _listen(self) -> None:
        while True:
            try:
                message = await self.pubsub.get_message(timeout=1.0)
                if message is None:
                    continue
                data = json.loads(message["data"])
                if data.get("origin") == self.origin:
                    continue
                if data.get("chat"):
                    if self.chat_listener is not None:
                        await self.chat_listener(str(data["table"]))
                else:
                    await self.listener(str(data["table"]))
            except asyncio.CancelledError:
                raise
            except Exception:  # a bad message or a lost connection must not end live updates
                log.exception("live updates from Redis")
                await asyncio.sleep(0.5)

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
