"""Placing a worker (glueck-auf.md, "A turn"): on a free space, displacing the workers there with
one more, or on the bank; then the space's action.  Board slots emptied during the turn are
refilled on ``("confirm",)``, so the turn can be taken back until then."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from stammtisch.engine.flow import SEQUENTIAL, Phase
from stammtisch.engine.protocol import Action, Event, EventKind, Seat
from stammtisch.games.glueckauf.board import (
    BANK,
    DELIVERY,
    FACTORY,
    FACTORY_DRAW,
    MINING_SPACE,
    MONEY,
    ORDER,
    ORDER_DRAW,
    Spot,
)
from stammtisch.games.glueckauf.phases.drawing import draw
from stammtisch.games.glueckauf.phases.factory import after_purchase, buy_tile
from stammtisch.games.glueckauf.phases.orders import ORDER_TAKEN, deliver, new_order
from stammtisch.games.glueckauf.phases.shift import end_turn, tally
from stammtisch.games.glueckauf.state import CONFIRM, KEEP_ORDER, KEEP_TILE, MINING, PLACE, Emptied, Player, State
from stammtisch.i18n import N_

if TYPE_CHECKING:
    from stammtisch.games.glueckauf.rules import GlueckAuf

CONFIRM_TURN: Final[Action] = ("confirm",)

# The events of a placement (events on every move: engine.protocol.EventKind).
PLACED_ON_BANK: Final = EventKind("placed", "seat", "space", "workers", "displaced")
PLACED: Final = EventKind("placed", "seat", "space", "workers", "displaced", "displaced_seat")
MARKS: Final = EventKind("marks", "seat", "marks")
REFILLED: Final = EventKind("refilled", "what", "slot", "id")
NOT_REFILLED: Final = EventKind("not_refilled", "what", "slot")


def legal_place(game: GlueckAuf, state: State, seat: Seat) -> list[Action]:
    p = state.players[seat]
    workers = p.workers
    money = p.money
    count = state.count
    factory = state.factory
    order_slots = state.order_slots
    tile_cost = game.tile_cost
    ready = complete_transports(game, p)
    tiles_left = bool(state.tile_stack)
    orders_left = bool(state.order_deck)
    legal = []
    for spot in game.spots:  # the hottest loop of Glück Auf: few comparisons per space (see board.KIND)
        if count[spot.index] >= workers:
            continue  # not enough workers to displace those there (the bank is never occupied)
        kind = spot.kind
        if kind <= FACTORY_DRAW:  # FACTORY or FACTORY_DRAW
            if kind == FACTORY:
                tile = factory[spot.number]
                if not tile or tile_cost[tile] > money:
                    continue
            elif not tiles_left:
                continue
        elif kind >= ORDER:  # ORDER or ORDER_DRAW
            if kind == ORDER:
                if not order_slots[spot.number]:
                    continue
            elif not orders_left:
                continue
        elif kind == DELIVERY and not ready >> spot.number & 1:
            continue
        legal.append(spot.place)
    return legal


def allows_place(game: GlueckAuf, state: State, seat: Seat, action: Action) -> bool:
    """Whether ``action`` is in ``legal_place``'s list, without building it (the strict step): the
    same tests for the one space named."""
    space = action[1] if len(action) == 2 else None
    spot = game.spot_by_id.get(space) if type(space) is str else None
    p = state.players[seat]
    if spot is None or state.count[spot.index] >= p.workers:
        return False
    kind = spot.kind
    if kind == FACTORY:
        tile = state.factory[spot.number]
        return bool(tile) and game.tile_cost[tile] <= p.money
    if kind == FACTORY_DRAW:
        return bool(state.tile_stack)
    if kind == ORDER:
        return bool(state.order_slots[spot.number])
    if kind == ORDER_DRAW:
        return bool(state.order_deck)
    if kind == DELIVERY:
        return bool(complete_transports(game, p) >> spot.number & 1)
    return True


def complete_transports(game: GlueckAuf, p: Player) -> int:
    """A bit per transport with at least one completed outstanding order."""
    transport = game.card_transport
    ready = 0
    for order in p.orders:
        if not order.missing:
            ready |= 1 << transport[order.card]
    return ready


def workers_needed(displaced: int) -> int:
    """The workers a placement takes: one more than it sends to the canteen (the bank: one).  Placing and
    the label of the choice (text.py, from the view's spaces) both ask it."""
    return displaced + 1


def place(game: GlueckAuf, state: State, seat: Seat, action: Action, events: list[Event]) -> None:
    spot = game.spot_by_id[action[1]]
    p = state.players[seat]
    if spot.kind == BANK:
        p.workers -= workers_needed(0)
        p.bank += 1
        p.money += 1
        events.append(PLACED_ON_BANK.event(seat, spot.id, workers_needed(0), 0))
        events.append(MARKS.event(seat, 1))
        end_turn(game, state, events)
        return
    displaced = state.count[spot.index]
    if displaced:
        state.players[state.owner[spot.index]].canteen += displaced
        tally(state, "displacements")
    workers = workers_needed(displaced)
    events.append(PLACED.event(seat, spot.id, workers, displaced, state.owner[spot.index]))
    state.owner[spot.index] = seat
    state.count[spot.index] = workers
    p.workers -= workers
    _carry_out(game, state, seat, p, spot, events)


def _carry_out(game: GlueckAuf, state: State, seat: int, p: Player, spot: Spot, events: list[Event]) -> None:
    kind = spot.kind
    if kind == MONEY:
        p.money += spot.number
        events.append(MARKS.event(seat, spot.number))
        end_turn(game, state, events)
    elif kind == MINING_SPACE:
        game.enter_phase(state, MINING, events)
        state.steps_left = spot.number
    elif kind == DELIVERY:
        deliver(game, state, seat, p, spot.number, events)
        end_turn(game, state, events)
    elif kind == FACTORY:
        tile = state.factory[spot.number]
        state.factory[spot.number] = 0
        state.refill = Emptied("factory", spot.number)
        buy_tile(game, state, seat, p, tile, events)
        after_purchase(game, state, events)
    elif kind == ORDER:
        card = state.order_slots[spot.number]
        state.order_slots[spot.number] = 0
        state.refill = Emptied("order", spot.number)
        p.orders.append(new_order(game, card))
        events.append(ORDER_TAKEN.event(seat, card))
        game.enter_phase(state, CONFIRM, events)
    elif kind == FACTORY_DRAW:
        draw(game, state, seat, state.tile_stack, "tiles", events)
        game.enter_phase(state, KEEP_TILE, events)
    else:
        draw(game, state, seat, state.order_deck, "orders", events)
        game.enter_phase(state, KEEP_ORDER, events)


def legal_confirm(game: GlueckAuf, state: State, seat: Seat) -> list[Action]:
    return [CONFIRM_TURN]


def allows_confirm(game: GlueckAuf, state: State, seat: Seat, action: Action) -> bool:
    return len(action) == 1  # ("confirm",): the engine checked the name


def confirm(game: GlueckAuf, state: State, seat: Seat, action: Action, events: list[Event]) -> None:
    assert state.refill is not None
    kind, slot = state.refill.what, state.refill.slot
    pile, slots = (state.tile_stack, state.factory) if kind == "factory" else (state.order_deck, state.order_slots)
    if pile:
        slots[slot] = pile.pop()
        events.append(REFILLED.event(kind, slot + 1, slots[slot]))
    else:
        tally(state, f"{kind}_not_refilled")
        events.append(NOT_REFILLED.event(kind, slot + 1))
    end_turn(game, state, events)


PLACE_PHASE = Phase(PLACE, N_("Placing workers"), SEQUENTIAL, legal=legal_place, allows=allows_place,
                    moves={"place": place})
CONFIRM_PHASE = Phase(CONFIRM, N_("Confirming the turn"), SEQUENTIAL, legal=legal_confirm,
                      allows=allows_confirm, moves={"confirm": confirm})
