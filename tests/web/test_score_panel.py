"""Die Macher's per-party score panel (issue #14, "What BGA players expect"): every party's points so
far, party base and (known) money stay in view at the top of the window wherever the board is
scrolled, at desktop and phone width, and agree with the parties' table further down."""

from __future__ import annotations

import random
from typing import Any

from tests.server.helpers import Api, ServerProcess
from tests.web.test_table_usable import DESKTOP, PHONE, UNREACHABLE, open_seat, play_until, poll

STRIP = """() => {
  const strip = document.querySelector('.dm-scores');
  const r = strip.getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + 4, r.top + r.height / 2);
  return {top: r.top, bottom: r.bottom, visible: r.top >= 0 && r.bottom <= innerHeight && strip.contains(hit),
          points: [...strip.querySelectorAll('li .dm-vp')].map((n) => n.textContent)};
}"""


def test_the_score_panel_stays_in_view_and_matches_the_party_table(server: ServerProcess, browser: Any) -> None:
    api = Api(server.url)
    table_id, _host, tokens = api.table("diemacher", 5, bots={s: "heuristic" for s in range(1, 5)})
    # after the first election, so that points differ
    state = play_until(api, table_id, tokens, lambda s: s["status"] == "finished" or (
        s["view"]["board"]["elections_held"] >= 1 and bool(s["legal"])), random.Random(7), limit=20_000)
    seats = state["view"]["board"]["seats"]
    expected = [sum(p["vote_vp"]) + sum(p["win_vp"]) for p in seats]
    for viewport in (DESKTOP, PHONE):
        context, page, errors = open_seat(browser, server, table_id, tokens[0], 0, viewport=viewport)
        poll(page, "() => !!document.querySelector('.dm-scores') && !!document.querySelector('.dm-party-table')")
        if api.view(table_id, tokens[0])["move_no"] != state["move_no"]:  # a bot moved on: compare with now
            seats = api.view(table_id, tokens[0])["view"]["board"]["seats"]
            expected = [sum(p["vote_vp"]) + sum(p["win_vp"]) for p in seats]
        for where in ("0", "document.querySelector('.dm-party-table').getBoundingClientRect().top + scrollY - 200",
                      "document.documentElement.scrollHeight"):
            page.evaluate(f"() => window.scrollTo(0, {where})")
            strip = page.evaluate(STRIP)
            assert strip["visible"], (viewport, where, strip)
        assert [int(p.split()[0]) for p in strip["points"]] == expected
        table = page.locator(".dm-party-table tbody tr td:nth-child(3)").all_inner_texts()
        assert [int(x) for x in table] == expected
        assert page.locator(".dm-scores li").first.locator(".dm-money").count() == 1  # my own money
        assert page.evaluate(UNREACHABLE) == [], viewport  # nothing hides under the panel when scrolled to
        assert not [e for e in errors if "WebSocket" not in e], errors
        context.close()
