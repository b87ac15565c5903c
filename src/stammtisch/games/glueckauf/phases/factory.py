"""The factory (glueck-auf.md, "Factory spaces"): buying a tunnel tile, from the display or one of
five drawn, and the substitute coal owed when the supply lacks the tunnel's colour."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from stammtisch.engine.flow import SEQUENTIAL, Phase
from stammtisch.engine.protocol import Action, Event, EventKind, Seat
from stammtisch.games.glueckauf.board import COLOUR_INDEX
from stammtisch.games.glueckauf.data import COLOURS
from stammtisch.games.glueckauf.phases.drawing import allows_return, legal_return, return_one
from stammtisch.games.glueckauf.phases.shift import end_turn, tally
from stammtisch.games.glueckauf.state import COAL, CONFIRM, KEEP_TILE, RETURN_TILES, Player, State
from stammtisch.i18n import N_

if TYPE_CHECKING:
    from stammtisch.games.glueckauf.rules import GlueckAuf

KEEP_NO_TILE: Final[Action] = ("keep_tile", None)
SUBSTITUTE: Final = tuple(("coal", name) for name in COLOURS)
LEAVE_CART_EMPTY: Final[Action] = ("coal", None)  # a substitute cube is optional ("możesz")
TILE_BOUGHT: Final = EventKind("tile_bought", "seat", "tile", "colour", "carts", "side", "cost", "substitutes_owed")


def buy_tile(game: GlueckAuf, state: State, seat: int, p: Player, tile_id: int, events: list[Event]) -> None:
    tile = game.tiles[tile_id]
    cost = game.tile_cost[tile_id]
    colour = tile.colour
    p.money -= cost
    p.tiles.append(tile_id)
    p.carts[colour] += tile.carts
    owed = 0
    for _ in range(tile.carts):
        if state.supply[colour]:
            state.supply[colour] -= 1
            p.coal[colour * 5] += 1
        elif any(state.supply):
            state.owed_coal.append(colour)
            owed += 1
        else:
            tally(state, "carts_left_empty")  # no cube of any colour left in the supply
    tally(state, "tiles_bought")
    events.append(TILE_BOUGHT.event(seat, tile_id, COLOURS[colour], tile.carts, "light" if tile.light else "dark", cost,
                              owed))


def after_purchase(game: GlueckAuf, state: State, events: list[Event]) -> None:
    if state.owed_coal and not any(state.supply):
        state.owed_coal.clear()
    if state.owed_coal:
        game.enter_phase(state, COAL, events)
    elif state.refill is not None:
        game.enter_phase(state, CONFIRM, events)
    else:
        end_turn(game, state, events)


# --- substitute coal -----------------------------------------------------------------------


def legal_coal(game: GlueckAuf, state: State, seat: Seat) -> list[Action]:
    return [*(SUBSTITUTE[c] for c in range(4) if state.supply[c]), LEAVE_CART_EMPTY]


def substitute(game: GlueckAuf, state: State, seat: Seat, action: Action, events: list[Event]) -> None:
    tunnel = state.owed_coal.pop(0)
    if action[1] is None:
        tally(state, "carts_left_empty")
        events.append(Event("cart_left_empty", {"seat": seat, "tunnel": COLOURS[tunnel]}))
        after_purchase(game, state, events)
        return
    colour = COLOUR_INDEX[action[1]]
    state.supply[colour] -= 1
    state.players[seat].coal[tunnel * 4 + colour] += 1
    tally(state, "substitute_cubes")
    events.append(Event("substitute_coal", {"seat": seat, "tunnel": COLOURS[tunnel], "colour": action[1]}))
    after_purchase(game, state, events)


# --- five drawn tiles ----------------------------------------------------------------------


def legal_keep_tile(game: GlueckAuf, state: State, seat: Seat) -> list[Action]:
    money = state.players[seat].money
    tile_cost = game.tile_cost
    legal = [game.keep_tile_actions[t] for t in state.drawn if tile_cost[t] <= money]
    legal.append(KEEP_NO_TILE)
    return legal


def allows_keep_tile(game: GlueckAuf, state: State, seat: Seat, action: Action) -> bool:
    """Whether ``action`` is in ``legal_keep_tile``'s list, without building it (the strict step)."""
    tile = action[1] if len(action) == 2 else False
    if tile is None:
        return True
    return type(tile) is int and tile in state.drawn and game.tile_cost[tile] <= state.players[seat].money


def keep_tile(game: GlueckAuf, state: State, seat: Seat, action: Action, events: list[Event]) -> None:
    tile = None if action[1] is None else int(action[1])
    if tile is None:
        events.append(Event("kept_nothing", {"seat": seat, "what": "tile"}))
    else:
        state.drawn.remove(tile)
        buy_tile(game, state, seat, state.players[seat], tile, events)
    if state.drawn:
        game.enter_phase(state, RETURN_TILES, events)
    else:
        after_purchase(game, state, events)


def return_tiles(game: GlueckAuf, state: State, seat: Seat, action: Action, events: list[Event]) -> None:
    if return_one(state, seat, state.tile_stack, action, "tiles", events):
        after_purchase(game, state, events)


KEEP_TILE_PHASE = Phase(KEEP_TILE, N_("Choosing a drawn tunnel tile"), SEQUENTIAL, legal=legal_keep_tile,
                        allows=allows_keep_tile, moves={"keep_tile": keep_tile})
RETURN_TILES_PHASE = Phase(RETURN_TILES, N_("Returning drawn tunnel tiles"), SEQUENTIAL, legal=legal_return,
                           allows=allows_return, moves={"return_tiles": return_tiles})
COAL_PHASE = Phase(COAL, N_("Substitute coal"), SEQUENTIAL, legal=legal_coal, moves={"coal": substitute})
