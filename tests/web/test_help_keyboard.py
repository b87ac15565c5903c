"""Rules help on Die Macher's politician actions and Glück Auf's shift categories, one Tab stop per group
of help pieces (roving tabindex: the arrow keys move within a group), and every interactive element
reachable at 1280×800 and 390×844 in both games, axe-clean at every state visited (issue #14,
"Rules help where you need it", "Checked how").

Expected texts are the catalogs' (gettext), filled in as the page fills them.
"""

from __future__ import annotations

import random
from typing import Any

from stammtisch import i18n
from stammtisch.registry import make_game
from tests.server.helpers import Api, ServerProcess
from tests.web.test_accessibility import open_page, violations
from tests.web.test_rules_help import TIP
from tests.web.test_table_usable import DESKTOP, PHONE, POLITICIAN_ACTIONS_PLAYED, play_until, poll

# Every interactive element, help pieces behind a roving tabindex (tabindex -1) included: scrolled into
# view by whatever container holds it, it must lie inside the viewport and not be covered.
UNREACHABLE = """() => {
  const controls = document.querySelectorAll(
    'button, select, input, textarea, a[href], summary, [tabindex]:not([tabindex="-1"]), [data-help]');
  const out = [];
  for (const c of controls) {
    if (c.classList.contains('skip-link') || c.id === 'help-tip' || !c.getClientRects().length) continue;
    if (c.closest('details:not([open])') && c.tagName !== 'SUMMARY') continue;
    if (c.closest('button') && c.closest('button') !== c) continue;  // a picture inside a button
    c.scrollIntoView({block: 'nearest', inline: 'nearest'});
    const r = c.getBoundingClientRect();
    const x = Math.min(Math.max(r.left + r.width / 2, 0), innerWidth - 1);
    const y = Math.min(Math.max(r.top + Math.min(r.height / 2, 10), 0), innerHeight - 1);
    const tall = r.height > innerHeight - parseFloat(getComputedStyle(document.documentElement).scrollPaddingTop || 0);
    const inside = r.top >= -1 && (r.bottom <= innerHeight + 1 || (tall && r.top < innerHeight / 2))
      && r.left >= -1 && r.right <= innerWidth + 1;
    const hit = document.elementFromPoint(x, y);
    if (!inside || !hit || !(c === hit || c.contains(hit) || hit.contains(c) || c.labels?.[0]?.contains(hit))) {
      out.push(`${c.tagName} "${(c.textContent || c.getAttribute('aria-label') || '').trim().slice(0, 40)}"` +
               ` at ${Math.round(r.left)},${Math.round(r.top)} ${Math.round(r.width)}x${Math.round(r.height)}`);
    }
  }
  return out;
}"""

# The help pieces focusable for their help only, by group: how many are Tab stops in each group.
STOPS = """() => {
  const groups = new Map();
  for (const p of document.querySelectorAll('#board [data-help][data-help-stop]')) {
    const group = p.parentElement.closest('[data-help-group]') || p.parentElement;
    if (!groups.has(group)) groups.set(group, []);
    groups.get(group).push(p.getAttribute('tabindex'));
  }
  return [...groups.values()];
}"""


CATEGORY = ".ga-clock-svg g[data-help]"


def dm_expected(lang: str) -> dict[str, str]:
    """Die Macher's politicians' help in ``lang``, filled as the page fills it (money, action names)."""
    from stammtisch.games.diemacher.text import POLITICIAN_NAMES

    game = make_game("diemacher", 3)
    with i18n.using_language(lang):
        _ = i18n._
        template = _("{politician}: costs {cost}; main action {main}, then at most one of: {secondary}.")
        return {p.id: template.split("{cost}")[0].format(politician=_(POLITICIAN_NAMES[p.id]))
                for p in game.edition.politicians}


def check_state(page: Any, name: str) -> None:
    assert page.evaluate(UNREACHABLE) == [], name
    groups = page.evaluate(STOPS)
    assert groups, name
    assert all(stops.count("0") == 1 and stops.count("-1") == len(stops) - 1 for stops in groups), (name, groups)
    assert violations(page) == [], name


