"""Reference screenshots of Learn to play (issue 30, "Done when": three steps per game in two languages are
looked at): seat 0's page of each game's guided table at 1280×800, in English and German, at three of its
guide's steps — the first phase, one in the middle of the round, and a result. The table is the guide's own
(``learn``: its seed and options) with every seat a named person instead of bots, moving at random from a
fixed generator, so that the same states come every time. Compared with ``tests/web/screenshots/learn-*``
as tests/web/test_screenshots.py does (tests/web/shots.py); renew on purpose with

    STAMMTISCH_RENEW_SCREENSHOTS=1 .venv/bin/pytest tests/web/test_learn_screenshots.py
"""

from __future__ import annotations

import json
import random
from typing import Any

from stammtisch.registry import game_spec
from tests.server.helpers import Api, ServerProcess
from tests.web.shots import NAMES, compare, failed, play, take
from tests.web.test_table_usable import DESKTOP

LANGUAGES = ("en", "de")
# The guide's steps shown, in the order they come: the first phase, a phase of the round, a result.
STEPS = {"diemacher": ("phase:draft", "phase:rallies", "event:election"),
         "glueckauf": ("phase:draft", "phase:place", "event:shift_ends")}
# The page shows the step: its panel, and the pieces it points at outlined.
SHOWN = """(() => {{ const panel = document.getElementById('guide-panel');
  return !!panel && !panel.hidden && panel.dataset.steps.split(' ').includes({key})
    && [...panel.querySelectorAll('.guide-look')].every((b) => b.dataset.found === 'true'); }})()"""


def guided_table(api: Api, game: str) -> tuple[str, dict[int, str]]:
    """The game's guided table (its deal and options), every seat taken by a person: (id, tokens)."""
    players = game_spec(game).guide_script().players
    created = api.ok("POST", "/api/tables", json={"game": game, "players": players, "options": {}, "learn": True})
    table_id, host = created["table_id"], created["host_token"]
    tokens = {seat: api.join(table_id, seat, NAMES[seat]) for seat in range(players)}
    api.start(table_id, host)
    return table_id, tokens


def play_until(api: Api, table_id: str, tokens: dict[int, str], key: str, rng: random.Random) -> None:
    """Moves as test_screenshots' until seat 0's page shows the guide's step ``key``."""
    for _ in range(1000):
        if key in [step["key"] for step in api.view(table_id, tokens[0])["guide"]["steps"]]:
            return
        play(api, table_id, tokens, 1, rng)
    raise AssertionError(f"the step {key} never came")


def test_the_guides_steps_look_as_their_references(server: ServerProcess, browser: Any) -> None:
    api = Api(server.url)
    changed: list[str] = []
    for game, keys in STEPS.items():
        table_id, tokens = guided_table(api, game)
        rng = random.Random(game_spec(game).guide_script().seed)
        for key in keys:
            play_until(api, table_id, tokens, key, rng)
            for lang in LANGUAGES:
                png = take(browser, server, table_id, tokens[0], DESKTOP, lang, SHOWN.format(key=json.dumps(key)))
                differs = compare(png, f"learn-{game}-{key.split(':')[1]}-{lang}")
                if differs:
                    changed.append(differs)
    assert not changed, failed(changed, "tests/web/test_learn_screenshots.py")
