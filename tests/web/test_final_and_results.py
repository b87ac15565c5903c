"""Issue 25 defect 5 (the table page's parts): Glück Auf's 3-player shift-scoring panel fits the side
column (and whatever still scrolls sideways there is reachable by keyboard); Die Macher's final screen
shows one total per party — the score strip, the board's final table and the frame's final scores agree
(die-macher.md: final scoring).
"""

from __future__ import annotations

import random
from typing import Any

from tests.server.helpers import Api, ServerProcess
from tests.web.test_table_usable import DESKTOP, PHONE, open_seat, play_until, poll

# Elements of the result panel that are wider than their box: each must be a keyboard-reachable scroller.
SCROLLERS = """() => [...document.querySelectorAll('#results, #results *')]
  .filter((n) => n.scrollWidth > n.clientWidth + 1 && n.clientWidth > 0)
  .map((n) => ({tag: n.tagName, cls: n.className, wide: n.scrollWidth, box: n.clientWidth, tab: n.tabIndex,
                scrolls: ['auto', 'scroll'].includes(getComputedStyle(n).overflowX)}))"""
TABLE_FITS = """() => { const panel = document.getElementById('results').getBoundingClientRect();
  return [...document.querySelectorAll('#results table')]
    .every((t) => t.getBoundingClientRect().right <= panel.right); }"""


def test_the_shift_scoring_panel_fits_its_column(server: ServerProcess, browser: Any) -> None:
    """issue 25 defect 5: with three players named as the bots are ("Bot 2 (heuristic)"), the shift
    scoring's panel is no wider than its column in German and Polish, at 1280×800 and on a phone, and
    nothing in it scrolls sideways out of the keyboard's reach."""
    api = Api(server.url)
    table_id, _host, tokens = api.table("glueckauf", 3, {"start_player": 0}, bots={1: "heuristic", 2: "heuristic"})
    play_until(api, table_id, tokens, lambda s: s["view"]["board"]["shift"] >= 2, random.Random(3))
    for lang in ("de", "pl"):
        for viewport in (DESKTOP, PHONE):
            context, page, errors = open_seat(browser, server, table_id, tokens[0], 0, viewport, lang)
            poll(page, "() => document.querySelectorAll('#log-panel .log-result').length > 0")
            page.locator("#log-panel .log-result").last.click()
            poll(page, "() => !document.getElementById('results').hidden")
            unreachable = [n for n in page.evaluate(SCROLLERS) if not (n["scrolls"] and n["tab"] == 0)]
            assert unreachable == [], (lang, viewport)
            assert page.evaluate(TABLE_FITS), (lang, viewport)
            assert not [e for e in errors if "WebSocket" not in e], errors
            context.close()


TOTALS = """() => {
  const last = (rows) => [...document.querySelectorAll(rows)].map((r) => Number(r.lastElementChild.textContent));
  return {strip: [...document.querySelectorAll('#board .dm-scores .dm-vp')].map((n) => parseInt(n.textContent, 10)),
          board: last('#board .dm-final tbody tr'), frame: last('#decision table.scores tbody tr')};
}"""


def test_the_final_screen_shows_one_total_per_party(server: ServerProcess, browser: Any) -> None:
    """issue 25 defect 5: once Die Macher is over, the score strip at the top shows each party's final
    total, as the board's final table and the frame's final scores do (not the points before the final
    scoring)."""
    api = Api(server.url)
    table_id, _host, tokens = api.table("diemacher", 3, bots={1: "random", 2: "random"})
    final = play_until(api, table_id, tokens, lambda s: s["status"] == "finished", random.Random(4),
                       limit=40_000)["view"]["final"]
    context, page, errors = open_seat(browser, server, table_id, tokens[0], 0)
    poll(page, "() => document.body.dataset.status === 'finished'")
    totals = page.evaluate(TOTALS)
    assert totals == {"strip": final["scores"], "board": final["scores"], "frame": final["scores"]}
    votes = [sum(p["vote_vp"]) + sum(p["win_vp"]) for p in api.view(table_id, tokens[0])["view"]["board"]["seats"]]
    assert votes != final["scores"]  # the final scoring added points: the strip must not stop before it
    assert not [e for e in errors if "WebSocket" not in e], errors
    context.close()
