"""The table page as a newcomer meets it (issue #14 "Defects to fix"): every control reachable at
desktop and phone size, choice buttons in the page's language, the whole log numbered, no raw codes,
a confirm step before starting with empty human seats.

Tables are set up and played forward through the HTTP API (``tests.server.helpers.Api``); the page
under test is Debian's Chromium (``tests.web.browser``) holding one seat's token.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from stammtisch import i18n
from tests.server.helpers import Api, ServerProcess
from tests.web.browser import wait_rendered, watch_errors

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
WAIT_MS = 30_000

# Every control that can be reached: each is scrolled into view (by whatever container holds it) and
# must then lie inside the viewport, not covered by anything else.
UNREACHABLE = """() => {
  const controls = document.querySelectorAll(
    'button, select, input, textarea, a[href], summary, [tabindex]:not([tabindex="-1"])');
  const out = [];
  for (const c of controls) {
    if (c.classList.contains('skip-link') || !c.getClientRects().length) continue;
    if (c.closest('details:not([open])') && c.tagName !== 'SUMMARY') continue;
    c.scrollIntoView({block: 'nearest', inline: 'nearest'});
    const r = c.getBoundingClientRect();
    const x = Math.min(Math.max(r.left + r.width / 2, 0), innerWidth - 1);
    const y = Math.min(Math.max(r.top + Math.min(r.height / 2, 10), 0), innerHeight - 1);
    // a control taller than what is left below a panel kept at the top (scroll-padding) shows its top part
    const padding = parseFloat(getComputedStyle(document.documentElement).scrollPaddingTop) || 0;  // ('auto': none)
    const tall = r.height > innerHeight - padding;
    const inside = r.top >= -1 && (r.bottom <= innerHeight + 1 || (tall && r.top < innerHeight / 2))
      && r.left >= -1 && r.right <= innerWidth + 1;
    const hit = document.elementFromPoint(x, y);
    if (!inside || !hit || !(c === hit || c.contains(hit) || hit.contains(c) || c.labels?.[0]?.contains(hit))) {
      out.push(`${c.tagName} "${(c.textContent || c.getAttribute('aria-label') || '').trim().slice(0, 40)}"` +
               ` at ${Math.round(r.left)},${Math.round(r.top)}`);
    }
  }
  return out;
}"""


def poll(page: Any, predicate: str, arg: Any = None) -> None:
    """Wait until ``predicate(arg)`` holds in the page (the page's CSP forbids wait_for_function's eval)."""
    deadline = time.monotonic() + WAIT_MS / 1000
    while not page.evaluate(predicate, arg):
        if time.monotonic() > deadline:
            raise TimeoutError(f"the page never satisfied {predicate}")
        time.sleep(0.05)


def open_seat(browser: Any, server: ServerProcess, table_id: str, token: str | None, seat: int | None,
              viewport: dict[str, int] = DESKTOP, lang: str = "en", host: str | None = None,
              prepare: Callable[[Any], None] | None = None) -> tuple[Any, Any, list[str]]:
    """A fresh browser context whose page holds this seat's token (as after joining; the host's token
    too if given) and shows the table; ``prepare(page)`` first (routes, say)."""
    context = browser.new_context(viewport=viewport, locale="en-US")
    page = context.new_page()
    if prepare:
        prepare(page)
    errors: list[str] = []
    watch_errors(page, errors)
    page.goto(server.url + "/")
    page.evaluate("([id, kept, lang]) => { localStorage.setItem('stammtisch.lang', lang);"
                  " localStorage.setItem('stammtisch.seats', JSON.stringify({[id]: kept})); }",
                  [table_id, {"token": token, "seat": seat, "host": host}, lang])
    page.goto(f"{server.url}/play/{table_id}")
    wait_rendered(page)
    return context, page, errors


def play_until(api: Api, table_id: str, tokens: dict[int, str], done: Any, rng: random.Random,
               limit: int = 3000, prefer: frozenset[str] = frozenset()) -> dict[str, Any]:
    """Random moves for the human seats through the API until ``done(view of seat 0)``; actions of the
    kinds in ``prefer`` are taken whenever offered."""
    for _ in range(limit):
        mine = api.view(table_id, tokens[0])
        if done(mine):
            return mine
        for seat, token in tokens.items():
            state = mine if seat == 0 else api.view(table_id, token)
            if state["legal"]:
                wanted = [a for a in state["legal"] if a[0] in prefer] or state["legal"]
                api.act(table_id, token, rng.choice(wanted), state["move_no"])
                break
        else:
            time.sleep(0.02)
    raise AssertionError("the wanted state never came")


def labels_shown(page: Any) -> list[str]:
    found: list[str] = page.evaluate(
        "() => [...document.querySelectorAll('#decision button.choice, #decision option')].map((b) => b.textContent)")
    return found


# ---------------------------------------------------------------- 1: every control reachable


def test_every_control_is_reachable_on_desktop_and_phone(server: ServerProcess, browser: Any) -> None:
    """issue #14 defect 1: in a 2-player Glück Auf placement (17 spaces) after a move that may be taken
    back, "Undo my last move" and every other control can be scrolled to at 1280×800 and 390×844."""
    api = Api(server.url)
    table_id, _host, tokens = api.table("glueckauf", 2, {"start_player": 0})
    rng = random.Random(3)
    state = play_until(api, table_id, tokens, lambda s: s["view"]["phase"] == "place" and bool(s["legal"]), rng)
    # seat 0 places; until it confirms the turn it may take the placement back (the 17 spaces still drawn).
    # (Not the first placement of a shift: the shift's start turns up the order slots, so the
    # draft's last pick before it cannot be taken back.)
    placing = state
    for _ in range(20):
        if placing["undo_allowed"] and placing["legal"] and placing["view"]["phase"] in ("place", "confirm"):
            break
        token = tokens[0] if placing["legal"] else tokens[1]
        other = placing if placing["legal"] else api.view(table_id, token)
        api.act(table_id, token, rng.choice(other["legal"]), other["move_no"])
        placing = api.view(table_id, tokens[0])
    assert placing["undo_allowed"] and placing["legal"], placing["legal"]
    for viewport in (DESKTOP, PHONE):
        context, page, errors = open_seat(browser, server, table_id, tokens[0], 0, viewport)
        poll(page, "() => document.body.dataset.mine === '1'")
        assert page.get_by_role("button", name="Undo my last move").count() == 1
        assert page.evaluate(UNREACHABLE) == [], viewport
        assert not errors, errors
        context.close()


# ---------------------------------------------------------------- 2: a language switch relabels the choices


def expected_labels(table_id: str, api: Api, token: str, lang: str, game: str) -> list[str]:
    from stammtisch.server.web import describer, label

    state = api.view(table_id, token)
    names = [s["name"] for s in api.ok("GET", f"/api/tables/{table_id}")["seats"]]
    with i18n.using_language(lang):
        return [label(describer(game), a, state["view"], names) for a in state["legal"]]


def test_a_language_switch_relabels_the_choice_buttons(server: ServerProcess, browser: Any) -> None:
    """issue #14 defect 2: after switching the language (twice in a row, as a reader trying languages
    does) the decision panel's buttons speak the page's new language, without a move or a reload."""
    api = Api(server.url)
    table_id, _host, tokens = api.table("diemacher", 3)
    play_until(api, table_id, tokens, lambda s: len(s["legal"]) > 1, random.Random(5))
    context, page, errors = open_seat(browser, server, table_id, tokens[0], 0)
    poll(page, "() => document.body.dataset.mine === '1'")
    assert sorted(labels_shown(page)) == sorted(expected_labels(table_id, api, tokens[0], "en", "diemacher"))
    for first, then in (("it", "ko"), ("pl", "de")):
        page.select_option("#language", first)
        page.select_option("#language", then)
        poll(page, "(lang) => document.body.dataset.lang === lang && document.documentElement.lang === lang", then)
        wanted = sorted(expected_labels(table_id, api, tokens[0], then, "diemacher"))
        assert wanted != sorted(expected_labels(table_id, api, tokens[0], "en", "diemacher"))
        try:
            poll(page, "(wanted) => JSON.stringify([...document.querySelectorAll("
                       "'#decision button.choice, #decision option')].map((b) => b.textContent).sort())"
                       " === JSON.stringify(wanted)", wanted)
        except TimeoutError:
            assert sorted(labels_shown(page)) == wanted, then
    assert not [e for e in errors if "WebSocket" not in e], errors
    context.close()


# ---------------------------------------------------------------- 4: the whole log, numbered


def history_sentences(server: ServerProcess, table_id: str, token: str) -> list[str]:
    """What the server sends a page of this seat that asks for the whole history (English), less the
    "has decided" steps of sealed decisions, which the players list shows instead (issue 25 defect 4)."""
    from tests.server.helpers import Ws

    with Ws(f"{server.url.replace('http://', 'ws://')}/ws/play/{table_id}?lang=en&since=-1") as ws:
        ws.auth(token)
        message = ws.until(lambda m: m["type"] == "state" and m.get("history"))
    return [sentence for sentence, event in zip(message["sentences"], message["log_events"], strict=True)
            if event["kind"] != "sealed_committed"]


# The action kinds that use a politician's action in a state (and so lock it there for the round).
POLITICIAN_ACTIONS_PLAYED = frozenset({"double", "double_remove", "buyout", "others_trend", "trend", "votes", "base",
                                       "program", "free_poll"})

LOG_NUMBERS = """() => {
  const list = document.querySelector('#log-panel ol');
  const box = list.getBoundingClientRect();
  return [...list.querySelectorAll('li')].map((li, i) => {
    li.scrollIntoView({block: 'nearest'});
    const number = li.querySelector('.log-no');
    const r = number ? number.getBoundingClientRect() : null;
    return {n: i + 1, shown: number ? number.textContent : null, text: li.querySelector('.log-text')?.textContent,
            inside: !!r && r.left >= list.getBoundingClientRect().left - 0.5 && r.width > 0 && box.width > 0};
  });
}"""


def test_the_log_numbers_every_entry_and_comes_back_whole_after_a_reload(server: ServerProcess,
                                                                          browser: Any) -> None:
    """issue #14 defect 4: entry 100 and later show their whole number ("124.", not "24."), and after a
    reload the log holds every sentence of the game so far, as before it."""
    api = Api(server.url)
    table_id, _host, tokens = api.table("diemacher", 3)
    rng = random.Random(11)
    context, page, errors = open_seat(browser, server, table_id, tokens[0], 0)
    play_until(api, table_id, tokens, lambda s: s["move_no"] >= 130, rng)
    wanted = history_sentences(server, table_id, tokens[0])
    assert len(wanted) >= 100
    poll(page, "(n) => document.querySelectorAll('#log-panel li').length >= n", len(wanted))
    for reloaded in (False, True):
        if reloaded:
            page.reload()
            wait_rendered(page)
            poll(page, "(n) => document.querySelectorAll('#log-panel li').length >= n", len(wanted))
        entries = page.evaluate(LOG_NUMBERS)
        assert [e["text"] for e in entries][:len(wanted)] == wanted
        assert [e["shown"] for e in entries] == [f"{e['n']}." for e in entries]
        assert all(e["inside"] for e in entries), [e["n"] for e in entries if not e["inside"]][:5]
    assert not [e for e in errors if "WebSocket" not in e], errors
    context.close()


# ---------------------------------------------------------------- 7: no raw codes, default names translated


def test_no_codes_and_default_names_in_the_readers_language(server: ServerProcess, browser: Any) -> None:
    """issue #14 defect 7: politician actions used in a state are named ("trend +3", not "TREND+3"),
    poll cards name parties as the table does (no GRUENE/LINKE ids), and the server's default seat
    names ("Player 2", "Bot 3 (heuristic)") are shown in the page's language."""
    from stammtisch.games.diemacher.data import PARTY_IDS, POLITICIAN_ACTIONS

    api = Api(server.url)
    rng = random.Random(2)
    table_id, tokens = "", {}
    # A random game may end without a used action at a moment the page can show (the bot may end the
    # round before the page opens): play on, or a new game, and look again.
    for _attempt in range(12):
        if not table_id:
            table_id, host = api.create("diemacher", 3)
            tokens = {0: api.join(table_id, 0, "Anna"), 1: api.join(table_id, 1)}  # no name: the server's default
            api.bot(table_id, host, 2, "heuristic")
            api.start(table_id, host)
        state = play_until(api, table_id, tokens, lambda s: s["status"] == "finished" or any(
            b["locked_actions"] for b in s["view"]["board"]["boards"]), rng, prefer=POLITICIAN_ACTIONS_PLAYED)
        if state["status"] == "finished":
            table_id = ""
            continue
        context, page, errors = open_seat(browser, server, table_id, tokens[0], 0, lang="de")
        poll(page, "() => document.body.dataset.lang === 'de' && !!document.querySelector('.dm-state')")
        seats = page.locator("#seats").inner_text()
        board = page.locator("#board").inner_text()
        used_line = page.locator(".dm-state p.small").all_inner_texts()
        if api.view(table_id, tokens[0])["move_no"] == state["move_no"]:
            break
        context.close()
    else:
        raise AssertionError("the page never showed a state with used politician actions")
    used = {a for b in state["view"]["board"]["boards"] for a in b["locked_actions"]}
    with i18n.using_language("de"):
        assert i18n._("Player {number}").format(number=2) in seats
        assert i18n._("Bot {number} (heuristic)").format(number=3) in seats
    assert "Player 2" not in seats and "(heuristic)" not in seats
    codes = [c for c in POLITICIAN_ACTIONS | {p for p in PARTY_IDS if p not in ("CDU", "SPD", "FDP")} if c in board]
    assert not codes, codes
    assert len(used_line) >= 1 and all(u not in " ".join(used_line) for u in used)
    assert not [e for e in errors if "WebSocket" not in e], errors
    context.close()


