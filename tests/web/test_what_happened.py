"""Issue #14, "See what just happened" and "A log with colour and icons": the pieces a move changed are
highlighted; an election, a published poll and a shift scoring open a result panel built from their
events (die-macher.md §5 9b elections, §5 8 polls; glueck-auf.md shift scoring), reachable again from
the log; the log is coloured, has icons and filters to "my moves" and "this round"; the panels are
axe-clean and reachable at desktop and phone width."""

from __future__ import annotations

import random
from typing import Any

from tests.server.helpers import Api, ServerProcess, Ws
from tests.web.browser import wait_rendered
from tests.web.test_accessibility import AXE, RUN
from tests.web.test_table_usable import DESKTOP, PHONE, UNREACHABLE, open_seat, play_until, poll


def history(server: ServerProcess, table_id: str, token: str) -> dict[str, Any]:
    """The first state a page of this seat gets: every sentence so far and its event (log_events)."""
    with Ws(f"{server.url.replace('http://', 'ws://')}/ws/play/{table_id}?lang=en&since=-1") as ws:
        ws.auth(token)
        message: dict[str, Any] = ws.until(lambda m: m["type"] == "state" and m.get("history"))
    return message


def axe_violations(page: Any) -> list[dict[str, str]]:
    page.add_script_tag(content=AXE)
    found: list[dict[str, str]] = page.evaluate(RUN)
    return found


def election_shown(page: Any) -> dict[str, Any]:
    shown: dict[str, Any] = page.evaluate("""() => {
      const panel = document.getElementById('results');
      const rows = [...panel.querySelectorAll('tbody tr')];
      const num = (row, cls) => Number(row.querySelector(cls).textContent);
      return {hidden: panel.hidden, index: Number(panel.dataset.index), title: panel.querySelector('h2').textContent,
              votes: rows.map((r) => num(r, '.votes')), vote_vp: rows.map((r) => num(r, '.vote-vp')),
              win_vp: rows.map((r) => num(r, '.win-vp'))};
    }""")
    return shown


# ---------------------------------------------------------------- what just happened


def test_the_pieces_a_move_changed_are_highlighted(server: ServerProcess, browser: Any) -> None:
    """The other player places a worker: that space and their seat's row are marked on my page and the
    mark is animated, but not for a reader who prefers reduced motion; the marks stay until newer
    moves replace them."""
    api = Api(server.url)
    table_id, _host, tokens = api.table("glueckauf", 2, {"start_player": 0})
    rng = random.Random(3)
    for motion in ("no-preference", "reduce"):
        state = play_until(api, table_id, tokens, lambda s: s["view"]["phase"] == "place" and bool(s["legal"]), rng)
        context, page, errors = open_seat(browser, server, table_id, tokens[0], 0)
        page.emulate_media(reduced_motion=motion)
        assert page.locator("#board .hl").count() == 0  # a page drawn anew marks nothing
        spaces = state["view"]["board"]["spaces"]
        action = next(a for a in state["legal"] if a[0] == "place" and spaces[a[1]].get("owner") is None
                      and a[1] != "bank")
        api.act(table_id, tokens[0], action, state["move_no"])
        poll(page, "(n) => Number(document.body.dataset.move) > n", state["move_no"])
        space = page.locator(f'#board [data-hl="space-{action[1]}"]')
        poll(page, f"() => document.querySelector('#board [data-hl=\"space-{action[1]}\"]').classList.contains('hl')")
        assert "hl-new" in (space.get_attribute("class") or "")
        assert page.locator('#board [data-hl="stats-0"].hl').count() == 1  # a worker fewer
        unchanged = page.evaluate("() => [...document.querySelectorAll('#board [data-hl^=\"stats-\"]')]"
                                  ".filter((n) => !n.classList.contains('hl')).map((n) => n.dataset.hl)")
        assert unchanged == ["stats-1"]  # what did not change is not marked
        animation = page.evaluate("() => getComputedStyle(document.querySelector('#board .hl-new')).animationName")
        assert animation == ("none" if motion == "reduce" else "hl-pulse"), motion
        assert not [e for e in errors if "WebSocket" not in e], errors
        context.close()


def test_whose_turn_it_is_is_marked_when_it_passes(server: ServerProcess, browser: Any) -> None:
    api = Api(server.url)
    table_id, _host, tokens = api.table("glueckauf", 2, {"start_player": 0})
    state = play_until(api, table_id, tokens, lambda s: s["view"]["phase"] == "place" and bool(s["legal"]),
                       random.Random(4))
    context, page, errors = open_seat(browser, server, table_id, tokens[0], 0)
    before = state["move_no"]
    # my placement, then its confirmation if the rules ask for one: the turn passes to seat 2
    while True:
        mine = api.view(table_id, tokens[0])
        if not mine["legal"]:
            break
        api.act(table_id, tokens[0], mine["legal"][0], mine["move_no"])
    poll(page, "(n) => Number(document.body.dataset.move) > n && document.body.dataset.mine === '0'", before)
    poll(page, "() => !!document.querySelector('#seats [data-hl=\"seat-1\"].hl')")
    assert not [e for e in errors if "WebSocket" not in e], errors
    context.close()


