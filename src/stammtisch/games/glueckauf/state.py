"""The state of a game of Glück Auf: plain lists and ints, copied in a few microseconds.

Colours and tunnels share one numbering: 0 yellow, 1 brown, 2 grey, 3 black; the tunnel of
colour ``c`` is cage level ``c + 1`` and level 0 is the surface.  Card and tile ids are the
ids of the edition file.

``Player()`` and ``State()`` are blank (mypyc native classes cannot be made without ``__init__``):
``new`` makes a fresh one for the set-up, ``copy()`` and snapshots fill in every field.  Fields are
declared in the class body in ``__slots__`` order (the order snapshots list them in).
"""

from __future__ import annotations

from typing import Any, Final, NamedTuple

from stammtisch.engine.chance import Chance
from stammtisch.engine.flow import FlowState

# An order field holds the cubes put on it: () empty, (c,) one cube, (a, b) two substitutes.
Field = tuple[int, ...]


class Order(NamedTuple):
    """An outstanding order (a value: filling a field replaces it)."""

    card: int  # card id
    fields: tuple[Field, ...]
    missing: int  # fields still unfilled


def make_order(card: int, fields: tuple[Field, ...], missing: int) -> Order:
    """``Order(card, fields, missing)`` without the named tuple's ``__new__``, which runs interpreted
    even in the compiled build (a few thousand instructions, made at every order taken or filled)."""
    return tuple.__new__(Order, (card, fields, missing))


class Emptied:
    """The space emptied this turn, refilled when the turn is confirmed.  Never changed once made (a
    copied state shares it).  A plain slotted class rather than a frozen dataclass, which compiled
    costs thousands of instructions to make (docs/performance.md)."""

    __slots__ = ("what", "slot")

    def __init__(self, what: str = "", slot: int = 0) -> None:
        self.what = what  # "factory" or "order"
        self.slot = slot  # its number among the spaces of its kind, from 0

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Emptied) and (self.what, self.slot) == (other.what, other.slot)

    def __hash__(self) -> int:
        return hash((self.what, self.slot))

    def __repr__(self) -> str:
        return f"Emptied(what={self.what!r}, slot={self.slot!r})"

# Phases of play (phases/): the seat to act chooses from the actions of the phase.
DRAFT: Final = "draft"
PLACE: Final = "place"
MINING: Final = "mining"
KEEP_TILE: Final = "keep_tile"
RETURN_TILES: Final = "return_tiles"
KEEP_ORDER: Final = "keep_order"
RETURN_ORDERS: Final = "return_orders"
COAL: Final = "coal"
CONFIRM: Final = "confirm"
OVER: Final = "over"


# The fields in declaration order (as_tuple; a compiled class has no ``__slots__`` to read).
PLAYER_FIELDS = (
    "money", "vp", "workers", "canteen", "bank", "cage_level", "cage", "storage",
    "coal", "carts", "tiles", "orders", "delivered",
)  # fmt: skip


class Player:
    __slots__ = PLAYER_FIELDS

    money: int
    vp: int
    workers: int  # in the player's own supply
    canteen: int
    bank: int
    cage_level: int
    cage: list[int]  # cubes in the pit cage by colour
    storage: list[int]  # private coal storage by colour
    coal: list[int]  # cubes on minecarts: tunnel * 4 + colour
    carts: list[int]  # minecarts per tunnel, the printed one included
    tiles: list[int]  # tunnel tiles in the pit, in the order bought
    orders: list[Order]  # outstanding orders
    delivered: list[int]  # delivered order cards (face down)

    @classmethod
    def new(cls, money: int, workers: int) -> Player:
        p = Player()
        p.money, p.vp, p.workers, p.canteen, p.bank, p.cage_level = money, 0, workers, 0, 0, 0
        p.cage, p.storage = [0, 0, 0, 0], [0, 0, 0, 0]
        # at setup one cube of its own colour on each printed minecart
        p.coal = [1 if i % 5 == 0 else 0 for i in range(16)]
        p.carts = [1, 1, 1, 1]
        p.tiles, p.orders, p.delivered = [], [], []
        return p

    def copy(self) -> Player:
        other = Player()
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
        return tuple(getattr(self, name) for name in PLAYER_FIELDS)


STATE_FIELDS = (
    "chance", "players", "phase", "shift", "start_player", "current", "draft_queue", "revealed",
    "owner", "count", "factory", "tile_stack", "order_slots", "order_deck", "supply",
    "steps_left", "drawn", "return_to", "returned", "owed_coal", "refill", "final", "stats", "scored",
)  # fmt: skip


class State(FlowState):
    __slots__ = STATE_FIELDS

    chance: Chance
    players: list[Player]
    phase: str
    shift: int
    start_player: int
    current: int
    draft_queue: list[int]  # seats still to draft, in order
    revealed: list[int]  # order cards open for the draft
    owner: list[int]  # seat whose workers stand on each worker space
    count: list[int]  # how many workers stand there
    factory: list[int]  # tile on each factory slot (0: none)
    tile_stack: list[int]  # face down; the top is the end of the list
    order_slots: list[int]  # card on each order space (0: none)
    order_deck: list[int]  # face down; the top is the end of the list
    supply: list[int]  # coal cubes in the general supply
    steps_left: int  # work steps left in the current mining action
    drawn: list[int]  # tiles or cards drawn by the draw-5 spaces, seen by their drawer
    return_to: str | None  # "top" or "bottom" once the drawer has put one back
    returned: list[int]  # the drawn items put back so far, in that order (the drawer's secret)
    owed_coal: list[int]  # tunnels of new minecarts still waiting for a substitute cube
    refill: Emptied | None  # the space emptied this turn, refilled on confirm
    final: list[dict[str, int]] | None  # final scoring breakdown per seat
    stats: dict[str, int]
    scored: list[dict[str, Any]]  # the last shift scoring, category by category (public)

    def current_phase(self) -> str:
        return self.phase

    def acting_seat(self) -> int:
        return self.current

    def set_phase(self, name: str) -> None:
        self.phase = name

    @classmethod
    def new(cls, chance: Chance, players: list[Player], spaces: int) -> State:
        state = State()
        state.chance, state.players, state.phase = chance, players, DRAFT
        state.shift, state.start_player, state.current = 1, 0, 0
        state.draft_queue, state.revealed = [], []
        state.owner, state.count = [-1] * spaces, [0] * spaces
        state.factory, state.tile_stack, state.order_slots, state.order_deck = [], [], [], []
        state.supply, state.steps_left = [0, 0, 0, 0], 0
        state.drawn, state.return_to, state.returned, state.owed_coal = [], None, [], []
        state.refill, state.final, state.stats, state.scored = None, None, {}, []
        return state

    def copy(self) -> State:
        other = State()
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
        for name in STATE_FIELDS:
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

