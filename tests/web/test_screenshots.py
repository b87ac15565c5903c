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

import io
import os
import random
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server.helpers import Api, ServerProcess
from tests.web.browser import ARTIFACTS, need_chromium
from tests.web.test_table_usable import DESKTOP, PHONE, poll

REFERENCES = Path(__file__).parent / "screenshots"
RENEW = os.environ.get("STAMMTISCH_RENEW_SCREENSHOTS") == "1"
LANGUAGES = ("en", "de", "pl", "it", "ko")
SIZES = {"desktop": DESKTOP, "phone": PHONE}
# (players, seed, moves): a table in the middle of its game, every seat a named person moving at random
# from a fixed generator, so that the same state is drawn every time.
GAMES = {"diemacher": (3, 20261122, 90), "glueckauf": (2, 20261122, 40)}
NAMES = ("Anna", "Ben", "Cleo")
# A pixel differs when a channel moved by more than CHANNEL; a page differs when more than SHARE of its
# pixels do (antialiasing may vary in the last bits; a moved panel or a new line changes far more).
CHANNEL = 48
SHARE = 0.002
STILL = """*, *::before, *::after { animation: none !important; transition: none !important;
  caret-color: transparent !important; scroll-behavior: auto !important; }"""


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


def play(api: Api, table_id: str, tokens: dict[int, str], moves: int, rng: random.Random) -> None:
    """``moves`` moves, each by the lowest seat to act, chosen by ``rng`` from its legal actions."""
    for _ in range(moves):
        for seat in sorted(tokens):
            state = api.view(table_id, tokens[seat])
            if state["legal"]:
                response = api.act(table_id, tokens[seat], rng.choice(state["legal"]), state["move_no"])
                assert response.status_code == 200, response.text
                break
        else:
            raise AssertionError("nobody is to act")


def difference(new: Any, reference: Any) -> float:
    """The share of pixels that differ (1.0 when the sizes differ)."""
    from PIL import ImageChops

    if new.size != reference.size:
        return 1.0
    diff = ImageChops.difference(new.convert("RGB"), reference.convert("RGB"))
    channels = [band.point(lambda v: 255 if v > CHANNEL else 0) for band in diff.split()]
    changed = ImageChops.lighter(ImageChops.lighter(channels[0], channels[1]), channels[2])
    return changed.histogram()[255] / (new.size[0] * new.size[1])


def small(png: bytes) -> Any:
    """The screenshot as stored: a palette PNG (a few dozen KB), made the same way for both sides."""
    from PIL import Image

    return Image.open(io.BytesIO(png)).convert("RGB").quantize(colors=128, method=Image.Quantize.MEDIANCUT,
                                                               dither=Image.Dither.NONE)


def take(browser: Any, server: ServerProcess, table_id: str, token: str, size: dict[str, int], lang: str) -> bytes:
    context = browser.new_context(viewport=size, reduced_motion="reduce", locale="en-US", device_scale_factor=1)
    page = context.new_page()
    page.goto(server.url + "/")
    page.evaluate("([id, token, lang]) => { localStorage.setItem('stammtisch.lang', lang);"
                  " localStorage.setItem('stammtisch.seats', JSON.stringify({[id]: {token, seat: 0}})); }",
                  [table_id, token, lang])
    page.goto(f"{server.url}/play/{table_id}")
    poll(page, "(lang) => document.body.dataset.lang === lang && document.body.dataset.move !== undefined"
               " && !!document.querySelector('#connection.online') && !!document.querySelector('#chat-panel h2')"
               " && !!document.querySelector('#board [data-help]')", lang)
    page.add_style_tag(content=STILL)
    page.evaluate("() => document.fonts.ready.then(() => true)")
    page.evaluate("() => { document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0); }")
    page.wait_for_timeout(200)  # a frame for the layout after the style
    png: bytes = page.screenshot(animations="disabled", caret="hide")
    context.close()
    return png


def test_the_pages_look_as_their_references(tables: tuple[ServerProcess, dict[str, tuple[str, str]]],
                                            browser: Any) -> None:
    from PIL import Image

    server, found = tables
    REFERENCES.mkdir(exist_ok=True)
    changed: list[str] = []
    for game, (table_id, token) in found.items():
        for size_name, size in SIZES.items():
            for lang in LANGUAGES:
                name = f"{game}-{size_name}-{lang}"
                image = small(take(browser, server, table_id, token, size, lang))
                path = REFERENCES / f"{name}.png"
                if RENEW:
                    image.save(path, optimize=True)
                    continue
                if not path.exists():
                    changed.append(f"{name}: no reference")
                    keep(image, name)
                    continue
                reference = Image.open(path)
                share = difference(image, reference)
                if share > SHARE:
                    changed.append(f"{name}: {share:.2%} of the pixels differ")
                    keep(image, name, reference)
    assert not changed, ("the pages no longer look as their references (new images and differences in "
                         f"{ARTIFACTS}); if the change is meant, renew them with "
                         "STAMMTISCH_RENEW_SCREENSHOTS=1 .venv/bin/pytest tests/web/test_screenshots.py: "
                         + "; ".join(changed))


def keep(image: Any, name: str, reference: Any = None) -> None:
    from PIL import ImageChops

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    image.save(ARTIFACTS / f"screenshot-{name}.png")
    if reference is not None and reference.size == image.size:
        ImageChops.difference(image.convert("RGB"), reference.convert("RGB")).save(
            ARTIFACTS / f"screenshot-{name}-diff.png")


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