def test_log_sentences_name_default_seats_in_the_readers_language(server: ServerProcess, browser: Any) -> None:
    """issue #14 (session 3's leftover): the log's sentences name the server's default seats ("Bot 2
    (heuristic)") in the page's language, in the history after a reload and in live updates (Glück Auf's
    sentences name seats; Die Macher's name parties)."""
    api = Api(server.url)
    table_id, _host, tokens = api.table("glueckauf", 2, {"start_player": 0}, bots={1: "heuristic"})
    with i18n.using_language("de"):
        bot = i18n._("Bot {number} (heuristic)").format(number=2)
    assert bot != "Bot 2 (heuristic)"
    context, page, errors = open_seat(browser, server, table_id, tokens[0], 0, lang="de")
    poll(page, "(bot) => document.querySelector('.log-list')?.textContent.includes(bot)", bot)  # the history
    shown = page.locator(".log-list li").count()
    play_until(api, table_id, tokens, lambda s: s["move_no"] >= 30, random.Random(5))
    poll(page, "([bot, shown]) => [...document.querySelectorAll('.log-list li')].slice(shown)"
               ".some((li) => li.textContent.includes(bot))", [bot, shown])  # live
    assert "(heuristic)" not in page.locator(".log-list").inner_text()
    assert not [e for e in errors if "WebSocket" not in e], errors
    context.close()


