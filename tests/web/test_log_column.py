"""Issue 25 defect 4, "The log is out of sight while you decide": at 1280×800 the board, the decision
panel and the log (at least 8 whole entries) are in view together, wherever the page is scrolled; "has
decided" is a mark on the players list, not a log line; only the last move is highlighted, and nothing
once the game is over, also when several moves are drawn in one frame.

Tables are set up and played through the HTTP API; the page holds seat 0 (tests.web.test_table_usable).
"""

from __future__ import annotations

import random
from typing import Any

from tests.server.helpers import Api, ServerProcess
from tests.web.browser import wait_rendered
from tests.web.test_panel_steady import caught_up, commit
from tests.web.test_table_usable import DESKTOP, open_seat, play_until, poll
from tests.web.test_what_happened import history

# What of the table is in the window: the decision panel's top part, the board, and the log entries that
# lie whole inside both the log's box and the window.
IN_VIEW = """() => {
  const box = (selector) => document.querySelector(selector).getBoundingClientRect();
  const log = box('#log-panel .log');
  const whole = [...document.querySelectorAll('#log-panel li.log-entry')].filter((li) => {
    const r = li.getBoundingClientRect();
    return r.height > 0 && r.top >= Math.max(log.top, 0) - 1 && r.bottom <= Math.min(log.bottom, innerHeight) + 1;
  }).length;
  const decision = box('#decision');
  const board = box('#board');
  return {entries: whole, decision: decision.top >= -1 && decision.top + 80 <= innerHeight && decision.height >= 80,
          board: board.top < innerHeight - 100 && board.bottom > 100, scrolled: scrollY};
}"""

SCROLL_TO = "(f) => window.scrollTo(0, f * (document.documentElement.scrollHeight - innerHeight))"


def assert_in_view(page: Any, where: str) -> None:
    for fraction in (0, 0.5, 1):
        page.evaluate(SCROLL_TO, fraction)
        seen = page.evaluate(IN_VIEW)
        assert seen["entries"] >= 8 and seen["decision"] and seen["board"], (where, fraction, seen)


def test_board_decision_and_log_are_in_view_together(server: ServerProcess, browser: Any) -> None:
    """issue 25 defect 4: a Die Macher program decision (English and German, whose log lines are long)
    and a 3-player Glück Auf placement (the long list of spaces) at 1280×800: at the page's top, middle
    and bottom the decision panel and the board are in view, and at least 8 log entries whole."""
    api = Api(server.url)
    table_id, _host, tokens = api.table("diemacher", 4)
    play_until(api, table_id, tokens, lambda s: s["view"]["phase"] == "program" and bool(s["legal"]),
               random.Random(2), limit=20_000)
    for lang in ("en", "de"):
        context, page, errors = open_seat(browser, server, table_id, tokens[0], 0, DESKTOP, lang)
        poll(page, "() => document.body.dataset.mine === '1' && document.querySelectorAll('#log-panel li').length > 8")
        assert_in_view(page, f"diemacher {lang}")
        assert not [e for e in errors if "WebSocket" not in e], errors
        context.close()
    table_id, _host, tokens = api.table("glueckauf", 3, {"start_player": 0})
    play_until(api, table_id, tokens, lambda s: s["view"]["phase"] == "place" and len(s["legal"]) > 12
               and s["move_no"] > 12, random.Random(3))
    context, page, errors = open_seat(browser, server, table_id, tokens[0], 0)
    poll(page, "() => document.body.dataset.mine === '1'")
    assert page.evaluate("() => document.querySelectorAll('#decision button, #decision option').length") > 12
    assert_in_view(page, "glueckauf")
    assert not [e for e in errors if "WebSocket" not in e], errors
    context.close()


MARKED = "() => [...document.querySelectorAll('#seats li')].map((li) => !!li.querySelector('.decided'))"
LOGGED = """() => [...document.querySelectorAll('#log-panel li.log-entry')].map((li) => ({
  kind: li.dataset.kind, no: li.querySelector('.log-no').textContent}))"""


