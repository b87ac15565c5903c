"""New orders (slots and draw 5) and deliveries."""

from __future__ import annotations

import pytest
from glueckauf_helpers import BLACK, BROWN, GREY, YELLOW, act, after_draft, card_with, give_order, new_game

from stammtisch.engine.protocol import IllegalAction
from stammtisch.games.glueckauf.state import CONFIRM, KEEP_ORDER, PLACE, RETURN_ORDERS


def test_take_an_order_and_refill_on_confirm() -> None:
    game = new_game(4)
    state = after_draft(game)
    card = state.order_slots[2]
    top = state.order_deck[-1]
    act(game, state, ("place", "order_3"))
    assert state.players[0].orders[-1] == (card, ((),) * len(game.cards[card].fields), len(game.cards[card].fields))
    assert state.order_slots[2] == 0 and state.phase == CONFIRM and state.players[0].money == 8
    act(game, state, ("confirm",))
    assert state.order_slots[2] == top and state.order_deck[-1] != top


def test_order_draw_five() -> None:
    game = new_game(3)
    state = after_draft(game)
    deck = list(state.order_deck)
    act(game, state, ("place", "order_draw"))
    assert state.phase == KEEP_ORDER and sorted(state.drawn) == sorted(deck[-5:])
    legal = game.legal_actions(state, 0)
    assert sorted(a[1] for a in legal if a[1] is not None) == sorted(deck[-5:]) and ("keep_order", None) in legal
    keep = deck[-3]
    act(game, state, ("keep_order", keep))
    assert state.phase == RETURN_ORDERS and state.players[0].orders[-1].card == keep
    rest = sorted(c for c in deck[-5:] if c != keep)
    assert game.legal_actions(state, 0) == [("return_orders", where, c) for where in ("top", "bottom") for c in rest]
    for card in rest[:-1]:
        act(game, state, ("return_orders", "top", card))
    assert state.order_deck[-4:] == rest
    assert state.phase == PLACE


def test_order_draw_five_the_drawer_chooses_the_next_card() -> None:
    # issue #8 item 5; glueck-auf.md §5: the other cards go back in any order, on top or under
    # the deck, so the drawer decides which card refills the next emptied order space.
    game = new_game(3)
    state = after_draft(game)
    act(game, state, ("place", "order_draw"))
    act(game, state, ("keep_order", None))
    hand = sorted(state.drawn)
    chosen = [hand[1], hand[3], hand[0], hand[4], hand[2]]
    for card in chosen[:4]:
        act(game, state, ("return_orders", "top", card))
    assert state.order_deck[-5:] == chosen and state.phase == PLACE
    act(game, state, ("place", "order_2"))
    act(game, state, ("confirm",))
    assert state.order_slots[1] == chosen[-1]


def test_keep_no_order_and_return_to_the_bottom() -> None:
    game = new_game(3)
    state = after_draft(game)
    deck = list(state.order_deck)
    act(game, state, ("place", "order_draw"))
    act(game, state, ("keep_order", None))
    hand = sorted(deck[-5:])
    for card in hand[:-1]:
        act(game, state, ("return_orders", "bottom", card))
    assert state.order_deck[:5] == hand[::-1] and state.order_deck[5:] == deck[:-5]
    assert len(state.players[0].orders) == 3


def test_delivery_takes_every_completed_order_of_its_transport() -> None:
    game = new_game(4)
    state = after_draft(game)
    p = state.players[0]
    p.orders = []
    a = card_with(game, 3, (GREY, GREY))  # train 7
    b = card_with(game, 3, (BROWN, BROWN, BROWN))  # train 7
    c = card_with(game, 3, (BLACK,))  # train 5, incomplete
    d = card_with(game, 0, (YELLOW,))  # handcart, complete
    give_order(game, state, 0, a, ((GREY,), (YELLOW, BLACK)))
    give_order(game, state, 0, b, ((BROWN,), (BROWN,), (BROWN,)))
    give_order(game, state, 0, c)
    give_order(game, state, 0, d, ((YELLOW,),))
    supply = list(state.supply)
    events = act(game, state, ("place", "delivery_train"))
    assert p.vp == 14 and sorted(p.delivered) == sorted([a, b])
    assert [o[0] for o in p.orders] == [c, d]
    assert state.supply == [supply[0] + 1, supply[1] + 3, supply[2] + 1, supply[3] + 1]
    delivered = [e for e in events if e.kind == "delivered"][0]
    assert delivered.params["vp"] == 14 and delivered.params["transport"] == "train"
    assert state.phase == PLACE and state.current == 1


def test_delivery_without_a_completed_order_is_illegal() -> None:
    game = new_game(4)
    state = after_draft(game)
    state.players[0].orders = []
    give_order(game, state, 0, card_with(game, 2, (YELLOW,)), ((BROWN,),))
    before = state.copy()
    with pytest.raises(IllegalAction):
        act(game, state, ("place", "delivery_lorry"))
    assert state == before
