"""Readable texts for every event and action; the heuristic bot."""

from __future__ import annotations

import json
import random
from typing import Any

from glueckauf_helpers import GREY, act, after_draft, black_tile_on_offer, card_with, give_order, new_game

from stammtisch.bots.base import RandomBot
from stammtisch.engine.protocol import Event
from stammtisch.engine.step import step
from stammtisch.games.glueckauf.bot import HeuristicBot
from stammtisch.games.glueckauf.data import TRANSPORTS
from stammtisch.games.glueckauf.rules import GlueckAuf
from stammtisch.games.glueckauf.text import TRANSPORT_NAMES, describe_action, describe_event


def test_delivery_sentence() -> None:
    event = Event("delivered", {"seat": 0, "transport": "train", "cards": [3, 9], "vp": 14})
    assert describe_event(event, None, ["Anna", "Ben"]) == "Anna delivers 2 orders by train: 14 points"
    assert describe_event(event, None, None) == "Player 1 delivers 2 orders by train: 14 points"


def test_some_action_texts() -> None:
    assert describe_action(("place", "mining_8"), None, None) == "Place on the 8-step pit"
    assert describe_action(("cage", "grey"), None, None) == "Move the cage to the grey tunnel"
    assert (
        describe_action(("fill", "cage", 12, 0, "black"), None, None)
        == "Put a black cube from the cage on field 1 of order card 12"
    )
    assert describe_action(("keep_tile", None), None, None) == "Keep no tunnel tile"


def test_every_event_and_action_of_random_games_reads() -> None:
    seen_events: set[str] = set()
    seen_actions: set[str] = set()
    for players in (2, 3, 4):
        game = GlueckAuf(players)
        rng = random.Random(players)
        for seed in range(6):
            state, events = game.new_state(seed)
            texts = [describe_event(e, None, None) for e in events]
            while not game.is_over(state):
                seat = game.to_act(state)[0]
                legal = game.legal_actions(state, seat)
                for action in legal:
                    seen_actions.add(action[0])
                    texts.append(describe_action(action, None, None))
                for event in step(game, state, seat, legal[rng.randrange(len(legal))]):
                    seen_events.add(event.kind)
                    texts.append(describe_event(event, None, ["A", "B", "C", "D"]))
            assert all(t and "{" not in t and "_" not in t for t in texts), [t for t in texts if "_" in t][:3]
    assert {"placed", "delivered", "tile_bought", "category_scored", "final_scoring", "game_over"} <= seen_events
    assert seen_actions >= {"draft", "place", "cage", "load", "fill", "store", "done", "confirm"}


def play(game: GlueckAuf, seed: int, heuristic_seat: int) -> tuple[list[int], list[int]]:
    state, _ = game.new_state(seed)
    bots: list[HeuristicBot | RandomBot] = [RandomBot(seed * 7 + k) for k in range(game.num_players)]
    bots[heuristic_seat] = HeuristicBot(seed)
    while not game.is_over(state):
        seat = game.to_act(state)[0]
        legal = game.legal_actions(state, seat)
        view = json.loads(json.dumps(game.view(state, seat)))  # the bot sees only serialised views
        action = bots[seat].choose(view, legal)
        assert action in legal
        step(game, state, seat, action)
    return game.winners(state), game.scores(state)


def test_heuristic_bot_beats_random_bots() -> None:
    game = GlueckAuf(4)
    wins = 0
    for seed in range(12):
        winners, _scores = play(game, 500 + seed, seed % 4)
        wins += winners == [seed % 4]
    assert wins >= 10


def test_heuristic_bot_plays_two_and_three_players() -> None:
    for players in (2, 3):
        winners, scores = play(GlueckAuf(players), 9, 1)
        assert winners == [1] and scores[1] > 20


def test_bot_completes_an_order_in_one_mining_run() -> None:
    game = new_game(4)
    state = after_draft(game)
    p = state.players[0]
    p.carts[GREY] = 3
    p.coal[GREY * 4 + GREY] = 3
    card = card_with(game, 0, (GREY, GREY))
    p.orders = []
    give_order(game, state, 0, card)
    bot = HeuristicBot()
    act(game, state, ("place", "mining_6"))
    while state.current == 0 and state.phase == "mining":
        act(game, state, bot.choose(game.view(state, 0), game.legal_actions(state, 0)))
    assert p.orders[0].missing == 0  # down, load, load, up, fill, fill


