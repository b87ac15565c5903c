"""The hint button of the decision panel (issue 11): at a table with the hints option, a seat asks what
the hard bot would do and sees its best moves, labelled as the panel labels them, with their values, and
why the first (issue 30 item 2)."""

from __future__ import annotations

import re
from typing import Any

from tests.server.helpers import Api, ServerProcess
from tests.web.browser import assert_accessible, watch_errors

WAIT_MS = 30_000


def open_seat(server: ServerProcess, browser: Any, options: dict[str, Any]) -> tuple[Any, list[str]]:
    api = Api(server.url)
    table_id, host = api.create("glueckauf", 2, {"start_player": 0, **options})
    invite = api.ok("POST", f"/api/tables/{table_id}/invites", host, json={"seats": [0]})["invites"][0]
    api.bot(table_id, host, 1, "heuristic")
    api.start(table_id, host)
    page = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-US").new_page()
    errors: list[str] = []
    watch_errors(page, errors)
    page.goto(server.url + invite["url"])
    page.wait_for_selector("#decision h2:text('Your decision')", timeout=WAIT_MS)
    return page, errors


def test_the_hint_button_shows_the_hard_bots_best_moves(server: ServerProcess, browser: Any) -> None:
    page, errors = open_seat(server, browser, {"hints": True})
    offered = [b.inner_text() for b in page.locator("#decision fieldset button").all()]
    page.get_by_role("button", name="What would the hard bot do?").click()
    items = page.locator("#decision .hint-answer li")
    items.first.wait_for(timeout=WAIT_MS)
    lines = [item.inner_text() for item in items.all()]
    assert 1 <= len(lines) <= 3
    assert_accessible(page, "the hard bot's hint")
    for line in lines:
        found = re.fullmatch(r"(.+): value (\d+) of 100 over (\d+) simulated games", line)
        assert found, line
        assert found.group(1) in offered and 0 <= int(found.group(2)) <= 100
    # issue 30 item 2: why the first, after the list: its value as listed, against the runner-up's if listed
    why = page.locator("#decision .hint-answer .hint-why").inner_text()
    values = [re.search(r"value (\d+) of 100", line).group(1) for line in lines]  # type: ignore[union-attr]
    assert why.startswith("Why: ") and f"Rated {values[0]} of 100" in why
    assert (f"against {values[1]} for " in why) if len(values) > 1 else "no other move" in why
    assert not errors, errors


def test_no_hint_button_where_hints_are_off(server: ServerProcess, browser: Any) -> None:
    page, errors = open_seat(server, browser, {})
    assert page.locator("#decision fieldset button").count() > 0
    assert page.get_by_role("button", name="What would the hard bot do?").count() == 0
    assert not errors, errors