# ---------------------------------------------------------------- result panels


def test_an_election_opens_a_result_panel_with_its_votes_and_vp(server: ServerProcess, browser: Any) -> None:
    """die-macher.md §5 9b: the panel shows each party's votes, its VP for the votes and for winning, as
    the election's event says; it closes, and the log's entry opens it again, after a reload too."""
    api = Api(server.url)
    table_id, _host, tokens = api.table("diemacher", 3)
    context, page, errors = open_seat(browser, server, table_id, tokens[0], 0)
    play_until(api, table_id, tokens, lambda s: s["view"]["board"]["elections_held"] >= 1, random.Random(5),
               limit=20_000)
    message = history(server, table_id, tokens[0])
    elections = [(i, e) for i, e in enumerate(message["log_events"]) if e["kind"] == "election"]
    assert len(elections) == 1 and len(message["log_events"]) == len(message["sentences"])
    index, event = elections[0]
    p = event["params"]
    # (a poll's panel may open first, while the page catches up with the moves played above)
    poll(page, "(i) => { const r = document.getElementById('results'); return !!r && !r.hidden"
               " && r.dataset.index === String(i); }", index)
    shown = election_shown(page)
    assert shown["index"] == index
    assert shown["votes"] == p["votes"] and shown["vote_vp"] == p["vote_vp"]
    assert shown["win_vp"] == [p["win_vp"] if s in p["awarded"] else 0 for s in range(3)]
    assert shown["title"].startswith(f"Election {p['election']} in ")
    assert page.locator("#results .outcome").inner_text().startswith("Outcome: ")
    winner = p["awarded"][0]  # its points changed: marked in the score panel and the parties' table
    for key in (f"score-{winner}", f"party-{winner}"):
        poll(page, f"() => !!document.querySelector('#board [data-hl=\"{key}\"].hl')")

    page.locator("#results .results-close").click()
    assert page.locator("#results").is_hidden()
    for reloaded in (False, True):
        if reloaded:
            page.reload()
            wait_rendered(page)
            poll(page, "(i) => !!document.querySelector(`#log-panel li[data-index='${i}']`)", index)
            assert page.locator("#results:not([hidden])").count() == 0  # a reload opens no panel by itself
        entry = page.locator(f'#log-panel li[data-index="{index}"]')
        assert entry.get_attribute("data-kind") == "election"
        entry.get_by_role("button", name="Show results").click()
        shown = election_shown(page)
        assert not shown["hidden"] and shown["index"] == index and shown["votes"] == p["votes"]
        assert page.evaluate("() => document.activeElement.id") == "results-title"
        page.keyboard.press("Tab")
        page.keyboard.press("Enter")  # the close button
        assert page.locator("#results").is_hidden()
        assert page.evaluate("() => document.activeElement.textContent") == "Show results"  # back where it was
    assert not [e for e in errors if "WebSocket" not in e], errors
    context.close()


def test_a_published_poll_opens_a_panel_of_its_trend_changes(server: ServerProcess, browser: Any) -> None:
    """die-macher.md §5 phase 8: a published poll's panel lists each party's trend change as the event
    has it (parties it does not touch: unchanged) and who published it."""
    api = Api(server.url)
    table_id, _host, tokens = api.table("diemacher", 3)
    play_until(api, table_id, tokens, lambda s: any(p is not None for p in s["view"]["board"]["poll_discard"]),
               random.Random(21), limit=20_000, prefer=frozenset({"publish_poll", "poll_bid"}))
    message = history(server, table_id, tokens[0])
    index, event = next((i, e) for i, e in enumerate(message["log_events"]) if e["kind"] == "poll_published")
    p = event["params"]
    parties = [seat["party_name"] for seat in message["view"]["board"]["seats"]]
    context, page, errors = open_seat(browser, server, table_id, tokens[0], 0)
    poll(page, "(i) => !!document.querySelector(`#log-panel li[data-index='${i}'] button`)", index)
    page.locator(f'#log-panel li[data-index="{index}"] button').click()
    assert page.locator("#results h2").inner_text().startswith(f"Poll {p['poll']} published")
    assert page.locator("#results").get_by_text(f"Published by {parties[p['seat']]}.").count() == 1
    changes = dict((s, d) for s, d in p["changes"])
    shown = page.locator("#results tbody .trend-change").all_inner_texts()
    signed = {d: f"+{d}" if d > 0 else f"−{-d}" if d < 0 else "0" for d in changes.values()}
    assert shown == [signed[changes[s]] if s in changes else "unchanged" for s in range(3)]
    assert not [e for e in errors if "WebSocket" not in e], errors
    context.close()


