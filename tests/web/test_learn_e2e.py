"""Learn to play in the browser (docs/web.md, "Learn to play"): from the lobby's "Learn to play" of a game card,
the guided first game is played to its end with scripted clicks on the decision panel (seeded random
choices: the guide decides nothing). At every decision the test reads the guide panel: each step shown
points at pieces that are on the page (outlined, and named by the tooltip of its "Look at" button), each
step is shown over one unbroken stretch of decisions and never again, and a reload shows the same steps.
Die Macher: the whole 4-election game; Glück Auf: the whole game. Needs ``/usr/bin/chromium``."""

from __future__ import annotations

import random
from typing import Any

import pytest

from stammtisch.registry import game_spec
from tests.server.helpers import ServerProcess
from tests.web.browser import assert_accessible, choices, choose, wait_rendered, wait_turn_or_end, watch_errors

PANEL = """() => {
  const panel = document.getElementById('guide-panel');
  if (!panel || panel.hidden) return {steps: [], reached: panel ? panel.dataset.reached : '', text: '', points: []};
  return {
    steps: panel.dataset.steps.split(' ').filter(Boolean),
    reached: panel.dataset.reached,
    text: panel.innerText,
    points: [...panel.querySelectorAll('.guide-look')].map((b) => ({
      selector: b.dataset.selector, found: b.dataset.found, name: b.textContent,
      outlined: [...document.querySelectorAll(b.dataset.selector)].some((n) => n.classList.contains('guide-point')),
    })),
  };
}"""


def read_panel(page: Any) -> dict[str, Any]:
    found: dict[str, Any] = page.evaluate(PANEL)
    return found


def start_learning(browser: Any, server: ServerProcess, game: str) -> tuple[Any, Any, list[str]]:
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-US")
    page = context.new_page()
    errors: list[str] = []
    watch_errors(page, errors)
    page.goto(server.url + "/")
    page.fill("#host-name", "Newcomer")
    page.get_by_role("button", name=f"Learn to play {game_spec(game).title}").click()
    page.wait_for_url("**/play/**")
    wait_rendered(page)
    return context, page, errors


@pytest.mark.parametrize("game", ["glueckauf", "diemacher"])
def test_a_guided_game_from_the_lobby_to_its_end(server: ServerProcess, browser: Any, game: str) -> None:
    guide = game_spec(game).guide_script()
    context, page, errors = start_learning(browser, server, game)
    try:
        rng = random.Random(5)
        shown_at: dict[str, list[int]] = {}
        reloads = 0
        for decision in range(2000):
            wait_turn_or_end(page)
            panel = read_panel(page)
            for key in panel["steps"]:
                shown_at.setdefault(key, []).append(decision)
            for point in panel["points"]:
                assert point["found"] == "true" and point["outlined"], (panel["steps"], point)
            if panel["steps"] and reloads < 3 and shown_at[panel["steps"][-1]] == [decision]:
                reloads += 1  # leave and come back at a new step: the same steps, the same words
                page.reload()
                wait_rendered(page)
                wait_turn_or_end(page)
                assert read_panel(page) == panel
                if reloads == 1:
                    assert_accessible(page, f"{game}, the guide's first step")
            if page.evaluate("() => document.body.dataset.status") == "finished":
                break
            offered = choices(page)
            assert offered, "no choice offered at the newcomer's turn"
            choose(page, rng.choice(offered))
        else:
            pytest.fail("the guided game did not end")
        assert panel["steps"] == ["phase:over"]
        reached = panel["reached"].split()
        assert len(reached) == len(set(reached)) and set(reached) == set(shown_at)
        for key, at in shown_at.items():  # each explanation appears once: one unbroken stretch of decisions
            assert at == list(range(at[0], at[-1] + 1)), key
        assert {step.key for step in guide.steps if step.phase in ("over",)} <= set(shown_at)
        assert any(key.startswith("event:") for key in shown_at), "no result explained"
        assert len(shown_at) >= 6 and reloads == 3
        look = page.locator("#guide-panel .guide-look").first
        tip = page.locator("#guide-tip")
        look.hover()  # the tooltip names the piece the button points at
        assert tip.is_visible() and tip.inner_text() == look.inner_text()
        page.mouse.move(0, 0)
        assert not tip.is_visible()
        look.click()  # and a click brings the piece into view
        page.mouse.move(0, 0)  # the scroll moves the button from under the pointer: a clicked tooltip stays
        assert tip.is_visible() and tip.inner_text() == look.inner_text()
        piece = page.locator(look.get_attribute("data-selector") or "").first.bounding_box()
        assert piece is not None and piece["y"] < 900 and piece["y"] + piece["height"] > 0
        page.keyboard.press("Escape")
        assert not tip.is_visible()
        assert errors == []
    finally:
        context.close()


def test_the_lobby_offers_learn_to_play_for_each_game_with_a_guide(server: ServerProcess, browser: Any) -> None:
    context = browser.new_context(locale="de-DE")
    page = context.new_page()
    try:
        page.goto(server.url + "/")
        page.wait_for_selector("button.learn")
        assert sorted(page.eval_on_selector_all("button.learn", "(bs) => bs.map((b) => b.dataset.learn)")) == \
            ["diemacher", "glueckauf"]
        learn = page.get_by_role("button", name="Spiel lernen Glück Auf", exact=True)  # with the title, for readers
        assert learn.get_attribute("data-learn") == "glueckauf" and learn.is_visible()
    finally:
        context.close()
