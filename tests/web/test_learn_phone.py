"""Learn to play on a phone (issue 25: the page never moves under the player's hand; docs/web.md, "Learn to
play"): in the page's one column the guide panel stands above the decision, so the steps it shows must not
push the decision about or below the fold. Needs ``/usr/bin/chromium``."""

from __future__ import annotations

import random
from typing import Any

import pytest

from stammtisch.registry import game_spec
from tests.server.helpers import ServerProcess
from tests.web.browser import choices, choose, wait_rendered, wait_turn_or_end, watch_errors

PHONE = {"width": 390, "height": 844}

WHERE = """() => {
  const panel = document.getElementById('guide-panel');
  const decision = document.getElementById('decision');
  const first = decision.querySelector('button.choice:not([disabled]), select');
  const box = (n) => { const r = n.getBoundingClientRect();
                       return {top: r.top + scrollY, bottom: r.bottom + scrollY}; };
  return {panel: panel && !panel.hidden ? box(panel) : null, decision: box(decision),
          first: first ? box(first) : null, steps: panel ? panel.dataset.steps : ''};
}"""


@pytest.mark.parametrize("game", ["glueckauf", "diemacher"])
def test_on_a_phone_the_guide_never_moves_the_decision(server: ServerProcess, browser: Any, game: str) -> None:
    context = browser.new_context(viewport=PHONE, locale="en-US", is_mobile=True, has_touch=True)
    page = context.new_page()
    errors: list[str] = []
    watch_errors(page, errors)
    try:
        page.goto(server.url + "/")
        page.fill("#host-name", "Newcomer")
        page.get_by_role("button", name=f"Learn to play {game_spec(game).title}").click()
        page.wait_for_url("**/play/**")
        wait_rendered(page)
        rng = random.Random(7)
        tops, explained = set(), set()
        for _decision in range(40):
            wait_turn_or_end(page)
            if page.evaluate("() => document.body.dataset.status") == "finished":
                break
            where = page.evaluate(WHERE)
            assert where["panel"] is not None, "the guide panel left the page between steps"
            assert where["panel"]["bottom"] <= where["decision"]["top"], "on a phone the guide is above the decision"
            tops.add(round(where["decision"]["top"]))
            explained.update(where["steps"].split())
            assert where["first"] is not None and where["first"]["bottom"] <= PHONE["height"], (
                f"the first choice is below the fold at {where['first']}")
            choose(page, rng.choice(choices(page)))
        assert len(explained) >= 3, explained  # several steps came and went (and decisions without a new one)
        assert len(tops) == 1, f"the decision moved with the guide's steps: its top at {sorted(tops)} px"
        assert errors == []
    finally:
        context.close()
