"""Hints that say why (issue 30 item 2): the fact about the hinted move matches the position."""

from __future__ import annotations

from glueckauf_helpers import BLACK, BROWN, GREY, YELLOW, act, after_draft, card_with, give_order, new_game

from stammtisch.bots.hints import why
from stammtisch.bots.ismcts import Estimate
from stammtisch.engine.protocol import Action
from stammtisch.games.glueckauf.board import COLOURS
from stammtisch.games.glueckauf.rules import GlueckAuf
from stammtisch.games.glueckauf.state import State

NAMES = ["Anna", "Ben", "Cem"]


def fact(game: GlueckAuf, state: State, seat: int, action: Action) -> str | None:
    reason = why(game.name, game.view(state, seat), [Estimate(action, 30, 0.7), Estimate(("done",), 30, 0.6)], NAMES)
    assert reason is not None
    return reason.fact


def train_orders(game: GlueckAuf, **options: object) -> tuple[GlueckAuf, State, int, int]:
    """Player 1 holds two completed train orders (2 and 3 fields) and an incomplete one; one train order of
    4 fields delivered before.  glueck-auf.md §5: a delivery takes every completed order of its transport."""
    state = after_draft(game)
    p = state.players[0]
    p.orders = []
    a = card_with(game, 3, (GREY, GREY))
    b = card_with(game, 3, (BROWN, BROWN, BROWN))
    give_order(game, state, 0, a, ((GREY,), (YELLOW, BLACK)))
    give_order(game, state, 0, b, ((BROWN,), (BROWN,), (BROWN,)))
    give_order(game, state, 0, card_with(game, 3, (BLACK,)))
    p.delivered = [next(c.id for c in game.edition.order_cards if c.transport == 3 and len(c.fields) == 4
                        and c.id not in (a, b))]
    return game, state, a, b


def train_fields(game: GlueckAuf, cards: list[int]) -> int:
    return sum(len(game.cards[c].fields) for c in cards if game.cards[c].transport == 3)


def test_a_delivery_names_the_orders_it_fulfils_and_the_category_it_adds_to() -> None:
    game, state, a, b = train_orders(new_game(3))
    p = state.players[0]
    vp = game.cards[a].vp + game.cards[b].vp
    assert fact(game, state, 0, ("place", "delivery_train")) == (
        f"Fulfils order cards {a}, {b} for {vp} VP; your train order fields: 4 → 9")
    vp_before = p.vp
    act(game, state, ("place", "delivery_train"))
    assert p.vp == vp_before + vp and {a, b} <= set(p.delivered)  # what the hint said, on the board
    assert train_fields(game, p.delivered) == 9


def test_a_delivery_compares_with_the_others_only_where_their_piles_are_open() -> None:
    # glueck-auf.md: delivered piles are secret unless the table plays with open_delivered.
    game, state, _a, _b = train_orders(new_game(3, open_delivered=True))
    held = {o.card for o in state.players[0].orders} | set(state.players[0].delivered)
    state.players[2].delivered = [next(c.id for c in game.edition.order_cards
                                       if c.transport == 3 and len(c.fields) == 3 and c.id not in held)]
    text = fact(game, state, 0, ("place", "delivery_train"))
    assert text is not None and text.endswith("your train order fields: 4 → 9, Cem has 3")
    closed, state, _a, _b = train_orders(new_game(3))
    state.players[2].delivered = [next(c.id for c in closed.edition.order_cards
                                       if c.transport == 3 and len(c.fields) == 3 and c.id not in held)]
    text = fact(closed, state, 0, ("place", "delivery_train"))
    assert text is not None and text.endswith("your train order fields: 4 → 9")  # Cem's pile is secret


def test_no_delivery_fact_without_a_completed_order() -> None:
    game, state, _a, _b = train_orders(new_game(3))
    assert fact(game, state, 0, ("place", "delivery_lorry")) is None


def test_filling_an_order_says_what_is_left_or_that_it_is_ready() -> None:
    # glueck-auf.md: a field takes one cube of its colour, or two cubes of other colours
    game = new_game(2)
    state = after_draft(game)
    p = state.players[0]
    order = next(c for c in game.edition.order_cards if c.transport == 1 and len(c.fields) == 2)
    card, (first, second) = order.id, order.fields
    substitute = next(c for c in (YELLOW, BROWN, GREY, BLACK) if c != first)
    p.orders = []
    give_order(game, state, 0, card)
    assert p.orders[0].missing == 2
    assert fact(game, state, 0, ("fill", "cage", card, 0, COLOURS[first])) == (
        f"Order card {card}: 1 field still to fill after this")
    assert fact(game, state, 0, ("fill", "cage", card, 0, COLOURS[substitute])) == (  # a substitute: half the field
        f"Order card {card}: a second cube completes this field; 2 fields still to fill")
    p.orders = []
    give_order(game, state, 0, card, ((first,), ()))
    assert p.orders[0].missing == 1
    assert fact(game, state, 0, ("fill", "cage", card, 1, COLOURS[second])) == (
        f"Completes order card {card}: ready for the horse wagon delivery, {order.vp} VP")


def test_the_cage_and_loading_name_the_coal_they_move() -> None:
    # glueck-auf.md, mining: the cage goes to a tunnel and loads its cubes, or brings them to the surface
    game = new_game(2)
    state = after_draft(game)
    p = state.players[0]
    p.coal[BROWN * 4: BROWN * 4 + 4] = [0, 2, 1, 0]  # the brown tunnel: 2 brown cubes, 1 grey
    p.cage = [1, 0, 1, 0]
    assert fact(game, state, 0, ("cage", "brown")) == "Your brown tunnel holds 3 cubes"
    assert fact(game, state, 0, ("cage", "surface")) == "The cage brings 2 cubes to the surface"
    p.orders = []
    give_order(game, state, 0, card_with(game, 3, (GREY, GREY)))
    give_order(game, state, 0, card_with(game, 3, (BROWN, BROWN, BROWN)), ((BROWN,), (), ()))
    assert fact(game, state, 0, ("load", "brown")) == "Cage: brown cubes 0 → 1; empty brown fields on your orders: 2"
    assert fact(game, state, 0, ("load", "grey")) == "Cage: grey cubes 1 → 2; empty grey fields on your orders: 2"


def test_the_comparison_gives_both_values_and_the_games_behind_them() -> None:
    game, state, _a, _b = train_orders(new_game(3))
    reason = why(game.name, game.view(state, 0), [Estimate(("place", "bank"), 30, 0.712), Estimate(("done",), 30, 0.6)],
                 NAMES)
    assert reason is not None and reason.fact is None
    assert reason.line() == "Rated 71 of 100 against 60 for the next best move, over 30 simulated games"
