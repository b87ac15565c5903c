"""A whole 2-player Glück Auf game in the browser, end to end.

``stammtisch serve`` runs in a subprocess (``tests.server.helpers.ServerProcess``: a free loopback
port, SQLite in a temporary folder, bots without delay); Chromium, screenshots and error watching
come from ``tests.web.browser``.  Seat 1 is played by this test through
the table page — every move a click (or Enter) on the Glück Auf board itself: the draft, worker
spaces (factory, mining, delivery, money, new orders, the draw-5 spaces), each step of a mining
run (cage levels, minecarts, the cage's cubes, order fields and their cube chooser), drawn tiles
and cards, returns to the stack, substitute coal and confirmations.  Seat 2 is the server's
heuristic bot.  Which move to make is the heuristic bot's choice from the seat's view (with a
few moves forced so that every kind of space is used); the test only checks the page.

At each decision the test waits until the board shows exactly the server's view; at the end it
checks the final tables.  axe-core checks every state it takes a picture of (issue 25), in the five
languages at a mining run (desktop and phone) and the final tables.  Screenshots of key moments go to
``$PYTEST_ARTIFACTS`` or ``tests/web/artifacts/``.  Needs ``/usr/bin/chromium`` (skips without it unless ``CI`` is set).
"""

from __future__ import annotations

import json
import time
from typing import Any

from stammtisch.engine.record import action_from_json, action_to_json
from stammtisch.games.glueckauf.bot import HeuristicBot
from tests.server.helpers import Api, ServerProcess
from tests.web.browser import assert_accessible, assert_accessible_in_every_language, seats_kept, shot, watch_errors
from tests.web.test_table_usable import poll

WAIT_MS = 20_000


class Player:
    """Seat 1 at the table page: waits for the board to show the server's state, clicks on it."""

    def __init__(self, page: Any, api: Api, table_id: str, token: str) -> None:
        self.page, self.api, self.table_id, self.token = page, api, table_id, token
        self.bot = HeuristicBot(seed=7)
        self.done: set[str] = set()  # what was played: action kinds and place:<space kind>
        self.shots: set[tuple[str, int]] = set()

    def state(self) -> dict[str, Any]:
        return self.api.view(self.table_id, self.token)

    def until_my_turn(self, after: int) -> dict[str, Any]:
        deadline = time.monotonic() + WAIT_MS / 1000
        while time.monotonic() < deadline:
            state = self.state()
            if state["move_no"] > after and (state["legal"] or state["status"] != "running"):
                return state
            time.sleep(0.02)
        raise TimeoutError(f"no decision for seat 1 after move {after}")

    def shows(self, view: dict[str, Any]) -> None:
        """Wait until the board draws exactly this view."""
        expected = json.dumps(view, separators=(",", ":"), ensure_ascii=False)
        poll(self.page, "(expected) => { const g = document.querySelector('#board .ga');"
                        " return !!g && JSON.stringify(g.gaView) === expected; }", expected)

    def shoot(self, name: str, width: int = 1280, every_language: bool = False) -> None:
        """A screenshot of a state the game reached, once, and axe-core's check there (issue 25)."""
        if (name, width) in self.shots:
            return
        self.shots.add((name, width))
        if width != 1280:
            self.page.set_viewport_size({"width": width, "height": 800})
        shot(self.page, f"glueckauf-e2e-{name}-{width}")
        where = f"Glück Auf, {name}, {width} px"
        if every_language:
            assert_accessible_in_every_language(self.page, where)
        else:
            assert_accessible(self.page, where)
        if width != 1280:
            self.page.set_viewport_size({"width": 1280, "height": 800})

    def choose(self, state: dict[str, Any]) -> list[Any]:
        view = state["view"]
        legal = [action_from_json(a) for a in state["legal"]]
        forced: list[tuple[str, str]] = []
        if view["phase"] == "place":
            spaces = [a[1] for a in legal if a[0] == "place"]
            if view["board"]["shift"] == 1:
                forced += [("place:order", s) for s in spaces if s.startswith("order_") and s != "order_draw"]
                forced += [("place:money", s) for s in spaces if s.startswith("money_")]
                forced += [("place:factory", s) for s in spaces if s.startswith("factory_") and s != "factory_draw"]
            else:
                forced += [("place:factory_draw", s) for s in spaces if s == "factory_draw"]
                forced += [("place:order_draw", s) for s in spaces if s == "order_draw"]
        for wish, space in forced:
            if wish not in self.done:
                return ["place", space]
        return action_to_json(self.bot.choose(view, legal))

    def play(self, action: list[Any]) -> None:
        """Press the board's button for this action (an order field first opens its chooser)."""
        board = self.page.locator("#board")
        selector = f"button[data-action='{json.dumps(action, separators=(',', ':'))}']"
        target = board.locator(selector)
        if action[0] == "fill" and target.count() == 0:
            board.locator(f"[data-focus-key='choose:{action[2]}:{action[3]}']").click()
            target = board.locator(f".ga-chooser {selector}")
            self.done.add("chooser")
        assert target.count() >= 1, f"the board has no button for {action}"
        if action[0] in ("confirm", "done"):  # the keyboard: focus and Enter
            target.first.focus()
            self.page.keyboard.press("Enter")
            self.done.add("keyboard")
        else:
            target.first.click()
        kind = str(action[0])
        if kind == "place":
            space = str(action[1])
            kind = "place:" + (space if space in ("factory_draw", "order_draw", "bank") else space.rsplit("_", 1)[0])
        self.done.add(kind)


