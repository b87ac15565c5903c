"""Orders (glueck-auf.md, "Order spaces" and "Delivery"): taking an order card, keeping one of
five drawn, and delivering completed orders by one transport."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final, TypeVar

from stammtisch.engine.flow import SEQUENTIAL, Phase
from stammtisch.engine.protocol import Action, Event, EventKind, Seat
from stammtisch.games.glueckauf.data import TRANSPORTS
from stammtisch.games.glueckauf.phases.drawing import allows_return, legal_return, return_one
from stammtisch.games.glueckauf.phases.shift import end_turn, tally
from stammtisch.games.glueckauf.state import KEEP_ORDER, RETURN_ORDERS, Order, Player, State
from stammtisch.i18n import N_

if TYPE_CHECKING:
    from stammtisch.games.glueckauf.rules import GlueckAuf

KEEP_NO_ORDER: Final[Action] = ("keep_order", None)
T = TypeVar("T")

ORDER_TAKEN: Final = EventKind("order_taken", "seat", "card")
DELIVERED: Final = EventKind("delivered", "seat", "transport", "cards", "vp")


def new_order(game: GlueckAuf, card: int) -> Order:
    """The order of a card just taken: every field empty."""
    return game.fresh_orders[card]


def legal_keep_order(game: GlueckAuf, state: State, seat: Seat) -> list[Action]:
    legal = [game.keep_order_actions[c] for c in state.drawn]
    legal.append(KEEP_NO_ORDER)
    return legal


def allows_keep_order(game: GlueckAuf, state: State, seat: Seat, action: Action) -> bool:
    """Whether ``action`` is in ``legal_keep_order``'s list, without building it (the strict step)."""
    card = action[1] if len(action) == 2 else False
    return card is None or (type(card) is int and card in state.drawn)


def keep_order(game: GlueckAuf, state: State, seat: Seat, action: Action, events: list[Event]) -> None:
    card = None if action[1] is None else int(action[1])
    if card is None:
        events.append(Event("kept_nothing", {"seat": seat, "what": "order"}))
    else:
        state.drawn.remove(card)
        state.players[seat].orders.append(new_order(game, card))
        events.append(ORDER_TAKEN.event(seat, card))
    if state.drawn:
        game.enter_phase(state, RETURN_ORDERS, events)
    else:
        end_turn(game, state, events)


def return_orders(game: GlueckAuf, state: State, seat: Seat, action: Action, events: list[Event]) -> None:
    if return_one(state, seat, state.order_deck, action, "orders", events):
        end_turn(game, state, events)


def delivers(missing: int, card_transport: T, transport: T) -> bool:
    """Whether a delivery by ``transport`` takes an outstanding order (its card's transport, its fields
    still ``missing``): every completed order of that transport.  Delivering and the label of the choice
    (text.py, from the view's orders) both ask it."""
    return missing == 0 and card_transport == transport


def deliver(game: GlueckAuf, state: State, seat: int, p: Player, transport: int, events: list[Event]) -> None:
    cards = game.cards
    delivered = []
    kept = []
    for order in p.orders:
        if delivers(order.missing, cards[order.card].transport, transport):
            delivered.append(order.card)
            for field in order.fields:
                for cube in field:
                    state.supply[cube] += 1
        else:
            kept.append(order)
    p.orders = kept
    p.delivered.extend(delivered)
    vp = sum(cards[c].vp for c in delivered)
    p.vp += vp
    tally(state, "deliveries")
    tally(state, "orders_delivered", len(delivered))
    events.append(DELIVERED.event(seat, TRANSPORTS[transport], delivered, vp))


KEEP_ORDER_PHASE = Phase(KEEP_ORDER, N_("Choosing a drawn order card"), SEQUENTIAL, legal=legal_keep_order,
                         allows=allows_keep_order, moves={"keep_order": keep_order})
RETURN_ORDERS_PHASE = Phase(RETURN_ORDERS, N_("Returning drawn order cards"), SEQUENTIAL, legal=legal_return,
                            allows=allows_return, moves={"return_orders": return_orders})
