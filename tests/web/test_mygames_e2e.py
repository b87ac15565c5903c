"""My games and rematches in the browser (issue 15, "Done when": "my games" ordering; rematch creates the
new table with the same seats): the page lists the key's tables with the one waiting for the player
first and its time left; the key entered in a second browser lists the same tables and plays the seat;
a finished table's rematch has the same seats, options and pace, and the other player joins it.  Issue 25:
each game's round and last move, a finished game's result, the rematch linked both ways, the invite links
where a seat waits; axe-clean in five languages at desktop and phone size."""

from __future__ import annotations

import re
import time
from typing import Any

from tests.server.helpers import Api, ServerProcess, finished
from tests.web.browser import LANGUAGES, assert_accessible, seats_kept, shot, watch_errors
from tests.web.test_table_usable import DESKTOP, PHONE

WAIT_MS = 60_000
PACE = {"mode": "turn", "per_move": 86400}


def new_page(browser: Any) -> tuple[Any, list[str]]:
    page = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-US").new_page()
    errors: list[str] = []
    watch_errors(page, errors)
    return page, errors


def two_people(api: Api, options: dict[str, Any] | None = None) -> tuple[str, str, dict[int, str]]:
    """A started two-player Glück Auf table of two people, taken through the API."""
    created = api.ok("POST", "/api/tables", json={"game": "glueckauf", "players": 2, "options": options or {},
                                                  "pace": PACE, "standin": "random"})
    table_id, host = created["table_id"], created["host_token"]
    tokens = {seat: api.join(table_id, seat, f"Friend {seat + 1}") for seat in range(2)}
    api.start(table_id, host)
    return table_id, host, tokens


def listed(page: Any, count: int) -> list[str]:
    page.wait_for_function("(n) => document.querySelectorAll('.my-game').length === n", arg=count, timeout=WAIT_MS)
    ids: list[str] = page.eval_on_selector_all(".my-game", "(items) => items.map((i) => i.dataset.table)")
    return ids


def test_my_games_puts_my_turn_first_and_the_key_brings_them_to_another_browser(server: ServerProcess,
                                                                                browser: Any) -> None:
    page, errors = new_page(browser)
    page.goto(server.url + "/")
    page.get_by_role("link", name="My games", exact=True).click()  # from the top bar
    page.wait_for_selector("#games .hint", timeout=WAIT_MS)
    key = page.evaluate("() => localStorage.getItem('stammtisch.key')")
    assert key and page.get_by_label("Your key", exact=True).input_value() == key  # shown once, to be copied

    api = Api(server.url)
    mine_first, _h, tokens = two_people(api)  # made first: newest-first would list it second
    deciding = api.ok("GET", f"/api/tables/{mine_first}")["to_act"][0]
    api.ok("POST", f"/api/tables/{mine_first}/key", tokens[deciding], json={"key": key})
    others_turn, _h2, tokens2 = two_people(api)
    idle = 1 - api.ok("GET", f"/api/tables/{others_turn}")["to_act"][0]
    api.ok("POST", f"/api/tables/{others_turn}/key", tokens2[idle], json={"key": key})

    page.reload()
    assert listed(page, 2) == [mine_first, others_turn]
    first, second = page.locator(".my-game").all()
    assert "It is your turn." in first.inner_text()
    page.wait_for_function("() => /Time left: 23:59:\\d\\d/.test(document.querySelector('.my-game .time-left')"
                           ".textContent)", timeout=WAIT_MS)  # 24 hours per move, counting down
    assert f"Waiting for Friend {1 - idle + 1}." in second.inner_text() and "Time left" not in second.inner_text()
    assert page.get_by_label("Your key", exact=True).count() == 0  # not shown again unasked

    other, other_errors = new_page(browser)
    other.goto(server.url + "/my-games")
    other.wait_for_selector("#games .hint", timeout=WAIT_MS)  # a key of its own, no games
    other.get_by_label("A key from another device").fill(key)
    other.get_by_role("button", name="Use this key").click()
    assert listed(other, 2) == [mine_first, others_turn]
    other.locator(".my-game a").first.click()  # the key's seat, played from the second browser
    other.wait_for_function("() => document.body.dataset.mine === '1'", timeout=WAIT_MS)
    assert seats_kept(other)[mine_first]["seat"] == deciding
    assert not errors and not other_errors, errors + other_errors


