"""Starting and running ``stammtisch serve`` as a host would (issue 26, item 7): what cannot work is one
clear line before the server is announced, and an outage of Redis is logged once, not at every move."""

from __future__ import annotations

import asyncio
import logging
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from stammtisch.server.live import RedisBroker
from tests.server.helpers import free_port


def serve(*args: str) -> subprocess.CompletedProcess[str]:
    """``stammtisch serve`` that must refuse to start (bounded: a server that starts fails the test)."""
    return subprocess.run([sys.executable, "-m", "stammtisch", "serve", *args], capture_output=True, text=True,
                          timeout=60, check=False)


def test_a_busy_port_is_refused_before_the_server_is_announced(tmp_path: Path) -> None:
    # issue 26, item 7: `serve` printed its "server on …" line before binding, then failed
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        refused = serve("--port", str(port), "--data-dir", str(tmp_path))
    assert refused.returncode == 2, refused
    assert f"cannot listen on 127.0.0.1:{port}" in refused.stderr and "--port" in refused.stderr
    assert "Stammtisch server on" not in refused.stdout and "Traceback" not in refused.stderr


def test_a_redis_that_does_not_answer_at_the_start_is_one_clear_line(tmp_path: Path) -> None:
    # issue 26, item 7: a missing Redis at the start was a traceback
    url = f"redis://127.0.0.1:{free_port()}/0"  # nothing listens there
    refused = serve("--port", str(free_port()), "--data-dir", str(tmp_path), "--redis", url)
    assert refused.returncode == 2 and f"Redis at {url} does not answer" in refused.stderr, refused
    assert "Stammtisch server on" not in refused.stdout and "Traceback" not in refused.stderr


class Outage:
    """Redis's client while it does not answer ``down`` times, then answers (and the test ends)."""

    def __init__(self, down: int) -> None:
        self.down = down
        self.asked = 0

    async def get_message(self, timeout: float) -> Any:
        self.asked += 1
        if self.asked <= self.down:
            raise ConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")
        if self.asked > self.down + 1:
            raise asyncio.CancelledError  # the end of the test
        return None

    async def publish(self, channel: str, message: str) -> None:
        if self.asked <= self.down:
            raise ConnectionError("Connection refused.")


def test_a_redis_outage_is_logged_when_it_begins_and_ends(caplog: pytest.LogCaptureFixture) -> None:
    # issue 26, item 7: a Redis outage flooded the log (a traceback every half second and at every move)
    broker = RedisBroker("redis://127.0.0.1:1/0")  # (connects to nothing: its client is replaced)
    broker.retry_after = 0.0
    outage = Outage(down=20)
    broker.client = broker.pubsub = outage

    async def scenario() -> None:
        async def listener(table_id: str) -> None:
            return None

        broker.listener = listener
        for _ in range(5):
            await broker.publish("table")  # moves during the outage: stored, told later
        with pytest.raises(asyncio.CancelledError):
            await broker._listen()

    with caplog.at_level(logging.DEBUG, logger="stammtisch"):
        asyncio.run(scenario())
    assert outage.asked == 22  # it kept trying, and read again once Redis answered
    lines = [record.getMessage() for record in caplog.records]
    assert len(lines) == 2 and "Redis does not answer" in lines[0] and "answers again" in lines[1], lines
    assert not [record for record in caplog.records if record.exc_info]


def test_the_test_client_is_one_starlette_does_not_deprecate() -> None:
    # issue 26, item 7: the test suite's only warning was Starlette's deprecation of its httpx test client
    # (it wants httpx2: the dev extra installs it)
    imported = subprocess.run([sys.executable, "-W", "error", "-c", "import starlette.testclient"],
                              capture_output=True, text=True, timeout=60, check=False)
    assert imported.returncode == 0, imported.stderr[-2000:]
