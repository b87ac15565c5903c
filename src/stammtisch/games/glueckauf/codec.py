"""Glück Auf's encodings: the action table (every action that can ever be legal at a table, in a
fixed order), the shape of the views and the longest game.

The views' shape (``observation_shape``, engine/shape.py) gives every list the room the rules allow
it, each with the reason; ``most_decisions`` bounds the decisions of a whole game, turn by turn.
"""

from __future__ import annotations

import math
from collections import Counter
from typing import TYPE_CHECKING

from stammtisch.engine.protocol import Action
from stammtisch.engine.shape import (
    ONE_PER_SEAT,
    Const,
    Int,
    Maybe,
    Record,
    Seq,
    Text,
    envelope_shape,
    one_of,
    phase_names,
    seat_list,
)
from stammtisch.games.glueckauf.board import BANK, FACTORY, FACTORY_DRAW, LEVELS, MINING_SPACE, ORDER, ORDER_DRAW, Spot
from stammtisch.games.glueckauf.data import COLOURS, SIDES, TRANSPORTS
from stammtisch.games.glueckauf.phases.drawing import RETURN_SIDES
from stammtisch.games.glueckauf.scoring import final_breakdown

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


# --- the views' shape ---------------------------------------------------------------------------

SUBSTITUTES = 2  # a field takes one cube of its colour or two substitutes (glueck-auf.md, Mining)


def observation_shape(game: GlueckAuf) -> Record:
    """Every view at this table (view.py), each list with the room the rules give it."""
    ed, n = game.edition, game.num_players
    card, tile = _card(game), _tile()
    drawn = one_of(tile, card)
    fresh = game.new_state(0)[0]  # the rules in force and the final table's columns, as the view names them
    board = Record({
        "options": Const(game.view(fresh, None)["board"]["options"]),
        "shift": Int(),
        "shifts": Const(ed.shifts),
        "current": Maybe(Int()),
        "start_player": Int(),
        "steps_left": Int(),
        "substitutes_owed": Seq(Text(COLOURS), max(t.carts for t in ed.tunnel_tiles),
                                "a cube for each cart of the tile bought (Factory)"),
        "draft": Seq(card, ed.draft_reveal[n], "the cards revealed for the draft (Setup 9)"),
        "draft_queue": Seq(Int(), n * ed.orders_drafted, "every seat's draft picks (Setup 9)"),
        "spaces": Record({spot.id: _space(game, spot, tile, card) for spot in game.spots}),
        "tile_stack": Int(),
        "order_deck": Int(),
        "supply": Record(dict.fromkeys(COLOURS, Int())),
        "seats": Seq(_seat(game, card, tile), n, ONE_PER_SEAT),
        "drawn": Maybe(Seq(drawn, ed.draw_count, "a draw-5 space draws five (Factory, New order)")),
        "returned": Maybe(Record({"to": Text(RETURN_SIDES), "items": Seq(drawn, ed.draw_count, "the five drawn")})),
        "last_scoring": Seq(Record({"shift": Int(), "category": Text([c.id for c in ed.categories]),
                                    "counts": seat_list(n), "vp": seat_list(n)}),
                            len(ed.categories), "a shift scores each category once at most (Shift scoring)"),
    })
    detail = Record(dict.fromkeys(final_breakdown(ed, fresh.players[0]), Int()))
    return envelope_shape(game, phases=phase_names(game.flow), decision=Record({"seat": Maybe(Int())}),
                          board=board, final_detail=detail)


def _card(game: GlueckAuf) -> Record:
    return Record({"id": Int(), "transport": Text(TRANSPORTS), "vp": Int(),
                   "fields": Seq(Text(COLOURS), _most_fields(game), "the most fields an order card prints")})


def _tile() -> Record:
    return Record({"id": Int(), "colour": Text(COLOURS), "carts": Int(), "side": Text(SIDES), "cost": Int()})


def _most_fields(game: GlueckAuf) -> int:
    return max(len(card.fields) for card in game.edition.order_cards)


