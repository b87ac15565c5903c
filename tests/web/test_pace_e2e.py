"""Pace, clocks and stand-ins in the browser (issue 15, "Done when"): the lobby creates a timed table;
a turn-based seat times out and a stand-in plays, marked in the log; the player takes the seat back
and plays; a real-time clock runs out and the stand-in moves."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from tests.server.helpers import Api, ServerProcess
from tests.web.browser import assert_accessible, choices, choose, need_chromium, watch_errors

WAIT_MS = 60_000


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    need_chromium()
    process = ServerProcess(tmp_path_factory.mktemp("pace-server"), bot_delay=0.5,
                            extra=("--clock-tick", "0.2")).start()
    try:
        yield process
    finally:
        process.stop()


def seat_zero_page(server: ServerProcess, browser: Any, pace: dict[str, Any]) -> tuple[Any, str, list[str]]:
    """A started Die Macher table for three with ``pace``: seat 0 is this browser's (by invitation), the
    others bots (Die Macher's decisions are all in the decision panel)."""
    api = Api(server.url)
    created = api.ok("POST", "/api/tables", json={"game": "diemacher", "players": 3, "pace": pace,
                                                  "standin": "heuristic"})
    table_id, host = created["table_id"], created["host_token"]
    invite = api.ok("POST", f"/api/tables/{table_id}/invites", host, json={"seats": [0]})["invites"][0]
    api.bot(table_id, host, 1, "heuristic")
    api.bot(table_id, host, 2, "heuristic")
    page = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-US").new_page()
    errors: list[str] = []
    watch_errors(page, errors)
    page.goto(server.url + invite["url"])
    page.wait_for_selector("#seats h2", timeout=WAIT_MS)
    api.start(table_id, host)
    return page, table_id, errors


def wait_status(page: Any, text: str) -> None:
    page.wait_for_function("(text) => [...document.querySelectorAll('#seats .seat-status')]"
                           ".some((e) => e.textContent === text)", arg=text, timeout=WAIT_MS)


def take_back_and_play(page: Any) -> None:
    # by keyboard: the decision panel above changes height as the bots' sealed steps come in, so the
    # button is seldom "stable" for a pointer click in a test
    page.get_by_role("button", name="Take my seat back").press("Enter")
    page.get_by_role("button", name="Let a bot play for me").wait_for(timeout=WAIT_MS)
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    page.set_default_timeout(10_000)
    for _attempt in range(20):  # a bot's move may change the decision under the pointer: look again
        page.wait_for_function("() => document.body.dataset.mine === '1'", timeout=WAIT_MS)
        offered = choices(page)
        if not offered:  # the panel is being drawn
            page.wait_for_timeout(250)
            continue
        try:
            choose(page, offered[0])  # waits until the page shows the next move
            return
        except PlaywrightTimeout:
            continue
    raise AssertionError("the player who came back could not move")


def test_the_lobby_creates_a_turn_based_table_and_its_page_shows_the_clocks(server: ServerProcess,
                                                                            browser: Any) -> None:
    page = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-US").new_page()
    errors: list[str] = []
    watch_errors(page, errors)
    page.goto(server.url + "/")
    page.wait_for_selector("#pace", timeout=WAIT_MS)
    page.get_by_label("Your name").fill("Anna")
    page.get_by_label("Time", exact=True).select_option(label="Turn-based: 24 hours per move")
    page.get_by_label("Stand-in for an absent player").select_option(label="hard bot")
    assert_accessible(page, "the lobby, a turn-based table chosen")
    page.get_by_role("button", name="Create the table").click()
    page.wait_for_url("**/play/**", timeout=WAIT_MS)
    table_id = page.url.rsplit("/", 1)[1]
    table = Api(server.url).ok("GET", f"/api/tables/{table_id}")
    assert table["pace"] == {"mode": "turn", "per_move": 86400} and table["standin_kind"] == "hard"
    page.wait_for_selector("#seats .pace", timeout=WAIT_MS)
    assert "Turn-based" in page.inner_text("#seats .pace")
    if table["status"] == "running":  # only bots beside the host: it started at once
        page.wait_for_selector("#seats .clock", timeout=WAIT_MS)
    assert_accessible(page, "a turn-based table with its clocks")
    assert not errors, errors


def test_a_turn_based_seat_times_out_a_stand_in_plays_and_the_player_takes_the_seat_back(
        server: ServerProcess, browser: Any) -> None:
    page, table_id, errors = seat_zero_page(server, browser, {"mode": "turn", "per_move": 2})
    wait_status(page, "time ran out: a stand-in plays")
    page.wait_for_function("() => [...document.querySelectorAll('#log-panel .log-text')]"
                           ".some((e) => e.textContent.endsWith('(stand-in)'))", timeout=WAIT_MS)
    assert_accessible(page, "a stand-in plays the seat whose time ran out")
    take_back_and_play(page)
    assert_accessible(page, "the player took the seat back")
    record_line = Api(server.url).ok("GET", f"/api/tables/{table_id}")["seats"][0]
    assert record_line["standin"] is None or record_line["standin"] == "timeout"  # it may time out again later
    assert not errors, errors


def test_a_real_time_clock_runs_out_the_stand_in_moves_and_the_player_takes_the_seat_back(
        server: ServerProcess, browser: Any) -> None:
    page, table_id, errors = seat_zero_page(server, browser, {"mode": "realtime", "base": 2, "increment": 0})
    page.wait_for_selector("#seats .clock", timeout=WAIT_MS)
    wait_status(page, "time ran out: a stand-in plays")
    page.wait_for_function("() => Number(document.body.dataset.move) > 0", timeout=WAIT_MS)
    table = Api(server.url).ok("GET", f"/api/tables/{table_id}")
    clock = table["clocks"][0]  # run out: at zero, or running with its deadline passed
    assert table["seats"][0]["standin"] == "timeout"
    assert clock["left"] <= 0.1 or (clock["deadline"] is not None and clock["deadline"] <= time.time())
    # the player comes back: a fresh minute on the clock (server/pace.py RETURN_GRACE), and plays
    take_back_and_play(page)
    seat = Api(server.url).ok("GET", f"/api/tables/{table_id}")["seats"][0]
    assert seat["standin"] in (None, "timeout")  # its minute may have run out again since
    assert not errors, errors


def test_the_bots_clocks_run_on_the_table_page(browser: Any, tmp_path_factory: pytest.TempPathFactory) -> None:
    # issue 15: "clocks visible to all" — a bot's clock counts down while it is to act, like a person's
    slow_bots = ServerProcess(tmp_path_factory.mktemp("slow-bots"), bot_delay=4.0).start()
    try:
        page, _table_id, errors = seat_zero_page(slow_bots, browser, {"mode": "realtime", "base": 600,
                                                                       "increment": 5})
        bot_clock = "#seats .clock.running:is([data-seat='1'], [data-seat='2'])"
        page.wait_for_selector(bot_clock, timeout=WAIT_MS)
        first = page.inner_text(bot_clock)
        page.wait_for_function("([selector, first]) => { const e = document.querySelector(selector);"
                               " return e && e.textContent !== first; }", arg=[bot_clock, first], timeout=WAIT_MS)
        assert not errors, errors
    finally:
        slow_bots.stop()
