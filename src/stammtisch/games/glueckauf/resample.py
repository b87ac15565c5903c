"""Resampling what one seat cannot see (glueck-auf.md, hidden information; view.py): a full state
built from the seat's knowledge alone, every hidden part drawn at random within the rules.

Blind by construction: ``Game.resample`` takes the seat's **knowledge** (``knowledge``: its view and
the public record below, plain JSON-ready data), and ``sample`` builds a fresh state from that data
alone; it never sees the true state.  Every field of the sample is filled from the knowledge or drawn, so a
field the knowledge does not carry cannot reach a sample.

The **public record** holds what every seat learns from the public events but the view does not
show: every seat's delivered cards (each was an open outstanding order, and the public ``delivered``
event names it; the piles lie face down only to spare the players' memory, so the view shows them
only with ``open_delivered`` or once the game is over), the space emptied this turn, the seat to
move once the game is over, and the counts of notable outcomes so far.

Everything in a pit and on the board is open.  Hidden are the tile stack and the order deck
(contents and order; their sizes are public) and another seat's draw-5 hand.  The sampler gathers
the tiles and the order cards the seat cannot see into sorted lists, shuffles them with ``rng``
and deals them back into those places.  What the seat itself drew and put back on the stack is
kept where the seat saw it go.  The chance generator is reseeded.

Another seat putting its draw-5 hand back: the view does not say which side it chose or how many
it has put back, so the sample starts that return afresh (nothing put back yet).  Where the seat's
own earlier returns lie in the stack (which it alone remembers) is not used.  A pit's tiles are
listed tunnel by tunnel, as the view shows them (no rule reads the order they were bought in).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from stammtisch.engine.chance import Chance
from stammtisch.engine.resample import ResampleError, reseeded
from stammtisch.games.glueckauf.board import BANK, COLOUR_INDEX, FACTORY, LEVEL_INDEX, ORDER
from stammtisch.games.glueckauf.data import COLOURS
from stammtisch.games.glueckauf.state import (
    KEEP_ORDER,
    KEEP_TILE,
    RETURN_ORDERS,
    RETURN_TILES,
    Emptied,
    Player,
    State,
    make_order,
)

if TYPE_CHECKING:
    from stammtisch.games.glueckauf.rules import GlueckAuf

TILE_STAGES = (KEEP_TILE, RETURN_TILES)
ORDER_STAGES = (KEEP_ORDER, RETURN_ORDERS)
Knowledge = dict[str, Any]


# ------------------------------------------------------------------ what the seat knows


def knowledge(game: GlueckAuf, state: State, seat: int) -> Knowledge:
    """Everything ``seat`` knows, as data: its view and the public record."""
    return {"view": game.view(state, seat), "record": public_record(state)}


def public_record(state: State) -> dict[str, Any]:
    """What the public events have shown every seat beyond its view (the module's docstring)."""
    refill = state.refill
    return {
        "delivered": [list(p.delivered) for p in state.players],
        "refill": None if refill is None else [refill.what, refill.slot],
        "current": state.current,
        "stats": dict(state.stats),
    }


# ------------------------------------------------------------------ a state from that knowledge


def sample(game: GlueckAuf, known: Knowledge, rng: random.Random) -> State:
    """A full state that agrees with ``known``, its hidden parts drawn with ``rng``."""
    return Sampler(game, known)(rng)


class Sampler:
    """The samples of one knowledge: what it shows is read once into a state without piles, and the
    items of each pile the seat cannot see are gathered once, sorted (as ``deal`` would); each
    sample is a copy of that state with the chance reseeded and the piles dealt."""

    def __init__(self, game: GlueckAuf, known: Knowledge) -> None:
        self.shown = state = _shown(game, known)
        seat: int = known["view"]["seat"]
        board = known["view"]["board"]
        drawing = state.current if state.phase in TILE_STAGES + ORDER_STAGES else None
        mine = drawing == seat
        other_hand = drawing is not None and not mine
        tiles, orders = state.phase in TILE_STAGES, state.phase in ORDER_STAGES
        self.tiles = Pile(state, [t.id for t in game.edition.tunnel_tiles], _tiles_seen(state), board["tile_stack"],
                          mine and tiles, other_hand and tiles)
        self.orders = Pile(state, [c.id for c in game.edition.order_cards], _orders_seen(state), board["order_deck"],
                           mine and orders, other_hand and orders)

    def __call__(self, rng: random.Random) -> State:
        state = self.shown.copy()
        state.chance = reseeded(rng)
        state.tile_stack, hand = self.tiles.deal(rng)
        if self.tiles.other_hand:
            state.drawn = sorted(hand)  # a hand, not a pile (phases/drawing.py)
        state.order_deck, hand = self.orders.deal(rng)
        if self.orders.other_hand:
            state.drawn = sorted(hand)
        return state


def _shown(game: GlueckAuf, known: Knowledge) -> State:
    """Everything of a sample that ``known`` shows: all but the chance, the piles and another seat's
    draw-5 hand."""
    view, record = known["view"], known["record"]
    board = view["board"]
    seat: int = view["seat"]
    state = State()
    state.chance = Chance(0)  # replaced in every sample
    state.players = [_player(shown, pile) for shown, pile in zip(board["seats"], record["delivered"], strict=True)]
    state.phase, state.shift, state.start_player = view["phase"], board["shift"], board["start_player"]
    state.current = record["current"]
    state.draft_queue = list(board["draft_queue"])
    state.revealed = [card["id"] for card in board["draft"]]
    _spaces(game, state, board["spaces"])
    state.supply = [board["supply"][c] for c in COLOURS]
    state.steps_left = board["steps_left"]
    state.owed_coal = [COLOUR_INDEX[c] for c in board["substitutes_owed"]]
    refill = record["refill"]
    state.refill = None if refill is None else Emptied(refill[0], refill[1])
    detail = view["final"]["detail"] if view["final"] is not None else None
    state.final = None if detail is None else [dict(row) for row in detail]
    state.stats = dict(record["stats"])
    state.scored = [dict(row) for row in board["last_scoring"]]
    drawing = state.current if state.phase in TILE_STAGES + ORDER_STAGES else None
    mine = drawing == seat
    state.drawn = [item["id"] for item in board["drawn"]] if mine and board["drawn"] else []
    returned = board["returned"] if mine else None
    state.return_to = None if returned is None else returned["to"]
    state.returned = [] if returned is None else [item["id"] for item in returned["items"]]
    state.tile_stack, state.order_deck = [], []
    return state


def _player(shown: dict[str, Any], delivered: list[int]) -> Player:
    """A seat's pit as the view shows it (every part of it is open) and its delivered cards."""
    p = Player()
    p.money, p.vp, p.workers, p.canteen, p.bank = (shown["money"], shown["vp"], shown["workers"], shown["canteen"],
                                                   shown["bank"])
    p.cage_level = LEVEL_INDEX[shown["cage_level"]]
    p.cage = [shown["cage"][c] for c in COLOURS]
    p.storage = [shown["storage"][c] for c in COLOURS]
    tunnels = shown["tunnels"]
    p.coal = [tunnel["coal"][c] for tunnel in tunnels for c in COLOURS]
    p.carts = [tunnel["carts"] for tunnel in tunnels]
    p.tiles = [tile["id"] for tunnel in tunnels for tile in tunnel["light"] + tunnel["dark"]]
    p.orders = [make_order(order["id"], tuple(tuple(COLOUR_INDEX[c] for c in field) for field in order["filled"]),
                           order["missing"]) for order in shown["orders"]]
    p.delivered = list(delivered)
    return p


def _spaces(game: GlueckAuf, state: State, spaces: dict[str, dict[str, Any]]) -> None:
    """Who stands on each worker space, and the tiles and cards on the factory and order spaces."""
    state.owner, state.count = [-1] * len(game.edition.spaces), [0] * len(game.edition.spaces)
    state.factory, state.order_slots = [0] * game.factory_slot_count, [0] * game.order_slot_count
    for spot in game.spots:
        entry = spaces[spot.id]
        if spot.kind != BANK and entry["workers"]:
            state.owner[spot.index], state.count[spot.index] = entry["owner"], entry["workers"]
        if spot.kind == FACTORY and entry["tile"] is not None:
            state.factory[spot.number] = entry["tile"]["id"]
        elif spot.kind == ORDER and entry["card"] is not None:
            state.order_slots[spot.number] = entry["card"]["id"]


def _tiles_seen(state: State) -> set[int]:
    seen = {t for t in state.factory if t}
    for player in state.players:
        seen.update(player.tiles)
    return seen


def _orders_seen(state: State) -> set[int]:
    seen = {c for c in state.order_slots if c} | set(state.revealed)
    for player in state.players:
        seen.update(order.card for order in player.orders)
        seen.update(player.delivered)
    return seen


class Pile:
    """A face-down pile of ``size`` and, if another seat is drawing from it, that seat's draw-5 hand
    (the rest of what the seat cannot see), dealt from the items the seat cannot see.  The seat's
    own drawn items and the ones it has put back lie where it saw them go (the top is the end of
    the list; items put under the pile one by one lie in reverse order)."""

    def __init__(self, state: State, items: list[int], seen: set[int], size: int, mine: bool,
                 other_hand: bool) -> None:
        if mine:
            seen = seen | set(state.drawn) | set(state.returned)
        self.unseen = sorted(item for item in items if item not in seen)
        known = state.returned if mine else []
        self.cut = size - len(known)
        hand = len(self.unseen) - self.cut if other_hand else 0
        if self.cut + hand != len(self.unseen):
            raise ResampleError(f"{len(self.unseen)} unseen items for hidden places of sizes {[self.cut, hand]}")
        self.other_hand = other_hand
        self.on_top = state.return_to == "top" and mine
        self.known = known if self.on_top else known[::-1]

    def deal(self, rng: random.Random) -> tuple[list[int], list[int]]:
        """The pile and the hand of one sample (``engine.resample.deal``'s shuffle and cut)."""
        pool = self.unseen[:]
        rng.shuffle(pool)
        pile, hand = pool[:self.cut], pool[self.cut:]
        return (pile + self.known, hand) if self.on_top else (self.known + pile, hand)