def test_a_rematch_has_the_same_seats_options_and_pace_and_the_other_player_joins_it(server: ServerProcess,
                                                                                     browser: Any) -> None:
    api = Api(server.url)
    created = api.ok("POST", "/api/tables", json={"game": "glueckauf", "players": 2, "options": {"hints": True},
                                                  "pace": PACE, "standin": "random"})
    table_id, host = created["table_id"], created["host_token"]
    invites = api.ok("POST", f"/api/tables/{table_id}/invites", host, json={})["invites"]
    pages = []
    for invite in invites:
        page, errors = new_page(browser)
        page.goto(server.url + "/")
        page.evaluate("(name) => localStorage.setItem('stammtisch.name', name)", f"Guest {invite['seat'] + 1}")
        page.goto(server.url + invite["url"])
        page.wait_for_selector("#seats h2", timeout=WAIT_MS)
        pages.append((page, errors))
    api.start(table_id, host)
    tokens = []
    for page, _errors in pages:  # each claims its invitation once the game runs
        page.wait_for_function("(id) => (JSON.parse(localStorage.getItem('stammtisch.seats') || '{}')[id] || {})"
                               ".token", arg=table_id, timeout=WAIT_MS)
        tokens.append(seats_kept(page)[table_id]["token"])
    for page, _errors in pages:  # away from the table while random stand-ins play both seats to the end
        page.goto(server.url + "/")
    for token in tokens:
        api.ok("POST", f"/api/tables/{table_id}/away", token, json={})
    deadline = time.monotonic() + 120
    while api.ok("GET", f"/api/tables/{table_id}")["status"] != "finished" and time.monotonic() < deadline:
        time.sleep(0.1)
    (first, first_errors), (second, second_errors) = pages
    for page, _errors in pages:
        page.goto(f"{server.url}/play/{table_id}")
        page.wait_for_function("() => document.body.dataset.status === 'finished'", timeout=WAIT_MS)

    first.get_by_role("button", name="Rematch", exact=True).click()
    first.wait_for_url(lambda url: table_id not in url, timeout=WAIT_MS)
    new_id = first.url.rsplit("/", 1)[1]
    second.get_by_role("button", name="Join the rematch").click()  # offered live on the final table
    second.wait_for_url(f"**/play/{new_id}", timeout=WAIT_MS)
    for page, _errors in pages:
        page.wait_for_function("() => document.body.dataset.status === 'running'", timeout=WAIT_MS)

    old, new = api.ok("GET", f"/api/tables/{table_id}"), api.ok("GET", f"/api/tables/{new_id}")
    assert old["rematch"] == new_id and new["rematch_of"] == table_id
    for same in ("game", "players", "options", "pace", "standin_kind"):
        assert new[same] == old[same], same
    assert [(s["seat"], s["kind"], s["name"]) for s in new["seats"]] == [(0, "human", "Guest 1"),
                                                                         (1, "human", "Guest 2")]
    assert seats_kept(first)[new_id]["seat"] == 0 and seats_kept(second)[new_id]["seat"] == 1
    assert not first_errors and not second_errors, first_errors + second_errors


def game_over(api: Api) -> tuple[str, dict[int, str]]:
    """A two-player Glück Auf game of two people, played to its end by stand-ins."""
    table_id, _host, tokens = two_people(api)
    finished(api, tokens, table_id)
    return table_id, tokens


def entry(page: Any, table_id: str) -> Any:
    return page.locator(f".my-game[data-table='{table_id}']")