def test_new_decision_texts() -> None:
    # issue #8 items 5 and 6
    assert describe_action(("coal", None), None, None) == "Leave the new minecart empty"
    assert describe_action(("return_tiles", "top", 7), None, None) == "Put tunnel tile 7 on top of the stack"
    assert describe_action(("return_orders", "bottom", 30), None, None) == "Put order card 30 under the deck"
    event = Event("cart_left_empty", {"seat": 1, "tunnel": "black"})
    assert describe_event(event, None, ["Anna", "Ben"]) == "Ben leaves a new minecart in the black tunnel empty"


def test_bot_substitute_cube_or_empty_cart_and_return_order() -> None:
    # issue #8 items 5 and 6: the bot takes a cube its orders lack, leaves the cart empty in the
    # last shift (empty carts score then), and puts the tiles it passed over under the stack
    game, state = black_tile_on_offer(2, [3, 0, 2, 0])
    p = state.players[0]
    p.orders = []
    give_order(game, state, 0, card_with(game, 0, (GREY,)))
    p.coal = [0] * 16
    bot = HeuristicBot()
    act(game, state, ("place", "factory_1"))
    assert bot.choose(game.view(state, 0), game.legal_actions(state, 0)) == ("coal", "grey")
    act(game, state, ("coal", "grey"))
    state.shift = game.edition.shifts
    assert bot.choose(game.view(state, 0), game.legal_actions(state, 0)) == ("coal", None)
    act(game, state, ("coal", None))
    act(game, state, ("confirm",))
    act(game, state, ("place", "factory_draw"))
    act(game, state, ("keep_tile", None))
    while state.current == 1:
        action = bot.choose(game.view(state, 1), game.legal_actions(state, 1))
        assert action[:2] == ("return_tiles", "bottom")
        act(game, state, action)


def _check_priced_label(game: GlueckAuf, state: Any, seat: int, action: Any, label: str) -> str:
    """Take ``action`` on a copy and hold its label against what the rules did; returns what was checked."""
    before = state.players[seat]
    steps_before = state.steps_left
    after = game.copy(state)
    events = step(game, after, seat, action)
    now = after.players[seat]
    if action[0] == "place":
        placed = next(e for e in events if e.kind == "placed")
        workers = placed.params["workers"]  # one more than those displaced
        assert label.startswith(f"Place {workers} worker") and before.workers >= workers, (label, workers)
        bought = next((e for e in events if e.kind == "tile_bought"), None)
        delivered = next((e for e in events if e.kind == "delivered"), None)
        if bought:
            assert label.endswith(f"price {bought.params['cost']} Mark" + ("s" if bought.params["cost"] > 1 else ""))
            return "tile"
        if delivered:
            assert label.endswith(f"for {delivered.params['vp']} VP") and delivered.params["vp"] == now.vp - before.vp
            return "delivery"
        taken = next((e for e in events if e.kind == "order_taken"), None)
        if taken:
            card = game.cards[taken.params["card"]]
            assert label.endswith(f"order card {card.id}, {TRANSPORT_NAMES[TRANSPORTS[card.transport]]}, {card.vp} VP")
            return "order"
        return "workers"
    if action[0] == "keep_tile" and action[1] is not None:
        assert label.endswith(f"price {before.money - now.money} Mark" + ("s" if before.money - now.money > 1 else ""))
        return "tile"
    if action[0] in ("keep_order", "draft") and action[1] is not None:
        card = game.cards[int(action[1])]
        assert label.endswith(f"{TRANSPORT_NAMES[TRANSPORTS[card.transport]]}, {card.vp} VP"), label
        return "order"
    if action[0] in ("cage", "load", "store", "fill"):
        assert label.endswith(f"(1 of {steps_before} work step{'s' if steps_before > 1 else ''} left)"), label
        assert after.steps_left in (steps_before - 1, 0)
        return "step"
    return ""


def test_every_choice_names_what_it_costs_and_brings() -> None:
    # issue 25 defect 3: Glück Auf's costs on the choices — the workers a placement takes, a tunnel tile's
    # price, an order card's transport and VP, a delivery's VP, the work step a mining step uses
    checked: set[str] = set()
    for players in (2, 3, 4):
        game = GlueckAuf(players)
        bot = HeuristicBot(players)  # it completes and delivers orders
        state, _ = game.new_state(players)
        while not game.is_over(state):
            seat = game.to_act(state)[0]
            legal = game.legal_actions(state, seat)
            view = game.view(state, seat)
            for action in legal:
                checked.add(_check_priced_label(game, state, seat, action, describe_action(action, view, None)))
            step(game, state, seat, bot.choose(view, legal))
    assert {"tile", "delivery", "order", "workers", "step"} <= checked
