"""Issue 25 defect 2, "The decision panel is rebuilt under your hand": in Die Macher's sealed phases each
"X has decided" changed the seats to act and redrew the whole panel, so a click could land on a detached
button and a keyboard player's focus jumped back to the first choice.  The panel is redrawn only when
the reader's own choices change, keeps focus and scroll position, and a sealed choice that was sent
stays shown as sent (die-macher.md §13: sealed decisions).

The page holds seat 0; the other seats are played through the HTTP API, so the test decides who moves
when.
"""

from __future__ import annotations

import json
import random
from typing import Any

from stammtisch.games.diemacher.text import money
from tests.server.helpers import Api, ServerProcess
from tests.web.browser import choices, choose, wait_rendered
from tests.web.test_table_usable import open_seat, play_until, poll

# Counts the choice elements (buttons of a choice, list boxes) taken out of the decision panel.
OBSERVE = """() => {
  window.__removed = 0;
  const isChoice = (n) => n.nodeType === 1 && (n.matches('button.choice, select')
    || !!n.querySelector('button.choice, select'));
  new MutationObserver((records) => {
    for (const r of records) for (const n of r.removedNodes) if (isChoice(n)) window.__removed += 1;
  }).observe(document.getElementById('decision'), {subtree: true, childList: true});
}"""

SHOWN = "(n) => Number(document.body.dataset.move) === n"


def caught_up(page: Any, api: Api, table_id: str, token: str) -> dict[str, Any]:
    """Seat 0's state, once the page shows it."""
    state = api.view(table_id, token)
    poll(page, SHOWN, state["move_no"])
    return state


def commit(api: Api, table_id: str, token: str, rng: random.Random) -> None:
    """A seat takes random steps of the sealed decision until it has decided (its "has decided" event)."""
    while (state := api.view(table_id, token))["legal"]:
        api.act(table_id, token, rng.choice(state["legal"]), state["move_no"])
        told = api.view(table_id, token, since=state["move_no"])["events"]
        if any(e["kind"] == "sealed_committed" and e["params"]["seat"] == state["seat"] for e in told):
            return


def test_no_choice_is_replaced_while_other_seats_decide(server: ServerProcess, browser: Any) -> None:
    """issue 25 defect 2, done when: a scripted Die Macher game (up to its first election) where a
    MutationObserver on #decision counts the choice elements removed while only other seats act — and
    the reader's choices stay the same — finds none; the reader plays by clicking the panel."""
    api = Api(server.url)
    table_id, _host, tokens = api.table("diemacher", 4)
    context, page, errors = open_seat(browser, server, table_id, tokens[0], 0)
    page.evaluate(OBSERVE)
    rng = random.Random(25)
    checked = 0
    for _ in range(3000):
        mine = caught_up(page, api, table_id, tokens[0])
        if mine["view"]["board"]["elections_held"] >= 1:
            break
        others = [(s, t) for s, t in tokens.items() if s and api.view(table_id, t)["legal"]]
        if mine["legal"] and (not others or rng.random() < 0.3):
            choose(page, rng.choice(choices(page)))
            continue
        seat, token = rng.choice(others)
        state = api.view(table_id, token)
        page.evaluate("() => { window.__removed = 0; }")
        api.act(table_id, token, rng.choice(state["legal"]), state["move_no"])
        after = caught_up(page, api, table_id, tokens[0])
        if mine["legal"] and after["legal"] == mine["legal"]:
            assert page.evaluate("() => window.__removed") == 0, (mine["view"]["phase"], seat)
            checked += 1
    else:
        raise AssertionError("no election came")
    assert checked >= 20  # moves of other seats while the reader's choices stood (the sealed phases)
    assert not [e for e in errors if "WebSocket" not in e], errors
    context.close()


def program_phase(api: Api, table_id: str, tokens: dict[int, str]) -> dict[str, Any]:
    """Up to the program phase (§5 phase 2: sealed) with every seat still deciding."""
    return play_until(api, table_id, tokens, lambda s: s["view"]["phase"] == "program" and len(s["to_act"]) == 4,
                      random.Random(2), limit=20_000)


