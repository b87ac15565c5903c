"""Issue 25 defects 3 and 5 on Die Macher's page: every choice that costs or earns money, votes, rallies or
points says so on the choice itself, with its rules help on the choice; the media influencer chooses on
the board; the phone's parties table shows the supply; the election panel states the majority; the Grüne
party tag is readable (axe colour contrast).

The scripted game plays seat 0 in Chromium through its decision panel and the other seats through the
play socket (``/ws/play``, the labels the page is sent), steering all three into every money decision.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from typing import Any
from urllib.parse import urlencode

from websockets.sync.client import connect

from stammtisch.games.diemacher.rules import DieMacher
from stammtisch.games.diemacher.text import money
from tests.server.helpers import Api, ServerProcess
from tests.web.browser import choices, choose, watch_errors
from tests.web.test_accessibility import check_stages, open_page, violations
from tests.web.test_table_usable import PHONE, UNREACHABLE, open_seat, play_until, poll

EDITION = DieMacher(3).edition
POLITICIAN_COST = {p.id: p.cost for p in EDITION.politicians}
# The decisions whose choices cost or earn money, votes, rallies or party base (issue 25 defect 3).
MONEY_KINDS = {"bid", "raise", "buy_media", "rallies", "place", "pay", "buyout", "poll_bid", "publish_poll",
               "withhold_poll", "convert", "donation"}
FORMULA = re.compile(r"\(\d+ [+−] \d+\) × \d+ = \d+ votes?$")


# ---------------------------------------------------------------- the scripted game


class Steering:
    """Chooses so that every money decision comes up: a tie in the first start bid (the open re-bid),
    media markers everywhere, many rallies (voluntary conversions), politicians with a buyout, polls won."""

    def __init__(self) -> None:
        self.bought: dict[tuple[int, int], int] = {}

    def pick(self, seat: int, round_: int, legal: list[list[Any]]) -> list[Any]:
        kinds: dict[str, list[list[Any]]] = {}
        for action in legal:
            kinds.setdefault(action[0], []).append(action)
        if "bid" in kinds:  # round 1: everybody bids nothing, a tie
            return kinds["bid"][0] if round_ <= 1 else kinds["bid"][min(2, len(kinds["bid"]) - 1)]
        if "raise" in kinds:
            return kinds["raise"][0]
        if "buy_media" in kinds and self.bought.get((seat, round_), 0) < 1:
            self.bought[(seat, round_)] = self.bought.get((seat, round_), 0) + 1
            return kinds["buy_media"][0]
        if "rallies" in kinds:
            return kinds["rallies"][min(len(kinds["rallies"]) - 1, 3)]
        if "place" in kinds:
            placed = sorted((a for a in kinds["place"] if a[2] is not None),
                            key=lambda a: a[2] not in ("spokesperson", "secretary"))
            return placed[0] if placed else kinds["place"][0]
        for kind in ("pay", "buyout", "votes", "trend", "convert", "publish_poll", "withhold_poll"):
            if kind in kinds:
                return kinds[kind][-1]
        if "poll_bid" in kinds:
            return kinds["poll_bid"][0]
        if "donation" in kinds:
            return next(a for a in kinds["donation"] if a[2])
        if "pass" in kinds:  # media shift, conversion
            return kinds["pass"][0]
        return legal[0]


def amounts(action: list[Any], view: dict[str, Any]) -> list[str]:
    """What the label of a money choice must name, from the edition's prices and the chooser's view."""
    kind = action[0]
    if kind in ("bid", "raise", "poll_bid"):
        return [money(action[1])]
    if kind == "buy_media":
        return [money(EDITION.media_marker_cost)]
    if kind == "rallies":
        return [money(EDITION.rally_costs[action[2] - 1])] if action[2] else ["no rallies"]
    if kind == "place":
        return [money(POLITICIAN_COST[action[2]])] if action[2] else []
    if kind == "pay":
        board = view["board"]["boards"][view["decision"]["board"]]
        own = next(p for p in board["politicians"] if p["seat"] == view["seat"] and p["paid"] is None)
        return [money(POLITICIAN_COST[own["politician"]])]
    if kind == "buyout":
        return [money(EDITION.buyout_payment)]
    if kind == "donation":
        return [money(action[1]), "party base"]
    if kind == "withhold_poll":
        return ["party base +3"]
    if kind == "publish_poll":
        changes = view["board"]["seats"][view["seat"]]["poll_in_hand"]["changes"]
        return [f"{view['board']['seats'][s]['party_name']} {d:+d}" for s, d in changes]
    return []  # convert: its formula, checked against the log below


def check_labels(legal: list[list[Any]], labels: list[str], view: dict[str, Any], seen: set[str]) -> None:
    for action, label in zip(legal, labels, strict=True):
        if action[0] not in MONEY_KINDS:
            continue
        seen.add(action[0])
        for amount in amounts(action, view):
            assert amount in label, (action, label, amount)
        if action[0] == "convert":
            assert FORMULA.search(label), label  # "Convert 6 rallies in …: (6 − 1) × 3 = 15 votes"


class Seat:
    """One seat at the table, played through the play socket (the labels in English, as the page gets them)."""

    def __init__(self, server: ServerProcess, table_id: str, token: str) -> None:
        self.url = server.url.replace("http", "ws") + f"/ws/play/{table_id}"
        self.token = token

    def decide(self, since: int, pick: Callable[[dict[str, Any]], list[Any]]) -> tuple[list[Any], str, list[str]]:
        """Take the action ``pick`` chooses from the state after move ``since``: (action, its label, the
        sentences of the move's events)."""
        with connect(f"{self.url}?{urlencode({'lang': 'en', 'since': since})}", open_timeout=10) as ws:
            ws.send(json.dumps({"type": "auth", "token": self.token}))
            message = self.next_state(ws, since - 1)
            action = pick(message)
            ws.send(json.dumps({"type": "act", "action": action, "move_no": message["move_no"], "id": 1}))
            after = self.next_state(ws, message["move_no"])
        return action, message["labels"][message["legal"].index(action)], list(after["sentences"])

    def sentences(self, since: int) -> list[str]:
        """The sentences of the events after move ``since``."""
        with connect(f"{self.url}?{urlencode({'lang': 'en', 'since': since})}", open_timeout=10) as ws:
            ws.send(json.dumps({"type": "auth", "token": self.token}))
            return list(self.next_state(ws, since - 1)["sentences"])

    @staticmethod
    def next_state(ws: Any, move_no: int) -> dict[str, Any]:
        while True:
            message: dict[str, Any] = json.loads(ws.recv(timeout=20))
            assert message["type"] != "error", message
            if message["type"] == "state" and message["move_no"] > move_no:
                return message


def money_of(api: Api, table_id: str, token: str, seat: int) -> int:
    return int(api.view(table_id, token)["view"]["board"]["seats"][seat]["money"])


def check_charge(action: list[Any], label: str, before: int, after: int, sentences: list[str]) -> None:
    """What taking a money choice did is what its label said: the money paid, the log's votes."""
    if action[0] in ("buy_media", "rallies", "buyout") and not (action[0] == "rallies" and not action[2]):
        assert money(before - after) in label, (label, before, after)
    if action[0] == "convert":  # the votes preview is what the log then prints
        formula = FORMULA.search(label)
        assert formula and any(s.endswith(formula.group()) for s in sentences), (label, sentences)
    if action[0] == "publish_poll":
        published = next(s for s in sentences if " publishes poll " in s)
        assert label.split(": trends ")[1] == published.split(": ", 1)[1], (label, published)


def test_a_scripted_game_names_the_amount_on_every_money_choice(server: ServerProcess, browser: Any) -> None:
    """issue 25 defect 3: over a whole game every money decision comes up; each of its choices names its
    amount (prices, the votes preview, the trend changes, the party base) on the choice itself, in the
    page's decision panel and on the socket; what the move then charges or the log prints agrees; in the
    page each such choice carries its rules help."""
    api = Api(server.url)
    table_id, _host, tokens = api.table("diemacher", 3)
    seats = {s: Seat(server, table_id, token) for s, token in tokens.items()}
    context, page, errors = open_seat(browser, server, table_id, tokens[0], 0)
    steering, seen, helped = Steering(), set[str](), set[str]()
    for _ in range(3000):
        states = {s: api.view(table_id, token) for s, token in tokens.items()}
        if states[0]["status"] == "finished":
            break
        seat = next(s for s, state in states.items() if state["legal"])
        state = states[seat]
        round_ = state["view"]["board"]["round"]
        before = state["view"]["board"]["seats"][seat]["money"]
        if seat == 0:  # through the page, as a player
            poll(page, "(n) => document.body.dataset.mine === '1' && document.body.dataset.move === String(n)",
                 state["move_no"])
            offered = choices(page)
            check_labels([c["action"] for c in offered], [c["label"] for c in offered], state["view"], seen)
            for choice in offered:
                if choice["action"][0] in MONEY_KINDS and choice["kind"] == "button":
                    key = json.dumps(choice["action"], separators=(",", ":"))
                    help_text = page.locator(f"#decision button.choice[data-action='{key}']").get_attribute("data-help")
                    assert help_text, choice  # its rules help, on the choice
                    helped.add(choice["action"][0])
            action = steering.pick(0, round_, [c["action"] for c in offered])
            choice = next(c for c in offered if c["action"] == action)
            choose(page, choice)
            label, sentences = choice["label"], seats[0].sentences(state["move_no"])
        else:
            def pick(message: dict[str, Any], seat: int = seat, round_: int = round_) -> list[Any]:
                check_labels(message["legal"], message["labels"], message["view"], seen)
                return steering.pick(seat, round_, message["legal"])

            action, label, sentences = seats[seat].decide(state["move_no"], pick)
        check_charge(action, label, before, money_of(api, table_id, tokens[seat], seat), sentences)
    assert states[0]["status"] == "finished"
    assert seen == MONEY_KINDS, MONEY_KINDS - seen
    assert helped >= {"buy_media", "rallies", "place", "pay", "convert", "donation"}, helped
    assert not [e for e in errors if "WebSocket" not in e], errors
    context.close()


# ---------------------------------------------------------------- defect 5: choosing on the board


def play_to_media_shift(api: Api, table_id: str, tokens: dict[int, str], rng: random.Random) -> dict[str, Any]:
    """Seat 0 buys media markers, the others never: seat 0 becomes a media influencer and decides in
    phase 7."""
    for _ in range(3000):
        mine = api.view(table_id, tokens[0])
        if any(a[0] == "shift" for a in mine["legal"]):
            return mine
        for seat, token in tokens.items():
            state = mine if seat == 0 else api.view(table_id, token)
            if state["legal"]:
                wanted = [a for a in state["legal"] if (a[0] == "buy_media") == (seat == 0)] or state["legal"]
                api.act(table_id, token, rng.choice(wanted), state["move_no"])
                break
    raise AssertionError("seat 0 never decided in phase 7")


def test_the_media_influencer_chooses_on_the_board(server: ServerProcess, browser: Any) -> None:
    """issue 25 defect 5: phase 7's replacement is chosen on the board (an opinion of the state, then the
    display card that replaces it); the list box stays as the keyboard fallback without the replacements
    that change nothing (a card for the same card, C-32), "Change no opinion" the one choice that does."""
    api = Api(server.url)
    table_id, _host, tokens = api.table("diemacher", 3)
    mine = play_to_media_shift(api, table_id, tokens, random.Random(5))
    pos = mine["view"]["decision"]["board"]
    opinions = mine["view"]["board"]["boards"][pos]["opinions"]
    changing = [a for a in mine["legal"] if a[0] == "shift" and opinions[a[1]]["card"] != a[2]]
    context, page = open_page(browser, server, f"/play/{table_id}", (table_id, {"token": tokens[0], "seat": 0}))
    errors: list[str] = []
    watch_errors(page, errors)
    poll(page, "() => document.body.dataset.mine === '1'")
    offered = choices(page)
    assert sorted(c["action"] for c in offered if c["action"][0] == "shift") == sorted(changing)
    assert not [c for c in offered if re.fullmatch(r"Replace (\S+ ?\S*) with \1", c["label"])]
    assert [c["label"] for c in offered if c["action"][0] == "pass"] == ["Change no opinion"]
    picks = page.locator(".dm-state.current button.dm-pick")
    assert picks.count() == len({a[1] for a in changing})  # each opinion that can be replaced, only there
    assert page.locator("button.dm-pick").count() == picks.count()
    slot = changing[0][1]
    picks.nth(sorted({a[1] for a in changing}).index(slot)).click()
    assert picks.nth(sorted({a[1] for a in changing}).index(slot)).get_attribute("aria-pressed") == "true"
    tray = page.locator(".dm-replacements button")
    offered_here = [a for a in changing if a[1] == slot]
    assert tray.count() == len(offered_here)
    assert page.evaluate("() => document.activeElement.closest('.dm-replacements') !== null")  # focus moved there
    labels = tray.evaluate_all("(bs) => bs.map((b) => b.textContent)")
    assert all(label.startswith("Replace ") and " with " in label for label in labels), labels
    assert page.evaluate(UNREACHABLE) == []
    assert violations(page) == []
    before = page.evaluate("() => document.body.dataset.move")
    page.keyboard.press("Enter")  # the first replacement, by keyboard
    poll(page, "(before) => document.body.dataset.move !== before", before)
    after = api.view(table_id, tokens[0])["view"]["board"]["boards"][pos]["opinions"][slot]["card"]
    assert after == offered_here[0][2]
    assert not [e for e in errors if "WebSocket" not in e], errors
    context.close()


# ---------------------------------------------------------------- defect 5: phone, majority, contrast


def test_the_phone_parties_table_shows_every_supply(server: ServerProcess, browser: Any) -> None:
    """issue 25 defect 5: on a 390 px phone the parties' table shows each party's supply (media markers,
    rallies, politicians, donations) inside the screen, without scrolling sideways."""
    api = Api(server.url)
    table_id, _host, tokens = api.table("diemacher", 5, bots={s: "random" for s in range(1, 5)})
    play_until(api, table_id, tokens, lambda s: s["view"]["board"]["round"] >= 1 and bool(s["legal"]),
               random.Random(3))
    context, page, _errors = open_seat(browser, server, table_id, tokens[0], 0, viewport=PHONE)
    poll(page, "() => !!document.querySelector('.dm-party-table tbody tr')")
    shown = page.evaluate("""() => [...document.querySelectorAll('.dm-party-table :is(td.supply, .supply-row td)')]
      .filter((supply) => supply.getClientRects().length).map((supply) => {
        const r = supply.getBoundingClientRect();
        const box = supply.closest('.table-scroll').getBoundingClientRect();
        return { text: supply.textContent, inside: r.left >= box.left - 1 && r.right <= box.right + 1 };
      })""")
    assert len(shown) == 5
    for row in shown:
        assert row["inside"], row
        assert re.fullmatch(r"media \d+ · rallies \d+ · politicians \d+ · donations \d+", row["text"]), row
    scroll = page.evaluate("() => { const s = document.querySelector('.dm-party-table .table-scroll');"
                           " return [s.scrollWidth, s.clientWidth]; }")
    assert scroll[0] <= scroll[1], scroll
    context.close()


def test_the_election_panel_states_the_majority(server: ServerProcess, browser: Any) -> None:
    """issue 25 defect 5: the election's result panel states the votes a majority needs (the table's
    win_threshold, C-17), in the page's language."""
    api = Api(server.url)
    table_id, _host, tokens = api.table("diemacher", 3, {"win_threshold": 40})
    context, page, _errors = open_seat(browser, server, table_id, tokens[0], 0, lang="de")
    play_until(api, table_id, tokens, lambda s: s["view"]["board"]["elections_held"] >= 1, random.Random(5),
               limit=20_000)
    poll(page, "() => { const r = document.getElementById('results'); return !!r && !r.hidden; }")
    assert page.locator("#results .majority").inner_text() == \
        "Mehrheit: 40 Stimmen oder mehr, allein oder mit einem Koalitionspartner."
    context.close()


def test_die_macher_with_all_five_parties_has_no_axe_violations(server: ServerProcess, browser: Any) -> None:
    """issue 25 defect 5: with all five parties (the Grüne's white on green was 4.3:1) axe finds nothing,
    colour contrast included, at setup, a round and the end, desktop and phone."""
    api = Api(server.url)
    table_id, _host, tokens = api.table("diemacher", 5, bots={s: "random" for s in range(1, 5)})
    stages: list[tuple[str, Callable[[dict[str, Any]], bool]]] = [
        ("setup", lambda s: bool(s["legal"])),
        ("round", lambda s: s["view"]["board"]["round"] >= 1 and bool(s["legal"])),
        ("end", lambda s: s["status"] == "finished"),
    ]
    check_stages(server, browser, api, table_id, tokens, stages, random.Random(6), ".dm-phases")


# ---------------------------------------------------------------- defect 3: Glück Auf's costs


def glueckauf_turn(api: Api, table_id: str, token: str, page: Any, wanted: Callable[[list[Any]], bool],
                   rng: random.Random) -> dict[str, Any]:
    """Play seat 0 at random through the API until ``wanted(its legal actions)``; the page then shows it."""
    state = play_until(api, table_id, {0: token}, lambda s: bool(s["legal"]) and wanted(s["legal"]), rng)
    poll(page, "(n) => document.body.dataset.mine === '1' && document.body.dataset.move === String(n)",
         state["move_no"])
    return state


def test_glueckauf_choices_name_their_costs(server: ServerProcess, browser: Any) -> None:
    """issue 25 defect 3, Glück Auf: in the decision panel (and on the board's buttons, named by the same
    labels) a placement names the workers it takes and what a factory space's tile costs; a drawn tile
    its price; each mining step the work steps left."""
    api = Api(server.url)
    table_id, _host, tokens = api.table("glueckauf", 2, {"start_player": 0}, bots={1: "heuristic"})
    context, page, errors = open_seat(browser, server, table_id, tokens[0], 0)
    rng = random.Random(4)
    state = glueckauf_turn(api, table_id, tokens[0], page, lambda legal: legal[0][0] == "place", rng)
    spaces = state["view"]["board"]["spaces"]
    labels = {json.dumps(c["action"]): c["label"] for c in choices(page)}
    factory = [a for a in state["legal"] if str(a[1]).startswith("factory_") and a[1] != "factory_draw"]
    assert factory
    for action in factory:
        space, tile = spaces[action[1]], spaces[action[1]]["tile"]
        workers = space["workers"] + 1
        price = f"{tile['cost']} Mark" + ("s" if tile["cost"] > 1 else "")
        assert labels[json.dumps(action)] == (
            f"Place {workers} worker{'s' if workers > 1 else ''} on factory space {action[1].split('_')[1]}: "
            f"a {tile['colour']} tunnel tile, minecarts: {tile['carts']}, price {price}")
        # the board's button for the space is named by the same label
        button = page.locator(f"#board button[data-action='{json.dumps(action, separators=(',', ':'))}']")
        assert button.get_attribute("data-label") == labels[json.dumps(action)]
    before = page.evaluate("() => document.body.dataset.move")
    page.locator("#board button[data-action='[\"place\",\"factory_draw\"]']").click()  # draw 5 tunnel tiles
    poll(page, "(before) => document.body.dataset.move !== before", before)
    state = glueckauf_turn(api, table_id, tokens[0], page, lambda legal: legal[0][0] == "keep_tile", rng)
    drawn = {tile["id"]: tile for tile in state["view"]["board"]["drawn"]}
    for choice in choices(page):
        if choice["action"][1] is not None:
            tile = drawn[choice["action"][1]]
            assert choice["label"].endswith(f"minecarts: {tile['carts']}, price {tile['cost']} Mark"
                                            + ("s" if tile["cost"] > 1 else "")), choice
    state = glueckauf_turn(api, table_id, tokens[0], page, lambda legal: legal[0][0] == "done", rng)
    left = state["view"]["board"]["steps_left"]
    steps = [c for c in choices(page) if c["action"][0] in ("cage", "load", "store", "fill")]
    assert steps and all(c["label"].endswith(f"(1 of {left} work step{'s' if left > 1 else ''} left)") for c in steps)
    assert not [e for e in errors if "WebSocket" not in e], errors
    context.close()


# ---------------------------------------------------------------- defect 3: the poll kept secret

# A page with only Die Macher's board module: window.decide(data) returns the text of the decision's
# description (describeDecision) for one view, with a ctx like the frame's.
MODULE_PAGE = r"""<!doctype html><html lang="en"><head><meta charset="utf-8"><title>board</title></head>
<body><div id="root"></div>
<script type="module">
import board from "/static/diemacher.js";
window.decide = (data) => {
  const t = (id, p = {}) => String(id).replace(/\{(\w+)\}/g, (m, k) => (k in p ? String(p[k]) : m));
  const ctx = { t, lang: "en", seat: data.view.seat, legal: data.legal, labels: data.labels, terms: {},
    describe: data.describe, formatNumber: (n) => n.toLocaleString("en") };
  return board.describeDecision(data.view, ctx).textContent;
};
window.ready = true;
</script></body></html>"""


def test_a_poll_that_can_only_be_kept_secret_says_why(browser: Any) -> None:
    """issue 25 defect 3: "the poll step that offers one option with no reason": when the poll card in
    hand shows no plus for the party, the decision says that only such a poll can be published."""
    from importlib import resources

    from stammtisch.engine.step import step
    from stammtisch.games.diemacher.text import describe_action

    game, rng = DieMacher(3), random.Random(1)
    state, _events = game.new_state(1)
    while not (game.to_act(state) and game.legal_actions(state, game.to_act(state)[0]) == [("withhold_poll",)]):
        seat = rng.choice(game.to_act(state))
        step(game, state, seat, rng.choice(game.legal_actions(state, seat)))
    seat = game.to_act(state)[0]
    view = game.view(state, seat)
    own = view["board"]["seats"][seat]
    delta = own["poll_in_hand"]["delta"][own["party"]]
    static = resources.files("stammtisch.web") / "static"
    page = browser.new_page()

    def serve(route: Any) -> None:
        path = route.request.url.removeprefix("http://board.test").split("?")[0]
        if path.startswith("/static/") and (static / path.removeprefix("/static/")).is_file():
            route.fulfill(status=200, content_type="text/javascript",
                          body=(static / path.removeprefix("/static/")).read_bytes())
        else:
            route.fulfill(status=200, content_type="text/html; charset=utf-8", body=MODULE_PAGE)

    page.route("http://board.test/**", serve)
    page.goto("http://board.test/")
    page.wait_for_function("window.ready === true")
    text = page.evaluate("(data) => window.decide(data)", {
        "view": json.loads(json.dumps(view)), "legal": [["withhold_poll"]], "describe": game.describe(),
        "labels": [describe_action(("withhold_poll",), view, None)]})
    change = f"−{-delta}" if delta < 0 else f"±{delta}"
    assert (f"Only a poll with a plus for your party can be published; this one shows {change}: keep it secret "
            "for +3 party base.") in text
    page.close()
