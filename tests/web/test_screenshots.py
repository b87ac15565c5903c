"""Reference screenshots (issue #14, "Checked how"): both games in all five languages at 1280×800 and
390×844, from a fixed seed and fixed moves, compared with the stored images in
``tests/web/screenshots/`` with a small tolerance.  A changed layout fails until the references are
renewed on purpose:

    STAMMTISCH_RENEW_SCREENSHOTS=1 .venv/bin/pytest tests/web/test_screenshots.py

(docs/web.md, "Reference screenshots").  Animations and transitions are off, the caret hidden; the fonts
are the machine's (``.ci/run`` installs fonts-noto-cjk for Korean).  A failure leaves the new image and a
picture of the differences in the artifacts folder.
"""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Iterator
from typing import Any

import pytest

from tests.server.helpers import Api, ServerProcess
from tests.web.browser import need_chromium
from tests.web.shots import NAMES, SHARE, compare, difference, failed, play, take
from tests.web.test_table_usable import DESKTOP, PHONE

LANGUAGES = ("en", "de", "pl", "it", "ko")
SIZES = {"desktop": DESKTOP, "phone": PHONE}
# (players, seed, moves): a table in the middle of its game, every seat a named person moving at random
# from a fixed generator, so that the same state is drawn every time.
GAMES = {"diemacher": (3, 20261122, 90), "glueckauf": (2, 20261122, 40)}


@pytest.fixture(scope="module")
def tables(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[ServerProcess, dict[str, tuple[str, str]]]]:
    """A server with one table per game at a fixed state: {game: (table id, seat 0's token)}."""
    need_chromium()
    data = tmp_path_factory.mktemp("screenshots")
    server = ServerProcess(data).start()
    made: dict[str, tuple[str, str, dict[int, str]]] = {}
    try:
        api = Api(server.url)
        for game, (players, _seed, _moves) in GAMES.items():
            table_id, host = api.create(game, players)
            made[game] = (table_id, host, {seat: api.join(table_id, seat, NAMES[seat]) for seat in range(players)})
        server.stop()
        with sqlite3.connect(data / "stammtisch.db") as db:  # the seed a table would have drawn, fixed
            for game, (table_id, _host, _tokens) in made.items():
                db.execute("UPDATE stammtisch_tables SET seed = ? WHERE id = ?", (GAMES[game][1], table_id))
        server = ServerProcess(data, port=server.port).start()
        api = Api(server.url)
        for game, (table_id, host, tokens) in made.items():
            api.start(table_id, host)
            play(api, table_id, tokens, GAMES[game][2], random.Random(GAMES[game][1]))
        yield server, {game: (table_id, tokens[0]) for game, (table_id, _host, tokens) in made.items()}
    finally:
        server.stop()


def test_the_pages_look_as_their_references(tables: tuple[ServerProcess, dict[str, tuple[str, str]]],
                                            browser: Any) -> None:
    server, found = tables
    changed: list[str] = []
    for game, (table_id, token) in found.items():
        for size_name, size in SIZES.items():
            for lang in LANGUAGES:
                differs = compare(take(browser, server, table_id, token, size, lang), f"{game}-{size_name}-{lang}")
                if differs:
                    changed.append(differs)
    assert not changed, failed(changed, "tests/web/test_screenshots.py")


def test_the_comparison_sees_a_moved_panel_and_forgives_a_few_pixels() -> None:
    """The tolerance itself: a handful of changed pixels pass, a panel shifted by 8 px does not."""
    from PIL import Image, ImageDraw

    base = Image.new("RGB", (390, 844), "#f5efe6")
    draw = ImageDraw.Draw(base)
    draw.rectangle((20, 100, 370, 300), fill="#ffffff", outline="#333333")
    draw.text((30, 110), "Glück auf! 안녕하세요", fill="#000000")
    speckled = base.copy()
    for x in range(0, 300, 60):
        speckled.putpixel((x, 5), (0, 0, 0))
    moved = Image.new("RGB", (390, 844), "#f5efe6")
    ImageDraw.Draw(moved).rectangle((20, 108, 370, 308), fill="#ffffff", outline="#333333")
    ImageDraw.Draw(moved).text((30, 118), "Glück auf! 안녕하세요", fill="#000000")
    assert difference(base, base) == 0
    assert 0 < difference(speckled, base) <= SHARE
    assert difference(moved, base) > SHARE
    assert difference(base.crop((0, 0, 390, 800)), base) == 1.0