def test_a_whole_game_played_on_the_board(server: ServerProcess, browser: Any) -> None:
    api = Api(server.url)
    table_id, host = api.create("glueckauf", 2, {"start_player": 0})
    invite = api.ok("POST", f"/api/tables/{table_id}/invites", host, json={"seats": [0]})["invites"][0]
    api.bot(table_id, host, 1, "heuristic")
    api.start(table_id, host)

    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-US")
    page = context.new_page()
    errors: list[str] = []
    watch_errors(page, errors)
    # issue #13 deltas: the page asks for deltas and patches its state; the board must still show exactly
    # the server's view at every decision (me.shows) and the final tables
    kinds: list[str] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda data: kinds.append(str(data)[:15])))
    # issue #9 Tokens: the invite link (invitation in the fragment) of a running game is claimed at once for a
    # fresh seat token, kept in this browser; the address bar no longer shows the invitation
    page.goto(server.url + invite["url"])
    page.wait_for_selector("#board .ga", timeout=WAIT_MS)
    page.wait_for_function("(id) => (JSON.parse(localStorage.getItem('stammtisch.seats') || '{}')[id] || {}).token",
                           arg=table_id, timeout=WAIT_MS)
    assert "invite" not in page.url
    token = seats_kept(page)[table_id]["token"]
    assert token != invite["token"] and api.view(table_id, token)["seat"] == 0

    me = Player(page, api, table_id, token)
    state = me.until_my_turn(-1)
    run_steps = 0
    scoring_seen: set[int] = set()
    while state["status"] == "running":
        view = state["view"]
        me.shows(view)
        assert not page.locator("#alert:not([hidden])").count(), page.locator("#alert").inner_text()
        stage, shift = view["phase"], view["board"]["shift"]
        run_steps = run_steps + 1 if stage == "mining" else 0
        if shift > 1 and shift not in scoring_seen:  # the last shift's scoring, category by category
            scoring_seen.add(shift)
            assert page.locator("#board .ga-scoring li, #board .ga-scoring tbody tr").count() == 4 * (shift - 1)
            me.shoot(f"shift{shift}-scoring")
        if stage == "mining" and run_steps == 3:
            me.shoot("mining", every_language=True)
            me.shoot("mining", width=390, every_language=True)
        elif stage in ("draft", "place", "keep_tile", "return_tiles", "keep_order", "coal"):
            me.shoot(stage)
        action = me.choose(state)
        if action[0] == "place" and str(action[1]).startswith("delivery_"):
            me.shoot("delivery")
        me.play(action)
        if action[0] == "fill" and "chooser" in me.done:
            me.shoot("chooser")  # (taken after the click: the next state)
        state = me.until_my_turn(state["move_no"])

    # the end: the board's final table and the frame's, matching the server's scores
    final = state
    me.shows(final["view"])
    rows = page.locator("#board .ga-final tbody tr")
    assert rows.count() == 2
    totals = [int(rows.nth(i).locator("td.ga-total").inner_text()) for i in range(2)]
    assert totals == final["scores"]
    assert page.locator("#board .ga-final tr.ga-winner").count() >= 1
    # the frame's final table marks the winners the envelope names (the game's tie-breaks included)
    marked = [i for i in range(2) if "winner" in (page.locator("#decision table.scores tbody tr").nth(i)
                                                  .get_attribute("class") or "")]
    assert marked == final["view"]["final"]["winners"]
    assert page.locator("#board .ga-scoring tbody tr, #board .ga-scoring li").count() == 12
    me.shoot("final", every_language=True)
    me.shoot("final", width=390)
    # the same table in Polish, switched on the page
    page.select_option("#language", "pl")
    poll(page, "() => document.documentElement.lang === 'pl'")
    poll(page, "() => document.querySelector('#board .ga').lang === 'pl' && !!document.querySelector('.ga-final')")
    me.shoot("final-pl")

    played = me.done
    wanted = {"draft", "place:factory", "place:mining", "place:delivery", "place:money", "place:order",
              "cage", "load", "fill", "confirm", "keyboard"}
    assert wanted <= played, sorted(wanted - played)
    assert {"return_tiles", "return_orders"} & played  # issue #8 item 5: put back item by item on the board
    assert not errors, errors[:5]
    assert kinds.count('{"type":"delta"') > 50, kinds[:10]
    context.close()
