"""Notices in the browser (issue 15): the table page asks for notification permission from a button
and notifies the player, while the page is in the background, when it becomes their turn and when
their time runs low; the player gives an e-mail address on the table page, and an e-mail with the
table's link arrives at the local SMTP server (aiosmtpd, started by the test).

Headless Chromium has no desktop to show notifications on, and its pages are never hidden: the
tests put a recording stand-in for the Notification API and a switch for ``document.hidden`` into
the page before its scripts run."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.server.helpers import Api, ServerProcess
from tests.server.smtp import Inbox, local_smtp
from tests.web.browser import assert_accessible, choices, choose, need_chromium, watch_errors

WAIT_MS = 60_000
PUBLIC = "https://club.example.org"

# Notification as a recorder: permission is "default" until the page asks, then "granted".
FAKE_NOTIFICATIONS = """
window.__notices = [];
window.__hidden = true;
Object.defineProperty(document, "hidden", { get: () => window.__hidden });
class FakeNotification {
  constructor(title, options) { window.__notices.push({ title, body: (options || {}).body || "" }); }
  close() {}
  static requestPermission() { FakeNotification.permission = "granted"; return Promise.resolve("granted"); }
}
FakeNotification.permission = "default";
window.Notification = FakeNotification;
"""


@pytest.fixture(scope="module")
def inbox() -> Iterator[tuple[Inbox, int]]:
    with local_smtp() as found:
        yield found


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, inbox: tuple[Inbox, int]) -> Iterator[ServerProcess]:
    need_chromium()
    process = ServerProcess(tmp_path_factory.mktemp("notify-server"), bot_delay=0.5, extra=(
        "--clock-tick", "0.2", "--smtp", f"127.0.0.1:{inbox[1]}", "--smtp-from", "stammtisch@club.example.org",
        "--notify-delay", "0", "--public-url", PUBLIC)).start()
    try:
        yield process
    finally:
        process.stop()


def seat_zero_page(server: ServerProcess, browser: Any, pace: dict[str, Any] | None,
                   locale: str = "en-US") -> tuple[Any, str, list[str]]:
    """A started Die Macher table for three: seat 0 is this browser's (by invitation), the others bots."""
    api = Api(server.url)
    body: dict[str, Any] = {"game": "diemacher", "players": 3}
    if pace:
        body["pace"] = pace
    created = api.ok("POST", "/api/tables", json=body)
    table_id, host = created["table_id"], created["host_token"]
    invite = api.ok("POST", f"/api/tables/{table_id}/invites", host, json={"seats": [0]})["invites"][0]
    api.bot(table_id, host, 1, "heuristic")
    api.bot(table_id, host, 2, "heuristic")
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale=locale)
    context.add_init_script(FAKE_NOTIFICATIONS)
    page = context.new_page()
    errors: list[str] = []
    watch_errors(page, errors)
    assert invite["url"].startswith(f"{PUBLIC}/play/")  # links start with --public-url: open it here
    page.goto(server.url + invite["url"].removeprefix(PUBLIC))
    page.wait_for_selector("#seats h2", timeout=WAIT_MS)
    api.start(table_id, host)
    page.wait_for_function("() => document.body.dataset.mine === '1'", timeout=WAIT_MS)
    return page, table_id, errors


def notices(page: Any) -> list[dict[str, str]]:
    found: list[dict[str, str]] = page.evaluate("() => window.__notices")
    return found


def test_a_notification_when_it_becomes_your_turn_while_the_page_is_in_the_background(
        server: ServerProcess, browser: Any) -> None:
    page, table_id, errors = seat_zero_page(server, browser, None)
    assert page.evaluate("() => Notification.permission") == "default"  # not asked on load
    page.get_by_role("button", name="Notify me in this browser when it is my turn").click()
    page.get_by_text("Notifications in this browser are on.").wait_for(timeout=WAIT_MS)
    assert notices(page) == []  # the page opened on the player's turn: nothing to tell
    assert_accessible(page, "notifications on")
    for _attempt in range(20):  # play until the turn passes to the bots and comes back
        offered = choices(page)
        if offered:
            choose(page, offered[0])
        if notices(page):
            break
        page.wait_for_function("() => document.body.dataset.mine === '1' || window.__notices.length > 0",
                               timeout=WAIT_MS)
    title = f"Your turn at table {table_id} (Die Macher)"
    page.wait_for_function("(title) => window.__notices.some((n) => n.title === title)", arg=title,
                           timeout=WAIT_MS)
    assert all(n["title"] == title for n in notices(page))  # the turn, nothing of the game
    # in the foreground the page itself is enough: no notification
    page.evaluate("() => { window.__hidden = false; window.__notices = []; }")
    assert not errors, errors


def test_a_notification_when_the_time_runs_low(server: ServerProcess, browser: Any) -> None:
    page, table_id, errors = seat_zero_page(server, browser, {"mode": "turn", "per_move": 8})
    page.get_by_role("button", name="Notify me in this browser when it is my turn").click()
    title = f"Your time at table {table_id} (Die Macher) runs out soon"
    page.wait_for_function("(title) => window.__notices.some((n) => n.title === title)", arg=title,
                           timeout=WAIT_MS)
    warned = [n for n in notices(page) if n["title"] == title]
    assert len(warned) == 1 and warned[0]["body"].startswith("Time left: ")
    assert not errors, errors


def test_an_email_address_given_on_the_table_page_gets_the_table_link(
        server: ServerProcess, browser: Any, inbox: tuple[Inbox, int]) -> None:
    # issue 15, done when: "an e-mail arrives at the local SMTP server with the table link" (in Polish)
    handler, _port = inbox
    page, table_id, errors = seat_zero_page(server, browser, None, locale="pl-PL")
    field = page.locator("form.notify-email input[type=email]")
    field.wait_for(timeout=WAIT_MS)
    field.fill("ola@example.org")
    page.locator("form.notify-email button[type=submit]").click()
    page.wait_for_function("() => document.querySelector('form.notify-email [role=status]').textContent"
                           ".includes('ola@example.org')", timeout=WAIT_MS)
    assert_accessible(page, "an e-mail address saved (pl)")
    deadline_ms = WAIT_MS
    while deadline_ms > 0 and not [m for m in handler.messages if table_id in str(m["Subject"])]:
        page.wait_for_timeout(200)
        deadline_ms -= 200
    mail = next(m for m in handler.messages if table_id in str(m["Subject"]))
    assert mail["To"] == "ola@example.org"
    assert str(mail["Subject"]).startswith("Twój ruch")
    assert f"{PUBLIC}/play/{table_id}" in mail.get_content()
    # nobody else sees the address: a spectator's page of the same table does not show it
    spectator = browser.new_page()
    spectator.goto(f"{server.url}/play/{table_id}")
    spectator.wait_for_selector("#seats h2", timeout=WAIT_MS)
    assert "ola@example.org" not in spectator.content()
    assert not errors, errors
