"""Reference screenshots, shared by tests/web/test_screenshots.py (the tables of both games) and
tests/web/test_learn_screenshots.py (the guide's steps): a page taken still (no animation, transition or
caret), stored as a palette PNG in ``tests/web/screenshots/`` and compared with a small tolerance; with
``STAMMTISCH_RENEW_SCREENSHOTS=1`` the references are written anew instead (docs/web.md, "Reference
screenshots"). A failure leaves the new image and a picture of the differences in the artifacts folder."""

from __future__ import annotations

import io
import os
import random
from pathlib import Path
from typing import Any

from tests.server.helpers import Api, ServerProcess
from tests.web.browser import ARTIFACTS
from tests.web.test_table_usable import poll

REFERENCES = Path(__file__).parent / "screenshots"
RENEW = os.environ.get("STAMMTISCH_RENEW_SCREENSHOTS") == "1"
NAMES = ("Anna", "Ben", "Cleo")
# A pixel differs when a channel moved by more than CHANNEL; a page differs when more than SHARE of its
# pixels do (antialiasing may vary in the last bits; a moved panel or a new line changes far more).
CHANNEL = 48
SHARE = 0.002
STILL = """*, *::before, *::after { animation: none !important; transition: none !important;
  caret-color: transparent !important; scroll-behavior: auto !important; }"""


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


def take(browser: Any, server: ServerProcess, table_id: str, token: str, size: dict[str, int], lang: str,
         ready: str = "true") -> bytes:
    """Seat 0's page of the table, still, once it is drawn in ``lang`` and ``ready`` (a JS expression) holds."""
    context = browser.new_context(viewport=size, reduced_motion="reduce", locale="en-US", device_scale_factor=1)
    page = context.new_page()
    page.goto(server.url + "/")
    page.evaluate("([id, token, lang]) => { localStorage.setItem('stammtisch.lang', lang);"
                  " localStorage.setItem('stammtisch.seats', JSON.stringify({[id]: {token, seat: 0}})); }",
                  [table_id, token, lang])
    page.goto(f"{server.url}/play/{table_id}")
    poll(page, "(lang) => document.body.dataset.lang === lang && document.body.dataset.move !== undefined"
               " && !!document.querySelector('#connection.online') && !!document.querySelector('#chat-panel h2')"
               f" && !!document.querySelector('#board [data-help]') && ({ready})", lang)
    page.add_style_tag(content=STILL)
    page.evaluate("() => document.fonts.ready.then(() => true)")
    page.evaluate("() => { document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0); }")
    page.wait_for_timeout(200)  # a frame for the layout after the style
    png: bytes = page.screenshot(animations="disabled", caret="hide")
    context.close()
    return png


def compare(png: bytes, name: str) -> str | None:
    """Checks the screenshot against its reference ``name`` (or renews it): None, or how it differs (the
    new image and the differences are then kept in the artifacts folder)."""
    from PIL import Image

    image = small(png)
    path = REFERENCES / f"{name}.png"
    if RENEW:
        REFERENCES.mkdir(exist_ok=True)
        image.save(path, optimize=True)
        return None
    if not path.exists():
        keep(image, name)
        return f"{name}: no reference"
    reference = Image.open(path)
    share = difference(image, reference)
    if share > SHARE:
        keep(image, name, reference)
        return f"{name}: {share:.2%} of the pixels differ"
    return None


def failed(changed: list[str], test: str) -> str:
    return ("the pages no longer look as their references (new images and differences in "
            f"{ARTIFACTS}); if the change is meant, renew them with "
            f"STAMMTISCH_RENEW_SCREENSHOTS=1 .venv/bin/pytest {test}: " + "; ".join(changed))


def keep(image: Any, name: str, reference: Any = None) -> None:
    from PIL import ImageChops

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    image.save(ARTIFACTS / f"screenshot-{name}.png")
    if reference is not None and reference.size == image.size:
        ImageChops.difference(image.convert("RGB"), reference.convert("RGB")).save(
            ARTIFACTS / f"screenshot-{name}-diff.png")
