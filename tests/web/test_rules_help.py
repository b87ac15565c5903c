"""Rules help where a player needs it (issue #14, "What BGA players expect"): every piece and column of
both boards explains itself in a tooltip shown on hover, on keyboard focus and on a tap, in the page's
language; each game has a short rules page in five languages, reached from the table.

The help texts and rules pages come from the game folders (``games/<g>/browser.py``,
``games/<g>/rules_page.py``) through gettext: the tests compare with the catalogs.
"""

from __future__ import annotations

import random
from typing import Any

import httpx

from stammtisch import i18n
from stammtisch.registry import games
from tests.server.helpers import Api, ServerProcess
from tests.web.test_accessibility import open_page, violations
from tests.web.test_table_usable import DESKTOP, PHONE, open_seat, play_until, poll

TIP = "() => { const tip = document.getElementById('help-tip'); return tip && !tip.hidden ? tip.textContent : null; }"

# Pieces that must carry their rules help (a board button carries the help of the piece it shows).
DM_PIECES = (".dm-state .card.opinion", ".dm-state .disc", ".dm-parties-in-state abbr", ".dm-party-table abbr",
             ".dm-displays .card.poll", ".media-track .vp", ".politician")
GA_PIECES = (".ga-tile", ".ga-card", ".ga-clock-svg")
WITHOUT_HELP = """(selectors) => selectors.flatMap((s) => [...document.querySelectorAll(s)]
  .filter((n) => !(n.dataset.help || n.closest('button[data-help]'))).map((n) => s))"""


def tip_of(page: Any) -> str | None:
    text: str | None = page.evaluate(TIP)
    return text


def test_die_macher_pieces_explain_themselves_on_hover_focus_and_tap(server: ServerProcess, browser: Any) -> None:
    api = Api(server.url)
    table_id, _host, tokens = api.table("diemacher", 3, bots={1: "heuristic", 2: "heuristic"})
    # a round with politicians on the boards (phase 6 asks the seats to pay)
    play_until(api, table_id, tokens, lambda s: s["status"] == "finished" or (
        bool(s["legal"]) and any(b["politicians"] for b in s["view"]["board"]["boards"])), random.Random(4))
    context, page, errors = open_seat(browser, server, table_id, tokens[0], 0, lang="de")
    poll(page, "() => document.body.dataset.lang === 'de' && !!document.querySelector('.dm-state .card.opinion')")
    assert page.evaluate(WITHOUT_HELP, list(DM_PIECES)) == []
    for selector in DM_PIECES[:-1]:
        assert page.locator(selector).count() > 0, selector  # each kind of piece is on the page
    with i18n.using_language("de"):
        opinion_help = i18n._("Opinion: a topic for (+) or against (−). In a state, each face-up opinion a party's "
                              "program shares adds 1 to its match, an opposite one takes 1 away; a doubled one counts "
                              "twice.")
        media_help = i18n._("Free media space: a party may buy a media marker here for €5,000 in phase 3.")
    # hover
    card = page.locator(".dm-state .card.opinion:not(.back)").first
    card.hover()
    poll(page, f"() => ({TIP})()?.includes({opinion_help!r})")
    assert card.get_attribute("aria-describedby") == "help-tip"
    # keyboard focus, Escape closes
    page.locator(".dm-state .disc.empty").first.focus()
    poll(page, f"() => ({TIP})()?.includes({media_help!r})")
    page.keyboard.press("Escape")
    assert tip_of(page) is None
    assert not [e for e in errors if "WebSocket" not in e], errors
    context.close()
    # a tap on a phone
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    page = context.new_page()
    page.goto(server.url + "/")
    page.evaluate("([id, kept]) => { localStorage.setItem('stammtisch.lang', 'de');"
                  " localStorage.setItem('stammtisch.seats', JSON.stringify({[id]: kept})); }",
                  [table_id, {"token": tokens[0], "seat": 0}])
    page.goto(f"{server.url}/play/{table_id}")
    poll(page, "() => !!document.querySelector('.dm-state .card.opinion')")
    page.locator(".dm-state .card.opinion:not(.back)").first.tap()
    poll(page, f"() => ({TIP})()?.includes({opinion_help!r})")
    page.locator(".dm-state .card.opinion:not(.back)").first.tap()  # a second tap closes it
    poll(page, f"() => ({TIP})() === null")
    context.close()