# ---------------------------------------------------------------- 8: asked before starting with empty seats


def test_the_host_is_asked_before_starting_with_invited_seats_empty(server: ServerProcess, browser: Any) -> None:
    """issue #14 defect 8: "Start the game" with an invited friend not yet joined first asks; "Wait for
    them" keeps the table open, "Start anyway" starts it."""
    api = Api(server.url)
    table_id, host = api.create("glueckauf", 2)
    token = api.join(table_id, 0, "Host")
    api.ok("POST", f"/api/tables/{table_id}/invites", host, json={"seats": [1]})
    context, page, errors = open_seat(browser, server, table_id, token, 0, host=host)
    start = page.get_by_role("button", name="Start the game", exact=True)
    start.click()
    page.get_by_role("button", name="Wait for them").click()
    assert api.ok("GET", f"/api/tables/{table_id}")["status"] == "open"
    start.click()
    assert "Seat 2" in page.locator(".confirm-start").inner_text()
    assert api.ok("GET", f"/api/tables/{table_id}")["status"] == "open"
    page.get_by_role("button", name="Start anyway").click()
    poll(page, "() => document.body.dataset.status === 'running'")
    assert api.ok("GET", f"/api/tables/{table_id}")["status"] == "running"
    assert not [e for e in errors if "WebSocket" not in e], errors
    context.close()


