"""The browser's texts: every ``t("…")`` of a script is listed in ``stammtisch.web.strings`` (and so
extracted into the catalogs and served translated)."""

from __future__ import annotations

import re
from importlib import resources

import pytest

from stammtisch.registry import games
from stammtisch.web.strings import CHAT, FRAME, GUIDE, LOBBY, MY_GAMES, REPLAY, TABLE_LOG, ZOOM, all_texts

STATIC = resources.files("stammtisch.web") / "static"
CALL = re.compile(r"""\bt\(\s*(["'])((?:(?!\1)[^\\]|\\.)*)\1""")
# Stammtisch's scripts, and the browser modules of games from other distributions (GameSpec.browser_files)
FOLDERS = [STATIC, *(spec.static_folder() for spec in games().values() if spec.browser_files)]
FOLDER_OF = {p.name: folder for folder in FOLDERS for p in folder.iterdir() if p.name.endswith(".js")}
SCRIPTS = sorted(FOLDER_OF)
# The frame's parts: modules of the table page that app.js imports (its texts are the FRAME's)
FRAME_PARTS = ["tablepage.js", "decision.js", "sealed.js", "seats.js", "notices.js", "waiting.js"]


def texts_of(script: str) -> list[str]:
    source = (FOLDER_OF[script] / script).read_text(encoding="utf-8")
    return [m.group(2).replace('\\"', '"').replace("\\'", "'") for m in CALL.finditer(source)]


def section_of(script: str) -> tuple[str, ...]:
    """app.js (and its parts, FRAME_PARTS) and common.js show the FRAME, lobby.js the LOBBY, mygames.js
    MY_GAMES, chat.js CHAT, tablelog.js TABLE_LOG, replay.js REPLAY, zoom.js ZOOM and guide.js GUIDE, with
    texts of the others; a game's browser module (and its parts, "<module>-<part>.js") lists its texts in its
    own folder (GameSpec.browser_texts)."""
    frame = {"app.js": FRAME + REPLAY, "common.js": FRAME, "lobby.js": LOBBY + FRAME + GUIDE, "guide.js": GUIDE,
             "mygames.js": MY_GAMES + LOBBY + FRAME, "chat.js": CHAT + FRAME, "tablelog.js": TABLE_LOG + FRAME,
             "highlight.js": (), "replay.js": REPLAY, "zoom.js": ZOOM, **dict.fromkeys(FRAME_PARTS, FRAME)}
    modules = {spec.browser: spec.browser_strings() for spec in games().values()}
    part_of = [texts for module, texts in modules.items() if script.startswith(module.removesuffix(".js") + "-")]
    return part_of[0] if part_of else {**frame, **modules}[script]


@pytest.mark.parametrize("script", SCRIPTS)
def test_every_text_of_a_script_is_listed(script: str) -> None:
    listed = set(section_of(script))
    missing = [text for text in texts_of(script) if text not in listed]
    assert not missing, f"{script}: add these to its list of texts: {missing}"
    assert set(section_of(script)) <= set(all_texts())  # and so served and extracted


def test_the_frame_and_lobby_have_texts() -> None:
    assert "app.js" in SCRIPTS and "lobby.js" in SCRIPTS
    assert "It is your turn." in texts_of("app.js")


def test_every_registered_game_has_its_browser_module_and_texts() -> None:
    for spec in games().values():
        assert spec.browser in SCRIPTS and spec.browser_strings(), spec.name


@pytest.mark.parametrize("script", ["app.js", *FRAME_PARTS, "common.js", "lobby.js", "mygames.js", "chat.js",
                                    "tablelog.js", "highlight.js", "replay.js", "zoom.js"])
def test_the_frame_names_no_game(script: str) -> None:
    """issue #10: a game is its folder plus its browser module; the frame learns titles and modules
    from the registry (/api/games), so it names no game."""
    source = (STATIC / script).read_text(encoding="utf-8")
    for spec in games().values():
        for name in (spec.name, spec.title, spec.browser):
            assert name not in source, (script, name)
