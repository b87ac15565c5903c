"""The Glück Auf board module (``glueckauf.js``) on its own, in a real browser, without the server.

- Its copy of the edition (locks, shift clock categories, …) matches the packaged data file.
- Every text it shows is listed in ``games/glueckauf/browser.py`` (``t("…")`` and ``N("…")``).
- A whole game drawn from one seat's views: at each of its decisions every legal action is a
  button on the board named by its label (an order field with several cubes to choose from
  opens a chooser), no text is shown without going through ``ctx.t``, nothing throws; clicks
  and the keyboard submit actions.  Screenshots of key moments go to the artifacts folder.

Chromium: Debian's ``/usr/bin/chromium`` driven by Playwright through ``tests.web.browser``
(never ``playwright install``); the browser tests skip without it unless ``CI`` is set.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from importlib import resources
from typing import Any

import pytest

from stammtisch import i18n
from stammtisch.engine.match import Match
from stammtisch.engine.record import action_to_json
from stammtisch.games.glueckauf.bot import HeuristicBot
from stammtisch.games.glueckauf.browser import TEXTS
from stammtisch.games.glueckauf.data import load_edition
from stammtisch.games.glueckauf.text import describe_action, describe_event
from stammtisch.registry import make_game
from tests.web.browser import launch, need_chromium, shot

STATIC = resources.files("stammtisch.web") / "static"
SCRIPT = (STATIC / "glueckauf.js").read_text(encoding="utf-8")
ORIGIN = "http://board.test"

# A page that loads only the board: window.show(data, mark) draws one view with a fake ctx whose
# t() wraps every text in ⟦…⟧ (mark) so that untranslated text can be found.
PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<link rel="stylesheet" href="/static/glueckauf.css"><style>body { margin: 0; padding: 8px; }</style></head>
<body><div id="root"></div>
<script type="module">
import board from "/static/glueckauf.js";
window.acted = [];
window.errors = [];
window.addEventListener("error", (e) => window.errors.push(String(e.message)));
window.show = (data, mark) => {
  const t = (id, p = {}) => {
    const text = String(id).replace(/\\{(\\w+)\\}/g, (m, k) => (k in p ? String(p[k]) : m));
    return mark ? `⟦${text}⟧` : text;
  };
  const ctx = {
    t, lang: "en", seat: data.seat, legal: data.legal, labels: data.labels, sentences: data.sentences,
    events: data.events, players: data.players, describe: data.describe,
    act: (action) => { window.acted.push(action); return Promise.resolve(); },
  };
  board.render(document.getElementById("root"), data.view, ctx);
  return window.check(data, mark);
};
// Problems of the board just drawn: a legal action without its button, (marked) text not from t().
window.check = (data, mark) => {
  const root = document.getElementById("root");
  const problems = [];
  const buttons = new Map();
  for (const b of root.querySelectorAll("button[data-action]")) buttons.set(b.dataset.action, b);
  data.legal.forEach((action, i) => {
    const key = JSON.stringify(action);
    const button = buttons.get(key);
    if (action[0] === "fill" && !button) {
      const field = root.querySelector(`[data-focus-key="choose:${action[2]}:${action[3]}"]`);
      if (!field) problems.push(`no field for ${key}`);
    } else if (!button) problems.push(`no button for ${key}`);
    // named by its label, read from its content (issue #14: axe label-content-name-mismatch)
    else if (button.dataset.label !== data.labels[i] || button.hasAttribute("aria-label")
             || button.querySelector(":scope > .ga-name").textContent !== data.labels[i]) {
      problems.push(`${key}: not its label`);
    }
  });
  if (!mark) return problems.concat(window.errors.splice(0));
  const plain = /^[\\s\\d#×+\\-–—\\/:·().,%IVX]*$/;
  const names = (data.players || []).map((p) => p.name);
  // The phase labels come translated from the table's describe(), like the labels and sentences.
  const described = ((data.describe || {}).phases || []).map((p) => p.label);
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.nodeValue;
    if (node.parentNode.closest("svg.ga-icon")) continue; // pictures: the coin's M
    if (!plain.test(text) && !names.includes(text) && !text.includes("⟦") && !data.labels.includes(text)
        && !data.sentences.includes(text) && !described.includes(text)) {
      problems.push(`text not from t(): ${JSON.stringify(text)}`);
    }
  }
  for (const el of root.querySelectorAll("[aria-label], [title]")) {
    for (const attr of ["aria-label", "title"]) {
      const text = el.getAttribute(attr);
      if (text !== null && !plain.test(text) && !text.includes("⟦") && !data.labels.includes(text)
          && !names.includes(text)) {
        problems.push(`${attr} not from t(): ${JSON.stringify(text)}`);
      }
    }
  }
  return problems.concat(window.errors.splice(0));
};
window.ready = true;
</script></body></html>"""


