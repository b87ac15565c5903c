"""What one seat may know: the whole open table, its own secrets, nothing else.

Never in a view: the order or contents of the tile stack and the order deck (only their
sizes), the Chance, another seat's draw-5 hand and the order in which it puts it back, and
(unless the table plays with open delivered cards) which cards another seat has delivered
since the last shift scoring revealed them (at game over every pile is open).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from stammtisch.engine.flow import FlowGame
from stammtisch.engine.options import GUIDE, HINTS
from stammtisch.engine.view import envelope
from stammtisch.games.glueckauf.board import BANK, FACTORY, LEVELS, ORDER
from stammtisch.games.glueckauf.data import COLOURS, TRANSPORTS, OrderCard
from stammtisch.games.glueckauf.state import (
    DRAFT,
    KEEP_ORDER,
    KEEP_TILE,
    OVER,
    PLACE,
    RETURN_ORDERS,
    RETURN_TILES,
    Order,
    Player,
    State,
)

if TYPE_CHECKING:
    from stammtisch.games.glueckauf.rules import GlueckAuf

def build_view(game: GlueckAuf, state: State, seat: int | None) -> dict[str, Any]:
    acting = state.draft_queue[0] if state.phase == DRAFT else state.current
    current = None if state.phase == OVER else acting
    board: dict[str, Any] = {
        # the rules in force
        "options": {k: v for k, v in game.options.items() if k not in ("edition", HINTS.name, GUIDE.name)},
        "shift": state.shift,
        "shifts": game.edition.shifts,
        "current": current,
        "start_player": state.start_player,
        "steps_left": state.steps_left,
        "substitutes_owed": [COLOURS[t] for t in state.owed_coal],
        "draft": [card_view(game.cards[c]) for c in state.revealed],
        "draft_queue": list(state.draft_queue),
        "spaces": _spaces(game, state),
        "tile_stack": len(state.tile_stack),
        "order_deck": len(state.order_deck),
        "supply": dict(zip(COLOURS, state.supply, strict=True)),
        "seats": [_seat(game, state, p, other, seat) for other, p in enumerate(state.players)],
        "drawn": _drawn(game, state, seat),
        "returned": _returned(game, state, seat),
        "last_scoring": [dict(row) for row in state.scored],  # so a page drawn anew shows it as a table
    }
    detail = [dict(f) for f in state.final] if state.final is not None else None
    return envelope(game, state, seat, phase=state.phase, decision={"seat": current}, board=board, final_detail=detail)


def build_views(game: GlueckAuf, state: State, seats: Iterable[int | None]) -> dict[int | None, dict[str, Any]]:
    """Several readers' views (Game.views), each equal to ``build_view``: the spectator's view is built
    once, and a seat's view differs from it only in that seat's own entry (its delivered orders) and
    its draw-5 hand; everything else is the same objects."""
    public = build_view(game, state, None)
    views: dict[int | None, dict[str, Any]] = {}
    for seat in seats:
        views[seat] = public if seat is None else _own_view(game, state, seat, public)
    return views


def _own_view(game: GlueckAuf, state: State, seat: int, public: dict[str, Any]) -> dict[str, Any]:
    board = dict(public["board"])
    players = list(board["seats"])
    players[seat] = _seat(game, state, state.players[seat], seat, seat)
    board.update(seats=players, drawn=_drawn(game, state, seat), returned=_returned(game, state, seat))
    return {**public, "seat": seat, "board": board}


def describe(game: GlueckAuf) -> dict[str, Any]:
    """The table's edition as clients need it (Game.describe): the worker spaces in print order and
    those locked at this player count, the shift clock's categories, the cage and the scoring rates."""
    edition = game.edition
    return {
        **FlowGame.describe(game),
        "board": {
            "spaces": [space.id for space in edition.spaces],
            "locked": [space.id for space in edition.spaces if game.num_players in space.locked_with],
            "categories": [{"id": c.id, "kind": c.kind,
                            "key": (TRANSPORTS if c.kind == "transport_fields" else COLOURS)[c.key],
                            "first": c.first, "second": c.second, "from_shift": c.from_shift}
                           for c in edition.categories],
            "shifts": edition.shifts,
            "cage_capacity": edition.cage_capacity,
            "marks_per_vp": edition.marks_per_vp,
            "coal_per_vp": edition.coal_per_vp,
            "vp_per_outstanding_order": edition.vp_per_outstanding_order,
            "vp_per_unbalanced_tile": edition.vp_per_unbalanced_tile,
        },
    }


def card_view(card: OrderCard) -> dict[str, Any]:
    return {
        "id": card.id,
        "transport": TRANSPORTS[card.transport],
        "vp": card.vp,
        "fields": [COLOURS[c] for c in card.fields],
    }


def tile_view(game: GlueckAuf, tile_id: int) -> dict[str, Any]:
    tile = game.tiles[tile_id]
    return {
        "id": tile_id,
        "colour": COLOURS[tile.colour],
        "carts": tile.carts,
        "side": "light" if tile.light else "dark",
        "cost": game.tile_cost[tile_id],
    }


