"""A replay from your own seat (issue 25, "What players expect and we lack"): the player of a finished
Die Macher game replays it as their seat saw it — their money, hand and politicians, the others' money
hidden until the end (die-macher.md §13) — stepping in the page without a request per step, with jumps
to the next and previous election and to their own next and previous move, by buttons and keys; the
link to a move opens it for anybody; no axe violations, every control reachable at 1280×800 and 390×844.

The page is checked against seat 0's views decoded from the server's answer with an RFC 6902 library
(``jsonpatch``), not with the page's own code; that those are the views the seat was sent live at every
move is tests/server/test_replay.py's (a socket coalesces moves that come quickly, so the bots' game
here is not recorded move by move); the last one is checked against seat 0's own socket."""

from __future__ import annotations

import random
from typing import Any

import jsonpatch
import pytest

from tests.server.helpers import Api, ServerProcess, Ws, wait_finished
from tests.web.browser import watch_errors
from tests.web.test_accessibility import open_page, violations
from tests.web.test_replay_zoom_map import _no_leftover_contexts, check_board, wait_move
from tests.web.test_table_usable import DESKTOP, PHONE, UNREACHABLE, open_seat, poll

__all__ = ["_no_leftover_contexts"]  # the fixture: contexts a failed test left open are closed

Views = dict[int, dict[str, Any]]


class SeatGame:
    """A finished game of a person at seat 0 (random moves) and two heuristic bots: seat 0's token, its
    replay as the server gives it and the views it holds by the seat's move number."""

    def __init__(self, server: ServerProcess) -> None:
        api = Api(server.url)
        self.table_id, _host, tokens = api.table("diemacher", 3, bots={1: "heuristic", 2: "heuristic"})
        self.token = tokens[0]
        rng = random.Random(25)
        with Ws(f"{server.url.replace('http', 'ws')}/ws/tables/{self.table_id}") as ws:
            ws.auth(self.token)
            ws.play(lambda state: rng.choice(state["legal"]))
            assert ws.latest is not None
            final = ws.latest
        wait_finished(api, self.table_id)
        self.replay: dict[str, Any] = api.ok("GET", f"/api/tables/{self.table_id}/replay/seat", self.token)
        views = [self.replay["view"]]
        for step in self.replay["steps"][1:]:
            views.append(jsonpatch.apply_patch(views[-1], step["patch"]))
        self.views: Views = dict(enumerate(views))
        assert self.views[final["move_no"]] == final["view"] and final["move_no"] == self.replay["last"]

    def at_link(self, public: int) -> int:
        """The seat's position a link to spectators' move ``public`` opens: the last one at that move."""
        return max(n for n, number in enumerate(self.replay["public"]) if number <= public)


@pytest.fixture(scope="module")
def game(server: ServerProcess) -> SeatGame:
    return SeatGame(server)


OWN = """() => ({
  hand: document.querySelectorAll('.dm-private dd:nth-of-type(2) .card').length,
  money: (document.querySelector('.dm-private dd') || {}).textContent || '',
  secret: document.querySelectorAll('.dm-party-table td [aria-label="secret"]').length,
})"""


def check_own_board(page: Any, view: dict[str, Any]) -> None:
    """The board drawn is seat 0's ``view``: the public board, and its own hand and money; the others'
    money stays "?" until the game is over."""
    check_board(page, view)
    drawn = page.evaluate(OWN)
    me = view["board"]["seats"][0]
    assert drawn["hand"] == len(me["hand"])
    assert "".join(ch for ch in drawn["money"] if ch.isdigit()) == str(me["money"])
    assert drawn["secret"] == sum(1 for player in view["board"]["seats"] if player["money"] is None)


def seat_page(browser: Any, server: ServerProcess, game: SeatGame, viewport: dict[str, int] = DESKTOP,
              lang: str = "en", axe: bool = False) -> tuple[Any, Any, list[str], list[str]]:
    """Seat 0's page of the finished table; the replay requests it makes are listed as they go out."""
    if axe:  # a context that lets axe be injected (the page keeps its own CSP)
        context, page = open_page(browser, server, f"/play/{game.table_id}",
                                  (game.table_id, {"token": game.token, "seat": 0}), viewport, lang)
        errors: list[str] = []
        watch_errors(page, errors)
    else:
        context, page, errors = open_seat(browser, server, game.table_id, game.token, 0, viewport, lang)
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url) if "/replay" in request.url else None)
    return context, page, errors, requests


