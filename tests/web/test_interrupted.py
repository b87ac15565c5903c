"""A game interrupted by an upgrade (issue 16): the table page says so in the reader's language, with
the record to download and no board; the lobby lists it as interrupted."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, text

from stammtisch import i18n
from tests.server.helpers import Api, ServerProcess
from tests.web.browser import assert_accessible, shot, watch_errors

NOTICE = "This game was interrupted by an upgrade of the server."
STATUS = "interrupted by an upgrade"


def test_an_interrupted_game_is_shown_as_such_with_its_record(tmp_path: Path, browser: Any) -> None:
    server = ServerProcess(tmp_path).start()
    api = Api(server.url)
    try:
        table_id, _host, tokens = api.table("glueckauf", 2)
        rng = random.Random(16)
        for _round in range(4):
            for token in tokens.values():
                mine = api.view(table_id, token)
                if mine["legal"]:
                    api.act(table_id, token, rng.choice(mine["legal"]), mine["move_no"])
    finally:
        server.stop()
    engine = create_engine(f"sqlite:///{tmp_path / 'stammtisch.db'}")
    with engine.begin() as conn:  # played under rules this release no longer has
        conn.execute(text("UPDATE stammtisch_tables SET rules_version = 0 WHERE id = :id"), {"id": table_id})
    engine.dispose()
    server.start()
    page = browser.new_page()
    errors: list[str] = []
    watch_errors(page, errors)
    try:
        for lang in ("en", "de", "pl", "it", "ko"):
            page.goto(server.url + "/")
            page.evaluate("([id, kept, lang]) => { localStorage.setItem('stammtisch.lang', lang);"
                          " localStorage.setItem('stammtisch.seats', JSON.stringify({[id]: kept})); }",
                          [table_id, {"token": tokens[0], "seat": 0}, lang])
            page.goto(f"{server.url}/play/{table_id}")
            page.wait_for_function("() => document.body.dataset.status === 'interrupted'", timeout=30_000)
            with i18n.using_language(lang):
                notice, status = i18n._(NOTICE), i18n._(STATUS)
            page.wait_for_function("(text) => document.getElementById('board').innerText.includes(text)",
                                   arg=notice, timeout=10_000)
            assert "0" in page.inner_text("#board")  # the rules version it was played under
            assert page.inner_text("#turn-notice") == notice
            assert page.locator(f"a[href='/api/tables/{table_id}/record']").count() == 1
            shot(page, f"interrupted-{lang}")
            assert_accessible(page, f"an interrupted game ({lang})")
            page.goto(server.url + "/")
            page.wait_for_function("(text) => document.getElementById('mine')?.innerText.includes(text)",
                                   arg=status, timeout=30_000)
        assert not errors, errors
    finally:
        page.close()
        server.stop()
