"""Helpers of the end-to-end tests: a server process, Debian's Chromium driven by Playwright, artifacts.

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


def need_chromium() -> None:
    if CHROMIUM.exists():
        return
    if IN_CI:
        pytest.fail("/usr/bin/chromium is missing: .ci/run installs it (apt-get install chromium)")
    pytest.skip("no /usr/bin/chromium (apt-get install chromium)")


def launch(playwright: Any) -> Any:
    """Headless Chromium; Playwright gives every launch a fresh temporary user-data-dir."""
    return playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS, headless=True)


def shot(page: Any, name: str) -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


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
