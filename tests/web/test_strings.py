"""The browser's texts: every ``t("…")`` of a script is listed in ``stammtisch.web.strings`` (and so
extracted into the catalogs and served translated)."""

from __future__ import annotations

import re
from importlib import resources

import pytest

from stammtisch.web import strings
from stammtisch.web.strings import all_texts

STATIC = resources.files("stammtisch.web") / "static"
CALL = re.compile(r"""\bt\(\s*(["'])((?:(?!\1)[^\\]|\\.)*)\1""")
SCRIPTS = sorted(p.name for p in STATIC.iterdir() if p.name.endswith(".js"))


def texts_of(script: str) -> list[str]:
    source = (STATIC / script).read_text(encoding="utf-8")
    return [m.group(2).replace('\\"', '"').replace("\\'", "'") for m in CALL.finditer(source)]


def section_of(script: str) -> str:
    """app.js and common.js are the FRAME; any other script has the section named after it."""
    stem = script.removesuffix(".js")
    return "FRAME" if stem in ("app", "common") else stem.upper()


@pytest.mark.parametrize("script", SCRIPTS)
def test_every_text_of_a_script_is_listed(script: str) -> None:
    if not hasattr(strings, section_of(script)):  # a board still being written: checked once it has its section
        pytest.skip(f"strings.py has no {section_of(script)} section yet")
    listed = set(all_texts())
    missing = [text for text in texts_of(script) if text not in listed]
    assert not missing, f"{script}: add these to src/stammtisch/web/strings.py: {missing}"


def test_the_frame_and_lobby_have_texts() -> None:
    assert "app.js" in SCRIPTS and "lobby.js" in SCRIPTS
    assert "It is your turn." in texts_of("app.js")
