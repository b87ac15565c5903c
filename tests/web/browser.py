"""Helpers of the end-to-end tests: a server process, Debian's Chromium driven by Playwright, artifacts, and
axe-core's check of every state a test visits (``assert_accessible``).

Never ``playwright install``: the system Chromium is launched with ``executable_path``.  Without
``/usr/bin/chromium`` the tests skip, except in CI (``CI`` set), where ``.ci/run`` installs it.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
ARTIFACTS = Path(os.environ.get("PYTEST_ARTIFACTS") or Path(__file__).parent / "artifacts")
IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")
LANGUAGES = ("en", "de", "pl", "it", "ko")

# axe-core, vendored for the tests only (vendor/README.md): evaluated into the page under test through the
# browser's debugging protocol, which the page's Content-Security-Policy does not govern; never served.
AXE = (Path(__file__).parent / "vendor" / "axe.min.js").read_text(encoding="utf-8")
# resultTypes: every violation with all its nodes, as without it; only the passes, the incomplete and the
# inapplicable results (which no test reads) are cut to one node each, which spares building their selectors.
AXE_RUN = """async () => (await axe.run(document, {resultTypes: ['violations']})).violations.flatMap((v) =>
  v.nodes.map((n) => ({rule: v.id, target: n.target.join(' '), html: n.html.slice(0, 160),
                       summary: n.failureSummary})))"""


def need_chromium() -> None:
    if CHROMIUM.exists():
        return
    if IN_CI:
        pytest.fail("/usr/bin/chromium is missing: .ci/run installs it (apt-get install chromium)")
    pytest.skip("no /usr/bin/chromium (apt-get install chromium)")


class StillChromium:
    """The launched browser, whose pages prefer reduced motion unless a test asks otherwise: the pages'
    reduced-motion path (no highlight pulse after a move, app.css) spares the CPU an animation that software
    rendering redraws at every frame after every move, which made each decision of a whole game about a
    fifth slower.  A test of the motion itself asks for it (``page.emulate_media(reduced_motion=...)``, as
    tests/web/test_what_happened.py does, or ``reduced_motion=`` here)."""

    def __init__(self, browser: Any) -> None:
        self.browser = browser

    def new_context(self, **options: Any) -> Any:
        return self.browser.new_context(**{"reduced_motion": "reduce", **options})

    def new_page(self, **options: Any) -> Any:
        return self.browser.new_page(**{"reduced_motion": "reduce", **options})

    def __getattr__(self, name: str) -> Any:
        return getattr(self.browser, name)


def launch(playwright: Any) -> Any:
    """Headless Chromium (pages preferring reduced motion: ``StillChromium``); Playwright gives every launch a
    fresh temporary user-data-dir."""
    return StillChromium(playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS, headless=True))


def shot(page: Any, name: str) -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def axe_violations(page: Any) -> list[dict[str, str]]:
    """What axe-core finds on the page as it is now: one entry per rule and node, none excluded."""
    if not page.evaluate("() => typeof axe === 'object'"):
        page.evaluate(AXE + "\n;undefined")
    found: list[dict[str, str]] = page.evaluate(AXE_RUN)
    return found


def assert_accessible(page: Any, where: str) -> None:
    """issue 25 "Done when": axe-core reports no violation at a state an end-to-end test visits."""
    found = axe_violations(page)
    assert not found, f"axe-core at {where}: " + "; ".join(
        f"{v['rule']} at {v['target']}: {v['html']}" for v in found[:8]) + (f" (+{len(found) - 8} more)"
                                                                           if len(found) > 8 else "")


def show_in(page: Any, lang: str) -> None:
    """Switch the page's language with its own switch and wait until the page is drawn in it (a table page
    marks its body once the server's texts in that language are drawn)."""
    page.select_option("#language", lang)
    page.wait_for_function("(lang) => document.documentElement.lang === lang"
                           " && [undefined, lang].includes(document.body.dataset.lang)", arg=lang, timeout=60_000)


def assert_accessible_in_every_language(page: Any, where: str) -> None:
    """axe-core at this state in each of the five languages, switched on the page; then its language again."""
    first = page.evaluate("() => document.documentElement.lang")
    for lang in sorted(LANGUAGES, key=lambda code: code != first):
        if lang != first:
            show_in(page, lang)
        assert_accessible(page, f"{where} ({lang})")
    show_in(page, first)


def watch_errors(page: Any, errors: list[str]) -> None:
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" and "favicon" not in m.text else None)


def wait_rendered(page: Any, timeout: float = 60_000) -> None:
    page.wait_for_function("() => document.body.dataset.move !== undefined", timeout=timeout)


def wait_turn_or_end(page: Any, timeout: float = 90_000) -> None:
    page.wait_for_function("() => document.body.dataset.mine === '1' || document.body.dataset.status === 'finished'",
                           timeout=timeout)


def seats_kept(page: Any) -> dict[str, Any]:
    """The tokens this browser keeps (localStorage), by table."""
    data: dict[str, Any] = json.loads(page.evaluate("() => localStorage.getItem('stammtisch.seats') || '{}'"))
    return data


def choices(page: Any) -> list[dict[str, Any]]:
    """Every legal action the decision panel offers: {action, label, kind: 'button'|'option', select}."""
    found: list[dict[str, Any]] = page.evaluate("""() => {
      const out = [];
      for (const b of document.querySelectorAll('#decision button.choice')) {
        if (!b.disabled) out.push({action: JSON.parse(b.dataset.action), label: b.textContent, kind: 'button'});
      }
      for (const s of document.querySelectorAll('#decision select')) {
        if (s.disabled) continue;
        for (const o of s.options) out.push({action: JSON.parse(o.dataset.action), label: o.textContent,
                                             kind: 'option', select: s.id, value: o.value});
      }
      return out;
    }""")
    return found


def choose(page: Any, choice: dict[str, Any]) -> None:
    """Take one choice like a user: click the button by its accessible name, or pick the option in its
    list box and press the list's confirm button."""
    before = page.evaluate("() => document.body.dataset.move")
    if choice["kind"] == "button":
        buttons = page.locator("#decision").get_by_role("button", name=choice["label"], exact=True)
        if buttons.count() == 1:
            buttons.click()
        else:
            key = json.dumps(choice["action"], separators=(",", ":"))  # as the page writes it (JSON.stringify)
            page.locator(f"#decision button.choice[data-action='{key}']").click()
    else:
        select = page.locator(f"#{choice['select']}")
        select.select_option(value=choice["value"])
        select.locator("xpath=ancestor::form").get_by_role("button").click()
    page.wait_for_function("(before) => document.body.dataset.move !== before", arg=before, timeout=30_000)