def test_the_board_takes_the_edition_from_describe_not_a_copy() -> None:
    """The module holds no copy of the edition: Game.describe() gives the table's own (issue #10)."""
    assert "EDITION" not in SCRIPT and '"cage_capacity": 5' not in SCRIPT
    edition = load_edition()
    for players in (2, 3, 4):
        described = make_game("glueckauf", players).describe()["board"]
        assert described["spaces"] == [s.id for s in edition.spaces]
        assert described["locked"] == [s.id for s in edition.spaces if players in s.locked_with]
        assert [(c["id"], c["first"], c["second"], c["from_shift"]) for c in described["categories"]] == [
            (c.id, c.first, c.second, c.from_shift) for c in edition.categories]
        assert described["cage_capacity"] == edition.cage_capacity
        assert described["marks_per_vp"] == edition.marks_per_vp
        assert described["coal_per_vp"] == edition.coal_per_vp
        assert described["vp_per_outstanding_order"] == edition.vp_per_outstanding_order
        assert described["vp_per_unbalanced_tile"] == edition.vp_per_unbalanced_tile


def test_every_text_of_the_board_is_listed_in_its_section() -> None:
    marked = re.findall(r"""\b(?:t|N)\(\s*"((?:[^"\\]|\\.)*)\"""", SCRIPT)
    assert len(marked) > 100
    missing = sorted({text for text in marked if text not in TEXTS})
    assert not missing, f"add to TEXTS in src/stammtisch/games/glueckauf/browser.py: {missing}"


def test_scoring_sentences_start_with_their_category_in_every_language() -> None:
    """Without events the board finds the shift scoring in the sentences by their "{category}:" start."""
    for code in i18n.available_languages():
        with i18n.using_language(code):
            for template in ("{category}: {awards} VP", "{category}: nobody scores"):
                assert i18n._(template).startswith("{category}:"), (code, template)


# --- in the browser ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def page() -> Iterator[Any]:
    need_chromium()
    from playwright.sync_api import sync_playwright

    def serve(route: Any) -> None:
        path = route.request.url.removeprefix(ORIGIN).split("?")[0]
        if path == "/":
            route.fulfill(status=200, content_type="text/html; charset=utf-8", body=PAGE)
        elif path.startswith("/static/") and (STATIC / path.removeprefix("/static/")).is_file():
            kind = "text/javascript" if path.endswith(".js") else "text/css"
            route.fulfill(status=200, content_type=kind, body=(STATIC / path.removeprefix("/static/")).read_bytes())
        else:
            route.fulfill(status=404, body="")

    with sync_playwright() as playwright:
        browser = launch(playwright)
        tab = browser.new_page(viewport={"width": 1280, "height": 800})
        tab.route(f"{ORIGIN}/**", serve)
        tab.goto(f"{ORIGIN}/")
        tab.wait_for_function("window.ready === true")
        yield tab
        browser.close()


def snapshot(match: Match, seat: int | None, events: list[Any], with_events: bool = True) -> dict[str, Any]:
    legal = match.legal_actions(seat) if seat is not None and seat in match.to_act() else []
    visible = [e for e in events if e.visible_to(seat)]
    return {
        "seat": seat,
        "view": match.view(seat),
        "describe": match.game.describe(),
        "legal": [action_to_json(a) for a in legal],
        "labels": [describe_action(a, None, None) for a in legal],
        "sentences": [describe_event(e, None, None) for e in visible],
        "events": [e.to_json() for e in visible] if with_events else None,  # the frame passes only sentences
        "players": [{"seat": s, "name": f"Spieler {s + 1}"} for s in range(match.game.num_players)],
    }


def shoot(page: Any, name: str, width: int = 1280) -> None:
    page.set_viewport_size({"width": width, "height": 800})
    shot(page, f"glueckauf-board-{name}-{width}")
    page.set_viewport_size({"width": 1280, "height": 800})