# ---------------------------------------------------------------- 3: Die Macher's questions say what they ask


def test_die_macher_questions_show_what_they_ask_about(server: ServerProcess, browser: Any) -> None:
    """issue #14 defect 3: the start block question lists each block's symbols (die-macher.md §3.J), the
    start position question names the symbol being placed, the rally question the rallies' prices, and
    the columns (Match, Trend, Base, Supply, …) are explained."""
    from stammtisch.games.diemacher.text import SYMBOLS
    from stammtisch.registry import make_game

    game = make_game("diemacher", 3)
    blocks, costs = game.edition.start_blocks, game.edition.rally_costs
    api = Api(server.url)
    table_id, _host, tokens = api.table("diemacher", 3)
    rng = random.Random(4)
    play_until(api, table_id, tokens, lambda s: any(a[0] == "start_block" for a in s["legal"]), rng)
    context, page, errors = open_seat(browser, server, table_id, tokens[0], 0)
    poll(page, "() => document.body.dataset.mine === '1'")
    listed = page.locator("#decision .start-blocks li").all_inner_texts()
    assert listed == [f"Start block {i}: {', '.join(SYMBOLS[s] for s in block)}" for i, block in enumerate(blocks, 1)]
    page.locator("#decision").get_by_role("button", name="Start block 2", exact=True).click()
    poll(page, "() => !!document.querySelector('#decision .placing')")
    assert page.locator("#decision .placing").inner_text() == f"Choose the state for: {SYMBOLS[blocks[1][0]]}"
    for heading in ("Votes", "Trend", "Rallies", "Media", "Match", "Base", "Supply"):
        heads = page.locator("#board th[scope=col]", has_text=heading)
        # each heading's rules help (a tooltip on hover, focus and tap: test_rules_help.py)
        titles = heads.evaluate_all("(ths) => ths.map((th) => th.querySelector('abbr')?.dataset.help || '')")
        assert titles and all(t.startswith(f"{heading}: ") for t in titles), (heading, titles)
    page.get_by_text("What the columns mean").click()
    assert page.locator(".dm-legend li").count() == 7
    context.close()
    play_until(api, table_id, tokens, lambda s: any(a[0] == "rallies" for a in s["legal"]), rng)
    context, page, errors2 = open_seat(browser, server, table_id, tokens[0], 0)
    poll(page, "() => document.body.dataset.mine === '1'")
    prices = page.locator("#decision .rally-prices").inner_text()
    assert prices == "Rallies cost in all: " + ", ".join(f"{n} → €{cost:,}" for n, cost in enumerate(costs, 1))
    assert not [e for e in errors + errors2 if "WebSocket" not in e]
    context.close()