def test_focus_stays_on_the_choice_and_enter_plays_it(server: ServerProcess, browser: Any) -> None:
    """issue 25 defect 2: a keyboard player's focus stays on the program card they moved to while two
    other parties decide, and Enter puts exactly that card into the program; the panel keeps its
    scroll position."""
    api = Api(server.url)
    table_id, _host, tokens = api.table("diemacher", 4)
    program_phase(api, table_id, tokens)
    context, page, errors = open_seat(browser, server, table_id, tokens[0], 0)
    poll(page, "() => document.querySelectorAll('#decision button.choice').length >= 3")
    target = page.locator("#decision button.choice").nth(2)
    target.focus()
    action = json.loads(target.get_attribute("data-action") or "null")
    page.evaluate("() => { document.activeElement.focusedByTest = true; }")
    scrolled = page.evaluate("() => document.getElementById('decision').scrollTop")
    rng = random.Random(7)
    for seat in (1, 2):
        commit(api, table_id, tokens[seat], rng)
        caught_up(page, api, table_id, tokens[0])
    assert page.evaluate("() => document.activeElement.focusedByTest === true")
    assert page.evaluate("() => document.getElementById('decision').scrollTop") == scrolled
    before = api.view(table_id, tokens[0])["move_no"]
    page.keyboard.press("Enter")
    poll(page, "(n) => Number(document.body.dataset.move) > n", before)
    assert action[0] == "program_card"
    assert api.view(table_id, tokens[0])["view"]["board"]["seats"][0]["sealed"] == [action[1]]
    assert not [e for e in errors if "WebSocket" not in e], errors
    context.close()


SENT = "() => [...document.querySelectorAll('#decision .sent-list li')].map((li) => li.textContent)"


def test_a_sealed_choice_stays_shown_as_sent(server: ServerProcess, browser: Any) -> None:
    """issue 25 defect 2: the program cards the reader sent stay listed in the panel while the others
    decide, after a reload too; the players list marks who has decided; the reveal ends it."""
    api = Api(server.url)
    table_id, _host, tokens = api.table("diemacher", 4)
    program_phase(api, table_id, tokens)
    context, page, errors = open_seat(browser, server, table_id, tokens[0], 0)
    sent: list[str] = []
    while page.evaluate("() => document.body.dataset.mine") == "1":
        poll(page, "() => document.querySelectorAll('#decision button.choice').length > 0")
        offered = [c for c in choices(page) if c["kind"] == "button"]
        pick = offered[0]
        sent.append(pick["label"])
        choose(page, pick)
        caught_up(page, api, table_id, tokens[0])
        assert page.evaluate(SENT) == sent  # also while the program is not complete
    assert api.view(table_id, tokens[0])["to_act"] == [1, 2, 3]
    for reloaded in (False, True):
        if reloaded:
            page.reload()
            wait_rendered(page)
        caught_up(page, api, table_id, tokens[0])
        assert page.locator("#decision-title").inner_text() == "Your decision is sent"
        assert page.evaluate(SENT) == sent
        assert page.evaluate("() => [...document.querySelectorAll('#seats li')].map((li) => "
                             "!!li.querySelector('.decided'))") == [True, False, False, False]
    rng = random.Random(3)
    for seat in (1, 2, 3):
        commit(api, table_id, tokens[seat], rng)
    caught_up(page, api, table_id, tokens[0])
    assert page.evaluate(SENT) == []  # revealed: the decision is over
    assert page.locator("#decision-title").inner_text() != "Your decision is sent"
    assert not [e for e in errors if "WebSocket" not in e], errors
    context.close()


SEALED_ROW = """() => {
  const term = [...document.querySelectorAll('.dm-private dt')].find((dt) => dt.textContent === 'Sealed');
  return term ? term.nextElementSibling.textContent : null;
}"""


def test_the_private_panel_names_the_sealed_choice_in_words(server: ServerProcess, browser: Any) -> None:
    """issue 25 defect 7, the browser's side: the private panel's "Sealed" row showed raw ids ("10, 4, 12, 1");
    it names the start block with the state of each spot placed so far, then the sealed bid as money."""
    api = Api(server.url)
    table_id, _host, tokens = api.table("diemacher", 3)
    context, page, errors = open_seat(browser, server, table_id, tokens[0], 0)
    rng = random.Random(7)
    mine = play_until(api, table_id, tokens, lambda s: s["view"]["phase"] == "start" and bool(s["legal"]), rng)
    for kind in ("start_block", "start_state"):
        api.act(table_id, tokens[0], rng.choice([a for a in mine["legal"] if a[0] == kind]), mine["move_no"])
        mine = caught_up(page, api, table_id, tokens[0])
    block, placed = mine["view"]["board"]["seats"][0]["sealed"]
    state = mine["view"]["board"]["boards"][placed]["name"]
    shown = page.evaluate(SEALED_ROW)
    assert shown.startswith(f"Start block {block}: ") and f" in {state}" in shown, shown
    mine = play_until(api, table_id, tokens, lambda s: s["view"]["phase"] == "bid" and bool(s["legal"]), rng)
    bid = max((a for a in mine["legal"] if a[0] == "bid"), key=lambda a: a[1])
    api.act(table_id, tokens[0], bid, mine["move_no"])
    caught_up(page, api, table_id, tokens[0])
    assert page.evaluate(SEALED_ROW) == money(bid[1])  # as the bid's choice wrote it ("€5,000")
    assert not [e for e in errors if "WebSocket" not in e], errors
    context.close()