def test_the_seat_steps_through_its_own_views_without_a_request_per_step(server: ServerProcess, browser: Any,
                                                                         game: SeatGame) -> None:
    context, page, errors, requests = seat_page(browser, server, game)
    last = max(game.views)
    assert game.replay["last"] == last
    page.get_by_role("button", name="Replay the game").click()
    wait_move(page, last)
    check_own_board(page, game.views[last])
    assert "as your seat saw it" in page.locator(".replay-where").inner_text()
    page.get_by_role("button", name="First move").click()
    wait_move(page, 0)
    check_own_board(page, game.views[0])
    page.keyboard.press("ArrowRight")
    wait_move(page, 1)
    for move in (2, 3):
        page.get_by_role("button", name="Next move", exact=True).click()
        wait_move(page, move)
        check_own_board(page, game.views[move])
    for move in sorted(game.views)[last // 4::max(1, last // 7)]:  # through the slider, the whole game
        page.locator(".replay-slider").fill(str(move))
        wait_move(page, move)
        check_own_board(page, game.views[move])
        assert page.url.endswith(f"?move={game.replay['public'][move]}")  # the address names the spectators' move
    assert requests == [f"{server.url}/api/tables/{game.table_id}/replay/seat?lang=en"]  # one, for every step
    page.get_by_role("button", name="Close the replay").click()
    poll(page, "() => document.body.dataset.replay === ''")
    check_own_board(page, game.views[last])
    assert not errors, errors
    context.close()


def test_jumps_to_the_elections_and_to_my_own_moves(server: ServerProcess, browser: Any, game: SeatGame) -> None:
    # die-macher.md §5: one election a round; the seat's own moves are those it made (not the bots')
    elections, mine = game.replay["scorings"], game.replay["mine"]
    assert len(elections) == 4 and len(mine) > 10
    context, page, errors, _requests = seat_page(browser, server, game)
    page.goto(f"{server.url}/play/{game.table_id}?move=0")
    wait_move(page, 0)
    page.get_by_role("button", name="Next election").click()
    wait_move(page, elections[0])
    check_own_board(page, game.views[elections[0]])
    assert "election" in page.locator(".replay-happened").inner_text().lower()
    assert page.get_by_role("button", name="Previous election").is_disabled()
    page.keyboard.press("PageDown")
    wait_move(page, elections[1])
    page.keyboard.press("PageUp")
    wait_move(page, elections[0])
    mine_after = [n for n in mine if n > elections[0]]
    page.get_by_role("button", name="My next move").click()
    wait_move(page, mine_after[0])
    page.keyboard.press("Shift+ArrowRight")
    wait_move(page, mine_after[1])
    check_own_board(page, game.views[mine_after[1]])
    page.keyboard.press("Shift+ArrowLeft")
    wait_move(page, mine_after[0])
    button = page.get_by_role("button", name="My previous move")
    assert button.get_attribute("aria-keyshortcuts") == "Shift+ArrowLeft"
    page.keyboard.press("End")
    wait_move(page, max(game.views))
    assert page.get_by_role("button", name="Next election").is_disabled()
    assert page.get_by_role("button", name="My next move").is_disabled()
    assert not errors, errors
    context.close()


def test_the_link_opens_the_move_for_the_seat_and_for_anybody(server: ServerProcess, browser: Any,
                                                              game: SeatGame) -> None:
    position = game.replay["mine"][len(game.replay["mine"]) // 2]
    public = game.replay["public"][position]
    context, page, errors, _requests = seat_page(browser, server, game)
    page.goto(f"{server.url}/play/{game.table_id}?move={public}")
    wait_move(page, game.at_link(public))
    check_own_board(page, game.views[game.at_link(public)])
    page.locator(".replay-slider").fill(str(position))
    wait_move(page, position)
    link = page.get_by_role("textbox", name="Link to this move").input_value()
    assert link == f"{server.url}/play/{game.table_id}?move={public}"
    assert not errors, errors
    context.close()
    spectator = browser.new_context(viewport=PHONE)  # nobody's seat: the spectators' replay at that move
    page = spectator.new_page()
    errors = []
    watch_errors(page, errors)
    page.goto(link)
    wait_move(page, public)
    assert page.locator(".dm-private").count() == 0
    assert "as your seat saw it" not in page.locator(".replay-where").inner_text()
    spectators = Api(server.url).ok("GET", f"/api/tables/{game.table_id}/replay?move={public}")
    check_board(page, spectators["view"])
    assert not errors, errors
    spectator.close()


@pytest.mark.parametrize(("viewport", "lang"), [(DESKTOP, "de"), (PHONE, "ko")], ids=["desktop-de", "phone-ko"])
def test_the_seats_replay_speaks_the_page_language_is_axe_clean_and_reachable(
        server: ServerProcess, browser: Any, game: SeatGame, viewport: dict[str, int], lang: str) -> None:
    names = {"de": ("Nächste Wahl", "Mein nächster Zug"), "ko": ("다음 투표", "내 다음 수")}[lang]
    move = game.replay["scorings"][1]
    context, page, errors, requests = seat_page(browser, server, game, viewport, lang, axe=True)
    page.goto(f"{server.url}/play/{game.table_id}?move={game.replay['public'][move]}")
    wait_move(page, game.at_link(game.replay["public"][move]))
    for name in names:
        assert page.get_by_role("button", name=name).count() == 1, name
    assert f"lang={lang}" in requests[-1]
    assert page.evaluate(UNREACHABLE) == [], viewport
    assert violations(page) == [], viewport
    assert not errors, errors
    context.close()