# ---------------------------------------------------------------- 5 and 6: widths in German and on a phone

OVERFLOWS = """() => {
  const out = [];
  const right = (node) => node.getBoundingClientRect().right;
  for (const state of document.querySelectorAll('.dm-state')) {
    const table = state.querySelector('table.dm-parties-in-state');
    const inner = right(state) - parseFloat(getComputedStyle(state).paddingRight) - 2;
    if (right(table) > inner + 0.5) out.push(`${state.querySelector('h2').textContent}: ${right(table)} > ${inner}`);
  }
  for (const name of document.querySelectorAll('.dm-phases li .name')) {
    if (getComputedStyle(name).display !== 'none' && name.scrollWidth > name.clientWidth + 0.5) {
      out.push(`phase name cut: ${name.textContent}`);
    }
  }
  if (document.documentElement.scrollWidth > innerWidth) out.push(`page ${document.documentElement.scrollWidth} wide`);
  return out;
}"""


def test_die_macher_fits_in_german_italian_and_on_a_phone(server: ServerProcess, browser: Any) -> None:
    """issue #14 defects 5 and 6: in German and Italian the state tables fit their boards and no phase
    name is cut; on a phone (390×844) the final table shows its Total column without the page
    scrolling sideways, and the party rows stay compact."""
    api = Api(server.url)
    table_id, _host, tokens = api.table("diemacher", 3, bots={1: "random", 2: "random"})
    rng = random.Random(8)
    play_until(api, table_id, tokens, lambda s: s["view"]["board"]["round"] >= 1 and bool(s["legal"]), rng)
    for lang in ("de", "it", "en", "pl"):  # issue 17: the rulebooks' longer phase names (9b) must fit too
        context, page, _errors = open_seat(browser, server, table_id, tokens[0], 0, lang=lang)
        poll(page, "(lang) => document.body.dataset.lang === lang && !!document.querySelector('.dm-state')", lang)
        assert page.evaluate(OVERFLOWS) == [], lang
        assert page.evaluate(UNREACHABLE) == [], lang  # defect 1 on Die Macher's page too
        context.close()
    context, page, _errors = open_seat(browser, server, table_id, tokens[0], 0, viewport=PHONE, lang="de")
    poll(page, "() => !!document.querySelector('.dm-party-table')")
    assert page.evaluate(OVERFLOWS) == []
    heights = page.locator(".dm-party-table tbody tr").evaluate_all("(rows) => rows.map((r) => r.offsetHeight)")
    assert heights and max(heights) <= 120, heights
    context.close()
    play_until(api, table_id, tokens, lambda s: s["status"] == "finished", rng, limit=20_000)
    context, page, _errors = open_seat(browser, server, table_id, tokens[0], 0, viewport=PHONE, lang="de")
    poll(page, "() => !!document.querySelector('.dm-final table')")
    wide = page.evaluate("() => [...document.querySelectorAll('body *')].filter((n) => n.getBoundingClientRect().right"
                         " > innerWidth + 0.5).slice(0, 8).map((n) => n.tagName + '.' + n.className + ' '"
                         " + Math.round(n.getBoundingClientRect().right))")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"], wide
    total = page.locator(".dm-final thead th").last.bounding_box()
    assert total is not None and total["x"] + total["width"] <= PHONE["width"]
    heights = page.locator(".dm-party-table tbody tr").evaluate_all("(rows) => rows.map((r) => r.offsetHeight)")
    assert heights and max(heights) <= 120, heights
    assert page.evaluate(UNREACHABLE) == []
    context.close()


