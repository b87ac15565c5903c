"""axe-core on both game pages (issue #14 defect 9): no violations at the states the end-to-end tests visit
(setup, a running round, the end; desktop and phone width).  The lobby: tests/web/test_lobby_e2e.py.

axe-core is vendored for the tests only (``tests/web/vendor/axe.min.js``, see its README) and evaluated into
the page under test (``tests.web.browser.assert_accessible``), never served by the server.
"""

from __future__ import annotations

import random
from typing import Any

from tests.server.helpers import Api, ServerProcess
from tests.web.browser import AXE, AXE_RUN, assert_accessible, axe_violations, wait_rendered
from tests.web.test_table_usable import DESKTOP, PHONE, play_until, poll

# The names other tests import from here (the helpers themselves live in tests/web/browser.py).
RUN = AXE_RUN
violations = axe_violations
__all__ = ["AXE", "RUN", "open_page", "violations"]


def open_page(browser: Any, server: ServerProcess, path: str, kept: tuple[str, dict[str, Any]] | None = None,
              viewport: dict[str, int] = DESKTOP, lang: str = "en") -> tuple[Any, Any]:
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    page.goto(server.url + "/")
    page.evaluate("([lang, kept]) => { localStorage.setItem('stammtisch.lang', lang); if (kept)"
                  " localStorage.setItem('stammtisch.seats', JSON.stringify({[kept[0]]: kept[1]})); }", [lang, kept])
    page.goto(server.url + path)
    wait_rendered(page)
    return context, page


def check_stages(server: ServerProcess, browser: Any, api: Api, table_id: str, tokens: dict[int, str],
                 stages: list[tuple[str, Any]], rng: random.Random, drawn: str) -> None:
    """Play to each stage in turn and check the page there, at desktop and phone width."""
    for name, reached in stages:
        play_until(api, table_id, tokens, reached, rng, limit=20_000)
        for viewport in (DESKTOP, PHONE):
            context, page = open_page(browser, server, f"/play/{table_id}", (table_id, {"token": tokens[0], "seat": 0}),
                                      viewport)
            poll(page, f"() => !!document.querySelector('{drawn}')")
            assert_accessible(page, f"{name} at {viewport}")
            context.close()


def test_die_macher_has_no_axe_violations(server: ServerProcess, browser: Any) -> None:
    api = Api(server.url)
    table_id, _host, tokens = api.table("diemacher", 3, bots={1: "random", 2: "random"})
    rng = random.Random(6)
    stages = [
        ("setup", lambda s: bool(s["legal"])),
        ("round", lambda s: s["view"]["board"]["round"] >= 1 and bool(s["legal"])),
        # a later round (a random seat 0 may never be asked in the politicians phase of a short game)
        ("later round", lambda s: s["view"]["board"]["round"] >= 2 and bool(s["legal"])),
        ("end", lambda s: s["status"] == "finished"),
    ]
    check_stages(server, browser, api, table_id, tokens, stages, rng, ".dm-phases")


def test_glueckauf_has_no_axe_violations(server: ServerProcess, browser: Any) -> None:
    api = Api(server.url)
    table_id, _host, tokens = api.table("glueckauf", 2, {"start_player": 0}, bots={1: "heuristic"})
    rng = random.Random(6)
    stages = [
        ("draft", lambda s: s["view"]["phase"] == "draft" and bool(s["legal"])),
        ("place", lambda s: s["view"]["phase"] == "place" and bool(s["legal"])),
        ("mining", lambda s: s["view"]["phase"] == "mining" and bool(s["legal"])),
        ("shift 2", lambda s: s["view"]["board"]["shift"] >= 2 and bool(s["legal"])),
        ("end", lambda s: s["status"] == "finished"),
    ]
    check_stages(server, browser, api, table_id, tokens, stages, rng, "#board .ga")
