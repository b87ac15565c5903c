"""The rules page a newcomer can use (issue 30 item 3): a section per phase with a drawing of the part of the
board it changes, a turn summary card that prints alone on one page, the table options the lobby offers
explained, linked from every phase label of the table page; in five languages, axe-clean.

The first tests draw the page in-process (web/rules.py); those marked with the browser fixtures run Debian's
chromium against a server."""

from __future__ import annotations

import random
import re
from typing import Any

import httpx
import pytest

from stammtisch import i18n
from stammtisch.registry import GameSpec, games
from stammtisch.web.rules import anchor, default_text, rules_html
from tests.server.helpers import Api, ServerProcess
from tests.web.browser import assert_accessible
from tests.web.test_lobby_e2e import lobby
from tests.web.test_table_usable import DESKTOP, PHONE, open_seat, play_until, poll

LANGUAGES = ("en", "de", "pl", "it", "ko")
ANCHOR = re.compile(r'id="(phase-[^"]+)"')


def page_in(spec: GameSpec, lang: str) -> str:
    with i18n.using_language(lang):
        return rules_html(spec)


def linked_phases(spec: GameSpec) -> set[str]:
    """What the table page links from its phase labels: every phase of the flow (with "over", the final
    scoring), its interludes, and Die Macher's printed track slots that have no phase of their own (9d)."""
    game = spec.make(spec.default_players)
    described = game.describe()
    names = {phase["name"] for phase in described["phases"]} | {"over"}
    names |= {phase.name for phase in game.flow.interludes} if hasattr(game, "flow") else set()
    names |= {slot["slot"] for slot in described["board"].get("track", []) if not slot["phases"]}
    return names


@pytest.mark.parametrize("name", sorted(games()))
def test_every_phase_has_one_anchor_on_the_rules_page(name: str) -> None:
    spec = games()[name]
    found = ANCHOR.findall(page_in(spec, "en"))
    assert len(found) == len(set(found))  # each anchor once
    assert {anchor(phase) for phase in linked_phases(spec)} <= set(found), name


@pytest.mark.parametrize("name", sorted(games()))
def test_each_phase_section_has_a_drawing_without_words_or_outside_resources(name: str) -> None:
    spec = games()[name]
    phase_sections = [section for section in spec.rules_sections() if section.phases]
    drawn = [section for section in spec.rules_sections() if section.drawing]
    assert phase_sections and all(section.drawing for section in phase_sections)
    for section in drawn:
        assert section.drawing.startswith('<svg class="drawing"'), section.heading
        assert section.drawing.endswith("</svg>"), section.heading
        assert "href" not in section.drawing and "<script" not in section.drawing and "style=" not in section.drawing
        # a drawing carries only digits and signs: its words would not be translated
        for text in re.findall(r"<text[^>]*>([^<]*)</text>", section.drawing):
            assert not re.search(r"[^\W\d_]", text), (section.heading, text)
    page = page_in(spec, "en")
    assert "http" not in page.replace('xmlns="http://www.w3.org/2000/svg"', "")  # nothing from elsewhere
    assert "<script" not in page and page.count('<svg class="drawing"') == len(drawn)


@pytest.mark.parametrize("name", sorted(games()))
def test_the_summary_card_lists_each_phase_in_order(name: str) -> None:
    spec = games()[name]
    page = page_in(spec, "de")
    card = page[page.index('<section class="summary-card"'):]
    card = card[:card.index("</section>")]
    with i18n.using_language("de"):
        lines = [i18n._(section.summary) for section in spec.rules_sections() if section.summary]
        assert i18n._("Turn summary: {game}").format(game=i18n._(spec.title)) in card
    positions = [card.find(line.replace("'", "&#x27;")) for line in lines]
    assert -1 not in positions and positions == sorted(positions), (name, lines)


@pytest.mark.parametrize("name", sorted(games()))
def test_the_table_options_the_lobby_offers_are_explained_with_their_defaults(name: str) -> None:
    spec = games()[name]
    for lang in ("en", "pl"):
        page = page_in(spec, lang)
        options = page[page.index('<dl class="rules-options">'):]
        with i18n.using_language(lang):
            for option in spec.options:
                label = i18n._(option.label).replace("'", "&#x27;")
                if not option.lobby:
                    assert f"<dt>{label}</dt>" not in options, option.name
                    continue
                assert option.hint, f"{option.name}: a lobby option says what it changes"
                entry = options[options.index(f"<dt>{label}</dt>"):]
                assert entry.index(i18n._(option.hint).replace("'", "&#x27;")) < entry.index(default_text(option))


def test_the_defaults_read_from_the_declarations() -> None:
    dm, ga = games()["diemacher"].options, games()["glueckauf"].options
    elections = next(option for option in dm if option.name == "elections")
    open_delivered = next(option for option in ga if option.name == "open_delivered")
    with i18n.using_language("de"):
        assert default_text(elections) == "Voreinstellung: 4"  # die-macher.md §15: the base game
        assert default_text(open_delivered) == "Voreinstellung: aus"  # glueck-auf.md Defaults: face down


@pytest.mark.parametrize("name", sorted(games()))
def test_every_section_in_five_languages(name: str) -> None:
    spec = games()[name]
    for lang in LANGUAGES:
        page = page_in(spec, lang)
        assert f'<html lang="{lang}">' in page
        with i18n.using_language(lang):
            for i, section in enumerate(spec.rules_sections()):
                heading = i18n._(section.heading).replace("'", "&#x27;")
                assert f'<h2 id="rules-{i}">{heading}</h2>' in page, (name, lang, section.heading)
                for paragraph in section.paragraphs:
                    assert i18n._(paragraph).replace("'", "&#x27;") in page, (name, lang, paragraph)
                    assert lang == "en" or i18n._(paragraph) != paragraph, (name, lang, paragraph)