def test_a_choice_under_the_pointer_stays_while_other_seats_decide(server: ServerProcess, browser: Any) -> None:
    """issue 25 defect 2: the help tooltip of the choice under the mouse marks it (aria-describedby); the
    panel took that mark for a change and replaced every choice at each "X has decided" of the sealed start
    bid — under the player's pointer, focus lost — and a test that clicked there failed now and then."""
    api = Api(server.url)
    table_id, _host, tokens = api.table("diemacher", 4)
    play_until(api, table_id, tokens, lambda s: s["view"]["phase"] == "bid" and len(s["to_act"]) == 4,
               random.Random(2), limit=20_000)
    context, page, errors = open_seat(browser, server, table_id, tokens[0], 0)
    poll(page, "() => document.querySelector('#decision [data-help]') !== null")
    helped = page.locator("#decision [data-help]").first
    helped.hover()
    poll(page, "() => document.querySelector('#decision [aria-describedby=\"help-tip\"]') !== null")
    page.evaluate("() => { document.querySelector('#decision [data-help]').hoveredByTest = true; }")
    page.evaluate(OBSERVE)
    rng = random.Random(5)
    for seat in (1, 2):
        commit(api, table_id, tokens[seat], rng)
        caught_up(page, api, table_id, tokens[0])
    assert page.evaluate("() => window.__removed") == 0
    assert page.evaluate("() => document.querySelector('#decision [data-help]').hoveredByTest === true")
    assert not [e for e in errors if "WebSocket" not in e], errors
    context.close()


def test_a_move_whose_answer_is_lost_with_its_connection_frees_the_choices(server: ServerProcess,
                                                                           browser: Any) -> None:
    """A choice is sent, and its connection is replaced before the answer comes (here the answer never
    does, and the reader switches the language, which connects again): the choices, disabled while the
    move was being sent, are enabled again — not disabled until a reload."""
    api = Api(server.url)
    table_id, _host, tokens = api.table("glueckauf", 2)
    play_until(api, table_id, tokens, lambda s: s["view"]["phase"] == "place" and s["to_act"] == [0],
               random.Random(8))

    def drop_move_answers(page: Any) -> None:
        def route(socket: Any) -> None:
            to_server, moves = socket.connect_to_server(), set()

            def from_page(message: str) -> None:
                data = json.loads(message)
                if data.get("type") == "act":
                    moves.add(data["id"])
                to_server.send(message)

            socket.on_message(from_page)
            to_server.on_message(lambda message: None if json.loads(message).get("id") in moves
                                 else socket.send(message))

        page.route_web_socket(lambda url: "/ws/play/" in url, route)

    context, page, errors = open_seat(browser, server, table_id, tokens[0], 0, prepare=drop_move_answers)
    poll(page, "() => document.body.dataset.mine === '1'")
    spaces = api.view(table_id, tokens[0])["view"]["board"]["spaces"]
    choose(page, next(c for c in choices(page) if c["action"][0] == "place"  # (a money space: one move)
                      and c["action"][1].startswith("money_") and spaces[c["action"][1]].get("owner") is None))
    poll(page, "() => document.body.dataset.mine === '0'")  # the move is in force; its answer is lost
    play_until(api, table_id, tokens, lambda s: s["to_act"] == [0], random.Random(9))  # the other seat
    poll(page, "() => document.body.dataset.mine === '1'")
    enabled = "() => [...document.querySelectorAll('#decision button, #decision select')].every((n) => !n.disabled)"
    assert not page.evaluate(enabled)  # still sending
    page.select_option("#language", "de")  # connects again, in German
    poll(page, f"() => document.body.dataset.lang === 'de' && document.body.dataset.mine === '1' && ({enabled})()")
    choose(page, choices(page)[0])  # and the reader plays on
    assert not [e for e in errors if "WebSocket" not in e], errors
    context.close()