def test_die_macher_politician_actions_explain_themselves_with_one_tab_stop_per_group(server: ServerProcess,
                                                                                       browser: Any) -> None:
    api = Api(server.url)
    rng = random.Random(8)
    for _attempt in range(6):
        table_id, _host, tokens = api.table("diemacher", 3)
        state = play_until(api, table_id, tokens, lambda s: s["status"] == "finished" or any(
            b["locked_actions"] for b in s["view"]["board"]["boards"]), rng, prefer=POLITICIAN_ACTIONS_PLAYED)
        if state["status"] != "finished":
            break
    else:
        raise AssertionError("no game with a politician action used")
    for viewport in (DESKTOP, PHONE):
        context, page = open_page(browser, server, f"/play/{table_id}", (table_id, {"token": tokens[0], "seat": 0}),
                                  viewport, lang="it")
        poll(page, "() => document.body.dataset.lang === 'it' && !!document.querySelector('.dm-used .dm-action')")
        with i18n.using_language("it"):
            once = i18n._("Marked !: works once per state and round, whoever's politician takes it.")
        actions = page.evaluate("() => [...document.querySelectorAll('.dm-used .dm-action')]"
                                ".map((a) => a.dataset.help)")
        assert actions and all(help_text for help_text in actions)
        assert all(once in help_text for help_text in actions)  # only "!" actions are locked in a state
        own = page.evaluate("() => [...document.querySelectorAll('.dm-own-politicians [data-help]')]"
                            ".map((p) => p.dataset.help)")
        starts = dm_expected("it")
        mine = state["view"]["board"]["seats"][0]["politicians"]
        assert len(own) == len(mine) and all(text.startswith(starts[p]) for text, p in zip(own, mine, strict=True))
        check_state(page, f"diemacher {viewport}")
        if viewport is DESKTOP:
            # the arrow keys move within a group, which is one Tab stop; the tooltip follows the focus
            row = page.locator(".dm-state .opinions").first
            pieces = row.locator("[data-help]")
            assert pieces.count() >= 2  # every state shows its opinions (face up or down)
            pieces.nth(0).focus()
            page.keyboard.press("ArrowRight")
            assert page.evaluate("() => document.activeElement.dataset.help") == pieces.nth(1).get_attribute(
                "data-help")
            poll(page, f"(want) => ({TIP})() === want", pieces.nth(1).get_attribute("data-help"))
            assert pieces.nth(1).get_attribute("tabindex") == "0" and pieces.nth(0).get_attribute("tabindex") == "-1"
            page.keyboard.press("Home")
            assert pieces.nth(0).evaluate("(p) => p === document.activeElement")
            page.keyboard.press("Tab")  # leaves the group
            assert not row.evaluate("(r) => r.contains(document.activeElement)")
        context.close()


def test_glueckauf_shift_categories_explain_themselves(server: ServerProcess, browser: Any) -> None:
    api = Api(server.url)
    table_id, _host, tokens = api.table("glueckauf", 3, {"start_player": 0}, bots={1: "heuristic", 2: "heuristic"})
    play_until(api, table_id, tokens, lambda s: s["view"]["phase"] == "place" and bool(s["legal"]), random.Random(3))
    game = make_game("glueckauf", 3)
    categories = game.describe()["board"]["categories"]
    with i18n.using_language("ko"):
        _ = i18n._
        kinds = {"colour_fields": _("Counts the fields of this colour on your delivered orders (their printed colour, "
                                    "also when filled with two cubes of other colours)."),
                 "transport_fields": _("Counts the fields, of any colour, on your delivered orders with this "
                                       "transport."),
                 "empty_carts": _("Counts the empty minecarts of this colour in your pit, the printed starting ones "
                                  "included.")}
    for viewport in (DESKTOP, PHONE):
        context, page = open_page(browser, server, f"/play/{table_id}", (table_id, {"token": tokens[0], "seat": 0}),
                                  viewport, lang="ko")
        poll(page, f"() => document.body.dataset.lang === 'ko' && !!document.querySelector('{CATEGORY}')")
        helps = page.evaluate(f"() => [...document.querySelectorAll('{CATEGORY}')].map((g) => g.dataset.help)")
        assert len(helps) == len(categories) == 12
        assert all(kinds[c["kind"]] in text for c, text in zip(categories, helps, strict=True))
        # one Tab stop for the twelve categories; the arrows step through them
        assert page.evaluate("() => [...document.querySelectorAll('.ga-clock-svg g[data-help]')]"
                             ".filter((g) => g.getAttribute('tabindex') === '0').length") == 1
        check_state(page, f"glueckauf {viewport}")
        if viewport is DESKTOP:
            first = page.locator(".ga-clock-svg g[data-help]").first
            first.focus()
            page.keyboard.press("End")
            assert page.evaluate("() => document.activeElement.dataset.help") == helps[-1]
            poll(page, f"(want) => ({TIP})() === want", helps[-1])
            page.keyboard.press("ArrowLeft")
            assert page.evaluate("() => document.activeElement.dataset.help") == helps[-2]
        context.close()


def test_every_interactive_element_is_reachable_in_both_games(server: ServerProcess, browser: Any) -> None:
    """At each state the end-to-end tests visit, at 1280×800 and 390×844: every control and help piece can
    be scrolled into view by its own container, uncovered; no axe violations."""
    api = Api(server.url)
    rng = random.Random(12)
    tables = [
        ("diemacher", api.table("diemacher", 3, bots={1: "random", 2: "random"}), [
            ("setup", lambda s: bool(s["legal"])),
            ("round 2", lambda s: s["view"]["board"]["round"] >= 2 and bool(s["legal"])),
            ("end", lambda s: s["status"] == "finished")]),
        ("glueckauf", api.table("glueckauf", 2, {"start_player": 0}, bots={1: "heuristic"}), [
            ("mining", lambda s: s["view"]["phase"] == "mining" and bool(s["legal"])),
            ("end", lambda s: s["status"] == "finished")]),
    ]
    for game, (table_id, _host, tokens), stages in tables:
        for name, reached in stages:
            play_until(api, table_id, tokens, reached, rng, limit=20_000)
            for viewport in (DESKTOP, PHONE):
                context, page = open_page(browser, server, f"/play/{table_id}",
                                          (table_id, {"token": tokens[0], "seat": 0}), viewport)
                poll(page, "() => !!document.querySelector('#board [data-help]')")
                assert page.evaluate(UNREACHABLE) == [], (game, name, viewport)
                assert violations(page) == [], (game, name, viewport)
                context.close()
