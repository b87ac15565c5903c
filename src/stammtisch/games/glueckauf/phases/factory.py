"""The factory (glueck-auf.md, "Factory spaces"): buying a tunnel tile, from the display or one of
five drawn, and the substitute coal owed when the supply lacks the tunnel's colour."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from stammtisch.engine.flow import SEQUENTIAL, Phase
from stammtisch.engine.protocol import Action, Event, EventKind, Seat
from stammtisch.games.glueckauf.board import COLOUR_INDEX
from stammtisch.games.glueckauf.data import COLOURS
from stammtisch.games.glueckauf.phases.drawing import legal_return, return_one
from stammtisch.games.glueckauf.phases.shift import end_turn, tally
from stammtisch.games.glueckauf.state import COAL, CONFIRM, KEEP_TILE, RETURN_TILES, Player, State
from stammtisch.i18n import N_

if TYPE_CHECKING:
    from stammtisch.games.glueckauf.rules import GlueckAuf

KEEP_NO_TILE: Final[Action] = ("keep_tile", None)
SUBSTITUTE: Final = tuple(("coal", name) for name in COLOURS)
LEAVE_CART_EMPTY: Final[Action] = ("coal", None)  # a substitute cube is optional ("możesz")
TILE_BOUGHT: Final = EventKind("tile_bought", "seat", "tile", "colour", "carts", "side", "cost", "substitutes_owed")


def buy_tile(game: GlueckAuf, s: State, seat: int, p: Player, tile_id: int, events: list[Event]) -> None:
    tile = game.tiles[tile_id]
    cost = game.tile_cost[tile_id]
    colour = tile.colour
    p.money -= cost
    p.tiles.append(tile_id)
    p.carts[colour] += tile.carts
    owed = 0
    for _ in range(tile.carts):
        if s.supply[colour]:
            s.supply[colour] -= 1
            p.coal[colour * 5] += 1
        elif any(s.supply):
            s.owed_coal.append(colour)
            owed += 1
        else:
            tally(s, "carts_left_empty")  # no cube of any colour left in the supply
    tally(s, "tiles_bought")
    events.append(TILE_BOUGHT.event(seat, tile_id, COLOURS[colour], tile.carts, "light" if tile.light else "dark", cost,
                              owed))


def after_purchase(game: GlueckAuf, s: State, events: list[Event]) -> None:
    if s.owed_coal and not any(s.supply):
        s.owed_coal.clear()
    if s.owed_coal:
        s.phase = COAL
    elif s.refill is not None:
        s.phase = CONFIRM
    else:
        end_turn(game, s, events)


# --- substitute coal -----------------------------------------------------------------------


def legal_coal(game: GlueckAuf, s: State, seat: Seat) -> list[Action]:
    return [*(SUBSTITUTE[c] for c in range(4) if s.supply[c]), LEAVE_CART_EMPTY]


def substitute(game: GlueckAuf, s: State, seat: Seat, action: Action, events: list[Event]) -> None:
    tunnel = s.owed_coal.pop(0)
    if action[1] is None:
        tally(s, "carts_left_empty")
        events.append(Event("cart_left_empty", {"seat": seat, "tunnel": COLOURS[tunnel]}))
        after_purchase(game, s, events)
        return
    colour = COLOUR_INDEX[action[1]]
    s.supply[colour] -= 1
    s.players[seat].coal[tunnel * 4 + colour] += 1
    tally(s, "substitute_cubes")
    events.append(Event("substitute_coal", {"seat": seat, "tunnel": COLOURS[tunnel], "colour": action[1]}))
    after_purchase(game, s, events)


# --- five drawn tiles ----------------------------------------------------------------------


def legal_keep_tile(game: GlueckAuf, s: State, seat: Seat) -> list[Action]:
    money = s.players[seat].money
    tile_cost = game.tile_cost
    legal = [game.keep_tile_actions[t] for t in s.drawn if tile_cost[t] <= money]
    legal.append(KEEP_NO_TILE)
    return legal


def keep_tile(game: GlueckAuf, s: State, seat: Seat, action: Action, events: list[Event]) -> None:
    tile = None if action[1] is None else int(action[1])
    if tile is None:
        events.append(Event("kept_nothing", {"seat": seat, "what": "tile"}))
    else:
        s.drawn.remove(tile)
        buy_tile(game, s, seat, s.players[seat], tile, events)
    if s.drawn:
        s.phase = RETURN_TILES
    else:
        after_purchase(game, s, events)


def return_tiles(game: GlueckAuf, s: State, seat: Seat, action: Action, events: list[Event]) -> None:
    if return_one(s, seat, s.tile_stack, action, "tiles", events):
        after_purchase(game, s, events)


KEEP_TILE_PHASE = Phase(KEEP_TILE, N_("Choosing a drawn tunnel tile"), SEQUENTIAL, legal=legal_keep_tile,
                        moves={"keep_tile": keep_tile})
RETURN_TILES_PHASE = Phase(RETURN_TILES, N_("Returning drawn tunnel tiles"), SEQUENTIAL, legal=legal_return,
                           moves={"return_tiles": return_tiles})
COAL_PHASE = Phase(COAL, N_("Substitute coal"), SEQUENTIAL, legal=legal_coal, moves={"coal": substitute})
