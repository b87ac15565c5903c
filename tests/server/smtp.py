"""A local SMTP server for the e-mail notice tests (aiosmtpd), started by the test (issue 15)."""

from __future__ import annotations

import email
import email.policy
from collections.abc import Iterator
from contextlib import contextmanager
from email.message import EmailMessage
from typing import Any

from aiosmtpd.controller import Controller

from tests.server.helpers import free_port


class Inbox:
    """An aiosmtpd handler keeping every message it accepts; ``refuse``: answer every recipient 550."""

    def __init__(self, refuse: bool = False) -> None:
        self.messages: list[EmailMessage] = []
        self.refuse = refuse

    async def handle_RCPT(self, server: Any, session: Any, envelope: Any, address: str, options: Any) -> str:  # noqa: N802
        if self.refuse:
            return f"550 <{address}>: no such user here"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:  # noqa: N802
        message = email.message_from_bytes(envelope.content, policy=email.policy.default)
        assert isinstance(message, EmailMessage)
        self.messages.append(message)
        return "250 Message accepted"

    def about(self, table_id: str) -> list[EmailMessage]:
        return [m for m in self.messages if table_id in str(m["Subject"])]


@contextmanager
def local_smtp(refuse: bool = False) -> Iterator[tuple[Inbox, int]]:
    """An SMTP server on a free local port for the test's duration: its inbox and port."""
    handler, port = Inbox(refuse), free_port()
    controller = Controller(handler, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield handler, port
    finally:
        controller.stop()
