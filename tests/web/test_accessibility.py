"""axe-core on the lobby and both game pages (issue #14 defect 9): no violations at the states the
end-to-end tests visit (setup, a running round, the end; desktop and phone width).

axe-core is vendored for the tests only (``tests/web/vendor/axe.min.js``, see its README): it is
injected into the page under test by Playwright (a context that bypasses the page's CSP for that),
never served by the server.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from tests.server.helpers import Api, ServerProcess
from tests.web.browser import wait_rendered
from tests.web.test_table_usable import DESKTOP, PHONE, play_until, poll

AXE = (Path(__file__).parent / "vendor" / "axe.min.js").read_text(encoding="utf-8")

RUN = """async () => (await axe.run(document)).violations.flatMap((v) => v.nodes.map((n) => ({
  rule: v.id, target: n.target.join(' '), html: n.html.slice(0, 160), summary: n.failureSummary})))"""


def violations(page: Any) -> list[dict[str, str]]:
    page.add_script_tag(content=AXE)
    found: list[dict[str, str]] = page.evaluate(RUN)
    return found


def open_page(browser: Any, server: ServerProcess, path: str, kept: tuple[str, dict[str, Any]] | None = None,
              viewport: dict[str, int] = DESKTOP, lang: str = "en") -> tuple[Any, Any]:
    context = browser.new_context(viewport=viewport, bypass_csp=True)  # to inject axe; the page keeps its own CSP
    page = context.new_page()
    page.goto(server.url + "/")
    page.evaluate("([lang, kept]) => { localStorage.setItem('stammtisch.lang', lang); if (kept)"
                  " localStorage.setItem('stammtisch.seats', JSON.stringify({[kept[0]]: kept[1]})); }", [lang, kept])
    page.goto(server.url + path)
    wait_rendered(page)
    return context, page


def test_the_lobby_has_no_axe_violations(server: ServerProcess, browser: Any) -> None:
    for viewport, lang in ((DESKTOP, "en"), (PHONE, "de")):
        context = browser.new_context(viewport=viewport, bypass_csp=True)
        page = context.new_page()
        page.goto(server.url + "/")
        page.evaluate("(lang) => localStorage.setItem('stammtisch.lang', lang)", lang)
        page.reload()
        poll(page, "(lang) => document.documentElement.lang === lang && !!document.querySelector('form button')", lang)
        assert violations(page) == [], (viewport, lang)
        context.close()


def check_stages(server: ServerProcess, browser: Any, api: Api, table_id: str, tokens: dict[int, str],
                 stages: list[tuple[str, Any]], rng: random.Random, drawn: str) -> None:
    """Play to each stage in turn and check the page there, at desktop and phone width."""
    for name, reached in stages:
        play_until(api, table_id, tokens, reached, rng, limit=20_000)
        for viewport in (DESKTOP, PHONE):
            context, page = open_page(browser, server, f"/play/{table_id}", (table_id, {"token": tokens[0], "seat": 0}),
                                      viewport)
            poll(page, f"() => !!document.querySelector('{drawn}')")
            assert violations(page) == [], (name, viewport)
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