# Places where a line breaks inside the state tables' headings and party names, other than between
# words or after a slash: each character's line (its rectangle's top) is compared with the previous one.
BAD_BREAKS = """() => {
  const out = [];
  const cells = document.querySelectorAll('.dm-parties-in-state thead th, .dm-parties-in-state .party-tag');
  for (const cell of cells) {
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    let previous = null;
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (let i = 0; i < node.length; i++) {
        const range = document.createRange();
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        const rect = range.getClientRects()[0];
        const ch = node.data[i];
        if (rect && rect.width && !/\\s/.test(ch)) {  // a space at a line's end has no width
          if (previous && rect.top > previous.top + 2 && !/[\\s/]/.test(previous.ch)) {
            out.push(`${cell.textContent}: breaks before "${node.data.slice(i)}"`);
          }
          previous = { top: rect.top, ch };
        } else if (previous) previous.ch = ch;
      }
    }
  }
  return out;
}"""


def test_die_macher_state_tables_break_only_between_words(server: ServerProcess, browser: Any) -> None:
    """issue #14 (session 3's screenshots): the state tables' headings and party names never break
    inside a word ("Stimme/n", "CDU/CS/U"), in all five languages at desktop and phone width; a
    heading that a language abbreviates carries its full meaning as its rules help."""
    api = Api(server.url)
    table_id, _host, tokens = api.table("diemacher", 5, bots={s: "heuristic" for s in range(1, 5)})
    play_until(api, table_id, tokens, lambda s: s["view"]["board"]["round"] >= 1 and bool(s["legal"]), random.Random(3))
    for viewport in (DESKTOP, PHONE):
        context, page, _errors = open_seat(browser, server, table_id, tokens[0], 0, viewport=viewport)
        for lang in ("en", "de", "pl", "it", "ko"):
            page.evaluate("(lang) => localStorage.setItem('stammtisch.lang', lang)", lang)
            page.reload()
            poll(page, "(lang) => document.body.dataset.lang === lang && !!document.querySelector('.dm-state')", lang)
            assert page.evaluate(BAD_BREAKS) == [], (lang, viewport)
            assert page.evaluate(OVERFLOWS) == [], (lang, viewport)
            titles = page.locator(".dm-state").first.locator("thead abbr").evaluate_all(
                "(abbrs) => abbrs.map((a) => [a.textContent, a.dataset.help])")
            with i18n.using_language(lang):
                rallies = i18n._("Rallies: the party's rallies here, turned into votes before the election.")
            assert [i18n.translation(lang).gettext("Rallies"), rallies] in titles
        context.close()


def test_glueckauf_shows_the_shift_scoring_table_after_a_reload(server: ServerProcess, browser: Any) -> None:
    """issue #14 defect 7: a page drawn anew (reload: a history message, no events) still shows the last
    shift's scoring as the table of counts and VP per category (glueck-auf.md shift scoring), not a list."""
    api = Api(server.url)
    table_id, _host, tokens = api.table("glueckauf", 2, {"start_player": 0}, bots={1: "heuristic"})
    state = play_until(api, table_id, tokens, lambda s: s["view"]["board"]["shift"] >= 2 and bool(s["legal"]),
                       random.Random(9))
    rows = state["view"]["board"]["last_scoring"]
    assert rows and all(r["shift"] == 1 for r in rows)
    context, page, errors = open_seat(browser, server, table_id, tokens[0], 0)
    poll(page, "() => !!document.querySelector('#board .ga-scoring')")
    assert page.locator("#board .ga-scoring li").count() == 0
    shown = page.locator("#board .ga-scoring tbody tr")
    assert shown.count() == len(rows)
    assert [int(n) for n in shown.first.locator(".ga-count").all_inner_texts()] == rows[0]["counts"]
    assert not [e for e in errors if "WebSocket" not in e], errors
    context.close()
