"""The board of Glück Auf: worker spaces open at this table, the levels of the pit, order fields."""

from __future__ import annotations

from typing import Final

from stammtisch.engine.protocol import Action
from stammtisch.games.glueckauf.data import COLOURS
from stammtisch.games.glueckauf.state import Field

LEVELS: Final = ("surface", "yellow", "brown", "grey", "black")
SOURCES: Final = ("cage", "storage")
COLOUR_INDEX = {name: i for i, name in enumerate(COLOURS)}
LEVEL_INDEX = {name: i for i, name in enumerate(LEVELS)}

# kinds of worker spaces; the factory kinds come first and the order kinds last (placement's legal
# list tests them as ranges)
FACTORY: Final = 0
FACTORY_DRAW: Final = 1
MINING_SPACE: Final = 2
DELIVERY: Final = 3
MONEY: Final = 4
BANK: Final = 5
ORDER: Final = 6
ORDER_DRAW: Final = 7
KIND = {"factory": FACTORY, "factory_draw": FACTORY_DRAW, "mining": MINING_SPACE, "delivery": DELIVERY,
        "money": MONEY, "bank": BANK, "order": ORDER, "order_draw": ORDER_DRAW}  # fmt: skip


class Spot:
    """An open worker space of this table, with everything placement needs precomputed."""

    __slots__ = ("index", "id", "kind", "number", "place")

    def __init__(self, index: int, space_id: str, kind: int, number: int) -> None:
        self.index = index  # position in the edition's space list (state.owner / state.count)
        self.id = space_id
        self.kind = kind
        self.number = number  # slot (0-based), steps, Marks or transport index
        self.place: Action = ("place", space_id)


def is_complete(printed: int, field: Field) -> bool:
    """Whether an order field of the ``printed`` colour is filled: by one cube of its colour or two
    substitutes."""
    return len(field) == 2 or (len(field) == 1 and field[0] == printed)


def accepts(printed: int, field: Field) -> bool:
    """An empty field takes any cube (its colour, or the first of two substitutes); a field
    holding one substitute takes a second cube of any colour."""
    return not field or (len(field) == 1 and field[0] != printed)
