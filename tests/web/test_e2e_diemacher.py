"""Die Macher in a real browser (Chromium, headless) against a server started here.

- A whole 3-player game (4 elections) with one seat played through the page like a user, the
  other two by the server's bots, to the final table; every kind of decision occurs; the page is
  reloaded in the middle and goes on; the language is switched to Polish and back; a phone-sized
  screen shows the same game.
- Two humans in two browser contexts at one table (lobby → invite link → join), each seeing only
  their own secrets.
axe-core checks every state either test visits (issue 25): the lobby, the first decision and the final
table in the five languages, each round, after the reload, in Polish, on a phone, the waiting room, the
invited player's page and the draft.
Screenshots of key moments go to $PYTEST_ARTIFACTS or tests/web/artifacts/.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx
import pytest

from stammtisch import i18n
from tests.server.helpers import ServerProcess
from tests.web.browser import (
    assert_accessible,
    assert_accessible_in_every_language,
    choices,
    choose,
    seats_kept,
    shot,
    wait_rendered,
    wait_turn_or_end,
    watch_errors,
)

POLITICIAN_ACTIONS = {"double", "double_remove", "buyout", "others_trend", "trend", "votes", "base", "program",
                      "free_poll"}
# Every kind of decision the issue names, as the action kinds that show it.
REQUIRED = {
    "start bid": {"bid"},
    "program change": {"draw_and_take", "refresh_and_take"},
    "media": {"buy_media"},
    "rallies": {"rallies"},
    "politicians": {"place"},
    "paying politicians": {"pay"},
    "politician actions": POLITICIAN_ACTIONS,
    "media shift": {"shift"},
    "poll auction": {"poll_bid"},
    "publishing a poll": {"publish_poll"},
    "conversions": {"convert"},
    "donation": {"donation"},
}


class Player:
    """Chooses among the offered actions so that over a game every kind of decision occurs."""

    def __init__(self) -> None:
        self.done: dict[str, int] = {}

    def pick(self, offered: list[dict[str, Any]], money: int | None) -> dict[str, Any]:
        by_kind: dict[str, list[dict[str, Any]]] = {}
        for choice in offered:
            by_kind.setdefault(choice["action"][0], []).append(choice)
        seen = self.done

        def amounts(kind: str) -> list[dict[str, Any]]:
            return sorted(by_kind.get(kind, []), key=lambda c: c["action"][1])

        if "bid" in by_kind:  # a small sealed bid
            bids = amounts("bid")
            return bids[min(len(bids) - 1, 1 + seen.get("bid", 0) % 3)]
        if "poll_bid" in by_kind:  # win polls: bid up to a third of the money
            bids = amounts("poll_bid")
            limit = (money or 0) // 3
            affordable = [c for c in bids if c["action"][1] <= limit] or bids[:1]
            return affordable[-1] if seen.get("publish_poll", 0) < 2 else bids[0]
        order = ["publish_poll", "pay", *sorted(POLITICIAN_ACTIONS, key=lambda k: seen.get(k, 0)),
                 "draw_and_take", "refresh_and_take", "take", "swap", "keep_card", "place", "shift", "convert",
                 "buy_media", "coalition_partner", "coalition"]
        for kind in order:
            if kind not in by_kind:
                continue
            if kind in ("draw_and_take", "refresh_and_take") and seen.get(kind, 0) >= 2:
                continue
            if kind == "swap" and seen.get("swap", 0) >= 3:
                continue
            if kind == "buy_media" and seen.get("buy_media", 0) >= 4:
                continue
            if kind == "place":  # a politician rather than none
                placed = [c for c in by_kind[kind] if c["action"][2] is not None]
                if placed:
                    return placed[seen.get("place", 0) % len(placed)]
                continue
            return by_kind[kind][0]
        if "rallies" in by_kind:
            options = sorted(by_kind["rallies"], key=lambda c: c["action"][2])
            return options[min(len(options) - 1, 2)]
        if "donation" in by_kind:
            accept = [c for c in by_kind["donation"] if c["action"][2]]
            return (accept or by_kind["donation"])[0]
        for kind in ("swaps_done", "program_pass"):
            if kind in by_kind:
                return by_kind[kind][0]
        return offered[0]

    def note(self, choice: dict[str, Any]) -> None:
        kind = choice["action"][0]
        self.done[kind] = self.done.get(kind, 0) + 1


def my_money(page: Any) -> int | None:
    text = page.locator(".dm-private dd").first.text_content() or ""
    digits = re.sub(r"\D", "", text)
    return int(digits) if digits else None


def phase_names(lang: str) -> set[str]:
    from stammtisch.games.diemacher.text import PHASE_NAMES

    with i18n.using_language(lang):
        return {i18n._(name) for name in PHASE_NAMES.values()}


def test_a_whole_game_through_the_page(server: ServerProcess, browser: Any) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-US")
    page = context.new_page()
    errors: list[str] = []
    watch_errors(page, errors)
    page.goto(server.url + "/")
    page.get_by_label("Your name", exact=True).fill("Anna")
    page.get_by_label("Players", exact=True).select_option("3")
    shot(page, "dm-01-lobby")
    assert_accessible(page, "the lobby, a Die Macher table chosen")
    page.get_by_role("button", name="Create the table").click()
    page.wait_for_url(re.compile(r"/play/"))
    wait_rendered(page)
    table_id = page.url.rstrip("/").split("/")[-1]

    player = Player()
    moves = 0
    reloaded = switched = phone = False
    rounds_shot: set[int] = set()
    while True:
        wait_turn_or_end(page)
        if page.evaluate("() => document.body.dataset.status") == "finished":
            break
        offered = choices(page)
        assert offered, "my turn, but the decision panel offers nothing"
        if moves == 0:
            shot(page, "dm-02-first-decision")
            assert_accessible_in_every_language(page, "Die Macher's first decision")
        round_text = page.locator(".dm-phases .round strong").text_content() or ""
        found = re.search(r"\d+", round_text)
        number = int(found.group()) if found else 0
        if number and number not in rounds_shot:
            rounds_shot.add(number)
            shot(page, f"dm-03-round-{number}")
            assert_accessible(page, f"Die Macher, round {number}")
        choice = player.pick(offered, my_money(page))
        choose(page, choice)
        player.note(choice)
        moves += 1
        if moves == 40 and not reloaded:  # reload in the middle: the game goes on where it was
            log_before = page.locator("#log-panel li").count()
            page.reload()
            wait_rendered(page)
            page.wait_for_function("(n) => document.querySelectorAll('#log-panel li').length >= n", arg=log_before)
            assert page.locator(".dm-state").count() >= 1
            reloaded = True
            shot(page, "dm-04-after-reload")
            assert_accessible(page, "Die Macher after a reload")
        if moves == 60 and not switched:
            switch_language(page)
            switched = True
        if moves == 80 and not phone:
            phone_page = context.new_page()
            phone_page.set_viewport_size({"width": 390, "height": 844})
            phone_page.goto(f"{server.url}/play/{table_id}")
            wait_rendered(phone_page)
            shot(phone_page, "dm-05-phone")
            assert_accessible(phone_page, "Die Macher on a phone")
            width = phone_page.evaluate("() => document.documentElement.scrollWidth")
            assert width <= 400, f"the phone layout is {width} px wide"
            phone_page.close()
            phone = True
        assert moves < 1500, "the game does not end"

    wait_rendered(page)
    final = page.locator(".dm-final table")
    final.wait_for()
    shot(page, "dm-06-final")
    assert_accessible_in_every_language(page, "Die Macher's final table")
    page.set_viewport_size({"width": 390, "height": 844})
    assert_accessible(page, "Die Macher's final table on a phone")
    page.set_viewport_size({"width": 1280, "height": 800})
    caption = final.locator("caption").text_content() or ""
    assert "Final scores" in caption
    assert final.locator("tbody tr").count() == 3
    assert page.get_by_role("heading", name="The game is over.").count() == 1
    log = page.locator("#log-panel li .log-text").all_inner_texts()
    assert len(log) > moves and any(line.startswith("Election 4 in") for line in log), len(log)
    assert reloaded and switched and phone
    missing = [name for name, kinds in REQUIRED.items() if not kinds & set(player.done)]
    assert not missing, f"never decided: {missing}; decided: {player.done}"
    info = httpx.get(f"{server.url}/api/tables/{table_id}").json()
    assert info["status"] == "finished"
    assert not [e for e in errors if "WebSocket" not in e], errors
    context.close()


def switch_language(page: Any) -> None:
    """Polish phase names and sentences, then back to English."""
    page.get_by_label("Language").select_option("pl")
    page.wait_for_function("() => document.body.dataset.lang === 'pl'")
    page.wait_for_function("() => document.documentElement.lang === 'pl'")
    track = page.locator(".dm-phases").inner_text()
    polish = phase_names("pl")
    assert any(name.split(" ", 1)[-1] in track for name in polish), track
    with i18n.using_language("pl"):
        your_turn = i18n._("It is your turn.")
        log_title = i18n._("Event log")
    assert page.get_by_role("heading", name=log_title).count() == 1
    page.wait_for_function("(text) => document.body.innerText.includes(text)", arg=your_turn)
    shot(page, "dm-07-polish")
    assert_accessible(page, "Die Macher in Polish")
    page.get_by_label("Język").select_option("en")
    page.wait_for_function("() => document.body.dataset.lang === 'en'")
    wait_turn_or_end(page)


def test_two_humans_see_only_their_own_secrets(server: ServerProcess, browser: Any) -> None:
    host = browser.new_context(viewport={"width": 1280, "height": 800}, locale="de-DE")
    guest = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-US")
    anna, ben = host.new_page(), guest.new_page()
    errors: list[str] = []
    watch_errors(anna, errors)
    watch_errors(ben, errors)
    anna.goto(server.url + "/")
    wait_lobby = anna.get_by_role("button", name=re.compile("Tisch anlegen"))
    wait_lobby.wait_for()  # the browser asks for German: the lobby is German
    anna.locator("#language").select_option("en")
    anna.get_by_role("button", name="Create the table").wait_for()
    anna.get_by_label("Your name", exact=True).fill("Anna")
    anna.get_by_label("Seat 2").select_option("invite")
    anna.get_by_label("Seat 3").select_option("bot:heuristic")
    anna.get_by_role("button", name="Create the table").click()
    anna.wait_for_url(re.compile(r"/play/"))
    first_link = anna.get_by_role("textbox", name="Invite link").input_value()
    # issue #9 Tokens: the invitation rides in the fragment, which no browser sends to a server
    assert first_link.startswith(server.url + "/play/") and "#seat=1&invite=" in first_link and "?" not in first_link
    # A new link replaces the first, which no longer claims the seat.
    anna.get_by_role("button", name="New invite link").click()
    anna.wait_for_function("(old) => document.querySelector('.copy-text').value !== old", arg=first_link)
    link = anna.get_by_role("textbox", name="Invite link").input_value()
    table_id = link.split("/play/")[1].split("#")[0]
    stale = httpx.post(f"{server.url}/api/tables/{table_id}/seats/1", json={"name": "Eve"},
                       headers={"authorization": f"Bearer {first_link.split('invite=')[1]}"})
    assert stale.status_code == 403
    shot(anna, "dm-10-waiting-room")
    assert_accessible(anna, "the host's waiting room")

    ben.goto(link)
    ben.get_by_label("Your name", exact=True).fill("Ben")
    assert "invite" not in ben.url  # taken out of the address bar (and history) at once
    assert_accessible(ben, "the invited player's waiting room")
    ben.reload()  # the invitation is kept in this browser until claimed
    ben.get_by_label("Your name", exact=True).fill("Ben")
    ben.get_by_role("button", name="Join the table").click()
    ben.wait_for_function("() => document.body.innerText.includes('(you)')")
    ben_token = seats_kept(ben)[table_id]["token"]
    assert ben_token not in (None, link.split("invite=")[1])  # a fresh seat token, not the invitation
    ben.goto(server.url + "/")
    ben.goto(link)  # opening the link again: still Ben's seat
    ben.wait_for_function("() => document.body.innerText.includes('(you)')")
    assert "invite" not in ben.url and seats_kept(ben)[table_id]["token"] == ben_token
    assert not seats_kept(ben)[table_id].get("invitation")
    anna.get_by_role("button", name="Start the game").wait_for()
    anna.wait_for_function("() => document.body.innerText.includes('Ben')")
    anna.get_by_role("button", name="Start the game").click()

    for page in (anna, ben):
        wait_turn_or_end(page)
    # Both draft in secret; each page shows its own draft hand and never the other's.
    hands = {}
    for name, page in (("anna", anna), ("ben", ben)):
        log = page.locator("#log-panel li .log-text").all_inner_texts()
        hands[name] = [t for t in log if t.startswith("Your draft hand")]
        assert hands[name], f"{name} sees no draft hand"
    assert hands["anna"] != hands["ben"]
    picks, rounds = 0, 0
    while picks < 6:
        rounds += 1
        assert rounds < 600, "the draft does not go on"  # the whole draft and a little more, both playing
        for page in (anna, ben):
            if page.evaluate("() => document.body.dataset.mine") == "1":
                offered = choices(page)
                choose(page, offered[0])
                picks += 1
        anna.wait_for_timeout(100)
    tokens = {name: seats_kept(page)[table_id]["token"] for name, page in (("anna", anna), ("ben", ben))}
    for me, other in (("anna", "ben"), ("ben", "anna")):
        page = anna if me == "anna" else ben
        text = page.locator("body").inner_text()
        for line in hands[other]:
            assert line not in text, f"{me} sees {other}'s draft hand"
        other_view = httpx.get(f"{server.url}/api/tables/{table_id}/view",
                               headers={"authorization": f"Bearer {tokens[other]}"}).json()["view"]
        other_seat = other_view["seat"]
        row = page.locator(".dm-party-table tbody tr:not(.supply-row)").nth(other_seat)
        assert row.locator("td").nth(2).inner_text().strip() == "?", f"{me} sees {other}'s money"
        assert page.locator(".dm-private").count() == 1
        assert "Anna" in text and "Ben" in text
    shot(anna, "dm-11-two-humans-anna")
    shot(ben, "dm-12-two-humans-ben")
    assert_accessible(anna, "the draft, the host's page")
    assert_accessible(ben, "the draft, the invited player's page")
    assert not [e for e in errors if "WebSocket" not in e], errors
    host.close()
    guest.close()


def test_artifacts_are_pictures() -> None:
    from tests.web.browser import ARTIFACTS

    pictures = list(Path(ARTIFACTS).glob("dm-*.png"))
    if not pictures:
        pytest.skip("no browser run")
    assert all(p.stat().st_size > 1000 for p in pictures)
