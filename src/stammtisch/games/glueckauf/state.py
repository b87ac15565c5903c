"""The state of a game of Glück Auf: plain lists and ints, copied in a few microseconds.

Colours and tunnels share one numbering: 0 yellow, 1 brown, 2 grey, 3 black; the tunnel of
colour ``c`` is cage level ``c + 1`` and level 0 is the surface.  Card and tile ids are the
ids of the edition file.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

from stammtisch.engine.chance import Chance

# An order field holds the cubes put on it: () empty, (c,) one cube, (a, b) two substitutes.
Field = tuple[int, ...]


class Order(NamedTuple):
    """An outstanding order (a value: filling a field replaces it)."""

    card: int  # card id
    fields: tuple[Field, ...]
    missing: int  # fields still unfilled


@dataclass(frozen=True, slots=True)
class Emptied:
    """The space emptied this turn, refilled when the turn is confirmed."""

    what: str  # "factory" or "order"
    slot: int  # its number among the spaces of its kind, from 0

# Phases of play (phases/): the seat to act chooses from the actions of the phase.
DRAFT = "draft"
PLACE = "place"
MINING = "mining"
KEEP_TILE = "keep_tile"
RETURN_TILES = "return_tiles"
KEEP_ORDER = "keep_order"
RETURN_ORDERS = "return_orders"
COAL = "coal"
CONFIRM = "confirm"
OVER = "over"


class Player:
    __slots__ = (
        "money", "vp", "workers", "canteen", "bank", "cage_level", "cage", "storage",
        "coal", "carts", "tiles", "orders", "delivered",
    )  # fmt: skip

    def __init__(self, money: int, workers: int) -> None:
        self.money = money
        self.vp = 0
        self.workers = workers  # in the player's own supply
        self.canteen = 0
        self.bank = 0
        self.cage_level = 0
        self.cage = [0, 0, 0, 0]  # cubes in the pit cage by colour
        self.storage = [0, 0, 0, 0]  # private coal storage by colour
        self.coal = [1 if i % 5 == 0 else 0 for i in range(16)]  # cubes on minecarts: tunnel * 4 + colour;
        # at setup one cube of its own colour on each printed minecart
        self.carts = [1, 1, 1, 1]  # minecarts per tunnel, the printed one included
        self.tiles: list[int] = []  # tunnel tiles in the pit, in the order bought
        self.orders: list[Order] = []  # outstanding orders
        self.delivered: list[int] = []  # delivered order cards (face down)

    def copy(self) -> Player:
        other = Player.__new__(Player)
        other.money = self.money
        other.vp = self.vp
        other.workers = self.workers
        other.canteen = self.canteen
        other.bank = self.bank
        other.cage_level = self.cage_level
        other.cage = self.cage[:]
        other.storage = self.storage[:]
        other.coal = self.coal[:]
        other.carts = self.carts[:]
        other.tiles = self.tiles[:]
        other.orders = self.orders[:]
        other.delivered = self.delivered[:]
        return other

    def cubes_in_tunnel(self, tunnel: int) -> int:
        base = tunnel * 4
        coal = self.coal
        return coal[base] + coal[base + 1] + coal[base + 2] + coal[base + 3]

    def coal_owned(self) -> int:
        on_orders = sum(len(f) for order in self.orders for f in order.fields)
        return sum(self.coal) + sum(self.cage) + sum(self.storage) + on_orders

    def as_tuple(self) -> tuple[object, ...]:
        return tuple(getattr(self, name) for name in Player.__slots__)


class State:
    __slots__ = (
        "chance", "players", "phase", "shift", "start_player", "current", "draft_queue", "revealed",
        "owner", "count", "factory", "tile_stack", "order_slots", "order_deck", "supply",
        "steps_left", "drawn", "return_to", "returned", "owed_coal", "refill", "final", "stats", "scored",
    )  # fmt: skip

    def __init__(self, chance: Chance, players: list[Player], spaces: int) -> None:
        self.chance = chance
        self.players = players
        self.phase = DRAFT
        self.shift = 1
        self.start_player = 0
        self.current = 0
        self.draft_queue: list[int] = []  # seats still to draft, in order
        self.revealed: list[int] = []  # order cards open for the draft
        self.owner = [-1] * spaces  # seat whose workers stand on each worker space
        self.count = [0] * spaces  # how many workers stand there
        self.factory: list[int] = []  # tile on each factory slot (0: none)
        self.tile_stack: list[int] = []  # face down; the top is the end of the list
        self.order_slots: list[int] = []  # card on each order space (0: none)
        self.order_deck: list[int] = []  # face down; the top is the end of the list
        self.supply = [0, 0, 0, 0]  # coal cubes in the general supply
        self.steps_left = 0  # work steps left in the current mining action
        self.drawn: list[int] = []  # tiles or cards drawn by the draw-5 spaces, seen by their drawer
        self.return_to: str | None = None  # "top" or "bottom" once the drawer has put one back
        self.returned: list[int] = []  # the drawn items put back so far, in that order (the drawer's secret)
        self.owed_coal: list[int] = []  # tunnels of new minecarts still waiting for a substitute cube
        self.refill: Emptied | None = None  # the space emptied this turn, refilled on confirm
        self.final: list[dict[str, int]] | None = None  # final scoring breakdown per seat
        self.stats: dict[str, int] = {}
        self.scored: list[dict[str, Any]] = []  # the last shift scoring, category by category (public)

    def copy(self) -> State:
        other = State.__new__(State)
        other.chance = self.chance.copy()
        other.players = [p.copy() for p in self.players]
        other.phase = self.phase
        other.shift = self.shift
        other.start_player = self.start_player
        other.current = self.current
        other.draft_queue = self.draft_queue[:]
        other.revealed = self.revealed[:]
        other.owner = self.owner[:]
        other.count = self.count[:]
        other.factory = self.factory[:]
        other.tile_stack = self.tile_stack[:]
        other.order_slots = self.order_slots[:]
        other.order_deck = self.order_deck[:]
        other.supply = self.supply[:]
        other.steps_left = self.steps_left
        other.drawn = self.drawn[:]
        other.return_to = self.return_to
        other.returned = self.returned[:]
        other.owed_coal = self.owed_coal[:]
        other.refill = self.refill
        other.final = None if self.final is None else [dict(f) for f in self.final]
        other.stats = dict(self.stats)
        other.scored = self.scored[:]  # its rows are never changed, only replaced
        return other

    def as_tuple(self) -> tuple[object, ...]:
        """Everything in the state, for exact comparisons (tests, replays)."""
        values: list[object] = []
        for name in State.__slots__:
            value = getattr(self, name)
            if name == "players":
                value = tuple(p.as_tuple() for p in value)
            elif name == "chance":
                value = (value.seed, value.draws)
            values.append(value)
        return tuple(values)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and self.as_tuple() == other.as_tuple()

    __hash__ = None  # type: ignore[assignment]
