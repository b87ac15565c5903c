"""The lobby in Chromium (issue 25): a form that keeps every choice, a table meant for a friend that waits for
the friend, a lobby that fits a phone in every language, the open tables' bot names in the page's language,
the texts sent compressed and revalidated, and what a first visit needs (a card per game, the bot levels in
order of strength, the elections explained, *Create* above the fold).  axe-core runs at every state visited."""

from __future__ import annotations

import re
from typing import Any

from stammtisch import i18n
from tests.server.helpers import Api, ServerProcess
from tests.web.browser import LANGUAGES, assert_accessible, watch_errors
from tests.web.test_table_usable import DESKTOP, PHONE, poll

WAIT_MS = 30_000


def lobby(browser: Any, server: ServerProcess, lang: str = "en", viewport: dict[str, int] = DESKTOP
          ) -> tuple[Any, list[str]]:
    """A fresh browser whose lobby speaks ``lang``, drawn."""
    page = browser.new_context(viewport=viewport, locale="en-US").new_page()
    errors: list[str] = []
    watch_errors(page, errors)
    page.goto(server.url + "/")
    page.evaluate("(lang) => localStorage.setItem('stammtisch.lang', lang)", lang)
    page.reload()
    poll(page, "(lang) => document.documentElement.lang === lang && !!document.querySelector('form button')", lang)
    return page, errors


def choices(page: Any) -> dict[str, Any]:
    """Every field of the new-table form by its id: a value, or whether a box is ticked."""
    found: dict[str, Any] = page.evaluate("""() => Object.fromEntries([...document.querySelector('form.create')
      .elements].filter((f) => f.id).map((f) => [f.id, f.type === 'checkbox' || f.type === 'radio' ? f.checked
      : f.value]))""")
    return found


def focused(page: Any) -> str:
    found: str = page.evaluate("() => document.activeElement.id || document.activeElement.tagName")
    return found


def change_by_keyboard(page: Any, field: str, key: str = "ArrowDown") -> None:
    """Focus a field and change it with a key, as a keyboard user does; the form redraws."""
    page.focus(f"#{field}")
    before = page.evaluate("(id) => document.getElementById(id).value", field)
    page.keyboard.press(key)
    poll(page, "([id, before]) => document.getElementById(id).value !== before", [field, before])