@pytest.mark.parametrize("players", [2, 4])
def test_a_whole_game_drawn_from_one_seat(page: Any, players: int) -> None:
    """Every decision of seat 0, and every 5th moment of the others, seen by seat 0; with 2 players
    without ctx.events (the shift scoring is then read from the sentences), with 4 with them."""
    match = Match(make_game("glueckauf", players, {"start_player": 0}), seed=20 + players)
    bots = [HeuristicBot(seed=s) for s in range(players)]
    since: list[Any] = []
    shot: set[str] = set()
    moves = 0
    kinds: set[str] = set()
    while not match.is_over():
        seat = match.to_act()[0]
        view = match.view(seat)
        legal = match.legal_actions(seat)
        if seat == 0 or moves % 5 == 0:
            data = snapshot(match, 0, since, with_events=players == 4)
            problems = page.evaluate("([data]) => window.show(data, true)", [data])
            assert not problems, (view["phase"], problems[:5])
            kinds.update(a[0] for a in data["legal"])
            stage = view["phase"]
            if seat == 0 and stage not in shot and stage in ("draft", "place", "mining", "keep_tile", "keep_order"):
                shot.add(stage)
                page.evaluate("([data]) => window.show(data, false)", [data])
                shoot(page, f"{players}p-{stage}")
        action = bots[seat].choose(view, legal)
        if seat == 0 and view["phase"] == "place" and view["board"]["shift"] == 2:  # see the draw-5 choices too
            for wanted in (("place", "factory_draw"), ("place", "order_draw")):
                if wanted in legal and f"drew-{wanted[1]}" not in shot:
                    shot.add(f"drew-{wanted[1]}")
                    action = wanted
                    break
        events = match.act(seat, action)
        since = list(events) if seat == 0 else since + list(events)
        moves += 1
    assert {"draft", "place", "cage", "load", "fill", "keep_tile", "keep_order"} <= kinds
    assert {"return_tiles", "return_orders"} & kinds
    final = snapshot(match, 0, since, with_events=players == 4)
    assert not page.evaluate("([data]) => window.show(data, true)", [final])
    page.evaluate("([data]) => window.show(data, false)", [final])
    # issue #8 item 7: at game over every seat's delivered cards are open
    assert page.locator(".ga-facedown").count() == 0 and page.locator(".ga-delivered .ga-card").count() > 0
    assert page.locator(".ga-final tr.ga-winner").count() >= 1
    assert page.locator(".ga-scoring tbody tr, .ga-scoring li").count() == 12  # shift III scores every category
    shoot(page, f"{players}p-over")
    shoot(page, f"{players}p-over", width=390)
    spectator = snapshot(match, None, since)
    assert not page.evaluate("([data]) => window.show(data, true)", [spectator])


def first_mining_decision(seed: int = 2) -> tuple[Match, list[Any]]:
    """A 2-player game at seat 0's first mining step where one order field takes several cubes."""
    for attempt in range(seed, seed + 60):
        match = Match(make_game("glueckauf", 2, {"start_player": 0}), seed=attempt)
        bots = [HeuristicBot(seed=attempt + s) for s in range(2)]
        since: list[Any] = []
        while not match.is_over():
            seat = match.to_act()[0]
            legal = match.legal_actions(seat)
            fills = [a for a in legal if a[0] == "fill"]
            if seat == 0 and len({(a[2], a[3]) for a in fills}) < len(fills):
                return match, since
            events = match.act(seat, bots[seat].choose(match.view(seat), legal))
            since = list(events) if seat == 0 else since + list(events)
    raise AssertionError("no mining step with a choice of cubes found")


def test_fields_cage_and_keyboard_submit_actions(page: Any) -> None:
    match, since = first_mining_decision()
    data = snapshot(match, 0, since)
    assert not page.evaluate("([data]) => window.show(data, false)", [data])
    page.evaluate("window.acted = []")
    board = page.locator("#root")
    # an order field with several possible cubes opens a chooser; a cube there submits
    chooser = board.locator("button.ga-choose").first
    chooser.click()
    assert chooser.get_attribute("aria-expanded") == "true" or board.locator(".ga-chooser").count() == 1
    options = board.locator(".ga-chooser button")
    assert options.count() >= 2
    assert page.evaluate("document.activeElement.closest('.ga-chooser') !== null")  # focus moved into it
    label = options.first.get_attribute("data-label")
    options.first.click()
    acted = page.evaluate("window.acted")
    assert len(acted) == 1 and acted[0][0] == "fill" and label in data["labels"]
    assert data["legal"][data["labels"].index(label)] == acted[0]
    shoot(page, "mining-chooser")
    # Escape closes a chooser again
    page.evaluate("([data]) => window.show(data, false)", [data])
    board.locator("button.ga-choose").first.click()
    page.keyboard.press("Escape")
    assert board.locator(".ga-chooser").count() == 0
    # the keyboard: Tab reaches the board's buttons, Enter presses them, focus is visible
    page.evaluate("window.acted = []")
    cage = board.locator("button.ga-move").first
    cage.focus()
    outline = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
    page.keyboard.press("Enter")
    acted = page.evaluate("window.acted")
    assert acted and acted[0][0] == "cage"
    assert outline != "none"