def test_my_games_tells_where_each_game_stands(server: ServerProcess, browser: Any) -> None:
    """issue 25 "My games that tells you something": round or progress, time since the last move, the result
    of finished games, the rematch linked to its original, "share this invite link" where a seat waits."""
    page, errors = new_page(browser)
    page.goto(server.url + "/my-games")
    page.wait_for_selector("#games .hint", timeout=WAIT_MS)
    key = page.evaluate("() => localStorage.getItem('stammtisch.key')")
    api = Api(server.url)
    bind = lambda table_id, token: api.ok("POST", f"/api/tables/{table_id}/key", token, json={"key": key})  # noqa: E731

    running, _h, tokens = two_people(api)
    bind(running, tokens[0])
    finished, old_tokens = game_over(api)
    bind(finished, old_tokens[0])
    rematch = api.ok("POST", f"/api/tables/{finished}/rematch", old_tokens[1], json={})["table_id"]
    waiting, host = api.create("glueckauf", 3)  # seat 2 invited by this browser's link, seat 3 open to anyone
    bind(waiting, api.join(waiting, 0, "Anna"))
    link = api.ok("POST", f"/api/tables/{waiting}/invites", host, json={"seats": [1]})["invites"][0]["url"]
    lost, lost_host = api.create("glueckauf", 2)  # an invitation this browser no longer holds
    bind(lost, api.join(lost, 0, "Anna"))
    old_invite = api.ok("POST", f"/api/tables/{lost}/invites", lost_host, json={"seats": [1]})["invites"][0]["token"]
    page.evaluate("(kept) => localStorage.setItem('stammtisch.seats', JSON.stringify(kept))",
                  {waiting: {"host": host, "seat": 0, "keyed": True, "invites": {"1": server.url + link}},
                   lost: {"host": lost_host, "seat": 0, "keyed": True}})
    page.reload()
    listed(page, 5)

    shift = entry(page, running).locator(".progress").inner_text()
    assert re.fullmatch(r"Shift 1 of 3 · Last move (now|\d+ seconds? ago|1 minute ago)", shift), shift
    assert re.fullmatch(r"Created (now|\d+ seconds? ago|1 minute ago)", entry(page, waiting).locator(".progress")
                        .inner_text())

    final = api.ok("GET", f"/api/tables/{finished}/view", old_tokens[0])["view"]["final"]
    scores, won = final["scores"], 0 in final["winners"]
    result = entry(page, finished).locator(".result").inner_text()
    assert result.startswith(f"You won with a score of {scores[0]}." if won else
                             f"Friend 2 won; your score: {scores[0]}.")
    ranked = sorted((0, 1), key=lambda s: (-scores[s], s not in final["winners"], s))  # a tie: its winner first
    assert result.endswith("Final scores: " + ", ".join(f"Friend {s + 1} {scores[s]}" for s in ranked)), result
    assert entry(page, finished).get_by_role("link", name="Its rematch").get_attribute("href") == f"/play/{rematch}"
    assert "A rematch waits for you to join." in entry(page, rematch).inner_text()
    assert entry(page, rematch).locator(".waiting").count() == 0  # the seat kept for me waits for nobody else
    assert "Player 2" not in entry(page, waiting).inner_text()  # nobody has taken the invited seat yet
    assert entry(page, rematch).get_by_role("link", name="The game this is a rematch of").get_attribute(
        "href") == f"/play/{finished}"

    assert entry(page, waiting).get_by_label("Invite link for seat 2", exact=True).input_value() == server.url + link
    table_link = entry(page, waiting).get_by_label("Link to this table (to watch or take a free seat)", exact=True)
    assert table_link.input_value() == f"{server.url}/play/{waiting}"
    entry(page, lost).get_by_role("button", name="New invite link for seat 2").click()
    fresh = entry(page, lost).get_by_label("Invite link for seat 2", exact=True)
    fresh.wait_for(timeout=WAIT_MS)
    assert fresh.input_value().startswith(f"{server.url}/play/{lost}#seat=1&invite=")
    assert seats_kept(page)[lost]["invites"]["1"] == fresh.input_value()  # kept for the waiting room too
    refused = api.request("POST", f"/api/tables/{lost}/seats/1", old_invite, json={"name": "Eve"})
    assert refused.status_code == 403  # the new link replaced the old one
    for lang in LANGUAGES:
        for viewport in (DESKTOP, PHONE):
            page.set_viewport_size(viewport)
            page.select_option("#language", lang)
            page.wait_for_function("(lang) => document.documentElement.lang === lang", arg=lang, timeout=WAIT_MS)
            listed(page, 5)
            assert page.evaluate("() => document.documentElement.scrollWidth") <= viewport["width"], (lang, viewport)
            assert_accessible(page, f"My games with five tables ({lang}, {viewport})")
            shot(page, f"mygames-{lang}-{viewport['width']}")
    assert not errors, errors


def test_my_games_with_the_key_shown_has_no_axe_violations(server: ServerProcess, browser: Any) -> None:
    api = Api(server.url)
    for viewport, lang in ((DESKTOP, "en"), (PHONE, "ko")):
        page = browser.new_context(viewport=viewport).new_page()
        page.goto(server.url + "/")
        page.evaluate("(lang) => localStorage.setItem('stammtisch.lang', lang)", lang)
        page.goto(server.url + "/my-games")
        page.wait_for_selector("#games .hint", timeout=WAIT_MS)
        key = page.evaluate("() => localStorage.getItem('stammtisch.key')")
        table_id, _host, tokens = two_people(api)
        api.ok("POST", f"/api/tables/{table_id}/key", tokens[0], json={"key": key})
        page.evaluate("() => localStorage.setItem('stammtisch.key.new', '1')")  # the key shown, as when new
        page.reload()
        assert listed(page, 1) == [table_id]
        page.wait_for_selector(".copy-text", timeout=WAIT_MS)
        assert_accessible(page, f"My games with the key shown ({lang}, {viewport})")
        page.context.close()
