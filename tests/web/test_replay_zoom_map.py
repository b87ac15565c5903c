"""Replay, zoom and Die Macher's map of the states in the browser (issue 14, "What Board Game Arena players
expect"): a finished bot game replayed step by step draws the board a spectator saw at each move;
a shared link opens at its move; the rounds can be jumped to; the board's zoom changes its size and
is kept after a reload; the map marks the states elected, on the table and the rest as the view
says (die-macher.md §7, §13); no axe violations; every control reachable at 1280×800 and 390×844.

The spectator's views are recorded from a spectator's WebSocket while the bots play, so the page is
checked against what spectators were sent at those moves, not against the replay's own answers."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from tests.server.helpers import Api, ServerProcess, Ws, wait_finished
from tests.web.browser import watch_errors
from tests.web.test_accessibility import violations
from tests.web.test_table_usable import DESKTOP, PHONE, UNREACHABLE, open_seat, poll

Views = dict[int, dict[str, Any]]


def bot_game(server: ServerProcess, game: str, players: int) -> tuple[str, Views]:
    """A finished game of heuristic bots, and the views a spectator's socket was sent, by move number."""
    api = Api(server.url)
    table_id, host = api.create(game, players)
    for seat in range(players):
        api.bot(table_id, host, seat, "heuristic")
    views: Views = {}
    with Ws(f"{server.url.replace('http', 'ws')}/ws/tables/{table_id}") as ws:
        ws.auth(None)
        api.start(table_id, host)
        while True:
            message = ws.recv(60)
            if message["type"] == "state" and message["view"] is not None:
                views[message["move_no"]] = message["view"]
                if message["status"] == "finished":
                    break
    wait_finished(api, table_id)
    return table_id, views


@pytest.fixture(scope="module")
def die_macher(server: ServerProcess) -> tuple[str, Views]:
    return bot_game(server, "diemacher", 3)


@pytest.fixture(scope="module")
def glueckauf(server: ServerProcess) -> tuple[str, Views]:
    return bot_game(server, "glueckauf", 2)


def points(player: dict[str, Any]) -> int:
    return sum(player["vote_vp"]) + sum(player["win_vp"])


def expected_map(view: dict[str, Any]) -> dict[str, str]:
    """die-macher.md §7: the states elected so far, those on the table (the ballot box of this round),
    and the others (not on the table, or face down still to come)."""
    board = view["board"]
    kinds = {}
    for shown in board["boards"]:
        if shown["in_play"]:
            kinds[shown["state"]] = "voting" if shown["ballot_box"] else "table"
    kinds.update({state: "elected" for state in board["elected"]})
    return kinds


BOARD = """() => ({
  states: [...document.querySelectorAll('.dm-state h2')].map((h) => h.textContent),
  points: [...document.querySelectorAll('.dm-scores .dm-vp')].map((n) => parseInt(n.textContent, 10)),
  map: Object.fromEntries([...document.querySelectorAll('.dm-map-state')]
    .filter((g) => g.dataset.kind !== 'out').map((g) => [g.dataset.state, g.dataset.kind])),
  tiles: document.querySelectorAll('.dm-map-state').length,
})"""


def check_board(page: Any, view: dict[str, Any]) -> None:
    """The Die Macher board drawn is that of ``view``: its state boards, the points so far, the map."""
    drawn = page.evaluate(BOARD)
    assert drawn["states"] == [f"{b['name']} ({b['state']})" for b in view["board"]["boards"] if b["in_play"]]
    # the points so far; once over, the final totals (issue 25 defect 5: one total on the final screen)
    assert drawn["points"] == (view["final"] or {}).get("scores", [points(p) for p in view["board"]["seats"]])
    assert drawn["map"] == expected_map(view) and drawn["tiles"] == 16


def shown_move(page: Any) -> int:
    return int(page.evaluate("() => document.body.dataset.replay || '-1'"))


def wait_move(page: Any, move: int) -> None:
    poll(page, "(move) => document.body.dataset.replay === String(move)", move)


def replay_page(browser: Any, server: ServerProcess, table_id: str, move: int | None = None,
                viewport: dict[str, int] = DESKTOP, lang: str = "en") -> tuple[Any, Any, list[str]]:
    """A spectator's page of the table, opened at ``move`` (the shared link) or live."""
    context, page, errors = open_seat(browser, server, table_id, None, None, viewport, lang)
    if move is not None:
        page.goto(f"{server.url}/play/{table_id}?move={move}")
        wait_move(page, move)
    return context, page, errors