def test_glueckauf_pieces_explain_themselves(server: ServerProcess, browser: Any) -> None:
    api = Api(server.url)
    table_id, _host, tokens = api.table("glueckauf", 2, {"start_player": 0}, bots={1: "heuristic"})
    play_until(api, table_id, tokens, lambda s: s["view"]["phase"] == "place" and bool(s["legal"]), random.Random(2))
    context, page = open_page(browser, server, f"/play/{table_id}", (table_id, {"token": tokens[0], "seat": 0}),
                              lang="pl")  # a context that lets axe in
    poll(page, "() => document.body.dataset.lang === 'pl' && !!document.querySelector('#board .ga-tile')")
    assert page.evaluate(WITHOUT_HELP, list(GA_PIECES)) == []
    with i18n.using_language("pl"):
        tile_help = i18n._("Tunnel tile: bought in the factory for 1, 2, 3 or 4 Marks per minecart by colour; it "
                           "extends its level of your pit on its side, each minecart with a coal cube. At the end, "
                           "−2 VP per tile one side has more than the other.")
    tile = page.locator("#board button.ga-act[data-help]").filter(has=page.locator(".ga-tile")).first
    tile.focus()  # a board button shows the help of the tile it buys
    poll(page, f"() => ({TIP})()?.includes({tile_help!r})")
    clock = page.locator("#board .ga-clock-svg")
    clock.scroll_into_view_if_needed()  # a scroll closes the tip: scroll first, as a reader would, then hover
    page.wait_for_timeout(300)
    clock.hover()
    poll(page, "() => !!document.getElementById('help-tip') && !document.getElementById('help-tip').hidden")
    # no piece inside a board button takes focus of its own
    assert page.evaluate("() => document.querySelectorAll('button [tabindex], button [data-help]').length") == 0
    assert violations(page) == []
    context.close()


def test_each_game_has_a_rules_page_in_five_languages_reached_from_the_table(server: ServerProcess,
                                                                              browser: Any) -> None:
    for name, spec in games().items():
        sections = spec.rules_sections()
        assert len(sections) >= 4, name
        for lang in ("en", "de", "pl", "it", "ko"):
            response = httpx.get(f"{server.url}/rules/{name}", params={"lang": lang})
            assert response.status_code == 200 and "content-security-policy" in response.headers
            with i18n.using_language(lang):
                title = i18n._("Rules of {game}").format(game=i18n._(spec.title))
                first = i18n._(sections[0][1][0])
            assert f'<html lang="{lang}">' in response.text
            assert title in response.text and first.replace("'", "&#x27;") in response.text, (name, lang)
    assert httpx.get(f"{server.url}/rules/nosuchgame").status_code == 404
    # from the table: the top bar's link opens the rules in the page's language
    api = Api(server.url)
    table_id, _host, tokens = api.table("glueckauf", 2, bots={1: "heuristic"})
    context, page, _errors = open_seat(browser, server, table_id, tokens[0], 0, viewport=DESKTOP, lang="it")
    with i18n.using_language("it"):
        link_text, title = i18n._("Rules"), i18n._("Rules of {game}").format(game=i18n._(games()["glueckauf"].title))
    with context.expect_page() as opened:
        page.get_by_role("link", name=link_text).click()
    rules = opened.value
    rules.wait_for_load_state()
    assert rules.url.endswith("/rules/glueckauf?lang=it")
    assert rules.get_by_role("heading", level=1).inner_text() == title
    context.close()
    context = browser.new_context(viewport=PHONE, bypass_csp=True)
    page = context.new_page()
    page.goto(f"{server.url}/rules/diemacher?lang=ko")
    assert violations(page) == []
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    context.close()
