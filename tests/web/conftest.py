"""Fixtures of the browser tests: a server in a subprocess and Debian's chromium, per test module."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.server.helpers import ServerProcess
from tests.web.browser import launch, need_chromium


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    need_chromium()
    process = ServerProcess(tmp_path_factory.mktemp("web-server"), bot_delay=0.0).start()
    try:
        yield process
    finally:
        process.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    need_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = launch(playwright)
        try:
            yield chromium
        finally:
            chromium.close()