def test_the_lobby_keeps_every_choice_and_the_focus(server: ServerProcess, browser: Any) -> None:
    """issue 25 defect 1: changing Pace, Players or Game kept no seat, option or Elections (invite → bot,
    7 → 4, open money → off) and dropped the keyboard focus to <body>; a table meant for an invited friend
    was then created with bots and started at once."""
    page, errors = lobby(browser, server)
    page.get_by_label("Your name", exact=True).fill("Anna")
    page.select_option("#seat-1", "invite")
    page.select_option("#seat-2", "bot:hard")
    page.select_option("#opt-elections", "7")
    page.check("#opt-open_money")
    page.select_option("#pace", "realtime")
    page.fill("#pace-base", "45")
    page.select_option("#pace", "turn:86400")  # the real-time fields go; the rest stays
    chosen = {"seat-1": "invite", "seat-2": "bot:hard", "opt-elections": "7", "opt-open_money": True,
              "pace": "turn:86400"}
    assert chosen.items() <= choices(page).items()

    change_by_keyboard(page, "players")  # 3 → 4 players, by keyboard
    assert focused(page) == "players"
    assert {**chosen, "players": "4", "seat-3": "bot:heuristic"}.items() <= choices(page).items()
    change_by_keyboard(page, "pace", "ArrowUp")  # 24 → 12 hours per move
    assert focused(page) == "pace"
    chosen["pace"] = "turn:43200"
    assert chosen.items() <= choices(page).items()

    page.focus("#game-diemacher")
    page.keyboard.press("ArrowRight")  # the other game, by keyboard: its own options, the same seats and pace
    poll(page, "() => document.getElementById('game-glueckauf').checked")
    assert focused(page) == "game-glueckauf"
    other = choices(page)
    assert "opt-elections" not in other and other["seat-1"] == "invite" and other["seat-2"] == "bot:hard"
    assert other["pace"] == "turn:43200" and other["players"] == "4"
    page.keyboard.press("ArrowLeft")  # and back: Die Macher's options as they were chosen
    poll(page, "() => document.getElementById('game-diemacher').checked")
    assert focused(page) == "game-diemacher"
    assert {**chosen, "players": "4"}.items() <= choices(page).items()
    page.select_option("#players", "3")
    assert_accessible(page, "lobby with choices made")

    page.get_by_role("button", name="Create the table").click()
    page.wait_for_url(re.compile(r"/play/"), timeout=WAIT_MS)
    page.get_by_role("button", name="Start the game").wait_for(timeout=WAIT_MS)  # the waiting room, not the game
    table_id = page.url.rsplit("/", 1)[1]
    table = Api(server.url).ok("GET", f"/api/tables/{table_id}")
    assert table["status"] == "open"
    assert [(s["kind"], s.get("bot")) for s in table["seats"]] == [("human", None), ("invited", None), ("bot", "hard")]
    assert table["options"]["elections"] == 7 and table["options"]["open_money"] is True
    assert table["pace"]["mode"] == "turn" and table["pace"]["per_move"] == 43200
    page.get_by_role("button", name="Start the game").click()  # the host is asked first: the friend is not here
    page.get_by_role("button", name="Wait for them").click()
    assert Api(server.url).ok("GET", f"/api/tables/{table_id}")["status"] == "open"
    assert not errors, errors


def test_the_lobby_fits_a_phone_in_every_language(server: ServerProcess, browser: Any) -> None:
    """issue 25 defect 5: the English lobby was 405 px wide on a 390 px phone (German 433, Polish 456)."""
    for lang in LANGUAGES:
        page, errors = lobby(browser, server, lang, PHONE)
        page.select_option("#pace", "realtime")  # the longest fields too
        width = page.evaluate("() => document.documentElement.scrollWidth")
        assert width <= PHONE["width"], (lang, width)
        assert_accessible(page, f"lobby on a phone ({lang})")
        assert not errors, errors
        page.context.close()


def test_the_open_tables_name_default_bots_in_the_pages_language(server: ServerProcess, browser: Any) -> None:
    """issue 25 defect 5: the open-tables list kept bot names in English ("Bot 2 (heuristic)")."""
    api = Api(server.url)
    table_id, host = api.create("glueckauf", 3)
    api.bot(table_id, host, 1, "heuristic")
    api.join(table_id, 0)  # "Player 1": a default name too
    with i18n.using_language("de"):
        bot, player = i18n._("Bot {number} (heuristic)").format(number=2), i18n._("Player {number}").format(number=1)
    assert bot != "Bot 2 (heuristic)"
    page, errors = lobby(browser, server, "de")
    item = page.locator("#open li", has=page.locator(f"a[href='/play/{table_id}']"))
    item.wait_for(timeout=WAIT_MS)
    assert f"{player}, {bot}" in item.inner_text()
    assert_accessible(page, "lobby with an open table (de)")
    assert not errors, errors


def test_the_lists_drawn_again_keep_the_keyboard_focus(server: ServerProcess, browser: Any) -> None:
    """issue 25 defect 1, "focus falls to <body>": the lobby's lists are drawn again every 5 seconds, and the
    link a keyboard user was on went with them."""
    api = Api(server.url)
    table_id, _host = api.create("glueckauf", 2)
    page, errors = lobby(browser, server)
    link = page.locator(f"#open a[href='/play/{table_id}']")
    link.wait_for(timeout=WAIT_MS)
    link.focus()
    page.evaluate("() => { window.focusedBefore = document.activeElement; }")
    poll(page, "() => !window.focusedBefore.isConnected")  # the list was drawn again
    assert page.evaluate("() => document.activeElement.getAttribute('href')") == f"/play/{table_id}"
    assert not errors, errors