def test_has_decided_is_a_mark_on_the_players_not_a_log_line(server: ServerProcess, browser: Any) -> None:
    """issue 25 defect 4: while Die Macher's draft is decided sealed, the parties that have decided are
    marked "has decided" in the players list (after a reload too) and the log has no "has decided"
    lines and numbers the entries it shows without gaps; the events stay in the game's history."""
    api = Api(server.url)
    table_id, _host, tokens = api.table("diemacher", 4)
    play_until(api, table_id, tokens, lambda s: s["view"]["phase"] == "draft" and len(s["to_act"]) == 4,
               random.Random(4), limit=20_000)
    context, page, errors = open_seat(browser, server, table_id, tokens[0], 0)
    rng = random.Random(5)
    for seat in (1, 3):
        commit(api, table_id, tokens[seat], rng)
    for reloaded in (False, True):
        if reloaded:
            page.reload()
            wait_rendered(page)
        caught_up(page, api, table_id, tokens[0])
        assert page.evaluate(MARKED) == [False, True, False, True]
        assert page.locator("#seats li .decided").first.inner_text() == "✓ has decided"
        logged = page.evaluate(LOGGED)
        assert logged and "sealed_committed" not in {e["kind"] for e in logged}
        assert [e["no"] for e in logged] == [f"{n}." for n in range(1, len(logged) + 1)]
    kinds = [e["kind"] for e in history(server, table_id, tokens[0])["log_events"]]
    assert kinds[-2:] == ["sealed_committed", "sealed_committed"]  # kept for the record and replays
    commit(api, table_id, tokens[0], rng)
    commit(api, table_id, tokens[2], rng)  # the last one: the picks are passed on, a new pick begins
    caught_up(page, api, table_id, tokens[0])
    assert page.evaluate(MARKED) == [False] * 4
    assert not [e for e in errors if "WebSocket" not in e], errors
    context.close()


MARKS = "() => [...document.querySelectorAll('.hl')].map((n) => n.dataset.hl)"


def place(api: Api, table_id: str, token: str) -> str:
    """A seat's turn of Glück Auf's placement, one move: a worker on a free money space (glueck-auf.md:
    nothing more to decide there); the space."""
    state = api.view(table_id, token)
    spaces = state["view"]["board"]["spaces"]
    action = next(a for a in state["legal"] if a[0] == "place" and a[1].startswith("money_")
                  and spaces[a[1]].get("owner") is None)
    api.act(table_id, token, action, state["move_no"])
    assert not api.view(table_id, token)["legal"]
    return str(action[1])


def test_only_the_last_move_is_highlighted_and_nothing_at_the_end(server: ServerProcess, browser: Any) -> None:
    """issue 25 defect 4: two players place in quick succession: only the second placement's space is
    marked, the first one's no longer; once the game is over no mark is left."""
    api = Api(server.url)
    table_id, _host, tokens = api.table("glueckauf", 3, {"start_player": 1})
    rng = random.Random(6)
    play_until(api, table_id, tokens, lambda s: s["view"]["phase"] == "place" and s["to_act"] == [1], rng)
    context, page, errors = open_seat(browser, server, table_id, tokens[0], 0)
    first = place(api, table_id, tokens[1])
    second = place(api, table_id, tokens[2])
    caught_up(page, api, table_id, tokens[0])
    marks = page.evaluate(MARKS)
    assert f"space-{second}" in marks and f"space-{first}" not in marks, (first, second, marks)
    assert "stats-1" not in marks  # the first player's worker count changed before the last move
    play_until(api, table_id, tokens, lambda s: s["status"] == "finished", rng, limit=20_000)
    poll(page, "() => document.body.dataset.status === 'finished'")
    assert page.evaluate(MARKS) == []
    assert not [e for e in errors if "WebSocket" not in e], errors
    context.close()


# The page's frames held: each requestAnimationFrame callback waits in a list (one per state the page takes,
# as the page asks for a frame again while none is given) until the test lets them run.
HOLD_FRAMES = """() => { window.heldFrames = []; window.givenFrames = window.requestAnimationFrame;
  window.requestAnimationFrame = (callback) => { window.heldFrames.push(callback); return 0; }; }"""
GIVE_FRAMES = """() => { window.requestAnimationFrame = window.givenFrames;
  for (const callback of window.heldFrames.splice(0)) callback(performance.now()); }"""


def test_two_moves_drawn_in_one_frame_mark_only_the_last(server: ServerProcess, browser: Any) -> None:
    """docs/web.md "What just happened": the page draws at most once per frame, the latest state; when two
    placements reach it before its next frame, that one drawing still marks only the second placement's
    space (issue 25 defect 4), and the log has both."""
    api = Api(server.url)
    table_id, _host, tokens = api.table("glueckauf", 3, {"start_player": 1})
    play_until(api, table_id, tokens, lambda s: s["view"]["phase"] == "place" and s["to_act"] == [1],
               random.Random(6))
    context, page, errors = open_seat(browser, server, table_id, tokens[0], 0)
    entries = page.evaluate("() => document.querySelectorAll('#log-panel li.log-entry').length")
    page.evaluate(HOLD_FRAMES)
    first = place(api, table_id, tokens[1])
    second = place(api, table_id, tokens[2])
    poll(page, "() => window.heldFrames.length >= 2")  # both states have come, neither is drawn
    assert page.evaluate(MARKS) == []
    page.evaluate(GIVE_FRAMES)
    caught_up(page, api, table_id, tokens[0])
    marks = page.evaluate(MARKS)
    assert f"space-{second}" in marks and f"space-{first}" not in marks, (first, second, marks)
    assert page.evaluate("() => document.querySelectorAll('#log-panel li.log-entry').length") >= entries + 2
    assert not [e for e in errors if "WebSocket" not in e], errors
    context.close()