def _space(game: GlueckAuf, spot: Spot, tile: Record, card: Record) -> Record:
    if spot.kind == BANK:
        return Record({"workers": Record(dict.fromkeys(map(str, range(game.num_players)), Int()))})
    held = {FACTORY: {"tile": Maybe(tile)}, ORDER: {"card": Maybe(card)}}.get(spot.kind, {})
    return Record({"owner": Maybe(Int()), "workers": Int(), **held})


def _seat(game: GlueckAuf, card: Record, tile: Record) -> Record:
    ed, n = game.edition, game.num_players
    # Order cards never leave the seat that took them, and every other seat keeps its drafted ones.
    held = len(ed.order_cards) - ed.orders_drafted * (n - 1)
    why = f"the {len(ed.order_cards)} order cards but the other seats' drafted ones"
    order = Record({**card.fields, "filled": Seq(Seq(Text(COLOURS), SUBSTITUTES, "one cube or two substitutes"),
                                                _most_fields(game), "a cube pile per field"),
                    "missing": Int()})
    per_side = max(Counter((t.colour, t.light) for t in ed.tunnel_tiles).values())
    side = Seq(tile, per_side, "the edition's tiles of one colour and side (Tunnel tiles)")
    tunnel = Record({"colour": Text(COLOURS), "carts": Int(), "coal": Record(dict.fromkeys(COLOURS, Int())),
                     "empty_carts": Int(), "light": side, "dark": side})
    return Record({
        "seat": Int(), "vp": Int(), "money": Int(), "workers": Int(), "canteen": Int(), "bank": Int(),
        "cage_level": Text(LEVELS),
        "cage": Record(dict.fromkeys(COLOURS, Int())),
        "storage": Record(dict.fromkeys(COLOURS, Int())),
        "tunnels": Seq(tunnel, len(COLOURS), "a tunnel per coal colour (Player pit)"),
        "light_tiles": Int(),
        "dark_tiles": Int(),
        "orders": Seq(order, held, why),
        "delivered_count": Int(),
        "delivered": Maybe(Seq(card, held, why)),
    })


# --- the longest game ---------------------------------------------------------------------------


def most_decisions(game: GlueckAuf) -> int:
    """The most decisions a game at this table can take: the draft, then the most each shift allows
    (docs/research.md, "The longest game")."""
    ed, n = game.edition, game.num_players
    return n * ed.orders_drafted + ed.shifts * _shift_decisions(game, n * ed.workers[n])


def _shift_decisions(game: GlueckAuf, workers: int) -> int:
    """A turn places workers (a decision) and carries out the space's action (``_after_placing``).
    Workers placed stay until the shift ends, so the k-th use of a space in a shift takes k workers
    (those there go to the canteen); the bank takes one each time and asks nothing more.  With the
    workers of every seat together, the uses that give the most decisions per worker first (the
    last one taken in part) bound the shift."""
    uses = sorted(((1 + after) / k, 1 + after, k) for spot in game.spots if spot.kind != BANK
                  for after in [_after_placing(game, spot)] for k in range(1, workers + 1))
    decisions, left = 0, workers
    for per_worker, count, cost in reversed(uses):
        if per_worker <= 1 or not left:
            break  # the bank gives as much
        if cost > left:
            return decisions + math.floor(per_worker * left)
        decisions, left = decisions + count, left - cost
    return decisions + left  # the rest on the bank


def _after_placing(game: GlueckAuf, spot: Spot) -> int:
    """The most decisions a space's action asks after the placement."""
    carts = max(t.carts for t in game.edition.tunnel_tiles)
    draw = game.edition.draw_count
    return {
        MINING_SPACE: spot.number,  # a step each, or "done" before the last
        FACTORY: carts + 1,  # a substitute cube for each cart the supply cannot fill, then "confirm"
        # keep one of the drawn tiles or none, put the rest back, the substitutes for the one kept
        FACTORY_DRAW: 1 + max(_putting_back(draw), _putting_back(draw - 1) + carts),
        ORDER: 1,  # "confirm"
        ORDER_DRAW: 1 + _putting_back(draw),  # keep one of the drawn cards or none, put the rest back
    }.get(spot.kind, 0)


def _putting_back(items: int) -> int:
    """Drawn items are put back one by one, the last of several by itself (phases/drawing.py)."""
    return max(items - 1, min(items, 1))