TEXTS_FETCHED = """() => performance.getEntriesByType('resource').filter((e) => e.name.includes('/api/i18n/'))
  .map((e) => ({sent: e.transferSize, body: e.encodedBodySize, texts: e.decodedBodySize}))"""


def test_the_texts_come_compressed_and_then_from_the_browsers_copy(server: ServerProcess, browser: Any) -> None:
    """issue 25 defect 5: /api/i18n/{lang} (34–37 KB) went uncompressed, with no ETag, on every load."""
    page = browser.new_context(viewport=DESKTOP).new_page()
    page.goto(server.url + "/")
    page.wait_for_selector("form button")
    [first] = page.evaluate(TEXTS_FETCHED)
    assert first["texts"] > 30_000 and first["body"] < first["texts"] / 2, first  # gzipped
    page.reload()
    page.wait_for_selector("form button")
    [again] = page.evaluate(TEXTS_FETCHED)
    assert again["texts"] == first["texts"] and again["sent"] < 1_000, again  # revalidated: 304, headers only
    page.context.close()


def check_first_visit(page: Any, games: dict[str, Any], lang: str) -> None:
    """The game cards, the bot levels and the elections' hint as /api/games gives them in ``lang``."""
    cards = page.locator(".game-card")
    assert cards.count() == len(games)
    for card, (name, game) in zip(cards.all(), games.items(), strict=True):
        about = game["about"]
        with i18n.using_language(lang):
            complexity = i18n._("Complexity: {value} of 5").format(value=about["complexity"])
        players = f"{game['min_players']}–{game['max_players']}"
        for fact in (game["title"], about["summary"], about["length"], complexity, players):
            assert fact in card.inner_text(), (name, fact)
        link = card.get_by_role("link")
        assert link.get_attribute("href") == f"/rules/{name}?lang={lang}" and link.get_attribute("target") == "_blank"
    with i18n.using_language(lang):
        levels = [i18n._(kind) for kind in ("random bot", "easy bot", "heuristic bot", "normal bot", "hard bot")]
    assert page.locator(".bot-levels dt").all_inner_texts() == levels  # weakest first, each with its line
    assert all(line.strip() for line in page.locator(".bot-levels dd").all_inner_texts())
    assert page.locator("#seat-1 optgroup").first.locator("option").all_inner_texts() == levels
    hint = page.locator("#opt-elections").get_attribute("aria-describedby")
    elections = next(o for o in games["diemacher"]["schema"] if o["name"] == "elections")
    assert page.locator(f"#{hint}").inner_text() == elections["hint"]


def test_a_first_visit_finds_the_games_the_bots_and_the_create_button(server: ServerProcess, browser: Any) -> None:
    """issue 25 "A first-visit lobby": a card per game (players, length, complexity, a rules link), the bot
    levels named and ordered by strength with a line each, Elections 4/7 explained, Create above the fold."""
    for lang in LANGUAGES:
        page, errors = lobby(browser, server, lang)
        button = page.locator("button[type=submit]").bounding_box()
        assert button["y"] + button["height"] <= DESKTOP["height"], lang  # above the fold at 1280×800
        check_first_visit(page, Api(server.url).ok("GET", "/api/games", params={"lang": lang}), lang)
        if lang == "it":  # the rules, in the page's language, in a tab of their own
            with page.context.expect_page() as opened:
                page.locator(".game-card").first.get_by_role("link").click()
            opened.value.wait_for_load_state()
            assert opened.value.evaluate("() => document.documentElement.lang") == "it"
            opened.value.close()
        assert_accessible(page, f"lobby ({lang})")
        assert not errors, errors
        page.context.close()