def test_the_result_panels_are_axe_clean_and_reachable(server: ServerProcess, browser: Any) -> None:
    """An election's panel (German), and a shift scoring's panel: no axe violations with the panel
    open and the log filtered, every control reachable at 1280×800 and 390×844."""
    api = Api(server.url)
    dm, _host, dm_tokens = api.table("diemacher", 3, bots={1: "random", 2: "random"})
    play_until(api, dm, dm_tokens, lambda s: s["view"]["board"]["elections_held"] >= 1 and bool(s["legal"]),
               random.Random(8), limit=20_000)
    ga, _host, ga_tokens = api.table("glueckauf", 2, {"start_player": 0}, bots={1: "heuristic"})
    play_until(api, ga, ga_tokens, lambda s: s["view"]["board"]["shift"] >= 2 and bool(s["legal"]), random.Random(9))
    for table_id, tokens, kind in ((dm, dm_tokens, "election"), (ga, ga_tokens, "category_scored")):
        for viewport, lang in ((DESKTOP, "de"), (PHONE, "en")):
            context = browser.new_context(viewport=viewport, bypass_csp=True)  # to inject axe
            page = context.new_page()
            page.goto(server.url + "/")
            page.evaluate("([id, kept, lang]) => { localStorage.setItem('stammtisch.lang', lang);"
                          " localStorage.setItem('stammtisch.seats', JSON.stringify({[id]: kept})); }",
                          [table_id, {"token": tokens[0], "seat": 0}, lang])
            page.goto(f"{server.url}/play/{table_id}")
            wait_rendered(page)
            button = page.locator(f'#log-panel li[data-kind="{kind}"] button.log-result').first
            poll(page, f"() => !!document.querySelector('#log-panel li[data-kind=\"{kind}\"] button.log-result')")
            button.click()
            assert page.locator("#results").is_visible()
            page.locator('#log-panel .log-filter[data-filter="round"]').click()
            assert page.locator("#results table tbody tr").count() >= 2
            assert axe_violations(page) == [], (kind, viewport, lang)
            assert page.evaluate(UNREACHABLE) == [], (kind, viewport, lang)
            context.close()


# ---------------------------------------------------------------- the log


LOG_SHOWN = """() => [...document.querySelectorAll('#log-panel li.log-entry')].map((li) => ({
  index: Number(li.dataset.index), by: li.dataset.by ?? null, kind: li.dataset.kind,
  colour: getComputedStyle(li).borderLeftColor, icon: !!li.querySelector('.log-icon svg')}))"""


def test_the_log_filters_to_my_moves_and_this_round(server: ServerProcess, browser: Any) -> None:
    """Glück Auf: "My moves" keeps exactly the entries of my seat's moves, "This round" those from the
    current shift's start, "All" every entry; entries carry their player's colour and icons."""
    api = Api(server.url)
    table_id, _host, tokens = api.table("glueckauf", 2, {"start_player": 0}, bots={1: "heuristic"})
    play_until(api, table_id, tokens, lambda s: s["view"]["board"]["shift"] >= 2 and bool(s["legal"]),
               random.Random(12))
    events = history(server, table_id, tokens[0])["log_events"]
    context, page, errors = open_seat(browser, server, table_id, tokens[0], 0)
    poll(page, "(n) => document.querySelectorAll('#log-panel li.log-entry').length === n", len(events))
    every = page.evaluate(LOG_SHOWN)
    assert [e["index"] for e in every] == list(range(len(events)))
    placed = [e for e in every if e["kind"] == "placed"]
    assert {e["by"] for e in placed} == {"0", "1"}
    colours = {e["by"]: {x["colour"] for x in placed if x["by"] == e["by"]} for e in placed}
    assert len(colours["0"]) == 1 and colours["0"] != colours["1"]  # one colour per player
    assert all(e["icon"] for e in placed)

    page.locator('#log-panel .log-filter[data-filter="mine"]').click()
    mine = [i for i, e in enumerate(events) if e["by"] == 0]
    assert mine and [e["index"] for e in page.evaluate(LOG_SHOWN)] == mine
    assert page.locator('#log-panel .log-filter[data-filter="mine"]').get_attribute("aria-pressed") == "true"

    page.locator('#log-panel .log-filter[data-filter="round"]').click()
    start = max(i for i, e in enumerate(events) if e["kind"] == "shift_starts")
    assert events[start]["params"]["shift"] == 2
    shown = [e["index"] for e in page.evaluate(LOG_SHOWN)]
    assert shown[:len(range(start, len(events)))] == list(range(start, len(events))) and shown[0] == start

    page.locator('#log-panel .log-filter[data-filter="all"]').click()
    assert len(page.evaluate(LOG_SHOWN)) >= len(events)
    assert not [e for e in errors if "WebSocket" not in e], errors
    context.close()
