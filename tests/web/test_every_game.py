"""Every registered game at a browser table (issue 28 item 4): its browser module loads, draws the
board, offers the decisions and takes a few of them, with no error in the page.  The games come from
the registry, so a game installed from another distribution (examples/) is tried without a line here.
Needs ``/usr/bin/chromium`` (skips without it unless ``CI`` is set)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from stammtisch.registry import game_spec, games
from tests.server.helpers import Api, ServerProcess
from tests.web.browser import choices, choose, wait_rendered, wait_turn_or_end
from tests.web.test_table_usable import open_seat

MOVES = 3


@pytest.mark.parametrize("name", sorted(games()))
def test_every_game_plays_in_the_browser(server: ServerProcess, browser: Any, name: str) -> None:
    spec = game_spec(name)
    players = spec.min_players
    api = Api(server.url)
    table_id, _host, tokens = api.table(name, players, bots={seat: spec.default_bot() for seat in range(1, players)})
    context, page, errors = open_seat(browser, server, table_id, tokens[0], 0)
    try:
        wait_rendered(page)
        assert page.locator("#board *").count() > 0, "the browser module drew nothing"
        rng = random.Random(3)
        for _ in range(MOVES):
            wait_turn_or_end(page)
            offered = choices(page)
            if not offered:
                break
            choose(page, rng.choice(offered))
        assert errors == []
    finally:
        context.close()
