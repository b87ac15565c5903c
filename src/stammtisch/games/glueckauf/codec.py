"""Glück Auf's action table: every action that can ever be legal at a table, in a fixed order."""

from __future__ import annotations

from typing import TYPE_CHECKING

from stammtisch.engine.protocol import Action

if TYPE_CHECKING:
    from stammtisch.games.glueckauf.rules import GlueckAuf


def action_table(game: GlueckAuf) -> list[Action]:
    from stammtisch.games.glueckauf.phases.drawing import RETURN_SIDES
    from stammtisch.games.glueckauf.phases.factory import KEEP_NO_TILE, LEAVE_CART_EMPTY, SUBSTITUTE
    from stammtisch.games.glueckauf.phases.mining import CAGE_TO, DONE, LOAD, STORE
    from stammtisch.games.glueckauf.phases.orders import KEEP_NO_ORDER
    from stammtisch.games.glueckauf.phases.placement import CONFIRM_TURN

    cards = [card.id for card in game.edition.order_cards]
    tiles = [tile.id for tile in game.edition.tunnel_tiles]
    table: list[Action] = [("draft", c) for c in cards]
    table += [spot.place for spot in game.spots]
    table += [*CAGE_TO, *LOAD, *STORE, DONE]
    table += [action for by_source in game.fill_actions for by_card in by_source[1:]
              for by_field in by_card for action in by_field]
    table += [("keep_tile", t) for t in tiles] + [KEEP_NO_TILE]
    table += [("return_tiles", where, t) for where in RETURN_SIDES for t in tiles]
    table += [("keep_order", c) for c in cards] + [KEEP_NO_ORDER]
    table += [("return_orders", where, c) for where in RETURN_SIDES for c in cards]
    table += [*SUBSTITUTE, LEAVE_CART_EMPTY, CONFIRM_TURN]
    return table