# ---------------------------------------------------------------------------------------------- browser

HREFS = "(selector) => [...document.querySelectorAll(selector)].map((a) => a.getAttribute('href'))"


def assert_anchors_exist(server: ServerProcess, hrefs: list[str], game: str, lang: str) -> None:
    pages: dict[str, str] = {}
    for href in hrefs:
        path, _sep, fragment = href.partition("#")
        assert path == f"/rules/{game}?lang={lang}" and fragment.startswith("phase-"), href
        if path not in pages:
            pages[path] = httpx.get(server.url + path).text
        assert f'id="{fragment}"' in pages[path], href


def test_die_macher_phase_labels_link_to_their_sections(server: ServerProcess, browser: Any) -> None:
    api = Api(server.url)
    table_id, _host, tokens = api.table("diemacher", 3, bots={1: "heuristic", 2: "heuristic"})
    play_until(api, table_id, tokens, lambda s: s["status"] == "finished" or (
        s["view"]["phase"] == "media" and bool(s["legal"])), random.Random(3))
    context, page, _errors = open_seat(browser, server, table_id, tokens[0], 0, viewport=DESKTOP, lang="pl")
    poll(page, "() => document.body.dataset.lang === 'pl' && !!document.querySelector('.dm-phases a.phase-rules')"
               " && !!document.querySelector('#decision .decision-phase a.phase-rules')")  # (the decision drawn too)
    hrefs = page.evaluate(HREFS, ".dm-phases li a.phase-rules")
    track = games()["diemacher"].make(3).describe()["board"]["track"]
    assert len(hrefs) == len(track)  # every label of the printed phase track is a link
    assert_anchors_exist(server, hrefs, "diemacher", "pl")
    decision = page.evaluate(HREFS, "#decision .decision-phase a.phase-rules")  # the decision names its phase
    assert decision == ["/rules/diemacher?lang=pl#phase-media"]
    with context.expect_page() as opened:  # the current phase's label opens its section in a new tab
        page.locator(".dm-phases li.current a.phase-rules").click()
    rules = opened.value
    rules.wait_for_load_state()
    assert rules.url.endswith("/rules/diemacher?lang=pl#phase-media")
    with i18n.using_language("pl"):
        heading = i18n._("3 Secure Media Influence")
    assert rules.locator("#phase-media + h2").inner_text() == heading
    context.close()


def test_glueckauf_phase_label_links_to_its_section(server: ServerProcess, browser: Any) -> None:
    api = Api(server.url)
    table_id, _host, tokens = api.table("glueckauf", 2, {"start_player": 0}, bots={1: "heuristic"})
    context, page, _errors = open_seat(browser, server, table_id, tokens[0], 0, viewport=DESKTOP, lang="it")
    seen: set[str] = set()
    for phase in ("draft", "place"):
        play_until(api, table_id, tokens, lambda s, p=phase: s["view"]["phase"] == p and bool(s["legal"]),
                   random.Random(5))
        poll(page, f"() => (document.querySelector('.ga-stage a.phase-rules')?.getAttribute('href') || '')"
                   f".endsWith('#phase-{phase}')")
        hrefs = page.evaluate(HREFS, ".ga-stage a.phase-rules")
        assert len(hrefs) == 1
        assert_anchors_exist(server, hrefs, "glueckauf", "it")
        seen.add(hrefs[0])
    assert len(seen) == 2
    context.close()


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_rules_pages_are_axe_clean(server: ServerProcess, browser: Any, viewport: dict[str, int]) -> None:
    for name in games():
        for lang in ("de", "ko"):
            context = browser.new_context(viewport=viewport, bypass_csp=True)  # a context that lets axe in
            page = context.new_page()
            page.goto(f"{server.url}/rules/{name}?lang={lang}")
            assert_accessible(page, f"/rules/{name} ({lang}, {viewport['width']}px)")
            assert page.evaluate("() => document.documentElement.scrollWidth") <= viewport["width"]
            context.close()


def test_printing_shows_the_summary_card_alone_on_one_page(server: ServerProcess, browser: Any) -> None:
    for name in games():
        for lang in ("en", "de"):
            context = browser.new_context()
            page = context.new_page()
            page.goto(f"{server.url}/rules/{name}?lang={lang}")
            assert page.locator(".rules-section").first.is_visible()  # on screen: everything
            page.emulate_media(media="print")
            assert page.locator(".summary-card").is_visible()
            assert page.locator(".summary-card li").count() == sum(
                1 for section in games()[name].rules_sections() if section.summary)
            for hidden in (".topbar", ".rules-section", ".rules-contents", "h1", ".print-hint"):
                assert not page.locator(hidden).first.is_visible(), (name, hidden)
            pdf = page.pdf(format="A4")
            assert len(re.findall(rb"/Type\s*/Page(?![s\w])", pdf)) == 1, (name, lang)
            context.close()


def test_the_lobby_links_the_table_options_explained(server: ServerProcess, browser: Any) -> None:
    page, errors = lobby(browser, server, "ko")
    for name in [name for name, spec in games().items() if any(option.lobby for option in spec.options)]:
        page.locator(f"#game-{name}").check()
        poll(page, "(name) => (document.querySelector('.options-explained a')?.getAttribute('href') || '')"
                   ".startsWith(`/rules/${name}?`)", name)
        link = page.locator(".options-explained a")
        with i18n.using_language("ko"):
            assert link.inner_text() == i18n._("What the table options do")
        href = link.get_attribute("href")
        assert href == f"/rules/{name}?lang=ko#rules-options" and link.get_attribute("target") == "_blank"
        assert 'id="rules-options"' in httpx.get(server.url + href.partition("#")[0]).text
    assert not errors, errors
    page.context.close()