def _spaces(game: GlueckAuf, state: State) -> dict[str, dict[str, Any]]:
    spaces: dict[str, dict[str, Any]] = {}
    for spot in game.spots:
        entry: dict[str, Any] = {}
        if spot.kind == BANK:
            entry["workers"] = {str(seat): p.bank for seat, p in enumerate(state.players)}
        else:
            count = state.count[spot.index]
            entry["owner"] = state.owner[spot.index] if count else None
            entry["workers"] = count
        if spot.kind == FACTORY:
            tile = state.factory[spot.number]
            entry["tile"] = tile_view(game, tile) if tile else None
        elif spot.kind == ORDER:
            card = state.order_slots[spot.number]
            entry["card"] = card_view(game.cards[card]) if card else None
        spaces[spot.id] = entry
    return spaces


def _drawn(game: GlueckAuf, state: State, seat: int | None) -> list[dict[str, Any]] | None:
    """The draw-5 hand, for its drawer only (as a set: sorted by id)."""
    if seat is None or seat != state.current or not state.drawn:
        return None
    if state.phase in (KEEP_TILE, RETURN_TILES):
        return [tile_view(game, t) for t in sorted(state.drawn)]
    if state.phase in (KEEP_ORDER, RETURN_ORDERS):
        return [card_view(game.cards[c]) for c in sorted(state.drawn)]
    return None


def _returned(game: GlueckAuf, state: State, seat: int | None) -> dict[str, Any] | None:
    """The drawn items put back so far, in that order, and where: the drawer's secret."""
    if seat is None or seat != state.current or not state.returned:
        return None
    if state.phase == RETURN_TILES:
        items = [tile_view(game, t) for t in state.returned]
    else:
        items = [card_view(game.cards[c]) for c in state.returned]
    return {"to": state.return_to, "items": items}


def order_view(game: GlueckAuf, order: Order) -> dict[str, Any]:
    view = card_view(game.cards[order.card])
    view["filled"] = [[COLOURS[c] for c in field] for field in order.fields]
    view["missing"] = order.missing
    return view


def _seat(game: GlueckAuf, state: State, p: Player, seat: int, viewer: int | None) -> dict[str, Any]:
    # every delivered pile is public once the game is over (final scoring counts them openly)
    open_delivered = viewer == seat or game.options["open_delivered"] or state.phase == OVER
    light = [t for t in p.tiles if game.tiles[t].light]
    dark = [t for t in p.tiles if not game.tiles[t].light]
    return {
        "seat": seat,
        "vp": p.vp,
        "money": p.money,
        "workers": p.workers,
        "canteen": p.canteen,
        "bank": p.bank,
        "cage_level": LEVELS[p.cage_level],
        "cage": dict(zip(COLOURS, p.cage, strict=True)),
        "storage": dict(zip(COLOURS, p.storage, strict=True)),
        "tunnels": [
            {
                "colour": COLOURS[t],
                "carts": p.carts[t],
                "coal": dict(zip(COLOURS, p.coal[t * 4 : t * 4 + 4], strict=True)),
                "empty_carts": p.carts[t] - p.cubes_in_tunnel(t),
                "light": [tile_view(game, i) for i in light if game.tiles[i].colour == t],
                "dark": [tile_view(game, i) for i in dark if game.tiles[i].colour == t],
            }
            for t in range(4)
        ],
        "light_tiles": len(light),
        "dark_tiles": len(dark),
        "orders": [order_view(game, o) for o in p.orders],
        "delivered_count": len(p.delivered),
        "delivered": [card_view(game.cards[c]) for c in p.delivered] if open_delivered else None,
    }


def round_of(game: GlueckAuf, state: State) -> int:
    """The shift a state is in (GameSpec.round_of: replays jump by it)."""
    return state.shift


def rounds(game: GlueckAuf) -> int:
    """How many shifts the edition plays (About.rounds: My games)."""
    return game.edition.shifts


def playout_view(game: GlueckAuf, state: State, seat: int) -> dict[str, Any]:
    """The part of ``seat``'s view the heuristic bot reads (games/glueckauf/bot.py), built without
    the rest: search playouts (bots/ismcts.py) ask the heuristic bot at every move of a sampled
    state.  Each value equals the full view's (``build_view``); other seats' entries are empty
    (tests/bots/test_playout_views.py checks both)."""
    p = state.players[seat]
    light = sum(1 for t in p.tiles if game.tiles[t].light)
    me = {
        "money": p.money,
        "workers": p.workers,
        "cage_level": LEVELS[p.cage_level],
        "cage": dict(zip(COLOURS, p.cage, strict=True)),
        "storage": dict(zip(COLOURS, p.storage, strict=True)),
        "tunnels": [{"coal": dict(zip(COLOURS, p.coal[t * 4: t * 4 + 4], strict=True))} for t in range(4)],
        "light_tiles": light,
        "dark_tiles": len(p.tiles) - light,
        "orders": [order_view(game, o) for o in p.orders],
    }
    seats: list[dict[str, Any]] = [{} for _ in state.players]
    seats[seat] = me
    board = {
        "shift": state.shift,
        "shifts": game.edition.shifts,
        "steps_left": state.steps_left,
        "draft": [card_view(game.cards[c]) for c in state.revealed],
        "seats": seats,
        "drawn": _drawn(game, state, seat),
    }
    if state.phase == PLACE:  # the spaces are read only to place a worker
        board["spaces"] = _spaces(game, state)
    return {"seat": seat, "phase": state.phase, "board": board}