def test_placing_on_a_space_by_click(page: Any) -> None:
    match = Match(make_game("glueckauf", 3, {"start_player": 0}), seed=5)
    bots = [HeuristicBot(seed=s) for s in range(3)]
    while match.view(0)["phase"] != "place" or match.to_act() != [0]:
        seat = match.to_act()[0]
        match.act(seat, bots[seat].choose(match.view(seat), match.legal_actions(seat)))
    data = snapshot(match, 0, [])
    assert not page.evaluate("([data]) => window.show(data, false)", [data])
    page.evaluate("window.acted = []")
    label = describe_action(("place", "money_4"), None, None)
    page.get_by_role("button", name=label, exact=True).click()
    assert page.evaluate("window.acted") == [["place", "money_4"]]
    # locked spaces (money 3 with 3 players) are drawn, with their lock, and are not buttons
    assert page.locator(".ga-locked").count() == 3
    assert page.locator("button.ga-locked").count() == 0


def seat_0_to_place(players: int, seed: int) -> Match:
    match = Match(make_game("glueckauf", players, {"start_player": 0}), seed=seed)
    bots = [HeuristicBot(seed=s) for s in range(players)]
    while match.view(0)["phase"] != "place" or match.to_act() != [0]:
        seat = match.to_act()[0]
        match.act(seat, bots[seat].choose(match.view(seat), match.legal_actions(seat)))
    return match


def test_draw_five_put_back_one_by_one_by_click(page: Any) -> None:
    # issue #8 item 5: each drawn tile has a button per side; after the first only the side chosen
    match = seat_0_to_place(3, 7)
    match.act(0, ("place", "factory_draw"))
    match.act(0, ("keep_tile", None))
    hand = sorted(match.state.drawn)
    data = snapshot(match, 0, [])
    assert not page.evaluate("([data]) => window.show(data, false)", [data])
    assert page.locator("button.ga-side").count() == 2 * len(hand)
    page.evaluate("window.acted = []")
    page.get_by_role("button", name=describe_action(("return_tiles", "top", hand[1]), None, None), exact=True).click()
    assert page.evaluate("window.acted") == [["return_tiles", "top", hand[1]]]
    match.act(0, ("return_tiles", "top", hand[1]))
    data = snapshot(match, 0, [])
    assert not page.evaluate("([data]) => window.show(data, true)", [data])
    page.evaluate("([data]) => window.show(data, false)", [data])
    assert page.locator("button.ga-side").count() == len(hand) - 1
    assert page.locator(".ga-returned .ga-tile").count() == 1
    shoot(page, "put-back")
    other = snapshot(match, 1, [])  # another seat sees neither the hand nor what went back
    assert not page.evaluate("([data]) => window.show(data, true)", [other])
    assert page.locator(".ga-returned").count() == 0 and page.locator("button.ga-side").count() == 0


def test_substitute_or_leave_the_cart_empty_by_click(page: Any) -> None:
    # issue #8 item 6: a cube of another colour, or the cart left empty
    match = seat_0_to_place(2, 8)
    state = match.state
    slot = next(n for n, t in enumerate(state.factory) if t)
    state.supply[match.game.tiles[state.factory[slot]].colour] = 0
    state.players[0].money = 50
    match.act(0, ("place", f"factory_{slot + 1}"))
    data = snapshot(match, 0, [])
    assert ["coal", None] in data["legal"]
    assert not page.evaluate("([data]) => window.show(data, true)", [data])
    page.evaluate("([data]) => window.show(data, false)", [data])
    page.evaluate("window.acted = []")
    page.get_by_role("button", name=describe_action(("coal", None), None, None), exact=True).click()
    assert page.evaluate("window.acted") == [["coal", None]]