def test_a_finished_game_steps_forward_and_back_as_spectators_saw_it(server: ServerProcess, browser: Any,
                                                                      die_macher: tuple[str, Views]) -> None:
    table_id, views = die_macher
    context, page, errors = replay_page(browser, server, table_id)
    last = max(views)
    page.get_by_role("button", name="Replay the game").click()
    wait_move(page, last)
    check_board(page, views[last])
    page.get_by_role("button", name="First move").click()
    wait_move(page, 0)
    check_board(page, views[0])
    page.keyboard.press("ArrowRight")  # the keys step too
    wait_move(page, 1)
    for move in (2, 3, 4):
        page.get_by_role("button", name="Next move").click()
        wait_move(page, move)
    page.get_by_role("button", name="Previous move").click()
    wait_move(page, 3)
    # every recorded move of the middle of the game, reached through the slider
    middle = sorted(n for n in views if last // 3 <= n <= 2 * last // 3)[::15]
    assert len(middle) >= 3
    for move in middle:
        page.locator(".replay-slider").fill(str(move))
        wait_move(page, move)
        check_board(page, views[move])
        assert f"?move={move}" in page.url
    page.get_by_role("button", name="Close the replay").click()
    poll(page, "() => document.body.dataset.replay === '' && !location.search")
    check_board(page, views[last])
    assert not errors, errors
    context.close()


def test_the_shared_link_opens_at_its_move(server: ServerProcess, browser: Any,
                                           die_macher: tuple[str, Views]) -> None:
    table_id, views = die_macher
    move = sorted(views)[len(views) // 2]
    context, page, _errors = replay_page(browser, server, table_id, move)
    link = page.get_by_role("textbox", name="Link to this move").input_value()
    assert link == f"{server.url}/play/{table_id}?move={move}"
    context.close()
    other = browser.new_context(viewport=PHONE)  # somebody else, with nothing kept in the browser
    page = other.new_page()
    errors: list[str] = []
    watch_errors(page, errors)
    page.goto(link)
    wait_move(page, move)
    check_board(page, views[move])
    assert not errors, errors
    other.close()


def test_jump_to_a_round(server: ServerProcess, browser: Any, die_macher: tuple[str, Views],
                         glueckauf: tuple[str, Views]) -> None:
    # die-macher.md §5: election rounds (0: the setup); glueck-auf.md: shifts
    api = Api(server.url)
    for (table_id, _views), key, name in ((die_macher, "round", "Round 2 of 4"), (glueckauf, "shift", "Shift 2 of 3")):
        rounds = api.ok("GET", f"/api/tables/{table_id}/replay?move=0")["rounds"]
        start = next(r["move_no"] for r in rounds if r["round"] == 2)
        context, page, errors = replay_page(browser, server, table_id, 0)
        page.get_by_label("Jump to").select_option(label=name)
        wait_move(page, start)
        view = api.ok("GET", f"/api/tables/{table_id}/replay?move={start}")["view"]
        before = api.ok("GET", f"/api/tables/{table_id}/replay?move={start - 1}")["view"]
        assert view["board"][key] == 2 and before["board"][key] == 1
        assert page.get_by_label("Jump to").evaluate("(s) => s.selectedOptions[0].textContent") == name
        assert name in page.locator("#board").inner_text()
        assert not errors, errors
        context.close()


SIZE = "() => document.querySelector('.dm-state h2').getBoundingClientRect().height"


def test_zoom_changes_the_size_and_is_kept_after_a_reload(server: ServerProcess, browser: Any,
                                                          die_macher: tuple[str, Views]) -> None:
    table_id, _views = die_macher
    context, page, errors = replay_page(browser, server, table_id)
    plain = page.evaluate(SIZE)
    for _ in range(2):
        page.get_by_role("button", name="Zoom in").click()
    poll(page, "() => document.getElementById('board').dataset.zoom === '1.25'")
    assert page.evaluate(SIZE) > plain * 1.15
    page.reload()
    poll(page, "() => document.getElementById('board').dataset.zoom === '1.25' && !!document.querySelector('.dm-map')")
    assert page.evaluate(SIZE) > plain * 1.15
    assert page.locator(".zoom-level").inner_text() == "125 %"
    page.locator("body").press("-")  # the keys: −, + and 0
    poll(page, "() => document.getElementById('board').dataset.zoom === '1.1'")
    page.locator("body").press("0")
    poll(page, "() => document.getElementById('board').dataset.zoom === '1'")
    assert abs(page.evaluate(SIZE) - plain) < 1
    page.get_by_role("button", name="Zoom out").click()
    poll(page, "() => document.getElementById('board').dataset.zoom === '0.9'")
    assert page.evaluate(SIZE) < plain
    assert not errors, errors
    context.close()


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_replay_and_zoom_are_reachable_and_axe_clean(server: ServerProcess, browser: Any,
                                                     die_macher: tuple[str, Views], viewport: dict[str, int]) -> None:
    table_id, views = die_macher
    move = sorted(views)[len(views) // 3]
    context = browser.new_context(viewport=viewport, bypass_csp=True)  # to inject axe
    page = context.new_page()
    page.goto(f"{server.url}/play/{table_id}?move={move}")
    wait_move(page, move)
    assert page.evaluate(UNREACHABLE) == [], viewport
    assert violations(page) == [], viewport
    for _ in range(3):  # zoomed in (150 %), the page still fits and every control can be reached
        page.get_by_role("button", name="Zoom in").click()
    poll(page, "() => document.getElementById('board').dataset.zoom === '1.5'")
    assert page.evaluate("() => document.documentElement.scrollWidth <= innerWidth"), viewport
    assert page.evaluate(UNREACHABLE) == [], viewport
    context.close()


def test_the_map_marks_the_states_as_the_view_says(server: ServerProcess, browser: Any,
                                                   die_macher: tuple[str, Views]) -> None:
    # die-macher.md §7: one state elected per round; the live page shows the map too
    table_id, views = die_macher
    after_first = min(n for n, v in views.items() if v["board"]["elected"])
    for move in (0, after_first, max(views)):
        context, page, _errors = replay_page(browser, server, table_id, move)
        check_board(page, views[move])
        elected = views[move]["board"]["elected"]
        if elected:
            tile = page.locator(f".dm-map-state[data-state='{elected[0]}']")
            tile.focus()  # the tooltip, on keyboard focus as on hover and tap
            assert "elected in election 1" in page.locator("#help-tip").inner_text()
        context.close()
    texts = {lang: Api(server.url).ok("GET", f"/api/i18n/{lang}") for lang in ("en", "de", "pl", "it", "ko")}
    names = {lang: data["terms"]["diemacher"]["STATE_NAMES"] for lang, data in texts.items()}
    assert all(len(found) == 16 for found in names.values())
    # issue 25 defect 6: the German names in every language, as the boards and the log name the states
    assert all(found["BY"] == "Bayern" and found["NDS"] == "Niedersachsen" for found in names.values())
    for lang in ("de", "pl", "it", "ko"):
        assert texts[lang]["strings"]["{state}: not on the table"] != "{state}: not on the table", lang
    context, page, _errors = replay_page(browser, server, table_id, 0, lang="de")
    page.locator(".dm-map-state[data-state='BY']").focus()
    assert "Bayern" in page.locator("#help-tip").inner_text()
    context.close()


def test_spectators_replay_a_running_game_up_to_now(server: ServerProcess, browser: Any) -> None:
    # a human at seat 0 holds the game at its turn; the spectator may replay it, the seat is not offered it
    api = Api(server.url)
    table_id, _host, tokens = api.table("glueckauf", 2, bots={1: "heuristic"})
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:  # a few moves, then the human's turn holds the game
        mine = api.view(table_id, tokens[0])
        if mine["legal"] and api.view(table_id)["move_no"] >= 3:
            break
        if mine["legal"]:
            api.act(table_id, tokens[0], mine["legal"][0], mine["move_no"])
        time.sleep(0.05)
    now = api.view(table_id)["move_no"]
    assert now >= 3
    context, page, errors = replay_page(browser, server, table_id)
    page.get_by_role("button", name="Replay the game").click()
    wait_move(page, now)
    assert page.get_by_role("button", name="Back to the live game").count() == 1
    page.get_by_role("button", name="Previous move").click()
    wait_move(page, now - 1)
    assert not errors, errors
    context.close()
    context, page, _errors = open_seat(browser, server, table_id, tokens[0], 0)
    poll(page, "() => document.body.dataset.mine === '1'")
    assert page.get_by_role("button", name="Replay the game").count() == 0
    context.close()


@pytest.fixture(autouse=True)
def _no_leftover_contexts(browser: Any) -> Iterator[None]:
    yield
    for context in browser.contexts:
        context.close()
