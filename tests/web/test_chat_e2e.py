"""The table chat in the browser (issue 14, "Table chat"): players write, the others see it live under the
names the log uses, markup stays text, a reload shows the chat, spectators only read, a refusal is
shown in the page's language; no axe violations in the chat panel."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from stammtisch import i18n
from tests.server.helpers import Api, ServerProcess
from tests.web.browser import need_chromium
from tests.web.test_accessibility import violations
from tests.web.test_table_usable import PHONE, open_seat, poll

HOSTILE = '<img src=x onerror="window.pwned=1"><script>window.pwned=2</script> & &amp; ✓'
LINES = "() => [...document.querySelectorAll('#chat-panel .chat-line')].map((li) => li.textContent)"


@pytest.fixture(scope="module")
def chat_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """Three messages per seat in an hour: the rate is reached by counting, not by speed."""
    need_chromium()
    process = ServerProcess(tmp_path_factory.mktemp("chat-web"),
                            extra=("--chat-messages", "3", "--chat-seconds", "3600")).start()
    try:
        yield process
    finally:
        process.stop()


def send(page: Any, text: str) -> None:
    page.fill("#chat-input", text)
    page.press("#chat-input", "Enter")


def test_players_chat_live_escaped_and_after_a_reload(chat_server: ServerProcess, browser: Any) -> None:
    api = Api(chat_server.url)
    table_id, host = api.create("glueckauf", 2)
    tokens = {0: api.join(table_id, 0), 1: api.join(table_id, 1, "Bea")}  # seat 1 keeps the default name
    api.start(table_id, host)
    ann, ann_page, ann_errors = open_seat(browser, chat_server, table_id, tokens[0], 0)
    bea, bea_page, bea_errors = open_seat(browser, chat_server, table_id, tokens[1], 1, PHONE, lang="de")
    watcher, watcher_page, _ = open_seat(browser, chat_server, table_id, None, None, lang="ko")

    send(ann_page, HOSTILE)
    with i18n.using_language("de"):
        ann_in_german = i18n._("Player {number}").format(number=1)
    expected = [f"{ann_in_german}: {HOSTILE}"]
    poll(bea_page, f"(n) => ({LINES})().length === n", 1)
    assert bea_page.evaluate(LINES) == expected  # live, under the log's name, the markup as text
    assert ann_page.input_value("#chat-input") == ""
    for page in (ann_page, bea_page, watcher_page):
        poll(page, f"(n) => ({LINES})().length === n", 1)
        assert page.evaluate("() => document.querySelectorAll('#chat-panel img, #chat-panel script').length") == 0
        assert page.evaluate("() => window.pwned === undefined")

    send(bea_page, "Glück auf! 안녕하세요")
    poll(ann_page, f"(n) => ({LINES})().length === n", 2)
    assert ann_page.evaluate(LINES)[1] == "Bea: Glück auf! 안녕하세요"

    bea_page.reload()
    poll(bea_page, f"(n) => ({LINES})().length === n", 2)
    assert bea_page.evaluate(LINES) == [*expected, "Bea: Glück auf! 안녕하세요"]

    # the spectator reads, and has nothing to write with
    poll(watcher_page, f"(n) => ({LINES})().length === n", 2)
    assert watcher_page.locator("#chat-input").count() == 0
    with i18n.using_language("ko"):
        assert i18n._("Spectators read the chat; only the players write.") in watcher_page.inner_text("#chat-panel")
    assert violations_of_chat(browser, chat_server, table_id, tokens[0]) == []
    assert not ann_errors and not bea_errors, (ann_errors, bea_errors)
    for context in (ann, bea, watcher):
        context.close()


def test_a_refused_message_is_explained_in_the_pages_language(chat_server: ServerProcess, browser: Any) -> None:
    api = Api(chat_server.url)
    table_id, _host, tokens = api.table("diemacher", 3)
    context, page, errors = open_seat(browser, chat_server, table_id, tokens[0], 0, lang="pl")
    for n in range(3):
        send(page, f"wiadomość {n}")
        poll(page, f"(n) => ({LINES})().length === n", n + 1)
    send(page, "za dużo")
    poll(page, "() => !!document.querySelector('#chat-panel .chat-status').textContent")
    status = page.inner_text("#chat-panel .chat-status")
    with i18n.using_language("pl"):
        template = i18n._("You are writing too fast: wait {seconds} s before your next message.")
    head = template.split("{seconds}")[0]
    assert status.startswith(head) and head, status
    assert page.input_value("#chat-input") == "za dużo"  # kept, to send later
    assert len(api.ok("GET", f"/api/tables/{table_id}/chat")["messages"]) == 3
    assert not errors, errors
    context.close()


def violations_of_chat(browser: Any, server: ServerProcess, table_id: str, token: str) -> list[dict[str, str]]:
    context = browser.new_context(viewport={"width": 1280, "height": 800}, bypass_csp=True)
    page = context.new_page()
    page.goto(server.url + "/")
    page.evaluate("([id, token]) => localStorage.setItem('stammtisch.seats', JSON.stringify({[id]: {token, seat: 0}}))",
                  [table_id, token])
    page.goto(f"{server.url}/play/{table_id}")
    poll(page, f"(n) => ({LINES})().length === n", 2)
    found = violations(page)
    context.close()
    return found
